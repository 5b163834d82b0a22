"""The class loop of bench/rooms.py for locust (an outside load tool, a second opinion on our own client): the
lobby, the start, a word every 2-4 s, the end and the results polls, with one host polling its projector page.

Locust is not a dependency of the app or of the tests: install it in a virtual environment of its own, with
marisa-trie (this file solves the room's board with the package, to know its words):

    python3 -m venv bench/.venv-locust
    bench/.venv-locust/bin/pip install locust==2.47.0 marisa-trie==1.4.1

Then start the server as the README runs it, as bench/rooms.py does (per-client limits on; the phones come from
20 addresses through X-Forwarded-For, so the server believes one proxy; a room as big as the class):

    RUZZLE_PROXY_FIX=1 RUZZLE_ROOM_PLAYERS=300 RUZZLE_DATABASE_URL=sqlite:////tmp/rooms.sqlite3 \\
        .venv/bin/gunicorn --config gunicorn.conf.py app:app
    bench/.venv-locust/bin/locust -f bench/locustfile.py --headless -u 301 -r 15 -t 10m \\
        --host http://127.0.0.1:8000 --lobby 30 --play 60 --after 30

One user is the host (it opens the room when the test starts, starts it --lobby seconds later and stops the test
--after seconds after the end); the other -u - 1 are phones, joining at -r a second (the join window). Every poll
follows its page: the interval of the polling element's hx-trigger="every Ns" and the If-None-Match of its
hx-headers in the latest 200. The requests are named by category in locust's table (joins, lobby polls, board at
start, words, clock polls, results at end, results polls, host stage polls, host ranking polls); at the end this
file prints the 304s per category, the errors by kind and the ranking exactness check (each player's total in the
host's JSON ranking against the words the server accepted from that phone).

Simpler than bench/rooms.py where an outside tool makes it so: locust's own timeout (FastHttpUser's network_timeout,
60 s) rather than the pages' 8 and 10 s, a word that failed is not sent again, `Accept-Encoding: gzip, deflate`
(what geventhttpclient decodes) rather than the browser's br and zstd, no static files, and locust's latency
percentiles are rounded (two significant figures).
"""

from __future__ import annotations

import html
import json
import random
import re
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

import gevent
from locust import FastHttpUser, events, task
from locust.exception import StopUser

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ruzzle import Lexicon, blocked_words, generate  # noqa: E402
from ruzzle.game import Solution  # noqa: E402
from ruzzle.generator import LATEST_VERSION  # noqa: E402

SEED = "ROOMLD"
POLL_TIMEOUT, ASK_TIMEOUT = 10.0, 8.0
REFRESH_DELAYS = (1, 2, 3, 4)
NOT_WORDS = ("ZZXQ", "QQQ", "XKCD", "BRRZ", "JJJJ", "QWRT", "ZZZZT", "XXYYZ")
EVERY = re.compile(r'<[a-z]+\b[^>]*?\bhx-trigger="(?:[^"]*,)?\s*every\s+([0-9.]+)(ms|s)\b[^>]*>')
ATTRIBUTE = re.compile(r'\s([a-z-]+)(?:="([^"]*)"|=\'([^\']*)\')?')
TIMER = re.compile(r'<span id="timer"[^>]*>')
WORDS_URL = re.compile(r'data-words-url="([^"]+)"')

STATE = {
    "code": None,
    "host_cookie": None,
    "opened": None,
    "ends_at": None,
    "stop_at": float("inf"),
    "expected": {},
    "not_modified": Counter(),
    "errors": Counter(),
    "solution": None,
    "problems": None,
}
LOCK = threading.Lock()
NUMBERS = iter(range(10**6))


@events.init_command_line_parser.add_listener
def _(parser):
    parser.add_argument("--lobby", type=float, default=30, help="seconds from the room's opening to the start")
    parser.add_argument("--play", type=float, default=60, help="seconds of play")
    parser.add_argument("--after", type=float, default=30, help="seconds the results are polled after the end")
    parser.add_argument("--addresses", type=int, default=20, help="client addresses (X-Forwarded-For)")


@events.test_start.add_listener
def open_room(environment, **_):
    """The host opens the room before any phone arrives (its cookie and the code are shared with the host user)."""
    STATE["solution"] = list(
        Solution.of(generate("en", SEED, 4, 4, version=LATEST_VERSION), Lexicon.builtin("en"), blocked_words("en"))
    )
    body = urllib.parse.urlencode(
        {"language": "en", "size": "4x4", "time": str(int(environment.parsed_options.play)), "seed": SEED}
    ).encode()
    host = environment.host.split("//", 1)[1]

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(
        environment.host + "/rooms",
        body,
        {"X-Forwarded-For": "10.0.0.1", "X-Forwarded-Proto": "https", "Origin": f"https://{host}"},
    )
    try:
        urllib.request.build_opener(NoRedirect).open(request)
    except urllib.error.HTTPError as answer:  # the 303
        STATE["code"] = answer.headers["Location"].split("/")[2]
        STATE["host_cookie"] = answer.headers["Set-Cookie"].split(";", 1)[0]
    STATE["opened"] = time.time()


@events.test_stop.add_listener
def report(environment, **_):
    print(f"\nroom {STATE['code']}: 304 answers by category: {dict(STATE['not_modified'])}")
    print(f"errors by kind ({sum(STATE['errors'].values())}): {dict(STATE['errors'])}")
    problems = STATE["problems"]
    print(
        f"ranking exact: {'not checked' if problems is None else 'yes' if not problems else 'NO'} "
        f"({len(STATE['expected'])} players, {sum(STATE['expected'].values())} points accepted)"
    )
    for problem in (problems or [])[:10]:
        print("  " + problem)


def attributes(tag: str) -> dict[str, str]:
    return {
        m.group(1): html.unescape(m.group(2) if m.group(2) is not None else m.group(3) or "")
        for m in ATTRIBUTE.finditer(tag)
    }


class Tab(FastHttpUser):
    """A browser tab: cookies by hand (behind the proxy the cookie is Secure, and locust talks plain HTTP), the
    page's polls as greenlets, its clock."""

    abstract = True
    concurrency = 4
    address = "10.0.0.1"

    def on_start(self) -> None:
        self.cookie = ""
        self.page = ""
        self.polls: dict[str, dict] = {}
        self.generation = 0
        self.quiet_until = 0.0

    def headers(self, target: str | None = None, etag: str | None = None, post: bool = False) -> dict:
        host = self.host.split("//", 1)[1]
        headers = {"X-Forwarded-For": self.address, "X-Forwarded-Proto": "https", "Accept-Encoding": "gzip, deflate"}
        if target is not None:
            headers.update({"HX-Request": "true", "HX-Current-URL": f"https://{host}{self.page}"})
            if target:
                headers["HX-Target"] = target
        if etag:
            headers["If-None-Match"] = etag
        if post:
            headers.update({"Origin": f"https://{host}", "Sec-Fetch-Site": "same-origin"})
        if self.cookie:
            headers["Cookie"] = self.cookie
        return headers

    def ask(
        self,
        method: str,
        path: str,
        name: str,
        headers: dict,
        data=None,
        timeout: float = ASK_TIMEOUT,
        into=False,
        poll: dict | None = None,
    ):
        """One request, named `name` in locust's table; (status or 0, headers). A 200 is swapped `into` a region
        (None: the whole page; False: nowhere) while its request is still open, so that its name in the table can
        become "board at start" or "results at end"."""
        with self.client.request(
            method,
            path,
            name=name,
            headers=headers,
            data=data,
            catch_response=True,
            allow_redirects=False,
            timeout=timeout,
        ) as response:
            status = response.status_code or 0
            if status in (200, 303, 304):
                response.success()
            else:
                response.failure(f"status {status}")
                STATE["errors"][f"{name}: {status or response.error}"] += 1
            if status == 304:
                STATE["not_modified"][name] += 1
            cookie = response.headers.get("set-cookie") if response.headers else None
            if cookie:
                self.cookie = cookie.split(";", 1)[0]
            if status == 200 and into is not False and (poll is None or poll["alive"]):
                region = (response.headers.get("hx-retarget") or "#" + into).lstrip("#") if into else None
                self.arrived(response.text, region, name, response)
            return status, response.headers

    def error(self, kind: str) -> None:
        STATE["errors"][kind] += 1

    def load(self, path: str, name: str) -> str:
        self.page = path
        self.ask("GET", path, name, self.headers(), into=None)

    def swap(self, region: str | None, text: str) -> None:
        for key in [k for k in self.polls if region in (None, "game") or k == region]:
            self.polls.pop(key)["alive"] = False
        for match in EVERY.finditer(text):
            found = attributes(match.group(0))
            poll = {
                "url": found["hx-get"],
                "every": float(match.group(1)) * (0.001 if match.group(2) == "ms" else 1),
                "target": (found.get("hx-target") or "#" + found.get("id", "")).lstrip("#"),
                "alive": True,
                "etag": json.loads(found["hx-headers"]).get("If-None-Match") if found.get("hx-headers") else None,
            }
            key = found.get("id") or poll["url"]
            self.polls[key] = poll
            gevent.spawn(self.keep_polling, key, poll)
        timer = TIMER.search(text)
        if timer:
            found = attributes(timer.group(0))
            if "data-remaining" in found and "data-refresh-url" in found and "data-paused" not in found:
                self.generation += 1
                at = float(found.get("data-server-now") or time.time()) + float(found["data-remaining"])
                self.timer_set(at)
                gevent.spawn(self.at_zero, self.generation, at, found["data-refresh-url"])
        elif region in (None, "game"):
            self.generation += 1

    def keep_polling(self, key: str, poll: dict) -> None:
        next_tick = time.time() + poll["every"]
        while True:
            gevent.sleep(max(0.0, next_tick - time.time()))
            if not poll["alive"] or time.time() >= STATE["stop_at"]:
                return
            if time.time() >= self.quiet_until:
                name = self.poll_name(poll)
                status, _ = self.ask(
                    "GET",
                    poll["url"],
                    name,
                    self.headers(poll["target"], poll["etag"]),
                    timeout=POLL_TIMEOUT,
                    into=poll["target"],
                    poll=poll,
                )
                if status >= 400 or status == 0:
                    self.quiet_until = time.time() + 2
            next_tick += poll["every"]
            while next_tick < time.time():
                next_tick += poll["every"]

    def at_zero(self, generation: int, at: float, url: str) -> None:
        gevent.sleep(max(0.0, at - time.time()))
        self.words_done()
        failures = 0
        while generation == self.generation and time.time() < STATE["stop_at"]:
            name = self.refresh_name()
            status, _ = self.ask("GET", url, name, self.headers(""), into="game")
            if status == 200:
                return
            failures += 1
            gevent.sleep(REFRESH_DELAYS[min(failures, len(REFRESH_DELAYS)) - 1])

    def timer_set(self, at: float) -> None:
        pass

    def words_done(self) -> None:
        pass


class Phone(Tab):
    weight = 1

    def on_start(self) -> None:
        super().on_start()
        with LOCK:
            self.number = next(NUMBERS)
        self.name = f"Player {self.number:04d}"
        count = self.environment.parsed_options.addresses
        self.address = f"10.20.{self.number % count // 250}.{self.number % count % 250 + 1}"
        self.rng = random.Random(self.number)
        self.phase = "outside"
        self.ends_at = None
        self.unsent = self.rng.sample(STATE["solution"], len(STATE["solution"]))
        self.found, self.expected, self.sending, self.words = [], 0, None, None

    @task
    def play(self) -> None:
        status, headers = self.ask(
            "POST", f"/rooms/{STATE['code']}/players", "joins", self.headers(post=True), {"nickname": self.name}
        )
        if status != 303:
            raise StopUser()
        STATE["expected"][self.name] = 0
        self.load(headers["location"], "page loads")
        while time.time() < STATE["stop_at"]:
            gevent.sleep(1)
        raise StopUser()

    def poll_name(self, poll: dict) -> str:
        return {
            "outside": "lobby polls",
            "lobby": "lobby polls",
            "countdown": "lobby polls",
            "playing": "clock polls",
        }.get(self.phase, "results polls")

    def refresh_name(self) -> str:
        return (
            "board at start"
            if self.phase in ("lobby", "countdown")
            else "results at end"
            if self.phase == "playing"
            else "other page asks"
        )

    def arrived(self, text: str, region: str | None, name: str, response) -> None:
        if region == "clock":
            self.swap(region, text)
            return
        renamed = None
        if "room-wait-title" in text:
            self.phase = "lobby"
        elif "room-countdown" in text:
            self.phase = "countdown"
        elif "data-words-url" in text:
            renamed = (
                "board at start" if self.phase != "playing" else "other page asks" if name == "board at start" else None
            )
            self.phase = "playing"
            self.words_url = html.unescape(WORDS_URL.search(text).group(1))
        elif "room-results" in text:
            renamed = (
                "results at end" if self.phase != "results" else "other page asks" if name == "results at end" else None
            )
            self.phase = "results"
        else:
            self.error(f"{name}: unexpected content")
        if renamed and response is not None:
            response.request_meta["name"] = renamed
        self.swap(region, text)

    def timer_set(self, at: float) -> None:
        if self.phase == "playing":
            self.ends_at = at
            if self.words is None:
                self.words = gevent.spawn(self.play_words)

    def words_done(self) -> None:
        if self.sending is not None:
            self.sending.join()

    def play_words(self) -> None:
        next_at = time.time() + self.rng.uniform(2, 4)
        while True:
            gevent.sleep(max(0.0, next_at - time.time()))
            if self.phase != "playing" or time.time() >= self.ends_at:
                return
            next_at = time.time() + self.rng.uniform(2, 4)
            self.sending = gevent.spawn(self.send_word)
            self.sending.join()

    def send_word(self) -> None:
        draw = self.rng.random()
        if draw < 0.1 and self.found:
            found = self.rng.choice(self.found)
            form, expect = {"word": found.word.lower()}, "already found"
        elif draw < 0.2 or not self.unsent:
            form, expect, found = {"word": self.rng.choice(NOT_WORDS).lower()}, "refused", None
        else:
            found = self.unsent.pop()
            form = (
                {"path": " ".join(f"{r},{c}" for r, c in found.path)}
                if self.rng.random() < 0.5
                else {"word": found.word.lower()}
            )
            expect = "scored"
        text = self.client.request(
            "POST",
            self.words_url,
            name="words",
            headers=self.headers("result", post=True),
            data=form,
            allow_redirects=False,
            timeout=ASK_TIMEOUT,
        )
        if text.status_code != 200:
            STATE["errors"][f"words: {text.status_code or text.error}"] += 1
            return  # counted; the page would send it again (bench/rooms.py does)
        text = text.text
        if expect == "scored" and f'<span class="breakdown-total">{found.score} point' in text:
            self.expected += found.score
            STATE["expected"][self.name] = self.expected
            self.found.append(found)
        elif not (
            (expect == "already found" and "is already found" in text)
            or (expect == "refused" and "result-refused" in text)
        ):
            self.error(f"words: unexpected answer to a word {expect}")


class Host(Tab):
    fixed_count = 1

    @task
    def project(self) -> None:
        self.cookie = STATE["host_cookie"]
        options = self.environment.parsed_options
        self.load(f"/rooms/{STATE['code']}/host", "page loads")
        gevent.sleep(max(0.0, STATE["opened"] + options.lobby - time.time()))
        status, headers = self.ask("POST", f"/rooms/{STATE['code']}/start", "page loads", self.headers(post=True))
        self.load(headers["location"], "page loads")
        while STATE["ends_at"] is None:
            gevent.sleep(0.2)
        STATE["stop_at"] = STATE["ends_at"] + options.after
        gevent.sleep(max(0.0, STATE["stop_at"] - time.time()) + POLL_TIMEOUT)
        answer = self.client.request(
            "GET",
            f"/rooms/{STATE['code']}/leaderboard?all=1",
            name="final ranking",
            headers={**self.headers(), "Accept": "application/json"},
            timeout=30,
        )
        totals = (
            {line["nickname"]: line["score"] for line in json.loads(answer.text)["players"]}
            if answer.status_code == 200
            else {}
        )
        STATE["problems"] = [
            f"{name}: the ranking says {totals.get(name)}, the accepted words make {expected}"
            for name, expected in STATE["expected"].items()
            if totals.get(name) != expected
        ]
        self.environment.runner.quit()

    def poll_name(self, poll: dict) -> str:
        return "host ranking polls" if "leaderboard" in poll["url"] else "host stage polls"

    def refresh_name(self) -> str:
        return "host stage polls"

    def arrived(self, text: str, region: str | None, name: str, response) -> None:
        self.swap(region, text)
        timer = TIMER.search(text)
        if timer and region in (None, "game") and "room-playing" in text:
            found = attributes(timer.group(0))
            STATE["ends_at"] = float(found["data-server-now"]) + float(found["data-remaining"])
