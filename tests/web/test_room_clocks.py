"""Two app servers on one PostgreSQL, the second one's own clock 5 s ahead (libfaketime): over a whole room round
with a pause, time added and time taken away, both agree on the phase and the deadline at every sampled moment and
take exactly the same words, since both ask the database's clock (views/rounds.py `now`), never their own.

The test process, PostgreSQL and the first server share this machine's clock; only the second server's is moved.
"""

from __future__ import annotations

import email.utils
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from app import create_app
from tools.servers import gunicorn_server

from .helpers import clock_ahead, words_of

SKEW = 5  # seconds the second server's own clock is ahead
ROUND_SECONDS = 10
SAMPLE_EVERY = 0.25
SLACK = 0.05  # seconds: how far apart two reads of one clock may be and still count as the same moment
KEY = "the key both servers of this test share"
JSON = {"Accept": "application/json"}
HTMX = {"HX-Request": "true"}


@pytest.fixture
def shared_postgres(postgres) -> str:
    """A fresh database on the session's PostgreSQL: the one clock both servers must read."""
    return postgres.new_database()


# --- a browser, and two requests at the same moment ---------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """An HTTP answer, with when it was asked and answered on this machine's clock."""

    status: int
    headers: dict
    body: str
    sent: float
    answered: float

    @property
    def server_time(self) -> float:
        """The time the server used for this request (X-Ruzzle-Time)."""
        return float(self.headers["X-Ruzzle-Time"])

    @property
    def took(self) -> float:
        return self.answered - self.sent


class Browser:
    """One session cookie, sent to one server."""

    def __init__(self, server: str):
        self.server = server
        self.cookie: str | None = None

    def on(self, server: str) -> Browser:
        """The same browser (its cookie) asking another server (both sign cookies with one key)."""
        other = Browser(server)
        other.cookie = self.cookie
        return other

    def request(self, path: str, form: dict | None = None, headers: dict | None = None) -> Answer:
        headers = dict(headers or {})
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        opener = urllib.request.build_opener(NoRedirect)
        sent = time.time()
        try:
            response = opener.open(urllib.request.Request(self.server + path, data, headers), timeout=20)
        except urllib.error.HTTPError as error:
            response = error
        with response:
            body = response.read().decode("utf-8")
            answered = time.time()
            if response.headers.get("Set-Cookie"):
                self.cookie = response.headers["Set-Cookie"].split(";")[0]
            return Answer(response.status, dict(response.headers), body, sent, answered)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Together:
    """Two threads that send two requests at the same moment (a barrier lets both go at once)."""

    def __enter__(self) -> Together:
        self.pool = ThreadPoolExecutor(2)
        return self

    def __exit__(self, *exc) -> None:
        self.pool.shutdown()

    def __call__(self, first, second) -> tuple[Answer, Answer]:
        barrier = threading.Barrier(2)

        def go(call):
            barrier.wait(timeout=20)
            return call()

        one, other = self.pool.submit(go, first), self.pool.submit(go, second)
        return one.result(timeout=30), other.result(timeout=30)


def wait_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))


# --- what the leaderboard says, and the changes that may honestly split two answers ------------------------------


@dataclass(frozen=True)
class Reading:
    """A server's leaderboard JSON at one moment: the phase, the deadline (ms), and when it was read."""

    phase: str
    ends_at: int | None  # milliseconds: both servers read one deadline from one store
    server_time: float
    sent: float
    answered: float

    @classmethod
    def of(cls, answer: Answer) -> Reading:
        assert answer.status == 200, answer.body[:300]
        state = json.loads(answer.body)
        ends_at = None if state["ends_at"] is None else round(state["ends_at"] * 1000)
        return cls(state["phase"], ends_at, answer.server_time, answer.sent, answer.answered)

    @property
    def took(self) -> float:
        return self.answered - self.sent

    @property
    def state(self) -> tuple[str, int | None]:
        return self.phase, self.ends_at


@dataclass(frozen=True)
class Change:
    """A moment the room's state changed: a time the round reached (`earliest` == `latest`), or a host's action,
    which took effect somewhere between its request's arrival and its answer."""

    earliest: float
    latest: float
    before: tuple[str, int | None]
    after: tuple[str, int | None]


def straddles(one: Reading, other: Reading, changes: list[Change]) -> bool:
    """Whether two answers to requests sent at the same moment may differ: they were read at the same moment (their
    server times no further apart than the requests took) and a known change falls between them, the answer that
    says the state before being read no later than the change and the other no earlier."""
    if abs(one.server_time - other.server_time) > max(one.took, other.took) + SLACK:
        return False
    for before, after in ((one, other), (other, one)):
        for change in changes:
            if (
                (before.state, after.state) == (change.before, change.after)
                and before.server_time - before.took <= change.latest
                and after.server_time >= change.earliest
            ):
                return True
    return False


class Sampler(threading.Thread):
    """Reads both servers' leaderboard JSON at the same moments, every SAMPLE_EVERY seconds, until stopped (as the
    room's host: the ranking is for the room's players and hosts)."""

    def __init__(self, host: Browser, first: str, second: str, code: str):
        super().__init__(daemon=True)
        self.browsers = (host.on(first), host.on(second))
        self.path = f"/rooms/{code}/leaderboard"
        self.samples: list[tuple[Reading, Reading]] = []
        self.stopping = threading.Event()
        self.error: BaseException | None = None

    def run(self):
        next_at = time.time()
        try:
            with Together() as together:
                while not self.stopping.is_set():
                    one, other = together(*(lambda b=b: b.request(self.path, headers=JSON) for b in self.browsers))
                    self.samples.append((Reading.of(one), Reading.of(other)))
                    next_at = max(next_at + SAMPLE_EVERY, time.time())
                    self.stopping.wait(next_at - time.time())
        except BaseException as error:  # handed to the test's thread, which fails with it
            self.error = error

    def stop(self) -> list[tuple[Reading, Reading]]:
        self.stopping.set()
        self.join(timeout=30)
        if self.error is not None:
            raise self.error
        return self.samples


# --- words ------------------------------------------------------------------------------------------------------


def outcome(answer: Answer) -> str:
    """What a server made of a word: taken, or why not."""
    if answer.status == 200 and "result-found" in answer.body:
        return "taken"
    if "Time is up" in answer.body:
        return "time is up"
    if answer.status == 409 and "The teacher paused the round." in answer.body:
        return "paused"
    if answer.status == 409 and "The round starts in" in answer.body:
        return "not started"
    return f"unexpected {answer.status}: {answer.body[:200]}"


def credited_words(player: Browser, code: str) -> set[str]:
    """The words a player's results page (after the round) lists as theirs."""
    page = player.request(f"/rooms/{code}/play").body
    mine = re.search(r'<details class="summary-found">.*?</details>', page, re.S)
    return set(re.findall(r'hx-swap="outerHTML">([A-Z]+)</a>', mine.group())) if mine else set()


def assert_second_clock_ahead(one: Answer, other: Answer) -> None:
    """The second server's own clock is SKEW seconds ahead of the first's: their HTTP `Date` headers, which gunicorn
    makes from the server's own clock (whole seconds), for two requests sent at the same moment."""
    own = [email.utils.parsedate_to_datetime(answer.headers["Date"]).timestamp() for answer in (one, other)]
    assert SKEW - 1 <= own[1] - own[0] <= SKEW + 1, f"Date headers {one.headers['Date']} / {other.headers['Date']}"


def open_room(host: Browser) -> str:
    """The host opens a room of ROUND_SECONDS; its code."""
    answer = host.request("/rooms", {"language": "en", "size": "4x4", "time": str(ROUND_SECONDS), "seed": "CLOCKS"})
    assert answer.status == 303, answer.body[:300]
    return re.fullmatch(r"/rooms/([A-Z0-9]{6})/host", answer.headers["Location"]).group(1)


def join(player: Browser, code: str, nickname: str) -> None:
    answer = player.request(f"/rooms/{code}/players", {"nickname": nickname})
    assert answer.status == 303 and answer.headers["Location"] == f"/rooms/{code}/play", answer.body[:300]


@pytest.mark.server
def test_two_servers_one_with_its_clock_5_s_ahead_agree_on_every_phase_and_take_the_same_words(shared_postgres):
    """A whole round (3-2-1, a 3 s pause, +5 s, -3 s, the end and its grace) hosted on server A, Ada playing on A and
    Bruno on B (5 s ahead), both servers' leaderboards read at the same moments every 0.25 s, and the same word sent
    by both players at the same moments: in the 3-2-1 (where B's own clock would say the round runs), in play, in the
    pause, just after the resume, just before the deadline and in the grace (where B's own clock would say the grace
    is over), and after the grace."""
    store = {"RUZZLE_DATABASE_URL": shared_postgres, "RUZZLE_ROOM_RANKING_SECONDS": "0"}
    with (
        gunicorn_server(KEY, workers=2, **store) as on_time,
        gunicorn_server(KEY, workers=2, **store, **clock_ahead(SKEW)) as ahead,
        Together() as together,
    ):
        skewed_workers = ahead.worker_pids()
        host, ada, bruno = Browser(on_time.url), Browser(on_time.url), Browser(ahead.url)
        code = open_room(host)
        join(ada, code, "Ada")
        join(bruno, code, "Bruno")
        leaderboard = f"/rooms/{code}/leaderboard"
        assert_second_clock_ahead(
            *together(
                lambda: host.request(leaderboard, headers=JSON),
                lambda: host.on(ahead.url).request(leaderboard, headers=JSON),
            )
        )
        app = create_app({"SECRET_KEY": KEY, "DATABASE_URL": shared_postgres})  # the room's words, the servers' grace
        try:
            points = {found.word: found.score for found in words_of(app, code)}
            grace = app.config["ROUND_GRACE_SECONDS"]
        finally:
            app.extensions["ruzzle.store"].dispose()
        words = iter(points)
        sent: list[tuple[str, str, Answer, Answer]] = []  # the word, what both should make of it, A's and B's answers
        changes: list[Change] = []

        def send_both(expected: str) -> None:
            """The next word, sent by Ada to A and by Bruno to B at the same moment."""
            word = next(words)
            answers = together(
                lambda: ada.request(f"/rooms/{code}/words", {"word": word}, HTMX),
                lambda: bruno.request(f"/rooms/{code}/words", {"word": word}, HTMX),
            )
            sent.append((word, expected, *answers))

        def host_does(action: str, form: dict | None = None) -> dict:
            """A host's action on A, noted as a change between the states read on A just before and after; the
            leaderboard after."""
            before = Reading.of(host.request(leaderboard, headers=JSON))
            answer = host.request(f"/rooms/{code}/{action}", form or {})
            assert answer.status == 303, answer.body[:300]
            after = host.request(leaderboard, headers=JSON)
            changes.append(
                Change(answer.server_time - answer.took, answer.server_time, before.state, Reading.of(after).state)
            )
            return json.loads(after.body)

        def round_reaches(moment: float, before: str, after: str, ends_at: float) -> None:
            """A change that time makes: the 3-2-1 ends, the deadline passes."""
            changes.append(Change(moment, moment, (before, round(ends_at * 1000)), (after, round(ends_at * 1000))))

        sampler = Sampler(host, on_time.url, ahead.url, code)
        sampler.start()
        try:
            time.sleep(0.5)  # a few samples of the waiting room
            started = host_does("start")
            starts_at = started["starts_at"]
            round_reaches(starts_at, "countdown", "playing", started["ends_at"])
            wait_until(starts_at - 1.0)
            send_both("not started")
            wait_until(starts_at + 1.0)
            send_both("taken")
            wait_until(starts_at + 2.5)
            host_does("pause")
            paused = time.time()
            wait_until(paused + 1.5)
            send_both("paused")
            wait_until(paused + 3.0)
            host_does("resume")
            time.sleep(0.3)
            send_both("taken")
            time.sleep(0.9)
            host_does("time", {"seconds": "5"})
            time.sleep(1.0)
            deadline = host_does("time", {"seconds": "-3"})["ends_at"]
            round_reaches(deadline, "playing", "over", deadline)
            wait_until(deadline - 1.0)
            send_both("taken")
            wait_until(deadline + grace - 1.0)
            send_both("taken")
            wait_until(deadline + grace + 1.0)
            send_both("time is up")
            wait_until(deadline + grace + 3.0)
            send_both("time is up")
            wait_until(deadline + grace + 3.5)
        finally:
            samples = sampler.stop()
        finals = [json.loads(host.on(url).request(leaderboard, headers=JSON).body) for url in (on_time.url, ahead.url)]
        credited = credited_words(ada, code), credited_words(bruno, code)
        assert ahead.worker_pids() == skewed_workers  # libfaketime did not upset gunicorn's own timeouts

    split = [(one, other) for one, other in samples if one.state != other.state]
    unexplained = [(one, other) for one, other in split if not straddles(one, other, changes)]
    taken = [word for word, expected, *_ in sent if expected == "taken"]
    print(
        f"\n{len(samples)} samples: {sum(one.phase == other.phase for one, other in samples)} agreed on the phase, "
        f"{len(samples) - len(split)} on phase and deadline, {len(split) - len(unexplained)} straddled a change; "
        f"words taken: Ada via A {len(credited[0])}, Bruno via B {len(credited[1])}, of {len(sent)} each sent"
    )

    assert not unexplained, f"{len(unexplained)} of {len(samples)} samples disagree, e.g. {unexplained[:3]}"
    assert {"waiting", "countdown", "playing", "paused", "over"} <= {one.phase for one, _ in samples}
    assert len(samples) >= 60
    assert [(word, outcome(one), outcome(other)) for word, _, one, other in sent] == [
        (word, expected, expected) for word, expected, *_ in sent
    ]
    assert credited[0] == credited[1] == set(taken)
    totals = [
        {player["nickname"]: (player["score"], player["words"]) for player in final["players"]} for final in finals
    ]
    each = (sum(points[word] for word in taken), len(taken))
    assert totals[0] == totals[1] == {"Ada": each, "Bruno": each}
    # every answer tells the one clock this machine, PostgreSQL and server A share, never B's own
    answers = [reading for sample in samples for reading in sample] + [a for *_, a, _ in sent] + [b for *_, b in sent]
    for answer in answers:
        assert answer.sent - SLACK <= answer.server_time <= answer.answered + SLACK


# --- the rule for a sample whose two answers differ -----------------------------------------------------------

STARTS = 1_790_000_000.0
COUNTING_DOWN, PLAYING = ("countdown", 1_790_000_015_000), ("playing", 1_790_000_015_000)


@pytest.mark.parametrize(
    "first, second, may_differ",
    [
        (
            (COUNTING_DOWN, STARTS - 0.002),
            (PLAYING, STARTS + 0.001),
            True,
        ),  # read at the same moment, either side of it
        ((PLAYING, STARTS + 0.001), (COUNTING_DOWN, STARTS - 0.002), True),  # (in either order)
        ((COUNTING_DOWN, STARTS - 0.002), (PLAYING, STARTS + 5.001), False),  # 5 s apart: not the same moment
        ((COUNTING_DOWN, STARTS + 0.020), (PLAYING, STARTS + 0.021), False),  # still counting down after the start
        ((COUNTING_DOWN, STARTS - 0.5), (PLAYING, STARTS - 0.499), False),  # playing before the start
        ((PLAYING, STARTS - 0.002), (COUNTING_DOWN, STARTS + 0.001), False),  # the change the other way round
    ],
)
def test_two_answers_may_differ_only_read_at_the_same_moment_across_a_known_change(first, second, may_differ):
    """The excuse for a sample whose two answers differ is honest: both read at once, the change between them."""
    change = Change(STARTS, STARTS, COUNTING_DOWN, PLAYING)
    answers = [Reading(*state, moment, moment - 0.005, moment + 0.001) for state, moment in (first, second)]
    assert straddles(*answers, [change]) is may_differ
