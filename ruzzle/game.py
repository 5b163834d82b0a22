"""A round of play on one board: the board's solution, a player's submissions, the words found, the clock."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Set
from dataclasses import dataclass, field, replace
from functools import cached_property

from .board import Board, Cell, Path
from .errors import N_, InvalidPath, Nn_, WordRefused
from .lexicon import Lexicon, normalize_word
from .rules import MIN_WORD_LENGTH
from .scoring import spell, validate_path
from .solver import Found, solve
from .timeline import Phase, Timeline

# A blocked word is not echoed back: on a classroom board, the page should not show it in big letters.
BLOCKED_MESSAGE = N_("That word is not allowed on a classroom board.")
PAUSED_MESSAGE = N_("The teacher paused the round.")
DEFAULT_SECONDS = 120  # a round's length when nobody chose one: Ruzzle's two minutes
_PATH_TEXT = re.compile(r"\s*\d{1,4}\s*,\s*\d{1,4}\s*")


@dataclass(frozen=True)
class Solution:
    """Every word on a board, best first; a word's position in this order is its index."""

    board: Board
    words: tuple[Found, ...]
    blocked: Set[str] = frozenset()
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, board: Board, lexicon: Lexicon, blocked: Set[str] = frozenset()) -> Solution:
        """Solve the board; words in `blocked` are neither found nor shown."""
        words = tuple(solve(board, lexicon, exclude=blocked))
        return cls(board, words, blocked, {found.word: i for i, found in enumerate(words)})

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self) -> Iterator[Found]:
        return iter(self.words)

    def __getitem__(self, index: int) -> Found:
        return self.words[index]

    def index(self, word: str) -> int | None:
        """The index of a word on this board, or None if it is not one of the board's words."""
        return self._index.get(word)

    def find(self, word: str) -> Found | None:
        """The word with its best path and score, or None."""
        index = self._index.get(word)
        return None if index is None else self.words[index]

    @cached_property
    def total_score(self) -> int:
        """The points a player who found every word would have."""
        return sum(found.score for found in self.words)

    @cached_property
    def longest(self) -> Found | None:
        """The longest word (the best scoring among equally long ones)."""
        return min(self.words, key=lambda found: (-len(found.word), -found.score, found.word), default=None)

    @cached_property
    def words_per_length(self) -> dict[int, int]:
        """How many words have each length, shortest first."""
        return dict(sorted(Counter(len(found.word) for found in self.words).items()))

    def through(self, cell: Cell) -> list[Found]:
        """The words whose path passes through this cell, best first."""
        return [found for found in self.words if cell in found.path]


def parse_path(text: str, board: Board) -> Path:
    """A traced path written `"r,c r,c ..."`, checked against the board (InvalidPath saying why)."""
    cells_text = text.split()
    if len(cells_text) > board.rows * board.cols:
        raise InvalidPath(
            Nn_("a path on this board has at most %(num)d tile", "a path on this board has at most %(num)d tiles"),
            num=board.rows * board.cols,
        )
    cells = []
    for item in cells_text:
        if not _PATH_TEXT.fullmatch(item):
            raise InvalidPath(N_("a path is a list of tiles written row,column (e.g. 0,1 1,2)"))
        row, col = item.split(",")
        cells.append((int(row), int(col)))
    return validate_path(board, cells)


def word_of_path(solution: Solution, path: Path) -> Found:
    """The word a traced path spells, with its best path on the board; WordRefused if it is not a word."""
    word = spell(solution.board, path)
    if word in solution.blocked:
        raise WordRefused("blocked", BLOCKED_MESSAGE)
    found = solution.find(word)
    if found is None:
        raise WordRefused("not-a-word", N_("%(word)s is not in the dictionary."), word=word)
    return found


def word_of_text(solution: Solution, lexicon: Lexicon, text: str) -> Found:
    """The word a player typed, with its best path on the board; WordRefused saying why not."""
    if not text.strip():
        raise WordRefused("empty", N_("Type a word, or trace one on the board."))
    word = normalize_word(text)
    if word is None:
        raise WordRefused("letters", N_("A word is made of letters only (A to Z; accents are ignored)."))
    cells = solution.board.rows * solution.board.cols
    if len(word) < MIN_WORD_LENGTH:
        raise WordRefused(
            "too-short",
            Nn_("A word has at least %(num)d letter.", "A word has at least %(num)d letters."),
            num=MIN_WORD_LENGTH,
        )
    if len(word) > cells:
        raise WordRefused(
            "too-long",
            Nn_(
                "A word on this board has at most %(num)d letter.", "A word on this board has at most %(num)d letters."
            ),
            num=cells,
        )
    if word in solution.blocked:
        raise WordRefused("blocked", BLOCKED_MESSAGE)
    found = solution.find(word)
    if found is None:
        if word in lexicon:
            raise WordRefused("not-on-board", N_("%(word)s is a word, but it is not on this board."), word=word)
        raise WordRefused("not-a-word", N_("%(word)s is not in the dictionary."), word=word)
    return found


@dataclass(frozen=True)
class Round:
    """One player's round on one board: its clock (a Timeline), the words found and its score: the points each word
    was worth when it was taken (a dictionary rebuilt since may no longer have the word; the store keeps them)."""

    timeline: Timeline
    found: frozenset[int] = frozenset()
    score: int = 0

    @classmethod
    def timed(cls, started: float, seconds: int) -> Round:
        """A round that starts at `started` and lasts `seconds` (0: untimed), nothing found yet."""
        return cls(Timeline(started, seconds))

    def remaining(self, now: float) -> int | None:
        """Whole seconds left (0 when over, frozen while paused), or None for an untimed round that is running."""
        return self.timeline.read(now).remaining

    def is_over(self, now: float) -> bool:
        """Whether the round has ended: time is up or it was ended early."""
        return self.timeline.is_over(now)

    def submit(self, solution: Solution, found: Found, now: float, grace: float) -> Round:
        """The round with this word found; WordRefused if the round does not take words now or it was found."""
        if not self.timeline.takes_word(now, grace):
            phase = self.timeline.phase(now)
            if phase is Phase.PAUSED:
                raise WordRefused("paused", PAUSED_MESSAGE)
            if phase in (Phase.WAITING, Phase.COUNTDOWN):
                raise WordRefused("not-started", N_("The round has not started yet."))
            raise WordRefused("time-up", N_("Time is up: this round is over."))
        index = solution.index(found.word)
        if index is None:
            raise WordRefused("not-a-word", N_("%(word)s is not one of this board's words."), word=found.word)
        if index in self.found:
            raise WordRefused("already-found", N_("%(word)s is already found."), word=found.word)
        return self.with_word(index, solution[index].score)

    def with_word(self, index: int, score: int) -> Round:
        """The round with the word of this index found, worth `score` (the store took it)."""
        return replace(self, found=self.found | {index}, score=self.score + score)

    def give_up(self, now: float) -> Round:
        """The round ended now by the player."""
        return replace(self, timeline=self.timeline.end(now))

    def words(self, solution: Solution) -> list[Found]:
        """The words found, best first."""
        return [solution[i] for i in sorted(self.found) if i < len(solution)]
