"""A live room in Debian's Chromium: three phones (390x844, touch) in /live/en on a slowed network (CDP, 150-200 ms)
across two rounds of short slots. Each joins, plays words (traced with a finger or typed), sees the results with its
rank and percentile, and is on round 2's board without a tap. A laptop (1280x800) watches; screenshots of both go to
<screenshots>/live-*.png, and axe-core checks the join page and the results."""

from __future__ import annotations

import secrets
import time

import pytest
from playwright.sync_api import Page, expect

from ruzzle import Lexicon, generate
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution
from ruzzle.generator import LATEST_VERSION
from ruzzle.live import Schedule, live_seed
from tools.servers import gunicorn

from .browser import serious_violations, slow_network, touch_drag, type_word, wait_until_answered
from .conftest import SCREENSHOTS

PLAY, RESULTS = 24, 12
PLAN = Schedule(PLAY, RESULTS)
KEY = "test key shared by the servers"  # tools/servers.py's: the live boards' seeds derive from it
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def live_server():
    with gunicorn(KEY, workers=2, RUZZLE_LIVE_PLAY_SECONDS=str(PLAY), RUZZLE_LIVE_RESULTS_SECONDS=str(RESULTS)) as url:
        yield url


def board_of(slot: int) -> Solution:
    """The board the server plays in a slot, worked out here from the same rule and key."""
    board = generate("en", live_seed(KEY.encode(), "en", slot), 4, 4, version=LATEST_VERSION)
    return Solution.of(board, Lexicon.builtin("en"), blocked_words("en"))


def wait_for_a_slot_to_start() -> int:
    """Sleep until a slot has just begun (the server's clock is this machine's); its number."""
    moment = time.time()
    if moment - PLAN.starts(PLAN.slot_at(moment)) > 1:
        time.sleep(PLAN.next_starts(moment) - moment + 0.2)
    return PLAN.slot_at(time.time())


def join(page: Page, server: str, nickname: str) -> None:
    page.goto(f"{server}/live/en")
    page.locator("#nickname").fill(nickname)
    page.locator("#nickname").press("Enter")
    expect(page.locator("#board.board-play")).to_be_visible()


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"live-{name}.png"), full_page=True)


def test_three_phones_play_two_live_rounds_on_a_slow_network(open_page, live_server):
    laptop = open_page(**LAPTOP)
    laptop.goto(f"{live_server}/live/en")
    expect(laptop.locator("h1")).to_contain_text("Play live with everyone")
    assert serious_violations(laptop) == []
    shot(laptop, "join-1280")
    phones = [open_page(**PHONE) for _ in range(3)]
    for phone, latency in zip(phones, (150, 180, 200), strict=True):
        phone.goto(f"{live_server}/")
        slow_network(phone, latency)
    slot = wait_for_a_slot_to_start()
    by_score: dict[int, object] = {}
    for found in board_of(slot):
        if len(found.word) >= 3:
            by_score.setdefault(found.score, found)
    plays = list(by_score.values())[:3]  # three distinct scores, best first: one word for each phone
    run = secrets.token_hex(2)  # the server's store outlives a run: this run's names are its own
    for phone, name in zip(phones, ("Ann", "Ben", "Cat"), strict=True):
        join(phone, live_server, f"{name} {run}")
    join(laptop, live_server, f"Watcher {run}")
    shot(phones[0], "board-390")
    shot(laptop, "board-1280")
    touch_drag(phones[0], plays[0].path)  # traced with a finger
    type_word(phones[1], plays[1].word, key_delay_ms=30)
    type_word(phones[2], plays[2].word, key_delay_ms=30)
    for phone in phones:
        wait_until_answered(phone)
    assert PLAN.slot_at(time.time()) == slot and time.time() < PLAN.play_ends(slot), "the round ended too soon"
    # the end of the round comes by itself, with each phone's rank and percentile
    until_results = (PLAN.play_ends(slot) - time.time() + 10) * 1000
    for phone, (rank, share) in zip(phones, ((1, "100%"), (2, "50%"), (3, "0%")), strict=True):
        score = phone.locator(".live-score")
        expect(score).to_be_visible(timeout=until_results)
        assert score.get_attribute("data-rank") == str(rank)
        expect(phone.locator(".live-percentile")).to_have_text(f"Better than {share} of the 2 other players.")
    expect(phones[0].locator(".live-score")).to_have_attribute("data-points", str(plays[0].score))
    expect(phones[0].locator("#share-url")).to_have_value(
        f"Ruzzle live (en), {time.strftime('%H:%M', time.gmtime(PLAN.starts(slot)))} UTC: {plays[0].score} points, "
        f"better than 100% of 2 other players {live_server}/live/en"
    )
    expect(laptop.locator(".live-results")).to_be_visible(timeout=10_000)
    assert serious_violations(phones[1]) == []
    shot(phones[1], "results-390")
    shot(laptop, "results-1280")
    # round 2 on every phone, without a tap
    until_next = (PLAN.starts(slot + 1) - time.time() + 10) * 1000
    second = {found.word for found in board_of(slot + 1)}
    for phone in phones:
        expect(phone.locator("#board.board-play")).to_be_visible(timeout=until_next)
        expect(phone.locator("#score .score")).to_have_text("0")
    word = next(found for found in board_of(slot + 1) if len(found.word) >= 3)
    assert word.word in second
    type_word(phones[2], word.word, key_delay_ms=30)
    wait_until_answered(phones[2])
    expect(phones[2].locator("#score .score")).to_have_text(str(word.score))
    shot(phones[2], "round2-390")
