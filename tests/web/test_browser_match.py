"""A whole Ruzzle match in a room, in Debian's Chromium (projector 1024x768 on 100 ms, two touch phones on 200 ms):
three rounds whose results name this round's points, the total and the rank, each labelled and adding up; after
round 3 a final podium on the projector and each phone's final place; "Another match" starts round 1 of 3 of match 2
with the totals back at 0. Screenshots: <screenshots>/match-*.png."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ruzzle import Board, Lexicon
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution

from .browser import PROJECTOR, join_on_phone, press, slow_network, wait_until_answered
from .conftest import SCREENSHOTS

ROUND_SECONDS = 8


def words_on_the_page(phone: Page) -> list[str]:
    """Words of the board the phone shows, solved here from its tiles (each round of a match has its own board)."""
    cells = phone.locator("#board td[data-cell]")
    letters: dict[tuple[int, int], str] = {}
    for index in range(cells.count()):
        cell = cells.nth(index)
        row, col = map(int, cell.get_attribute("data-cell").split(","))
        letters[row, col] = cell.locator(".tile-letter").inner_text().strip()
    size = max(row for row, _ in letters) + 1
    board = Board.from_rows([[letters[row, col] for col in range(size)] for row in range(size)], "en")
    return [found.word for found in Solution.of(board, Lexicon.builtin("en"), blocked_words("en"))]


def play(phone: Page, words: list[str]) -> None:
    for word in words:
        phone.locator("#word").press_sequentially(word, delay=30)
        phone.press("#word", "Enter")
    wait_until_answered(phone)


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"match-{name}.png"), full_page=True)


def test_a_whole_match_ends_with_a_final_podium_and_another_match_starts_from_zero(open_page, server):
    host = open_page(**PROJECTOR)
    answer = host.request.post(
        f"{server}/rooms",
        form={"language": "en", "size": "4x4", "preset": "match", "time": str(ROUND_SECONDS)},
        max_redirects=0,
    )
    assert answer.status == 303, answer.text()
    slow_network(host, 100)
    host.goto(server + answer.headers["location"])
    code = host.locator(".room-code").inner_text().strip()
    phones = {name: join_on_phone(open_page, server, code, name) for name in ("Ada", "Bruno")}
    totals = {name: 0 for name in phones}

    for number, start in enumerate(("Start", "Start round 2 of 3", "Start round 3 of 3"), start=1):
        press(host, start)
        for phone in phones.values():
            expect(phone.locator("#board.board-play")).to_be_visible(timeout=10_000)
        words = words_on_the_page(phones["Ada"])
        play(phones["Ada"], words[:2])  # Ada plays the two best words, Bruno the third: Ada leads every round
        play(phones["Bruno"], words[2:3])
        for name, phone in phones.items():
            score = phone.locator(".room-score, .room-final")
            expect(score).to_be_visible(timeout=ROUND_SECONDS * 1000 + 8000)
            round_points = int(score.get_attribute("data-round-points"))
            total = int(score.get_attribute("data-total-points"))
            totals[name] += round_points
            assert total == totals[name], (number, name)
            if number < 3:
                expect(score).to_have_text(
                    f"This round: {round_points} points · Total: {total} points · "
                    f"Rank {1 if name == 'Ada' else 2} of 2 in the match"
                )
        expect(host.locator("#podium-title")).to_have_text(
            "Match 1: final podium" if number == 3 else f"After {number} of 3 rounds", timeout=5000
        )
        if number < 3:
            press(host, "Next round of the match")
            expect(host.get_by_role("button", name=f"Start round {number + 1} of 3")).to_be_visible(timeout=5000)

    podium = host.locator("[data-final-podium]")
    expect(podium.locator("[data-place='1'] .podium-name")).to_have_text("Ada")
    expect(podium.locator("[data-place='2'] .podium-name")).to_have_text("Bruno")
    expect(podium.locator("[data-place='1'] .podium-score")).to_have_text(f"{totals['Ada']:,}")
    for place, (name, phone) in enumerate(phones.items(), start=1):
        final = phone.locator(".room-final")
        expect(final).to_have_attribute("data-final-place", str(place))
        expect(final).to_contain_text(f"Final place: {place} of 2 · Total: {totals[name]:,} points")
    shoot(host, "final-podium")
    shoot(phones["Bruno"], "phone-final-place")

    press(host, "Another match")
    expect(host.get_by_role("button", name="Start round 1 of 3 in match 2")).to_be_visible(timeout=5000)
    for phone in phones.values():
        expect(phone.locator(".room-wait-title")).to_be_visible(timeout=5000)
    press(host, "Start round 1 of 3 in match 2")
    expect(phones["Bruno"].locator("#board.board-play")).to_be_visible(timeout=10_000)
    play(phones["Bruno"], words_on_the_page(phones["Bruno"])[:1])
    score = phones["Bruno"].locator(".room-score")
    expect(score).to_be_visible(timeout=ROUND_SECONDS * 1000 + 8000)
    assert score.get_attribute("data-total-points") == score.get_attribute("data-round-points")  # from 0 again
    expect(host.locator("#podium-title")).to_have_text("After 1 of 3 rounds", timeout=5000)
