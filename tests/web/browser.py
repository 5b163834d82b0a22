"""The browser tests' shared helpers (Playwright on Chromium): axe-core's check, a slow network, typing and tracing
words, a room on the projector and phones joining it, timing what a page shows. Every test module imports them from
here, never from another test module."""

from __future__ import annotations

import re
import time
import weakref
from itertools import pairwise
from pathlib import Path

from playwright.sync_api import Page, expect

from ruzzle import Lexicon, generate
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution
from ruzzle.generator import LATEST_VERSION

from .conftest import SCREENSHOTS, tile_centre
from .helpers import SEED

# --- accessibility: axe-core, contrast --------------------------------------------------------------------------------

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1.min.js"


def serious_violations(page: Page) -> list:
    """What axe-core reports as serious or critical on the page as it is now."""
    # evaluated through the DevTools protocol: the page's own CSP (rightly) refuses an injected inline script
    page.evaluate(AXE.read_text() + "\n;0")
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        (violation["id"], violation["impact"], [node["target"] for node in violation["nodes"][:3]])
        for violation in result["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


def relative_luminance(rgb: tuple[float, ...]) -> float:
    channels = [c / 255 for c in rgb[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two computed CSS colours (rgb(...) strings)."""
    la, lb = (relative_luminance(tuple(float(x) for x in re.findall(r"[\d.]+", colour))) for colour in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


# --- a phone on a slow network, typing and tracing --------------------------------------------------------------------

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def slow_network(page: Page, latency_ms: int, offline: bool = False) -> None:
    """Every request of this page takes `latency_ms` longer, as on school Wi-Fi or a phone on 4G; `offline`, none
    gets through. (One CDP session per page: conditions sent through a second one do not replace the first's.)"""
    cdp = NETWORKS.get(page)
    if cdp is None:
        cdp = NETWORKS[page] = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": offline, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )


NETWORKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # page: the CDP session of its network


def type_word(page: Page, word: str, key_delay_ms: int = 70) -> None:
    """Type a word into the word box at a fast typist's pace and press Enter."""
    page.locator("#word").focus()
    page.keyboard.type(word.lower(), delay=key_delay_ms)
    page.keyboard.press("Enter")


def touch_drag(page: Page, path, step_ms: int = 15) -> None:
    """A finger pressed on the first tile, moved through the centre of each next one, lifted."""
    cdp = page.context.new_cdp_session(page)
    x, y = tile_centre(page, path[0])
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for a, b in pairwise(path):
        (x0, y0), (x1, y1) = tile_centre(page, a), tile_centre(page, b)
        for step in range(1, 5):
            point = {"x": x0 + (x1 - x0) * step / 4, "y": y0 + (y1 - y0) * step / 4}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
            page.wait_for_timeout(step_ms)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def wait_until_answered(page: Page, timeout_ms: int = 20_000) -> None:
    """Until no word is waiting or on its way (the list of words sent has none in flight)."""
    page.wait_for_function("() => !document.querySelector('#sent .sent-sending')", timeout=timeout_ms)


# --- a room: its board, its stages, phones joining it -----------------------------------------------------------------


def room_solution() -> Solution:
    """The room's board, solved here with the same package and dictionary as the server."""
    return Solution.of(generate("en", SEED, 4, 4, version=LATEST_VERSION), Lexicon.builtin("en"), blocked_words("en"))


def shoot(page: Page, name: str) -> None:
    """A screenshot of the stage, and axe-core's check of it: nothing serious, one h1."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"room-{name}.png"), full_page=True)
    assert serious_violations(page) == [], name
    assert page.locator("h1").count() == 1, name


def type_words(phone: Page, words: list[str]) -> None:
    for word in words:
        phone.locator("#word").press_sequentially(word, delay=40)
        phone.press("#word", "Enter")


PROJECTOR = {"viewport": {"width": 1024, "height": 768}}  # a classroom's projector at its most common size


FOLLOW = 3.0  # seconds within which a phone or the projector shows what the teacher pressed


# Notes in the page when `test` first gives something truthy: window.seen[name] = {at: epoch ms, value}. Measured
# where it happens, not when the test looks (a page's own observer, so an htmx swap is timed to the millisecond).
NOTE = """([name, limit]) => {
    const secs = text => { const [m, s] = text.trim().split(':').map(Number); return m * 60 + s; };
    const timer = () => document.querySelector('#timer');
    const test = () => (%s);
    window.seen = window.seen || {};
    delete window.seen[name];
    const check = observer => {
        let value; try { value = test(); } catch (error) { value = null; }
        if (value && !window.seen[name]) { window.seen[name] = {at: Date.now(), value: value}; observer.disconnect(); }
    };
    const observer = new MutationObserver(() => check(observer));
    observer.observe(document.documentElement, {subtree: true, childList: true, characterData: true, attributes: true});
    check(observer);
}"""


def seen(page: Page, name: str, pressed: float, timings: dict, within: float = FOLLOW) -> tuple[float, str]:
    """Seconds from the press (epoch s) until the page noted `name`, and what it saw; fails after `within` s."""
    page.wait_for_function(
        "name => window.seen && window.seen[name]", arg=name, timeout=(within + 3) * 1000
    )  # a little longer, to report how late it was
    mark = page.evaluate("name => window.seen[name]", name)
    delay = mark["at"] / 1000 - pressed
    timings.setdefault(name, []).append(round(delay, 2))
    assert delay <= within, f"{name}: {delay:.2f} s after the press ({page.url})"
    return delay, mark["value"]


def score(page: Page) -> int:
    return int(page.locator("#score .score").inner_text().replace(",", ""))


def open_room_on_projector(open_page, server: str, round_seconds: int) -> tuple[Page, str]:
    """The host opens a room on the test's board and shows it on a 1024x768 projector on a 100 ms network."""
    host = open_page(**PROJECTOR)
    answer = host.request.post(
        f"{server}/rooms",
        form={"language": "en", "size": "4x4", "time": str(round_seconds), "seed": SEED},
        max_redirects=0,
    )
    assert answer.status == 303, answer.text()
    slow_network(host, 100)
    host.goto(server + answer.headers["location"])
    return host, host.locator(".room-code").inner_text().strip()


def phone_on(open_page, **options) -> Page:
    phone = open_page(**{**PHONE, **options})
    slow_network(phone, 200)
    return phone


def join_on_phone(open_page, server: str, code: str, name: str) -> Page:
    phone = phone_on(open_page)
    phone.goto(f"{server}/rooms/{code}")
    phone.fill("#nickname", name)
    phone.get_by_role("button", name="Join", exact=True).click()
    expect(phone.locator(".room-wait-title")).to_be_visible()
    return phone


def press(page: Page, label: str) -> float:
    """Press a button of the page; the moment of the press (epoch s)."""
    pressed = time.time()
    page.get_by_role("button", name=label, exact=True).click()
    return pressed
