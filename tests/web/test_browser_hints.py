"""Hints on a phone (390x844) and a room opened with the teacher's words, in Debian's Chromium (issue 24): the Hints
panel opens in place on the board page and a reveal's cost is shown before it is taken; a room opened from the start
page's form with target words and hints on has every word on its board, the pupils' hints, and the walk-through
starts with a target word nobody found. Screenshots go to <screenshots>/hints-*.png."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .browser import serious_violations
from .conftest import SCREENSHOTS

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
PROJECTOR = {"viewport": {"width": 1280, "height": 800}}
TARGETS = ["river", "water", "cloud", "rain", "storm", "wind", "snow", "ice"]


def shoot(page: Page, name: str) -> None:
    """A screenshot for a person to look at, and axe-core's check: nothing serious."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"hints-{name}.png"), full_page=True)
    assert serious_violations(page) == [], name


def test_hints_open_on_a_phone_and_a_reveal_shows_its_cost_first(open_page, server):
    phone = open_page(**PHONE)
    phone.goto(f"{server}/play/en/HINTS2?time=0&gen=2")
    phone.get_by_role("link", name="Hints").click()
    grid = phone.locator("#hints .hints-grid")
    expect(grid).to_be_visible()
    assert phone.url.endswith("time=0&gen=2")  # opened in place: still the board page
    offer = phone.locator(".hints-reveal-form button")
    expect(offer).to_contain_text("costs")
    cost = int(offer.inner_text().split("costs ")[1].split()[0])
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # the grid fits the phone (or scrolls inside its own box)
    shoot(phone, "1-grid-phone")
    offer.click()
    expect(phone.locator(".hints-taken li")).to_have_count(1)
    expect(phone.locator(".hints-penalty")).to_contain_text(f"hints −{cost}")
    phone.locator(".hints-taken").scroll_into_view_if_needed()
    shoot(phone, "2-reveal-phone")


def test_a_room_opened_with_the_teachers_words(open_page, server):
    host = open_page(**PROJECTOR)
    host.goto(server + "/")
    host.select_option("#language", "en")
    host.select_option("#size", "5x5")
    host.locator(".room-lesson summary").click()
    host.fill("#words", ", ".join(TARGETS))
    host.check("#hints")
    host.get_by_role("button", name="Play with a class / with friends").click()
    code = host.locator(".room-code").inner_text().strip()

    phone = open_page(**PHONE)
    phone.goto(f"{server}/rooms/{code}")
    phone.fill("#nickname", "Ada")
    phone.press("#nickname", "Enter")
    expect(phone.locator(".room-wait-title")).to_be_visible()
    host.locator("button", has_text="Start").first.click()
    expect(phone.locator("#board.board-play")).to_be_visible(timeout=10000)
    letters = phone.locator("#board").inner_text()
    assert letters  # the board is there; its words are checked below, from the server's own answer
    phone.get_by_role("link", name="Hints").click()
    expect(phone.locator("#hints .hints-grid")).to_be_visible()
    expect(phone.locator(".hints-note")).to_be_visible()  # a room's round is timed: no reveal
    shoot(phone, "3-room-phone")
    phone.locator("#word").press_sequentially("WATER", delay=30)
    phone.press("#word", "Enter")
    expect(phone.locator("#found .word-list li")).to_have_count(1, timeout=5000)

    assert host.request.post(f"{server}/rooms/{code}/end", max_redirects=0).status == 303
    host.goto(f"{server}/rooms/{code}/host")
    expect(host.locator(".room-targets li")).to_have_count(len(TARGETS), timeout=10000)
    shoot(host, "4-class-view-projector")
    host.goto(f"{server}/rooms/{code}/projector?step=1")
    expect(host.locator(".walk-target")).to_be_visible()
    first = host.locator(".walk-word span").first.inner_text()
    assert first in {word.upper() for word in TARGETS} - {"WATER"}
    expect(host.locator(".walk-finders")).to_have_text("Nobody found it")
    shoot(host, "5-walk-projector")
