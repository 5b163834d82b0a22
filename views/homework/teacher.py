"""The teacher's side of homework: setting it (the form's boards, `parse_seeds`), the teacher's page behind its
private link (who played which board, each board's class view, JSON), what the downloads read (`results`), and
deleting the homework or a pupil.
"""

from __future__ import annotations

import hmac
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from flask import redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest, Forbidden, NotFound

from ruzzle import new_seed
from ruzzle.generator import LATEST_VERSION
from ruzzle.results import class_view, roll_call
from store.assignments import MAX_BOARDS, Assignment, PupilRound
from store.classes import ClassPupil

from ..boards import BoardRequest, parse_class_board, parse_safe, parse_seed
from ..classes import class_of_form
from ..deadlines import local_time, parse_due, time_html
from ..keys import require_confirmed
from ..numbers import read_whole_number
from ..pages import cached_url, render, wants_json
from ..qr import qr_svg
from ..rounds import clean_up_store, letters_key, now, the_store
from ..translations import gettext
from .board import bp, find_assignment, homework_board, store

_SEEDS = re.compile(r"[\s,;]+")


# --- the teacher's link ----------------------------------------------------------------------------------------


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


def parse_seeds(form: Mapping[str, str]) -> list[str]:
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
def create_assignment() -> ResponseReturnValue:
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
    safe = parse_safe(form.get("safe"))
    clean_up_store()
    assignment = store().create(
        language,
        rows,
        cols,
        seconds,
        safe,
        LATEST_VERSION,
        seeds,
        now(),
        due,
        offset,
        school_class.id if school_class else None,
        letters_keys=[
            letters_key(BoardRequest(language, seed, rows, cols, seconds, safe, LATEST_VERSION)) for seed in seeds
        ],
    )
    return redirect(teacher_url(assignment, _external=False), 303)


# --- the teacher's page ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PupilLine:
    """A pupil's line of the teacher's table: each board's round (None: not played) and their total; `pupil_id` None
    for a pupil of the class list who never came."""

    pupil_id: int | None
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
    """Every pupil's rounds and words: for homework set for a class, every pupil of its list in the list's order (those
    who never came played nothing), else the pupils in the order they joined (ruzzle.results.roll_call)."""
    words: dict[tuple[int, int], list[str]] = defaultdict(list)
    for found in store().words_found(assignment):
        words[found.pupil_id, found.number].append(found.word)
    rounds: dict[int, dict[int, PupilRound]] = defaultdict(dict)
    seats: dict[int, PupilRound] = {}
    for line in store().results(assignment):
        seats.setdefault(line.pupil_id, line)
        if line.number is not None:
            rounds[line.pupil_id][line.number] = line
    numbers = range(1, len(assignment.seeds) + 1)
    lines = []
    for pupil, seat in roll_call(class_list(assignment), seats.values(), lambda s: s.class_pupil_id, lambda p: p.id):
        if seat is not None:
            lines.append(
                PupilLine(
                    seat.pupil_id,
                    seat.nickname,
                    tuple(rounds[seat.pupil_id].get(number) for number in numbers),
                    tuple(tuple(sorted(words[seat.pupil_id, number])) for number in numbers),
                )
            )
        elif pupil is not None:  # on the list, never came
            lines.append(PupilLine(None, pupil.nickname, (None,) * len(numbers), ((),) * len(numbers)))
    return lines


def class_list(assignment: Assignment) -> tuple[ClassPupil, ...]:
    """The pupils of the class list the homework was set for (none for homework set for anyone)."""
    if assignment.class_id is None:
        return ()
    school_class = the_store().classes.get_by_id(assignment.class_id)
    return school_class.pupils if school_class else ()


def board_views(assignment: Assignment, lines: list[PupilLine]) -> list[BoardView]:
    """Each board's class view (ruzzle.results.class_view), with who found each word."""
    views = []
    for number in range(1, len(assignment.seeds) + 1):
        board = homework_board(assignment, number)
        finders: dict[str, list[str]] = defaultdict(list)
        for line in lines:
            for word in line.words[number - 1]:
                finders[word].append(line.nickname)
        view = class_view(board.solution(), {word: len(names) for word, names in finders.items()})
        found = [(word.word, word.score, finders[word.word]) for word, _ in view.found_by]
        missed = [word.word for word in view.nobody]
        views.append(BoardView(number, found, missed, view.total, board.page_url("projector")))
    return views


def results_json(assignment: Assignment, lines: list[PupilLine]) -> dict[str, object]:
    def round_json(played: PupilRound | None, words: tuple[str, ...], number: int) -> dict[str, object]:
        if played is None:
            return {"board": number, "played": False}
        assert played.started is not None  # a round of the homework's boards: a round is made started
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
def teacher_page(code: str) -> ResponseReturnValue:
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


@bp.post("/a/<code>/teacher/new")
def replace_teacher_link(code: str) -> ResponseReturnValue:
    """A new private link for the teacher (once confirmed): the old one opens nothing any more; to the new one."""
    assignment = teacher_assignment(code, request.form.get("key"))
    require_confirmed(request.form)
    key = store().new_teacher_key(assignment.id)
    return redirect(cached_url("assignments.teacher_page", code=assignment.code, key=key), 303)


@bp.post("/a/<code>/delete")
def delete_assignment(code: str) -> ResponseReturnValue:
    """Delete the homework: its boards, pupils, rounds and words are gone from the store."""
    assignment = teacher_assignment(code, request.form.get("key"))
    store().delete(assignment.id)
    return render("homework_deleted.html", ["main"], code=assignment.code)


@bp.post("/a/<code>/pupils/<int:pupil>/delete")
def delete_pupil(code: str, pupil: int) -> ResponseReturnValue:
    """Delete one pupil of the homework with their rounds and words."""
    assignment = teacher_assignment(code, request.form.get("key"))
    if pupil > 2**31 - 1 or not store().delete_pupil(assignment, pupil):
        raise NotFound(gettext("That pupil is not in this homework (any more)."))
    return redirect(teacher_url(assignment, _external=False), 303)


__all__ = ["BoardView", "PupilLine", "parse_seeds", "results", "teacher_assignment", "teacher_url"]
