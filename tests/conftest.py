"""Shared fixtures: the demo boards, the built-in English dictionary, a tiny hand-written lexicon."""

from pathlib import Path

import pytest

from ruzzle import Board, Lexicon

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "ruzzle" / "data" / "demo"
LANGUAGE_CODES = ["de", "en", "es", "fr", "it", "nl", "pt"]


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
