"""A pupil away from the room's board (the round's word list, a word's meaning) follows the room: when the next round
starts, the page they are on takes them back to the board by itself."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from ..live import is_live
from ..pages import cached_url
from ..rounds import now
from .core import bp, conditional, find_room, phase_of, require_member, room_pace

RUNNING = ("countdown", "playing", "paused")  # the class's round is on: a pupil belongs on its board


@bp.get("/rooms/<code>/next")
def follow_room(code: str) -> ResponseReturnValue:
    """Polled by a page a pupil opened from the room: a 304 while nothing changed; once the class's round runs (its
    3-2-1, its play, a pause), HX-Redirect to the pupil's board; 403 for a browser without a seat.
    A live room's page is left alone."""
    room = find_room(code)
    require_member(room)
    if is_live(room):
        return ""  # a live room's rounds run back to back: the page read between two stays (the poll swaps itself out)
    phase = phase_of(room, now())
    if phase.name in RUNNING:
        return "", 200, {"HX-Redirect": cached_url("rooms.play_room", code=room.code)}
    seconds = room_pace(room).lobby_seconds
    return conditional(
        (phase.name, room.current.number),
        lambda etag: render_template("_room_follow.html", code=room.code, seconds=seconds, etag=etag),
    )
