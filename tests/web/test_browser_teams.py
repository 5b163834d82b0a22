"""A lesson in each way to play (issue 36) in Debian's Chromium: six phones (390x844) on a 250 ms network join a room
played in teams or by the whole class, the projector (1024x768, then 1920x1080) shows the teams' ranking or the class's
words growing, the podium and the walk-through say which team found a word or start with the common words the class
missed. Each stage passes axe-core's check (team colours included) and is saved as <screenshots>/room-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ruzzle.frequency import is_common

from .browser import PHONE, room_solution, shoot, slow_network, type_words
from .helpers import SEED

ROUND_SECONDS = 30
PROJECTOR = {"viewport": {"width": 1024, "height": 768}}
WIDE = {"width": 1920, "height": 1080}
NAMES = ("Ada", "Bruno", "Chiara", "Dario", "Elif", "Femi")
TEAMS = 3  # joining in turn: Ada, Dario in team 1; Bruno, Elif in 2; Chiara, Femi in 3


def open_room(open_page, server: str, **form: str) -> tuple[Page, str]:
    """The host opens a room in a way to play and shows it on a 1024x768 projector."""
    host = open_page(**PROJECTOR)
    answer = host.request.post(
        f"{server}/rooms",
        form={"language": "en", "size": "4x4", "time": str(ROUND_SECONDS), "seed": SEED, **form},
        max_redirects=0,
    )
    assert answer.status == 303, answer.text()
    slow_network(host, 250)
    host.goto(server + answer.headers["location"])
    return host, host.locator(".room-code").inner_text().strip()


def join(open_page, server: str, code: str, name: str) -> Page:
    phone = open_page(**PHONE)
    slow_network(phone, 250)
    phone.goto(f"{server}/rooms/{code}")
    phone.fill("#nickname", name)
    phone.press("#nickname", "Enter")
    expect(phone.locator(".room-wait-title")).to_be_visible()
    return phone


def play(phones: list[Page], plays: dict[int, list[str]]) -> None:
    """Each phone types its words; until every one is in its list of words found."""
    for index, words in plays.items():
        type_words(phones[index], words)
    for index, words in plays.items():
        expect(phones[index].locator("#found .word-list li")).to_have_count(len(words))


def shoot_wide(host: Page, name: str) -> None:
    """The projector's stage at 1920x1080 too, then back to 1024x768."""
    host.set_viewport_size(WIDE)
    shoot(host, name + "-1920")
    host.set_viewport_size(PROJECTOR["viewport"])


def start(host: Page, phones: list[Page]) -> None:
    host.keyboard.press("PageDown")  # a clicker: Start
    expect(host.locator("#board")).to_be_visible()
    for phone in phones:
        expect(phone.locator("#board.board-play")).to_be_visible()


def test_a_lesson_in_teams(open_page, server):
    host, code = open_room(open_page, server, mode="teams", teams=str(TEAMS))
    phones = [join(open_page, server, code, name) for name in NAMES]
    expect(host.locator(".room-players-host .team-mark")).to_have_count(len(NAMES))
    expect(phones[3].locator(".room-my-team")).to_contain_text("Your team: ▲ Foxes")
    shoot(host, "teams-1-lobby-projector")
    shoot(phones[3], "teams-1-lobby-phone")

    start(host, phones)
    words = room_solution()
    w = [found.word for found in words]
    points = {found.word: found.score for found in words}
    # team 1: Ada and Dario share w0; team 2: Bruno and Elif share w3; team 3: Chiara, and Femi on w1 (team 1's too)
    plays = {0: [w[0], w[1]], 3: [w[0], w[2]], 1: [w[3]], 4: [w[3], w[4]], 2: [w[5], w[6]], 5: [w[1]]}
    play(phones, plays)
    team_words = {1: {w[0], w[1], w[2]}, 2: {w[3], w[4]}, 3: {w[5], w[6], w[1]}}
    expected = {team: sum(points[word] for word in found) for team, found in team_words.items()}
    ranked = sorted(expected, key=lambda team: -expected[team])
    assert len(set(expected.values())) == TEAMS  # (no tie: the order below is the scores')
    lines = host.locator("#leaderboard .team-ranking tbody tr")
    expect(lines).to_have_count(TEAMS)
    expect(host.locator("#leaderboard .team-ranking tbody .rank-score")).to_have_text(
        [str(expected[team]) for team in ranked]
    )
    expect(lines.locator(".team-mark")).to_have_text(
        [host.locator(f'.team-ranking [data-team-line="{team}"] .team-mark').inner_text() for team in ranked]
    )
    # Dario's second word was new to his team, his first was Ada's already
    expect(phones[3].locator("#team-score")).to_have_attribute("data-new-to-team", "1")
    expect(phones[3].locator("#team-score")).to_have_attribute("data-team-points", str(expected[1]))
    shoot(host, "teams-2-playing-projector")
    shoot_wide(host, "teams-2-playing-projector")
    shoot(phones[3], "teams-2-playing-phone")

    expect(host.locator(".podium-teams li")).to_have_count(TEAMS, timeout=(ROUND_SECONDS + 15) * 1000)
    assert [host.locator(".podium-teams li").nth(i).get_attribute("data-team") for i in range(TEAMS)] == [
        str(team) for team in ranked
    ]
    expect(phones[3].locator(".team-results .team-new-words")).to_have_text(w[2])
    shoot(host, "teams-3-podium-projector")
    shoot_wide(host, "teams-3-podium-projector")
    shoot(phones[3], "teams-3-results-phone")

    host.keyboard.press("PageDown")  # the walk-through
    expect(host.locator("#walk")).to_be_visible()
    host.wait_for_load_state("load")
    host.keyboard.press("ArrowRight")  # the words most found first (two pupils each: w0, w1, w3), best first
    expect(host.locator(".walk-word")).to_contain_text(w[0])
    expect(host.locator(".walk-finders")).to_have_text("Found by ▲ Foxes")
    host.keyboard.press("ArrowRight")
    expect(host.locator(".walk-word")).to_contain_text(w[1])
    expect(host.locator(".walk-finders")).to_have_text("Found by ▲ Foxes, ■ Bees")
    shoot(host, "teams-4-walk-projector")


def test_a_lesson_of_the_whole_class_against_the_board(open_page, server):
    host, code = open_room(open_page, server, mode="class")
    phones = [join(open_page, server, code, name) for name in NAMES]
    expect(host.locator(".room-players-host .nickname")).to_have_count(len(NAMES))
    start(host, phones)
    words = room_solution()
    w = [found.word for found in words]
    points = {found.word: found.score for found in words}
    common = [word for word in w if is_common("en", word)]
    plays = {0: [w[0], w[1]], 1: [w[1], w[2]], 2: [w[2]], 3: [w[3]], 4: [w[0], w[4]], 5: [w[5]]}
    plays = {index: [word for word in chosen if word != common[0]] for index, chosen in plays.items()}
    play(phones, plays)
    distinct = {word for chosen in plays.values() for word in chosen}
    progress = host.locator("#leaderboard .class-progress")
    expect(progress).to_have_attribute("data-class-found", str(len(distinct)))
    expect(progress).to_have_attribute("data-class-total", str(len(w)))
    expect(progress).to_have_attribute("data-class-score", str(sum(points[word] for word in distinct)))
    shoot(host, "class-2-playing-projector")
    shoot_wide(host, "class-2-playing-projector")
    shoot(phones[0], "class-2-playing-phone")

    expect(host.locator(".podium-steps li")).to_have_count(3, timeout=(ROUND_SECONDS + 15) * 1000)
    expect(host.locator(".room-podium-side .class-progress")).to_have_attribute("data-class-found", str(len(distinct)))
    expect(phones[0].locator(".room-results .class-progress")).to_be_visible()
    shoot(host, "class-3-podium-projector")
    shoot_wide(host, "class-3-podium-projector")
    shoot(phones[0], "class-3-results-phone")

    host.keyboard.press("PageDown")
    expect(host.locator("#walk")).to_be_visible()
    host.wait_for_load_state("load")
    host.keyboard.press("ArrowRight")  # first, a common word nobody found
    expect(host.locator(".walk-finders")).to_have_text("Nobody found it")
    first = host.locator(".walk-word span[lang]").first.inner_text().strip()
    assert first in common and first not in distinct, first
    shoot(host, "class-4-walk-projector")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_team_mark_reads_on_the_projector_s_themes(open_page, server, theme):
    """All eight teams' marks on a room's stage: axe-core's colour contrast holds on each (text on a team colour)."""
    host, code = open_room(open_page, server, mode="teams", teams="8")
    phones = [join(open_page, server, code, f"Pupil{n}") for n in range(8)]
    expect(host.locator(".room-players-host .team-mark")).to_have_count(8)
    if theme == "dark":
        host.evaluate("document.documentElement.classList.replace('theme-light', 'theme-dark')")
    shoot(host, f"teams-8-marks-{theme}")
    assert phones
