"""A class over weeks, without accounts (issue 25): a teacher's named list of pupils, each a nickname with a code, on
the teacher's private link; homework set for the class takes its pupils only, and each pupil's seat in every homework
is tied to their line of the list, so the class page can follow each pupil from one homework to the next.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from .assignments import Assignments, _delete_rounds, homework_key
from .engine import Database
from .rooms import REMOTE_KEY_BYTES, NicknameTaken, new_rejoin_code, new_room_code
from .schema import assignment_boards, assignment_pupils, assignments, class_pupils, classes, rounds, words

KEEP_SECONDS = 180 * 86400  # a class is forgotten 180 days after it was made or last set homework


@dataclass(frozen=True)
class ClassPupil:
    """A pupil of a class list: a nickname and the code that makes them the same pupil on any device."""

    id: int
    nickname: str
    code: str


@dataclass(frozen=True)
class SchoolClass:
    """A class as the store has it, with its pupils in the order they were added."""

    id: int
    code: str
    teacher_key: str
    name: str
    created: float
    active_until: float
    pupils: tuple[ClassPupil, ...]


@dataclass(frozen=True)
class ClassHomework:
    """A homework set for the class: its code, number of boards, deadline and teacher's key."""

    id: int
    code: str
    boards: int
    created: float
    due: float
    due_offset: int
    teacher_key: str


@dataclass(frozen=True)
class PlayedWord:
    """A round of a class pupil on a homework's board, with one of its words (None: a round with no word)."""

    pupil_id: int
    assignment_id: int
    round_id: int
    score: int
    word: str | None


class Classes:
    """The teachers' class lists, in the store's database."""

    def __init__(self, store: Database):
        self.store = store

    def create(self, name: str, pupils: list[tuple[str, str]], now: float) -> SchoolClass:
        """A class of these pupils (nickname, nickname key), each with a fresh code, under a fresh code and key."""
        for _ in range(20):
            code = new_room_code()
            try:
                with self.store.writing() as connection:
                    class_id = connection.execute(
                        classes.insert()
                        .values(
                            code=code,
                            teacher_key=secrets.token_urlsafe(REMOTE_KEY_BYTES),
                            name=name,
                            created=now,
                            active_until=now + KEEP_SECONDS,
                        )
                        .returning(classes.c.id)
                    ).scalar_one()
                    if pupils:
                        connection.execute(
                            class_pupils.insert(),
                            [
                                {
                                    "class_id": class_id,
                                    "nickname": nickname,
                                    "nickname_key": key,
                                    "code": new_rejoin_code(),
                                }
                                for nickname, key in pupils
                            ],
                        )
            except IntegrityError:
                continue  # the class code was taken (the nicknames are unique: the view checks)
            made = self.get(code)
            assert made is not None
            return made
        raise RuntimeError("no free class code after 20 draws")

    def get(self, code: str) -> SchoolClass | None:
        with self.store.reader.connect() as connection:
            row = connection.execute(select(classes).where(classes.c.code == code.upper())).first()
            if row is None:
                return None
            pupils = connection.execute(
                select(class_pupils.c.id, class_pupils.c.nickname, class_pupils.c.code)
                .where(class_pupils.c.class_id == row.id)
                .order_by(class_pupils.c.id)
            ).all()
        return SchoolClass(
            row.id,
            row.code,
            row.teacher_key,
            row.name,
            row.created,
            row.active_until,
            tuple(ClassPupil(*p) for p in pupils),
        )

    def get_by_id(self, class_id: int) -> SchoolClass | None:
        with self.store.reader.connect() as connection:
            code = connection.execute(select(classes.c.code).where(classes.c.id == class_id)).scalar()
        return None if code is None else self.get(code)

    def pupil_named(self, class_id: int, nickname_key: str) -> ClassPupil | None:
        with self.store.reader.connect() as connection:
            row = connection.execute(
                select(class_pupils.c.id, class_pupils.c.nickname, class_pupils.c.code).where(
                    class_pupils.c.class_id == class_id, class_pupils.c.nickname_key == nickname_key
                )
            ).first()
        return None if row is None else ClassPupil(*row)

    def add_pupil(self, class_id: int, nickname: str, nickname_key: str) -> ClassPupil:
        """Add a pupil with a fresh code; NicknameTaken when the list has that name."""
        code = new_rejoin_code()
        try:
            with self.store.writing() as connection:
                pupil_id = connection.execute(
                    class_pupils.insert()
                    .values(class_id=class_id, nickname=nickname, nickname_key=nickname_key, code=code)
                    .returning(class_pupils.c.id)
                ).scalar_one()
        except IntegrityError:
            raise NicknameTaken(nickname) from None
        return ClassPupil(pupil_id, nickname, code)

    def touch(self, class_id: int, now: float) -> None:
        """The class was used now (homework set for it): it is kept KEEP_SECONDS from now."""
        with self.store.writing() as connection:
            connection.execute(update(classes).where(classes.c.id == class_id).values(active_until=now + KEEP_SECONDS))

    def homework(self, class_id: int) -> list[ClassHomework]:
        """The homework set for the class (that the store still keeps), the oldest first."""
        boards = (
            select(func.count())
            .where(assignment_boards.c.assignment_id == assignments.c.id)
            .correlate(assignments)
            .scalar_subquery()
        )
        with self.store.reader.connect() as connection:
            rows = connection.execute(
                select(
                    assignments.c.id,
                    assignments.c.code,
                    boards,
                    assignments.c.created,
                    assignments.c.due,
                    assignments.c.due_offset,
                    assignments.c.teacher_key,
                )
                .where(assignments.c.class_id == class_id)
                .order_by(assignments.c.created, assignments.c.id)
            ).all()
        return [ClassHomework(*row) for row in rows]

    def played(self, class_id: int, keys: dict[str, int]) -> list[PlayedWord]:
        """Every round (with each of its words) of the class's pupils on these board keys (key: its homework's id)."""
        if not keys:
            return []
        query = (
            select(
                assignment_pupils.c.class_pupil_id,
                assignment_pupils.c.assignment_id,
                rounds.c.board_key,
                rounds.c.id,
                rounds.c.score,
                words.c.word,
            )
            .select_from(
                assignment_pupils.join(class_pupils, class_pupils.c.id == assignment_pupils.c.class_pupil_id)
                .join(rounds, rounds.c.player == assignment_pupils.c.player)
                .outerjoin(words, words.c.round_id == rounds.c.id)
            )
            .where(class_pupils.c.class_id == class_id, rounds.c.board_key.in_(list(keys)))
        )
        with self.store.reader.connect() as connection:
            return [
                PlayedWord(row.class_pupil_id, keys[row.board_key], row.id, row.score, row.word)
                for row in connection.execute(query)
                if keys[row.board_key] == row.assignment_id  # (the same browser's rounds of another homework)
            ]

    def delete_pupil(self, class_id: int, pupil_id: int) -> bool:
        """Delete a pupil of the list with their seats, rounds and words in every homework; whether there was one."""
        with self.store.writing() as connection:
            exists = connection.execute(
                select(class_pupils.c.id).where(class_pupils.c.class_id == class_id, class_pupils.c.id == pupil_id)
            ).first()
            if exists is None:
                return False
            seats = connection.execute(
                select(assignment_pupils.c.id, assignment_pupils.c.player, assignment_pupils.c.assignment_id).where(
                    assignment_pupils.c.class_pupil_id == pupil_id
                )
            ).all()
            for seat in seats:
                numbers = connection.execute(
                    select(assignment_boards.c.number).where(assignment_boards.c.assignment_id == seat.assignment_id)
                ).scalars()
                _delete_rounds(connection, [homework_key(seat.assignment_id, n) for n in numbers], seat.player)
            connection.execute(delete(assignment_pupils).where(assignment_pupils.c.class_pupil_id == pupil_id))
            connection.execute(delete(class_pupils).where(class_pupils.c.id == pupil_id))
        return True

    def delete(self, class_id: int, assignments_store: Assignments) -> bool:
        """Delete the class: its homework (with everything in it), its list and itself; whether there was one."""
        for homework in self.homework(class_id):
            assignments_store.delete(homework.id)
        with self.store.writing() as connection:
            connection.execute(delete(class_pupils).where(class_pupils.c.class_id == class_id))
            return connection.execute(delete(classes).where(classes.c.id == class_id)).rowcount == 1

    def delete_inactive(self, moment: float, assignments_store: Assignments) -> int:
        """Delete the classes unused since before a moment (the store's clean-up); how many went."""
        with self.store.reader.connect() as connection:
            old = connection.execute(select(classes.c.id).where(classes.c.active_until < moment)).scalars().all()
        return sum(self.delete(class_id, assignments_store) for class_id in old)


__all__ = ["KEEP_SECONDS", "ClassHomework", "ClassPupil", "Classes", "PlayedWord", "SchoolClass"]
