"""Every word counts: the play loop in Debian's Chromium on a slowed network, played at human speed and faster.

The network is slowed through the Chrome DevTools Protocol (`Network.emulateNetworkConditions`): 300 ms on a
laptop, 200 ms on a phone that traces with touch events. After each burst the board page is loaded afresh and
must list every word sent with the exact total score, and no accepted word may have been shown an error.
"""

from __future__ import annotations

import math
import re
import time

import pytest
from playwright.sync_api import Page, expect

from ruzzle import Lexicon, generate
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution

from .browser import PHONE, slow_network, touch_drag, type_word, wait_until_answered
from .conftest import drag, tile_centre

SEED = "QUEUE7"
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
# Records every message the result region shows, so a test can tell whether an accepted word was shown an error.
WATCH_RESULTS = """() => {
    window.resultMessages = [];
    new MutationObserver(() => {
        const message = document.querySelector('#result .result-message');
        if (message) window.resultMessages.push(message.textContent.trim());
    }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def solution(seed: str = SEED) -> Solution:
    """The board's solution, computed here with the same package and dictionary the server uses."""
    return Solution.of(generate("en", seed, 4, 4), Lexicon.builtin("en"), blocked_words("en"))


@pytest.fixture
def open_board(open_page, server):
    """Open the test board in a fresh context (a laptop or a phone) on a network slowed by `latency_ms`."""

    def open_(device: dict, latency_ms: int) -> Page:
        page = open_page(**device)
        page.goto(f"{server}/play/en/{SEED}")
        slow_network(page, latency_ms)
        page.evaluate(WATCH_RESULTS)
        return page

    open_.allow = open_page.allow
    return open_


def touch_tap(page: Page, cell) -> None:
    cdp = page.context.new_cdp_session(page)
    x, y = tile_centre(page, cell)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def assert_round_holds(page: Page, words) -> None:
    """The board page loaded afresh lists exactly these words with their exact total, and none of them was
    shown an error while it was played."""
    shown_errors = page.evaluate("window.resultMessages || []")
    wrongly_refused = [message for message in shown_errors for found in words if found.word in message]
    empty_word_errors = [message for message in shown_errors if "Type a word" in message]
    url = page.url.split("?")[0].split("#")[0]
    page.goto(url)
    listed = page.locator("#found .word-list a").all_inner_texts()
    assert sorted(listed) == sorted(found.word for found in words), f"errors shown: {shown_errors}"
    expect(page.locator("#score .score")).to_have_text(str(sum(found.score for found in words)))
    assert wrongly_refused == [] and empty_word_errors == [], shown_errors


def words_for_burst(count: int, letters: int = 3):
    """Distinct words of the board, best first, at least `letters` long (easy to tell apart in messages)."""
    picked = [found for found in solution() if len(found.word) >= letters]
    assert len(picked) >= count, "the test board has too few words"
    return picked[:count]


def test_a_burst_of_typed_words_on_a_slow_laptop_network_counts_every_word(open_board):
    """Five words typed at 70 ms a key with Enter between them, 300 ms round trips: every one counts."""
    page = open_board(LAPTOP, 300)
    words = words_for_burst(5)
    for found in words:
        type_word(page, found.word)
    # what the player typed is never wiped by an answer: the box is empty only because every word was sent
    expect(page.locator("#word")).to_have_value("")
    wait_until_answered(page)
    assert_round_holds(page, words)


def test_typing_goes_on_while_an_answer_arrives(open_board):
    """Letters typed after Enter, while the answer is on its way, stay in the box when it lands."""
    page = open_board(LAPTOP, 300)
    first, second = words_for_burst(2)
    type_word(page, first.word, key_delay_ms=20)
    page.keyboard.type(second.word.lower()[:2], delay=20)
    expect(page.locator("#sent .sent-found")).to_have_count(1, timeout=10_000)
    expect(page.locator("#word")).to_have_value(second.word.lower()[:2])
    page.keyboard.type(second.word.lower()[2:], delay=20)
    page.keyboard.press("Enter")
    wait_until_answered(page)
    assert_round_holds(page, [first, second])


def test_a_burst_of_drags_on_a_phone_counts_every_word(open_board):
    """Four words traced with a finger, 250 ms apart, on a phone with 200 ms round trips."""
    page = open_board(PHONE, 200)
    words = words_for_burst(4)
    for found in words:
        started = time.monotonic()
        touch_drag(page, found.path, step_ms=0)
        page.wait_for_timeout(max(0, 250 - 1000 * (time.monotonic() - started)))
    wait_until_answered(page)
    assert_round_holds(page, words)


def test_a_word_typed_right_after_a_drag(open_board):
    page = open_board(LAPTOP, 300)
    traced, typed = words_for_burst(2)
    drag(page, traced.path)
    type_word(page, typed.word)
    wait_until_answered(page)
    assert_round_holds(page, [traced, typed])


@pytest.mark.parametrize("gap_ms", [0, 150, 400])
def test_enter_pressed_twice_counts_the_word_once_without_an_error(open_board, gap_ms):
    """A double press, quick or with the first answer already back: the word counts, nothing red is shown."""
    page = open_board(LAPTOP, 300)
    found = words_for_burst(1)[0]
    page.locator("#word").focus()
    page.keyboard.type(found.word.lower(), delay=70)
    page.keyboard.press("Enter")
    page.wait_for_timeout(gap_ms)
    page.keyboard.press("Enter")
    wait_until_answered(page)
    page.wait_for_timeout(400)  # a second request, had one gone out, would have been answered by now
    expect(page.locator("#result")).not_to_have_class("result result-refused")
    assert_round_holds(page, [found])


def stray_neighbour(path):
    """A tile next to the word's first tile that the word does not use (a finger's stray tap)."""
    r, c = path[0]
    for cell in ((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)):
        if 0 <= cell[0] < 4 and 0 <= cell[1] < 4 and cell not in path:
            return cell
    raise AssertionError("no free neighbour")


def test_a_stray_tap_before_a_drag_is_not_part_of_the_word(open_board):
    page = open_board(PHONE, 200)
    found = words_for_burst(1, letters=4)[0]
    touch_tap(page, stray_neighbour(found.path))
    page.wait_for_timeout(150)
    touch_drag(page, found.path)
    wait_until_answered(page)
    assert_round_holds(page, [found])


def test_end_round_right_after_the_last_word_keeps_it(open_board):
    """End round, asked and confirmed 50 ms after the last word was sent, waits for that word's answer."""
    page = open_board(LAPTOP, 300)
    words = words_for_burst(2)
    type_word(page, words[0].word)
    drag(page, words[1].path)
    page.wait_for_timeout(50)
    end = page.locator(".give-up-form button")
    end.click()
    expect(end).to_have_text("Sure? Tap again to end the round")
    end.click()
    expect(page.locator("#summary-title")).to_be_visible(timeout=15_000)
    total = sum(found.score for found in words)
    expect(page.locator(".summary-score strong")).to_have_text(str(total))
    page.goto(page.url)
    expect(page.locator(".summary-found summary")).to_have_text("Your 2 words")


def test_end_round_asks_once_and_is_not_taken_by_one_tap(open_board):
    page = open_board(LAPTOP, 0)
    end = page.locator(".give-up-form button")
    end.click()
    expect(end).to_have_text("Sure? Tap again to end the round")
    expect(end).to_have_text("End round", timeout=6_000)  # not confirmed: it goes back, the round runs on
    expect(page.locator("#word-form")).to_be_visible()


def test_a_dropped_request_is_retried_and_counts(open_board):
    """The server unreachable for one request: the word is sent again by itself and counts."""
    page = open_board(LAPTOP, 100)
    found = words_for_burst(1)[0]
    open_board.allow("net::ERR_CONNECTION_RESET")
    failures = []

    def fail_once(route):
        if not failures:
            failures.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/words", fail_once)
    type_word(page, found.word)
    wait_until_answered(page)
    assert failures, "the request was not dropped"
    expect(page.locator("#sent .sent-found")).to_have_count(1)
    assert_round_holds(page, [found])


def test_a_word_that_cannot_be_sent_waits_in_view_and_goes_by_itself(open_board):
    """Unreachable for every try: the word waits, counted in a bar that stays in view; once the server is
    reachable again it is sent by itself (no tap) and counts, and the bar goes."""
    page = open_board(LAPTOP, 100)
    found = words_for_burst(1)[0]
    open_board.allow("net::ERR_INTERNET_DISCONNECTED")
    page.route("**/words", lambda route: route.abort("internetdisconnected"))
    type_word(page, found.word)
    bar = page.locator("#network")
    expect(bar).to_have_text(re.compile(r"^1 word waiting for the network\s+Send now$"), timeout=10_000)
    expect(page.locator("#sent .sent-waiting")).to_have_text(found.word)
    expect(page.locator("#word")).to_have_value("")
    box = bar.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
    page.unroute("**/words")
    wait_until_answered(page, timeout_ms=10_000)  # the next try, at most 5 s later
    expect(bar).to_be_hidden()
    expect(page.locator("#sent .sent-found")).to_have_count(1)
    assert_round_holds(page, [found])


def test_a_word_the_server_finds_too_fast_waits_as_long_as_it_asks_and_counts(open_board):
    """A 429 with Retry-After (words faster than anyone plays): the bar says to slow down, not that the network is
    gone, and the word goes by itself once the wait is over."""
    page = open_board(LAPTOP, 100)
    found = words_for_burst(1)[0]
    open_board.allow("status of 429")
    refused = []

    def too_fast(route):
        if len(refused) < 2:
            refused.append(time.monotonic())
            route.fulfill(status=429, headers={"Retry-After": "2"}, body="slow down")
        else:
            route.continue_()

    page.route("**/words", too_fast)
    type_word(page, found.word)
    expect(page.locator("#network .network-text")).to_have_text("Slow down: your next words go in a few seconds.")
    wait_until_answered(page, timeout_ms=10_000)
    assert len(refused) == 2 and refused[1] - refused[0] >= 1.9  # it waited as long as the server asked
    expect(page.locator("#network")).to_be_hidden()
    assert_round_holds(page, [found])


def test_send_now_sends_a_waiting_word_at_once(open_board):
    page = open_board(LAPTOP, 100)
    found = words_for_burst(1)[0]
    open_board.allow("net::ERR_INTERNET_DISCONNECTED")
    failed: list[float] = []
    pressed_at = [math.inf]

    def network_back_at_the_press(route):
        """The network is down until the press: a try of the queue's own before it fails (a fixed wait let a retry
        land first on a busy machine, and the bar with its button was gone before the click)."""
        if time.monotonic() >= pressed_at[0]:
            route.continue_()
        else:
            failed.append(time.monotonic())
            route.abort("internetdisconnected")

    page.route("**/words", network_back_at_the_press)
    type_word(page, found.word)
    expect(page.locator("#network")).to_be_visible(timeout=10_000)
    given_up_at = time.monotonic() + 30
    while len(failed) < 3 and time.monotonic() < given_up_at:  # the word and two retries failed: the next is 2 s away
        page.wait_for_timeout(100)
    assert len(failed) >= 3, failed
    pressed_at[0] = pressed = time.monotonic()
    page.get_by_role("button", name="Send now").click()
    wait_until_answered(page, timeout_ms=10_000)
    assert time.monotonic() - pressed < 1.5
    assert_round_holds(page, [found])


def test_a_new_press_clears_the_last_words_path_and_the_banner_says_what_is_traced(open_board):
    page = open_board(LAPTOP, 0)
    first, second = words_for_burst(2, letters=3)
    type_word(page, first.word)
    expect(page.locator("#board td.on-path")).to_have_count(len(first.word))
    x, y = tile_centre(page, second.path[0])
    page.mouse.move(x, y)
    page.mouse.down()
    expect(page.locator("#board td.on-path")).to_have_count(0)
    assert page.locator(".trail-start").count() == 0
    for cell in second.path[1:]:
        page.mouse.move(*tile_centre(page, cell), steps=4)
    expect(page.locator("#trace")).to_have_text(second.word)
    pressed = page.locator('#board .tile-face[aria-pressed="true"]')
    expect(pressed).to_have_count(len(second.path))
    page.mouse.up()
    wait_until_answered(page)
    # tracing a word already found says so before it is sent
    x, y = tile_centre(page, first.path[0])
    page.mouse.move(x, y)
    page.mouse.down()
    for cell in first.path[1:]:
        page.mouse.move(*tile_centre(page, cell), steps=4)
    expect(page.locator("#trace")).to_have_text(f"{first.word} · already found")
    page.mouse.up()


def test_an_answer_does_not_redraw_the_board_under_a_finger(open_board):
    """A word's answer landing mid-drag leaves the trace alone (TAUNTER must not go out as UNTER)."""
    page = open_board(LAPTOP, 300)
    first, second = words_for_burst(2, letters=4)
    type_word(page, first.word, key_delay_ms=5)
    x, y = tile_centre(page, second.path[0])
    page.mouse.move(x, y)
    page.mouse.down()
    started = time.monotonic()
    for cell in second.path[1:]:
        page.mouse.move(*tile_centre(page, cell), steps=4)
    # hold the finger down until the first word's answer has landed (its chip turns green)
    expect(page.locator("#sent .sent-found")).to_have_count(1, timeout=10_000)
    assert time.monotonic() - started > 0.1
    expect(page.locator("#board td.traced")).to_have_count(len(second.path))
    page.mouse.up()
    wait_until_answered(page)
    assert_round_holds(page, [first, second])


# What the page shows now, without a reload: the list of words found in its order, the score and its count, and the
# tiles of the path drawn on the board in the order of their numbers, each with its name.
SHOWN = """() => {
    const steps = [...document.querySelectorAll('#board td.on-path')].map(td => ({
        step: Number(td.querySelector('.tile-step').textContent),
        cell: td.dataset.cell,
        label: td.querySelector('.tile-face').getAttribute('aria-label'),
    })).sort((a, b) => a.step - b.step);
    return {
        listed: [...document.querySelectorAll('#found-words a')].map(a => a.textContent.trim()),
        score: document.querySelector('#score .score').textContent,
        count: document.querySelector('#score .count').textContent,
        path: steps.map(s => s.cell),
        labels: steps.map(s => s.label),
        trail: document.querySelector('.trail-line').getAttribute('points'),
    };
}"""


def test_a_fast_burst_leaves_the_list_the_score_and_the_path_as_the_server_has_them(open_board):
    """Words dragged and typed fast on 150 ms round trips, in no order and one of them twice: each answer brings only
    its regions, and without a reload the list is in the server's order, the score is the server's, and the board
    shows the last word's path, numbered and named as the server draws it."""
    page = open_board(LAPTOP, 150)
    words = words_for_burst(6)
    played = [words[4], words[1], words[5], words[0], words[1], words[3]]
    for number, found in enumerate(played):
        if number % 2:
            type_word(page, found.word, key_delay_ms=10)
        else:
            drag(page, found.path, steps=2)
    wait_until_answered(page)
    last = played[-1]
    expect(page.locator("#board td.on-path")).to_have_count(len(last.path))
    shown = page.evaluate(SHOWN)
    best_first = [found.word for found in words if found in played]
    total = sum(found.score for found in words if found in played)
    assert shown["listed"] == best_first
    assert (shown["score"], shown["count"]) == (str(total), f"{len(best_first)} words")
    assert shown["path"] == [f"{r},{c}" for r, c in last.path]
    assert shown["trail"] == " ".join(f"{c}.5,{r}.5" for r, c in last.path)
    for step, (label, (r, c)) in enumerate(zip(shown["labels"], last.path, strict=True), start=1):
        letter = page.locator(f'#board td[data-cell="{r},{c}"] .tile-letter').inner_text()
        assert label.startswith(letter) and f" {step}, " in label and label.endswith(f", letter {step} of the word")
    page.goto(page.url)
    reloaded = page.evaluate(SHOWN)
    assert (reloaded["listed"], reloaded["score"], reloaded["count"]) == (
        shown["listed"],
        shown["score"],
        shown["count"],
    )
    # a word opened from the list draws its path the same way (its answer is the result alone)
    best = words[0]
    page.locator("#found-words a", has_text=best.word).click()
    expect(page.locator("#result .breakdown-word")).to_have_text(best.word)
    expect(page.locator("#board td.on-path")).to_have_count(len(best.path))
    assert page.evaluate(SHOWN)["path"] == [f"{r},{c}" for r, c in best.path]
