"""Joining a room or a homework, written once: the join form read and checked (a nickname by the class's rules, or a
name on the class list with its class code; a rejoin code), wrong rejoin and class codes counted per seat
(views/limits.py), the seat taken in the store (store/seats.py), and each refusal as a sentence with its status.

A kind of place gives the join a small `Place` with what differs: its class list, where its seat is taken (and the
refusals only it has: a room's bans, lock and size), and its wording.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass

from ruzzle.nicknames import NicknameRefused, check_nickname, nickname_key
from ruzzle.room import REJOIN_CODE_LENGTH
from store.classes import ClassPupil
from store.rooms import AlreadySeated, NicknameTaken

from .i18n import translate_error
from .limits import count_rejoin_miss, how_long, rejoin_misses_reason, rejoin_wait
from .pages import sentence
from .rounds import note_seated, the_store
from .translations import gettext

CODE_FIELD_LENGTH = 16  # a typed rejoin code is cut here (a real one has REJOIN_CODE_LENGTH characters)
SHOWN_BACK = 40  # the typed name shown back in a refused form, at most this long


class NotOnTheList(Exception):
    """A name, or a code, that is not the class list's (homework or a room for a class takes its pupils only)."""


class WrongClassCode(NotOnTheList):
    """A name on the class list with a code that is not that pupil's (counted against the pupil's seat)."""


class JoinRefused(Exception):
    """A join refused: the sentence the form shows, its status, and (429) the seconds to wait."""

    def __init__(self, message: str, status: int, wait: int | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.wait = wait

    def headers(self) -> dict[str, str]:
        """Retry-After for a seat closed to codes for a while."""
        return {"Retry-After": str(self.wait)} if self.wait else {}


@dataclass(frozen=True)
class JoinForm:
    """A join form read and checked: the nickname (or the name on the class list) and the rejoin code."""

    nickname: str
    code: str | None
    pupil: ClassPupil | None = None  # the class list's pupil, for a place of a class list

    @property
    def key(self) -> str:
        """The name as the seats' unique key reads it (ruzzle.nicknames.nickname_key)."""
        return nickname_key(self.nickname)

    @property
    def seat_name(self) -> str:
        """The name the seat shows: a class list's pupil as the list has them."""
        return self.pupil.nickname if self.pupil else self.nickname


class Place:
    """What a kind of place (a room, a homework) gives the join: its class list, its seats' name in the wrong codes'
    counts, where a seat is taken and its wording."""

    class_id: int | None = None
    seats: str = ""  # "room 7", "homework 3": the place in the counts of wrong codes

    def any_name(self) -> str | None:
        """A name picked for a pupil who asks for any name (None: the place offers none)."""
        return None

    def take_seat(self, form: JoinForm) -> None:
        """Seat the browser in the store (NicknameTaken, AlreadySeated; JoinRefused for the place's own refusals)."""
        raise NotImplementedError

    def name_taken(self, name: str, with_code: bool) -> str:
        """The refusal of a taken name: typed with a code that is not its seat's, or without a code."""
        raise NotImplementedError

    def already_seated(self, name: str) -> str:
        """The refusal of a browser that has a seat under another name."""
        raise NotImplementedError


def join(place: Place, fields: Mapping[str, str]) -> JoinForm:
    """Seat the asking browser in the place from its join form (nickname, code, any); JoinRefused saying why not."""
    form = read_join_form(place, fields)
    try:
        place.take_seat(form)
    except NicknameTaken as error:
        if form.code:
            count_rejoin_miss(misses_key(place, form.key))
        raise JoinRefused(place.name_taken(error.args[0], bool(form.code)), 409) from None
    except AlreadySeated as error:
        raise JoinRefused(place.already_seated(error.args[0]), 409) from None
    note_seated()  # the banner back to the room asks the store from now on
    return form


def read_join_form(place: Place, fields: Mapping[str, str]) -> JoinForm:
    """The join form's name (the class's rules for names, or a name picked for the pupil) and code, and for a class
    list its pupil; JoinRefused: a refused name (422), not the list's (403), a seat closed to codes (429)."""
    code = fields.get("code", "").strip()[:CODE_FIELD_LENGTH] or None
    try:
        picked = place.any_name() if fields.get("any") and place.class_id is None else None
        nickname = picked or check_nickname(fields.get("nickname", ""))
    except NicknameRefused as error:
        raise JoinRefused(sentence(translate_error(error)), 422) from None
    seat = misses_key(place, nickname_key(nickname))
    wait = rejoin_wait(seat) if code else None
    if wait:
        raise JoinRefused(rejoin_misses_reason() + " " + wait_sentence(wait), 429, wait)
    try:
        pupil = class_pupil(place.class_id, nickname, code)
    except WrongClassCode as error:
        count_rejoin_miss(seat)
        raise JoinRefused(str(error), 403) from None
    except NotOnTheList as error:
        raise JoinRefused(str(error), 403) from None
    return JoinForm(nickname, code, pupil)


def wait_sentence(wait: int) -> str:
    return gettext("Wait %(wait)s, then try again.", wait=how_long(wait))


def misses_key(place: Place, key: str) -> str:
    """Where the wrong codes typed for a name are counted: a class list's pupil has one code in every lesson of the
    class (one count for all of them); anyone else, the seat of the place."""
    return f"class {place.class_id} {key}" if place.class_id is not None else f"{place.seats} {key}"


def class_pupil(class_id: int | None, nickname: str, code: str | None) -> ClassPupil | None:
    """The pupil of the class list this name and code are (None for no class); NotOnTheList saying what is wrong."""
    if class_id is None:
        return None
    pupil = the_store().classes.pupil_named(class_id, nickname_key(nickname))
    if pupil is None:
        raise NotOnTheList(
            gettext("This is for a class list: type your name as it is on the list, and your class code.")
        )
    if not code:
        raise NotOnTheList(class_code_needed())
    if not hmac.compare_digest(code.strip().upper().encode(), pupil.code.encode()):
        raise WrongClassCode(class_code_needed())
    return pupil


def class_code_needed() -> str:
    return gettext(
        "Type your class code with your name: your teacher gave it to you (%(length)d letters and digits).",
        length=REJOIN_CODE_LENGTH,
    )


def shown_back(fields: Mapping[str, str]) -> str:
    """The name as typed, to show back in a refused form."""
    return fields.get("nickname", "")[:SHOWN_BACK]


def with_retry_after(page: tuple[str, int], refused: JoinRefused) -> tuple[str, int, dict[str, str]]:
    """A refused join's page with its Retry-After (a seat closed to codes for a while)."""
    return page[0], page[1], refused.headers()


__all__ = [
    "JoinForm",
    "JoinRefused",
    "NotOnTheList",
    "Place",
    "class_pupil",
    "join",
    "read_join_form",
    "misses_key",
    "shown_back",
    "with_retry_after",
]
