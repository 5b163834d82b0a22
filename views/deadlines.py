"""Homework's deadlines: read from the setting form, shown in the teacher's time zone, and the start page's homework
fields. A leaf of the views: the homework pages, the class page and the start page all ask it."""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from babel.dates import format_date, format_time, get_datetime_format
from markupsafe import Markup
from werkzeug.exceptions import BadRequest, UnprocessableEntity

from store.assignments import MAX_BOARDS, Assignment

from .rounds import rough_now
from .translations import current_language, gettext

MAX_DUE_DAYS = 28  # a deadline at most four weeks ahead (the store keeps an assignment 30 days past it)
DAY = 86400
MAX_DUE_TEXT = 40
UTC_OFFSETS = tuple(range(-12 * 60, 14 * 60 + 1, 15))  # the start form's time zones, in minutes east of UTC


def homework_form() -> dict[str, object]:
    """What a "Set as homework" form needs (the start page's, a class page's): the most boards, the UTC offsets, a
    deadline a week away at 18:00 (UTC: the teacher's browser or the teacher moves it)."""
    week = datetime.datetime.fromtimestamp(rough_now(), datetime.UTC).date() + datetime.timedelta(days=7)
    return {
        "max_boards": MAX_BOARDS,
        "utc_offsets": UTC_OFFSETS,
        "offset_text": offset_text,
        "default_due": f"{week.isoformat()}T18:00",
    }


def parse_due(form: Mapping[str, str], moment: float) -> tuple[float, int]:
    """The deadline from the form: `due` as ISO 8601 with its offset (2026-12-01T18:00+01:00), or the start page's
    `due_local` (a datetime-local input) with `due_offset` (the teacher's UTC offset, e.g. +01:00). The moment and
    the offset in minutes; 400 for what is not such a date, 422 for a deadline past or too far."""
    text = (form.get("due") or "").strip()
    if not text and form.get("due_local"):
        text = form.get("due_local", "").strip() + (form.get("due_offset") or "").strip()
    example = "2026-12-01T18:00+01:00"
    try:
        if not text or len(text) > MAX_DUE_TEXT:
            raise ValueError(text)
        due = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise BadRequest(
            gettext(
                "The deadline is a date and time with its time zone's offset, such as %(example)s.", example=example
            )
        ) from None
    offset = due.utcoffset()
    if offset is None:
        raise BadRequest(
            gettext("The deadline needs its time zone's offset from UTC, such as %(example)s.", example=example)
        )
    when = due.timestamp()
    if when <= moment:
        raise UnprocessableEntity(
            gettext("The deadline %(when)s has passed already: choose a later one.", when=due.isoformat(" ", "minutes"))
        )
    if when > moment + MAX_DUE_DAYS * DAY:
        raise UnprocessableEntity(
            gettext("A deadline is at most %(days)d days away: homework is kept a month past it.", days=MAX_DUE_DAYS)
        )
    return when, int(offset.total_seconds() // 60)


def offset_text(minutes: int) -> str:
    """A UTC offset as ISO 8601 writes it: +01:00, -03:30."""
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def local_time(assignment: Assignment, moment: float) -> datetime.datetime:
    """A moment in the teacher's time zone (the deadline's offset)."""
    zone = datetime.timezone(datetime.timedelta(minutes=assignment.due_offset))
    return datetime.datetime.fromtimestamp(moment, zone)


def when_text(assignment: Assignment, moment: float) -> str:
    """A moment as people read it, in the interface's language and the teacher's time zone (its offset named)."""
    local = local_time(assignment, moment)
    locale = current_language()
    date = format_date(local, "medium", locale=locale)
    clock = format_time(local, "short", tzinfo=local.tzinfo, locale=locale)  # to the minute: a deadline has no seconds
    pattern = str(get_datetime_format("medium", locale=locale))  # a str already (Babel types it a pattern or a str)
    shown = pattern.replace("{1}", date).replace("{0}", clock)
    return f"{shown} (UTC{offset_text(assignment.due_offset)})"


def time_html(assignment: Assignment, moment: float) -> Markup:
    """A moment as a <time> element: as people read it, and as a machine does (ISO 8601 with the offset)."""
    return Markup('<time datetime="%s">%s</time>') % (
        local_time(assignment, moment).isoformat(),
        when_text(assignment, moment),
    )


def past_due_message(assignment: Assignment) -> str:
    return gettext(
        "The deadline of this homework was %(when)s: new boards cannot be started any more. The boards you played "
        "keep their scores; if you still need to play, ask your teacher to set the homework again.",
        when=when_text(assignment, assignment.due),
    )
