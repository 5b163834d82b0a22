"""The pupil's side of homework: the homework's page (a nickname, or a name on the class list, then the boards and
where the pupil stands on each), and playing a board: its Start button, its one round, the words, the give-up.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest, Conflict, Forbidden

from ruzzle.timeline import Timeline
from store.assignments import AlreadyPlayed, Assignment, PastDue, Pupil, homework_key

from ..deadlines import past_due_message, time_html
from ..game import GAME_REGIONS, answer_word, show_word_on
from ..joining import JoinForm, JoinRefused, Place, join, shown_back, with_retry_after
from ..pages import cached_url, render
from ..rounds import PlayerRound, end_round, load_round, now, player_id, round_board, the_store
from ..translations import gettext
from .board import HomeworkBoard, HomeworkPage, bp, find_assignment, homework_board, store


@dataclass(frozen=True)
class BoardState:
    """Where a pupil stands on a board of the assignment: "new" (not started), "closed" (past the deadline, not
    played), "playing" (their round runs) or "done" (with its score and words)."""

    number: int
    name: str
    score: int = 0
    found: int = 0


def board_states(assignment: Assignment, pupil: Pupil, moment: float) -> list[BoardState]:
    """The pupil's state on each board of the assignment."""
    states = []
    for number in range(1, len(assignment.seeds) + 1):
        played = the_store().rounds.current(pupil.player, homework_key(assignment.id, number))
        if played is None:
            states.append(BoardState(number, "closed" if moment >= assignment.due else "new"))
            continue
        timeline = Timeline(played.started, played.seconds, played.shift, played.paused_at, played.ended)
        name = "done" if timeline.is_over(moment) else "playing"
        states.append(BoardState(number, name, played.score, len(played.words)))
    return states


@bp.get("/a/<code>")
def pupil_page(code: str) -> ResponseReturnValue:
    """The pupil's page: a nickname first, then the boards with where they stand on each."""
    assignment = find_assignment(code)
    if code != assignment.code:
        return redirect(cached_url("assignments.pupil_page", code=assignment.code), 308)
    return homework_page(assignment)


def homework_page(
    assignment: Assignment, problem: str | None = None, nickname: str = "", status: int = 200
) -> tuple[str, int]:
    moment = now()
    pupil = assignment.member
    return render(
        "homework.html",
        ["main"],
        status,
        assignment=assignment,
        pupil=pupil,
        problem=problem,
        nickname=nickname,
        states=board_states(assignment, pupil, moment) if pupil else [],
        due_html=time_html(assignment, assignment.due),
        past_due=moment >= assignment.due,
    )


class HomeworkPlace(Place):
    """Joining a homework: its pupils' seats in the store."""

    def __init__(self, assignment: Assignment):
        self.assignment = assignment
        self.class_id = assignment.class_id
        self.seats = f"homework {assignment.id}"

    def take_seat(self, form: JoinForm) -> None:
        store().join(
            self.assignment,
            player_id(create=True),
            form.seat_name,
            form.key,
            now(),
            form.code,
            form.pupil.id if form.pupil else None,
        )

    def name_taken(self, name: str, with_code: bool) -> str:
        if with_code:
            return gettext(
                "That rejoin code is not %(name)s's. Check it under the name on the other device.", name=name
            )
        return gettext(
            "Someone in this homework is already called %(name)s. If that is you, type your rejoin code (under "
            "your name on your other device); if not, pick another name.",
            name=name,
        )

    def already_seated(self, name: str) -> str:
        return gettext("This device already plays this homework as %(name)s.", name=name)


@bp.post("/a/<code>/pupils")
def join_assignment(code: str) -> ResponseReturnValue:
    """Take a nickname (a room's rules: 1-20 characters, unique in the homework, no blocked word), or take a seat back
    with its rejoin code."""
    assignment = find_assignment(code)
    try:
        join(HomeworkPlace(assignment), request.form)
    except JoinRefused as refused:
        page = homework_page(assignment, refused.message, shown_back(request.form), refused.status)
        return with_retry_after(page, refused)
    return redirect(cached_url("assignments.pupil_page", code=assignment.code), 303)


def pupil_board(code: str, number: int) -> tuple[Assignment, Pupil, HomeworkBoard]:
    """The assignment, the asking pupil and the board; 403 for a browser that has not taken a nickname."""
    assignment = find_assignment(code)
    board = homework_board(assignment, number)
    if assignment.member is None:
        raise Forbidden(gettext("Take a nickname on the homework's page first."))
    return assignment, assignment.member, board


@bp.get("/a/<code>/boards/<int:number>")
def play_board(code: str, number: int) -> ResponseReturnValue:
    """A board of the homework: its Start button, the board page while the pupil's round runs (a reload resumes it),
    their summary once it is over."""
    assignment = find_assignment(code)
    board = homework_board(assignment, number)
    if assignment.member is None:
        return redirect(cached_url("assignments.pupil_page", code=assignment.code), 303)
    played = load_round(board)
    if played is None:
        closed = now() >= assignment.due
        return render(
            "homework_start.html",
            ["main"],
            403 if closed else 200,
            assignment=assignment,
            pupil=assignment.member,
            number=number,
            seconds=assignment.seconds,
            problem=past_due_message(assignment) if closed else None,
        )
    page = HomeworkPage(assignment, board)
    return render(page.template, GAME_REGIONS, **page.context(played.round))


@bp.post("/a/<code>/boards/<int:number>/start")
def start_board(code: str, number: int) -> ResponseReturnValue:
    """Start the pupil's one round on a board: 409 when they played it already, 403 after the deadline."""
    assignment, pupil, board = pupil_board(code, number)
    try:
        store().begin(assignment.id, number, pupil.player, round_board(board), now())
    except AlreadyPlayed:
        if running_round(board).round.is_over(now()):
            raise Conflict(
                gettext(
                    "You have played board %(number)d already: each board is played once. Your score stays.",
                    number=number,
                )
            ) from None
    except PastDue:
        raise Forbidden(past_due_message(assignment)) from None
    return redirect(board.url(), 303)


def running_round(board: HomeworkBoard) -> PlayerRound:
    """The pupil's round on the board (409 when they have not started it: the Start button starts it)."""
    played = load_round(board)
    if played is None:
        raise Conflict(gettext("Start board %(number)d first, on its page.", number=board.number))
    return played


@bp.post("/a/<code>/boards/<int:number>/words")
def submit_word(code: str, number: int) -> ResponseReturnValue:
    """A word traced or typed on a board of the homework: the board page's answers, on the pupil's round."""
    assignment, _pupil, board = pupil_board(code, number)
    return answer_word(HomeworkPage(assignment, board), running_round(board))


@bp.get("/a/<code>/boards/<int:number>/words/<word>")
def show_word(code: str, number: int, word: str) -> ResponseReturnValue:
    """One word's path and breakdown (a word found, or any once the pupil's round is over)."""
    assignment, _pupil, board = pupil_board(code, number)
    return show_word_on(HomeworkPage(assignment, board), running_round(board).round, word)


@bp.post("/a/<code>/boards/<int:number>/round")
def change_round(code: str, number: int) -> ResponseReturnValue:
    """End the pupil's round now (`action=give-up`); homework has no "play again"."""
    _assignment, _pupil, board = pupil_board(code, number)
    if request.form.get("action") != "give-up":
        raise BadRequest(gettext("A homework board is played once: the round can only be ended (give-up)."))
    end_round(running_round(board))
    return redirect(board.url(), 303)


__all__ = ["BoardState", "board_states", "homework_page", "pupil_board", "running_round"]
