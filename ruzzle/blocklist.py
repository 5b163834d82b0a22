"""The classroom-safe filter: per language, the offensive words that are never accepted or shown.

The lists live in `data/blocklist/<lang>.txt` (one normalized word per line), built from the npm package
naughty-words (CC-BY-4.0) by `tools/build_blocklist.py`; `data/blocklist/README.md` says how and why.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from .errors import DictionaryError
from .languages import get_language
from .lexicon import normalize_word


def blocked_words(language: str) -> frozenset[str]:
    """The language's offensive words, normalized A-Z upper case (read once per process)."""
    return _read_blocklist(get_language(language).code)


@cache
def _read_blocklist(code: str) -> frozenset[str]:
    """The words of one shipped blocklist file; a line that is not a normalized word is a packaging bug."""
    text = resources.files(__package__).joinpath(f"data/blocklist/{code}.txt").read_text(encoding="utf-8")
    words = frozenset(line for line in text.splitlines() if line)
    damaged = sorted(word for word in words if normalize_word(word) != word)
    if damaged:
        raise DictionaryError(f"blocklist {code}.txt holds entries that are not words A-Z: {damaged[:5]}")
    return words
