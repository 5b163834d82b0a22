"""A live room under load: 100 players in one room, each polling its clock every 2 s and sending a word every
2 s, against gunicorn as the README runs it, on SQLite (the default store) or PostgreSQL.

    python3 bench/rooms.py                       # 100 players, 60 s of play, SQLite
    python3 bench/rooms.py --players 30 --seconds 20 --store postgresql

The host opens the room and starts it; each player joins with a nickname (its own session cookie), then, from
the start, polls its clock, `GET /rooms/<CODE>/clock`, as the board page does (htmx, with the ETag of its last
answer: a clock the teacher did not change is a 304) and sends one of the board's words (`POST /rooms/<CODE>/words`, htmx). The host
polls the ranking as JSON every 2 s, as its projector page does. Every answer is checked (status and content);
any other answer, or a failed connection, is an error. At the end the ranking's totals must equal the sum of the
words the server accepted, player by player.

Before the start each player loads the waiting page (where a join leads), and at the start every player loads
the board page at once, as every phone does when its 3-2-1 ends.

Every player comes from one address (127.0.0.1), as a class behind a school's one address does, and the server
runs with its per-client limits on as they ship (joins and codes per address, words per player): the run shows that
a class of 100 never meets them (any 429 is an error) and what counting costs.

Printed: latency (p50, p95, p99, max) of the board pages, polls and words (target, issue 13: p99 under 100 ms, no errors), the
share of polls answered 304, and the time from a word's answer to the host's ranking showing it (the host polls
every 2 s, so up to about 2 s by design).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import fetch, percentile  # noqa: E402
from ruzzle import Lexicon, blocked_words, generate  # noqa: E402
from ruzzle.game import Solution  # noqa: E402
from ruzzle.generator import LATEST_VERSION  # noqa: E402
from tools.postgres import postgres_cluster  # noqa: E402
from tools.servers import gunicorn_server  # noqa: E402

SEED = "ROOMLD"
POLL_EVERY = 2.0
WORD_EVERY = 2.0
ROUND_SECONDS = 300
TARGET_P99_MS = 100
HTMX = {"HX-Request": "true"}


def form(values: dict[str, str]) -> bytes:
    return urllib.parse.urlencode(values).encode()


def cookie_of(reply) -> str:
    return reply.headers.get("set-cookie", "").split(";", 1)[0]


class Room:
    """The shared state of one run: latencies, errors, what each player scored, when each word was answered."""

    def __init__(self, port: int, code: str):
        self.port, self.code = port, code
        self.latencies = {"board page": [], "poll": [], "word": []}
        self.started = time.monotonic()
        self.timeline: list[tuple[float, str, float]] = []  # (seconds since the start, kind, latency)
        self.not_modified = 0
        self.errors: list[str] = []
        self.expected: dict[str, int] = {}
        self.pending: list[tuple[float, str, int]] = []  # (answered at, nickname, the total it made)
        self.delays: list[float] = []

    def error(self, text: str) -> None:
        self.errors.append(text)


async def join(room: Room, nickname: str) -> str | None:
    """Join the room with a nickname; the player's session cookie."""
    reply, _ = await fetch(room.port, "POST", f"/rooms/{room.code}/players", {}, form({"nickname": nickname}))
    cookie = cookie_of(reply)
    if reply.status != 303 or not cookie:
        room.error(f"{nickname}: join answered {reply.status}")
        return None
    room.expected[nickname] = 0
    reply, _ = await fetch(room.port, "GET", f"/rooms/{room.code}/play", {"Cookie": cookie})  # the join's redirect
    if reply.status != 200 or "room-wait-title" not in reply.body:
        room.error(f"{nickname}: the waiting page answered {reply.status}")
    return cookie


async def player(room: Room, nickname: str, cookie: str, words: list, until: float, rng: random.Random) -> None:
    """At the start, load the board page (as every phone does at once); then poll and send a word every 2 s (each
    player on its own clock, started at a random offset)."""
    reply, elapsed = await fetch(room.port, "GET", f"/rooms/{room.code}/play", {"Cookie": cookie})
    room.latencies["board page"].append(elapsed)
    if reply.status != 200 or 'id="board"' not in reply.body:
        room.error(f"{nickname}: the board page answered {reply.status}")
    await asyncio.sleep(rng.uniform(0, POLL_EVERY))
    etag = ""
    next_word = time.monotonic() + rng.uniform(0, WORD_EVERY)
    queue = list(words)
    while time.monotonic() < until:
        headers = {**HTMX, "Cookie": cookie, **({"If-None-Match": etag} if etag else {})}
        try:
            reply, elapsed = await fetch(room.port, "GET", f"/rooms/{room.code}/clock?phase=playing&round=1", headers)
            room.latencies["poll"].append(elapsed)
            room.timeline.append((time.monotonic() - room.started, "poll", elapsed))
            if reply.status == 304:
                room.not_modified += 1
            elif reply.status != 200 or 'id="clock"' not in reply.body:
                room.error(f"{nickname}: poll answered {reply.status}")
            etag = reply.headers.get("etag", etag)
            if time.monotonic() >= next_word and queue:
                next_word += WORD_EVERY
                word = queue.pop(0)
                reply, elapsed = await fetch(room.port, "POST", f"/rooms/{room.code}/words",
                                             {**HTMX, "Cookie": cookie}, form({"word": word.word}))
                room.latencies["word"].append(elapsed)
                room.timeline.append((time.monotonic() - room.started, "word", elapsed))
                if reply.status != 200 or "result-found" not in reply.body:
                    room.error(f"{nickname}: {word.word} answered {reply.status} {reply.body[:120]!r}")
                else:
                    room.expected[nickname] += word.score
                    room.pending.append((time.monotonic(), nickname, room.expected[nickname]))
        except OSError as problem:
            room.error(f"{nickname}: {problem}")
        await asyncio.sleep(max(0.0, POLL_EVERY - rng.uniform(0, 0.1)))


async def host_poll(room: Room, cookie: str, until: float) -> None:
    """The projector's ranking, every 2 s: when does each word's total first show?"""
    while time.monotonic() < until + 2 * POLL_EVERY:
        reply, _ = await fetch(room.port, "GET", f"/rooms/{room.code}/leaderboard",
                               {"Accept": "application/json", "Cookie": cookie})
        seen = time.monotonic()
        totals = {line["nickname"]: line["score"] for line in json.loads(reply.body)["players"]}
        waiting = []
        for answered, nickname, total in room.pending:
            if totals.get(nickname, 0) >= total:
                room.delays.append(seen - answered)
            else:
                waiting.append((answered, nickname, total))
        room.pending = waiting
        await asyncio.sleep(POLL_EVERY)


async def run(port: int, players: int, seconds: float) -> Room:
    reply, _ = await fetch(port, "POST", "/rooms", {}, form({"language": "en", "size": "4x4",
                                                             "time": str(ROUND_SECONDS), "seed": SEED}))
    host_cookie = cookie_of(reply)
    code = reply.headers["location"].split("/")[2]
    room = Room(port, code)
    solution = Solution.of(generate("en", SEED, 4, 4, version=LATEST_VERSION), Lexicon.builtin("en"), blocked_words("en"))
    words = list(solution)
    per_player = int(seconds / WORD_EVERY) + 1
    plans = [[words[(i * 7 + k) % len(words)] for k in range(per_player)] for i in range(players)]
    if any(len({w.word for w in plan}) != len(plan) for plan in plans):
        raise SystemExit("the board has too few words for a distinct word every 2 s per player")
    # everyone joins before the start (joins are not measured), then the host starts and the 3-2-1 passes
    names = [f"Player {i:03d}" for i in range(players)]
    cookies = await asyncio.gather(*(join(room, name) for name in names))
    reply, _ = await fetch(port, "POST", f"/rooms/{code}/start", {"Cookie": host_cookie})
    if reply.status != 303:
        raise SystemExit(f"start answered {reply.status}")
    await asyncio.sleep(4.1)
    room.started = time.monotonic()
    until = time.monotonic() + seconds
    await asyncio.gather(host_poll(room, host_cookie, until),
                         *(player(room, name, cookie, plans[i], until, random.Random(i))
                           for i, (name, cookie) in enumerate(zip(names, cookies)) if cookie))
    final, _ = await fetch(port, "GET", f"/rooms/{code}/leaderboard?all=1", {"Accept": "application/json",
                                                                             "Cookie": host_cookie})
    totals = {line["nickname"]: line["score"] for line in json.loads(final.body)["players"]}
    for nickname, expected in room.expected.items():
        if totals.get(nickname) != expected:
            room.error(f"{nickname}: the ranking says {totals.get(nickname)}, the accepted words make {expected}")
    return room


def report(room: Room, players: int, seconds: float, store: str) -> list[str]:
    lines = [f"{players} players, {seconds:.0f} s, store {store}, room {room.code}",
             f"{'':11}{'requests':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}"]
    for kind, values in room.latencies.items():
        ms = [1000 * v for v in values]
        if ms:
            lines.append(f"{kind:11}{len(ms):9d}{percentile(ms, .5):9.1f}{percentile(ms, .95):9.1f}"
                         f"{percentile(ms, .99):9.1f}{max(ms):9.1f}")
    for label, keep in (("first 10 s", lambda at: at < 10), ("after 10 s", lambda at: at >= 10)):
        parts = []
        for kind in room.latencies:
            ms = [1000 * latency for at, k, latency in room.timeline if k == kind and keep(at)]
            if ms:
                parts.append(f"{kind} p99 {percentile(ms, .99):.1f} ms ({len(ms)})")
        lines.append(f"  {label}: " + ", ".join(parts))
    polls = len(room.latencies["poll"])
    lines.append(f"polls answered 304 (nothing new): {room.not_modified} of {polls} "
                 f"({100 * room.not_modified / max(1, polls):.0f}%)")
    if room.delays:
        lines.append(f"word -> host's ranking shows it (host polls every {POLL_EVERY:.0f} s): "
                     f"p50 {percentile(room.delays, .5):.2f} s, p95 {percentile(room.delays, .95):.2f} s, "
                     f"max {max(room.delays):.2f} s ({len(room.delays)} words; {len(room.pending)} never shown)")
    lines.append(f"errors: {len(room.errors)}")
    lines += [f"  error: {error}" for error in room.errors[:10]]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.store == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="ruzzle-rooms-"))
            env = {"RUZZLE_DATABASE_URL": f"sqlite:///{folder}/store.sqlite3"}
        else:
            env = {"RUZZLE_DATABASE_URL": stack.enter_context(postgres_cluster()).new_database("rooms")}
        server = stack.enter_context(gunicorn_server(rate_limits=True, **env))
        port = int(server.url.rsplit(":", 1)[1])
        room = asyncio.run(run(port, args.players, args.seconds))
    lines = report(room, args.players, args.seconds, args.store)
    print("\n".join(lines))
    p99 = max(1000 * percentile(room.latencies[kind], .99) for kind in ("poll", "word") if room.latencies[kind])
    print(f"target: poll and word p99 under {TARGET_P99_MS} ms, no errors: "
          f"{'met' if p99 < TARGET_P99_MS and not room.errors else 'NOT MET'}")
    return 0 if p99 < TARGET_P99_MS and not room.errors else 1


if __name__ == "__main__":
    sys.exit(main())
