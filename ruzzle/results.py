"""What a class sees after playing a board together, for every kind of lesson (a room, a live room, homework): the
order of a ranking, a board's class view (the words by how many players found them, the words nobody found, the best
find) and the rare finds (words few players found). Pure rules over what the store counted; the views ask them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

RARE_FINDERS = 1  # a rare find: a word found by this many players or fewer (one player alone)
CLASS_VIEW_SHOWN = 12  # words each list of a projected class view names (the most found, nobody's): one glance
# Fewer beside a match's ranking (a 1024x768 projector; the walk-through has them all): six of each ran 22 px past the
# screen when their words were long (RESTRAIN, WATERIER).
CLASS_VIEW_BESIDE_RANKING = 4


class Scored(Protocol):
    """A word of a board's solution with its points (ruzzle.solver.Found)."""

    @property
    def word(self) -> str: ...

    @property
    def score(self) -> int: ...


W = TypeVar("W", bound=Scored)
T = TypeVar("T")

# --- the order of a ranking ---------------------------------------------------------------------------------------

Standing = tuple[int, float, float, int]


def standing(score: int, reached: float | None, joined: float = 0.0, seat: int = 0) -> Standing:
    """A line's place in a ranking as a sort key: the best score first; a tie goes to who reached the score first
    (a score never reached last), then to who joined first, then to the earlier seat. Places are never shared."""
    return (-score, math.inf if reached is None else reached, joined, seat)


def in_order(lines: Iterable[T], key: Callable[[T], Standing]) -> list[tuple[int, T]]:
    """The lines best first, each with its place (1, 2, 3, ...) under `standing`."""
    return list(enumerate(sorted(lines, key=key), start=1))


# --- rare finds and a board's class view --------------------------------------------------------------------------


def is_rare(finders: int) -> bool:
    """Whether a word found by `finders` players is a rare find (0: nobody found it, not a find)."""
    return 0 < finders <= RARE_FINDERS


def best_first(word: Scored) -> tuple[int, str]:
    """The order of a list of finds: the best score first, ties in the alphabet."""
    return (-word.score, word.word)


@dataclass(frozen=True)
class ClassView(Generic[W]):
    """A board as the class played it: each word found with how many players found it (the most found first, then
    the best, then the alphabet), and the words nobody found (in the solution's order)."""

    found_by: tuple[tuple[W, int], ...]
    nobody: tuple[W, ...]

    @property
    def total(self) -> int:
        """How many words the board has."""
        return len(self.found_by) + len(self.nobody)

    @property
    def best(self) -> W | None:
        """The best word the class found (ties: the shorter, then the most found)."""
        return max((word for word, _ in self.found_by), key=lambda word: (word.score, -len(word.word)), default=None)

    def found_by_many(self) -> list[tuple[W, int]]:
        """The words two players or more found, the most found first."""
        return [(word, finders) for word, finders in self.found_by if finders > 1]

    def rare(self) -> list[tuple[W, int]]:
        """The rare finds, best first (ties: the alphabet)."""
        return sorted(((word, n) for word, n in self.found_by if is_rare(n)), key=lambda item: best_first(item[0]))


def class_view(solution: Iterable[W], counts: Mapping[str, int]) -> ClassView[W]:
    """A board's class view from its solution and how many players found each word (words off the board ignored)."""
    words: Sequence[W] = list(solution)
    found = sorted(
        ((word, counts[word.word]) for word in words if counts.get(word.word, 0) > 0),
        key=lambda item: (-item[1], *best_first(item[0])),
    )
    return ClassView(tuple(found), tuple(word for word in words if counts.get(word.word, 0) <= 0))


# --- the teacher's table: every pupil of the class ----------------------------------------------------------------

L = TypeVar("L")
S = TypeVar("S")


def roll_call(
    listed: Iterable[L], seats: Iterable[S], pupil_of: Callable[[S], object], listed_id: Callable[[L], object]
) -> list[tuple[L | None, S | None]]:
    """The rows of a teacher's table: every pupil of the class list in the list's order, with their seat (None: they
    never came, so they played nothing), then the seats of nobody on the list in their own order."""
    seated = list(seats)
    place = {pupil_of(seat): index for index, seat in enumerate(seated) if pupil_of(seat) is not None}
    rows: list[tuple[L | None, S | None]] = []
    taken = set()
    for pupil in listed:
        index = place.get(listed_id(pupil))
        if index is not None:
            taken.add(index)
        rows.append((pupil, None if index is None else seated[index]))
    return rows + [(None, seat) for index, seat in enumerate(seated) if index not in taken]
