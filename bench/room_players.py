"""The people of bench/rooms.py's class loop, on the htmx client of bench/room_client.py: a pupil's phone (joins,
waits, plays a word every 2-4 s, reads its results) and the host's projector (opens the room, starts it, polls its
stage and ranking); `play`, the whole loop for one room; `final_ranking`, the exactness check at the end."""

from __future__ import annotations

import asyncio
import html
import json
import random
import time
import urllib.parse

from bench.client import Answer
from bench.room_client import (
    ASK_TIMEOUT,
    ASSETS,
    BOARD,
    CLOCK,
    JOIN,
    LOBBY,
    NAVIGATION_TIMEOUT,
    OTHER,
    PAGE,
    POLL_TIMEOUT,
    RANKING,
    RESULTS,
    RESULTS_POLL,
    RETRY_DELAYS,
    STAGE,
    STATIC,
    TIMER_TAG,
    WORD,
    WORDS_URL,
    Poll,
    Run,
    Tab,
    attributes,
)
from ruzzle.nicknames import refused_part

SEED = "ROOMLD"  # the room's board (bench/rooms.py solves it to know the words the phones send)
WORD_GAP = (2.0, 4.0)
REPEATS, NOT_WORDS_SHARE, TRACED = 0.10, 0.10, 0.5
NOT_WORDS = ("ZZXQ", "QQQ", "XKCD", "BRRZ", "JJJJ", "QWRT", "ZZZZT", "XXYYZ")


def phone_name(number: int) -> str:
    """ "Player 0042": the phone's nickname, or for a number the class's rules refuse in a name (a code such as 1488)
    the same with a letter for each digit ("Player BEIH")."""
    name = f"Player {number:04d}"
    return name if refused_part(name) is None else "Player " + "".join(chr(ord("A") + int(d)) for d in f"{number:04d}")


class Phone(Tab):
    """A pupil's phone: joins, waits, plays words, reads its results."""

    def __init__(self, run: Run, number: int, port: int, address: str):
        super().__init__(run, port, address, phone_name(number))
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
