"""The board page in Debian's Chromium, driven by Playwright against gunicorn started as the README does.

What only a browser shows: tracing with the pointer, the keyboard, the clock running out, sharing, and
that the strict CSP holds (any CSP violation in the console fails the test that caused it).
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from playwright.sync_api import expect

from ruzzle import Lexicon, generate
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution

from .conftest import SCREENSHOTS, drag, highlighted_path, tile_centre

SEED = "TRACE7"


def solution(seed: str = SEED, rows: int = 4, cols: int = 4) -> Solution:
    """The board's solution, computed here with the same package and dictionary the server uses."""
    return Solution.of(generate("en", seed, rows, cols), Lexicon.builtin("en"), blocked_words("en"))


def long_word(found_words, letters: int = 4):
    """The best word of at least this many letters that turns a diagonal somewhere (the hard move to hit)."""
    for found in found_words:
        steps = list(pairwise(found.path))
        if len(found.word) >= letters and any(a[0] != b[0] and a[1] != b[1] for a, b in steps):
            return found
    raise AssertionError("no long diagonal word on the test board")


def test_drag_a_word_lights_its_path_in_order_with_its_score(page, server):
    word = long_word(solution())
    page.goto(f"{server}/play/en/{SEED}")
    drag(page, word.path)
    expect(page.locator("#result .breakdown-total")).to_have_text(f"{word.score} points")
    assert highlighted_path(page) == list(word.path)
    expect(page.locator("#score .score")).to_have_text(str(word.score))
    expect(page.locator("#found")).to_contain_text(word.word)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "board-1280.png", full_page=True)


def test_trace_with_a_finger(open_page, server):
    """Touch events (as a phone sends them) trace a word too: the page must not scroll instead."""
    word = long_word(solution(), letters=3)
    page = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page.goto(f"{server}/play/en/{SEED}")
    cdp = page.context.new_cdp_session(page)
    x, y = tile_centre(page, word.path[0])
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for a, b in pairwise(word.path):
        (x0, y0), (x1, y1) = tile_centre(page, a), tile_centre(page, b)
        for step in range(1, 7):
            point = {"x": x0 + (x1 - x0) * step / 6, "y": y0 + (y1 - y0) * step / 6}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator("#result .breakdown-total")).to_have_text(f"{word.score} points")
    assert highlighted_path(page) == list(word.path)
    assert page.evaluate("window.scrollY") == 0


def test_tap_tiles_then_press_the_button(page, server):
    word = solution()[1]
    page.goto(f"{server}/play/en/{SEED}")
    for cell in word.path:
        x, y = tile_centre(page, cell)
        page.mouse.click(x, y)
    expect(page.locator("#trace")).to_have_text(word.word)
    page.get_by_role("button", name="Submit").click()
    expect(page.locator("#result .breakdown-total")).to_have_text(f"{word.score} points")


def test_type_a_word(page, server):
    word = solution()[2]
    page.goto(f"{server}/play/en/{SEED}")
    page.locator("#word").fill(word.word.lower())
    page.locator("#word").press("Enter")
    expect(page.locator("#result .breakdown-total")).to_have_text(f"{word.score} points")
    assert highlighted_path(page) == list(word.path)
    expect(page.locator("#word")).to_have_value("")


def test_a_refusal_says_why(page, server):
    page.goto(f"{server}/play/en/{SEED}")
    page.locator("#word").fill("zzxq")
    page.locator("#word").press("Enter")
    expect(page.locator("#result")).to_contain_text("ZZXQ is not in the dictionary")


def test_keyboard_only_play(page, server):
    """Tab to the board, arrows to move, Space to take a tile, Enter to send; then the same for a second word."""
    found = solution()
    page.goto(f"{server}/play/en/{SEED}")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('#board') !== null"):
            break
    at = (0, 0)
    score = 0
    for word in (found[0], found[3]):
        for cell in word.path:
            while at != cell:
                key = (
                    "ArrowDown"
                    if cell[0] > at[0]
                    else "ArrowUp"
                    if cell[0] < at[0]
                    else "ArrowRight"
                    if cell[1] > at[1]
                    else "ArrowLeft"
                )
                page.keyboard.press(key)
                at = (
                    at[0] + (key == "ArrowDown") - (key == "ArrowUp"),
                    at[1] + (key == "ArrowRight") - (key == "ArrowLeft"),
                )
            page.keyboard.press(" ")
        page.keyboard.press("Enter")
        score += word.score
        expect(page.locator("#score .score")).to_have_text(str(score))
        assert highlighted_path(page) == list(word.path)
        # focus stays on the board after it is swapped, so play goes on from the keyboard
        assert page.evaluate("document.activeElement.closest('#board') !== null")


def test_round_runs_out_and_the_summary_shows(page, server):
    found = solution()
    page.goto(f"{server}/play/en/{SEED}?time=5")
    page.locator("#word").fill(found[0].word)
    page.locator("#word").press("Enter")
    expect(page.locator("#score .score")).to_have_text(str(found[0].score))
    expect(page.locator(".summary")).to_be_visible(timeout=10_000)
    expect(page.locator(".summary-score strong")).to_have_text(str(found[0].score))
    expect(page.locator(".summary")).to_contain_text(f"1 of {len(found)} words found")
    missed = found[1]
    page.locator(".missed a", has_text=missed.word).first.click()
    expect(page.locator("#result .breakdown-total")).to_have_text(f"{missed.score} points")
    assert highlighted_path(page) == list(missed.path)


def test_share_url_opens_the_same_board_in_another_browser(page, open_page, server):
    page.goto(f"{server}/play/en/{SEED}?size=5x5")
    url = page.locator("#share-url").input_value()
    assert url == f"{server}/play/en/{SEED}?size=5x5"
    friend = open_page()
    friend.goto(url)
    mine = page.locator("#board").inner_html()
    theirs = friend.locator("#board").inner_html()
    assert mine == theirs


def test_copy_button_puts_the_board_link_on_the_clipboard(open_page, server):
    """Without the Web Share API (desktop Chromium) the button copies the link instead."""
    page = open_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{server}/play/en/{SEED}")
    has_share = page.evaluate("'share' in navigator")
    button = page.locator("#share button[data-share]").first
    expect(button).to_have_text("Share" if has_share else "Copy link")
    if not has_share:
        button.click()
        expect(button).to_have_text("Link copied")
        assert page.evaluate("navigator.clipboard.readText()") == f"{server}/play/en/{SEED}"


@pytest.mark.parametrize("width, height", [(360, 780), (1280, 900)])
def test_board_page_screenshots(open_page, server, width, height):
    """Saved for a person to look at (<screenshots>/); the board must fit the width without scrolling."""
    page = open_page(viewport={"width": width, "height": height})
    word = solution()[0]
    page.goto(f"{server}/play/en/{SEED}")
    page.locator("#word").fill(word.word)
    page.locator("#word").press("Enter")
    expect(page.locator("#result .breakdown-total")).to_have_text(f"{word.score} points")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"play-{width}.png", full_page=True)


@pytest.mark.parametrize("size", ["4x4", "6x6", "8x8", "12x12"])
def test_a_big_board_on_a_phone_keeps_its_letters_and_labels_readable(open_page, server, size):
    """Small tiles (a face of 40 px or less) keep the letter and the multiplier label and drop the letter value
    and the step numbers (a screen reader still hears them); bigger tiles show all four. On every tile the
    labels in the top corners end above the letter's ink (their box may touch it by 1.5 px); labels are 7 px
    or more."""
    page = open_page(viewport={"width": 360, "height": 780})
    rows, cols = map(int, size.split("x"))
    word = max(solution(rows=rows, cols=cols), key=lambda found: len(found.path))
    page.goto(f"{server}/play/en/{SEED}?size={size}")
    page.locator("#word").fill(word.word)
    page.locator("#word").press("Enter")
    expect(page.locator("#result .breakdown-total")).to_have_text(f"{word.score} points")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    tiles = page.locator("#board td").evaluate_all("""cells => cells.map(cell => {
        const box = element => element && getComputedStyle(element).display !== "none"
            ? element.getBoundingClientRect() : null;
        const range = document.createRange();
        range.selectNodeContents(cell.querySelector(".tile-letter"));
        const letter = range.getBoundingClientRect();
        const context = document.createElement("canvas").getContext("2d");
        context.font = getComputedStyle(cell.querySelector(".tile-letter")).font;
        const ink = context.measureText(cell.querySelector(".tile-letter").textContent);
        const baseline = letter.top + (letter.height + ink.fontBoundingBoxAscent - ink.fontBoundingBoxDescent) / 2;
        return {face: cell.querySelector(".tile-face").clientWidth, inkTop: baseline - ink.actualBoundingBoxAscent,
                labels: [".tile-mult", ".tile-value"].map(s => box(cell.querySelector(s)))
                        .filter(Boolean).map(b => ({bottom: b.bottom})),
                sizes: [".tile-mult", ".tile-step"].map(s => cell.querySelector(s)).filter(e => e && box(e))
                        .map(e => parseFloat(getComputedStyle(e).fontSize)),
                value: Boolean(box(cell.querySelector(".tile-value")))};
    })""")
    small = tiles[0]["face"] <= 40
    assert all(tile["value"] != small for tile in tiles)
    assert min(size for tile in tiles for size in tile["sizes"]) >= 7
    overlaps = [
        round(label["bottom"] - tile["inkTop"], 1)
        for tile in tiles
        for label in tile["labels"]
        if label["bottom"] > tile["inkTop"] + 1.5
    ]
    assert not overlaps, f"labels over the letter by {overlaps} px (face {tiles[0]['face']} px)"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").screenshot(path=SCREENSHOTS / f"board-{size}-360.png")
