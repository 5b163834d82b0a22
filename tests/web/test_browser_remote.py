"""A lesson from the teacher's phone alone, in Debian's Chromium at 390x844 on a 250 ms network: the remote's players
page renames, gives extra time (said to last until reset) and resets it, lets back in, removes after asking, undoes,
and sets the names the projector shows; the full host view on the same phone fits its 390 px in every stage (no
sideways scroll, names whole or wrapped between words, controls of 44 px); a new browser on the host URL is told how
to become host again. Screenshots go to <screenshots>/room-remote-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .browser import PHONE, join_on_phone, serious_violations, shoot, slow_network
from .helpers import SEED

MOBILE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36"
)
TEACHERS_PHONE = {**PHONE, "user_agent": MOBILE_UA}
LATENCY_MS = 250

# What a thumb cannot use on the page as it is now: controls under 44 px either way (inline links inside a sentence
# aside, as WCAG 2.5.8 sets them aside; the site's header is the site's), and names broken inside a word.
SMALL_TARGETS = """() => [...document.querySelectorAll('main a[href], main button, main input, main select, ' +
    'main summary')]
    .filter(e => e.offsetParent && !(e.closest('details:not([open])') && !e.matches('details > summary')))
    .filter(e => !(e.matches('a') && e.closest('p') && !e.matches('.button')))
    .map(e => [e.textContent.trim().slice(0, 30) || e.name, Math.round(e.getBoundingClientRect().width),
               Math.round(e.getBoundingClientRect().height)])
    .filter(([name, width, height]) => width < 44 || height < 44)"""
# a name is broken inside a word when a line of it ends without a space, hyphen or the name's end
BROKEN_NAMES = """() => [...document.querySelectorAll('.podium-name, .nickname')]
  .filter(e => e.offsetParent).filter(e => {
    const range = document.createRange(), text = e.firstChild; if (!text || !text.length) return false;
    let top = null;
    for (let i = 0; i < text.length; i++) {
        range.setStart(text, i); range.setEnd(text, i + 1);
        const y = range.getBoundingClientRect().top;
        if (top !== null && y > top + 2 && !/[\\s-]/.test(text.data[i - 1]) && !/\\s/.test(text.data[i])) return true;
        top = y;
    }
    return false;
}).map(e => e.textContent)"""


def fits_the_phone(page: Page, name: str, widths: dict) -> None:
    """The page scrolls only downwards, every name is whole or wrapped between words, every control is 44 px."""
    widths[name] = page.evaluate("document.documentElement.scrollWidth")
    assert widths[name] <= 390, (name, widths[name])
    assert page.evaluate(BROKEN_NAMES) == [], name
    assert page.evaluate(SMALL_TARGETS) == [], name


def player_row(page: Page, name: str):
    return page.locator(".room-manage li").filter(has=page.locator(".nickname", has_text=name))


def test_a_whole_lesson_from_the_teachers_phone(open_page, server, timings):
    open_page.allow("status of 403")  # the host URL in a new browser is a 403 page
    phone = open_page(**TEACHERS_PHONE)
    slow_network(phone, LATENCY_MS)
    answer = phone.request.post(
        f"{server}/rooms", form={"language": "en", "size": "4x4", "time": "20", "seed": SEED}, max_redirects=0
    )
    phone.goto(server + answer.headers["location"])
    code = phone.locator(".room-code").inner_text().strip()
    remote_url = phone.locator("[data-remote-url]").first.get_attribute("data-remote-url")
    pupils = {name: join_on_phone(open_page, server, code, name) for name in ("Ada Lovelace-Byron", "Bruno")}
    for pupil in pupils.values():
        slow_network(pupil, LATENCY_MS)
    widths: dict[str, int] = {}

    # the remote and its players page
    phone.goto(remote_url)
    expect(phone).to_have_url(f"{server}/rooms/{code}/remote")
    expect(phone.locator(".remote-status")).to_contain_text("2 players in the room", timeout=10000)
    shoot(phone, "remote-lobby")
    fits_the_phone(phone, "remote", widths)
    phone.get_by_role("link", name="Players: rename, extra time, remove").click()
    expect(phone).to_have_url(f"{server}/rooms/{code}/remote/players")

    # rename
    player_row(phone, "Bruno").get_by_label("New name for Bruno").fill("Bruno M.")
    player_row(phone, "Bruno").get_by_role("button", name="Rename").click()
    expect(phone.locator(".room-manage .nickname")).to_have_text(["Ada Lovelace-Byron", "Bruno M."])
    # extra time, said to last until reset, then reset
    player_row(phone, "Ada").get_by_label("Extra seconds").fill("30")
    player_row(phone, "Ada").get_by_role("button", name="Set", exact=True).click()
    expect(phone.locator(".notice-extra-time")).to_contain_text("from this one, until you reset it")
    expect(player_row(phone, "Ada")).to_contain_text("+30 s each round, until you reset it")
    shoot(phone, "remote-players")
    fits_the_phone(phone, "remote players", widths)
    player_row(phone, "Ada").get_by_role("button", name="Reset the extra time of Ada Lovelace-Byron").click()
    expect(phone.locator(".notice-extra-time")).to_contain_text("no extra time any more")
    expect(player_row(phone, "Ada")).not_to_contain_text("each round")
    # let back in
    player_row(phone, "Bruno").get_by_role("button", name="Let back in").click()
    expect(phone).to_have_url(re.compile(rf"/rooms/{code}/remote/players\?shown=\d+$"))
    expect(player_row(phone, "Bruno").locator(".rejoin-code[open]")).to_contain_text("takes their seat back")
    # names on the projector
    phone.select_option("#names", "top3")
    phone.locator(".room-names").get_by_role("button", name="Set", exact=True).click()
    expect(phone.locator("#names")).to_have_value("top3")
    phone.select_option("#names", "all")
    phone.locator(".room-names").get_by_role("button", name="Set", exact=True).click()
    # remove asks first; cancel keeps the pupil; remove, then undo
    player_row(phone, "Bruno").get_by_role("link", name="Remove Bruno M.").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text(f"Remove Bruno M. from room {code}?")
    shoot(phone, "remote-remove-question")
    fits_the_phone(phone, "the removal's question", widths)
    phone.get_by_role("link", name="Cancel: keep Bruno M.").click()
    expect(phone.locator(".room-manage .nickname")).to_have_count(2)
    player_row(phone, "Bruno").get_by_role("link", name="Remove Bruno M.").click()
    phone.get_by_role("button", name="Remove Bruno M.").click()
    expect(phone.locator(".room-manage .nickname").first).to_have_text("Ada Lovelace-Byron")
    expect(pupils["Bruno"].get_by_text(f"The teacher removed this device from room {code}.")).to_be_visible(
        timeout=10000
    )
    phone.get_by_role("button", name="Undo the removal of Bruno M.").click()
    expect(phone.locator("ul.room-manage").first.locator(".nickname")).to_have_text(["Ada Lovelace-Byron", "Bruno M."])
    assert serious_violations(phone) == []

    # the full host view on the same phone: every stage fits 390 px
    phone.get_by_role("link", name="Back to the remote").click()
    phone.get_by_role("link", name="Open the full host view").click()
    expect(phone.locator("#game.room-waiting")).to_be_visible()
    shoot(phone, "remote-host-lobby")
    fits_the_phone(phone, "host view: lobby", widths)
    phone.get_by_role("button", name="Start", exact=True).click()
    expect(phone.locator("#game.room-playing")).to_be_visible(timeout=15000)
    phone.locator("#manage > summary").click()
    shoot(phone, "remote-host-playing")
    fits_the_phone(phone, "host view: playing, players' tools open", widths)
    expect(phone.locator(".podium")).to_be_visible(timeout=40000)
    shoot(phone, "remote-host-podium")
    fits_the_phone(phone, "host view: podium", widths)

    # extra time after the end: the round stays over, and the page says so
    if phone.locator("#manage[open]").count() == 0:
        phone.locator("#manage > summary").click()
    row = phone.locator("#manage .room-manage li").filter(has=phone.locator(".nickname", has_text="Bruno"))
    row.get_by_label("Extra seconds").fill("45")
    row.get_by_role("button", name="Set", exact=True).click()
    expect(phone.locator(".notice-extra-time")).to_contain_text(
        "Bruno M.'s round is over and stays as it was: the 45 s extra time starts with the next round"
    )
    expect(phone.locator(".room-still-playing")).to_have_count(0)

    # another browser on the host URL is told how to become host again
    stranger = open_page(**PHONE)
    slow_network(stranger, LATENCY_MS)
    stranger.goto(f"{server}/rooms/{code}/host")
    expect(stranger.locator("main")).to_contain_text("Open the room's remote link in this browser")
    timings["scrollWidth at 390 px"] = list(widths.values())
    print(widths)
