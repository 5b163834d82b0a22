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
