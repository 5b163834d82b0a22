"""Seeded board generation: the same (language, size, seed, version) gives the same board, forever.

Nothing here depends on Python's `random` (its algorithms may change between releases) or on the
current dictionary (it may be rebuilt): randomness is SHA-256 in counter mode, and each generator
version freezes its data in `data/generator-v<N>/`: letter weights per language (`letters.json`) and a
list of words per language (`<lang>.marisa`) used to keep the richest of several drawn boards, and
for some languages a number of refining swaps (`letters.json`, "refine").

Version 1 (URLs without a generator version) keeps the candidate whose 2-6 letter words are the most, with
3/8 to 1/2 vowels. Version 2 (boards made from now on) keeps the one with the most words of 5 to 7 letters,
draws each language's own share of vowels (as its real boards have: up to 10 of 16 in Italian, Spanish,
French, Portuguese) and refines every language's board (dictionaries/README.md, "Generated boards").
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from functools import cache
from importlib import resources
from itertools import accumulate
from pathlib import Path
from typing import Any, TypeVar

from .board import Board, Tile
from .errors import N_, InvalidSeed, InvalidSize, UnknownLanguage
from .languages import ALPHABET, get_language
from .lexicon import Lexicon
from .rules import MULTIPLIERS_PER_16_CELLS, Multiplier
from .solver import count_words

# Seeds shown to people: no 0/O or 1/I/L to confuse when read aloud or copied from a projector.
SEED_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
SEED_LENGTH = 6
MAX_SEED_LENGTH = 64
MAX_CELLS = 100 * 100  # far beyond any playable board; keeps a typo like 100000x100000 from eating memory
VERSIONS = (1, 2)
LATEST_VERSION = 2  # what every new board gets: the web's new boards and rooms, and `python -m ruzzle generate`
FIRST_VERSION = 1  # what a board URL that names no version means, forever (boards made before versions existed)
VOWELS = frozenset("AEIOU")
# Boards of up to this many cells are drawn CANDIDATES times and the one with the most short words is
# kept: a single frequency draw gives a median 4x4 board of about 115 English words, the best of 14 about
# 210 (the real demo board has 235). Larger boards are rich enough from one draw.
CANDIDATES = 14
SELECT_UP_TO_CELLS = 25
T = TypeVar("T")


class Stream:
    """A deterministic stream of random integers: SHA-256 of the key and a block counter."""

    def __init__(self, key: str):
        self._key = key.encode("utf-8")
        self._counter = 0
        self._buffer = b""

    def _next64(self) -> int:
        if not self._buffer:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer = block
        value, self._buffer = int.from_bytes(self._buffer[:8], "big"), self._buffer[8:]
        return value

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection so that no value is favoured."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def weighted(self, cumulative: list[int]) -> int:
        """An index drawn with probability proportional to its weight (weights given as running sums)."""
        return bisect_right(cumulative, self.below(cumulative[-1]))

    def shuffled(self, items: list[T]) -> list[T]:
        """A Fisher-Yates shuffle of a copy of the list."""
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def new_seed() -> str:
    """A fresh short seed that is easy to read aloud and type."""
    return "".join(secrets.choice(SEED_ALPHABET) for _ in range(SEED_LENGTH))


def normalize_seed(text: str) -> str:
    """The canonical form of a typed seed: trimmed, white space collapsed, ASCII letters upper case."""
    seed = " ".join(unicodedata.normalize("NFC", str(text)).split())
    seed = seed.translate(_ASCII_UPPER)
    if not seed:
        raise InvalidSeed(N_("a board code needs at least one character"))
    if len(seed) > MAX_SEED_LENGTH:
        raise InvalidSeed(
            N_("a board code has at most %(most)d characters, not %(length)d"), most=MAX_SEED_LENGTH, length=len(seed)
        )
    if any(unicodedata.category(ch).startswith("C") for ch in seed):
        raise InvalidSeed(N_("a board code cannot contain control characters"))
    return seed


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", ALPHABET)


def most_copies(cells: int) -> int:
    """How many times a letter may stand on a drawn board of this many cells: `cells/8`, at least 2."""
    return max(2, math.ceil(cells / 8))


def multiplier_counts(cells: int) -> dict[Multiplier, int]:
    """How many tiles of each multiplier a board of this many cells gets (6 per 16 cells, as real boards)."""
    return {m: round(cells * n / 16) for m, n in MULTIPLIERS_PER_16_CELLS.items()}


def _data(version: int) -> Path:
    """The folder of a generator version's frozen data."""
    return Path(str(resources.files(__package__).joinpath(f"data/generator-v{version}")))


@cache
def _letter_weights(version: int, language: str) -> tuple[int, ...]:
    """A generator version's weight for each letter A-Z in a language."""
    languages = json.loads((_data(version) / "letters.json").read_text(encoding="utf-8"))["languages"]
    if language not in languages:
        raise UnknownLanguage(language, sorted(languages))
    return tuple(languages[language][x] for x in ALPHABET)


@cache
def _refine_steps(version: int, language: str) -> int:
    """How many single-letter swaps a generator version tries on a language's best candidate (0: none)."""
    return int(_tables(version).get("refine", {}).get(language, 0))


@cache
def _tables(version: int) -> dict[str, Any]:
    """A generator version's frozen tables (`letters.json`)."""
    tables: dict[str, Any] = json.loads((_data(version) / "letters.json").read_text(encoding="utf-8"))
    return tables


@cache
def _vowel_range(version: int, language: str) -> tuple[int, int]:
    """The fewest and most vowels of a 16-cell board in a language (version 2 on)."""
    low, high = _tables(version)["vowels"][language]
    return low, high


@cache
def richness_words(version: int, language: str) -> Lexicon:
    """A generator version's frozen list of short words, that measures how rich a drawn board is."""
    return Lexicon.load(_data(version) / f"{language}.marisa")


def generate(language: str, seed: str, rows: int = 4, cols: int = 4, version: int = FIRST_VERSION) -> Board:
    """The board of this seed: letters drawn by the language's frequencies, multipliers as real boards.

    `version` is the generator's (FIRST_VERSION by default: what a board URL without one has always shown; new
    boards are made with LATEST_VERSION)."""
    code = get_language(language).code
    if version not in VERSIONS:
        raise ValueError(f"unknown generator version {version}; known: {', '.join(map(str, VERSIONS))}")
    if not (isinstance(rows, int) and isinstance(cols, int)) or rows < 1 or cols < 1:
        raise InvalidSize(N_("a board needs at least 1 row and 1 column, not %(rows)sx%(cols)s"), rows=rows, cols=cols)
    if rows * cols > MAX_CELLS:
        raise InvalidSize(
            N_("a generated board has at most %(most)d cells, not %(rows)dx%(cols)d"),
            most=MAX_CELLS,
            rows=rows,
            cols=cols,
        )
    seed = normalize_seed(seed)
    stream = Stream(f"ruzzle-generator-v{version}|{code}|{rows}x{cols}|{seed}")
    weights = _letter_weights(version, code)
    cells = rows * cols
    if version >= 2:
        return Board(rows, cols, _place_multipliers(stream, _letters_v2(stream, version, code, rows, cols)), code)
    if cells > SELECT_UP_TO_CELLS:
        letters = _draw_letters(stream, weights, cells)
    else:
        short_words = richness_words(version, code)
        richness = lambda c: count_words(Board(rows, cols, _plain(c), code), short_words)  # noqa: E731
        candidates = [_draw_letters(stream, weights, cells) for _ in range(CANDIDATES)]
        # max() keeps the first of equally rich candidates, so the choice is deterministic
        letters = max(candidates, key=richness)
        letters = _refine(stream, weights, letters, richness, _refine_steps(version, code))
    return Board(rows, cols, _place_multipliers(stream, letters), code)


def _letters_v2(stream: Stream, version: int, code: str, rows: int, cols: int) -> list[str]:
    """Version 2's letters: the language's vowel share, the candidate with the most words of 5 to 7 letters,
    then refining changes that keep the vowel share."""
    tables = _tables(version)
    weights = _letter_weights(version, code)
    cells = rows * cols
    low, high = _vowel_range(version, code)
    fewest, most_vowels = math.floor(cells * low / 16), math.ceil(cells * high / 16)
    balanced = lambda letters: _vowels_between(letters, fewest, most_vowels)  # noqa: E731
    if cells > SELECT_UP_TO_CELLS:
        return _draw_letters(stream, weights, cells, balanced)
    words = richness_words(version, code)
    richness = lambda c: count_words(Board(rows, cols, _plain(c), code), words)  # noqa: E731
    candidates = [_draw_letters(stream, weights, cells, balanced) for _ in range(tables["candidates"])]
    letters = max(candidates, key=richness)
    return _refine(stream, weights, letters, richness, tables["refine"].get(code, 0), balanced)


def _vowels_between(letters: list[str], fewest: int, most: int) -> bool:
    """Whether a board's vowels are between two counts and it has no Q without a U (boards under 4 cells: any)."""
    if len(letters) < 4:
        return True
    return fewest <= sum(letter in VOWELS for letter in letters) <= most and ("Q" not in letters or "U" in letters)


def _refine(
    stream: Stream,
    weights: tuple[int, ...],
    letters: list[str],
    richness: Callable[[list[str]], int],
    steps: int,
    balanced: Callable[[list[str]], bool] | None = None,
) -> list[str]:
    """Try `steps` changes, each either two cells exchanged or one cell's letter redrawn by weight; keep each
    change that makes the board richer and keeps it balanced. French needs this: its real boards are far
    richer than the best of several frequency draws."""
    balanced = balanced or _balanced
    cumulative = list(accumulate(weights))
    most = most_copies(len(letters))
    best = richness(letters) if steps else 0
    for _ in range(steps):
        trial = list(letters)
        if stream.below(2):
            i, j = stream.below(len(trial)), stream.below(len(trial))
            trial[i], trial[j] = trial[j], trial[i]
        else:
            trial[stream.below(len(trial))] = ALPHABET[stream.weighted(cumulative)]
        if max(trial.count(letter) for letter in trial) > most or not balanced(trial):
            continue
        score = richness(trial)
        if score > best:
            letters, best = trial, score
    return letters


def _plain(letters: list[str]) -> tuple[Tile, ...]:
    """Tiles without multipliers (richness does not depend on them)."""
    return tuple(Tile(letter) for letter in letters)


def _draw_letters(
    stream: Stream, weights: tuple[int, ...], cells: int, balanced: Callable[[list[str]], bool] | None = None
) -> list[str]:
    """Letters for every cell: weighted draws, a letter at most `cells/8` (at least 2) times, balanced (version 1:
    between 3/8 and 1/2 vowels, and no Q without a U); drawn again until all of that holds."""
    balanced = balanced or _balanced
    most = most_copies(cells)
    while True:
        remaining = list(weights)
        counts = [0] * 26
        letters = []
        for _ in range(cells):
            index = stream.weighted(list(accumulate(remaining)))
            letters.append(ALPHABET[index])
            counts[index] += 1
            if counts[index] == most:
                remaining[index] = 0
        if balanced(letters):
            return letters


def _balanced(letters: list[str]) -> bool:
    """Whether drawn letters have between 3/8 and 1/2 vowels and no Q without a U (boards under 4 cells: any)."""
    cells = len(letters)
    if cells < 4:
        return True
    vowels = sum(letter in VOWELS for letter in letters)
    return math.ceil(cells * 3 / 8) <= vowels <= cells // 2 and ("Q" not in letters or "U" in letters)


def _place_multipliers(stream: Stream, letters: list[str]) -> tuple[Tile, ...]:
    """Tiles with the multipliers put on distinct random cells."""
    order = stream.shuffled(list(range(len(letters))))
    multipliers: dict[int, Multiplier] = {}
    for multiplier, count in multiplier_counts(len(letters)).items():
        for _ in range(count):
            multipliers[order.pop()] = multiplier
    return tuple(Tile(letter, multipliers.get(i)) for i, letter in enumerate(letters))
