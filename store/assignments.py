"""Homework in the store: an assignment (a few boards a class plays by a deadline), its boards and its pupils.

A pupil's round on an assignment's board is an ordinary round of the `rounds` table, on the board key
`homework|<id>|<number>`, so words are recorded by the store's one atomic step (`store.rounds.Rounds.record_word`)
and the round's own timeline decides when it takes a word: a round started before the deadline finishes after it.
What is new here is when a round may start: once per pupil and board, and only before the deadline (`begin`, one
transaction).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import ColumnElement, Connection, delete, select, update
from sqlalchemy.exc import IntegrityError

from .assignment_records import (
    ASSIGNMENT_BY_CODE,
    MAX_BOARDS,
    PUPIL_COLUMNS,
    RUNNING_HOMEWORK,
    SEAT,
    SEEDS,
    AlreadyPlayed,
    Assignment,
    PastDue,
    Pupil,
    PupilRound,
    PupilWord,
    homework_key,
    parse_homework_key,
)
from .engine import Database, insert_ignoring_duplicates
from .rooms import REMOTE_KEY_BYTES, new_room_code
from .rounds import RoundBoard, StoredRound, current_round
from .schema import assignment_boards, assignment_pupils, assignments, rounds, words
from .seats import SeatTable, insert_seat, seat_held

SEATS = SeatTable(assignment_pupils, assignment_pupils.c.assignment_id, PUPIL_COLUMNS)


class Assignments:
    """The site's assignments, kept in the store's database (any worker on any host answers)."""

    def __init__(self, store: Database):
        self.store = store

    def create(
        self,
        language: str,
        rows: int,
        cols: int,
        seconds: int,
        safe: bool,
        generator: int,
        seeds: list[str],
        now: float,
        due: float,
        due_offset: int,
        class_id: int | None = None,
        letters_keys: Sequence[str] = (),
    ) -> Assignment:
        """A new assignment on these boards under a fresh code (a room code's kind), with a fresh teacher's key; for a
        class list's pupils only with `class_id`. `letters_keys`: each board by its letters (as the seeds, in order),
        which no other page solves before the deadline (`running_homework`)."""
        values = {
            "teacher_key": secrets.token_urlsafe(REMOTE_KEY_BYTES),
            "language": language,
            "rows": rows,
            "cols": cols,
            "seconds": seconds,
            "safe": safe,
            "generator": generator,
            "created": now,
            "due": due,
            "due_offset": due_offset,
            "class_id": class_id,
        }
        letters: list[str | None] = [*letters_keys] or [None] * len(seeds)
        for _ in range(20):
            code = new_room_code()
            try:
                with self.store.writing() as connection:
                    assignment_id = connection.execute(
                        assignments.insert().values(code=code, **values).returning(assignments.c.id)
                    ).scalar_one()
                    connection.execute(
                        assignment_boards.insert(),
                        [
                            {"assignment_id": assignment_id, "number": number, "seed": seed, "letters_key": letters}
                            for number, (seed, letters) in enumerate(zip(seeds, letters, strict=True), start=1)
                        ],
                    )
            except IntegrityError:
                continue  # the code is taken: draw another
            made = self.get(code)
            assert made is not None  # (this transaction made it)
            return made
        raise RuntimeError("no free assignment code after 20 draws")

    def get(self, code: str, player: str | None = None) -> Assignment | None:
        """The assignment with this code (any case), or None; with `player`, that browser's seat in it."""
        with self.store.reader.connect() as connection:
            row = connection.execute(ASSIGNMENT_BY_CODE, {"code": code.upper()}).first()
            if row is None:
                return None
            seeds = tuple(connection.execute(SEEDS, {"assignment_id": row.id}).scalars())
            seat = player and connection.execute(SEAT, {"assignment_id": row.id, "player": player}).first()
        return Assignment(
            row.id,
            row.code,
            row.teacher_key,
            row.language,
            row.rows,
            row.cols,
            row.seconds,
            bool(row.safe),
            row.generator,
            row.created,
            row.due,
            row.due_offset,
            seeds,
            Pupil(*seat) if seat else None,
            row.class_id,
        )

    def codes(self, assignment_ids: set[int]) -> dict[int, str]:
        """The codes of the assignments still in the store among these ids."""
        if not assignment_ids:
            return {}
        with self.store.reader.connect() as connection:
            return dict(
                connection.execute(
                    select(assignments.c.id, assignments.c.code).where(assignments.c.id.in_(assignment_ids))
                ).all()
            )

    def pupils(self, assignment_id: int) -> list[Pupil]:
        """The assignment's pupils in the order they joined."""
        with self.store.reader.connect() as connection:
            rows = connection.execute(
                select(*PUPIL_COLUMNS)
                .where(assignment_pupils.c.assignment_id == assignment_id)
                .order_by(assignment_pupils.c.joined, assignment_pupils.c.id)
            )
            return [Pupil(*row) for row in rows]

    def join(
        self,
        assignment: Assignment,
        player: str,
        nickname: str,
        nickname_key: str,
        now: float,
        code: str | None,
        class_pupil_id: int | None = None,
    ) -> Pupil:
        """Seat a browser as in a room (store/seats.py: its own seat, a taken name's with its rejoin code and its
        rounds, or a new one). NicknameTaken, AlreadySeated."""
        with self.store.writing() as connection:
            seat = seat_held(
                connection, SEATS, assignment.id, player, nickname_key, code, lambda: list(assignment.keys())
            )
            if seat is None:
                seat = insert_seat(
                    connection, SEATS, assignment.id, player, nickname, nickname_key, now, code, class_pupil_id
                )
        return Pupil(*seat)

    def begin(self, assignment_id: int, number: int, player: str, board: RoundBoard, now: float) -> StoredRound:
        """Start the pupil's one round on a board, in one transaction: AlreadyPlayed when they have a round on it,
        PastDue when the deadline has passed (checked on the assignment's row, whatever the asker read)."""
        key = homework_key(assignment_id, number)
        with self.store.writing() as connection:
            self._lock(connection, assignment_id)
            if current_round(connection, player, key) is not None:
                raise AlreadyPlayed(number)
            due = connection.execute(select(assignments.c.due).where(assignments.c.id == assignment_id)).scalar()
            if due is None or now >= due:
                raise PastDue(due)
            values = {**board.values(), "board_key": key, "player": player, "number": 1, "started": now}
            connection.execute(insert_ignoring_duplicates(connection.dialect.name, rounds).values(**values))
            started = current_round(connection, player, key)
        assert started is not None
        return started

    def results(self, assignment: Assignment) -> list[PupilRound]:
        """Every pupil's round on every board (a pupil who played none: one row with number None), in the order the
        pupils joined and by board."""
        keys = assignment.keys()
        query = (
            select(
                assignment_pupils.c.id,
                assignment_pupils.c.nickname,
                rounds.c.board_key,
                rounds.c.score,
                rounds.c.found,
                rounds.c.started,
                rounds.c.ended,
                rounds.c.seconds,
                rounds.c.shift,
                assignment_pupils.c.class_pupil_id,
            )
            .select_from(
                assignment_pupils.outerjoin(
                    rounds, (rounds.c.player == assignment_pupils.c.player) & rounds.c.board_key.in_(list(keys))
                )
            )
            .where(assignment_pupils.c.assignment_id == assignment.id)
            .order_by(assignment_pupils.c.joined, assignment_pupils.c.id, rounds.c.board_key)
        )
        with self.store.reader.connect() as connection:
            rows = connection.execute(query).all()
        return sorted(
            (
                PupilRound(
                    row.id,
                    row.nickname,
                    keys.get(row.board_key),
                    row.score or 0,
                    row.found or 0,
                    row.started,
                    row.ended,
                    row.seconds or 0,
                    row.shift or 0.0,
                    row.class_pupil_id,
                )
                for row in rows
            ),
            key=lambda line: (line.pupil_id, line.number or 0),
        )

    def words_found(self, assignment: Assignment) -> list[PupilWord]:
        """Every word every pupil found on the assignment's boards."""
        keys = assignment.keys()
        query = (
            select(
                assignment_pupils.c.id, assignment_pupils.c.nickname, rounds.c.board_key, words.c.word, words.c.score
            )
            .select_from(
                words.join(rounds, rounds.c.id == words.c.round_id).join(
                    assignment_pupils,
                    (assignment_pupils.c.player == rounds.c.player)
                    & (assignment_pupils.c.assignment_id == assignment.id),
                )
            )
            .where(rounds.c.board_key.in_(list(keys)))
        )
        with self.store.reader.connect() as connection:
            return [
                PupilWord(row.id, row.nickname, keys[row.board_key], row.word, row.score)
                for row in connection.execute(query)
            ]

    def running_homework(self, letters_key: str, since: float) -> bool:
        """Whether a homework has a board of these letters on which a round may still run after `since` (its deadline,
        plus a round that began just before it): one indexed query, asked by every solution page."""
        with self.store.reader.connect() as connection:
            return (
                connection.execute(RUNNING_HOMEWORK, {"letters_key": letters_key, "since": since}).first() is not None
            )

    def new_teacher_key(self, assignment_id: int) -> str:
        """A new secret for the teacher's link, returned: the old link opens nothing any more."""
        key = secrets.token_urlsafe(REMOTE_KEY_BYTES)
        with self.store.writing() as connection:
            connection.execute(update(assignments).where(assignments.c.id == assignment_id).values(teacher_key=key))
        return key

    def delete(self, assignment_id: int) -> bool:
        """Delete an assignment with its boards, pupils, and their rounds and words; whether there was one."""
        with self.store.writing() as connection:
            numbers = connection.execute(
                select(assignment_boards.c.number).where(assignment_boards.c.assignment_id == assignment_id)
            ).scalars()
            _delete_rounds(connection, [homework_key(assignment_id, number) for number in numbers])
            for table in (assignment_pupils, assignment_boards):
                connection.execute(delete(table).where(table.c.assignment_id == assignment_id))
            return connection.execute(delete(assignments).where(assignments.c.id == assignment_id)).rowcount == 1

    def delete_pupil(self, assignment: Assignment, pupil_id: int) -> bool:
        """Delete a pupil of the assignment with their rounds and words; whether there was one."""
        with self.store.writing() as connection:
            seat = connection.execute(
                select(assignment_pupils.c.player).where(
                    assignment_pupils.c.assignment_id == assignment.id, assignment_pupils.c.id == pupil_id
                )
            ).scalar()
            if seat is None:
                return False
            _delete_rounds(connection, list(assignment.keys()), seat)
            connection.execute(delete(assignment_pupils).where(assignment_pupils.c.id == pupil_id))
        return True

    def delete_due_before(self, moment: float) -> int:
        """Delete the assignments whose deadline passed before a moment (the store's clean-up); how many went."""
        with self.store.reader.connect() as connection:
            old = connection.execute(select(assignments.c.id).where(assignments.c.due < moment)).scalars().all()
        return sum(self.delete(assignment_id) for assignment_id in old)

    @staticmethod
    def _lock(connection: Connection, assignment_id: int) -> None:
        """Lock the assignment's row until the transaction ends (PostgreSQL; SQLite's write lock is held already)."""
        if connection.dialect.name == "postgresql":
            connection.execute(
                select(assignments.c.id).where(assignments.c.id == assignment_id).with_for_update()
            ).first()


def _delete_rounds(connection: Connection, keys: list[str], player: str | None = None) -> None:
    """Delete the rounds on these board keys (one player's only, with `player`) and their words."""
    if not keys:
        return
    where: list[ColumnElement[bool]] = [rounds.c.board_key.in_(keys)]
    if player is not None:
        where.append(rounds.c.player == player)
    connection.execute(delete(words).where(words.c.round_id.in_(select(rounds.c.id).where(*where))))
    connection.execute(delete(rounds).where(*where))


__all__ = [
    "MAX_BOARDS",
    "PupilWord",
    "parse_homework_key",
    "AlreadyPlayed",
    "Assignment",
    "Assignments",
    "PastDue",
    "Pupil",
    "PupilRound",
    "homework_key",
]
