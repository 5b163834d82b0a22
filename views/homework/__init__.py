"""Homework (issue 25): a few boards a class plays by a deadline, each pupil once per board, whenever they like.

The teacher sets it from the start page (`POST /assignments`) and keeps the private link of its teacher's page (a
secret, as the room's teacher remote); the pupils open `/a/<CODE>`, take a nickname (a room's rules and rejoin code),
and play each board at `/a/<CODE>/boards/<n>`: the board page with its word queue, an ordinary timed round on the
board key `homework|<id>|<n>` (store/assignments.py). A round starts once per pupil and board and only before the
deadline; a round already running finishes by its own clock, after the deadline too.
"""

from __future__ import annotations

import hmac
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

from flask import Blueprint, redirect, request
from flask_babel import gettext, ngettext
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound

from ruzzle import new_seed
from ruzzle.game import Round
from ruzzle.generator import LATEST_VERSION
from ruzzle.nicknames import NicknameRefused, check_nickname, nickname_key
from ruzzle.room import CODE_LENGTH, is_room_code
from ruzzle.timeline import Timeline
from store.assignments import MAX_BOARDS, AlreadyPlayed, Assignment, PastDue, Pupil, PupilRound, homework_key
from store.rooms import AlreadySeated, NicknameTaken

from ..boards import (
    BoardRequest,
    parse_class_board,
    parse_safe,
    parse_seed,
)
from ..classes import NotOnTheList, class_of_form
from ..classes import class_pupil as class_pupil_on_list
from ..deadlines import local_time, parse_due, past_due_message, time_html
from ..game import GAME_REGIONS, GamePage, answer_word, game_context, show_word_on
from ..i18n import translate_error
from ..limits import check_code_lookup
from ..numbers import read_whole_number
from ..pages import cached_url, render, sentence, wants_json
from ..qr import qr_svg
from ..rounds import PlayerRound, clean_up_store, end_round, load_round, now, player_id, round_board, the_store

bp = Blueprint("assignments", __name__)
_SEEDS = re.compile(r"[\s,;]+")


# --- an assignment's board -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HomeworkBoard(BoardRequest):
    """The board of an assignment: a generated board whose pages are the assignment's (the words go to it)."""

    code: str = ""
    assignment_id: int = 0
    number: int = 1
    ENDPOINTS = {
        "play.show_board": "assignments.play_board",
        "play.submit_word": "assignments.submit_word",
        "play.show_word": "assignments.show_word",
        "play.change_round": "assignments.change_round",
    }

    def path_values(self) -> dict[str, str]:
        return {"code": self.code, "number": str(self.number)}

    def query(self) -> dict[str, str]:
        return {}

    def url(self, endpoint: str = "assignments.play_board", _external: bool = False, **values) -> str:
        values.pop("challenge", None)  # homework compares with the class, not with a challenge link
        endpoint = self.ENDPOINTS.get(endpoint, endpoint)
        if endpoint.startswith("assignments."):
            return cached_url(endpoint, _external, **self.path_values(), **values)
        return self.seed_board.url(endpoint, _external, **values)  # the board's own pages (the teacher's walk-through)

    def page_url(self, page: str, _external: bool = False, **values) -> str:
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


def store():
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


def teacher_assignment(code: str, key: str | None) -> Assignment:
    """The assignment, for the holder of its teacher's key (403 saying so for anyone else)."""
    assignment = find_assignment(code)
    if not key or not hmac.compare_digest(key.encode(), assignment.teacher_key.encode()):
        raise Forbidden(
            gettext(
                "This is not the teacher's link of homework %(code)s. Open the private link you kept when you set it.",
                code=assignment.code,
            )
        )
    return assignment


def teacher_url(assignment: Assignment, _external: bool = True) -> str:
    return cached_url("assignments.teacher_page", _external, code=assignment.code, key=assignment.teacher_key)


def pupils_url(assignment: Assignment, _external: bool = True) -> str:
    return cached_url("assignments.pupil_page", _external, code=assignment.code)


# --- setting homework ------------------------------------------------------------------------------------------


def parse_seeds(form) -> list[str]:
    """The boards: `seeds` (board codes separated by spaces or commas) or `count` fresh boards (1 by default)."""
    text = form.get("seeds") or form.get("seed") or ""  # (the start page's one board code)
    typed = [seed for seed in _SEEDS.split(text[: 65 * MAX_BOARDS + 1]) if seed]
    if typed:
        if len(typed) > MAX_BOARDS:
            raise BadRequest(too_many_boards())
        return [parse_seed(seed) for seed in typed]
    count = read_whole_number(form.get("count") or "1", 6)  # (room for leading zeros)
    if count is None or not 1 <= count <= MAX_BOARDS:
        raise BadRequest(too_many_boards())
    return [new_seed() for _ in range(count)]


def too_many_boards() -> str:
    return gettext("Homework has 1 to %(most)d boards.", most=MAX_BOARDS)


@bp.post("/assignments")
def create_assignment():
    """Set homework: the boards, their round length and the deadline; to the teacher's page (its private link)."""
    form = request.form
    language, rows, cols, seconds = parse_class_board(
        form,
        lambda least, most: gettext(
            "Homework's rounds need a time limit (%(least)d to %(most)d seconds), so every pupil has the same.",
            least=least,
            most=most,
        ),
    )
    seeds = parse_seeds(form)
    due, offset = parse_due(form, now())
    school_class = class_of_form(form)  # set for a class list (the class page's form): its pupils only
    clean_up_store()
    assignment = store().create(
        language,
        rows,
        cols,
        seconds,
        parse_safe(form.get("safe")),
        LATEST_VERSION,
        seeds,
        now(),
        due,
        offset,
        school_class and school_class.id,
    )
    return redirect(teacher_url(assignment, _external=False), 303)


# --- the pupil -------------------------------------------------------------------------------------------------


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
def pupil_page(code: str):
    """The pupil's page: a nickname first, then the boards with where they stand on each."""
    assignment = find_assignment(code)
    if code != assignment.code:
        return redirect(cached_url("assignments.pupil_page", code=assignment.code), 308)
    return homework_page(assignment)


def homework_page(assignment: Assignment, problem: str | None = None, nickname: str = "", status: int = 200):
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


@bp.post("/a/<code>/pupils")
def join_assignment(code: str):
    """Take a nickname (a room's rules: 1-20 characters, unique in the homework, no blocked word), or take a seat back
    with its rejoin code."""
    assignment = find_assignment(code)
    typed = request.form.get("nickname", "")
    rejoin_code = request.form.get("code", "").strip()[:16] or None
    try:
        nickname = check_nickname(typed)
        class_pupil = class_pupil_on_list(assignment.class_id, nickname, rejoin_code)
        store().join(
            assignment,
            player_id(create=True),
            class_pupil.nickname if class_pupil else nickname,
            nickname_key(nickname),
            now(),
            rejoin_code,
            class_pupil and class_pupil.id,
        )
    except NotOnTheList as error:
        return homework_page(assignment, str(error), typed[:40], 403)  # (homework for a class list)
    except NicknameRefused as error:
        return homework_page(assignment, sentence(translate_error(error)), typed[:40], 422)
    except NicknameTaken as error:
        problem = (
            gettext(
                "That rejoin code is not %(name)s's. Check it under the name on the other device.", name=error.args[0]
            )
            if rejoin_code
            else gettext(
                "Someone in this homework is already called %(name)s. If that is you, type your rejoin code (under "
                "your name on your other device); if not, pick another name.",
                name=error.args[0],
            )
        )
        return homework_page(assignment, problem, typed[:40], 409)
    except AlreadySeated as error:
        return homework_page(
            assignment,
            gettext("This device already plays this homework as %(name)s.", name=error.args[0]),
            typed[:40],
            409,
        )
    return redirect(cached_url("assignments.pupil_page", code=assignment.code), 303)


def pupil_board(code: str, number: int) -> tuple[Assignment, Pupil, HomeworkBoard]:
    """The assignment, the asking pupil and the board; 403 for a browser that has not taken a nickname."""
    assignment = find_assignment(code)
    board = homework_board(assignment, number)
    if assignment.member is None:
        raise Forbidden(gettext("Take a nickname on the homework's page first."))
    return assignment, assignment.member, board


@bp.get("/a/<code>/boards/<int:number>")
def play_board(code: str, number: int):
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


class HomeworkPage(GamePage):
    """A homework board's page: the pupil's one round on it, with the homework's boards around it."""

    template = "homework_play.html"

    def __init__(self, assignment: Assignment, board: HomeworkBoard):
        super().__init__(board)
        self.assignment = assignment

    def context(self, round_: Round, message: str | None = None, moment: float | None = None) -> dict:
        return homework_context(self.assignment, self.board, round_, message, moment)


def homework_context(
    assignment: Assignment, board: HomeworkBoard, round_: Round, message: str | None = None, moment: float | None = None
) -> dict:
    """The board page's context for a homework board (now, or as of `moment`)."""
    context = game_context(board, round_, message, moment)
    context.update(
        assignment=assignment,
        pupil=assignment.member,
        boards=len(assignment.seeds),
        # homework is marked work, and the teacher set no hints (the hints' URL would also name the board's code,
        # whose solution page lists every word)
        hints_offered=False,
    )
    return context


@bp.post("/a/<code>/boards/<int:number>/start")
def start_board(code: str, number: int):
    """Start the pupil's one round on a board: 409 when they played it already, 403 after the deadline."""
    assignment, pupil, board = pupil_board(code, number)
    try:
        store().begin(assignment.id, number, pupil.player, round_board(board), now())
    except AlreadyPlayed:
        if load_round(board).round.is_over(now()):
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
def submit_word(code: str, number: int):
    """A word traced or typed on a board of the homework: the board page's answers, on the pupil's round."""
    assignment, _pupil, board = pupil_board(code, number)
    return answer_word(HomeworkPage(assignment, board), running_round(board))


@bp.get("/a/<code>/boards/<int:number>/words/<word>")
def show_word(code: str, number: int, word: str):
    """One word's path and breakdown (a word found, or any once the pupil's round is over)."""
    assignment, _pupil, board = pupil_board(code, number)
    return show_word_on(HomeworkPage(assignment, board), running_round(board).round, word)


@bp.post("/a/<code>/boards/<int:number>/round")
def change_round(code: str, number: int):
    """End the pupil's round now (`action=give-up`); homework has no "play again"."""
    _assignment, _pupil, board = pupil_board(code, number)
    if request.form.get("action") != "give-up":
        raise BadRequest(gettext("A homework board is played once: the round can only be ended (give-up)."))
    end_round(running_round(board))
    return redirect(board.url(), 303)


# --- the teacher -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PupilLine:
    """A pupil's line of the teacher's table: each board's round (None: not played) and their total."""

    pupil_id: int
    nickname: str
    rounds: tuple[PupilRound | None, ...]
    words: tuple[tuple[str, ...], ...]  # the words found on each board, in alphabetical order

    @property
    def total(self) -> int:
        return sum(played.score for played in self.rounds if played)

    @property
    def found(self) -> int:
        return sum(played.found for played in self.rounds if played)


@dataclass(frozen=True)
class BoardView:
    """The class's view of one board: each word found with who found it (the most found first), the words nobody
    found, and the walk-through's link."""

    number: int
    found: list[tuple[str, int, list[str]]]  # word, points, finders
    missed: list[str]
    total_words: int
    walk_url: str


def results(assignment: Assignment) -> list[PupilLine]:
    """Every pupil's rounds and words, in the order they joined."""
    words: dict[tuple[int, int], list[str]] = defaultdict(list)
    for found in store().words_found(assignment):
        words[found.pupil_id, found.number].append(found.word)
    rounds: dict[int, dict[int, PupilRound]] = defaultdict(dict)
    names: dict[int, str] = {}
    for line in store().results(assignment):
        names[line.pupil_id] = line.nickname
        if line.number is not None:
            rounds[line.pupil_id][line.number] = line
    numbers = range(1, len(assignment.seeds) + 1)
    return [
        PupilLine(
            pupil_id,
            nickname,
            tuple(rounds[pupil_id].get(number) for number in numbers),
            tuple(tuple(sorted(words[pupil_id, number])) for number in numbers),
        )
        for pupil_id, nickname in names.items()
    ]


def board_views(assignment: Assignment, lines: list[PupilLine]) -> list[BoardView]:
    views = []
    for number in range(1, len(assignment.seeds) + 1):
        board = homework_board(assignment, number)
        finders: dict[str, list[str]] = defaultdict(list)
        for line in lines:
            for word in line.words[number - 1]:
                finders[word].append(line.nickname)
        solution = board.solution()
        found = sorted(
            ((word.word, word.score, finders[word.word]) for word in solution if word.word in finders),
            key=lambda item: (-len(item[2]), -item[1], item[0]),
        )
        missed = [word.word for word in solution if word.word not in finders]
        views.append(BoardView(number, found, missed, len(solution), board.page_url("projector")))
    return views


def results_json(assignment: Assignment, lines: list[PupilLine]) -> dict:
    def round_json(played: PupilRound | None, words: tuple[str, ...], number: int) -> dict:
        if played is None:
            return {"board": number, "played": False}
        return {
            "board": number,
            "played": True,
            "score": played.score,
            "found": played.found,
            "words": list(words),
            "started": local_time(assignment, played.started).isoformat(),
        }

    return {
        "code": assignment.code,
        "due": local_time(assignment, assignment.due).isoformat(),
        "language": assignment.language,
        "size": f"{assignment.rows}x{assignment.cols}",
        "seconds": assignment.seconds,
        "boards": [
            {"board": number, "seed": seed, "walk_through": homework_board(assignment, number).page_url("projector")}
            for number, seed in enumerate(assignment.seeds, start=1)
        ],
        "pupils": [
            {
                "id": line.pupil_id,
                "nickname": line.nickname,
                "score": line.total,
                "found": line.found,
                "boards": [
                    round_json(played, words, number)
                    for number, (played, words) in enumerate(zip(line.rounds, line.words, strict=True), start=1)
                ],
            }
            for line in lines
        ],
    }


@bp.get("/a/<code>/teacher")
def teacher_page(code: str):
    """The teacher's page (its private link): the pupils' link and QR code, who played which board (score, words,
    when), each board's class view and walk-through, the downloads; JSON with `Accept: application/json`."""
    assignment = teacher_assignment(code, request.args.get("key"))
    lines = results(assignment)
    if wants_json():
        return results_json(assignment, lines)
    return render(
        "homework_teacher.html",
        ["main"],
        assignment=assignment,
        lines=lines,
        boards=board_views(assignment, lines),
        teacher_url=teacher_url(assignment),
        pupils_url=pupils_url(assignment),
        qr_svg=qr_svg(pupils_url(assignment)),
        due_html=time_html(assignment, assignment.due),
        past_due=now() >= assignment.due,
        when=lambda moment: time_html(assignment, moment),
        key=assignment.teacher_key,
    )


@bp.post("/a/<code>/delete")
def delete_assignment(code: str):
    """Delete the homework: its boards, pupils, rounds and words are gone from the store."""
    assignment = teacher_assignment(code, request.form.get("key"))
    store().delete(assignment.id)
    return render("homework_deleted.html", ["main"], code=assignment.code)


@bp.post("/a/<code>/pupils/<int:pupil>/delete")
def delete_pupil(code: str, pupil: int):
    """Delete one pupil of the homework with their rounds and words."""
    assignment = teacher_assignment(code, request.form.get("key"))
    if pupil > 2**31 - 1 or not store().delete_pupil(assignment, pupil):
        raise NotFound(gettext("That pupil is not in this homework (any more)."))
    return redirect(teacher_url(assignment, _external=False), 303)


__all__ = ["HomeworkBoard", "bp", "results", "teacher_assignment"]
