"""Opening a room, finding it by its code, and joining it with a nickname."""

from __future__ import annotations

from flask import current_app, redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest

from ruzzle import new_seed
from ruzzle.generator import LATEST_VERSION
from ruzzle.match import ROUNDS_PER_MATCH
from ruzzle.nicknames import friendly_name
from ruzzle.room import PRESETS, board_round
from store.rooms import Banned, Room, RoomFull, RoomLocked

from ..boards import (
    parse_class_board,
    parse_safe,
    parse_seed,
)
from ..classes import class_of_form
from ..joining import JoinForm, JoinRefused, Place, join, shown_back, with_retry_after
from ..live import is_live, live_capacity
from ..pages import cached_url, render
from ..rounds import clean_up_store, now, player_id
from ..targets import board_around, parse_words_field
from ..translations import gettext, ngettext
from .core import banned_message, bp, find_room, parse_names, rooms_store
from .teams import parse_mode

# --- creating and joining ---------------------------------------------------------------------------------


@bp.post("/rooms")
def create_room() -> ResponseReturnValue:
    """Open a room on a fresh board; the browser that opens it is its host."""
    form = request.form
    language, rows, cols, seconds = parse_class_board(
        form,
        lambda least, most: gettext(
            "A room's round needs a time limit (%(least)d to %(most)d seconds), so everyone stops at once.",
            least=least,
            most=most,
        ),
    )
    preset = form.get("preset") or "single"
    if preset not in PRESETS:
        raise BadRequest(
            gettext(
                "A room plays one board a round (single) or Ruzzle's %(rounds)d-round match (match).",
                rounds=ROUNDS_PER_MATCH,
            )
        )
    seed = parse_seed(form["seed"]) if form.get("seed", "").strip() else new_seed()
    match_round = board_round(preset, 1)
    names = parse_names(form.get("names"))
    mode, teams = parse_mode(form)
    safe = parse_safe(form.get("safe"))
    targets = parse_words_field(form.get("words"))
    if targets:  # the words are checked, and the first board built, before the room opens: a refusal says why
        targets = board_around(language, seed, rows, cols, targets, safe).targets
    school_class = class_of_form(form)  # opened from a class list's page: its pupils only, by name and class code
    clean_up_store()
    room = rooms_store().create(
        player_id(create=True),
        language,
        rows,
        cols,
        seconds,
        safe,
        preset,
        seed,
        LATEST_VERSION,
        match_round,
        now(),
        names=names,
        class_id=school_class.id if school_class else None,
        hints=form.get("hints") == "on",
        targets=targets,
        mode=mode,
        teams=teams,
    )
    return redirect(cached_url("rooms.host_room", code=room.code), 303)


@bp.get("/rooms")
def find_room_by_code() -> ResponseReturnValue:
    """The start page's "join a room" field: to the room's join page."""
    code = request.args.get("code", "").strip().upper().replace(" ", "")
    if not code:
        raise BadRequest(gettext("Type the room's code (it is on the projector)."))
    return redirect(cached_url("rooms.join_page", code=find_room(code).code), 303)


@bp.get("/rooms/<code>")
def join_page(code: str) -> ResponseReturnValue:
    """The join page: a nickname (or any name) and in."""
    room = find_room(code)
    if code != room.code:
        return redirect(cached_url("rooms.join_page", code=room.code), 308)
    if room.member:
        return redirect(cached_url("rooms.play_room", code=room.code), 303)
    if room.asker_banned:
        return _join_form(room, banned_message(room), status=403)
    if room.locked:
        return _join_form(room, locked_message(room), status=403)
    return _join_form(room)


def _join_form(room: Room, problem: str | None = None, nickname: str = "", status: int = 200) -> tuple[str, int]:
    return render("room_join.html", ["main"], status, room=room, problem=problem, nickname=nickname)


def locked_message(room: Room) -> str:
    return gettext(
        "The teacher has locked room %(code)s: nobody new can join now. If you were in it, type your "
        "name and your rejoin code.",
        code=room.code,
    )


class RoomPlace(Place):
    """Joining a room: its seats in the store, with its bans, lock and size; "any name" when it has no class list."""

    def __init__(self, room: Room):
        self.room = room
        self.class_id = room.class_id
        self.seats = f"room {room.id}"

    def any_name(self) -> str:
        return friendly_name((player.nickname for player in rooms_store().players(self.room.id)), self.room.language)

    def take_seat(self, form: JoinForm) -> None:
        room = self.room
        try:
            rooms_store().join(
                room.id,
                player_id(create=True),
                form.seat_name,
                form.key,
                now(),
                live_capacity() if is_live(room) else int(current_app.config["ROOM_PLAYERS"]),
                form.code,
                form.pupil.id if form.pupil else None,
            )
        except Banned:
            if room.asker_banned:
                raise JoinRefused(banned_message(room), 403) from None
            raise JoinRefused(  # the name of a pupil the teacher removed, from another browser (a private tab, say)
                gettext(
                    "The teacher removed %(name)s from room %(code)s: pick another name, or ask the teacher.",
                    name=form.seat_name,
                    code=room.code,
                ),
                403,
            ) from None
        except RoomLocked:
            raise JoinRefused(locked_message(room), 403) from None
        except RoomFull as error:
            raise JoinRefused(
                ngettext("This room is full (%(num)d player).", "This room is full (%(num)d players).", error.args[0]),
                409,
            ) from None

    def name_taken(self, name: str, with_code: bool) -> str:
        if with_code:
            return gettext(
                "That rejoin code is not %(name)s's. Check it under the name on the other phone, or ask "
                "the teacher to let you back in.",
                name=name,
            )
        return gettext(
            "Someone in this room is already called %(name)s. If that is you, type your rejoin code "
            "(under your name on your other phone) or ask the teacher to let you back in; if not, "
            "pick another name.",
            name=name,
        )

    def already_seated(self, name: str) -> str:
        return gettext(
            "This device already plays as %(name)s in this room: take your seat on another device, or ask the teacher.",
            name=name,
        )


@bp.post("/rooms/<code>/players")
def join_room(code: str) -> ResponseReturnValue:
    """Join with a nickname: 1-20 characters, unique in the room, nothing of the classroom blocklist in it."""
    room = find_room(code)
    try:
        join(RoomPlace(room), request.form)
    except JoinRefused as refused:
        return with_retry_after(_join_form(room, refused.message, shown_back(request.form), refused.status), refused)
    return redirect(cached_url("rooms.play_room", code=room.code), 303)
