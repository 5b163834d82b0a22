"""The classroom-safe filter: per language, the offensive words that are never accepted or shown.

The lists live in `data/blocklist/<lang>.txt` (one normalized word per line), built from the npm package
naughty-words (CC-BY-4.0) by `tools/build_blocklist.py`; `data/blocklist/README.md` says how and why.
"""

from __future__ import annotations

from .languages import get_language
from .lexicon import load_once, shipped_words


def blocked_words(language: str) -> frozenset[str]:
    """The language's offensive words, normalized A-Z upper case (read once per process)."""
    return _read_blocklist(get_language(language).code)


@load_once
def _read_blocklist(code: str) -> frozenset[str]:
    """The words of one shipped blocklist file."""
    return shipped_words(f"blocklist/{code}.txt")
