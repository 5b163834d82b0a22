"""Everyday spellings of board words: a board spells año AÑO, árbol ARBOL, Mädchen MADCHEN and Straße STRASSE, and a
link to the word's page needs the spelling the language writes.

Each language's spellings are a marisa BytesTrie, `dictionaries/spellings/<lang>.marisa` (board word -> UTF-8
spelling, only where it is not the lower-cased board word), written by `tools/build_dictionaries.py LANG --spellings`
from the dictionary's own sources; it is memory-mapped on first use, so that every worker shares one copy through the
page cache.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

import marisa_trie

from .errors import DictionaryError
from .languages import get_language
from .lexicon import DICTIONARY_DIR, load_once

SPELLINGS_DIR = Path(os.environ.get("RUZZLE_SPELLINGS", DICTIONARY_DIR / "spellings"))


class Spellings:
    """A language's everyday spellings of its board words, read from a memory-mapped file."""

    def __init__(self, trie: marisa_trie.BytesTrie):
        self._trie = trie

    @classmethod
    def from_mapping(cls, spellings: Mapping[str, str]) -> Spellings:
        """Spellings held in memory (board word -> spelling), as the build writes them."""
        return cls(marisa_trie.BytesTrie((word, spelling.encode("utf-8")) for word, spelling in spellings.items()))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Spellings:
        """Memory-map a built spellings file; DictionaryError if it is missing or damaged."""
        trie = marisa_trie.BytesTrie()
        try:
            trie.mmap(str(path))
        except Exception as error:  # marisa raises plain Exception on a missing or damaged file
            raise DictionaryError(f"spellings {path} cannot be opened ({error})") from None
        return cls(trie)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the spellings where `load` reads them."""
        self._trie.save(str(path))

    def spelling(self, word: str) -> str:
        """The everyday spelling of a board word (A-Z upper case): the stored one, else the word in lower case."""
        found = self._trie.get(word)
        return found[0].decode("utf-8") if found else word.lower()

    def items(self) -> Iterator[tuple[str, str]]:
        """Every stored (board word, spelling)."""
        return ((word, spelling.decode("utf-8")) for word, spelling in self._trie.items())

    def __len__(self) -> int:
        return len(self._trie)


@load_once
def builtin_spellings(code: str) -> Spellings | None:
    """The spellings shipped for a language code, mapped on first use; None where there are none."""
    path = SPELLINGS_DIR / f"{code}.marisa"
    return Spellings.load(path) if path.is_file() else None


def everyday_spelling(language: str, word: str) -> str:
    """How the language writes a board word (AÑO: año), from the shipped spellings; the word in lower case where the
    dictionary has no other spelling (UnknownLanguage for a code the game does not know)."""
    spellings = builtin_spellings(get_language(language).code)
    return spellings.spelling(word) if spellings else word.lower()
