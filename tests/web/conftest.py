"""Fixtures for the web tests: the app with a clock the test moves, its client, helpers to read pages."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import tempfile
from dataclasses import MISSING, fields, replace
from pathlib import Path

import pytest
from conftest import MIGRATED_COPIES, copy_of_migrated
from playwright.sync_api import Page, expect, sync_playwright

from app import create_app, open_store, solving
from tools.servers import gunicorn
from views.boards import BoardRequest, solve_board, solve_typed_board
from views.services import Services, services

HTMX = {"HX-Request": "true"}
START = 1_790_000_000  # a fixed moment (2026-09-21 UTC), so rounds and daily boards are reproducible


class Clock:
    """A clock that stands still until the test moves it."""

    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store_url(tmp_path, migrated_store) -> str:
    """The store of the `app` fixture: a fresh SQLite file in the test's folder, at the newest schema (tests that
    matter on both take `migrated_database_url`)."""
    path = tmp_path / "store.sqlite3"
    return copy_of_migrated(migrated_store, path)


@pytest.fixture(scope="session")
def shared_app(tmp_path_factory, migrated_store):
    """The app of this test process, made once (making one took a twentieth of a second, and compiling its routes and
    templates again for each of some 600 tests was a third of their time): each test gets it through `app`, with a
    store, a clock, settings and per-process state of its own.

    The per-client limits off: these tests play a whole class, or a whole board's words, from one address at the
    machine's speed, and whether they pass must not depend on how fast the machine runs them. The limits have their
    own tests, on a clock the test moves (test_abuse.py)."""
    folder = tmp_path_factory.mktemp("app")
    shutil.copyfile(migrated_store, folder / "store.sqlite3")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test key, not a secret",
            "CLOCK": Clock(),
            "DATABASE_URL": f"sqlite:///{folder / 'store.sqlite3'}",
            "RATELIMIT_ENABLED": False,
            "FRAMES_CHECKED": True,
        }
    )
    yield app
    services(app).store.dispose()


# A generated or typed board's solution, solved once per test process: each test's caches of solutions are its own
# (a test may count their misses) and call these. A test that watches boards being generated and solved forgets them
# first (forget_solutions).
solve_board_once = functools.lru_cache(maxsize=256)(solve_board)
solve_typed_board_once = functools.lru_cache(maxsize=256)(solve_typed_board)


def forget_solutions() -> None:
    """Forget the boards this process has solved for the tests: the next request for one generates and solves it."""
    solve_board_once.cache_clear()
    solve_typed_board_once.cache_clear()


@contextlib.contextmanager
def one_tests_app(app, clock, store_url, instance: Path):
    """The shared app as one test sees it: its own store (at store_url, opened and cleaned as the app opens its store),
    clock and instance folder, a fresh copy of every per-process state (the solving budget, the caches of solutions,
    rankings and results); afterwards the app's settings and state are as before, whatever the test changed."""
    settings, instance_path, shared = dict(app.config), app.instance_path, services(app)
    app.config.update(CLOCK=clock, DATABASE_URL=store_url, MIGRATE_ON_START=store_url not in MIGRATED_COPIES)
    app.instance_path = str(instance)
    store, cleanup = open_store(app)
    fresh = {each.name: each.default_factory() for each in fields(Services) if each.default_factory is not MISSING}
    replace(
        shared, store=store, cleanup=cleanup, **solving(app, solve_board_once, solve_typed_board_once), **fresh
    ).install(app)
    try:
        yield app
    finally:
        store.dispose()
        shared.install(app)
        app.config.clear()
        app.config.update(settings)
        app.instance_path = instance_path


@pytest.fixture
def app(shared_app, clock, tmp_path, store_url):
    with one_tests_app(shared_app, clock, store_url, tmp_path / "instance") as app:
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def exact_ranking(app):
    """The ranking as it is at each request (the servers' one-second cache has a test of its own); a module that
    compares rankings takes it for every test (`pytestmark = pytest.mark.usefixtures("exact_ranking")`)."""
    app.config["ROOM_RANKING_SECONDS"] = 0


@functools.cache
def reference_app():
    """An app made once per process, for what a test module needs to know when it is collected (the routes, the
    languages loaded); its store is the run's temporary instance folder's (tests/conftest.py)."""
    return create_app({"TESTING": True, "SECRET_KEY": "reference app, not a secret"})


def loaded_languages() -> list[str]:
    """The languages whose dictionaries the app has loaded on this machine (the others are not playable here)."""
    return sorted(reference_app().extensions["ruzzle.lexicons"])


def solution_of(app, language="en", seed="TESTS2", size="4x4", safe=True):
    """The solution the app serves for a board URL (the solver itself is tested in tests/test_solver.py)."""
    with app.test_request_context():
        query = {"size": size} if safe else {"size": size, "safe": "0"}
        return BoardRequest.from_url(language, seed, query).solution()


def path_text(path) -> str:
    """A path as the page posts it: `r,c r,c ...`."""
    return " ".join(f"{r},{c}" for r, c in path)


def cells_in_order(html: str) -> list[tuple[int, int]]:
    """The highlighted cells of the board markup, in the order of their step numbers."""
    steps = re.findall(
        r'<td data-cell="(\d+),(\d+)" class="[^"]*on-path[^"]*">.*?<span class="tile-step">(\d+)</span>',
        html,
        flags=re.S,
    )
    return [(int(r), int(c)) for r, c, _ in sorted(steps, key=lambda s: int(s[2]))]


def result_path(html: str) -> list[tuple[int, int]]:
    """The path a result region gives the board to draw (its data-path: a word's answer draws no board)."""
    found = re.search(r'<section id="result"[^>]* data-path="([^"]*)"', html)
    assert found is not None, "no result region with a path"
    return [(int(r), int(c)) for r, c in (cell.split(",") for cell in found.group(1).split())]


# --- the browser tests: gunicorn as the README runs it, Debian's Chromium driven by Playwright -------------

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# <screenshots>, where the browser tests leave pages for a person to look at: RUZZLE_SCREENSHOTS, else a folder in the
# system's temporary folder (a test writes nothing into the working copy). `RUZZLE_SCREENSHOTS=build/screenshots`
# keeps them beside the code (build/ is ignored by git).
SCREENSHOTS = Path(os.environ.get("RUZZLE_SCREENSHOTS") or Path(tempfile.gettempdir()) / "ruzzle-screenshots").resolve()


@pytest.fixture(scope="session")
def server():
    with gunicorn(workers=2) as url:
        yield url


# The longest an `expect` waits for what the page says before it fails (Playwright's default is 5 s). A page answers in
# milliseconds on a quiet machine, and an assertion that holds returns as soon as it does; on CI's two shared cores,
# beside a test process solving a 12x12 board, the same page took longer than 5 s. Only a failing test waits longer.
EXPECT_TIMEOUT_MS = 20_000
expect.set_options(timeout=EXPECT_TIMEOUT_MS)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (tools/test.sh does it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    """Open pages in fresh browser contexts; the test fails if any console reports a CSP violation or an error."""
    problems: list[str] = []
    contexts = []

    def open_(**context_options) -> Page:
        context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **context_options})
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                problems.append(message.text)
                if message.type == "error" or "Content Security Policy" in message.text
                else None
            ),
        )
        page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        return page

    allowed: list[str] = []
    open_.allow = allowed.append  # a test that drops requests on purpose allows the console's report of them
    yield open_
    for context in contexts:
        context.close()
    problems = [problem for problem in problems if not any(text in problem for text in allowed)]
    assert problems == [], f"browser console: {problems}"


@pytest.fixture
def timings():
    """What the test measured, name: seconds after each press; printed at the end (pytest -rP shows it)."""
    measured: dict[str, list[float]] = {}
    yield measured
    print("\n".join(f"{name}: {delays}" for name, delays in measured.items()))


@pytest.fixture
def page(open_page) -> Page:
    """A page in a fresh 1280x900 browser context, watched for CSP violations and errors."""
    return open_page()


def tile_centre(page: Page, cell: tuple[int, int]) -> tuple[float, float]:
    """Where a finger presses a tile. An answer may swap the board in between finding the tile and measuring it (the
    old tile is then gone: no box), so the tile is found and measured again until one holds still long enough."""
    tile = page.locator(f'#board td[data-cell="{cell[0]},{cell[1]}"]')
    for _ in range(20):
        tile.wait_for(state="visible")
        box = tile.bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    raise AssertionError(f"the tile {cell} never held still long enough to be measured")


def drag(page: Page, path, steps: int = 6) -> None:
    """Press on the first tile, move through the centre of each next one in small steps, release."""
    x, y = tile_centre(page, path[0])
    page.mouse.move(x, y)
    page.mouse.down()
    for cell in path[1:]:
        x, y = tile_centre(page, cell)
        page.mouse.move(x, y, steps=steps)
    page.mouse.up()


def highlighted_path(page: Page) -> list[tuple[int, int]]:
    """The cells marked on the board, in the order of their numbers."""
    cells = page.locator("#board td.on-path")
    marked = []
    for i in range(cells.count()):
        cell = cells.nth(i)
        row, col = map(int, cell.get_attribute("data-cell").split(","))
        marked.append((int(cell.locator(".tile-step").inner_text()), (row, col)))
    return [cell for _, cell in sorted(marked)]
