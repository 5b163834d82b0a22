"""Requests per second of the board page, a word, a room's word and a room's clock poll, beside a bare Flask "hello".

    python3 bench/web.py                 # wrk, 3 rounds of 10 s per URL, 2 threads, 20 connections
    python3 bench/web.py -d 5 -c 10 -r 2
    python3 bench/web.py --store postgresql   # rounds on a PostgreSQL cluster of its own (default: SQLite)

Both apps run under gunicorn with gunicorn.conf.py, as the README's run command starts it (same
workers, same settings), on this machine; wrk (Debian's `wrk`) loads them from another process.
Targets (issue 4): board page >= 40% of hello's rate, word submission >= 30%, no errors; (issue 37) a room's
word >= 35% and a room's clock poll with nothing new (a 304) >= 60%.
The room: a 4x4 English room of one hour opened, joined by one phone and started before wrk begins; its word is one
the phone has found (answered "already found", the same path as a new word without the store's write), its clock
poll carries the ETag of the phone's last clock, as the page's htmx poll does.
Since issue 11 the player's round is read from the store on each board page and word (a read of the round's row
and its words; the word wrk repeats is refused as already found, so it costs no write).
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
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
KINDS = ("hello", "board page", "word submission", "room word", "room clock (304)")
LUA_POST = """wrk.method = "POST"
wrk.body = "{body}"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["HX-Request"] = "true"
wrk.headers["Cookie"] = "{cookie}"
"""
LUA_GET = """wrk.headers["HX-Request"] = "true"
wrk.headers["Cookie"] = "{cookie}"
wrk.headers["If-None-Match"] = {etag}
"""


def ask(base: str, method: str, path: str, cookie: str = "", form: dict | None = None, **headers: str):
    """One request without following redirects: (status, headers, body)."""
    connection = http.client.HTTPConnection(urllib.parse.urlsplit(base).netloc, timeout=30)
    body = urllib.parse.urlencode(form) if form is not None else None
    sent = {"Cookie": cookie, **headers} if cookie else dict(headers)
    if body is not None:
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, body=body, headers=sent)
    response = connection.getresponse()
    answer = (response.status, response.headers, response.read())
    connection.close()
    return answer


def cookie_of(headers) -> str:
    return "; ".join(value.split(";")[0] for value in headers.get_all("Set-Cookie") or [])


def open_room(base: str, word: str) -> tuple[str, str, str]:
    """A started room with one phone that has found `word`: (the room's path, the phone's cookie, its clock's ETag)."""
    room_form = {"language": "en", "size": "4x4", "time": "3600", "seed": SEED}
    status, headers, _ = ask(base, "POST", "/rooms", form=room_form)
    host, room = cookie_of(headers), urllib.parse.urlsplit(headers["Location"]).path.rsplit("/", 1)[0]
    status, headers, _ = ask(base, "POST", f"{room}/players", form={"nickname": "Bench"})
    phone = cookie_of(headers)
    ask(base, "POST", f"{room}/start", host, form={})
    deadline = time.monotonic() + 30
    while True:  # the 3-2-1, then the word the phone has found
        status, _, body = ask(base, "POST", f"{room}/words", phone, form={"word": word}, **{"HX-Request": "true"})
        if status == 200:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"the room's word was not taken: {status} {body[:200]!r}")
        time.sleep(0.5)
    status, headers, _ = ask(base, "GET", f"{room}/clock?phase=playing&round=1", phone, **{"HX-Request": "true"})
    if status != 200 or not headers.get("ETag"):
        raise SystemExit(f"the room's clock answered {status} without an ETag")
    return room, phone, headers["ETag"]


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
    runs: dict[str, list[dict]] = {name: [] for name in KINDS}
    with (
        gunicorn(app="bench.hello_app:app", health="/") as hello,
        store_environment(args.store) as store,
        gunicorn(**store) as server,
        tempfile.NamedTemporaryFile("w", suffix=".lua") as script,
        tempfile.NamedTemporaryFile("w", suffix=".lua") as room_script,
        tempfile.NamedTemporaryFile("w", suffix=".lua") as clock_script,
    ):
        board = f"{server}/play/en/{SEED}"
        cookie = session_cookie(board)
        form = urllib.parse.urlencode({"word": word})
        script.write(LUA_POST.format(body=form, cookie=cookie))
        script.flush()
        room, phone, etag = open_room(server, word)
        room_script.write(LUA_POST.format(body=form, cookie=phone))
        room_script.flush()
        clock_script.write(LUA_GET.format(cookie=phone, etag=json.dumps(etag)))
        clock_script.flush()
        targets = {
            "hello": (hello + "/", {}),
            "board page": (board, {"cookie": cookie}),
            "word submission": (board + "/words", {"script": script.name}),
            "room word": (f"{server}{room}/words", {"script": room_script.name}),
            "room clock (304)": (f"{server}{room}/clock?phase=playing&round=1", {"script": clock_script.name}),
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
        ("room word >= 35%", results["room word"]["rps"] >= 0.35 * hello_rps),
        ("room clock (304) >= 60%", results["room clock (304)"]["rps"] >= 0.6 * hello_rps),
        ("no errors", all(result["errors"] == 0 for result in results.values())),
    ]
    print("targets: " + " | ".join(f"{name} {'PASS' if ok else 'FAIL'}" for name, ok in checks))
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
