"""The host's actions on a pupil, from the projector's tools or the remote's players page alike: find them, rename,
extra time, remove (asked first), undo a removal, let back in."""

from __future__ import annotations

from collections.abc import Callable

from flask import flash, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import Conflict, NotFound, UnprocessableEntity

from ruzzle.nicknames import NicknameRefused, check_nickname, nickname_key
from store.rooms import ExtraTimeSet, NicknameTaken, Room, RoomPlayer

from ..i18n import translate_error
from ..joining import misses_key
from ..limits import forget_rejoin_misses
from ..pages import cached_url, render, sentence
from ..rounds import now
from ..translations import gettext
from .core import (
    EXTRA_SECONDS,
    MAX_ID,
    NAMES_LISTED,
    back_to_host,
    bp,
    host_action,
    parse_whole,
    phase_of,
    rooms_store,
)
from .lobby import RoomPlace


def listed_players(room: Room, find: str = "") -> list[RoomPlayer]:
    """The players a host's page lists: those whose name holds `find` (a big room's teacher looks for one pupil), or
    the last NAMES_LISTED to join (every player of a class)."""
    if find:
        return rooms_store().find_players(room.id, nickname_key(find), NAMES_LISTED)
    return rooms_store().recent_players(room.id, NAMES_LISTED)


def on_player(player: int, action: Callable[[], bool]) -> None:
    """Do a host's action on the player of the URL (the store's step says whether the room has that player); 404
    when it has not, or for an id past any the store holds."""
    if player > MAX_ID or not action():
        raise NotFound(gettext("That player is not in this room (any more)."))


@bp.get("/rooms/<code>/players/<int:player>/remove")
def confirm_remove_player(code: str, player: int) -> ResponseReturnValue:
    """Remove asks first: a page naming the pupil, with the removal's one button and the way back (a slip on the
    projected screen no longer sends a pupil out). `view=players`: it came from the remote's players page."""
    room = host_action(code)
    seat = seat_of(room, player)
    view = "players" if request.args.get("view") == "players" else "host"
    back = (
        cached_url("rooms.show_remote_players", code=room.code)
        if view == "players"
        else cached_url("rooms.host_room", code=room.code) + "#manage"
    )
    return render("room_remove.html", ["main"], room=room, player=seat, view=view, back_url=back)


def seat_of(room: Room, player: int) -> RoomPlayer:
    """The room's player with this id (404 when it has none)."""
    seat = next((seat for seat in rooms_store().players(room.id) if seat.id == player), None)
    if seat is None:
        raise NotFound(gettext("That player is not in this room (any more)."))
    return seat


@bp.post("/rooms/<code>/players/<int:player>/remove")
def remove_room_player(code: str, player: int) -> ResponseReturnValue:
    """Remove a player: their browser cannot rejoin under any name, nor their name from any browser (until the host's
    undo)."""
    room = host_action(code)
    on_player(player, lambda: rooms_store().remove(room.id, player, now()))
    return back_to_host(room)


@bp.post("/rooms/<code>/players/<int:player>/unban")
def unban_room_player(code: str, player: int) -> ResponseReturnValue:
    """Undo a removal: the browser may join again (with its seat and name back when the name is still free)."""
    room = host_action(code)
    ban = next((ban for ban in rooms_store().bans(room.id) if ban.player_id == player), None)
    if ban is None or rooms_store().unban(room.id, player, nickname_key(ban.nickname)) is None:
        raise NotFound(gettext("Nobody removed has that number in this room."))
    return back_to_host(room)


@bp.post("/rooms/<code>/players/<int:player>/name")
def rename_room_player(code: str, player: int) -> ResponseReturnValue:
    """Give a pupil another name (the class's rules for names)."""
    room = host_action(code)
    try:
        nickname = check_nickname(request.form.get("nickname", ""))
        on_player(player, lambda: rooms_store().rename(room.id, player, nickname, nickname_key(nickname)))
    except NicknameRefused as error:
        raise UnprocessableEntity(sentence(translate_error(error))) from error
    except NicknameTaken as error:
        raise Conflict(gettext("Someone in this room is already called %(name)s.", name=error.args[0])) from None
    return back_to_host(room)


@bp.post("/rooms/<code>/players/<int:player>/time")
def give_player_time(code: str, player: int) -> ResponseReturnValue:
    """A pupil's extra time (0 to 600 s; 0 resets it), never shown to classmates. It lasts for every later round until
    the host resets it, and moves only a round the pupil is still playing: a round that is over is never reopened (the
    class may have seen its podium). The host is told which of the two happened."""
    room = host_action(code)
    seconds = parse_whole(request.form.get("seconds"), *EXTRA_SECONDS, None)
    given = rooms_store().set_extra(room.id, player, seconds, room.current.number, now()) if player <= MAX_ID else None
    if given is None:
        raise NotFound(gettext("That player is not in this room (any more)."))
    flash(extra_time_said(given, phase_of(room, now()).name == "waiting"), "extra-time")
    return back_to_host(room)


def extra_time_said(given: ExtraTimeSet, before_the_start: bool) -> str:
    """What the host is told after setting a pupil's extra time: which round it starts with, and that it lasts."""
    if not given.seconds:
        return gettext("%(name)s has no extra time any more, from now on.", name=given.nickname)
    if given.this_round:
        return gettext(
            "%(name)s has %(seconds)s s extra time in this round and every later round, until you reset it.",
            name=given.nickname,
            seconds=given.seconds,
        )
    if before_the_start:
        return gettext(
            "%(name)s will have %(seconds)s s extra time in every round, from this one, until you reset it.",
            name=given.nickname,
            seconds=given.seconds,
        )
    return gettext(
        "%(name)s's round is over and stays as it was: the %(seconds)s s extra time starts with the next round and "
        "lasts until you reset it.",
        name=given.nickname,
        seconds=given.seconds,
    )


@bp.post("/rooms/<code>/players/<int:player>/let-in")
def let_player_in(code: str, player: int) -> ResponseReturnValue:
    """For a pupil who lost their rejoin code: their seat gets a fresh one (the old one no longer takes it), shown to
    the teacher under the pupil's name to tell them; wrong codes typed for the seat so far are forgotten. A class
    list's pupil keeps their class code, shown the same way."""
    room = host_action(code)
    seat = rooms_store().new_rejoin_code(room.id, player) if player <= MAX_ID else None
    if seat is None:
        raise NotFound(gettext("That player is not in this room (any more)."))
    forget_rejoin_misses(misses_key(RoomPlace(room), nickname_key(seat.nickname)))
    return back_to_host(room, shown=seat.id)
