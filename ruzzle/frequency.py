"""Common and rare words: per language, the dictionary words a player meets often (from wordfreq).

The lists live in `data/frequency/<lang>.txt` (one normalized word per line), written by
`tools/build_frequencies.py` from wordfreq 3.1.1; `data/frequency/README.md` says how and why. A word of the
built-in dictionary that is not listed is rare.
"""

from __future__ import annotations

from .languages import get_language
from .lexicon import load_once, shipped_words


def common_words(language: str) -> frozenset[str]:
    """The language's common words, normalized A-Z upper case (read once per process)."""
    return _read_common(get_language(language).code)


def is_common(language: str, word: str) -> bool:
    """Whether a board word is one of the language's common words."""
    return word in common_words(language)


@load_once
def _read_common(code: str) -> frozenset[str]:
    return shipped_words(f"frequency/{code}.txt")
