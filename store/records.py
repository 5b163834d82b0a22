"""A player's records: the anonymous player id a browser's cookie holds, its recent rounds ("My rounds") and its
personal bests. Only rounds with a word found count."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import bindparam, func, select

from .engine import Database
from .rounds import BOARD_COLUMNS, PlayedBoard
from .schema import rounds, words

PLAYER_ID_BYTES = 16  # 22 characters of URL-safe base64: anonymous, unguessable


def new_player_id() -> str:
    """A fresh anonymous player id (no account, nothing personal)."""
    return secrets.token_urlsafe(PLAYER_ID_BYTES)


def is_player_id(value: object) -> bool:
    """Whether a value from a cookie has the shape of a player id."""
    return isinstance(value, str) and 16 <= len(value) <= 32 and value.replace("-", "").replace("_", "").isalnum()


@dataclass(frozen=True)
class RoundRecord:
    """A line of "My rounds": the board (its whole URL), the result, the best word."""

    id: int
    board: PlayedBoard
    started: float
    score: int
    found: int
    total_words: int
    best_word: str | None
    best_score: int | None

    @property
    def percent(self) -> int:
        """The share of the board's words found, in whole percent."""
        return round(100 * self.found / self.total_words) if self.total_words else 0


@dataclass(frozen=True)
class PersonalBest:
    """A player's best score on boards of one language and size."""

    language: str
    rows: int
    cols: int
    score: int
    rounds: int


_best = (
    select(words.c.word, words.c.score)
    .where(words.c.round_id == rounds.c.id)
    .order_by(words.c.score.desc(), words.c.word)
    .limit(1)
    .correlate(rounds)
)
RECENT_ROUNDS = (
    select(
        rounds.c.id,
        rounds.c.started,
        rounds.c.score,
        rounds.c.found,
        rounds.c.total_words,
        _best.with_only_columns(words.c.word).scalar_subquery().label("best_word"),
        _best.with_only_columns(words.c.score).scalar_subquery().label("best_score"),
        *BOARD_COLUMNS,
    )
    .where(rounds.c.player == bindparam("player"), rounds.c.found > 0)
    .order_by(rounds.c.started.desc(), rounds.c.id.desc())
    .limit(bindparam("limit"))
)
PERSONAL_BESTS = (
    select(rounds.c.language, rounds.c.rows, rounds.c.cols, func.max(rounds.c.score), func.count(rounds.c.id))
    .where(rounds.c.player == bindparam("player"), rounds.c.found > 0)
    .group_by(rounds.c.language, rounds.c.rows, rounds.c.cols)
    .order_by(rounds.c.language, rounds.c.rows, rounds.c.cols)
)


class Records:
    """Every player's history, read from their rounds."""

    def __init__(self, database: Database):
        self.database = database

    def recent(self, player: str, limit: int = 50) -> list[RoundRecord]:
        """The player's latest rounds with a word found, newest first, each with its best word."""
        with self.database.reader.connect() as connection:
            rows = connection.execute(RECENT_ROUNDS, {"player": player, "limit": limit}).all()
        return [
            RoundRecord(
                row.id,
                PlayedBoard(*row[-len(BOARD_COLUMNS) :]),
                row.started,
                row.score,
                row.found,
                row.total_words,
                row.best_word,
                row.best_score,
            )
            for row in rows
        ]

    def bests(self, player: str) -> list[PersonalBest]:
        """The player's best score per language and board size (rounds with a word found)."""
        with self.database.reader.connect() as connection:
            return [PersonalBest(*row) for row in connection.execute(PERSONAL_BESTS, {"player": player})]
