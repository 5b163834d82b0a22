"""The teacher's remote: the secret link that makes a browser a host of the room, and the phone's page of big buttons
for the lesson."""

from __future__ import annotations

from flask import redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import Forbidden

from ..keys import require_confirmed
from ..pages import cached_url, render
from ..rounds import now, player_id
from ..translations import gettext
from .core import (
    ADD_SECONDS,
    MOBILE,
    NAMES_LISTED,
    POLL_SECONDS,
    bp,
    conditional,
    find_room,
    host_action,
    phase_of,
    remote_url,
    rooms_store,
    stage_of,
)
from .host import walk_total
from .players import listed_players


@bp.get("/rooms/<code>/remote/<key>")
def open_remote(code: str, key: str) -> ResponseReturnValue:
    """The teacher's remote link: this browser becomes a host of the room; a phone gets the remote's big buttons,
    a laptop the full host view (a crashed browser, or the move to the classroom's PC, no longer ends a lesson)."""
    room = find_room(code)
    if not rooms_store().add_host(room.id, player_id(create=True), key):
        raise Forbidden(
            gettext(
                "This remote link is not the one of room %(code)s (or it was replaced by a new one). Open the link "
                "the host's view shows.",
                code=room.code,
            )
        )
    view = request.args.get("view")
    if view not in ("remote", "host"):
        view = "remote" if request.user_agent.string and MOBILE.search(request.user_agent.string) else "host"
    return redirect(cached_url("rooms.show_remote" if view == "remote" else "rooms.host_room", code=room.code), 303)


@bp.post("/rooms/<code>/remote/new")
def replace_remote_link(code: str) -> ResponseReturnValue:
    """A new remote link for the room (the host's, once confirmed): the old link makes nobody a host any more, and
    every browser that became a host through a remote link stops being one, this one excepted."""
    room = host_action(code)
    require_confirmed(request.form)
    rooms_store().replace_remote_key(room.id, player_id() or "")
    return redirect(cached_url("rooms.host_room", code=room.code) + "#remote", 303)


@bp.get("/rooms/<code>/remote")
def show_remote(code: str) -> ResponseReturnValue:
    """The teacher's remote: big buttons for the lesson (Start, Pause, +30 s, End, the walk-through, another
    round, the results), polled so it shows where the room stands."""
    room = host_action(code)
    phase = phase_of(room, now())
    still = rooms_store().still_playing(room.id, room.current.number, phase.now) if phase.name == "over" else 0
    context = {
        "room": room,
        "phase": phase,
        "stage": stage_of(room),
        "player_count": room.player_count,
        "still_playing": still,
        "poll_seconds": POLL_SECONDS,
        "add_seconds": ADD_SECONDS[2],
        "walk_total": walk_total(room) if phase.name == "over" else 0,
        "host_url": cached_url("rooms.host_room", code=room.code),
        "remote_url": remote_url(room),
    }
    state = (
        "remote",
        room.current.number,
        phase.name,
        phase.ends_at,
        phase.seconds_left if phase.name == "paused" else None,
        room.locked,
        room.player_count,
        still,
        room.walk_step,
    )
    return conditional(state, lambda etag: render("room_remote.html", ["remote"], etag=etag, **context))


@bp.get("/rooms/<code>/remote/players")
def show_remote_players(code: str) -> ResponseReturnValue:
    """The remote's players page: every host's action on a pupil from the teacher's phone (rename, extra time and its
    reset, let back in, remove and undo) and who the projector names. Not polled: a list that moves under a thumb
    typing a name is worse than one a tap refreshes."""
    room = host_action(code)
    find = request.args.get("find", "").strip()[:40]
    return render(
        "room_remote_players.html",
        ["main"],
        room=room,
        players=listed_players(room, find),
        find=find,
        shown=request.args.get("shown", type=int),  # the player whose rejoin code the host just made opens
        player_count=room.player_count,
        names_listed=NAMES_LISTED,
        bans=rooms_store().bans(room.id),
    )
