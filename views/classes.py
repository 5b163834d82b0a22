"""A class over weeks, without accounts (issue 25): the teacher's named list of pupils (each a nickname with a code) on
a private link, homework and live rooms for the class (its pupils only, by name and code), and the class page: each
pupil's rounds, average score, words found, and the words they found for the first time, lesson after lesson, as a
small chart drawn on the server (SVG).
"""

from __future__ import annotations

import hmac
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from flask import Blueprint, redirect, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound, UnprocessableEntity

from ruzzle import LANGUAGES
from ruzzle.nicknames import NicknameRefused, check_nickname, nickname_key
from ruzzle.room import is_room_code
from store.classes import Classes, Lesson, SchoolClass
from store.rooms import NicknameTaken

from .boards import BOARD_SIZES, DEFAULT_SIZE, ROUND_LENGTHS
from .deadlines import homework_form
from .i18n import elide, translate_error
from .keys import require_confirmed
from .limits import check_code_lookup
from .pages import cached_url, render, sentence, wants_json
from .rounds import now, the_store
from .translations import gettext, ngettext

bp = Blueprint("classes", __name__)
MAX_PUPILS = 60  # a class list's pupils
MAX_NAME = 60  # a class's name
CHART = (320, 80)  # the class's chart: width and height in the SVG's own units (CSS scales it)
PUPIL_CHART = (160, 48)  # a pupil's, in the table (drawn at its size: its numbers stay readable)


def store() -> Classes:
    return the_store().classes


def find_class(code: str, key: str | None) -> SchoolClass:
    """The class of a code, for the holder of its key: 404 for a code that names none, 403 for a wrong key."""
    code = code.strip().upper()
    found = store().get(code) if is_room_code(code) else None
    if found is None:
        check_code_lookup(missed=True)
        raise NotFound(
            gettext("There is no class %(code)s (a class is deleted 180 days after its last homework).", code=code[:12])
        )
    if not key or not hmac.compare_digest(key.encode(), found.teacher_key.encode()):
        raise Forbidden(gettext("This is not the private link of class %(code)s.", code=found.code))
    return found


def class_of_form(form: Mapping[str, str]) -> SchoolClass | None:
    """The class list a form was sent from (a class page's room or homework form: `class` and `class_key`), marked as
    used now (a class is kept 180 days after its last use); None for a form from anywhere else."""
    if not form.get("class"):
        return None
    found = find_class(form["class"], form.get("class_key"))
    store().touch(found.id, now())
    return found


def class_url(found: SchoolClass, _external: bool = False) -> str:
    return cached_url("classes.class_page", _external, code=found.code, key=found.teacher_key)


def parse_pupils(text: str) -> list[tuple[str, str]]:
    """The nicknames of a class list, one a line (each checked as a room's), none twice; 422 saying which line is
    refused."""
    pupils: dict[str, str] = {}
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_PUPILS:
        raise UnprocessableEntity(gettext("A class list has at most %(most)d pupils.", most=MAX_PUPILS))
    for number, line in enumerate(lines, start=1):
        try:
            nickname = check_nickname(line)
        except NicknameRefused as error:
            raise UnprocessableEntity(
                gettext("Line %(line)d: %(problem)s", line=number, problem=sentence(translate_error(error)))
            ) from None
        key = nickname_key(nickname)
        if key in pupils:
            raise UnprocessableEntity(
                gettext("Line %(line)d: %(name)s is on the list twice.", line=number, name=nickname)
            )
        pupils[key] = nickname
    return [(nickname, key) for key, nickname in pupils.items()]


@bp.get("/classes")
def new_class_page() -> ResponseReturnValue:
    """The form that makes a class list: its name and its pupils' nicknames."""
    return render("class_new.html", ["main"], max_pupils=MAX_PUPILS)


@bp.post("/classes")
def create_class() -> ResponseReturnValue:
    """Make a class list; to its page (the teacher's private link)."""
    name = request.form.get("name", "").strip()[:MAX_NAME]
    if not name:
        raise BadRequest(gettext("Give the class a name, such as 7B or Tuesday club."))
    made = store().create(name, parse_pupils(request.form.get("pupils", "")), now())
    return redirect(class_url(made), 303)


# --- each pupil's story ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PupilProgress:
    """A pupil's numbers over the class's lessons (homework and rooms): rounds, total and average score, words found,
    and the words found for the first time in each lesson (in their order)."""

    pupil_id: int
    nickname: str
    code: str
    rounds: int
    score: int
    words: int
    new_words: tuple[int, ...]

    @property
    def average(self) -> float:
        return self.score / self.rounds if self.rounds else 0.0


def progress(found: SchoolClass, lessons: list[Lesson]) -> list[PupilProgress]:
    """Each pupil's numbers from the rounds the store keeps of the class's lessons (homework and rooms), in order."""
    order = {(lesson.kind, lesson.id): index for index, lesson in enumerate(lessons)}
    rounds: dict[int, dict[int, int]] = defaultdict(dict)  # pupil: round id: score
    words: dict[int, list[tuple[int, str]]] = defaultdict(list)  # pupil: (the lesson's place, word)
    for played in store().played(found.id, lessons):
        rounds[played.pupil_id][played.round_id] = played.score
        if played.word is not None:
            words[played.pupil_id].append((order[played.lesson], played.word))
    lines = []
    for pupil in found.pupils:
        seen: set[str] = set()
        new = [0] * len(lessons)
        for place, word in sorted(words[pupil.id]):
            if word not in seen:
                seen.add(word)
                new[place] += 1
        scores = rounds[pupil.id]
        lines.append(
            PupilProgress(
                pupil.id,
                pupil.nickname,
                pupil.code,
                len(scores),
                sum(scores.values()),
                len(words[pupil.id]),
                tuple(new),
            )
        )
    return lines


def bar_chart(
    values: tuple[int, ...] | list[int], names: list[str], label: str, size: tuple[int, int] = CHART
) -> Markup:
    """A small bar chart as inline SVG (no script, no style attribute: the strict CSP allows it), one bar a value,
    each titled with its lesson's name (`names`) and its number for screen readers and a hover; `label` names the
    chart."""
    width, height = size
    count = max(1, len(values))
    top = max([1, *values])
    slot = width / count
    bars = []
    for index, value in enumerate(values):
        bar = (height - 14) * value / top
        x = index * slot + slot * 0.15
        bars.append(
            Markup(
                '<g><title>%s</title><rect class="chart-bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f"></rect>'
                '<text class="chart-value" x="%.1f" y="%.1f" text-anchor="middle">%d</text></g>'
            )
            % (
                ngettext("%(lesson)s: %(num)d new word", "%(lesson)s: %(num)d new words", value, lesson=names[index]),
                x,
                height - bar,
                slot * 0.7,
                bar,
                x + slot * 0.35,
                height - bar - 2,
                value,
            )
        )
    return Markup('<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s">%s</svg>') % (
        width,
        height,
        label,
        Markup("").join(bars),
    )


def lesson_name(lesson: Lesson) -> str:
    if lesson.kind == "homework":
        return gettext("Homework %(code)s", code=lesson.code)
    return gettext("Room %(code)s", code=lesson.code)


class ClassJson(TypedDict):
    """The class page's JSON: the class, its lessons, each pupil's numbers, and the class's new words per lesson."""

    code: str
    name: str
    lessons: list[dict[str, object]]
    pupils: list[dict[str, object]]
    new_words: list[int]


def class_json(found: SchoolClass, lessons: list[Lesson], lines: list[PupilProgress]) -> ClassJson:
    return {
        "code": found.code,
        "name": found.name,
        "lessons": [{"kind": lesson.kind, "code": lesson.code, "boards": lesson.boards} for lesson in lessons],
        "pupils": [
            {
                "id": line.pupil_id,
                "nickname": line.nickname,
                "code": line.code,
                "rounds": line.rounds,
                "score": line.score,
                "average": round(line.average, 1),
                "words": line.words,
                "new_words": list(line.new_words),
            }
            for line in lines
        ],
        "new_words": [sum(line.new_words[index] for line in lines) for index in range(len(lessons))],
    }


@bp.get("/classes/<code>")
def class_page(code: str) -> ResponseReturnValue:
    """The class page (the teacher's private link): the list with each pupil's code, their numbers and chart, the
    class's total, the homework set for the class, and a form to set more; JSON with `Accept: application/json`."""
    found = find_class(code, request.args.get("key"))
    lessons = store().lessons(found.id)
    lines = progress(found, lessons)
    data = class_json(found, lessons, lines)
    names = [lesson_name(lesson) for lesson in lessons]
    if wants_json():
        return data
    return render(
        "class.html",
        ["main"],
        school_class=found,
        lessons=lessons,
        lesson_names=names,
        lines=lines,
        charts={
            line.pupil_id: bar_chart(
                line.new_words,
                names,
                elide(gettext("New words of %(name)s, lesson by lesson", name=line.nickname), line.nickname),
                PUPIL_CHART,
            )
            for line in lines
        },
        class_chart=bar_chart(data["new_words"], names, gettext("The class's new words, lesson by lesson")),
        total=data["new_words"],
        key=found.teacher_key,
        private_url=class_url(found, _external=True),
        languages=LANGUAGES,
        sizes=BOARD_SIZES,
        default_size=DEFAULT_SIZE,
        round_lengths=[seconds for seconds in ROUND_LENGTHS if seconds],
        **homework_form(),
    )


@bp.post("/classes/<code>/pupils")
def add_pupil(code: str) -> ResponseReturnValue:
    found = find_class(code, request.form.get("key"))
    if len(found.pupils) >= MAX_PUPILS:
        raise Conflict(gettext("A class list has at most %(most)d pupils.", most=MAX_PUPILS))
    try:
        nickname = check_nickname(request.form.get("nickname", ""))
        store().add_pupil(found.id, nickname, nickname_key(nickname))
    except NicknameRefused as error:
        raise UnprocessableEntity(sentence(translate_error(error))) from None
    except NicknameTaken:
        existing = store().pupil_named(found.id, nickname_key(nickname))  # the name as the list has it (Anna for Аnna)
        name = existing.nickname if existing is not None else nickname
        raise Conflict(gettext("%(name)s is on the class list already.", name=name)) from None
    return redirect(class_url(found), 303)


@bp.post("/classes/<code>/pupils/<int:pupil>/delete")
def delete_pupil(code: str, pupil: int) -> ResponseReturnValue:
    """Delete a pupil from the list with their seats, rounds and words in every homework of the class."""
    found = find_class(code, request.form.get("key"))
    if pupil > 2**31 - 1 or not store().delete_pupil(found.id, pupil):
        raise NotFound(gettext("That pupil is not on the class list (any more)."))
    return redirect(class_url(found), 303)


@bp.post("/classes/<code>/new-link")
def replace_private_link(code: str) -> ResponseReturnValue:
    """A new private link for the class (once confirmed): the old one opens nothing any more; to the new one."""
    found = find_class(code, request.form.get("key"))
    require_confirmed(request.form)
    key = store().new_teacher_key(found.id)
    return redirect(cached_url("classes.class_page", code=found.code, key=key), 303)


@bp.post("/classes/<code>/delete")
def delete_class(code: str) -> ResponseReturnValue:
    """Delete the class: its list, its homework and rooms, and everything in them."""
    found = find_class(code, request.form.get("key"))
    store().delete(found.id)
    return render("class_deleted.html", ["main"], name=found.name)


__all__ = ["bar_chart", "bp", "class_url", "find_class", "progress"]
