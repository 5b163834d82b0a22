"""A pupil between rounds, in Debian's Chromium on a 390x844 phone on a 250 ms network: one who opened "See all words"
or a word's meaning is back on the board of the next round without touching anything; a name the teacher changes
shows at the phone's next poll; the teacher's own words are on the pupil's page, ticked as they are found; the start
page's room box is on a phone's first screen. The phone's pages pass axe-core. Screenshots go to
<screenshots>/pupil-*.png."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from .browser import (
    PHONE,
    PROJECTOR,
    join_on_phone,
    serious_violations,
    slow_network,
    type_word,
)
from .conftest import SCREENSHOTS
from .helpers import a_listed_word_with_a_meaning

NETWORK_MS = 250
BACK_WITHIN = 8.0  # seconds from the host's Start to the next round's board on a phone that was reading elsewhere
RENAMED_WITHIN = 6.0  # seconds from the rename to the phone's header (a poll every 2 s, two trips at 250 ms)


def open_room(open_page, server: str, **form) -> tuple[Page, str]:
    """The host opens a room (a minute a round) and shows it on a 1024x768 projector."""
    host = open_page(**PROJECTOR)
    answer = host.request.post(
        f"{server}/rooms", form={"language": "en", "size": "4x4", "time": "60", **form}, max_redirects=0
    )
    assert answer.status == 303, answer.text()
    host.goto(server + answer.headers["location"])
    return host, host.locator(".room-code").inner_text().strip()


def host_does(host: Page, server: str, code: str, action: str) -> float:
    """The host presses Start, End now or Another round (the forms' POSTs); the moment (epoch s)."""
    pressed = time.time()
    answer = host.request.post(f"{server}/rooms/{code}/{action}", max_redirects=0)
    assert answer.status == 303, answer.text()
    return pressed


def pupil(open_page, server: str, code: str, name: str) -> Page:
    phone = join_on_phone(open_page, server, code, name)
    slow_network(phone, NETWORK_MS)
    return phone


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"pupil-{name}.png"))
    assert serious_violations(page) == [], name


def play_a_round(host: Page, phone: Page, server: str, code: str) -> None:
    host_does(host, server, code, "start")
    expect(phone.locator("#board.board-play")).to_be_visible(timeout=15_000)
    host_does(host, server, code, "end")
    expect(phone.locator(".room-results")).to_be_visible(timeout=15_000)


def back_on_the_board(host: Page, phone: Page, server: str, code: str, timings: dict, name: str) -> None:
    """The host starts another round; the phone, left alone, shows its board within BACK_WITHIN s."""
    host_does(host, server, code, "rounds")
    started = host_does(host, server, code, "start")
    expect(phone.locator("#board.board-play")).to_be_visible(timeout=BACK_WITHIN * 1000)
    seconds = time.time() - started
    timings.setdefault(name, []).append(round(seconds, 2))
    assert phone.url.endswith(f"/rooms/{code}/play") and seconds <= BACK_WITHIN


def test_a_pupil_reading_the_words_or_a_meaning_is_back_on_the_next_rounds_board(open_page, server, timings):
    host, code = open_room(open_page, server)
    phone = pupil(open_page, server, code, "Ada")
    play_a_round(host, phone, server, code)
    phone.get_by_role("link", name="See all words").click()
    expect(phone.locator(".word-table")).to_be_visible()
    shoot(phone, "words-round-1")
    back_on_the_board(host, phone, server, code, timings, "back from the word list")
    expect(phone.locator(".header-board")).to_contain_text("Ada")
    shoot(phone, "board-round-2")

    host_does(host, server, code, "end")
    expect(phone.locator(".room-results")).to_be_visible(timeout=15_000)
    word = a_listed_word_with_a_meaning(phone, server)
    phone.goto(f"{server}/define/en/{word}")
    expect(phone.locator(".meaning")).to_be_visible()
    shoot(phone, "meaning")
    back_on_the_board(host, phone, server, code, timings, "back from a meaning")


def test_a_renamed_pupil_sees_the_new_name_at_the_next_poll(open_page, server, timings):
    host, code = open_room(open_page, server)
    phone = pupil(open_page, server, code, "Adda")
    host_does(host, server, code, "start")
    expect(phone.locator("#board.board-play")).to_be_visible(timeout=15_000)
    rename_url = re.search(r"/rooms/\w+/players/\d+/name", host.request.get(f"{server}/rooms/{code}/host").text())
    renamed = time.time()
    answer = host.request.post(server + rename_url.group(0), form={"nickname": "Ada"}, max_redirects=0)
    assert answer.status == 303, answer.text()
    expect(phone.locator("#member-name")).to_have_text("Ada", timeout=RENAMED_WITHIN * 1000)
    timings.setdefault("rename on the phone", []).append(round(time.time() - renamed, 2))
    shoot(phone, "renamed")


def test_the_teachers_words_are_the_pupils_words_to_find(open_page, server):
    host, code = open_room(open_page, server, size="5x5", words="river water rain")
    phone = pupil(open_page, server, code, "Ada")
    to_find = phone.locator(".targets-to-find")
    expect(to_find).to_contain_text("Words to find: RAIN, RIVER, WATER")
    shoot(phone, "words-to-find-waiting")
    host_does(host, server, code, "start")
    expect(phone.locator("#board.board-play")).to_be_visible(timeout=15_000)
    expect(to_find.locator(".target-found")).to_have_count(0)
    type_word(phone, "RIVER")
    expect(to_find.locator(".target-found")).to_have_text(["RIVER ✓"])
    to_find.scroll_into_view_if_needed()
    shoot(phone, "words-to-find-ticked")


def test_the_start_pages_room_box_is_on_a_phones_first_screen(open_page, server, timings):
    phone = open_page(**PHONE)
    phone.goto(server + "/")
    box = phone.locator("#room-code").bounding_box()
    join = phone.get_by_role("button", name="Join", exact=True).bounding_box()
    timings.setdefault("room box bottom (px, of 844)", []).append(
        round(max(box["y"] + box["height"], join["y"] + join["height"]))
    )
    assert box["y"] + box["height"] <= PHONE["viewport"]["height"]
    assert join["y"] + join["height"] <= PHONE["viewport"]["height"]
    shoot(phone, "start")
