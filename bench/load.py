"""Load, soak and memory: 60 players play full rounds on one seeded board against gunicorn as the README runs it,
with the rounds in the store: SQLite (the default) and a PostgreSQL cluster of its own.

    python3 bench/load.py                        # load (paced and flat out) on each store, soak, memory
    python3 bench/load.py --only load            # or soak, or memory
    python3 bench/load.py --only load --store postgresql   # one store (sqlite, postgresql; default both)
    python3 bench/load.py --soak 60 --warm-up 20 # a shorter soak

A player is a coroutine with its own session cookie: it opens the board page, submits about 40 words with htmx
(30 of the board's words, half typed and half traced, 5 repeats and 5 non-words, in a shuffled order), ends
the round, reads the summary and opens the solution. Every answer is checked (status and content: a new word
is scored, a repeat is "already found", the summary's score is the sum of the player's words); any other answer,
or a failed connection, is an error. Latency is measured by the client, from connecting to the last byte.

Every player comes from one address and plays flat out in the stress and soak runs, far past a person's pace: the
server runs without its per-client limits (tools/servers.py turns them off; bench/rooms.py runs a class with them on).

- load: 60 players (--players) play one round each at once, paced: a pause of --think seconds on average
  between a player's requests (drawn at random; 1 s by default, three times the pace of 40 words in a 2-minute
  round). Each word answered is a transaction in the store. Target (issue 11): word submission p99 under 50 ms,
  no errors, on SQLite and on PostgreSQL (a fresh cluster started by tools/postgres.py). Then a stress run,
  flat out (no pause: every player's request always in flight, the server saturated): its latencies are for
  information, its errors count.
- soak: the players play round after round, flat out, for --soak seconds after --warm-up seconds; each
  worker's RSS is read before and after the soak and every minute in between (target: growth under 5%).
  With --boards N each round is played on one of N boards, so that the per-process caches (solutions,
  rendered boards) fill up and churn: their growth must stop where their size limit is.
- memory: gunicorn with 1, 2 and 4 workers, warmed up with 12x12 boards in every loaded language (so that
  each worker walks most of every dictionary) and a round of the 30 players; RSS, PSS and USS of each process
  from /proc/<pid>/smaps_rollup, and the dictionaries'
  own mappings from /proc/<pid>/smaps: memory-mapped files count once however many workers map them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle import Lexicon, blocked_words, generate  # noqa: E402
from ruzzle.game import Solution  # noqa: E402
from tools.postgres import postgres_cluster  # noqa: E402
from tools.servers import Server, gunicorn_server  # noqa: E402

SEED = "LOAD30"
BOARD = f"/play/en/{SEED}"
PLAYERS = 60
STORES = ("sqlite", "postgresql")
VALID_WORDS, REPEATS, NON_WORDS = 30, 5, 5
NOT_WORDS = ("ZZXQ", "QQQ", "XKCD", "BRRZ", "JJJJ", "QWRT", "ZZZZT", "XXYYZ")
KINDS = ("page load", "word submission", "round end", "solution")
TARGET_P99_WORD_MS = 50
TARGET_RSS_GROWTH = 0.05
DICTIONARY_FILES = (".marisa", ".nodes")


Boards = list[tuple[str, Solution]]  # (board URL path, its solution as the server solves it)


def solve_seed(seed: str) -> Solution:
    """A 4x4 English board's solution, as the web app solves it (classroom filter on)."""
    return Solution.of(generate("en", seed), Lexicon.builtin("en"), blocked_words("en"))


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: str


@dataclass
class Stats:
    """Latencies (seconds) by kind of request, and the errors seen."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    errors: list[str] = field(default_factory=list)

    def requests(self) -> int:
        return sum(len(values) for values in self.latencies.values())


async def fetch(port: int, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> tuple[Reply, float]:
    """One HTTP/1.1 request on a fresh connection (gunicorn's sync workers close each one); the reply and its time."""
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Connection: close",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    if body:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    start = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        raw = await reader.read()
    finally:
        writer.close()
    elapsed = time.perf_counter() - start
    head, _, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        parsed.setdefault(name.strip().lower(), value.strip())
    return Reply(int(status_line.split()[1]), parsed, content.decode("utf-8", "replace")), elapsed


@dataclass
class Submission:
    """One word a player sends, and what the server must answer."""

    form: dict[str, str]
    word: str
    expect: str  # "scored", "already found" or "refused"
    score: int = 0


def plan_round(solution: Solution, rng: random.Random) -> list[Submission]:
    """About 40 submissions: board words (half typed, half traced), then repeats of some, and non-words."""
    chosen = rng.sample(list(solution), min(VALID_WORDS, len(solution)))
    plan = []
    for i, found in enumerate(chosen):
        form = {"word": found.word.lower()} if i % 2 else {"path": " ".join(f"{r},{c}" for r, c in found.path)}
        plan.append(Submission(form, found.word, "scored", found.score))
    rng.shuffle(plan)
    repeats = [Submission({"word": s.word}, s.word, "already found") for s in rng.sample(plan, REPEATS)]
    non_words = [Submission({"word": word}, word, "refused") for word in rng.sample(NOT_WORDS, NON_WORDS)]
    tail = repeats + non_words
    rng.shuffle(tail)
    return plan + tail  # repeats after the words they repeat


class Player:
    """One browser: a session cookie and a round to play, its requests timed into shared statistics."""

    def __init__(self, number: int, port: int, boards: Boards, stats: Stats, think: float, seed: int):
        self.number, self.port, self.boards, self.stats, self.think = number, port, boards, stats, think
        self.rng = random.Random(seed)
        self.cookie: str | None = None

    async def pause(self) -> None:
        if self.think:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))

    async def request(
        self, kind: str, method: str, path: str, form: dict | None = None, htmx: bool = False
    ) -> Reply | None:
        headers = {"HX-Request": "true"} if htmx else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = urllib.parse.urlencode(form).encode() if form else b""
        try:
            reply, elapsed = await fetch(self.port, method, path, headers, body)
        except OSError as error:
            self.stats.errors.append(f"{kind}: {error!r}")
            return None
        self.stats.latencies[kind].append(elapsed)
        if "set-cookie" in reply.headers:
            self.cookie = reply.headers["set-cookie"].split(";")[0]
        if reply.status >= 500:
            self.stats.errors.append(f"{kind}: status {reply.status}")
            return None
        return reply

    def check(self, ok: bool, what: str) -> None:
        if not ok:
            self.stats.errors.append(f"player {self.number}: {what}")

    async def play_round(self) -> None:
        """Open the board, submit ~40 words, end the round, read the summary and the solution."""
        board, solution = self.rng.choice(self.boards)
        plan = plan_round(solution, self.rng)
        page = await self.request("page load", "GET", board)
        if page is None:
            return
        self.check(page.status == 200 and '<table id="board"' in page.body, f"board page {page.status}")
        expected_score = 0
        for submission in plan:
            await self.pause()
            reply = await self.request("word submission", "POST", board + "/words", submission.form, htmx=True)
            if reply is None:
                continue
            if submission.expect == "scored":
                expected_score += submission.score
                ok = f'<span class="breakdown-total">{submission.score} points</span>' in reply.body
            elif submission.expect == "already found":
                ok = f"{submission.word} is already found" in reply.body
            else:
                ok = "result-refused" in reply.body
            self.check(reply.status == 200 and ok, f"{submission.word} ({submission.expect}): {reply.status}")
        await self.pause()
        end = await self.request("round end", "POST", board + "/round", {"action": "give-up"})
        self.check(end is not None and end.status == 303, "give up")
        await self.pause()
        summary = await self.request("page load", "GET", board)
        self.check(
            summary is not None
            and f'<p class="summary-score"><strong>{expected_score}</strong> points' in summary.body,
            "the summary's score is not the sum of the words found",
        )
        await self.pause()
        shown = await self.request("solution", "GET", board + "/solution")
        self.check(shown is not None and shown.status == 200 and 'class="word-table"' in shown.body, "solution page")
        again = await self.request("round end", "POST", board + "/round", {"action": "again"})
        self.check(again is not None and again.status == 303, "play again")


async def play(
    port: int, boards: Boards, players: int, think: float, until: float | None = None, seed: int = 0
) -> Stats:
    """`players` play one round each at once, or round after round until the clock passes `until`; each round
    on one of the boards, drawn at random."""
    stats = Stats()

    async def one(number: int) -> None:
        player = Player(number, port, boards, stats, think, seed * 1000 + number)
        if think:
            await asyncio.sleep(player.rng.uniform(0, think))  # players do not all start on the same tick
        await player.play_round()
        while until is not None and time.monotonic() < until:
            await player.play_round()

    await asyncio.gather(*(one(number) for number in range(players)))
    return stats


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(round(share * len(ordered) + 0.5)) - 1))]


def latency_table(stats: Stats, seconds: float) -> list[str]:
    lines = [
        f"{'':17}{'requests':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}",
    ]
    for kind in KINDS:
        values = stats.latencies[kind]
        if values:
            ms = [1000 * value for value in values]
            lines.append(
                f"{kind:17}{len(ms):9d}{percentile(ms, 0.5):9.1f}{percentile(ms, 0.95):9.1f}"
                f"{percentile(ms, 0.99):9.1f}{max(ms):9.1f}"
            )
    lines.append(
        f"{stats.requests()} requests in {seconds:.1f} s ({stats.requests() / seconds:.0f}/s), "
        f"errors: {len(stats.errors)}"
    )
    lines += [f"  error: {error}" for error in stats.errors[:10]]
    return lines


def word_p99_ms(stats: Stats) -> float:
    return 1000 * percentile(stats.latencies["word submission"], 0.99)


# --- memory of the processes ----------------------------------------------------------------------------------------


def rollup(pid: int) -> dict[str, int]:
    """kB figures of /proc/<pid>/smaps_rollup: Rss, Pss, Private_Clean, ..."""
    figures = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        figures[name] = int(rest.split()[0])
    return figures


def dictionary_mappings(pid: int) -> dict[str, int]:
    """kB of Rss and Pss of the mapped word files (.marisa, .nodes: dictionaries, generator data) in
    /proc/<pid>/smaps."""
    totals = {"Rss": 0, "Pss": 0}
    inside = False
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        first = line.split(None, 1)[0]
        if "-" in first and not first.endswith(":"):  # a mapping's header line: address range ... path
            inside = line.rstrip().endswith(DICTIONARY_FILES)
        elif inside and first in ("Rss:", "Pss:"):
            totals[first[:-1]] += int(line.split()[1])
    return totals


def memory_of(pid: int) -> dict[str, float]:
    """MB: RSS, PSS, USS (private), and the dictionaries' RSS and PSS, of one process."""
    figures, dictionaries = rollup(pid), dictionary_mappings(pid)
    return {
        "rss": figures["Rss"] / 1024,
        "pss": figures["Pss"] / 1024,
        "uss": (figures["Private_Clean"] + figures["Private_Dirty"]) / 1024,
        "dict_rss": dictionaries["Rss"] / 1024,
        "dict_pss": dictionaries["Pss"] / 1024,
    }


def configured_workers() -> int:
    """The number of workers gunicorn.conf.py starts on this machine."""
    return int(os.environ.get("RUZZLE_WORKERS", os.cpu_count() * 2 + 1))


def wait_for_workers(server: Server, count: int, timeout: float = 60) -> list[int]:
    deadline = time.monotonic() + timeout
    while len(pids := server.worker_pids()) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {len(pids)} of {count} workers started")
        time.sleep(0.2)
    return pids


async def warm_with_big_boards(port: int, boards: int = 12, concurrency: int = 8) -> int:
    """Ask for 12x12 boards in every language the server has loaded (each solved by whichever worker gets it,
    three times over), so that each worker walks most of every dictionary; the number of failed requests."""
    reply, _ = await fetch(port, "GET", "/healthz", {})
    languages = sorted(json.loads(reply.body)["dictionaries"])
    paths = [f"/play/{language}/WARM{n:02d}?size=12x12" for language in languages for n in range(boards)] * 3
    random.Random(1).shuffle(paths)
    queue: asyncio.Queue = asyncio.Queue()
    for path in paths:
        queue.put_nowait(path)
    failures = 0

    async def worker() -> None:
        nonlocal failures
        while not queue.empty():
            reply, _ = await fetch(port, "GET", queue.get_nowait(), {})
            failures += reply.status != 200

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return failures


def memory_scenario(worker_counts: tuple[int, ...], preload: bool, boards: Boards) -> list[str]:
    """Per-process memory with 1, 2, 4 workers: idle after start, then after the same warm-up."""
    lines = [
        f"{'workers':>7} {'process':>9}{'idle RSS':>10}{'idle USS':>10}{'RSS MB':>9}{'PSS MB':>9}{'USS MB':>9}"
        f"{'words RSS':>11}{'words PSS':>11}"
    ]
    totals = {}
    env = {"GUNICORN_CMD_ARGS": "--preload"} if preload else {}
    for count in worker_counts:
        with store_environment("sqlite") as store, gunicorn_server(workers=count, **env, **store) as server:
            pids = wait_for_workers(server, count)
            time.sleep(1)
            processes = [("master", server.process.pid)] + [(f"worker {i + 1}", pid) for i, pid in enumerate(pids)]
            idle = {name: memory_of(pid) for name, pid in processes}
            port = int(server.url.rsplit(":", 1)[1])
            failures = asyncio.run(warm_with_big_boards(port))
            failures += len(asyncio.run(play(port, boards, PLAYERS, think=0)).errors)
            time.sleep(1)
            figures = {name: memory_of(pid) for name, pid in processes}
        for name, memory in [*figures.items(), ("all", total(figures.values()))]:
            lines.append(
                f"{count:7d} {name:>9}{idle.get(name, total(idle.values()))['rss']:10.1f}"
                f"{idle.get(name, total(idle.values()))['uss']:10.1f}{memory['rss']:9.1f}{memory['pss']:9.1f}"
                f"{memory['uss']:9.1f}{memory['dict_rss']:11.2f}{memory['dict_pss']:11.2f}"
            )
        lines[-1] += f"   warm-up errors: {failures}"
        totals[count] = (total(idle.values())["pss"], total(figures.values())["pss"])
    counts = sorted(totals)
    if len(counts) > 1:
        spread = counts[-1] - counts[0]
        idle_step = (totals[counts[-1]][0] - totals[counts[0]][0]) / spread
        warm_step = (totals[counts[-1]][1] - totals[counts[0]][1]) / spread
        lines.append(
            f"each extra worker adds {idle_step:.1f} MB of PSS idle, {warm_step:.1f} MB warmed up (its own "
            "caches of solutions and rendered boards); the word files' PSS stays one copy"
        )
    return lines


def total(memories) -> dict[str, float]:
    """The sum of each figure over several processes."""
    memories = list(memories)
    return {key: sum(memory[key] for memory in memories) for key in memories[0]}


def soak_scenario(server: Server, boards: Boards, seconds: float, warm_up: float) -> tuple[list[str], bool]:
    """Players play round after round, flat out; each worker's RSS before and after (and each minute between)."""
    port = int(server.url.rsplit(":", 1)[1])
    pids = wait_for_workers(server, configured_workers())
    warm = asyncio.run(play(port, boards, PLAYERS, think=0, until=time.monotonic() + warm_up, seed=7))
    before = {pid: memory_of(pid)["rss"] for pid in pids}
    samples: list[dict[int, float]] = []
    stats = Stats()
    start = time.monotonic()
    end = start + seconds
    round_number = 0
    while time.monotonic() < end:  # one minute at a time, so that RSS is sampled in between
        round_number += 1
        part = asyncio.run(
            play(port, boards, PLAYERS, think=0, until=min(end, time.monotonic() + 60), seed=100 + round_number)
        )
        for kind in KINDS:
            stats.latencies[kind] += part.latencies[kind]
        stats.errors += part.errors
        samples.append({pid: memory_of(pid)["rss"] for pid in pids if Path(f"/proc/{pid}").exists()})
    elapsed = time.monotonic() - start
    after = samples[-1]
    lines = [f"warm-up {warm_up:.0f} s ({warm.requests()} requests, {len(warm.errors)} errors), then the soak:"]
    lines += latency_table(stats, elapsed)
    lines.append(
        f"{'worker':>8}{'RSS before MB':>15}"
        + "".join(f"{f'{m + 1} min':>9}" for m in range(len(samples)))
        + f"{'growth':>9}"
    )
    worst = 0.0
    for pid in pids:
        if pid not in after:
            lines.append(f"{pid:8d} ended during the soak (a worker restart is a failure here)")
            worst = float("inf")
            continue
        growth = after[pid] / before[pid] - 1
        worst = max(worst, growth)
        lines.append(
            f"{pid:8d}{before[pid]:15.1f}"
            + "".join(f"{sample.get(pid, 0):9.1f}" for sample in samples)
            + f"{growth:9.1%}"
        )
    ok = not stats.errors and worst < TARGET_RSS_GROWTH
    lines.append(
        f"worst RSS growth {worst:.1%} (target under {TARGET_RSS_GROWTH:.0%}), errors {len(stats.errors)}: "
        f"{'PASS' if ok else 'FAIL'}"
    )
    return lines, ok


@contextlib.contextmanager
def store_environment(kind: str):
    """RUZZLE_DATABASE_URL for a fresh store of this kind: a SQLite file in a temporary folder, or a database on
    a PostgreSQL cluster of its own (stopped at the end)."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="ruzzle-load-") as folder:
            yield {"RUZZLE_DATABASE_URL": f"sqlite:///{folder}/store.sqlite3"}
    else:
        with postgres_cluster() as cluster:
            yield {"RUZZLE_DATABASE_URL": cluster.new_database("load")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("load", "soak", "memory"), help="run one part only")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean pause in seconds between a paced player's requests (default 1.0)"
    )
    parser.add_argument("--soak", type=float, default=300, help="soak seconds (default 300)")
    parser.add_argument("--warm-up", type=float, default=60, help="seconds played before the soak (default 60)")
    parser.add_argument(
        "--boards",
        type=int,
        default=1,
        help="boards the soak's rounds are played on (default 1: the load test's board)",
    )
    parser.add_argument("--preload", action="store_true", help="memory also with gunicorn --preload, for comparison")
    parser.add_argument("--players", type=int, default=PLAYERS, help=f"players at once (default {PLAYERS})")
    parser.add_argument(
        "--store",
        choices=STORES,
        action="append",
        help="the store of the load runs (repeatable; default both; the soak and memory use SQLite)",
    )
    args = parser.parse_args()
    players = args.players
    solution = solve_seed(SEED)
    boards = [(BOARD, solution)]
    print(
        f"board /play/en/{SEED} (4x4, {len(solution)} words); {players} players; gunicorn --config gunicorn.conf.py "
        f"app:app as the README runs it; client: one asyncio process on the same 2-core machine"
    )
    averages = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average before: {averages} (other work on the machine adds to it)")
    ok = True
    if args.only in (None, "load"):
        for kind in args.store or STORES:
            with store_environment(kind) as environment, gunicorn_server(**environment) as server:
                workers = len(wait_for_workers(server, configured_workers()))
                print(f"\n# store: {kind}; {workers} workers (gunicorn.conf.py)")
                port = int(server.url.rsplit(":", 1)[1])
                asyncio.run(play(port, boards, 4, think=0, seed=99))  # every worker has solved the board
                start = time.monotonic()
                stats = asyncio.run(play(port, boards, players, think=args.think, seed=1))
                print(
                    f"\n## load, paced, {kind}: {players} players, a pause of {args.think:g} s on average between "
                    "a player's requests"
                )
                print("\n".join(latency_table(stats, time.monotonic() - start)))
                passed = not stats.errors and word_p99_ms(stats) < TARGET_P99_WORD_MS
                print(
                    f"word submission p99 {word_p99_ms(stats):.1f} ms (target under {TARGET_P99_WORD_MS} ms), "
                    f"errors {len(stats.errors)}: {'PASS' if passed else 'FAIL'}"
                )
                ok &= passed
                start = time.monotonic()
                stats = asyncio.run(play(port, boards, players, think=0, seed=2))
                print(
                    f"\n## stress, flat out, {kind}: no pause, {players} requests always in flight "
                    "(for information; errors count)"
                )
                print("\n".join(latency_table(stats, time.monotonic() - start)))
                ok &= not stats.errors
    if args.only in (None, "soak"):
        with store_environment("sqlite") as environment, gunicorn_server(**environment) as server:
            soak_boards = (
                boards
                if args.boards == 1
                else [(f"/play/en/SOAK{n:03d}", solve_seed(f"SOAK{n:03d}")) for n in range(args.boards)]
            )
            print(
                f"\n## soak, {args.soak:g} s flat out, "
                + (
                    f"board {BOARD}"
                    if args.boards == 1
                    else f"each round on one of {args.boards} boards /play/en/SOAK000.. drawn at random"
                )
            )
            lines, passed = soak_scenario(server, soak_boards, args.soak, args.warm_up)
            print("\n".join(lines))
            ok &= passed
    if args.only in (None, "memory"):
        for preload in (False, True) if args.preload else (False,):
            print(
                f"\n## memory per worker count{' (gunicorn --preload)' if preload else ''}; MB; "
                "words: the mapped word files (dictionaries and generator data)"
            )
            print("\n".join(memory_scenario((1, 2, 4), preload, boards)))
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
