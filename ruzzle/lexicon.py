"""Dictionaries: a set of words A-Z in a MARISA trie, loaded from a compiled `.marisa` file or plain text."""

from __future__ import annotations

import functools
import os
import re
import threading
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import TypeVar

import marisa_trie

from .errors import DictionaryError
from .languages import get_language
from .nodes import NodeTable

MARISA_MAGIC = b"We love Marisa."
# Letters that Unicode NFKD does not decompose into A-Z on its own.
_LIGATURES = str.maketrans(
    {"ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L"}
)
_WORD = re.compile(r"[A-Z]+")
DICTIONARY_DIR = Path(os.environ.get("RUZZLE_DICTIONARIES", Path(__file__).resolve().parent.parent / "dictionaries"))


def normalize_word(text: str) -> str | None:
    """The word as a board spells it (NFKD, accents dropped, upper case), or None if it is not A-Z."""
    folded = unicodedata.normalize("NFKD", text.strip().translate(_LIGATURES))
    word = "".join(ch for ch in folded if not unicodedata.combining(ch)).upper()
    return word if _WORD.fullmatch(word) else None


def normalize_words(entries: Iterable[str]) -> set[str]:
    """The distinct normalized words of a list; entries that are not A-Z after normalizing are dropped."""
    return {word for word in map(normalize_word, entries) if word is not None}


class Lexicon:
    """A read-only set of words that also answers "does any word start with this prefix?"."""

    def __init__(self, trie: marisa_trie.Trie, source: str = "<memory>", nodes: NodeTable | None = None):
        self._trie = trie
        self.source = source
        self._nodes = nodes

    @classmethod
    def from_words(cls, words: Iterable[str], source: str = "<memory>") -> Lexicon:
        """A lexicon of these words, normalized; entries that are not words A-Z are dropped."""
        return cls(marisa_trie.Trie(sorted(normalize_words(words))), source)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Lexicon:
        """Open a compiled `.marisa` file (memory-mapped) or read a plain text list, one word per line."""
        path = Path(path)
        try:
            with path.open("rb") as file:
                head = file.read(len(MARISA_MAGIC))
        except FileNotFoundError:
            raise DictionaryError(f"dictionary file not found: {path}") from None
        except OSError as error:
            raise DictionaryError(f"cannot read dictionary {path}: {error.strerror}") from None
        if head == MARISA_MAGIC:
            trie = _mmap_trie(path)
            nodes = NodeTable.open(nodes_path(path), len(trie), path.stat().st_size)
            lexicon = cls(trie, str(path), nodes)
        else:
            lexicon = cls.from_words(_read_lines(path), str(path))
        if len(lexicon) == 0:
            raise DictionaryError(f"dictionary {path} holds no words A-Z")
        return lexicon

    @classmethod
    def builtin(cls, language: str) -> Lexicon:
        """The dictionary shipped for a language (`dictionaries/<code>.marisa`)."""
        return cls.load(builtin_dictionary_path(language))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the lexicon as a compiled `.marisa` file, with its node table beside it (`.nodes`)."""
        path = Path(path)
        self._trie.save(str(path))
        self.nodes.save(nodes_path(path), len(self._trie), path.stat().st_size)

    @property
    def nodes(self) -> NodeTable:
        """The flat trie the solver steps through: memory-mapped if saved beside the file, else built once."""
        if self._nodes is None:
            self._nodes = NodeTable.build(self._trie.keys())
        return self._nodes

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self._trie

    def has_prefix(self, prefix: str) -> bool:
        """Whether some word starts with this prefix (the prefix itself counts)."""
        return next(self._trie.iterkeys(prefix), None) is not None

    def words_with_prefix(self, prefix: str) -> list[str]:
        """Every word that starts with this prefix (the prefix itself included), sorted."""
        return sorted(self._trie.keys(prefix))

    def __len__(self) -> int:
        return len(self._trie)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._trie.keys()))

    def __repr__(self) -> str:
        return f"<Lexicon {self.source} ({len(self)} words)>"


def nodes_path(path: Path) -> Path:
    """Where a compiled dictionary's node table lives: `en.marisa` -> `en.nodes`, `words.v1` -> `words.v1.nodes`."""
    return path.with_suffix(".nodes") if path.suffix == ".marisa" else path.with_name(path.name + ".nodes")


def builtin_dictionary_path(language: str) -> Path:
    """Where the built-in dictionary of a language lives; DictionaryError if it is not built."""
    code = get_language(language).code
    path = DICTIONARY_DIR / f"{code}.marisa"
    if not path.is_file():
        raise DictionaryError(f"no built-in dictionary for {code!r} yet (looked for {path})")
    return path


def _mmap_trie(path: Path) -> marisa_trie.Trie:
    """Memory-map a compiled trie, so that every process shares one copy through the page cache."""
    trie = marisa_trie.Trie()
    try:
        trie.mmap(str(path))
    except Exception as error:  # marisa raises plain Exception/RuntimeError on a damaged file
        raise DictionaryError(f"dictionary {path} is not a valid .marisa file ({error})") from None
    return trie


def _read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 text file (BOM allowed)."""
    try:
        return path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError:
        raise DictionaryError(f"dictionary {path} is neither a .marisa file nor UTF-8 text") from None


T = TypeVar("T")


def load_once(load: Callable[..., T]) -> Callable[..., T]:
    """functools.cache for a loader of shipped data that many threads may ask for at the same moment: the first one
    loads, the others wait for it and take what it kept, instead of each reading and checking the whole file (a cold
    worker's 48 threads each read the common words at once as a school's round ended: seconds of every request's
    time, bench/rooms.py)."""
    kept: dict[tuple[Hashable, ...], T] = {}
    lock = threading.RLock()  # (a loader may ask for itself with other arguments)

    @functools.wraps(load)
    def loaded(*args: Hashable) -> T:
        try:
            return kept[args]
        except KeyError:
            pass
        with lock:
            if args not in kept:
                kept[args] = load(*args)
            return kept[args]

    return loaded


def shipped_words(name: str) -> frozenset[str]:
    """The words of a word list shipped in the package (`data/<name>`, one normalized word per line); a line
    that is not a normalized word is a packaging bug, said with the file's name."""
    text = resources.files(__package__).joinpath(f"data/{name}").read_text(encoding="utf-8")
    words = frozenset(line for line in text.splitlines() if line)
    damaged = sorted(word for word in words if normalize_word(word) != word)
    if damaged:
        raise DictionaryError(f"{name} holds entries that are not words A-Z: {damaged[:5]}")
    return words
