"""What one request of each kind that bench/web.py times costs the app itself, in this process: no server, no network,
the WSGI call alone (each kind's environment built once, then the app called with it), beside the bare Flask "hello".

    python3 bench/request_costs.py              # 2,000 calls of each kind, best of 3, in µs of this process's CPU
    python3 bench/request_costs.py --calls 500

The kinds are bench/web.py's: the board page with a player's cookie, a word on it (already found), a room's word
(already found) and a room's clock poll with the ETag of its last answer (a 304). bench/web.py says what a kind costs
through gunicorn beside hello; this says how much of it is the app's own, so that a change to the app can be measured
in a few seconds, on a clock (process CPU time) that other work on the machine moves little.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/: its limits.py would hide the package of that name

from werkzeug.test import EnvironBuilder  # noqa: E402

from app import create_app  # noqa: E402
from bench.hello_app import app as hello  # noqa: E402
from ruzzle import Lexicon, blocked_words, generate  # noqa: E402
from ruzzle.game import Solution  # noqa: E402

SEED = "BENCH4"
HTMX = {"HX-Request": "true"}


def environ(path: str, cookies: str = "", method: str = "GET", form: dict | None = None, **headers: str) -> dict:
    """A request's WSGI environment, its body kept aside (each call gets a fresh stream)."""
    if cookies:
        headers["Cookie"] = cookies
    built = EnvironBuilder(path=path, method=method, data=form, headers=headers, base_url="http://127.0.0.1:8000")
    environment = built.get_environ()
    environment["bench.body"] = environment["wsgi.input"].read()
    return environment


def call(app, environment: dict) -> str:
    """Call the app once; its status line."""
    fresh = dict(environment, **{"wsgi.input": io.BytesIO(environment["bench.body"])})
    status = []
    for _ in app(fresh, lambda line, headers, exc_info=None: status.append(line)):
        pass
    return status[0]


def cookies_of(client) -> str:
    return "; ".join(f"{cookie.key}={cookie.value}" for cookie in client._cookies.values())


def kinds(app) -> dict[str, tuple]:
    """bench/web.py's kinds, each (the app, its environment): a player with a round, a room started with one phone."""
    word = Solution.of(generate("en", SEED), Lexicon.builtin("en"), blocked_words("en"))[0].word
    player = app.test_client()
    player.get(f"/play/en/{SEED}")
    player.post(f"/play/en/{SEED}/words", data={"word": word}, headers=HTMX)
    host = app.test_client()
    answer = host.post("/rooms", data={"language": "en", "size": "4x4", "time": "3600", "seed": SEED})
    room = urllib.parse.urlsplit(answer.headers["Location"]).path.rsplit("/", 1)[0]
    phone = app.test_client()
    phone.post(f"{room}/players", data={"nickname": "Bench"})
    host.post(f"{room}/start", data={})
    while phone.post(f"{room}/words", data={"word": word}, headers=HTMX).status_code != 200:
        time.sleep(0.5)  # the 3-2-1
    clock = f"{room}/clock?phase=playing&round=1"
    etag = phone.get(clock, headers=HTMX).headers["ETag"]
    return {
        "hello": (hello, environ("/")),
        "board page": (app, environ(f"/play/en/{SEED}", cookies_of(player))),
        "word submission": (app, environ(f"/play/en/{SEED}/words", cookies_of(player), "POST", {"word": word}, **HTMX)),
        "room word": (app, environ(f"{room}/words", cookies_of(phone), "POST", {"word": word}, **HTMX)),
        "room clock (304)": (app, environ(clock, cookies_of(phone), **HTMX, **{"If-None-Match": etag})),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000, help="calls of each kind per round (default 2,000)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        # (the per-client limits off, as bench/web.py's servers run: wrk sends everything as one client)
        store = f"sqlite:///{folder}/store.sqlite3"
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": store, "RATELIMIT_ENABLED": False})
        print(f"{'':20}{'status':>22}{'µs of CPU':>11}   (best of 3 rounds of {args.calls:,} calls; SQLite)")
        for name, (target, environment) in kinds(app).items():
            status = call(target, environment)  # (its caches filled)
            rounds = []
            for _ in range(3):
                started = time.process_time()
                for _ in range(args.calls):
                    call(target, environment)
                rounds.append((time.process_time() - started) / args.calls * 1e6)
            print(f"{name:20}{status:>22}{min(rounds):11.0f}")
        app.extensions["ruzzle.store"].dispose()


if __name__ == "__main__":
    main()
