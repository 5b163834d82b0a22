"""Hints that do not give the answer away: the Spelling Bee grid of the words left on a board, and a reveal (a word's
first letter and length) that costs points, its cost known before it is taken."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Set
from dataclasses import dataclass

from .game import Solution
from .solver import Found

PREFIX_LENGTH = 2  # the grid's second table: how many words left start with each two letters, as Spelling Bee's


def is_learning(seconds: int) -> bool:
    """Whether a round is in learning mode, where a reveal hint may be taken: a round with no time limit (the game
    has no other practice mode; a timed round, a room's included, is a race, where a revealed word is unfair)."""
    return seconds == 0


@dataclass(frozen=True)
class HintGrid:
    """What is left on a board for one player: how many words by first letter and length, by first two letters, and
    the points still on the board."""

    words_left: int
    points_left: int
    lengths: tuple[int, ...]  # the lengths of the words left, shortest first (the grid's columns)
    by_letter: dict[str, dict[int, int]]  # first letter -> length -> words left (letters in order; no zeros)
    by_length: dict[int, int]  # length -> words left (the grid's total row)
    by_start: dict[str, int]  # first two letters -> words left, alphabetical

    def to_json(self) -> dict[str, object]:
        """The grid as the JSON of `/hints` gives it (object keys are strings)."""
        return {
            "words_left": self.words_left,
            "points_left": self.points_left,
            "lengths": list(self.lengths),
            "by_letter": {
                letter: {str(n): count for n, count in row.items()} for letter, row in self.by_letter.items()
            },
            "by_length": {str(n): count for n, count in self.by_length.items()},
            "by_start": self.by_start,
        }


@dataclass(frozen=True)
class Reveal:
    """A reveal hint: the first letter and length of one word left, and the points it costs."""

    word: str  # kept by the server: the page shows only `first_letter` and `length`
    first_letter: str
    length: int
    cost: int

    def to_json(self) -> dict[str, object]:
        """The hint as a player may see it (not the word)."""
        return {"first_letter": self.first_letter, "length": self.length, "cost": self.cost}


def words_left(solution: Solution, found: Collection[str]) -> list[Found]:
    """The board's words this player has not found yet, best first."""
    taken = set(found)
    return [word for word in solution if word.word not in taken]


def hint_grid(solution: Solution, found: Collection[str]) -> HintGrid:
    """The Spelling Bee grid of a board for a player who has found `found` (words not on the board are ignored)."""
    left = words_left(solution, found)
    by_length = Counter(len(word.word) for word in left)
    by_letter: dict[str, Counter[int]] = {}
    for word in left:
        by_letter.setdefault(word.word[0], Counter())[len(word.word)] += 1
    by_start = Counter(word.word[:PREFIX_LENGTH] for word in left)
    return HintGrid(
        words_left=len(left),
        points_left=sum(word.score for word in left),
        lengths=tuple(sorted(by_length)),
        by_letter={letter: dict(sorted(by_letter[letter].items())) for letter in sorted(by_letter)},
        by_length=dict(sorted(by_length.items())),
        by_start=dict(sorted(by_start.items())),
    )


def reveal_cost(word: Found) -> int:
    """What revealing a word costs: half its points, rounded up (finding it afterwards still gains the other half)."""
    return max(1, (word.score + 1) // 2)


def next_reveal(
    solution: Solution, found: Collection[str], revealed: Collection[str] = (), prefer: Set[str] = frozenset()
) -> Reveal | None:
    """The word the next reveal shows, chosen the same way every time: the best scoring word left that was not
    revealed yet among the words in `prefer` (e.g. the language's common words, the ones a learner can find), else
    among all; None when every word left has been revealed."""
    shown = set(revealed)
    candidates = [word for word in words_left(solution, found) if word.word not in shown]
    if not candidates:
        return None
    # The solution is best first, so the first preferred word is the best scoring one (ties: the alphabet).
    word = next((word for word in candidates if word.word in prefer), candidates[0])
    return Reveal(word.word, word.word[0], len(word.word), reveal_cost(word))
