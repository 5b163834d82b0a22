"""A class over weeks, without accounts (issue 25): a teacher's named list of pupils, each a nickname with a code, on
the teacher's private link; homework set for the class takes its pupils only, and each pupil's seat in every homework
is tied to their line of the list, so the class page can follow each pupil from one homework to the next. A live room
opened for the class does the same (its seats carry the pupil's line too).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from .assignments import Assignments, _delete_rounds, homework_key
from .engine import Database
from .rooms import REMOTE_KEY_BYTES, NicknameTaken, Rooms, new_rejoin_code, new_room_code, round_key
from .schema import (
    assignment_boards,
    assignment_pupils,
    assignments,
    class_pupils,
    classes,
    room_players,
    room_rounds,
    rooms,
    rounds,
    words,
)

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
class Lesson:
    """A homework or a live room of the class: its kind ("homework" or "room"), id, code, boards (a homework's) or
    rounds (a room's), when it was made, and the key of the teacher's link to it (the homework's, the room's remote)."""

    kind: str
    id: int
    code: str
    boards: int
    created: float
    key: str

    def keys(self) -> list[str]:
        """Its board keys in the `rounds` table."""
        make = homework_key if self.kind == "homework" else round_key
        return [make(self.id, number) for number in range(1, self.boards + 1)]


@dataclass(frozen=True)
class PlayedWord:
    """A round of a class pupil in a lesson (homework or room), with one of its words (None: a round with no word)."""

    pupil_id: int
    lesson: tuple[str, int]  # its kind and id
    round_id: int
    score: int
    word: str | None


class Classes:
    """The teachers' class lists, in the store's database."""

    def __init__(self, store: Database, homework: Assignments, rooms: Rooms):
        self.store = store
        self.assignments = homework  # (a class's homework and rooms go with it)
        self.rooms = rooms

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

    def new_teacher_key(self, class_id: int) -> str:
        """A new secret for the class's private link, returned: the old link opens nothing any more."""
        key = secrets.token_urlsafe(REMOTE_KEY_BYTES)
        with self.store.writing() as connection:
            connection.execute(update(classes).where(classes.c.id == class_id).values(teacher_key=key))
        return key

    def touch(self, class_id: int, now: float) -> None:
        """The class was used now (homework set for it): it is kept KEEP_SECONDS from now."""
        with self.store.writing() as connection:
            connection.execute(update(classes).where(classes.c.id == class_id).values(active_until=now + KEEP_SECONDS))

    def lessons(self, class_id: int) -> list[Lesson]:
        """The homework and rooms of the class that the store still keeps, the oldest first: a room counts once its
        first round started (a room opened and never played was no lesson), with the rounds that started."""
        boards = (
            select(func.count())
            .where(assignment_boards.c.assignment_id == assignments.c.id)
            .correlate(assignments)
            .scalar_subquery()
        )
        played = (
            select(func.count())
            .where(room_rounds.c.room_id == rooms.c.id, room_rounds.c.started.is_not(None))
            .correlate(rooms)
            .scalar_subquery()
        )
        with self.store.reader.connect() as connection:
            homework = connection.execute(
                select(
                    assignments.c.id, assignments.c.code, boards, assignments.c.created, assignments.c.teacher_key
                ).where(assignments.c.class_id == class_id)
            ).all()
            lessons = connection.execute(
                select(rooms.c.id, rooms.c.code, played, rooms.c.created, rooms.c.remote_key).where(
                    rooms.c.class_id == class_id, played > 0
                )
            ).all()
        found = [Lesson("homework", *row) for row in homework] + [Lesson("room", *row) for row in lessons]
        return sorted(found, key=lambda lesson: (lesson.created, lesson.kind, lesson.id))

    def played(self, class_id: int, lessons: list[Lesson]) -> list[PlayedWord]:
        """Every round (with each of its words) of the class's pupils in these lessons."""
        keys = {key: (lesson.kind, lesson.id) for lesson in lessons for key in lesson.keys()}
        if not keys:
            return []
        found = []
        for seats, lesson in (
            (assignment_pupils, assignment_pupils.c.assignment_id),
            (room_players, room_players.c.room_id),
        ):
            kind = "homework" if seats is assignment_pupils else "room"
            query = (
                select(
                    seats.c.class_pupil_id,
                    lesson.label("lesson"),
                    rounds.c.board_key,
                    rounds.c.id,
                    rounds.c.score,
                    words.c.word,
                )
                .select_from(
                    seats.join(class_pupils, class_pupils.c.id == seats.c.class_pupil_id)
                    .join(rounds, rounds.c.player == seats.c.player)
                    .outerjoin(words, words.c.round_id == rounds.c.id)
                )
                .where(class_pupils.c.class_id == class_id, rounds.c.board_key.in_(list(keys)))
            )
            with self.store.reader.connect() as connection:
                found += [
                    PlayedWord(row.class_pupil_id, (kind, row.lesson), row.id, row.score, row.word)
                    for row in connection.execute(query)
                    if keys[row.board_key] == (kind, row.lesson)  # (the same browser's rounds of another lesson)
                ]
        return found

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
            room_seats = connection.execute(
                select(room_players.c.player, room_players.c.room_id).where(room_players.c.class_pupil_id == pupil_id)
            ).all()
            for player, room_id in room_seats:
                numbers = connection.execute(
                    select(room_rounds.c.number).where(room_rounds.c.room_id == room_id)
                ).scalars()
                _delete_rounds(connection, [round_key(room_id, n) for n in numbers], player)
            connection.execute(delete(room_players).where(room_players.c.class_pupil_id == pupil_id))
            connection.execute(delete(class_pupils).where(class_pupils.c.id == pupil_id))
        return True

    def delete(self, class_id: int) -> bool:
        """Delete the class: its homework and rooms (with everything in them), its list and itself; whether there was
        one."""
        with self.store.reader.connect() as connection:  # (its rooms never played too: lessons() leaves them out)
            homework = list(
                connection.execute(select(assignments.c.id).where(assignments.c.class_id == class_id)).scalars()
            )
            room_ids = list(connection.execute(select(rooms.c.id).where(rooms.c.class_id == class_id)).scalars())
        for assignment_id in homework:
            self.assignments.delete(assignment_id)
        for room_id in room_ids:
            self.rooms.delete(room_id)
        with self.store.writing() as connection:
            connection.execute(delete(class_pupils).where(class_pupils.c.class_id == class_id))
            return connection.execute(delete(classes).where(classes.c.id == class_id)).rowcount == 1

    def delete_inactive(self, moment: float) -> int:
        """Delete the classes unused since before a moment (the store's clean-up); how many went."""
        with self.store.reader.connect() as connection:
            old = connection.execute(select(classes.c.id).where(classes.c.active_until < moment)).scalars().all()
        return sum(self.delete(class_id) for class_id in old)


__all__ = ["KEEP_SECONDS", "ClassPupil", "Classes", "Lesson", "PlayedWord", "SchoolClass"]
