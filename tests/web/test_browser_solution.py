"""The solution explorer, the projector and the typing form in Debian's Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ruzzle import Board, Lexicon, generate
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution
from views.translations import LANGUAGE_COOKIE

from .conftest import SCREENSHOTS, highlighted_path

SEED = "TEACH5"


def solution(seed: str = SEED) -> Solution:
    return Solution.of(generate("en", seed), Lexicon.builtin("en"), blocked_words("en"))


def test_click_a_word_and_see_its_path(page, server):
    words = solution()
    page.goto(f"{server}/play/en/{SEED}/solution")
    word = words[4]
    page.locator(f"#w-{word.word}").click()
    expect(page.locator("#solution_word .breakdown-total")).to_have_text(f"{word.score} points")
    assert highlighted_path(page) == list(word.path)
    assert page.url.endswith(f"/solution?word={word.word}")


def test_on_a_phone_a_word_far_down_the_list_brings_the_board_into_view(open_page, server):
    words = solution()
    page = open_page(viewport={"width": 360, "height": 740})
    page.goto(f"{server}/play/en/{SEED}/solution")
    word = words[len(words) - 1]
    page.locator(f"#w-{word.word}").click()
    expect(page.locator("#solution_word .breakdown-total")).to_have_text(f"{word.score} points")
    board = page.locator("#solution_board").bounding_box()
    assert -1 <= board["y"] < 740, f"board at {board['y']:.0f} px, outside the 740 px screen"
    expect(page.locator(".word-table tr[aria-current]")).to_have_count(1)
    expect(page.locator(".word-table tr[aria-current] a")).to_have_text(word.word)


def test_click_a_tile_to_list_the_words_through_it(page, server):
    words = solution()
    page.goto(f"{server}/play/en/{SEED}/solution")
    page.locator('#board td[data-cell="2,1"] button').click()
    through = [f for f in words if (2, 1) in f.path]
    expect(page.locator(".list-count")).to_contain_text(f"{len(through)} of {len(words)} words")
    assert page.locator(".word-table tbody tr").count() == len(through)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_projector_steps_with_clicker_keys(open_page, server, theme):
    words = sorted(solution(), key=lambda f: (-f.score, f.word))
    page = open_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{server}/play/en/{SEED}/projector" + ("?theme=dark" if theme == "dark" else ""))
    expect(page.locator(".walk-count")).to_have_text(f"{len(words)} words on this board")
    for key, step in (("ArrowRight", 1), ("PageDown", 2), (" ", 3), ("PageUp", 2), ("ArrowLeft", 1), ("Space", 2)):
        page.keyboard.press(key)
        expect(page.locator(".walk-word")).to_contain_text(words[step - 1].word)
        expect(page.locator(".walk-count")).to_have_text(f"Word {step} of {len(words)}")
    assert highlighted_path(page) == list(words[1].path)
    # a clicker pressed three times quickly steps three times: presses during a load wait their turn
    for _ in range(3):
        page.keyboard.press("PageDown")
    expect(page.locator(".walk-count")).to_have_text(f"Word 5 of {len(words)}")
    expect(page.locator(".walk-word")).to_contain_text(words[4].word)
    assert highlighted_path(page) == list(words[4].path)
    page.keyboard.press("PageUp")
    page.keyboard.press("PageUp")
    page.keyboard.press("PageUp")
    expect(page.locator(".walk-count")).to_have_text(f"Word 2 of {len(words)}")
    # the smallest letter on the board is at least 8% of the screen's height: the glyph as drawn, measured
    # with the tile's own font (a letter's ink is smaller than its font size)
    heights = page.locator("#board .tile-letter").evaluate_all("""spans => spans.map(span => {
        const context = document.createElement("canvas").getContext("2d");
        context.font = getComputedStyle(span).font;
        const ink = context.measureText(span.textContent);
        return ink.actualBoundingBoxAscent + ink.actualBoundingBoxDescent;
    })""")
    assert min(heights) >= 0.08 * 1080, f"smallest letter {min(heights):.0f} px of 1080"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"projector-1920x1080-{theme}.png")


def test_projector_keys_work_after_back_is_pressed_while_a_step_loads(page, server):
    words = sorted(solution(), key=lambda f: (-f.score, f.word))
    held = []
    # the answer to step 2 never comes (the route is in place before the page loads: routing set up right before the
    # press let the request through twice on a busy CI machine)
    page.route("**/projector?step=2", lambda route: held.append(route))
    page.goto(f"{server}/play/en/{SEED}/projector")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".walk-count")).to_have_text(f"Word 1 of {len(words)}")
    page.keyboard.press("ArrowRight")
    for _ in range(50):  # the step's request leaves within 200 ms on a quiet machine; a busy CI may take longer
        if held:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(200)  # and no second request follows
    assert len(held) == 1 and page.url.endswith("step=1")
    page.go_back()
    page.unroute("**/projector?step=2")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".walk-count")).to_have_text(f"Word 1 of {len(words)}", timeout=2000)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".walk-word")).to_contain_text(words[1].word, timeout=2000)


def test_projector_timer_counts_down_when_started(page, server):
    page.goto(f"{server}/play/en/{SEED}/projector?time=60")
    expect(page.locator("#projector-timer")).to_have_text("1:00")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#projector-timer")).to_have_text("0:58", timeout=4000)


def test_projector_clicker_keeps_working_after_start_is_clicked_and_the_timer_survives_a_theme_change(page, server):
    """Start clicked with the mouse, then a clicker: PageDown x3 steps three words and the timer runs on; Space
    steps, it does not pause; T pauses; switching the theme keeps the time left."""
    page.goto(f"{server}/play/en/{SEED}?time=60")
    page.request.post(f"{server}/play/en/{SEED}/round?time=60", form={"action": "give-up"})
    page.goto(f"{server}/play/en/{SEED}/projector?time=60")
    page.get_by_role("button", name="Start").click()
    for _ in range(3):
        page.keyboard.press("PageDown")
    expect(page.locator(".walk-count")).to_contain_text("Word 3 of")
    page.keyboard.press(" ")
    expect(page.locator(".walk-count")).to_contain_text("Word 4 of")
    expect(page.locator("#projector-timer")).to_have_text("0:58", timeout=4000)  # still running
    page.keyboard.press("t")
    expect(page.get_by_role("button", name="Start")).to_be_visible()
    paused = page.locator("#projector-timer").inner_text()
    page.evaluate("window.samePage = true")
    page.get_by_role("link", name="Dark theme").click()
    expect(page.locator("html")).to_have_class(re.compile("theme-dark"))
    expect(page.locator("#projector-timer")).to_have_text(paused)
    assert page.evaluate("window.samePage === true"), "the theme changed without reloading the page"
    assert "theme=dark" in page.url
    page.get_by_role("link", name="Hide scores").click()
    expect(page.locator(".walk-score")).to_have_count(0)
    assert page.evaluate("window.samePage === true") and "theme-dark" in page.locator("html").get_attribute("class")
    page.keyboard.press("T")
    expect(page.get_by_role("button", name="Pause")).to_be_visible()


def test_type_a_board_from_the_app(page, server):
    board = Board.parse("Ttl R S Ndl\nOdw Htw E I\nCdw I N V\nEtl A D E", "en")
    page.goto(f"{server}/solve")
    page.locator('input[name="l0_0"]').focus()
    page.keyboard.type(board.letters.lower())  # each letter moves on to the next tile
    for (r, c), tile in zip(board.cells(), board.tiles, strict=True):
        if tile.multiplier:
            cell = page.locator(f'td[data-cell="{r},{c}"]')
            for _ in range(["dl", "tl", "dw", "tw"].index(tile.multiplier.code) + 1):
                cell.click(position={"x": 4, "y": 4})  # beside the letter: cycles the multiplier
    page.get_by_role("button", name="Solve").click()
    expect(page).to_have_url(f"{server}/solve/en/{board.to_code()}")
    expect(page.locator("#stat-words")).to_have_text(
        str(len(Solution.of(board, Lexicon.builtin("en"), blocked_words("en"))))
    )


def test_solution_page_on_a_phone(open_page, server):
    page = open_page(viewport={"width": 360, "height": 780})
    page.goto(f"{server}/play/en/{SEED}/solution")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "solution-360.png")


def test_a_long_list_shows_more_words_and_they_open_too(page, server):
    from views.solution import WORDS_PER_PAGE

    words = sorted(
        Solution.of(generate("es", "BENCH2", rows=12, cols=12), Lexicon.builtin("es"), blocked_words("es")),
        key=lambda f: (-f.score, f.word),
    )
    page.context.add_cookies([{"name": LANGUAGE_COOKIE, "value": "en", "url": server}])  # English, on a Spanish board
    page.goto(f"{server}/play/es/BENCH2/solution?size=12x12")
    rows = page.locator(".word-table tbody tr:not(.page-link)")
    expect(rows).to_have_count(WORDS_PER_PAGE)
    page.get_by_role("link", name=f"Show {WORDS_PER_PAGE} more words").click()
    expect(rows).to_have_count(2 * WORDS_PER_PAGE)
    url = page.url
    word = words[WORDS_PER_PAGE + 3]  # on the page just added
    page.locator(f"#w-{word.word}").click()
    expect(page.locator("#solution_word .breakdown-total")).to_have_text(f"{word.score} points")
    assert highlighted_path(page) == list(word.path)
    expect(page.locator(".word-table tr[aria-current] a")).to_have_text(word.word)
    assert url.endswith("/solution?size=12x12") and page.url.endswith(f"&word={word.word}")
