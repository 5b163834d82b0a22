"""Shared fixtures: the demo boards, the built-in English dictionary, a tiny hand-written lexicon, the stores (and a
full disk under SQLite's); the markers that the fast loop leaves out (`bash tools/test.sh --fast`)."""

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir
from sqlalchemy import event

from ruzzle import Board, Lexicon
from store import Store
from store.schema import metadata

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "ruzzle" / "data" / "demo"
LANGUAGE_CODES = ["de", "en", "es", "fr", "it", "nl", "pt"]


def pytest_configure(config) -> None:
    """Nothing a run writes goes into the working copy: every app this run makes, in this process and in the servers
    it starts, keeps its instance folder (the default store, the generated key, the compiled templates) in a
    temporary folder, and so does Hypothesis its own (.hypothesis/). The compiled templates are kept between runs
    outside the working copy, as the compiled modules are (tools/test.sh): compiling them took each test process a
    second before its first test."""
    folder = Path(tempfile.mkdtemp(prefix="ruzzle-tests-"))
    os.environ["RUZZLE_INSTANCE_PATH"] = str(folder / "instance")
    cache_home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    os.environ.setdefault("RUZZLE_TEMPLATE_CACHE", str(cache_home / "ruzzle" / "jinja"))
    set_hypothesis_home_dir(folder / "hypothesis")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


# --- Hypothesis: every example in CI, a tenth of them in the fast loop ------------------------------------------------

# RUZZLE_HYPOTHESIS_PROFILE=fast (what `tools/test.sh --fast` sets) or ci (the default, and what CI runs). Neither has
# a deadline: a test's speed is no behaviour (bench/ measures speed), and on a machine shared by several runs an
# example that waits for a core once failed CI as "unreliable test timings". Neither keeps a database of examples
# in the working copy: a failure prints what reproduces it (@reproduce_failure).
HYPOTHESIS_PROFILE = os.environ.get("RUZZLE_HYPOTHESIS_PROFILE", "ci")
settings.register_profile("ci", deadline=None, database=None, print_blob=True)
settings.register_profile("fast", max_examples=10, deadline=None, database=None, print_blob=True)
settings.load_profile(HYPOTHESIS_PROFILE)


def examples(count: int) -> int:
    """A property's number of examples: `count` in the ci profile, a tenth of it (at least 10) in the fast one."""
    return count if HYPOTHESIS_PROFILE == "ci" else max(10, count // 10)


# --- markers by fixture: what `tools/test.sh --fast` leaves out ---------------------------------------------------

# A test that uses one of these fixtures (itself or through another fixture) gets the marker. A test that starts a
# server or a cluster in its own body (tools.servers, tools.postgres) carries the marker itself.
MARKER_OF_FIXTURE = {
    "browser": "browser",  # Chromium driven by Playwright (page and open_page use it)
    "server": "server",  # gunicorn started as the README does
    "live_server": "server",
    "postgres": "postgres",  # the session's PostgreSQL cluster
}


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        for fixture, marker in MARKER_OF_FIXTURE.items():
            if fixture in fixtures:
                item.add_marker(marker)
        # database_url asks for the cluster only in its postgresql case (request.getfixturevalue)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("database_url") == "postgresql":
            item.add_marker("postgres")


@pytest.fixture(scope="session")
def english() -> Lexicon:
    """The built-in English dictionary."""
    return Lexicon.builtin("en")


@pytest.fixture(scope="session")
def en_demo() -> Board:
    """The real English Ruzzle board that elzzur ships as its demo."""
    return Board.parse((DEMO / "en.board").read_text(), language="en")


@pytest.fixture
def tiny() -> Lexicon:
    """A hand-written lexicon for rule tests."""
    return Lexicon.from_words(["at", "tea", "eat", "ate", "seat", "east", "eats", "teas", "sat", "set"])


# --- the store: SQLite in a temporary folder, or a database on a throwaway PostgreSQL cluster ----------------


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL cluster of its own for the test session (tools/postgres.py), stopped at the end."""
    from tools.postgres import postgres_cluster

    with postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    """An empty store of each kind: a SQLite file, then a fresh database on the session's PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture(scope="session")
def migrated_store(tmp_path_factory) -> Path:
    """A SQLite store migrated to the newest schema once per test process: each test's store is a copy of it (a
    migration from nothing took half of the time of making an app, and some 600 tests make one)."""
    path = tmp_path_factory.mktemp("migrated") / "store.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    store.dispose()
    return path


@pytest.fixture
def migrated_database_url(database_url, migrated_store) -> str:
    """A store of each kind (`database_url`), at the newest schema: the SQLite one a copy of the migrated file, the
    PostgreSQL one migrated by the app."""
    if database_url.startswith("sqlite:///"):
        return copy_of_migrated(migrated_store, Path(database_url.removeprefix("sqlite:///")))
    return database_url


# The stores made by copying the migrated one: at the newest schema and empty, so the app opens them without
# migrating or cleaning them (some 1,800 times a run).
MIGRATED_COPIES: set[str] = set()


def copy_of_migrated(migrated_store: Path, path: Path) -> str:
    """A fresh store at `path`, a copy of the migrated one; its URL."""
    shutil.copyfile(migrated_store, path)
    url = f"sqlite:///{path}"
    MIGRATED_COPIES.add(url)
    return url


# --- a full disk, for a SQLite store ------------------------------------------------------------------------------


class FullDisk:
    """A SQLite store whose database cannot grow, as on a full disk: every connection holds it at its size
    (PRAGMA max_page_count) and its free pages are taken, so a write that needs a page fails with SQLite's own
    "database or disk is full".

    On a real full disk every commit needs room (the write-ahead log grows), even one that changes a row in place;
    `every_write` stands in for that: a temporary trigger makes each insert or update of the store's tables keep a
    page of ballast, which the database has no room for.
    """

    PAGE = 4096  # SQLite's default page size, which the store keeps

    def __init__(self, store):
        self.store = store
        self.pages: int | None = None
        self.every_write = False
        event.listen(store.engine, "connect", self._hold)

    def fill(self, every_write: bool = True) -> None:
        """The disk fills up: from the next request on, the database cannot take another page."""
        with self.store.engine.connect() as connection:
            connection.exec_driver_sql("CREATE TABLE IF NOT EXISTS ballast (bytes BLOB)")
            connection.commit()
            self.pages = connection.exec_driver_sql("PRAGMA page_count").scalar()
        self.every_write = every_write
        self.store.engine.dispose()  # the pool's connections were opened before: new ones are held
        raw = self.store.engine.raw_connection()
        try:
            database = raw.driver_connection
            for size in (self.PAGE, 512, 64, 1):  # page by page, then the crumbs, until nothing fits
                while self._keeps(database, size):
                    pass
            assert database.execute("PRAGMA freelist_count").fetchone()[0] == 0
        finally:
            raw.close()

    def free(self) -> None:
        """Room again (the disk was cleaned up): new connections may grow the database."""
        self.pages = None
        self.store.engine.dispose()

    @staticmethod
    def _keeps(database, size: int) -> bool:
        """Whether the database still takes a row of ballast of this size."""
        try:
            database.execute("INSERT INTO ballast VALUES (zeroblob(?))", (size,))
        except sqlite3.OperationalError as error:
            assert error.sqlite_errorname == "SQLITE_FULL", error
            return False
        return True

    def _hold(self, dbapi_connection, _record) -> None:
        if self.pages is None:
            return
        dbapi_connection.execute(f"PRAGMA max_page_count = {self.pages}")
        for table in metadata.tables if self.every_write else ():
            for change in ("INSERT", "UPDATE"):
                dbapi_connection.execute(
                    f'CREATE TEMP TRIGGER IF NOT EXISTS "needs_room_{table}_{change}" AFTER {change} '
                    f'ON main."{table}" BEGIN INSERT INTO ballast VALUES (zeroblob({self.PAGE})); END'
                )


@pytest.fixture
def full_disk():
    """Makes a SQLite store's disk full (see FullDisk): `disk = full_disk(store); disk.fill(); ...; disk.free()`."""
    disks = []

    def on(store) -> FullDisk:
        disks.append(FullDisk(store))
        return disks[-1]

    yield on
    for disk in disks:
        event.remove(disk.store.engine, "connect", disk._hold)
