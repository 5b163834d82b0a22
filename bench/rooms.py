"""A whole class loop in one room, the way its phones and its projector load the server: the lobby, the start, the
round, the end and the results, with N phones (500 by default, 2,000 for a school; issue 21), against gunicorn as
the README runs it, on SQLite (the default store) or PostgreSQL, or two app servers sharing one PostgreSQL (and with
--redis, counting their per-client limits together in one Redis, as the README's "Two or more servers" runs them).

    python3 bench/rooms.py                               # 500 phones, 30 s of lobby, 60 s of play, SQLite
    python3 bench/rooms.py --players 2000 --lobby 60
    python3 bench/rooms.py --players 300 --store postgresql --servers 2 --json out.json
    python3 bench/rooms.py --players 500 --store postgresql --servers 2 --redis

The loop, as the pages do it (templates/room_play.html, room_host.html, _room_results.html, static/js/*.js):

1. lobby: the host opens a room (`POST /rooms`) and loads its projector page; the phones join over the join
   window (`POST /rooms/<CODE>/players`, each with its own cookie), follow the join's redirect to the waiting page
   (the page, then its stylesheet and scripts once) and poll it as its `#game` element says.
2. start: after --lobby seconds the host starts (`POST /rooms/<CODE>/start`, then its page again). A phone's
   waiting poll answers the 3-2-1; when its `#timer` reaches 0 (data-server-now + data-remaining), the phone asks
   for the board (`GET /rooms/<CODE>/play`, htmx), as never_stuck.js's refresh does, and tries again 1, 2, 3, 4 s later
   if that fails. "board at start" is each phone's first board after the start, however it came.
3. play: a word every 2-4 s per phone until its clock reads 0, one at a time (word_queue.js): 80% words of the
   board's solution it has not sent (half typed, half traced as a path), 10% words it already found (answered
   "already found"), 10% not-words; plus the polls of the board page's `#clock`. A word refused with 429 waits as
   long as Retry-After says, one that failed (5xx, no answer in 8 s) is sent again 0.5, 1, 2, 3, 5 s later.
   The host's projector polls its stage and, inside it, the ranking (`#leaderboard`).
4. the end: when its clock reads 0 and its words are answered, each phone asks for its page (the results; or the
   clock poll brings them first); "results at end" is each phone's first results. Then the results poll as their
   section says, for as long as it says so or --after seconds (default 30) after the end; the host's stage shows
   the podium. Last, the host's ranking as JSON: each player's total must equal the sum of the words the server
   accepted from that phone (the ranking exactness check).

Every poll follows the page it came from: its interval is the `hx-trigger="every Ns"` of the polling element in
the latest full (200) answer, and its `If-None-Match` the one in that element's `hx-headers`, so a server that
changes its intervals or ETags is followed without editing this file. A 200 replaces the element (or its
hx-target, or HX-Retarget) and the polls inside it, as htmx does; a 304 changes nothing. A poll that gets no
answer (10 s, htmx's timeout here) or a 4xx/5xx backs off as never_stuck.js does; a join or a page the browser opens
itself waits up to 60 s. Every answer is checked (status and
content); any other answer, a failed connection or a timeout is an error, counted by kind.

Addresses and limits: the server runs with its per-client limits on as they ship (LIMIT_JOINS "200 per minute;
400 per hour" per address). 2,000 phones from 127.0.0.1 would pass that, so the phones come from --addresses
addresses (20 by default: a school's buildings and Wi-Fi networks), 10.20.0.1 and on, in `X-Forwarded-For`, and
the server runs as it does behind one proxy of its own (RUZZLE_PROXY_FIX=1: it believes that header; the bench
also says `X-Forwarded-Proto: https`, as such a proxy does). And a room takes ROOM_PLAYERS players (150 as it
ships): the bench sets RUZZLE_ROOM_PLAYERS to the number of phones when that is more.

The client is one asyncio process with kept-alive connections (bench/client.py); it prints its own CPU seconds per
1,000 requests, the event loop's lag (a late loop would add to every latency) and the machine's load average at
the start and the end, and the seconds it waited for a CPU. Run as root, it raises its own priority (real-time
SCHED_RR 1, else nice -5; after the servers have started, so they keep the usual one): the phones' work is done on
their own CPUs in a school, so the bench should read each answer when it arrives rather than wait behind the
servers' threads (at nice -5 on a busy machine it waited 97 s for a CPU in a 194 s run); its CPU is reported either
way.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.room_client import Run  # noqa: E402
from bench.room_players import SEED, play  # noqa: E402
from bench.room_report import report  # noqa: E402
from ruzzle import Lexicon, blocked_words, generate  # noqa: E402
from ruzzle.game import Solution  # noqa: E402
from ruzzle.generator import LATEST_VERSION  # noqa: E402
from tools.postgres import postgres_cluster  # noqa: E402
from tools.redis import redis_server  # noqa: E402
from tools.servers import gunicorn_server  # noqa: E402

SHIPPED_ROOM_PLAYERS = 2000  # app.py ROOM_PLAYERS


def read_answers_when_they_come() -> str:
    """Run the bench (not the servers, started already) at a real-time priority, else at nice -5: see the docstring.
    Its CPU is a few percent of a core, so it takes little from the servers, but on a machine whose run queue is
    long (the servers' threads, other work) it would otherwise wait its turn to read an answer that has come."""
    try:
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))
        return "real-time (SCHED_RR 1)"
    except (OSError, AttributeError):
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -5)
        return "nice -5"
    except OSError:
        return "the usual priority (not root: its latencies include its own waits for a CPU)"


def cpu_wait_seconds() -> float:
    """Seconds this process was ready to run but waited for a CPU (/proc/self/schedstat; 0 where there is none)."""
    try:
        return int(Path("/proc/self/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def servers(store: str, count: int, players: int, redis: bool = False):
    """`count` gunicorn servers as the README runs them (per-client limits on), on one store, their limits counted
    in one throwaway Redis when `redis` (else in each worker's memory, as they ship); their ports."""
    env = {"RUZZLE_PROXY_FIX": "1", "RUZZLE_ROOM_PLAYERS": str(max(SHIPPED_ROOM_PLAYERS, players))}
    with contextlib.ExitStack() as stack:
        if redis:
            env["RUZZLE_RATELIMIT_STORAGE_URI"] = stack.enter_context(redis_server()).url
        if store == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="ruzzle-rooms-"))
            env["RUZZLE_DATABASE_URL"] = f"sqlite:///{folder}/store.sqlite3"
        else:
            env["RUZZLE_DATABASE_URL"] = stack.enter_context(postgres_cluster()).new_database("rooms")
        yield [stack.enter_context(gunicorn_server(rate_limits=True, **env)) for _ in range(count)]


def worker_memory(running: list) -> list[float]:
    """Each server's workers' resident memory in MB (/proc's VmRSS), in order."""
    sizes = []
    for server in running:
        for pid in server.worker_pids():
            with contextlib.suppress(OSError, StopIteration):
                status = Path(f"/proc/{pid}/status").read_text()
                sizes.append(
                    int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1]) / 1024
                )
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500, help="phones in the room (default 500)")
    parser.add_argument("--seconds", type=float, default=60, help="seconds of play (default 60)")
    parser.add_argument("--lobby", type=float, default=30, help="seconds from the room's opening to the start")
    parser.add_argument(
        "--join-window", type=float, help="the phones join over this many seconds (default: two thirds of the lobby)"
    )
    parser.add_argument("--after", type=float, default=30, help="seconds the results are polled after the end")
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--servers", type=int, default=1, help="app servers sharing one PostgreSQL (default 1)")
    parser.add_argument(
        "--redis", action="store_true", help="the servers count their per-client limits together in one Redis"
    )
    parser.add_argument("--addresses", type=int, default=20, help="client addresses the phones come from")
    parser.add_argument("--json", type=Path, help="write the figures to this file (FILE.N.json for lesson N)")
    parser.add_argument(
        "--lessons", type=int, default=1, help="lessons in turn on the same servers, each its own room (default 1)"
    )
    args = parser.parse_args()
    if args.join_window is None:
        args.join_window = args.lobby * 2 / 3
    if args.servers > 1 and args.store != "postgresql":
        parser.error("--servers 2 runs two app servers sharing one PostgreSQL: add --store postgresql")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a connection or two per phone; the servers inherit it
    solution = Solution.of(
        generate("en", SEED, 4, 4, version=LATEST_VERSION), Lexicon.builtin("en"), blocked_words("en")
    )
    failed = False
    with servers(args.store, args.servers, args.players, args.redis) as running:
        ports = [int(server.url.rsplit(":", 1)[1]) for server in running]
        priority = read_answers_when_they_come()
        for lesson in range(1, args.lessons + 1):  # each in a room of its own, on the same servers
            memory_start = worker_memory(running)
            load_start = os.getloadavg()[0]
            run = Run(ports, args, solution)
            cpu, wall, waited = cpu_seconds(), time.monotonic(), cpu_wait_seconds()
            problems, joined = asyncio.run(play(run))
            cpu, wall, waited = cpu_seconds() - cpu, time.monotonic() - wall, cpu_wait_seconds() - waited
            load_end = os.getloadavg()[0]
            memory_end = worker_memory(running)
            lines, data = report(run, problems, joined, (cpu, waited), wall, (load_start, load_end))
            lines.insert(-5, f"the bench ran at {priority}")
            sizes = zip(memory_start, memory_end, strict=False)
            lines.insert(
                -5,
                f"workers' memory (RSS MB), lesson {lesson} of {args.lessons}, before its lobby -> after its results: "
                + ", ".join(f"{before:.0f} -> {after:.0f}" for before, after in sizes),
            )
            data["bench_priority"] = priority
            data["lesson"] = lesson
            data["worker_rss_mb"] = {"start": memory_start, "end": memory_end}
            print("\n".join(lines), flush=True)
            if args.json:
                path = args.json if args.lessons == 1 else args.json.with_suffix(f".{lesson}{args.json.suffix}")
                path.write_text(json.dumps(data, indent=1) + "\n")
            failed = failed or bool(problems or run.figures.errors)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
