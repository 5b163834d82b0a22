"""Homework (issue 25): a few boards a class plays by a deadline, each pupil once per board, whenever they like.

The teacher sets it from the start page (`POST /assignments`) and keeps the private link of its teacher's page (a
secret, as the room's teacher remote); the pupils open `/a/<CODE>`, take a nickname (a room's rules and rejoin code),
and play each board at `/a/<CODE>/boards/<n>`: the board page with its word queue, an ordinary timed round on the
board key `homework|<id>|<n>` (store/assignments.py). A round starts once per pupil and board and only before the
deadline; a round already running finishes by its own clock, after the deadline too.

By job: `board` (the homework's board and board page, the lookups, the blueprint `assignments`), `pupil` (joining,
the pupil's pages, playing a board) and `teacher` (setting homework, the teacher's page, results); the deadline is
the leaf `views/deadlines.py`.
"""

from . import pupil, teacher  # noqa: F401  (their routes register on the blueprint)
from .board import HomeworkBoard, HomeworkPage, bp, find_assignment, homework_board
from .teacher import PupilLine, parse_seeds, results, teacher_assignment

__all__ = [
    "HomeworkBoard",
    "HomeworkPage",
    "PupilLine",
    "bp",
    "find_assignment",
    "homework_board",
    "parse_seeds",
    "results",
    "teacher_assignment",
]
