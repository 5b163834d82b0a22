"""One client asking for expensive pages flat out, and an ordinary player beside it (issue 11).

    python3 bench/fairness.py                 # 15 s alone, then 15 s beside 1 and 8 greedy connections
    python3 bench/fairness.py -d 10 --greedy 1 4 16

gunicorn runs as the README runs it. The player (one cookie) loads the board page and sends a word with
htmx, 5 times a second, on an untimed English 4x4 round. The greedy client asks for the solution pages of
distinct Spanish 12x12 boards (each one generated and solved, the most expensive request there is) on N
connections at once, as fast as they come. Target: the player's p95 under 250 ms beside one greedy
connection (before issue 11, about 8 such pages a second from one client made it 2.8 s).

Then a class: 30 clients (each its own address on the loopback, 127.0.0.N) open the solution page of one
new Spanish 12x12 board at the same moment, as a browser asks for it (compressed); before issue 11 they
waited 4.7 s (p50).
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import statistics
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruzzle import Lexicon, generate  # noqa: E402
from ruzzle.blocklist import blocked_words  # noqa: E402
from ruzzle.game import Solution  # noqa: E402
from tools.servers import gunicorn_server  # noqa: E402

BOARD = "/play/en/FAIR01?time=0"
WORDS = "/play/en/FAIR01/words?time=0"
TARGET_P95_MS = 250


def timed(request: urllib.request.Request) -> tuple[float, int]:
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError:
        status = 0
    return (time.monotonic() - start) * 1000, status


def player(url: str, cookie: str, words: list[str], seconds: float) -> tuple[list[float], int]:
    """The ordinary player's latencies (board page and word, alternately) and how many were not a 200."""
    times, errors = [], 0
    deadline = time.monotonic() + seconds
    for word in itertools.cycle(words):
        if time.monotonic() > deadline:
            break
        for request in (
            urllib.request.Request(url + BOARD, headers={"Cookie": cookie}),
            urllib.request.Request(
                url + WORDS, urllib.parse.urlencode({"word": word}).encode(), {"Cookie": cookie, "HX-Request": "true"}
            ),
        ):
            elapsed, status = timed(request)
            times.append(elapsed)
            errors += status != 200
            time.sleep(0.1)
    return times, errors


def greedy(url: str, counter: itertools.count, stop: threading.Event, statuses: list[int]) -> None:
    while not stop.is_set():
        _, status = timed(urllib.request.Request(f"{url}/play/es/GREEDY{next(counter)}/solution?size=12x12"))
        statuses.append(status)


def class_opens_one_solution(url: str, players: int = 30) -> list[float]:
    """Milliseconds each of `players` clients waits for one new board's solution page, all asked at once."""
    barrier = threading.Barrier(players)
    times: list[float] = [0.0] * players
    path = "/play/es/CLASS30/solution?size=12x12"

    def one(n: int) -> None:
        connection = http.client.HTTPConnection(
            urllib.parse.urlsplit(url).netloc, timeout=60, source_address=(f"127.0.0.{n + 2}", 0)
        )
        barrier.wait()
        start = time.monotonic()
        connection.request("GET", path, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
        response = connection.getresponse()
        response.read()
        times[n] = (time.monotonic() - start) * 1000 if response.status == 200 else float("inf")
        connection.close()

    threads = [threading.Thread(target=one, args=(n,)) for n in range(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-d", "--seconds", type=float, default=15)
    parser.add_argument("--greedy", type=int, nargs="+", default=[1, 8], help="greedy connections, one run each")
    parser.add_argument("--no-budget", action="store_true", help="without the solving budget (RUZZLE_SOLVING_RATE=0)")
    args = parser.parse_args()
    words = [found.word for found in Solution.of(generate("en", "FAIR01"), Lexicon.builtin("en"), blocked_words("en"))]
    rows = []
    with gunicorn_server(solving_budget=not args.no_budget) as server:
        with urllib.request.urlopen(server.url + BOARD) as response:
            cookie = response.headers["Set-Cookie"].split(";")[0]
        counter = itertools.count()
        for connections in [0, *args.greedy]:
            stop, statuses = threading.Event(), []
            threads = [
                threading.Thread(target=greedy, args=(server.url, counter, stop, statuses)) for _ in range(connections)
            ]
            for thread in threads:
                thread.start()
            times, errors = player(server.url, cookie, words, args.seconds)
            stop.set()
            for thread in threads:
                thread.join()
            rows.append((connections, times, errors, statuses))
        opened = class_opens_one_solution(server.url)
    print(
        f"gunicorn.conf.py as the README runs it, solving budget {'off' if args.no_budget else 'on'}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        "| greedy connections | greedy pages/s | greedy refused (429) | player requests | p50 ms | p95 ms | "
        "max ms | player errors |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for connections, times, errors, statuses in rows:
        served = sum(status == 200 for status in statuses) / args.seconds
        print(
            f"| {connections} | {served:.1f} | {sum(status == 429 for status in statuses)} | {len(times)} | "
            f"{statistics.median(times):.1f} | {percentile(times, 0.95):.1f} | {max(times):.1f} | {errors} |"
        )
    print(
        f"30 clients open one new Spanish 12x12 solution page at once: p50 {statistics.median(opened):.0f} ms, "
        f"p95 {percentile(opened, 0.95):.0f} ms, max {max(opened):.0f} ms, "
        f"{sum(t == float('inf') for t in opened)} not a 200"
    )
    beside_one = next((times for connections, times, _, _ in rows if connections == 1), rows[-1][1])
    ok = percentile(beside_one, 0.95) < TARGET_P95_MS and all(errors == 0 for _, _, errors, _ in rows)
    print(
        f"target: the player's p95 beside one greedy connection < {TARGET_P95_MS} ms, no player errors "
        f"{'PASS' if ok else 'FAIL'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
