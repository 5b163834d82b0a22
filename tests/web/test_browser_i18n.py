"""The interface's language in a real browser: the browser's language, the switcher, a shared board's language, and
the board, the summary and the projector in the language with the longest texts, on a phone and a laptop, whole."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import SCREENSHOTS, solution_of
from .helpers import START_BUTTON, TRANSLATED, entries, translate

SEED = "LONGER"
SCREENS = {"phone": (390, 844), "laptop": (1280, 800)}


def longest_language() -> str:
    """The language whose catalogue, all told, is the longest: its texts are the ones most likely to overflow."""

    def length(language: str) -> int:
        return sum(
            len(form)
            for message in entries(language)
            for form in (message.string if isinstance(message.string, tuple) else (message.string,))
        )

    return max(TRANSLATED, key=length)


LONGEST = longest_language()

# Every visible element of a region: its box, and whether its own text is cut (an overflow that hides or scrolls).
BOXES = """(selector) => [...document.querySelectorAll(selector)]
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
                 && !e.closest('.visually-hidden, .table-scroll')
                 && !['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName))
    .map(e => { const b = e.getBoundingClientRect();
                return {what: (e.className && e.className.baseVal === undefined ? e.className : e.tagName)
                              + ': ' + (e.textContent || '').trim().slice(0, 40),
                        left: b.left, right: b.right,
                        cut: e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'}; })"""


def assert_whole(page: Page, regions: str, width: int) -> None:
    """No horizontal scrolling, and nothing in the regions sticks out of the screen or has its text cut."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    boxes = page.evaluate(BOXES, regions)
    assert boxes, f"nothing found in {regions}"
    outside = [box for box in boxes if box["left"] < -0.5 or box["right"] > width + 0.5]
    cut = [box for box in boxes if box["cut"]]
    assert outside == [] and cut == [], f"at {width} px: outside {outside[:3]}, cut {cut[:3]}"


def test_a_german_browser_gets_the_start_page_in_german(open_page, server):
    page = open_page(locale="de-DE")
    page.goto(server + "/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("h1")).to_have_text(translate("de", "Find words on a board of letters"))
    expect(page.locator(".start-form .button-primary")).to_have_text(translate("de", "Play"))


def test_choosing_french_sticks_across_pages(open_page, server):
    page = open_page(locale="de-DE")
    page.goto(server + f"/play/en/{SEED}?size=5x5")
    page.locator(".site-header .language-switcher summary").click()
    page.get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.url == server + f"/play/en/{SEED}?size=5x5"  # back on the same page
    expect(page.locator("label[for=word]")).to_have_text(translate("fr", "Type a word, or trace it on the board"))
    for path in ("/", "/me", f"/play/it/{SEED}", f"/play/de/{SEED}/projector"):
        page.goto(server + path)
        expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#walk .walk-count")).to_contain_text("mots sur cette grille")


def test_an_italian_board_link_opened_fresh_is_italian(open_page, server):
    page = open_page(locale="en-GB")
    page.goto(server + f"/play/it/{SEED}")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator("#found h2")).to_have_text("Parole trovate")
    expect(page.locator(".give-up-form button")).to_have_text("Termina il round")


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_start_page_on_a_phone_names_the_board_code_and_the_room_code_apart(open_page, server, language):
    """At 390 px the board code field and the room code field each say what they are, with different examples, and
    the page is whole (the screenshots, <screenshots>/start-<language>.png, are for a person to read)."""
    page = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale=language)
    page.goto(server + "/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    board_code, room_code = page.get_by_label(translate(language, "Board code")), page.locator("#room-code")
    expect(board_code).to_have_attribute("name", "seed")
    expect(page.locator("label[for=room-code]")).to_have_text(translate(language, "Joining a room? Type the room code"))
    assert board_code.get_attribute("placeholder") != room_code.get_attribute("placeholder")
    assert_whole(page, ".site-header *, .start *", 390)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"start-{language}.png", full_page=True)
    # a pupil types the room's code into the board code field: the page offers the room
    opened = page.request.post(f"{server}/rooms", form={"language": language, "time": "60"}, max_redirects=0)
    code = opened.headers["location"].split("/")[2]
    board_code.fill(code.lower())
    page.locator(".start-form .button-primary").click()
    offer = page.get_by_role("link", name=translate(language, "Join room %(code)s") % {"code": code})
    expect(offer).to_be_visible()
    assert_whole(page, ".site-header *, .start *", 390)
    page.screenshot(path=SCREENSHOTS / f"start-offer-{language}.png", full_page=True)
    offer.click()
    expect(page.locator("#nickname")).to_be_visible()


@pytest.mark.parametrize("language", sorted({LONGEST, "de"}))  # the longest, and German's long compound words
@pytest.mark.parametrize("screen", SCREENS)
def test_board_summary_and_projector_in_the_longest_language_are_whole(open_page, server, app, screen, language):
    width, height = SCREENS[screen]
    touch = {"has_touch": True, "is_mobile": True} if screen == "phone" else {}
    page = open_page(viewport={"width": width, "height": height}, **touch)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{server}/play/{language}/{SEED}?challenge=1234")
    expect(page.locator("html")).to_have_attribute("lang", language)
    for found in solution_of(app, language, SEED)[:2]:
        page.fill("#word", found.word)
        page.press("#word", "Enter")
        expect(page.locator("#found .word-list li")).not_to_have_count(0)
    page.fill("#word", "QQQQQQQQ")
    page.press("#word", "Enter")
    expect(page.locator(".sent-refused")).to_have_count(1)
    assert_whole(page, ".site-header *, .game-panel *", width)
    page.screenshot(path=SCREENSHOTS / f"i18n-{language}-board-{width}x{height}.png", full_page=True)

    end = page.locator(".give-up-form button")
    end.click()
    expect(end).to_have_text(translate(language, "Sure? Tap again to end the round"))
    end.click()
    expect(page.locator("#summary-title")).to_have_text(translate(language, "Round over"))
    assert_whole(page, ".site-header *, .game-panel *", width)
    page.screenshot(path=SCREENSHOTS / f"i18n-{language}-summary-{width}x{height}.png", full_page=True)

    page.goto(f"{server}/play/{language}/{SEED}/projector?step=1")
    expect(page.locator("#walk-next")).to_contain_text(translate(language, "Next"))
    expect(page.locator("#timer-start")).to_have_text(translate(language, "Start", START_BUTTON))
    assert_whole(page, ".projector-side *", width)
    if screen == "laptop":  # the projector's panel also stays on the screen from top to bottom
        assert page.evaluate("document.documentElement.scrollHeight") <= height
    page.screenshot(path=SCREENSHOTS / f"i18n-{language}-projector-{width}x{height}.png", full_page=True)


@pytest.mark.parametrize("language", sorted({LONGEST, "de"}))
def test_a_room_in_the_longest_language_is_whole_on_the_projector_and_the_phone(open_page, server, language):
    """The host's lobby, round and podium at 1280x800, a phone's waiting page and results at 390x844."""
    host = open_page(viewport={"width": 1280, "height": 800})
    answer = host.request.post(
        f"{server}/rooms", form={"language": language, "time": "6", "seed": SEED}, max_redirects=0
    )
    host.goto(server + answer.headers["location"])
    expect(host.locator("html")).to_have_attribute("lang", language)
    code = host.locator(".room-code").inner_text().strip()
    phone = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.goto(f"{server}/rooms/{code}")
    expect(phone.locator("html")).to_have_attribute("lang", language)
    phone.get_by_role("button", name=translate(language, "Give me any name")).click()
    expect(phone.locator(".room-wait-title")).to_have_text(translate(language, "Waiting for the host to start"))
    expect(host.locator(".room-players-host .nickname")).to_have_count(1, timeout=5000)
    assert_whole(host, ".projector-side *", 1280)
    assert_whole(phone, ".site-header *, #game *", 390)
    host.screenshot(path=SCREENSHOTS / f"i18n-{language}-room-lobby-1280x800.png", full_page=True)
    host.keyboard.press("Enter")
    expect(phone.locator("#board.board-play")).to_be_visible(timeout=10000)
    assert_whole(host, ".projector-side *", 1280)
    expect(phone.locator("#summary-title")).to_have_text(translate(language, "Round over"), timeout=15000)
    assert_whole(phone, ".site-header *, .game-panel *", 390)
    phone.screenshot(path=SCREENSHOTS / f"i18n-{language}-room-results-390x844.png", full_page=True)
    expect(host.locator(".podium")).to_be_visible(timeout=10000)
    assert_whole(host, ".projector-side *, .room-podium-side *", 1280)
    host.screenshot(path=SCREENSHOTS / f"i18n-{language}-room-podium-1280x800.png", full_page=True)
