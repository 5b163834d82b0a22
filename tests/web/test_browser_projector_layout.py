"""The host's projector view after a long lesson, in Debian's Chromium: a room of 8 players plays 5 rounds, and at
every stage (the lobby, the round, the pause, the end with the ranking's rounds, each with the teacher's tools
opened) nothing runs off the side of a 1024x768, 1280x800 or 1920x1080 screen, and no text is under 20 px at
1024x768 (read from the back of a classroom). A lobby of 40 pupils with long names fits a 1024x768 screen whole.
Screenshots go to <screenshots>/projector-layout-*.png."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from ruzzle import Board, Lexicon
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution

from .conftest import SCREENSHOTS

SCREENS = [(1024, 768), (1280, 800), (1920, 1080)]
SMALLEST = (1024, 768)  # the smallest projector a class has: no text under MIN_TEXT_PX there
MIN_TEXT_PX = 20
ROUNDS = 5
NAMES = [
    "Ada",
    "Bruno Esposito",
    "Chiara",
    "Dara O'Connor",
    "Emil",
    "Fatima Al-Hassan",
    "Giulia Ferraris",
    "Maximilian Schneider",
]  # the last has 20 characters, the most a nickname has
# 40 names a class might type, many of them long (first name and surname, up to 20 characters).
CLASS_OF_40 = [
    "Maximilian Schneider",
    "Alessandra Ferrante",
    "Christopher Johnson",
    "Anastasia Volkova",
    "Giovanni Bianchi",
    "Francesca Romano",
    "Sebastian Hoffmann",
    "Konstantin Petrov",
    "Valentina Esposito",
    "Bartholomew Clarke",
    "Emma",
    "Noah",
    "Mia Wong",
    "Leo",
    "Sofia Garcia",
    "Lucas Martin",
    "Olivia Brown",
    "Liam O'Brien",
    "Charlotte Dubois",
    "Mateo Fernandez",
    "Isabella Costa",
    "Elias Becker",
    "Amelia Taylor",
    "Hugo Laurent",
    "Zoe",
    "Finn Jansen",
    "Lena Fischer",
    "Tommaso Ricci",
    "Ines Moreau",
    "Jonas Vermeulen",
    "Aisha Khan",
    "Ben",
    "Nora Lindqvist",
    "Pablo Ruiz",
    "Clara Schmidt",
    "Ivan Horvat",
    "Yuki Tanaka",
    "Omar Haddad",
    "Giulia Marchetti",
    "Thomas De Vries",
]

# What a screen shows that it should not: the page wider than the screen, text or boxes past the screen's left or
# right edge or cut by a box that clips, text smaller than `least` px; the smallest text's size.
LAYOUT = """(least) => {
    const width = innerWidth, report = {scrollWidth: document.documentElement.scrollWidth, width,
                                        outside: [], clipped: [], small: [], smallest: Infinity};
    const describe = e => (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.')
                                                                         : e.tagName.toLowerCase());
    const clippers = e => { const boxes = [];
        for (let a = e.parentElement; a; a = a.parentElement)
            if (getComputedStyle(a).overflowX !== 'visible') boxes.push(a);
        return boxes; };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
        const text = node.textContent.trim(), e = node.parentElement;
        if (!text || e.closest('.visually-hidden, svg, script, style')) continue;
        const style = getComputedStyle(e);
        const range = document.createRange();
        range.selectNodeContents(node);
        const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
        if (!rects.length || style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
        const size = parseFloat(style.fontSize);
        report.smallest = Math.min(report.smallest, size);
        if (size < least) report.small.push(`${describe(e)} "${text.slice(0, 30)}" ${size}px`);
        for (const r of rects) {
            const where = `${describe(e)} "${text.slice(0, 30)}" ${Math.round(r.left)}..${Math.round(r.right)}`;
            if (r.left < -0.5 || r.right > width + 0.5) report.outside.push(where);
            for (const box of clippers(e)) { const b = box.getBoundingClientRect();
                if (r.left < b.left - 0.5 || r.right > b.right + 0.5)
                    report.clipped.push(`${describe(e)} "${text.slice(0, 30)}" in ${describe(box)}`); }
        }
    }
    for (const e of document.querySelectorAll('body *')) {
        if (e.closest('.visually-hidden') || !e.getClientRects().length) continue;
        const r = e.getBoundingClientRect();
        if (r.width && (r.left < -0.5 || r.right > width + 0.5))
            report.outside.push(`${describe(e)} box ${Math.round(r.left)}..${Math.round(r.right)}`);
        if (e.matches('input, select, textarea') && parseFloat(getComputedStyle(e).fontSize) < least)
            report.small.push(`${describe(e)} ${e.name} ${getComputedStyle(e).fontSize}`);
    }
    report.outside = [...new Set(report.outside)];
    report.clipped = [...new Set(report.clipped)];
    return report;
}"""


def board_of(host: Page) -> Board:
    """The board the host's stage shows (a round's board is a fresh seed the test does not know)."""
    rows = host.evaluate("""() => [...document.querySelectorAll('#board tr')].map(row =>
        [...row.querySelectorAll('td')].map(cell => cell.querySelector('.tile-letter').textContent.trim() +
            (cell.className.match(/tile-(dl|tl|dw|tw)/) || ['', ''])[1]).join(' ')).join('\\n')""")
    return Board.parse(rows, language="en")


def words_of(host: Page) -> list[str]:
    """The words of the board on the host's stage, best first."""
    return [found.word for found in Solution.of(board_of(host), Lexicon.builtin("en"), blocked_words("en"))]


def post(context: BrowserContext, url: str, form: dict | None = None) -> None:
    answer = context.request.post(url, form=form or {}, max_redirects=0)
    assert answer.status in (200, 303), f"{url}: {answer.status} {answer.text()[:200]}"


def open_room(open_page, server: str, viewport: tuple[int, int]) -> tuple[Page, str]:
    """A room of one board a round (the preset "single"), two minutes a round, shown on the host's projector."""
    host = open_page(viewport={"width": viewport[0], "height": viewport[1]})
    answer = host.request.post(
        f"{server}/rooms", form={"language": "en", "size": "4x4", "time": "120", "preset": "single"}, max_redirects=0
    )
    assert answer.status == 303, answer.text()
    host.goto(server + answer.headers["location"])
    return host, host.locator(".room-code").inner_text().strip()


def join_all(browser: Browser, server: str, code: str, names: list[str]) -> list[BrowserContext]:
    """Pupils join through the join form's POST, each from a browser context of their own (their own cookie)."""
    players = []
    for name in names:
        context = browser.new_context()
        post(context, f"{server}/rooms/{code}/players", {"nickname": name})
        players.append(context)
    return players


def reload_at(host: Page, stage: str) -> None:
    """The host's stage opened afresh (a reload would keep the scroll of the page before)."""
    host.goto(host.url.split("#")[0])
    expect(host.locator(f"#game.room-{stage}")).to_be_visible(timeout=30000)


def start_round(host: Page, server: str, code: str) -> list[str]:
    """Start the round and wait out the 3-2-1 (the stage polls its way to the round); the board's words."""
    post(host.context, f"{server}/rooms/{code}/start")
    host.goto(host.url.split("#")[0])
    expect(host.locator("#game.room-countdown, #game.room-playing")).to_be_visible()
    words = words_of(host)
    expect(host.locator("#game.room-playing")).to_be_visible(timeout=30000)
    return words


def find_words(server: str, code: str, players: list[BrowserContext], words: list[str], number: int) -> None:
    """Each player finds some of the words: a few everyone finds, more for some than others, a few rare ones."""
    for i, player in enumerate(players):
        mine = random.Random(f"{number}-{i}").sample(words[3:], min(len(words) - 3, 1 + 2 * i)) + words[:2]
        for word in mine:
            post(player, f"{server}/rooms/{code}/words", {"word": word})


def play_rounds(host: Page, server: str, code: str, players: list[BrowserContext], rounds: int) -> None:
    """Play whole rounds: start, words, end now, another round."""
    for number in range(1, rounds + 1):
        find_words(server, code, players, start_round(host, server, code), number)
        post(host.context, f"{server}/rooms/{code}/end")
        post(host.context, f"{server}/rooms/{code}/rounds")


def layout(host: Page) -> dict:
    return host.evaluate(LAYOUT, MIN_TEXT_PX)


def open_tools(host: Page) -> None:
    for summary in host.locator(".room-tools > summary").all():
        summary.click()
    expect(host.locator(".room-tools[open]")).to_have_count(2)


def check_stage(host: Page, stage: str, measured: dict) -> list[str]:
    """Every screen size at this stage, tools closed then opened: what ran off a side, what text was too small."""
    problems = []
    for width, height in SCREENS:
        host.set_viewport_size({"width": width, "height": height})
        for tools in ("", "-tools"):
            reload_at(host, stage)
            if tools:
                open_tools(host)
            found = layout(host)
            name = f"{stage}{tools}-{width}x{height}"
            measured[name] = (found["scrollWidth"], found["smallest"])
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            host.screenshot(path=SCREENSHOTS / f"projector-layout-{name}.png", full_page=bool(tools))
            if found["scrollWidth"] > width:
                problems.append(f"{name}: the page is {found['scrollWidth']} px wide")
            problems += [f"{name}: outside the screen: {what}" for what in found["outside"][:5]]
            problems += [f"{name}: cut: {what}" for what in found["clipped"][:5]]
            if (width, height) == SMALLEST:
                problems += [f"{name}: small text: {what}" for what in found["small"][:8]]
    return problems


def check_walk(host: Page, server: str, code: str, measured: dict) -> list[str]:
    """The room's walk-through before its first word and at it (the word the most found, with its finders): nothing
    runs off a side of any screen."""
    problems = []
    for width, height in SCREENS:
        host.set_viewport_size({"width": width, "height": height})
        for step in (0, 1):
            host.goto(f"{server}/rooms/{code}/projector" + (f"?step={step}" if step else ""))
            expect(host.locator("#walk")).to_have_attribute("data-step", str(step))
            if step:
                expect(host.locator(".walk-finders")).to_contain_text("Found by")
            found = layout(host)
            name = f"walk-{step}-{width}x{height}"
            measured[name] = (found["scrollWidth"], found["smallest"])
            host.screenshot(path=SCREENSHOTS / f"projector-layout-{name}.png")
            if found["scrollWidth"] > width:
                problems.append(f"{name}: the page is {found['scrollWidth']} px wide")
            problems += [f"{name}: outside the screen: {what}" for what in found["outside"][:5]]
            problems += [f"{name}: cut: {what}" for what in found["clipped"][:5]]
    host.goto(f"{server}/rooms/{code}/host")  # back to the podium (the walk-through's step is forgotten)
    return problems


def check_phone(player: BrowserContext, server: str, code: str) -> list[str]:
    """A pupil's results on a 360 px phone after the rounds: the room's ranking keeps to the screen's width."""
    phone = player.new_page()
    phone.set_viewport_size({"width": 360, "height": 780})
    phone.goto(f"{server}/rooms/{code}/play")
    expect(phone.locator(".room-results .ranking .rank-line")).not_to_have_count(0)
    phone.locator(".room-results .ranking-box").screenshot(path=SCREENSHOTS / "projector-layout-phone-ranking.png")
    found = layout(phone)
    phone.close()
    return [f"phone: {what}" for what in found["outside"][:5] + found["clipped"][:5]] + (
        [f"phone: the page is {found['scrollWidth']} px wide"] if found["scrollWidth"] > 360 else []
    )


@pytest.fixture
def measured():
    """Each stage and screen's page width and smallest text (px); printed at the end (pytest -rP shows it)."""
    figures: dict[str, tuple[int, float]] = {}
    yield figures
    print(
        "\n".join(
            f"{name}: width {width} px, smallest text {smallest} px" for name, (width, smallest) in figures.items()
        )
    )


def test_five_rounds_fit_every_projector_at_every_stage(open_page, browser, server, measured):
    host, code = open_room(open_page, server, SMALLEST)
    players = join_all(browser, server, code, NAMES)
    try:
        play_rounds(host, server, code, players, ROUNDS - 1)
        problems = []
        words = start_round(host, server, code)
        find_words(server, code, players, words, ROUNDS)
        expect(host.locator("#leaderboard .rank-line")).to_have_count(len(NAMES))
        problems += check_stage(host, "playing", measured)
        post(host.context, f"{server}/rooms/{code}/pause")
        problems += check_stage(host, "paused", measured)
        post(host.context, f"{server}/rooms/{code}/resume")
        post(host.context, f"{server}/rooms/{code}/end")
        reload_at(host, "over")
        expect(host.locator("#leaderboard .rank-line")).to_have_count(len(NAMES))
        problems += check_stage(host, "over", measured)
        problems += check_walk(host, server, code, measured)
        problems += check_phone(players[-1], server, code)
        post(host.context, f"{server}/rooms/{code}/rounds")
        problems += check_stage(host, "waiting", measured)
        assert problems == []
    finally:
        for player in players:
            player.close()


# Each name whose box is not wholly on the screen, or whose text is cut.
NAMES_OFF_SCREEN = """names => names.filter(name => { const r = name.getBoundingClientRect();
    return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth ||
           name.scrollWidth > name.clientWidth + 1; }).map(name => name.textContent)"""


@pytest.mark.parametrize("count", [3, 20, 40])  # the most each of the lobby's layouts shows (a few, some), a class
def test_a_lobby_shows_every_name_without_scrolling(open_page, browser, server, count):
    host, code = open_room(open_page, server, SMALLEST)
    players = join_all(browser, server, code, CLASS_OF_40[:count])
    try:
        for width, height in SCREENS:
            host.set_viewport_size({"width": width, "height": height})
            reload_at(host, "waiting")
            names = host.locator(".room-players-host .nickname")
            expect(names).to_have_count(count)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            host.screenshot(path=SCREENSHOTS / f"projector-layout-lobby-{count}-{width}x{height}.png")
            assert names.evaluate_all(NAMES_OFF_SCREEN) == [], f"{width}x{height}"
            page_width, page_height = host.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
            )
            assert page_width <= width and page_height <= height, f"the lobby scrolls at {width}x{height}"
            found = layout(host)
            assert found["outside"] == found["clipped"] == [], f"{width}x{height}"
            if (width, height) == SMALLEST:
                assert found["small"] == []
    finally:
        for player in players:
            player.close()


# --- a long lesson on the smallest projector: 10 players, 5 rounds ------------------------------------------------

TEN = NAMES + ["Hugo Laurent", "Ines Moreau"]
PROJECTED_MIN_PX = 18  # the floor for any text on a 1024x768 projector

# The stage as a pupil at the back reads it: ranking rows wholly on the screen, the page's height, meanings cut.
FITS = """() => {
    const h = innerHeight;
    const rows = [...document.querySelectorAll('#leaderboard .rank-line')];
    const onScreen = rows.filter(r => { const b = r.getBoundingClientRect(); return b.top >= 0 && b.bottom <= h; });
    // a meaning cut short must offer the rest (its "whole meaning" link shown)
    const cut = [...document.querySelectorAll('.meaning-line, .meaning-none')]
        .filter(e => e.scrollHeight > e.clientHeight + 1)
        .filter(e => { const more = e.parentElement.querySelector('.meaning-more');
                       return !more || !more.getClientRects().length; })
        .map(e => e.textContent.trim().slice(0, 40));
    const lines = [...document.querySelectorAll('.meaning-line')].map(e =>
        Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)));
    return {rows: rows.length, onScreen: onScreen.length, scrollHeight: document.documentElement.scrollHeight,
            cut, lines};
}"""


def shoot_pupil(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"projector-layout-{name}.png"))


def test_ten_players_after_five_rounds_fit_a_1024x768_projector_whole(open_page, browser, server, measured):
    host, code = open_room(open_page, server, SMALLEST)
    players = join_all(browser, server, code, TEN)
    try:
        play_rounds(host, server, code, players, ROUNDS - 1)
        find_words(server, code, players, start_round(host, server, code), ROUNDS)
        post(host.context, f"{server}/rooms/{code}/end")
        reload_at(host, "over")
        expect(host.locator("#leaderboard .rank-line")).to_have_count(len(TEN))
        problems = []
        fits, found = host.evaluate(FITS), host.evaluate(LAYOUT, PROJECTED_MIN_PX)
        measured["over-1024x768"] = (found["scrollWidth"], found["smallest"])
        print(f"results: {fits['onScreen']} of {fits['rows']} rows on screen, scrollHeight {fits['scrollHeight']}")
        shoot_pupil(host, "projector-results-1024x768")
        if fits["onScreen"] < len(TEN) or fits["scrollHeight"] > SMALLEST[1]:
            problems.append(f"results: {fits}")
        problems += [f"results: small text: {what}" for what in found["small"][:8]]
        for step in range(1, 13):
            host.goto(f"{server}/rooms/{code}/projector?step={step}")
            expect(host.locator("#walk")).to_have_attribute("data-step", str(step))
            fits, found = host.evaluate(FITS), host.evaluate(LAYOUT, PROJECTED_MIN_PX)
            measured[f"walk-{step}-1024x768"] = (found["scrollWidth"], found["smallest"])
            print(f"walk {step}: meaning lines {fits['lines']}, cut {fits['cut']}, scrollHeight {fits['scrollHeight']}")
            if step in (1, 5):
                shoot_pupil(host, f"projector-walk-{step}-1024x768")
            if fits["cut"] or fits["scrollHeight"] > SMALLEST[1]:
                problems.append(f"walk {step}: {fits}")
            problems += [f"walk {step}: small text: {what}" for what in found["small"][:8]]
        assert problems == [], "\n".join(problems)
    finally:
        for player in players:
            player.close()
