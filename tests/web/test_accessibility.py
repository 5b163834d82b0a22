"""Accessibility as axe-core sees it, the focus ring, the end of a round for a screen reader, and short screens.

axe-core (vendored from npm, tests/web/vendor/) runs inside Debian's Chromium on every page type at a phone's
and a laptop's width: it must report no serious or critical violation.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ruzzle import Lexicon, generate
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution

from .browser import contrast, serious_violations
from .conftest import SCREENSHOTS

SEED = "ACCESS"
WIDTHS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


def solution(seed: str = SEED) -> Solution:
    return Solution.of(generate("en", seed, 4, 4), Lexicon.builtin("en"), blocked_words("en"))


def end_round(page: Page, server: str, board: str = f"/play/en/{SEED}") -> None:
    """Give up the round on a board, as the End round button does (the solution and projector open then)."""
    page.request.post(f"{server}{board}/round", form={"action": "give-up"})


def play_a_word(page: Page) -> None:
    found = solution()[0]
    page.locator("#word").fill(found.word)
    page.locator("#word").press("Enter")
    expect(page.locator("#result .breakdown-total")).to_have_text(f"{found.score} points")


PAGE_TYPES = {
    # name: (path, what to do first)
    "board": (f"/play/en/{SEED}", play_a_word),
    "big board": (f"/play/en/{SEED}?size=12x12", None),
    "summary": (f"/play/en/{SEED}", "end"),
    "solution": (f"/play/en/{SEED}/solution?word=", "end"),
    "projector": (f"/play/en/{SEED}/projector?step=2", "end"),
    "typed board": ("/solve/en/TtlRSNdl-OdwHtwEI-CdwINV-EtlADE", None),
    "solve": ("/solve", None),
    "start": ("/", None),
    "error": ("/play/xx/ABCDEF", None),
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page_type", PAGE_TYPES)
def test_axe_finds_nothing_serious(open_page, server, page_type, width):
    page = open_page(viewport=WIDTHS[width])
    path, before = PAGE_TYPES[page_type]
    if page_type == "error":
        open_page.allow("status of 404")  # the page itself is the 404 under test
    if before == "end":
        page.goto(f"{server}/play/en/{SEED}")
        end_round(page, server)
    page.goto(f"{server}{path}")
    if callable(before):
        before(page)
    assert serious_violations(page) == []
    assert page.locator("h1").count() == 1, "one h1 per page"


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_nothing_serious_on_a_rooms_words_and_the_way_back_to_the_room(open_page, server, width):
    """A room's page of all words (the round over), and the banner back to the room on another page."""
    page = open_page(viewport=WIDTHS[width])
    opened = page.request.post(f"{server}/rooms", form={"language": "en", "time": "5", "seed": SEED}, max_redirects=0)
    code = opened.headers["location"].split("/")[2]
    assert page.request.post(f"{server}/rooms/{code}/players", form={"nickname": "Ada"}, max_redirects=0).status == 303
    page.request.post(f"{server}/rooms/{code}/start", max_redirects=0)
    page.wait_for_timeout(4500)  # the 3-2-1 before the round
    assert page.request.post(f"{server}/rooms/{code}/end", max_redirects=0).status == 303
    for path in (f"/rooms/{code}/words", "/"):
        page.goto(f"{server}{path}")
        assert serious_violations(page) == [], path
        assert page.locator("h1").count() == 1, path
    expect(page.locator(".room-banner-link")).to_have_text(f"Back to room {code}")


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_nothing_serious_on_the_offer_to_join_a_room_typed_as_a_board_code(open_page, server, width):
    page = open_page(viewport=WIDTHS[width])
    opened = page.request.post(f"{server}/rooms", form={"language": "en", "time": "60"}, max_redirects=0)
    code = opened.headers["location"].split("/")[2]
    page.goto(f"{server}/new?language=en&seed={code}")
    expect(page.get_by_role("link", name=f"Join room {code}")).to_be_visible()
    assert serious_violations(page) == []
    assert page.locator("h1").count() == 1


FOCUS_RING = """() => {
    const face = document.activeElement;
    const style = getComputedStyle(face);
    return {outline: style.outlineColor, width: parseFloat(style.outlineWidth), style: style.outlineStyle,
            tile: getComputedStyle(face.closest('td'), '::before').backgroundColor,  // the tile's fill
            page: getComputedStyle(document.body).backgroundColor,
            traced: face.closest('td').classList.contains('traced')};
}"""


def test_the_focus_ring_stands_out_on_a_plain_and_on_a_traced_tile(page, server):
    page.goto(f"{server}/play/en/{SEED}")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('tile-face')"):
            break
    plain = page.evaluate(FOCUS_RING)
    page.keyboard.press(" ")  # the focused tile joins the trace
    traced = page.evaluate(FOCUS_RING)
    assert not plain["traced"] and traced["traced"]
    assert plain["tile"] != traced["tile"], "a traced tile looks different"
    for ring in (plain, traced):
        assert ring["style"] == "solid" and ring["width"] >= 3
        assert contrast(ring["outline"], ring["tile"]) >= 3, ring
        assert contrast(ring["outline"], ring["page"]) >= 3, ring


def test_labels_on_coloured_tiles_are_readable(page, server):
    """DL, TL, DW and TW labels: white on their colour at 4.5:1 or better, as small text needs."""
    page.goto(f"{server}/solve/en/Adl-Btl-Cdw-Dtw")
    labels = page.locator("#board .tile-mult").evaluate_all(
        "labels => labels.map(l => [getComputedStyle(l).color, getComputedStyle(l).backgroundColor])"
    )
    assert len(labels) == 4
    for colour, background in labels:
        assert contrast(colour, background) >= 4.5, (colour, background)


def test_the_end_of_a_round_is_announced_and_focus_moves_to_the_summary(page, server):
    page.goto(f"{server}/play/en/{SEED}?time=5")
    heading = page.locator("#summary-title")
    expect(heading).to_be_visible(timeout=12_000)
    expect(heading).to_be_focused()
    expect(heading).to_have_text("Round over")  # what a screen reader says as the focus lands on it


SCREENS = {"phone": (390, 844), "phone-sideways": (844, 390), "laptop-200pct": (640, 400), "laptop": (1280, 800)}


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= size["height"] + 0.5
        and box["x"] + box["width"] <= size["width"] + 0.5
    )


@pytest.mark.parametrize("screen", SCREENS)
def test_board_and_feedback_are_in_view_together(open_page, server, screen):
    """The board, the clock, the score and the word's result, all in view without scrolling; screenshots during
    and after a round are saved for a person to look at (<screenshots>/)."""
    width, height = SCREENS[screen]
    touch = {"has_touch": True, "is_mobile": True} if screen.startswith("phone") else {}
    page = open_page(viewport={"width": width, "height": height}, **touch)
    page.goto(f"{server}/play/en/{SEED}")
    play_a_word(page)
    assert page.evaluate("window.scrollY") == 0
    for region in ("#board", "#timer", "#score", "#result caption"):
        assert in_view(page, region), f"{region} is not in view at {width}x{height}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"round-{screen}-{width}x{height}.png")
    end = page.locator(".give-up-form button")
    end.click()
    end.click()
    expect(page.locator("#summary-title")).to_be_visible()
    page.screenshot(path=SCREENSHOTS / f"summary-{screen}-{width}x{height}.png")
