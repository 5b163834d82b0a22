"""A whole class loop in one room, the way its phones and its projector load the server: the lobby, the start, the
round, the end and the results, with N phones (500 by default, 2,000 for a school; issue 21), against gunicorn as
the README runs it, on SQLite (the default store) or PostgreSQL, or two app servers sharing one PostgreSQL.

    python3 bench/rooms.py                               # 500 phones, 30 s of lobby, 60 s of play, SQLite
    python3 bench/rooms.py --players 2000 --lobby 60
    python3 bench/rooms.py --players 300 --store postgresql --servers 2 --json out.json

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
import html
import json
import os
import random
import re
import resource
import sys
import tempfile
import time
import urllib.parse
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.client import ACCEPT_ENCODING, Answer, Browser, Timeout, request_bytes  # noqa: E402
from bench.load import percentile  # noqa: E402
from ruzzle import Lexicon, blocked_words, generate  # noqa: E402
from ruzzle.game import Solution  # noqa: E402
from ruzzle.generator import LATEST_VERSION  # noqa: E402
from tools.postgres import postgres_cluster  # noqa: E402
from tools.servers import gunicorn_server  # noqa: E402

SEED = "ROOMLD"
SHIPPED_ROOM_PLAYERS = 2000  # app.py ROOM_PLAYERS
POLL_TIMEOUT = 10.0  # htmx's timeout (templates/_htmx_config.html)
ASK_TIMEOUT = 8.0  # net.js's TIMEOUT: a word, the page asked for at 0:00
NAVIGATION_TIMEOUT = 60.0  # a form sent or a page opened by the browser itself (it waits minutes; a person less)
REFRESH_DELAYS = (1, 2, 3, 4)  # never_stuck.js: a refresh that failed is tried again after these seconds
RETRY_DELAYS = (0.5, 1, 2, 3, 5)  # word_queue.js: a word that failed
WORD_GAP = (2.0, 4.0)
REPEATS, NOT_WORDS_SHARE, TRACED = 0.10, 0.10, 0.5
NOT_WORDS = ("ZZXQ", "QQQ", "XKCD", "BRRZ", "JJJJ", "QWRT", "ZZZZT", "XXYYZ")
USER_AGENT = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile"

JOIN, PAGE, STATIC = "joins", "page loads", "static files"
LOBBY, BOARD, WORD, CLOCK = "lobby polls", "board at start", "words", "clock polls"
RESULTS, RESULTS_POLL, STAGE, RANKING = "results at end", "results polls", "host stage polls", "host ranking polls"
OTHER = "other page asks"  # mostly a refresh at 0:00 overtaken by a clock poll that brought the results
AHEAD = "board during 3-2-1"  # round_clock.js's fetchAhead: the board asked for when the 3-2-1 shows, shown at 0
CATEGORIES = (JOIN, PAGE, STATIC, LOBBY, AHEAD, BOARD, WORD, CLOCK, RESULTS, RESULTS_POLL, STAGE, RANKING, OTHER)
POLLS = (LOBBY, CLOCK, RESULTS_POLL, STAGE, RANKING)

TRIGGER = 'hx-trigger="'
EVERY = re.compile(r"(?:^|,)\s*every\s+([0-9.]+)(ms|s|m)\b")  # as never_stuck.js's isPolling reads an hx-trigger
TIMER_TAG = re.compile(r'<span id="timer"[^>]*>')
ATTRIBUTE = re.compile(r'\s([a-z-]+)(?:="([^"]*)"|=\'([^\']*)\')?')
WORDS_URL = re.compile(r'data-words-url="([^"]+)"')
ASSETS = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')
UNIT = {"ms": 0.001, "s": 1.0, "m": 60.0}


def attributes(tag: str) -> dict[str, str]:
    return {
        match.group(1): html.unescape(match.group(2) if match.group(2) is not None else match.group(3) or "")
        for match in ATTRIBUTE.finditer(tag)
    }


class Poll:
    """A polling element of a page: what it asks, how often, with which ETag, and what its answer replaces."""

    def __init__(self, tag: str, every: float):
        found = attributes(tag)
        self.key = found.get("id") or found.get("hx-get")
        self.url = found["hx-get"]
        self.every = every
        self.target = (found.get("hx-target") or "#" + (found.get("id") or "")).lstrip("#") or None
        headers = json.loads(found["hx-headers"]) if found.get("hx-headers") else {}
        self.etag = headers.get("If-None-Match")
        self.alive = True


def polls_in(text: str) -> list[Poll]:
    """The polling elements of an answer: each tag with hx-trigger="every Ns" (found with str.find: a regex over
    a whole page costs the load generator more than the rest of the answer's handling)."""
    polls, at = [], text.find(TRIGGER)
    while at >= 0:
        value_end = text.find('"', at + len(TRIGGER))
        interval = EVERY.search(text[at + len(TRIGGER) : value_end])
        start, end = text.rfind("<", 0, at), text.find(">", at)
        if start >= 0 and end >= 0 and interval:
            polls.append(Poll(text[start : end + 1], float(interval.group(1)) * UNIT[interval.group(2)]))
        at = text.find(TRIGGER, at + 1)
    return polls


class Figures:
    """What a run measured: latencies and 304s by category, errors by kind, times to the board and the results."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = {category: [] for category in CATEGORIES}
        self.not_modified: Counter = Counter()
        self.errors: Counter = Counter()
        self.examples: dict[str, list[str]] = defaultdict(list)
        self.board_after_start: list[float] = []
        self.results_after_end: list[float] = []
        self.lag: list[float] = []

    def error(self, kind: str, example: str) -> None:
        self.errors[kind] += 1
        if len(self.examples[kind]) < 3:
            self.examples[kind].append(example)

    def requests(self) -> int:
        return sum(len(values) for values in self.latencies.values())


class Run:
    """The shared state of one run: the servers, the room, the clock of the loop, the figures."""

    def __init__(self, ports: list[int], args, words: Solution):
        self.ports, self.args, self.solution = ports, args, list(words)
        self.figures = Figures()
        self.code = ""
        self.started_at: float | None = None  # wall clock: the round's start (the end of the 3-2-1)
        self.ends_at: float | None = None  # wall clock: the round's end, as the host's page says
        self.stop_at = float("inf")  # wall clock: every page stops polling
        self.expected: dict[str, int] = {}
        self.unknown: dict[str, int] = {}  # points of words sent whose answer never came (timeouts): taken or not
        self.tabs: list[Tab] = []
        self.tasks: set[asyncio.Task] = set()

    def spawn(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @property
    def stopped(self) -> bool:
        return time.time() >= self.stop_at


class Tab:
    """One browser tab on one server: its cookies, connections and address; the page's polls and its clock."""

    def __init__(self, run: Run, port: int, address: str, name: str):
        self.run, self.port, self.address, self.name = run, port, address, name
        self.host = f"127.0.0.1:{port}"
        self.browser = Browser("127.0.0.1", port)
        self.cookies: dict[str, str] = {}
        self.page = ""  # the page's path (HX-Current-URL)
        self.polls: dict[str, Poll] = {}
        self.timer_generation = 0
        self.quiet_until = 0.0  # never_stuck.js: polls wait after a failed one
        self.poll_failures = 0
        self.ahead: dict[str, Answer] = {}  # round_clock.js's aheads: a page's region fetched before it is due

    # --- requests ------------------------------------------------------------------------------------------------

    def headers(self, htmx_target: str | None = None, etag: str | None = None, origin: bool = False) -> dict:
        headers = {
            "User-Agent": USER_AGENT,
            "Accept-Encoding": ACCEPT_ENCODING,
            "X-Forwarded-For": self.address,
            "X-Forwarded-Proto": "https",
        }
        if htmx_target is not None:
            headers.update({"HX-Request": "true", "HX-Current-URL": f"https://{self.host}{self.page}"})
            if htmx_target:
                headers["HX-Target"] = htmx_target
        if etag:
            headers["If-None-Match"] = etag
        if origin:
            headers.update({"Origin": f"https://{self.host}", "Sec-Fetch-Site": "same-origin"})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        return headers

    async def ask(
        self, method: str, path: str, headers: dict, body: bytes = b"", timeout: float = ASK_TIMEOUT
    ) -> tuple[Answer | None, float, str | None]:
        """One request: its answer (None when it failed), its time, and the failure's kind."""
        data = request_bytes(method, path, self.host, headers, body)
        start = time.perf_counter()
        try:
            answer = await self.browser.request(data, timeout)
        except Timeout:
            return None, time.perf_counter() - start, "timeout"
        except (TimeoutError, OSError) as problem:
            return None, time.perf_counter() - start, f"connection: {type(problem).__name__}"
        for cookie in answer.cookies:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return answer, time.perf_counter() - start, None

    def record(self, category: str, elapsed: float, answer: Answer | None = None) -> None:
        self.run.figures.latencies[category].append(elapsed)
        if answer is not None and answer.status == 304:
            self.run.figures.not_modified[category] += 1

    def error(self, kind: str, example: str) -> None:
        self.run.figures.error(kind, f"{self.name}: {example}")

    # --- the page: full loads, swaps, polls and the clock -----------------------------------------------------

    async def load_page(self, path: str, category: str) -> Answer | None:
        """A full page load (a link followed, a redirect): its polls and its clock replace the page's."""
        answer, elapsed, failure = await self.ask("GET", path, self.headers(), b"", NAVIGATION_TIMEOUT)
        if answer is None or answer.status != 200:
            self.record(category, elapsed, answer)
            self.error(f"{category}: {failure or answer.status}", path)
            return None
        self.page = path
        self.record(self.arrived(answer, None, category, elapsed), elapsed, answer)  # a late joiner's first board
        return answer

    def swap(self, region: str | None, text: str) -> None:
        """An answer replaced `region` (None: the whole page): the polls inside it go, those in the answer come, and
        a #timer in it (re)starts the page's clock (a region without one stops it, as round_clock.js's tick does)."""
        inside = [key for key, poll in self.polls.items() if region in (None, "game") or key == region]
        for key in inside:
            self.polls.pop(key).alive = False
        for poll in polls_in(text):
            self.polls[poll.key] = poll
            self.run.spawn(self.keep_polling(poll))
        timer = TIMER_TAG.search(text)
        if timer:
            found = attributes(timer.group(0))
            if "data-remaining" in found and "data-refresh-url" in found and "data-paused" not in found:
                at = float(found.get("data-server-now") or time.time()) + float(found["data-remaining"])
                self.timer_generation += 1
                url = html.unescape(found["data-refresh-url"])
                wait = (float(found.get("data-refresh-after", 0)), float(found.get("data-refresh-spread", 0)))
                self.run.spawn(
                    self.clock_reaches_zero(
                        self.timer_generation, at, url, found.get("data-refresh-target", "#game").lstrip("#"), wait
                    )
                )
                if "data-ahead-url" in found:
                    self.run.spawn(self.fetch_ahead(url, html.unescape(found["data-ahead-url"])))
                self.timer_set(at)
        elif region in (None, "game"):
            self.timer_generation += 1

    def timer_set(self, at: float) -> None:
        """The page's clock now reads 0 at `at` (a phone sends words until then)."""

    async def words_done(self) -> None:
        """net.js's whenIdle: the page asks for its next page once the words on their way are answered."""

    async def keep_polling(self, poll: Poll) -> None:
        """htmx's "every Ns": a tick every interval from the swap; a tick while the last request is on its way, or
        while never_stuck.js holds the polls back after a failure, asks nothing."""
        loop = asyncio.get_running_loop()
        next_tick = loop.time() + poll.every
        while True:
            await asyncio.sleep(max(0.0, next_tick - loop.time()))
            if not poll.alive or self.run.stopped:
                return
            if time.monotonic() >= self.quiet_until:
                category = self.poll_category(poll)
                answer, elapsed, failure = await self.ask(
                    "GET", poll.url, self.headers(poll.target or "", poll.etag), b"", POLL_TIMEOUT
                )
                if poll.alive:  # an answer for an element already swapped out is dropped (never_stuck.js)
                    self.polled(poll, category, answer, elapsed, failure)
                else:
                    self.record(category, elapsed, answer)
            next_tick += poll.every
            while next_tick < loop.time():
                next_tick += poll.every

    def polled(self, poll: Poll, category: str, answer: Answer | None, elapsed: float, failure: str | None) -> None:
        if answer is None or answer.status >= 400:
            self.record(category, elapsed, answer)
            self.error(f"{category}: {failure or answer.status}", poll.url)
            self.back_off(answer)
            return
        self.poll_failures = 0
        self.quiet_until = 0.0
        if answer.status in (204, 304):  # 204: a big room's clock poll right after the end leaves it to the phone
            self.record(category, elapsed, answer)
            return
        region = answer.headers.get("hx-retarget", "#" + (poll.target or "")).lstrip("#") or poll.key
        category = self.arrived(answer, region, category, elapsed)
        self.record(category, elapsed, answer)

    def back_off(self, answer: Answer | None) -> None:
        """never_stuck.js: after a failed poll, none for a while (no answer: up to 3 s; a server in trouble: as long
        as it asks, or 2, 4, 8... up to 30 s)."""
        self.poll_failures += 1
        if answer is not None and answer.status >= 429:
            asked = float(answer.headers.get("retry-after", 0) or 0)
            wait = max(asked, min(30.0, 2.0**self.poll_failures))
        else:
            wait = min(3.0, 1.0 * self.poll_failures)
        self.quiet_until = time.monotonic() + wait

    async def fetch_ahead(self, url: str, ahead_url: str) -> None:
        """round_clock.js's fetchAhead: during the 3-2-1, the board as of the start, kept to show at 0 unasked."""
        answer, elapsed, failure = await self.ask("GET", ahead_url, self.headers(""), b"", ASK_TIMEOUT)
        self.record(AHEAD, elapsed, answer)
        if answer is not None and answer.status == 200 and "data-words-url" in answer.text:
            self.ahead[url] = answer
        else:
            self.error(f"{AHEAD}: {failure or (answer.status if answer else '')}", ahead_url)

    async def clock_reaches_zero(
        self, generation: int, at: float, url: str, target: str, wait: tuple[float, float] = (0.0, 0.0)
    ) -> None:
        """round_clock.js: at 0, once the words are answered (and in a big room after the wait the server gave:
        `after` seconds plus a random share of `spread`), the page shows the board it fetched during the 3-2-1, or
        asks for what comes next until it has it."""
        await asyncio.sleep(max(0.0, at - time.time()))
        if generation != self.timer_generation or self.run.stopped:
            return
        await self.words_done()
        after, spread = wait
        if after or spread:
            await asyncio.sleep(after + random.random() * spread)
            if generation != self.timer_generation or self.run.stopped:
                return
        ahead = self.ahead.pop(url, None)
        if ahead is not None:
            self.arrived(ahead, target, BOARD, 0.0)  # (its request counted when it was made, under AHEAD)
            return
        failures = 0
        while generation == self.timer_generation and not self.run.stopped:
            answer, elapsed, failure = await self.ask("GET", url, self.headers(""), b"", ASK_TIMEOUT)
            if answer is not None and answer.status == 200:
                self.record(self.arrived(answer, target, self.refresh_category(), elapsed), elapsed, answer)
                return
            self.record(self.refresh_category(), elapsed, answer)
            self.error(f"{self.refresh_category()}: {failure or answer.status}", url)
            failures += 1
            await asyncio.sleep(REFRESH_DELAYS[min(failures, len(REFRESH_DELAYS)) - 1])

    # --- what the kind of tab makes of it ------------------------------------------------------------------------

    def poll_category(self, poll: Poll) -> str:
        raise NotImplementedError

    def refresh_category(self) -> str:
        raise NotImplementedError

    def arrived(self, answer: Answer, region: str, category: str, elapsed: float) -> str:
        """A 200 answer that replaces `region`: check it, swap it in; the category its time counts in."""
        raise NotImplementedError


class Phone(Tab):
    """A pupil's phone: joins, waits, plays words, reads its results."""

    def __init__(self, run: Run, number: int, port: int, address: str):
        super().__init__(run, port, address, f"Player {number:04d}")
        self.rng = random.Random(number)
        self.phase = "outside"
        self.words_url = ""
        self.ends_at: float | None = None
        self.unsent = self.rng.sample(run.solution, len(run.solution))
        self.found: list = []
        self.expected = 0
        self.sending = asyncio.Event()
        self.sending.set()  # set: no word on its way
        self.playing = False
        self.last_results = ""

    async def join_and_play(self, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))
        body = urllib.parse.urlencode({"nickname": self.name}).encode()
        answer, elapsed, failure = await self.ask(
            "POST", f"/rooms/{self.run.code}/players", self.headers(origin=True), body, NAVIGATION_TIMEOUT
        )
        self.record(JOIN, elapsed, answer)
        if answer is None or answer.status != 303 or not self.cookies:
            self.error(f"join: {failure or answer.status}", answer.text[:200] if answer else "")
            return
        self.run.expected[self.name] = 0
        page = await self.load_page(answer.headers["location"], PAGE)
        if page is None:
            return
        for asset in dict.fromkeys(ASSETS.findall(page.text)):  # the browser's first visit: its files
            reply, elapsed, failure = await self.ask(
                "GET", html.unescape(asset), self.headers(), b"", NAVIGATION_TIMEOUT
            )
            self.record(STATIC, elapsed, reply)
            if reply is None or reply.status != 200:
                self.error(f"static: {failure or reply.status}", asset)

    def poll_category(self, poll: Poll) -> str:
        return {"outside": LOBBY, "lobby": LOBBY, "countdown": LOBBY, "playing": CLOCK}.get(self.phase, RESULTS_POLL)

    def refresh_category(self) -> str:
        return BOARD if self.phase in ("lobby", "countdown") else RESULTS if self.phase == "playing" else OTHER

    def arrived(self, answer: Answer, region: str, category: str, elapsed: float) -> str:
        text = answer.text
        if region == "clock":
            if 'id="clock"' not in text:
                self.error(f"{category}: unexpected content", text[:200])
            self.swap(region, text)
            return category
        if "room-wait-title" in text:
            self.phase = "lobby"
        elif "room-countdown" in text:
            self.phase = "countdown"
        elif "data-words-url" in text:
            first = self.phase in ("outside", "lobby", "countdown")
            self.phase = "playing"
            self.words_url = html.unescape(WORDS_URL.search(text).group(1))
            if first:
                self.run.figures.board_after_start.append(time.time())  # less the start, once it is known
                category = BOARD
        elif "room-results" in text:
            first = self.phase != "results"
            self.phase = "results"
            self.last_results = text
            if first:
                self.run.figures.results_after_end.append(time.time() - (self.ends_at or time.time()))
                category = RESULTS
        else:
            self.error(f"{category}: unexpected content", text[:200])
        self.swap(region, text)
        return category

    def timer_set(self, at: float) -> None:
        if self.phase == "countdown" and self.run.started_at is None:
            self.run.started_at = at  # the host's page may have come back after the 3-2-1
        if self.phase == "playing":
            self.ends_at = at
            if not self.playing:
                self.playing = True
                self.run.spawn(self.play_words())

    async def words_done(self) -> None:
        await self.sending.wait()

    # --- words ----------------------------------------------------------------------------------------------

    def next_word(self) -> tuple[dict[str, str], str, str, int]:
        """(form, word, what the server must answer, score): a word of the board not sent yet, one already found,
        or a not-word."""
        draw = self.rng.random()
        if draw < REPEATS and self.found:
            found = self.rng.choice(self.found)
            return {"word": found.word.lower()}, found.word, "already found", found.score
        if draw < REPEATS + NOT_WORDS_SHARE or not self.unsent:
            word = self.rng.choice(NOT_WORDS)
            return {"word": word.lower()}, word, "refused", 0
        found = self.unsent.pop()
        form = (
            {"path": " ".join(f"{r},{c}" for r, c in found.path)}
            if self.rng.random() < TRACED
            else {"word": found.word.lower()}
        )
        return form, found.word, "scored", found.score

    async def play_words(self) -> None:
        next_at = time.time() + self.rng.uniform(*WORD_GAP)
        while not self.run.stopped:
            await asyncio.sleep(max(0.0, next_at - time.time()))
            if self.phase != "playing" or self.ends_at is None or time.time() >= self.ends_at:
                return
            next_at = time.time() + self.rng.uniform(*WORD_GAP)
            self.sending.clear()
            try:
                await self.send_word(*self.next_word())
            finally:
                self.sending.set()

    async def send_word(self, form: dict, word: str, expect: str, score: int) -> None:
        """word_queue.js: the word until it is answered (429: after Retry-After; 5xx or no answer: again)."""
        body = urllib.parse.urlencode(form).encode()
        lost = False  # an attempt got no answer: the server may have taken the word all the same
        for attempt in range(1, 12):
            answer, elapsed, failure = await self.ask(
                "POST", self.words_url, self.headers("result", origin=True), body, ASK_TIMEOUT
            )
            self.record(WORD, elapsed, answer)
            if answer is not None and answer.status == 200:
                if not self.check_word(answer.text, word, expect, score, retried=lost) and lost and expect == "scored":
                    self.run.unknown[self.name] = self.run.unknown.get(self.name, 0) + score
                return
            lost |= answer is None
            self.error(f"words: {failure or answer.status}", word)
            if self.run.stopped:
                break
            delay = (
                float(answer.headers.get("retry-after", 0) or 0)
                if answer is not None and answer.status == 429
                else RETRY_DELAYS[min(attempt, len(RETRY_DELAYS)) - 1]
            )
            await asyncio.sleep(delay)
        if lost and expect == "scored":
            self.run.unknown[self.name] = self.run.unknown.get(self.name, 0) + score

    def check_word(self, text: str, word: str, expect: str, score: int, retried: bool) -> bool:
        """Check a word's answer; whether the word's outcome is known (taken or not)."""
        scored = (
            f'<span class="breakdown-total">{score} points</span>' in text
            or f'<span class="breakdown-total">{score} point</span>' in text
        )
        again = "is already found" in text
        if expect == "scored" and (scored or (again and retried)):  # a retry of a word taken: "already found"
            self.expected += score
            self.run.expected[self.name] = self.expected
            self.found.append(next(found for found in self.run.solution if found.word == word))
        elif expect == "already found" and again:
            pass
        elif expect == "refused" and "result-refused" in text:
            pass
        elif "Time is up" in text:
            self.error("words: answered after the end (time is up)", word)
            return False
        else:
            self.error(f"words: unexpected answer to a word {expect}", f"{word}: {text[:160]!r}")
        return True


class Host(Tab):
    """The teacher's projector: opens the room, starts it, shows the stage, the ranking and the podium."""

    def __init__(self, run: Run, port: int):
        super().__init__(run, port, "10.0.0.1", "host")
        self.podium_at: float | None = None

    async def open_room(self, seconds: int) -> bool:
        body = urllib.parse.urlencode({"language": "en", "size": "4x4", "time": str(seconds), "seed": SEED}).encode()
        answer, elapsed, failure = await self.ask("POST", "/rooms", self.headers(origin=True), body, NAVIGATION_TIMEOUT)
        self.record(PAGE, elapsed, answer)
        if answer is None or answer.status != 303:
            raise SystemExit(f"the room could not be opened: {failure or answer.status} {answer and answer.text[:300]}")
        location = answer.headers["location"]
        self.run.code = location.split("/")[2]
        return await self.load_page(location, PAGE) is not None

    async def start(self) -> None:
        answer, elapsed, failure = await self.ask(
            "POST", f"/rooms/{self.run.code}/start", self.headers(origin=True), b"", NAVIGATION_TIMEOUT
        )
        self.record(PAGE, elapsed, answer)
        if answer is None or answer.status != 303:
            raise SystemExit(f"the start answered {failure or answer.status}")
        await self.load_page(answer.headers["location"], PAGE)

    def poll_category(self, poll: Poll) -> str:
        return RANKING if "leaderboard" in poll.url else STAGE

    def refresh_category(self) -> str:
        return STAGE

    def arrived(self, answer: Answer, region: str, category: str, elapsed: float) -> str:
        text = answer.text
        marker = 'id="leaderboard"' if region == "leaderboard" else 'id="game"'
        if marker not in text:
            self.error(f"{category}: unexpected content", text[:200])
        if region != "leaderboard" and "podium-steps" in text and self.podium_at is None:
            self.podium_at = time.time()
        self.swap(region, text)
        return category

    def swap(self, region: str | None, text: str) -> None:
        super().swap(region, text)
        timer = TIMER_TAG.search(text)
        if timer and region in (None, "game"):
            found = attributes(timer.group(0))
            if found.get("data-remaining") and found.get("data-server-now"):
                at = float(found["data-server-now"]) + float(found["data-remaining"])
                if "room-countdown" in text or "room-stage room-countdown" in text:
                    self.run.started_at = at
                elif "room-playing" in text:
                    self.run.ends_at = at
                    if self.run.started_at is None:  # the start page came back after the 3-2-1
                        self.run.started_at = at - self.run.args.seconds


async def watch_the_loop(run: Run) -> None:
    """The event loop's lag: how late a 100 ms sleep wakes (a late loop adds to every latency measured)."""
    loop = asyncio.get_running_loop()
    while not run.stopped:
        before = loop.time()
        await asyncio.sleep(0.1)
        run.figures.lag.append(loop.time() - before - 0.1)


async def final_ranking(run: Run, host: Host) -> list[str]:
    """The host's ranking as JSON at the end, against the words the server accepted from each phone."""
    headers = {**host.headers(), "Accept": "application/json"}
    for _ in range(4):  # an overloaded server may still be working through what the phones sent
        answer, _, failure = await host.ask(
            "GET", f"/rooms/{run.code}/leaderboard?all=1", headers, b"", NAVIGATION_TIMEOUT
        )
        if answer is not None and answer.status == 200:
            break
    if answer is None or answer.status != 200:
        return [f"the final ranking answered {failure or answer.status}"]
    totals = {line["nickname"]: line["score"] for line in json.loads(answer.text)["players"]}
    problems = []
    for name, expected in run.expected.items():
        total, unknown = totals.get(name), run.unknown.get(name, 0)
        if total == expected:
            continue
        if total is not None and expected < total <= expected + unknown:
            run.figures.error("ranking: words taken whose answer never reached the phone", name)
        else:
            problems.append(
                f"{name}: the ranking says {total}, the accepted words make {expected}"
                + (f" (and {unknown} points of words never answered)" if unknown else "")
            )
    problems += [
        f"{name}: {score} points in the ranking, but its join was never answered here"
        for name, score in totals.items()
        if name not in run.expected and score
    ]
    return problems


def address_of(number: int, addresses: int) -> str:
    k = number % addresses
    return f"10.20.{k // 250}.{k % 250 + 1}"


async def play(run: Run) -> tuple[list[str], int]:
    args = run.args
    loop_watch = asyncio.get_running_loop().create_task(watch_the_loop(run))
    host = Host(run, run.ports[0])
    await host.open_room(int(args.seconds))
    opened = time.time()
    phones = [
        Phone(run, number, run.ports[number % len(run.ports)], address_of(number, args.addresses))
        for number in range(args.players)
    ]
    rng = random.Random(7)
    for phone in phones:
        run.spawn(phone.join_and_play(opened + rng.uniform(0, args.join_window)))
    await asyncio.sleep(max(0.0, opened + args.lobby - time.time()))
    await host.start()
    # the round's start and end, as the host's page says them (its 3-2-1, then its clock)
    while run.ends_at is None and time.time() < opened + args.lobby + 30:
        await asyncio.sleep(0.2)
    ends_at = run.ends_at or time.time() + args.seconds
    run.stop_at = ends_at + args.after
    for phone in phones:
        phone.ends_at = phone.ends_at or ends_at
    await asyncio.sleep(max(0.0, run.stop_at - time.time()))
    if run.tasks:  # requests on their way finish (each has its timeout)
        _, late = await asyncio.wait(set(run.tasks), timeout=2 * POLL_TIMEOUT)
        for task in late:
            task.cancel()
    loop_watch.cancel()
    problems = await final_ranking(run, host)
    joined = sum(1 for phone in phones if phone.name in run.expected)
    for phone in phones:
        phone.browser.close()
        if (
            phone.name in run.expected
            and phone.last_results
            and phone.name not in run.unknown
            and f"<strong>{phone.expected}</strong> point" not in phone.last_results
        ):
            run.figures.error("results: the page's score is not the sum of the words accepted", phone.name)
    host.browser.close()
    if host.podium_at is None:
        run.figures.error("host: the podium never showed", run.code)
    return problems, joined


# --- the report -----------------------------------------------------------------------------------------------


def summary(values: list[float]) -> dict:
    ms = [1000 * value for value in values]
    if not ms:
        return {"count": 0}
    return {
        "count": len(ms),
        "p50": percentile(ms, 0.5),
        "p95": percentile(ms, 0.95),
        "p99": percentile(ms, 0.99),
        "max": max(ms),
    }


def report(run: Run, problems: list[str], joined: int, cpu: tuple, wall: float, load: tuple) -> tuple[list[str], dict]:
    figures, args = run.figures, run.args
    cpu, waited = cpu
    if run.started_at is not None:
        figures.board_after_start = [at - run.started_at for at in figures.board_after_start]
    else:
        figures.board_after_start = []
    requests = figures.requests()
    stats = {
        category: {**summary(figures.latencies[category]), "304": figures.not_modified[category]}
        for category in CATEGORIES
    }
    every_poll = summary([value for category in POLLS for value in figures.latencies[category]])
    host_polls = summary(figures.latencies[STAGE] + figures.latencies[RANKING])
    lines = [
        f"{args.players} phones ({joined} joined) from {args.addresses} addresses, {args.servers} server(s), "
        f"store {args.store}, room {run.code}: lobby {args.lobby:g} s (joins over {args.join_window:g} s), "
        f"play {args.seconds:g} s, results polled {args.after:g} s after the end",
        f"{'':20}{'requests':>9}{'304':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}",
    ]
    for category in CATEGORIES:
        row = stats[category]
        if row["count"]:
            lines.append(
                f"{category:20}{row['count']:9d}{row['304']:7d}{row['p50']:9.1f}{row['p95']:9.1f}"
                f"{row['p99']:9.1f}{row['max']:9.1f}"
            )
    lines.append(
        f"{'every poll':20}{every_poll.get('count', 0):9d}"
        f"{sum(figures.not_modified[c] for c in POLLS):7d}"
        + "".join(f"{every_poll.get(k, 0):9.1f}" for k in ("p50", "p95", "p99", "max"))
    )
    for label, values in (
        ("board in hand after the start", figures.board_after_start),
        ("results in hand after the end", figures.results_after_end),
    ):
        if values:
            lines.append(
                f"{label}: p50 {percentile(values, 0.5):.2f} s, p95 {percentile(values, 0.95):.2f} s, "
                f"max {max(values):.2f} s ({len(values)} of the {joined} phones in the room)"
            )
    lines.append(f"errors: {sum(figures.errors.values())}")
    for kind, count in figures.errors.most_common():
        lines.append(f"  {count:6d}  {kind}   e.g. {figures.examples[kind][0][:150]}")
    lines.append(
        f"ranking exact: {'yes' if not problems else 'NO'} ({joined} players, "
        f"{sum(run.expected.values())} points accepted; {len(run.unknown)} players sent words whose answer "
        f"never came, worth {sum(run.unknown.values())} points: a total above the accepted words by at most "
        f"those is counted as an error of that kind, not as an inexact ranking)"
    )
    lines += [f"  {problem}" for problem in problems[:10]]
    lag = summary(figures.lag)
    lines.append(
        f"the bench itself: {cpu:.1f} s of CPU for {requests} requests in {wall:.0f} s "
        f"({1000 * cpu / max(1, requests):.2f} s per 1,000 requests, {cpu / wall:.0%} of a core); "
        f"its event loop late by p99 {lag.get('p99', 0):.0f} ms, max {lag.get('max', 0):.0f} ms; it waited "
        f"{waited:.1f} s for a CPU (ready to run, other processes running)"
    )
    lines.append(f"load average (1 min): {load[0]:.2f} at the start, {load[1]:.2f} at the end (2 cores)")
    row = stats
    boards = summary(figures.latencies[AHEAD] + figures.latencies[BOARD])  # the request that brought each board
    table = (
        f"| {args.players:,} | {row[WORD].get('p99', 0):.0f} ms | {boards.get('p95', 0):.0f} ms | "
        f"{row[RESULTS].get('p50', 0):.0f} / {row[RESULTS].get('p95', 0):.0f} ms | "
        f"{row[RESULTS_POLL].get('p99', 0):.0f} ms | {host_polls.get('p95', 0):.0f} ms |"
    )
    lines += [
        "",
        "| phones | words p99 | board at start p95 | results at end p50 / p95 | results polls p99 | host ranking p95 |",
        "|---|---|---|---|---|---|",
        table,
        f"every poll p99: {every_poll.get('p99', 0):.0f} ms (host ranking: the host's stage and ranking polls)",
    ]
    data = {
        "players": args.players,
        "joined": joined,
        "addresses": args.addresses,
        "servers": args.servers,
        "store": args.store,
        "lobby": args.lobby,
        "seconds": args.seconds,
        "after": args.after,
        "categories": stats,
        "every_poll": every_poll,
        "host_polls": host_polls,
        "board_after_start_s": figures.board_after_start and summary(figures.board_after_start),
        "results_after_end_s": figures.results_after_end and summary(figures.results_after_end),
        "errors": dict(figures.errors),
        "error_examples": dict(figures.examples),
        "ranking_exact": not problems,
        "ranking_problems": problems[:50],
        "bench_cpu_s": cpu,
        "requests": requests,
        "bench_cpu_s_per_1000": 1000 * cpu / max(1, requests),
        "loop_lag_ms": lag,
        "bench_waited_for_cpu_s": waited,
        "load_average_start": load[0],
        "load_average_end": load[1],
        "table_row": table,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    return lines, data


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
def servers(store: str, count: int, players: int):
    """`count` gunicorn servers as the README runs them (per-client limits on), on one store; their ports."""
    env = {"RUZZLE_PROXY_FIX": "1", "RUZZLE_ROOM_PLAYERS": str(max(SHIPPED_ROOM_PLAYERS, players))}
    with contextlib.ExitStack() as stack:
        if store == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="ruzzle-rooms-"))
            env["RUZZLE_DATABASE_URL"] = f"sqlite:///{folder}/store.sqlite3"
        else:
            env["RUZZLE_DATABASE_URL"] = stack.enter_context(postgres_cluster()).new_database("rooms")
        yield [
            int(stack.enter_context(gunicorn_server(rate_limits=True, **env)).url.rsplit(":", 1)[1])
            for _ in range(count)
        ]


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
    parser.add_argument("--addresses", type=int, default=20, help="client addresses the phones come from")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
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
    with servers(args.store, args.servers, args.players) as ports:
        priority = read_answers_when_they_come()
        load_start = os.getloadavg()[0]
        run = Run(ports, args, solution)
        cpu, wall, waited = cpu_seconds(), time.monotonic(), cpu_wait_seconds()
        problems, joined = asyncio.run(play(run))
        cpu, wall, waited = cpu_seconds() - cpu, time.monotonic() - wall, cpu_wait_seconds() - waited
        load_end = os.getloadavg()[0]
    lines, data = report(run, problems, joined, (cpu, waited), wall, (load_start, load_end))
    lines.insert(-5, f"the bench ran at {priority}")
    data["bench_priority"] = priority
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(data, indent=1) + "\n")
    return 0 if not problems and not run.figures.errors else 1


if __name__ == "__main__":
    sys.exit(main())
