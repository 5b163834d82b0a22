"""A room's rules, as pure functions of what the store holds: its codes, where a round stands in the room's life
(its stage: the rounds whose points add up), the ranking over those rounds and how much of it a page names, and
"better than N %".

A room's clock is a `ruzzle.timeline.Timeline`, its matches are `ruzzle.match`'s and its nicknames
`ruzzle.nicknames`'; the store keeps rooms (`store/rooms.py`) and the views (views/rooms/, views/live.py) ask these
rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from .generator import SEED_ALPHABET
from .match import MatchRound
from .results import Scored, class_view, in_order, standing

PRESETS = ("single", "match")  # one board a round, or Ruzzle's 3-round match
# A room's code is read aloud from a projector and typed on phones, as a board's seed is: the same alphabet, without
# 0/O or 1/I/L to mix up. The store draws the codes (it retries one that is taken) with a copy of these three values,
# since it imports no game code; tests/test_room.py pins the copy to them.
CODE_ALPHABET = SEED_ALPHABET
CODE_LENGTH = 6
REJOIN_CODE_LENGTH = 4  # a pupil's personal code to take their seat back on another device

TOP_SHOWN = 10  # lines of a room's ranking a page names (a player's own line besides)
PODIUM = 3  # the lines named when the room names its top 3 only
NAMES_SHOWN = ("all", "top3", "none")  # whom the pages name: everyone, the top 3, nobody (class totals instead)


def is_room_code(text: str) -> bool:
    """Whether a text (upper case, as codes are kept) has the shape of a room code."""
    return len(text) == CODE_LENGTH and set(text) <= set(CODE_ALPHABET)


def ranking_shown(names: str, top: int = TOP_SHOWN) -> int:
    """How many lines of the ranking a page names under the room's setting for names: `top`, or at most the podium
    when the room names its top 3 only."""
    return min(top, PODIUM) if names == "top3" else top


@dataclass(frozen=True)
class RoomStage:
    """Where the room's current round stands in the room's life, as the pages name it: its number, its match and round
    in the match (in a room that plays matches), and the rounds whose points add up to the totals and the ranking."""

    number: int  # the room's round number: 1, 2, 3, ... for the room's whole life, matches or not
    match: MatchRound | None  # None in a room of single rounds
    counted: tuple[int, ...]  # the current match's rounds so far, or every round of a room of single rounds

    @property
    def totals(self) -> bool:
        """Whether the pages show a total beside the round's points: in a match, or once there are several rounds."""
        return self.match is not None or len(self.counted) > 1

    @property
    def match_ends(self) -> bool:
        """Whether this round is the last of its match (a final podium after it, then another match)."""
        return self.match is not None and self.match.last


def stage_of(preset: str, number: int, rounds: Iterable[int]) -> RoomStage:
    """Where round `number` of a room stands, the room having played `rounds` (ruzzle.match: how rounds make a
    match)."""
    if preset != "match":
        return RoomStage(number, None, tuple(rounds))
    match = MatchRound.of(number)
    return RoomStage(number, match, tuple(match.numbers))


def board_round(preset: str, number: int) -> int | None:
    """The match round whose bonus tiles the room's round `number` has (None: the whole board)."""
    return MatchRound.of(number).board_round if preset == "match" else None


class ScoreRow(Protocol):
    """A player's score in one round of the room, as the store gives it (`number` None: joined, no round played)."""

    @property
    def player_id(self) -> int: ...

    @property
    def nickname(self) -> str: ...

    @property
    def joined(self) -> float: ...

    @property
    def number(self) -> int | None: ...

    @property
    def score(self) -> int: ...

    @property
    def found(self) -> int: ...

    @property
    def scored_at(self) -> float | None: ...


@dataclass(frozen=True)
class RankLine:
    """A player's line in the room's ranking."""

    rank: int
    player_id: int
    nickname: str
    score: int  # the total of the rounds the ranking counts
    words: int
    round_scores: tuple[int, ...]  # each counted round's score, the current round's last
    reached: float | None  # when the score was reached (ties go to the earlier)

    @property
    def this_round(self) -> int:
        """The player's points in the room's current round."""
        return self.round_scores[-1] if self.round_scores else 0


@dataclass(frozen=True)
class Ranking:
    """The room's ranking over the rounds its stage counts (the current match's, or every round): every player, best
    first, with each round's score."""

    stage: RoomStage
    lines: tuple[RankLine, ...]

    @property
    def rounds(self) -> int:
        """How many rounds the totals add up."""
        return len(self.stage.counted)

    def state(self) -> tuple[object, ...]:
        return self.stage, tuple((line.player_id, line.score, line.words, line.round_scores) for line in self.lines)

    def of(self, player_id: int) -> RankLine | None:
        return next((line for line in self.lines if line.player_id == player_id), None)

    def percentile(self, player_id: int) -> int | None:
        """ "Better than N %" for a player of the ranking (percentile, against everyone else in it)."""
        mine = self.of(player_id)
        if mine is None:
            return None
        return percentile(mine.score, [line.score for line in self.lines if line.player_id != player_id])


def rank(stage: RoomStage, rows: Iterable[ScoreRow]) -> Ranking:
    """Rank a room's players by their total over the rounds the stage counts (ties: ruzzle.results.standing)."""
    position = {number: index for index, number in enumerate(stage.counted)}
    totals: dict[int, dict[str, Any]] = {}
    for row in rows:
        line = totals.setdefault(
            row.player_id,
            {
                "nickname": row.nickname,
                "joined": row.joined,
                "score": 0,
                "words": 0,
                "rounds": [0] * len(stage.counted),
                "reached": None,
            },
        )
        if row.number is None or row.number not in position:
            continue
        line["score"] += row.score
        line["words"] += row.found
        line["rounds"][position[row.number]] = row.score
        if row.scored_at is not None:
            line["reached"] = max(line["reached"] or row.scored_at, row.scored_at)
    ordered = in_order(
        totals.items(), lambda item: standing(item[1]["score"], item[1]["reached"], item[1]["joined"], item[0])
    )
    return Ranking(
        stage,
        tuple(
            RankLine(
                place, player, line["nickname"], line["score"], line["words"], tuple(line["rounds"]), line["reached"]
            )
            for place, (player, line) in ordered
        ),
    )


def percentile(mine: int, others: Iterable[int]) -> int | None:
    """ "Better than N %": the share of the other players whose score is strictly lower than `mine`, in whole percent
    rounded down (never more than the truth); None when nobody else played (no sentence for one player). A tie beats
    nobody, whoever reached the score first (that decides the rank, not who was better)."""
    scores = list(others)
    if not scores:
        return None
    return 100 * sum(score < mine for score in scores) // len(scores)


# --- the words to learn -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WordToLearn:
    """A word of a round worth a lesson: one of the teacher's words, or a rare find; `finders`: how many players
    found it (0 for a teacher's word nobody found)."""

    word: str
    score: int
    finders: int
    target: bool


def words_to_learn(
    solution: Iterable[Scored], counts: dict[str, int], targets: Iterable[str] = ()
) -> list[WordToLearn]:
    """A round's words to learn at the end of a room: the teacher's words first (those nobody found first, as the
    walk-through reveals them), then the rare finds, best first (ties: the alphabet)."""
    by_word = {found.word: found for found in solution}
    wanted = [word for word in dict.fromkeys(targets) if word in by_word]
    chosen = [WordToLearn(word, by_word[word].score, counts.get(word, 0), True) for word in wanted]
    chosen.sort(key=lambda item: item.finders > 0)  # stable: the teacher's order within each group
    rare = [
        WordToLearn(found.word, found.score, finders, False)
        for found, finders in class_view(by_word.values(), counts).rare()
        if found.word not in wanted
    ]
    return chosen + rare
