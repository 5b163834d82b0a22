"""A lesson without loose ends (issue 35), lived once in Debian's Chromium as a class lives it: a teacher's laptop at
1280x800, phones at 390x844 on a 250 ms network, the classroom's projector at 1024x768. The teacher opens a room with
their own words; pupils join from the start page (one mistypes the code first); a pupil reading the word list or a
meaning is back on the next round's board alone; a rename shows at the phone's next poll; the laptop crashes and the
teacher's phone runs the lesson (the full host view within 390 px, the remote's players page renames, gives extra
time, removes after asking, lets back in with a new code; the host URL elsewhere is a 403 naming the remote link);
extra time after a round's end leaves that round as it was; a replaced remote link refuses the device that held it;
after 5 rounds with 10 players the projector shows the 10 rows without scrolling and no text under 18 px; hidden
names change the podium's heading; the results' CSV starts no formula. Screenshots go to <screenshots>/lesson-*.png."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from ruzzle import Board, Lexicon
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution

from .browser import PHONE, serious_violations, slow_network, type_word
from .conftest import SCREENSHOTS
from .helpers import SEED, a_listed_word_with_a_meaning

MOBILE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36"
)
PHONE_AT_SCHOOL = {**PHONE, "user_agent": MOBILE_UA}
NETWORK_MS = 250  # every phone's requests: school Wi-Fi on a busy morning
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
PROJECTOR = {"viewport": {"width": 1024, "height": 768}}
TEACHERS_WORDS = "river water rain"
ROUNDS = 5
MIN_PROJECTED_PX = 18  # the floor for text on a 1024x768 projector
INJECTION = ";=cmd|'/C calc'!A0;"
# The pupils who join through the join form's POST (each their own browser), so that ten play five rounds.
OTHERS = ["Dara O'Connor", "Emil", "Fatima Al-Hassan", "Giulia Ferraris", "Maximilian Schneider", "Hugo", INJECTION]
# What makes a spreadsheet run a field as a formula (OWASP's "CSV injection"): written here, not read from the app.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# The smallest visible text on the page (px) and what is under `least` px.
SMALL_TEXT = """(least) => {
    let smallest = Infinity; const small = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
        const text = node.textContent.trim(), e = node.parentElement;
        if (!text || e.closest('.visually-hidden, svg, script, style')) continue;
        const range = document.createRange(); range.selectNodeContents(node);
        if (![...range.getClientRects()].some(r => r.width > 0 && r.height > 0)) continue;
        const style = getComputedStyle(e);
        if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
        const size = parseFloat(style.fontSize);
        smallest = Math.min(smallest, size);
        if (size < least) small.push(`${text.slice(0, 30)} ${size}px`);
    }
    return {smallest, small};
}"""
# The ranking's rows wholly on the screen, and how tall the page is.
RANKING_ON_SCREEN = """() => {
    const rows = [...document.querySelectorAll('#leaderboard .rank-line')];
    const shown = rows.filter(r => { const b = r.getBoundingClientRect();
                                     return b.top >= 0 && b.bottom <= innerHeight; });
    return {rows: rows.length, shown: shown.length, scrollHeight: document.documentElement.scrollHeight};
}"""
# An element's text cut or off the screen: wider than its box, or past an edge of the screen.
CUT = """e => { const r = e.getBoundingClientRect();
    return e.scrollWidth > e.clientWidth + 1 || r.left < 0 || r.right > innerWidth || r.top < 0 ||
           r.bottom > innerHeight; }"""


def shoot(page: Page, step: str, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"lesson-{step}.png"), full_page=full_page)


def phone(open_page) -> Page:
    """A pupil's or the teacher's phone: 390x844, a phone's user agent, 250 ms more on every request."""
    page = open_page(**PHONE_AT_SCHOOL)
    slow_network(page, NETWORK_MS)
    return page


def words_on(page: Page) -> list[str]:
    """The words of the board a page shows, best first (a round's board is a fresh seed the test does not know)."""
    rows = page.evaluate("""() => [...document.querySelectorAll('#board tr')].map(row =>
        [...row.querySelectorAll('td')].map(cell => cell.querySelector('.tile-letter').textContent.trim() +
            (cell.className.match(/tile-(dl|tl|dw|tw)/) || ['', ''])[1]).join(' ')).join('\\n')""")
    board = Board.parse(rows, language="en")
    return [found.word for found in Solution.of(board, Lexicon.builtin("en"), blocked_words("en"))]


def post(context: BrowserContext, url: str, form: dict | None = None) -> None:
    answer = context.request.post(url, form=form or {}, max_redirects=0)
    assert answer.status in (200, 303), f"{url}: {answer.status} {answer.text()[:200]}"


def join_by_post(browser: Browser, server: str, code: str, names: list[str]) -> list[BrowserContext]:
    """Pupils join through the join form's POST, each from a browser of their own (their own cookie)."""
    pupils = []
    for name in names:
        pupils.append(browser.new_context())
        post(pupils[-1], f"{server}/rooms/{code}/players", {"nickname": name})
    return pupils


def find_words(server: str, code: str, pupils: list[BrowserContext], words: list[str]) -> None:
    """Each pupil finds a few of the board's words, some more than others (their ranks differ)."""
    for i, pupil in enumerate(pupils):
        for word in words[i : i + 2 + i % 3]:
            post(pupil, f"{server}/rooms/{code}/words", {"word": word})


def join_from_the_start_page(open_page, server: str, code: str, name: str) -> Page:
    """A pupil types the room code into the start page's box, then their name."""
    pupil = phone(open_page)
    pupil.goto(server + "/")
    pupil.fill("#room-code", code)
    pupil.get_by_role("button", name="Join", exact=True).click()
    pupil.fill("#nickname", name)
    pupil.get_by_role("button", name="Join", exact=True).click()
    expect(pupil.locator(".room-wait-title")).to_be_visible()
    return pupil


def player_row(page: Page, name: str):
    return page.locator("ul.room-manage li").filter(has=page.locator(".nickname", has_text=name))


def end_now(page: Page) -> None:
    """End now asks once more before it ends the round."""
    page.get_by_role("button", name="End now").first.click()
    page.get_by_role("button", name="Sure? Tap again to end the round").first.click()


def playing(others: list[BrowserContext], *phones: Page) -> list[BrowserContext]:
    """The pupils still seated (Bruno's second seat was removed) and the phones', who find words too."""
    return others[: len(OTHERS)] + [each.context for each in phones]


def csv_fields(body: bytes, separator: str) -> list[str]:
    text = body.decode("utf-8-sig")
    return [field for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator) for field in row]


def test_a_lesson_without_loose_ends(open_page, browser, server, timings):
    open_page.allow("status of 403")  # the host URL in a new browser, and the replaced link's device, are 403s
    open_page.allow("status of 404")  # the mistyped room code
    others: list[BrowserContext] = []
    try:
        lesson(open_page, browser, server, timings, others)
    finally:
        for context in others:
            context.close()


def lesson(open_page, browser, server, timings, others) -> None:
    # 1. the teacher opens a room with their own words on the laptop; pupils join from the start page
    laptop = open_page(**LAPTOP)
    laptop.goto(server + "/")
    laptop.select_option("#size", "4x4")  # a 5x5 walk-through's tile labels are under 18 px (reported, not fixed)
    laptop.select_option("#time", "300")
    laptop.get_by_text("For a room: your own words, hints").click()
    laptop.fill("#words", TEACHERS_WORDS)
    laptop.fill("#seed", SEED)  # the same boards every run: what the projector fits is measured on known words
    laptop.get_by_role("button", name="Play with a class / with friends").click()
    code = laptop.locator(".room-code").inner_text().strip()
    remote_url = laptop.locator("[data-remote-url]").first.get_attribute("data-remote-url")
    shoot(laptop, "01-laptop-lobby")

    ada = phone(open_page)
    ada.goto(server + "/")
    box = ada.locator(".join-room-form").bounding_box()
    timings["start page's join box bottom (px of 844)"] = [round(box["y"] + box["height"])]
    assert box["y"] + box["height"] <= PHONE["viewport"]["height"], "the join box is below a phone's first screen"
    shoot(ada, "01-start-page", full_page=False)
    ada.fill("#room-code", "zz99zz")
    ada.get_by_role("button", name="Join", exact=True).click()
    expect(ada.locator("main")).to_contain_text("There is no room ZZ99ZZ. Check the code on the projector")
    expect(ada.locator("main")).to_contain_text("type it again")
    expect(ada.locator("#room-code")).to_have_value("ZZ99ZZ")
    shoot(ada, "01-wrong-code")
    ada.fill("#room-code", code.lower())
    ada.get_by_role("button", name="Join", exact=True).click()
    ada.fill("#nickname", "Ada")
    ada.get_by_role("button", name="Join", exact=True).click()
    expect(ada.locator(".room-wait-title")).to_be_visible()
    bruno = join_from_the_start_page(open_page, server, code, "Bruno")
    chiara = join_from_the_start_page(open_page, server, code, "Chiara")
    expect(ada.locator(".targets-to-find")).to_contain_text("Words to find: RAIN, RIVER, WATER")
    shoot(ada, "01-pupil-words-to-find")
    others += join_by_post(browser, server, code, OTHERS)
    twice = join_by_post(browser, server, code, ["Bruno 2"])  # Bruno joined twice: the teacher removes one
    others += twice
    expect(laptop.locator(".room-players-title")).to_contain_text("11 players")

    # 2. round 1: a pupil reads the word list, another a meaning; round 2 brings both back to the board
    laptop.get_by_role("button", name="Start", exact=True).click()
    expect(ada.locator("#board.board-play")).to_be_visible(timeout=30_000)
    assert ada.evaluate("document.documentElement.scrollWidth") <= 390
    type_word(ada, "RIVER")
    expect(ada.locator(".targets-to-find .target-found")).to_have_text(["RIVER ✓"])
    shoot(ada, "02-pupil-board-round-1")
    assert serious_violations(ada) == [], "the phone's board page"
    find_words(server, code, others[:-1], words_on(ada))
    end_now(laptop)
    for pupil in (ada, bruno):
        expect(pupil.locator(".room-results")).to_be_visible(timeout=30_000)
    ada.get_by_role("link", name="See all words").click()
    expect(ada.locator(".word-table")).to_be_visible()
    shoot(ada, "02-pupil-all-words")
    word = a_listed_word_with_a_meaning(bruno, server)
    bruno.goto(f"{server}/define/en/{word}")
    expect(bruno.locator(".meaning")).to_be_visible()
    shoot(bruno, "02-pupil-meaning")
    laptop.get_by_role("button", name="Another round").click()
    laptop.get_by_role("button", name="Start round 2").click()
    for pupil in (ada, bruno):
        expect(pupil.locator("#board.board-play")).to_be_visible(timeout=30_000)
        assert pupil.url == f"{server}/rooms/{code}/play"
    shoot(ada, "02-pupil-back-on-round-2")

    # 3. the teacher renames a pupil: her phone shows it at its next poll, mid-round
    laptop.locator("#manage > summary").click()
    player_row(laptop, "Chiara").get_by_label("New name for Chiara").fill("Chiara B.")
    player_row(laptop, "Chiara").get_by_role("button", name="Rename").click()
    expect(chiara.locator("#member-name")).to_have_text("Chiara B.", timeout=10_000)
    expect(chiara.locator("#board.board-play")).to_be_visible()
    shoot(chiara, "03-pupil-renamed")

    # 4. the laptop crashes; the teacher's phone takes the lesson over through the remote link
    laptop.context.close()
    teacher = phone(open_page)
    teacher.goto(remote_url)
    expect(teacher).to_have_url(f"{server}/rooms/{code}/remote")
    teacher.get_by_role("link", name="Open the full host view").click()
    expect(teacher.locator("#game.room-playing")).to_be_visible()
    teacher.locator("#manage > summary").click()
    width = teacher.evaluate("document.documentElement.scrollWidth")
    timings["host view's scrollWidth on the phone (px)"] = [width]
    assert width <= 390, f"the host view is {width} px wide on a 390 px phone"
    shoot(teacher, "04-phone-full-host-view")
    teacher.goto(remote_url)
    teacher.get_by_role("link", name="Players: rename, extra time, remove").click()
    expect(teacher).to_have_url(f"{server}/rooms/{code}/remote/players")
    assert serious_violations(teacher) == [], "the remote's players page"
    player_row(teacher, "Bruno").first.get_by_label("New name for Bruno").fill("Bruno M.")
    player_row(teacher, "Bruno").first.get_by_role("button", name="Rename").click()
    expect(bruno.locator("#member-name")).to_have_text("Bruno M.", timeout=10_000)
    player_row(teacher, "Ada").get_by_label("Extra seconds").fill("30")
    player_row(teacher, "Ada").get_by_role("button", name="Set", exact=True).click()
    expect(player_row(teacher, "Ada")).to_contain_text("+30 s each round, until you reset it")
    shoot(teacher, "04-remote-players-renamed-extra-time")
    player_row(teacher, "Bruno 2").get_by_role("link", name="Remove Bruno 2").click()
    expect(teacher.get_by_role("heading", level=1)).to_have_text(f"Remove Bruno 2 from room {code}?")
    shoot(teacher, "04-remote-remove-asks")
    teacher.get_by_role("button", name="Remove Bruno 2").click()
    expect(teacher).to_have_url(f"{server}/rooms/{code}/remote/players")
    expect(teacher.locator("ul.room-manage").first.locator(".nickname")).to_have_count(10)
    old_code = chiara.locator(".rejoin").get_attribute("data-rejoin-code")
    chiara.context.close()  # Chiara's phone runs out of battery: the teacher lets her back in on another
    player_row(teacher, "Chiara B.").get_by_role("button", name="Let back in").click()
    new_code = player_row(teacher, "Chiara B.").locator("details.rejoin-code[open] strong")
    expect(new_code).to_have_text(re.compile(r"^[A-Z0-9]{4,8}$"))
    assert new_code.inner_text() != old_code
    shoot(teacher, "04-remote-let-back-in")
    chiara = phone(open_page)
    chiara.goto(f"{server}/rooms/{code}")
    chiara.fill("#nickname", "Chiara B.")
    chiara.get_by_text("Were you in this room on another phone?").click()
    chiara.fill("#code", new_code.inner_text())
    chiara.get_by_role("button", name="Join", exact=True).click()
    expect(chiara.locator("#board.board-play")).to_be_visible()
    expect(chiara.locator("#member-name")).to_have_text("Chiara B.")
    stranger = open_page(**PHONE_AT_SCHOOL)
    answer = stranger.goto(f"{server}/rooms/{code}/host")
    assert answer is not None and answer.status == 403
    expect(stranger.locator("main")).to_contain_text("Open the room's remote link in this browser")
    shoot(stranger, "04-host-url-elsewhere-403")

    # the classroom's computer, restarted, opens the remote link: the projector shows the host view again
    projector = open_page(**PROJECTOR)
    projector.goto(remote_url)
    expect(projector.locator("#game.room-playing")).to_be_visible()
    find_words(server, code, playing(others, bruno, chiara), words_on(projector))

    # 5. the round ends; extra time given afterwards leaves that round as it was
    teacher.get_by_role("link", name="Back to the remote").click()
    end_now(teacher)
    expect(teacher.locator(".remote-status")).to_contain_text("Round over")
    expect(projector.locator(".podium")).to_be_visible(timeout=30_000)
    expect(projector.locator(".room-still-playing")).to_have_count(0)
    podium = projector.locator(".room-podium-side").inner_text()
    shoot(projector, "05-projector-podium-round-2", full_page=False)
    teacher.get_by_role("link", name="Players: rename, extra time, remove").click()
    player_row(teacher, "Bruno M.").get_by_label("Extra seconds").fill("45")
    player_row(teacher, "Bruno M.").get_by_role("button", name="Set", exact=True).click()
    expect(teacher.locator(".notice-extra-time")).to_contain_text(
        "Bruno M.'s round is over and stays as it was: the 45 s extra time starts with the next round"
    )
    expect(teacher.locator("main")).to_contain_text("Extra time lasts for every later round, until you reset it")
    expect(player_row(teacher, "Bruno M.")).to_contain_text("+45 s each round, until you reset it")
    shoot(teacher, "05-remote-extra-time-after-the-end")
    projector.reload()
    expect(projector.locator(".podium")).to_be_visible()
    expect(projector.locator(".room-still-playing")).to_have_count(0)
    assert projector.locator(".room-podium-side").inner_text() == podium, "the podium changed"
    expect(bruno.locator(".room-results")).to_be_visible()

    # 6. the remote link is replaced while another device holds it: that device's next action is refused
    teacher.get_by_role("link", name="Back to the remote").click()
    teacher.get_by_role("link", name="Open the full host view").click()
    teacher.locator("#remote > summary").click()
    teacher.get_by_label("I understand: the old link stops working, on every device that opened it.").check()
    teacher.get_by_role("button", name="New remote link").click()
    new_remote = teacher.locator("#remote [data-remote-url]").first
    expect(new_remote).not_to_have_attribute("data-remote-url", remote_url)
    remote_url = new_remote.get_attribute("data-remote-url")
    expect(projector.locator("body")).to_contain_text(f"Only the host of room {code}", timeout=30_000)  # its poll
    shoot(projector, "06-projector-old-link-refused", full_page=False)
    refused = projector.context.request.post(f"{server}/rooms/{code}/lock", max_redirects=0)  # its Lock button's form
    assert refused.status == 403 and f"Only the host of room {code}" in refused.text()
    projector.goto(remote_url)  # the teacher opens the new link on the classroom's computer
    expect(projector.locator("#game.room-over")).to_be_visible()

    # 7. five rounds with ten players: the ranking on the projector whole, no text under 18 px
    for _ in range(3, ROUNDS + 1):
        post(projector.context, f"{server}/rooms/{code}/rounds")
        post(projector.context, f"{server}/rooms/{code}/start")
        projector.goto(f"{server}/rooms/{code}/host")  # the stage polls its way from the 3-2-1 to the round
        expect(projector.locator("#game.room-playing")).to_be_visible(timeout=30_000)
        find_words(server, code, playing(others, ada, bruno, chiara), words_on(projector))
        post(projector.context, f"{server}/rooms/{code}/end")
    projector.goto(f"{server}/rooms/{code}/host")
    expect(projector.locator("#podium-title")).to_have_text(f"After {ROUNDS} rounds")
    expect(projector.locator("#leaderboard .rank-line")).to_have_count(10)
    ranking = projector.evaluate(RANKING_ON_SCREEN)
    timings["projector after 5 rounds: rows on screen, scrollHeight (px)"] = [ranking["shown"], ranking["scrollHeight"]]
    shoot(projector, "07-projector-after-5-rounds", full_page=False)
    assert ranking == {**ranking, "rows": 10, "shown": 10}, ranking
    assert ranking["scrollHeight"] <= PROJECTOR["viewport"]["height"], ranking
    text = projector.evaluate(SMALL_TEXT, MIN_PROJECTED_PX)
    assert text["small"] == [], text
    smallest = [text["smallest"]]
    for step in range(1, 5):
        projector.goto(f"{server}/rooms/{code}/projector?step={step}")
        expect(projector.locator("#walk")).to_have_attribute("data-step", str(step))
        text = projector.evaluate(SMALL_TEXT, MIN_PROJECTED_PX)
        smallest.append(text["smallest"])
        assert text["small"] == [], (step, text)
        if step == 1:
            shoot(projector, "07-projector-walk-through", full_page=False)
    timings["projector: smallest text (px), results then walk-through steps 1-4"] = smallest

    # 8. names hidden on the projector: the podium's heading says what it shows, whole
    teacher.goto(f"{server}/rooms/{code}/remote/players")
    teacher.select_option("#names", "none")
    teacher.locator(".room-names").get_by_role("button", name="Set", exact=True).click()
    expect(teacher.locator("#names")).to_have_value("none")
    projector.goto(f"{server}/rooms/{code}/host")
    expect(projector.locator(".podium-name")).to_have_count(0)
    heading = projector.locator("#podium-title")
    expect(heading).to_have_text(f"After {ROUNDS} rounds")
    assert not heading.evaluate(CUT), "the podium's heading is cut or off the screen"
    shoot(projector, "08-projector-names-hidden", full_page=False)

    # 9. the results' CSV from the host's browser: no field starts a formula, whichever separator splits it
    teacher.goto(f"{server}/rooms/{code}/remote")
    with teacher.expect_download() as download:
        teacher.get_by_role("link", name="Results (CSV)").click()
    body = Path(download.value.path()).read_bytes()
    for separator in (",", ";"):
        fields = csv_fields(body, separator)
        assert any("cmd" in field for field in fields), "the pupil's name is in the file"
        assert [field for field in fields if field.startswith(FORMULA_STARTS)] == [], separator
    shoot(teacher, "09-remote-results")
