"""What one request of each kind costs the server in a big room: the app in this process (no network, no other
clients), a room of N players on a clock the script moves, each request timed on its own.

    python3 bench/room_costs.py                  # 2,000 players, SQLite
    python3 bench/room_costs.py --players 500 --store postgresql
    python3 bench/room_costs.py --profile results   # cProfile of one kind of request (the 20 costliest functions)

On 2 cores, a room of 2,000 phones asks about 700 words a second and each phone's polls besides: what a request
costs in CPU is what decides whether the end of a round collapses (bench/rooms.py measures the whole room over the
network; this one says which request to make cheaper). The room: every player joins, the host starts, every player
opens the board and sends --words words of the board (a third of them again, refused as already found), then the
round ends and every player opens their results, then polls them as the page does (its ETag: a 304 when nothing is
new for them). Printed per kind: requests, mean, p50, p95, max in ms of this process's CPU time (so that other work on
the machine moves the figures little; with --store postgresql the database server's own work is not in them), and
the share of 304s.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import pstats
import random
import re
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/: its limits.py would hide the package of that name

from app import create_app  # noqa: E402
from bench.load import store_environment  # noqa: E402
from ruzzle.nicknames import refused_part  # noqa: E402
from views.boards import BoardRequest  # noqa: E402

HTMX = {"HX-Request": "true"}
SORT = "cumulative"
START = 1_790_000_000.0
ETAG = re.compile(r'If-None-Match&#34;: &#34;\\&#34;([0-9a-f]+)|If-None-Match": "\\"([0-9a-f]+)')


class Clock:
    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Costs:
    def __init__(self, profile: str | None):
        self.times: dict[str, list[float]] = {}
        self.not_modified: dict[str, int] = {}
        self.profile_kind = profile
        self.profiler = cProfile.Profile() if profile else None

    @contextmanager
    def timed(self, kind: str):
        profiling = self.profiler is not None and kind == self.profile_kind
        if profiling:
            self.profiler.enable()
        started = time.process_time()
        yield
        self.times.setdefault(kind, []).append(time.process_time() - started)
        if profiling:
            self.profiler.disable()

    def get(self, client, kind: str, url: str, etag: str | None = None, **headers):
        if etag:
            headers["If-None-Match"] = f'"{etag}"'
        with self.timed(kind):
            reply = client.get(url, headers={**HTMX, **headers})
        if reply.status_code == 304:
            self.not_modified[kind] = self.not_modified.get(kind, 0) + 1
        elif reply.status_code != 200:
            raise SystemExit(f"{kind} {url}: {reply.status_code} {reply.get_data(as_text=True)[:300]}")
        return reply

    def report(self) -> None:
        print(f"{'':22}{'requests':>9}{'mean ms':>9}{'p50':>8}{'p95':>8}{'max':>8}{'304':>6}")
        for kind, times in self.times.items():
            ms = sorted(t * 1000 for t in times)
            p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
            share = f"{100 * self.not_modified.get(kind, 0) // len(ms)}%"
            print(
                f"{kind:22}{len(ms):9}{statistics.fmean(ms):9.2f}{statistics.median(ms):8.2f}{p95:8.2f}"
                f"{ms[-1]:8.2f}{share:>6}"
            )
        if self.profiler:
            out = io.StringIO()
            pstats.Stats(self.profiler, stream=out).sort_stats(SORT).print_stats(60)
            print(out.getvalue())


def etag_of(reply) -> str | None:
    tag = reply.headers.get("ETag")
    return tag.strip('"').split(":", 1)[0] if tag else None


def pupil_names(players: int) -> list[str]:
    """Pupil0000, Pupil0001, ...: the first `players` of them the class's rules take (a few numbers are codes a room
    refuses, such as 1488: the bench stopped at the 451st join once the rules read them)."""
    names = (f"Pupil{number:04d}" for number in itertools.count())
    return list(itertools.islice((name for name in names if refused_part(name) is None), players))


def play(app, clock: Clock, players: int, words: int, costs: Costs) -> None:
    host = app.test_client()
    reply = host.post("/rooms", data={"language": "en", "size": "4x4", "time": "120", "seed": "COSTS2"})
    code = reply.headers["Location"].rstrip("/").split("/")[-2]
    phones = []
    for nickname in pupil_names(players):
        phone = app.test_client()
        with costs.timed("join"):
            reply = phone.post(f"/rooms/{code}/players", data={"nickname": nickname})
        assert reply.status_code == 303, reply.get_data(as_text=True)[:300]
        phones.append(phone)
    lobby = {}
    for _round in range(2):
        for index, phone in enumerate(phones[:: max(1, players // 300)]):
            reply = costs.get(phone, "lobby poll", f"/rooms/{code}/play", lobby.get(index))
            lobby[index] = etag_of(reply) or lobby.get(index)
    costs.get(host, "host stage (lobby)", f"/rooms/{code}/host")
    host.post(f"/rooms/{code}/start", data={})
    clock.now += 3.5
    for phone in phones:
        costs.get(phone, "board at start", f"/rooms/{code}/play")
    with app.test_request_context():
        solution = list(BoardRequest.from_url("en", "COSTS2", {"size": "4x4", "gen": "2"}).solution())
    rng = random.Random(7)
    clocks: dict[int, str | None] = {}  # each phone's clock's ETag, which its next poll sends (as the page does)
    for step in range(words):
        for phone in phones:
            found = rng.choice(solution)
            path = " ".join(f"{r},{c}" for r, c in found.path)
            with costs.timed("word"):
                reply = phone.post(f"/rooms/{code}/words", data={"path": path}, headers=HTMX)
            assert reply.status_code in (200, 409), (reply.status_code, reply.get_data(as_text=True)[:300])
        clock.now += 1
        if step % 3 == 0:
            for index, phone in enumerate(phones[:: max(1, players // 300)]):
                url = f"/rooms/{code}/clock?phase=playing&round=1"
                clocks[index] = etag_of(costs.get(phone, "clock poll", url, clocks.get(index))) or clocks.get(index)
            costs.get(host, "host ranking (json)", f"/rooms/{code}/leaderboard", Accept="application/json")
            costs.get(host, "host stage (play)", f"/rooms/{code}/host")
    clock.now = START + 3.5 + 120 + 0.5
    tags = []
    for phone in phones:
        tags.append(etag_of(costs.get(phone, "results at end", f"/rooms/{code}/play")))
    for _ in range(2):
        clock.now += 2
        for index, phone in enumerate(phones):
            tags[index] = etag_of(costs.get(phone, "results poll", f"/rooms/{code}/play", tags[index])) or tags[index]
    costs.get(host, "host stage (over)", f"/rooms/{code}/host")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--words", type=int, default=12, help="words each player sends")
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--profile", help="a kind of request to profile (e.g. 'results at end')")
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        url = stack.enter_context(store_environment(args.store))["RUZZLE_DATABASE_URL"]
        clock = Clock()
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "CLOCK": clock,
                "DATABASE_URL": url,
                "RATELIMIT_ENABLED": False,
                "ROOM_PLAYERS": max(args.players, 100),
            }
        )
        app.instance_path = str(folder / "instance")
        costs = Costs(args.profile)
        started = time.perf_counter()
        play(app, clock, args.players, args.words, costs)
        print(
            f"{args.players} players, {args.words} words each, store {args.store}, "
            f"{time.perf_counter() - started:.0f} s in all"
        )
        costs.report()
        app.extensions["ruzzle.store"].dispose()


if __name__ == "__main__":
    main()
