"""Requests per second of the board page and of a word submission, beside a bare Flask "hello" app.

    python3 bench/web.py                 # wrk, 3 rounds of 10 s per URL, 2 threads, 20 connections
    python3 bench/web.py -d 5 -c 10 -r 2
    python3 bench/web.py --store postgresql   # rounds on a PostgreSQL cluster of its own (default: SQLite)

Both apps run under gunicorn with gunicorn.conf.py, as the README's run command starts it (same
workers, same settings), on this machine; wrk (Debian's `wrk`) loads them from another process.
Targets (issue 4): board page >= 40% of hello's rate, word submission >= 30%, no errors.
Since issue 11 the player's round is read from the store on each board page and word (a read of the round's row
and its words; the word wrk repeats is refused as already found, so it costs no write).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import STORES, store_environment  # noqa: E402
from ruzzle import Lexicon, generate  # noqa: E402
from ruzzle.blocklist import blocked_words  # noqa: E402
from ruzzle.game import Solution  # noqa: E402
from tools.servers import gunicorn  # noqa: E402

SEED = "BENCH4"
LUA_POST = """wrk.method = "POST"
wrk.body = "{body}"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["HX-Request"] = "true"
wrk.headers["Cookie"] = "{cookie}"
"""


def session_cookie(url: str) -> str:
    """The cookie a player has after opening the board page once (their round)."""
    with urllib.request.urlopen(url) as response:
        return response.headers["Set-Cookie"].split(";")[0]


def wrk(url: str, seconds: int, connections: int, script: str | None = None, cookie: str | None = None) -> dict:
    """Run wrk against a URL; its requests/s and error counts."""
    command = ["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    if script:
        command += ["-s", script]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1),
        "p99": re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1),
        "errors": (int(non_2xx.group(1)) if non_2xx else 0) + (sum(map(int, socket.groups())) if socket else 0),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-d", "--seconds", type=int, default=10, help="seconds per URL (default 10)")
    parser.add_argument("-c", "--connections", type=int, default=20, help="open connections (default 20)")
    parser.add_argument("-r", "--rounds", type=int, default=3, help="rounds of taking turns (default 3)")
    parser.add_argument("--store", choices=STORES, default="sqlite", help="the store of rounds (default sqlite)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install -y wrk")
    word = Solution.of(generate("en", SEED), Lexicon.builtin("en"), blocked_words("en"))[0].word
    runs: dict[str, list[dict]] = {"hello": [], "board page": [], "word submission": []}
    with (
        gunicorn(app="bench.hello_app:app", health="/") as hello,
        store_environment(args.store) as store,
        gunicorn(**store) as server,
        tempfile.NamedTemporaryFile("w", suffix=".lua") as script,
    ):
        board = f"{server}/play/en/{SEED}"
        cookie = session_cookie(board)
        script.write(LUA_POST.format(body=urllib.parse.urlencode({"word": word}), cookie=cookie))
        script.flush()
        targets = {
            "hello": (hello + "/", {}),
            "board page": (board, {"cookie": cookie}),
            "word submission": (board + "/words", {"script": script.name}),
        }
        for url, options in targets.values():
            wrk(url, 2, args.connections, **options)  # warm-up: every worker loads and solves once
        # The kinds take turns, several rounds, so that a busy moment of the machine hits all of them alike;
        # each kind keeps its best round.
        for _ in range(args.rounds):
            for name, (url, options) in targets.items():
                runs[name].append(wrk(url, args.seconds, args.connections, **options))
    results = {name: max(found, key=lambda result: result["rps"]) for name, found in runs.items()}
    for name, found in runs.items():
        results[name]["errors"] = sum(result["errors"] for result in found)
    hello_rps = results["hello"]["rps"]
    print(
        f"store: {args.store}; gunicorn.conf.py as the README runs it; "
        f"wrk -t2 -c{args.connections} -d{args.seconds}s, best of {args.rounds} rounds taken in turns; "
        f"errors summed over all rounds; word {word}"
    )
    print(f"{'':18}{'requests/s':>12}{'of hello':>10}{'p50':>10}{'p99':>10}{'errors':>8}")
    for name, result in results.items():
        print(
            f"{name:18}{result['rps']:12.0f}{result['rps'] / hello_rps:10.0%}{result['p50']:>10}{result['p99']:>10}"
            f"{result['errors']:8d}"
        )
    checks = [
        ("board page >= 40%", results["board page"]["rps"] >= 0.4 * hello_rps),
        ("word submission >= 30%", results["word submission"]["rps"] >= 0.3 * hello_rps),
        ("no errors", all(result["errors"] == 0 for result in results.values())),
    ]
    print("targets: " + " | ".join(f"{name} {'PASS' if ok else 'FAIL'}" for name, ok in checks))
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
