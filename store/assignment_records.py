"""Homework's records in the store: the values an assignment is read into (Assignment, Pupil, PupilRound,
PupilWord), its board keys, its refusals and the statements that read it (store/assignments.py writes and reads)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, select

from .rounds import parse_shared_board_key, shared_board_key
from .schema import assignment_boards, assignment_pupils, assignments

MAX_BOARDS = 10  # boards an assignment holds: an evening's homework, not a tournament


def homework_key(assignment_id: int, number: int) -> str:
    """The board key of a pupil's round on an assignment's board in the `rounds` table."""
    return shared_board_key("homework", assignment_id, number)


def parse_homework_key(board_key: str) -> tuple[int, int] | None:
    """The assignment id and board number of a homework round's board key; None for any other key."""
    return parse_shared_board_key(board_key, "homework")


@dataclass(frozen=True)
class Pupil:
    """A pupil of an assignment: their id in it, browser (player id), nickname and rejoin code."""

    id: int
    player: str
    nickname: str
    joined: float
    rejoin_code: str


@dataclass(frozen=True)
class Assignment:
    """An assignment as the store has it: its boards' seeds (board n is seeds[n - 1]) and the asker's seat."""

    id: int
    code: str
    teacher_key: str
    language: str
    rows: int
    cols: int
    seconds: int
    safe: bool
    generator: int
    created: float
    due: float
    due_offset: int  # minutes east of UTC of the teacher's time zone
    seeds: tuple[str, ...]
    member: Pupil | None = None
    class_id: int | None = None  # the class list it was set for (its pupils only)

    def keys(self) -> dict[str, int]:
        """The board keys of its boards in the `rounds` table, with each board's number."""
        return {homework_key(self.id, number): number for number in range(1, len(self.seeds) + 1)}


@dataclass(frozen=True)
class PupilRound:
    """A pupil's round on a board of the assignment (number None: a pupil who has played none)."""

    pupil_id: int
    nickname: str
    number: int | None
    score: int
    found: int
    started: float | None
    ended: float | None
    seconds: int
    shift: float
    class_pupil_id: int | None = None  # their line of the class list (homework set for a class)


@dataclass(frozen=True)
class PupilWord:
    """A word a pupil found on a board of the assignment."""

    pupil_id: int
    nickname: str
    number: int
    word: str
    score: int


class AlreadyPlayed(Exception):
    """The pupil has a round on this board already (running or over): one attempt per board."""


class PastDue(Exception):
    """The deadline has passed: no new round starts."""


PUPIL_COLUMNS = (
    assignment_pupils.c.id,
    assignment_pupils.c.player,
    assignment_pupils.c.nickname,
    assignment_pupils.c.joined,
    assignment_pupils.c.rejoin_code,
)
ASSIGNMENT_BY_CODE = select(assignments).where(assignments.c.code == bindparam("code"))
SEEDS = (
    select(assignment_boards.c.seed)
    .where(assignment_boards.c.assignment_id == bindparam("assignment_id"))
    .order_by(assignment_boards.c.number)
)
SEAT = select(*PUPIL_COLUMNS).where(
    assignment_pupils.c.assignment_id == bindparam("assignment_id"), assignment_pupils.c.player == bindparam("player")
)
# A homework with a board of these letters that a round may still be played on after `since`: the index on the boards'
# letters finds the few boards, each joined to its assignment by its primary key.
RUNNING_HOMEWORK = (
    select(assignment_boards.c.assignment_id)
    .join(assignments, assignments.c.id == assignment_boards.c.assignment_id)
    .where(
        assignment_boards.c.letters_key == bindparam("letters_key"),
        assignments.c.due + assignments.c.seconds > bindparam("since"),
    )
    .limit(1)
)
