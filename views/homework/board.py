"""A homework's board and its board page: `HomeworkBoard` (a generated board whose pages are the homework's), the
homework's kind of board page for the engine in `views/game.py` (`HomeworkPage`), and the lookups the pupil's and the
teacher's pages share (an assignment by its code, its board by number). The blueprint `assignments` is made here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from flask import Blueprint
from werkzeug.exceptions import NotFound

from ruzzle.game import Round
from ruzzle.room import CODE_LENGTH, is_room_code
from store.assignments import Assignment, Assignments, homework_key

from ..boards import BoardRequest
from ..game import GamePage, PageContext
from ..limits import check_code_lookup
from ..pages import cached_url
from ..rounds import player_id, the_store
from ..translations import gettext, ngettext

bp = Blueprint("assignments", __name__)


# --- an assignment's board -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HomeworkBoard(BoardRequest):
    """The board of an assignment: a generated board whose pages are the assignment's (the words go to it)."""

    code: str = ""
    assignment_id: int = 0
    number: int = 1
    PAGES = {
        "board": "assignments.play_board",
        "words": "assignments.submit_word",
        "word": "assignments.show_word",
        "round": "assignments.change_round",
    }

    def path_values(self) -> dict[str, str]:
        return {"code": self.code, "number": str(self.number)}

    def query(self) -> dict[str, str]:
        return {}

    def url(self, endpoint: str = "assignments.play_board", _external: bool = False, **values: object) -> str:
        values.pop("challenge", None)  # homework compares with the class, not with a challenge link
        return cached_url(endpoint, _external, **self.path_values(), **values)

    def page_url(self, page: str, _external: bool = False, **values: object) -> str:
        """The homework's own pages (the board, its words, the end of the round); the others are the board's own
        (the teacher's walk-through, its solution after the deadline)."""
        if page in self.PAGES:
            return self.url(self.PAGES[page], _external, **values)
        return self.seed_board.page_url(page, _external, **values)

    @property
    def round_key(self) -> str:
        return homework_key(self.assignment_id, self.number)

    @cached_property
    def seed_board(self) -> BoardRequest:
        """The same board as an ordinary board URL (its solution and projector pages)."""
        return BoardRequest.of_played(self.played())


def homework_board(assignment: Assignment, number: int) -> HomeworkBoard:
    """Board `number` of the assignment; 404 for a number it has not."""
    if not 1 <= number <= len(assignment.seeds):
        raise NotFound(
            ngettext(
                "Homework %(code)s has %(num)d board: there is no board %(number)d.",
                "Homework %(code)s has %(num)d boards: there is no board %(number)d.",
                len(assignment.seeds),
                code=assignment.code,
                number=number,
            )
        )
    return HomeworkBoard(
        assignment.language,
        assignment.seeds[number - 1],
        assignment.rows,
        assignment.cols,
        assignment.seconds,
        assignment.safe,
        assignment.generator,
        code=assignment.code,
        assignment_id=assignment.id,
        number=number,
    )


def store() -> Assignments:
    return the_store().assignments


def find_assignment(code: str) -> Assignment:
    """The assignment of a code typed in any case; 404 saying so for a code that names none (counted as a room code
    that names no room: a client trying codes is limited the same way)."""
    code = code.strip().upper()
    assignment = store().get(code, player_id()) if is_room_code(code) else None
    if assignment is None:
        check_code_lookup(missed=True)
        raise NotFound(
            gettext(
                "There is no homework %(code)s. Check the code your teacher gave: %(length)d letters and digits, such "
                "as K7M2QX. Homework is deleted a month after its deadline.",
                code=code[:12],
                length=CODE_LENGTH,
            )
        )
    return assignment


# --- its board page --------------------------------------------------------------------------------------------


class HomeworkPage(GamePage):
    """A homework board's page: the pupil's one round on it, with the homework's boards around it."""

    template = "homework_play.html"
    word_regions = ["result", "score"]  # a homework shares no link

    def __init__(self, assignment: Assignment, board: HomeworkBoard, moment: float | None = None):
        super().__init__(board, moment)
        self.assignment = assignment

    def context(self, round_: Round, message: str | None = None) -> PageContext:
        """The board page's context for a homework board, with the homework's boards around it."""
        context = super().context(round_, message)
        context.update(
            assignment=self.assignment,
            pupil=self.assignment.member,
            boards=len(self.assignment.seeds),
            # homework is marked work, and the teacher set no hints (the hints' URL would also name the board's code,
            # whose solution page lists every word)
            hints_offered=False,
        )
        return context


__all__ = ["HomeworkBoard", "HomeworkPage", "bp", "find_assignment", "homework_board", "store"]
