"""The htmx client of bench/rooms.py: one browser tab on one server (its cookies, kept-alive connections and address)
that follows a room's pages as htmx and the board page's scripts do: each polling element's interval and ETag read
from the latest full answer, a 200 swapping its region and the polls inside it, a 304 changing nothing, failures
backing off as never_stuck.js does; and the run's shared state and figures (latencies and 304s by category, errors
by kind). The pupils and the host who use it are in bench/room_players.py."""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import time
from collections import Counter, defaultdict

from bench.client import ACCEPT_ENCODING, Answer, Browser, Timeout, request_bytes
from ruzzle.game import Solution

POLL_TIMEOUT = 10.0  # htmx's timeout (templates/_htmx_config.html)
ASK_TIMEOUT = 8.0  # net.js's TIMEOUT: a word, the page asked for at 0:00
NAVIGATION_TIMEOUT = 60.0  # a form sent or a page opened by the browser itself (it waits minutes; a person less)
REFRESH_DELAYS = (1, 2, 3, 4)  # never_stuck.js: a refresh that failed is tried again after these seconds
RETRY_DELAYS = (0.5, 1, 2, 3, 5)  # word_queue.js: a word that failed
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
