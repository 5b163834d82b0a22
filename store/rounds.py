"""Players' rounds: start a round (or get the one running), record a word (one atomic step), end a round, and ask
whether a board's letters are still being played.

The game's rules stay in `ruzzle/`; this module only keeps what happened, safe from races: a word is a row whose key
is (round, word), and a round's end and a word's arrival serialize on the round's row. A round's score is the truth of
its points: each word adds what it was worth when the store took it, in the same transaction (`StoredRound.score`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, select, text, update

from .engine import Database, insert_ignoring_duplicates
from .schema import FIRST_GENERATOR, IN_PLAY, TAKES_WORD, round_hints, rounds, words


@dataclass(frozen=True)
class PlayedBoard:
    """The board URL a round is played on, every part of it: language, seed, size, length, classroom filter, generator
    version and match round; and its key (`board_key`: a hash of the URL, or a room's `room|<id>|<number>`)."""

    board_key: str
    language: str
    seed: str
    rows: int
    cols: int
    seconds: int
    safe: bool
    generator: int = FIRST_GENERATOR
    match_round: int | None = None  # the round of Ruzzle's 3-round match whose bonus tiles the board has


# The columns of `rounds` that hold a PlayedBoard, in its fields' order.
BOARD_COLUMNS = (
    rounds.c.board_key,
    rounds.c.language,
    rounds.c.seed,
    rounds.c.rows,
    rounds.c.cols,
    rounds.c.seconds,
    rounds.c.safe,
    rounds.c.generator,
    rounds.c.match_round,
)


@dataclass(frozen=True)
class RoundBoard:
    """What the store keeps of a board when a round starts on it: its URL, its letters (`letters_key`: what the
    solution's lock is about) and what a summary needs."""

    board: PlayedBoard
    letters_key: str
    total_words: int
    max_score: int

    def values(self) -> dict[str, Any]:
        """The round's columns that name its board."""
        return {
            **self.board.__dict__,
            "letters_key": self.letters_key,
            "total_words": self.total_words,
            "max_score": self.max_score,
        }


@dataclass(frozen=True)
class StoredRound:
    """A round as the store has it: its id, clock, end (if the player ended it), the words found and its score."""

    id: int
    started: float
    seconds: int
    ended: float | None
    words: frozenset[str]
    shift: float = 0.0  # the rest of its timeline (ruzzle.timeline.Timeline has the same fields)
    paused_at: float | None = None
    score: int = 0  # the points of its words, each as much as it was worth when the store took it


class Recorded(enum.Enum):
    """What recording a word did."""

    ADDED = "added"
    ALREADY_FOUND = "already-found"
    ROUND_OVER = "round-over"


# The hot statements, built once (building a statement costs more than running it on SQLite).
_latest_round = (
    select(rounds.c.id)
    .where(rounds.c.player == bindparam("player"), rounds.c.board_key == bindparam("board_key"))
    .order_by(rounds.c.number.desc())
    .limit(1)
    .scalar_subquery()
)
CURRENT_ROUND = (
    select(
        rounds.c.id,
        rounds.c.started,
        rounds.c.seconds,
        rounds.c.ended,
        words.c.word,
        rounds.c.shift,
        rounds.c.paused_at,
        rounds.c.score,
    )
    .select_from(rounds.outerjoin(words, words.c.round_id == rounds.c.id))
    .where(rounds.c.id == _latest_round)
)
# Recording a word on SQLite in one statement, its own transaction: the word inserted if the round takes it and it is
# new; a trigger adds its points to the round (migration 0901). Nothing returned: already found, or the round is over.
SQLITE_RECORD_WORD = f"""
INSERT INTO words (round_id, word, score, found_at)
SELECT id, :word, :score, :now FROM rounds WHERE id = :round_id AND {TAKES_WORD}
ON CONFLICT DO NOTHING
RETURNING word
"""
WORD_FOUND = select(words.c.word).where(words.c.round_id == bindparam("round_id"), words.c.word == bindparam("word"))
ROUND_IN_PLAY = (
    select(*BOARD_COLUMNS)
    .where(rounds.c.player == bindparam("player"), rounds.c.letters_key == bindparam("letters_key"), text(IN_PLAY))
    .order_by(rounds.c.id.desc())
    .limit(1)
)

# Recording a word on PostgreSQL in one statement. FOR UPDATE makes an end of the round sent at the same moment
# wait, or (if it came first) makes this statement see the round ended.
RECORD_WORD = text(f"""
WITH running AS (
    SELECT id FROM rounds
    WHERE id = :round_id AND {TAKES_WORD}
    FOR UPDATE
), inserted AS (
    INSERT INTO words (round_id, word, score, found_at)
    SELECT id, :word, :score, :now FROM running
    ON CONFLICT DO NOTHING
    RETURNING round_id
), scored AS (
    UPDATE rounds SET score = score + :score, found = found + 1, scored_at = :now
    WHERE id IN (SELECT round_id FROM inserted)
    RETURNING id
)
SELECT (SELECT count(*) FROM running), (SELECT count(*) FROM scored)
""")


def shared_board_key(kind: str, owner_id: int, number: int) -> str:
    """The board key of a round on a board many players share: a room's round (`room|7|2`) or an assignment's board
    (`homework|3|1`), each player's round its own row of `rounds` on that key."""
    return f"{kind}|{owner_id}|{number}"


def parse_shared_board_key(board_key: str, kind: str) -> tuple[int, int] | None:
    """The owner's id and the number of a shared board's key of this kind; None for any other key."""
    parts = board_key.split("|")
    if len(parts) != 3 or parts[0] != kind or not (parts[1].isdecimal() and parts[2].isdecimal()):
        return None
    return int(parts[1]), int(parts[2])


class Rounds:
    """The rounds of every player."""

    def __init__(self, database: Database):
        self.database = database

    def current(self, player: str, board_key: str) -> StoredRound | None:
        """The player's latest round on this board URL, or None."""
        return stored_round(self.database.read(CURRENT_ROUND, {"player": player, "board_key": board_key}))

    def start(self, player: str, board: RoundBoard, now: float, again: bool = False) -> StoredRound:
        """The player's round on this board: the running one, or the first; `again` starts the next one.

        Two requests that start the same round at once get the same round (the number is unique per player
        and board), so a word sent with the first request of a new cookie is never recorded in a round that
        is then lost.
        """
        key = board.board.board_key
        with self.database.writing() as connection:
            latest = connection.execute(
                select(rounds.c.number)
                .where(rounds.c.player == player, rounds.c.board_key == key)
                .order_by(rounds.c.number.desc())
                .limit(1)
            ).scalar()
            if latest is None or again:
                # The next number after the round this request saw: of two requests that saw the same, one inserts
                # and the other, finding the number taken, returns that round.
                values = {**board.values(), "player": player, "number": (latest or 0) + 1, "started": now}
                connection.execute(insert_ignoring_duplicates(connection.dialect.name, rounds).values(**values))
            started = current_round(connection, player, key)
        assert started is not None  # (it was there, or this transaction made it)
        return started

    def end(self, round_id: int, now: float) -> None:
        """End a round now (the player gave up); a round already ended keeps its end."""
        with self.database.writing() as connection:
            connection.execute(
                update(rounds)
                .where(rounds.c.id == round_id, rounds.c.ended.is_(None))
                .values(ended=now, paused_at=None)
            )

    def record_word(self, round_id: int, word: str, score: int, now: float, grace: float) -> Recorded:
        """Record a found word in one transaction: added once, never twice, never after the round's end.

        One statement on either database: the word's row (unique per round) is inserted only while the round takes
        words, and the round's score grows with it (PostgreSQL: in the statement; SQLite: by a trigger). When
        nothing was inserted, the word's row decides "already found" (SQLite) and otherwise the round was "over".
        """
        values = {"round_id": round_id, "word": word, "score": score, "now": now, "grace": grace}
        if self.database.dialect == "postgresql":
            return self._record_word_in_one_statement(values)
        if self.database.write_statement(SQLITE_RECORD_WORD, values):
            return Recorded.ADDED
        # Not inserted: already found (whatever the round's state now), or the round did not take it.
        with self.database.reader.connect() as connection:
            found = connection.execute(WORD_FOUND, values).first() is not None
        return Recorded.ALREADY_FOUND if found else Recorded.ROUND_OVER

    def _record_word_in_one_statement(self, values: dict[str, Any]) -> Recorded:
        """PostgreSQL: the same step as one statement (one round trip): the running round's row locked, the word
        inserted if new, the score added if it was."""
        with self.database.reader.connect() as connection:
            running, inserted = connection.execute(RECORD_WORD, values).one()
        if not running:
            return Recorded.ROUND_OVER
        return Recorded.ADDED if inserted else Recorded.ALREADY_FOUND

    def take_hint(self, round_id: int, word: str, cost: int, now: float) -> None:
        """Keep a reveal hint taken in a round, with its cost; a word revealed twice (two tabs) is kept once."""
        values = {"round_id": round_id, "word": word, "cost": cost, "taken": now}
        with self.database.writing() as connection:
            connection.execute(insert_ignoring_duplicates(connection.dialect.name, round_hints).values(**values))

    def hints_taken(self, round_id: int) -> dict[str, int]:
        """The words a round's reveal hints showed, in the order taken, each with the points it cost."""
        query = (
            select(round_hints.c.word, round_hints.c.cost)
            .where(round_hints.c.round_id == round_id)
            .order_by(round_hints.c.taken, round_hints.c.word)
        )
        with self.database.reader.connect() as connection:
            return {row.word: row.cost for row in connection.execute(query)}

    def in_play(self, player: str, letters_key: str, now: float, grace: float) -> PlayedBoard | None:
        """The board URL of the player's latest round still in play on these letters (any seed, length or bonus
        tiles)."""
        with self.database.reader.connect() as connection:
            row = connection.execute(
                ROUND_IN_PLAY, {"player": player, "letters_key": letters_key, "now": now, "grace": grace}
            ).first()
        return None if row is None else PlayedBoard(*row)


def current_round(connection: Connection, player: str, board_key: str) -> StoredRound | None:
    """The latest round and its words, in one query (the board page and every word ask for it)."""
    return stored_round(connection.execute(CURRENT_ROUND, {"player": player, "board_key": board_key}).all())


def stored_round(result: Sequence[Any]) -> StoredRound | None:
    """The round of CURRENT_ROUND's rows (one per word, or one with no word), or None for no rows."""
    if not result:
        return None
    first = result[0]
    return StoredRound(
        first.id,
        first.started,
        first.seconds,
        first.ended,
        frozenset(row.word for row in result if row.word is not None),
        first.shift,
        first.paused_at,
        first.score,
    )


__all__ = ["BOARD_COLUMNS", "PlayedBoard", "Recorded", "RoundBoard", "Rounds", "StoredRound"]
