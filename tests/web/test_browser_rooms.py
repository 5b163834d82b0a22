"""A live room in Debian's Chromium: a host on a 1280x800 projector and three phones on a slowed network join,
the host starts with the keyboard (a clicker's PageDown), the phones' boards appear at the start, each phone plays,
the host's live ranking shows them in order, and at the end the podium and the walk-through name who found what.
Screenshots of each stage go to <screenshots>/room-*.png."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from .browser import PHONE, room_solution, shoot, slow_network, type_words

SEED = "ROOMS7"
ROUND_SECONDS = 20
PROJECTOR = {"viewport": {"width": 1280, "height": 800}}
NAMES = ("Ada", "Bruno", "Chiara")


# When the board appears on a phone (epoch ms), noted by the page itself.
NOTE_BOARD = """() => new MutationObserver((changes, observer) => {
    if (document.querySelector('#board.board-play')) { window.boardAt = Date.now(); observer.disconnect(); }
}).observe(document.body, {subtree: true, childList: true})"""


def open_room(open_page, server) -> tuple[Page, str]:
    """The host opens a room (the contract's POST /rooms, with a short round) and shows it on the projector."""
    host = open_page(**PROJECTOR)
    answer = host.request.post(
        f"{server}/rooms",
        form={"language": "en", "size": "4x4", "time": str(ROUND_SECONDS), "seed": SEED},
        max_redirects=0,
    )
    assert answer.status == 303, answer.text()
    host.goto(server + answer.headers["location"])
    slow_network(host, 100)
    code = host.locator(".room-code").inner_text().strip()
    return host, code


def join(open_page, server: str, code: str, name: str) -> Page:
    phone = open_page(**PHONE)
    slow_network(phone, 200)
    phone.goto(f"{server}/rooms/{code.lower()}")  # a code typed in lower case works
    phone.fill("#nickname", name)
    phone.press("#nickname", "Enter")
    expect(phone.locator(".room-wait-title")).to_be_visible()
    return phone


def test_a_class_plays_one_board_together(open_page, server):
    host, code = open_room(open_page, server)
    expect(host.locator(".room-qr svg")).to_be_visible()
    phones = [join(open_page, server, code, name) for name in NAMES]
    # the host's lobby lists the nicknames as they join, by itself (polling)
    expect(host.locator(".room-players-host .nickname")).to_have_text(list(NAMES), timeout=5000)
    expect(phones[0].locator(".room-players li")).to_have_count(3, timeout=5000)
    shoot(host, "1-lobby-projector")
    shoot(phones[0], "1-lobby-phone")

    for phone in phones:
        phone.evaluate(NOTE_BOARD)
    pressed = time.time()
    host.keyboard.press("PageDown")  # a clicker: the stage's main action is Start
    expect(host.locator("#board")).to_be_visible()
    starts_at = host.request.get(f"{server}/rooms/{code}/leaderboard", headers={"Accept": "application/json"}).json()[
        "starts_at"
    ]
    for phone in phones:
        expect(phone.locator("#board.board-play")).to_be_visible(timeout=10000)
    # every phone's board appears within 2 s of the round's start (after a 3-2-1 of 3 to 4 s from the press)
    appeared = [phone.evaluate("window.boardAt") / 1000 for phone in phones]
    assert all(0 <= at - starts_at <= 2 for at in appeared), (pressed, starts_at, appeared)
    assert starts_at - pressed <= 4.5
    shoot(phones[1], "2-board-phone")

    words = [found.word for found in room_solution()]
    plays = {NAMES[0]: words[0:3], NAMES[1]: [words[1], words[3]], NAMES[2]: [words[4]]}
    for phone, name in zip(phones, NAMES, strict=True):
        type_words(phone, plays[name])
    for phone, name in zip(phones, NAMES, strict=True):
        expect(phone.locator("#found .word-list li")).to_have_count(len(plays[name]), timeout=5000)
    answered = time.monotonic()
    # the live ranking, in order, within 3 s of the last answer
    expect(host.locator("#leaderboard tbody .nickname")).to_have_text(list(NAMES), timeout=3000)
    ranked_in = time.monotonic() - answered
    assert ranked_in <= 3
    shoot(host, "2-playing-projector")

    # the end: the podium on the projector, each phone's rank
    expect(host.locator(".podium-name")).to_have_text(list(NAMES), timeout=(ROUND_SECONDS + 10) * 1000)
    for rank, phone in enumerate(phones, start=1):
        expect(phone.locator(".room-results .summary-score strong").first).to_have_text(str(rank), timeout=10000)
    shoot(host, "3-podium-projector")
    shoot(phones[2], "3-results-phone")

    # the walk-through (the clicker again), word by word with who found it
    host.keyboard.press("PageDown")
    expect(host.locator("#walk")).to_be_visible()
    host.wait_for_load_state("load")  # the page's script, which takes the clicker's keys, has run
    host.keyboard.press("ArrowRight")  # the word the most found, first
    expect(host.locator(".walk-word")).to_contain_text(words[1])
    expect(host.locator(".walk-finders")).to_have_text(f"Found by {NAMES[0]}, {NAMES[1]}")
    host.keyboard.press("ArrowRight")
    expect(host.locator(".walk-word")).to_contain_text(words[0])
    expect(host.locator(".walk-finders")).to_have_text(f"Found by {NAMES[0]}")
    shoot(host, "4-walk-projector")


def test_the_start_page_button_opens_a_room_and_a_code_joins_it(open_page, server):
    host = open_page(**PROJECTOR)
    host.goto(server + "/")
    host.select_option("#preset", "match")
    host.get_by_role("button", name="Play with a class / with friends").click()
    expect(host).to_have_url(re.compile(r"/rooms/[2-9A-HJKMNP-Z]{6}/host$"))
    expect(host.locator(".room-settings")).to_contain_text("Ruzzle match, round 1")
    code = host.locator(".room-code").inner_text().strip()
    phone = open_page(**PHONE)
    phone.goto(server + "/")
    phone.fill("#room-code", code.lower())
    phone.press("#room-code", "Enter")
    expect(phone.locator("h1")).to_contain_text(f"Join room {code}")
    phone.get_by_role("button", name="Give me any name").click()
    expect(phone.locator(".room-wait-title")).to_be_visible()
    expect(host.locator(".room-players-host .nickname")).to_have_count(1, timeout=5000)
