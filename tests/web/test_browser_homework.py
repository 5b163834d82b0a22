"""Homework in Debian's Chromium (issue 25): a teacher sets it from the start page (a deadline in their own time zone),
three phones play it on a slowed network over two simulated days, one is refused after the deadline, and the
teacher's page lists exactly the words the phones sent. Screenshots at 390x844 and 1280x800 go to
$RUZZLE_HOMEWORK_SHOTS (else <screenshots>/homework) for a person to look at; axe-core looks at each page too.

The app runs in this process (a threaded werkzeug server) on a clock that follows this machine's but that the test
moves by a day: the pages' clocks follow the server's time, so a phone sees the day the server lives in.
"""

from __future__ import annotations

import datetime
import os
import re
import threading
import time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect
from werkzeug.serving import make_server

from views.homework import homework_board

from .browser import serious_violations, slow_network, type_word, wait_until_answered
from .conftest import SCREENSHOTS

SHOTS = Path(os.environ.get("RUZZLE_HOMEWORK_SHOTS") or SCREENSHOTS / "homework")
LAPTOP = {"viewport": {"width": 1280, "height": 800}, "timezone_id": "Europe/Rome"}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "timezone_id": "Europe/Rome"}
ROME = ZoneInfo("Europe/Rome")
SECONDS = 60


class RunningClock:
    """This machine's clock, moved by whole days when the test says so."""

    def __init__(self):
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@pytest.fixture
def clock() -> RunningClock:
    return RunningClock()


@pytest.fixture
def site(app):
    """The test's app served over HTTP in a thread of this process."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


def shot(page: Page, name: str) -> None:
    """A screenshot for a person to look at, and axe-core's look at the page (nothing serious or critical)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    assert serious_violations(page) == [], name


def board_words(app, code: str, number: int, skip: int, count: int = 3) -> list:
    """A few of board `number`'s words (3 letters or more), different for each phone by `skip`."""
    with app.test_request_context():
        assignment = app.extensions["ruzzle.store"].assignments.get(code)
        words = [found for found in homework_board(assignment, number).solution() if len(found.word) >= 3]
    return words[skip : skip + count]


def play_board(page: Page, clock: RunningClock, code: str, number: int, words) -> None:
    """Open a board from the homework's page, Start, type the words, let the round's time run out, see its end."""
    page.goto(page.url.split("/a/")[0] + f"/a/{code}")
    page.locator(f'a[href="/a/{code}/boards/{number}"]').click()
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#board.board-play")).to_be_visible()
    for found in words:
        type_word(page, found.word)
    wait_until_answered(page)
    clock.advance(SECONDS + 5)  # the round's time runs out (its own clock: the deadline does not cut it)
    page.reload()
    expect(page.locator(".summary-title")).to_have_text("Round over")


def test_a_class_does_its_homework_over_two_days(app, clock, site, open_page):
    open_page.allow("403")  # the board refused after the deadline is a 403 page, which the console reports
    teacher = open_page(**LAPTOP)
    teacher.goto(site + "/")
    teacher.locator("summary", has_text="Set as homework").click()
    tomorrow = datetime.datetime.fromtimestamp(clock(), ROME).date() + datetime.timedelta(days=1)
    teacher.locator("#count").fill("2")
    teacher.locator("#time").select_option(str(SECONDS))
    teacher.locator("#due-local").fill(f"{tomorrow.isoformat()}T18:00")
    due = datetime.datetime.combine(tomorrow, datetime.time(18, 0), ROME)
    offset = due.strftime("%z")
    expect(teacher.locator("#due-offset")).to_have_value(f"{offset[:3]}:{offset[3:]}")  # the browser's offset then
    shot(teacher, "start-1280x800")
    teacher.locator("button", has_text="Set as homework").last.click()
    expect(teacher.locator("[data-teacher-url]")).to_be_visible()
    private = teacher.locator("[data-teacher-url]").get_attribute("data-teacher-url")
    code = re.search(r"/a/([A-Z0-9]{6})/teacher", private).group(1)
    assert private.startswith(site) and "key=" in private
    shot(teacher, "teacher-empty-1280x800")

    phones = {}
    for name in ("Zoë", "Ana", "Luca"):
        phone = open_page(**PHONE)
        phone.goto(f"{site}/a/{code}")
        slow_network(phone, 200)
        phones[name] = phone
    sent: dict[tuple[str, int], list] = {}

    # day 1: Zoë and Ana play board 1
    for skip, name in enumerate(("Zoë", "Ana")):
        phone = phones[name]
        phone.locator("#nickname").fill(name)
        phone.locator("#nickname").press("Enter")
        expect(phone.locator(".homework-boards")).to_be_visible()
        sent[name, 1] = board_words(app, code, 1, 3 * skip)
        play_board(phone, clock, code, 1, sent[name, 1])
    shot(phones["Zoë"], "pupil-board-over-390x844")
    phones["Zoë"].goto(f"{site}/a/{code}")
    shot(phones["Zoë"], "pupil-boards-day1-390x844")

    # day 2, before the deadline: Luca plays both boards, Zoë board 2
    clock.advance(due.timestamp() - 2 * 3600 - clock())  # tomorrow, two hours before the deadline
    assert 0 < due.timestamp() - clock() <= 2 * 3600 + 1
    luca = phones["Luca"]
    luca.goto(f"{site}/a/{code}")
    luca.locator("#nickname").fill("Luca")
    luca.locator("#nickname").press("Enter")
    for number in (1, 2):
        sent["Luca", number] = board_words(app, code, number, 6)
        play_board(luca, clock, code, number, sent["Luca", number])
    sent["Zoë", 2] = board_words(app, code, 2, 0)
    play_board(phones["Zoë"], clock, code, 2, sent["Zoë", 2])
    luca.goto(f"{site}/a/{code}/boards/2")
    shot(luca, "pupil-summary-390x844")

    # after the deadline: Ana's board 2 is closed, with a sentence
    clock.advance(due.timestamp() - clock() + 60)
    ana = phones["Ana"]
    ana.goto(f"{site}/a/{code}")
    expect(ana.locator(".homework-board-closed")).to_contain_text("closed: the deadline has passed")
    shot(ana, "pupil-closed-390x844")
    ana.goto(f"{site}/a/{code}/boards/2")
    expect(ana.locator(".notice-refused")).to_contain_text("new boards cannot be started any more")

    # the teacher's page: every word each phone sent, nothing else
    teacher.goto(private)
    results = teacher.request.get(private, headers={"Accept": "application/json"}).json()
    by_name = {pupil["nickname"]: pupil for pupil in results["pupils"]}
    for (name, number), words in sent.items():
        board = by_name[name]["boards"][number - 1]
        assert sorted(board["words"]) == sorted(found.word for found in words)
        assert board["score"] == sum(found.score for found in words)
    assert by_name["Ana"]["boards"][1] == {"board": 2, "played": False}
    expect(teacher.locator(".homework-results tbody tr")).to_have_count(3)
    shot(teacher, "teacher-results-1280x800")
    on_phone = open_page(**PHONE)  # the private link opened on the teacher's phone
    on_phone.goto(private)
    expect(on_phone.locator(".homework-results tbody tr")).to_have_count(3)
    assert on_phone.evaluate("document.documentElement.scrollWidth") <= 390  # the table scrolls, not the page
    shot(on_phone, "teacher-results-390x844")


def test_the_class_page_over_three_weeks(app, clock, site, open_page):
    """A class of three plays three weeks of homework (through the Flask client: the browser test above plays it);
    its page, with each pupil's chart and the class's, on a laptop and on a phone."""
    from .helpers import (
        class_data,
        found,
        homework_words_of,
        join_with_code,
        make_class,
        send_homework_word,
        set_class_homework,
    )

    client = app.test_client()
    code, link = make_class(client)
    codes = {pupil["nickname"]: pupil["code"] for pupil in class_data(client, link)["pupils"]}
    for week in range(3):
        homework = set_class_homework(client, code, link, clock, f"WEEK{week % 2}")
        words = homework_words_of(app, homework, 1)
        for index, name in enumerate(codes):
            device = join_with_code(app, homework, name, codes[name])
            device.post(f"/a/{homework}/boards/1/start")
            for found_word in words[index + week : index + 2 * week + 3]:
                assert found(send_homework_word(device, homework, 1, found_word.word))
        clock.advance(7 * 86400)
    laptop = open_page(**LAPTOP)
    laptop.goto(site + link)
    expect(laptop.locator("svg.chart")).to_have_count(len(codes) + 1)
    shot(laptop, "class-1280x800")
    phone = open_page(**PHONE)
    phone.goto(site + link)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "class-390x844")
