"""The host's pages and controls: the host page, the round's clock, the room's settings, the walk-through (the host's
actions on a pupil: `players`; the teacher's phone: `remote`)."""

from __future__ import annotations

import math
from collections.abc import Callable

from flask import redirect, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.exceptions import Conflict

from ruzzle import new_seed
from ruzzle.generator import LATEST_VERSION
from ruzzle.room import NAMES_SHOWN, board_round
from ruzzle.timeline import Reading, Timeline, TimelineError
from store.rooms import Room

from ..game import PageContext
from ..i18n import translate_error
from ..pages import cached_url, render, sentence, wants_fragment
from ..projector import parse_step, projector_page
from ..qr import qr_svg
from ..rounds import now, round_board
from ..targets import next_seed
from ..translations import gettext
from .core import (
    ADD_SECONDS,
    NAMES_LISTED,
    POLL_SECONDS,
    back_to_host,
    bp,
    conditional,
    find_room,
    finished_room,
    host_action,
    join_url,
    parse_names,
    parse_whole,
    phase_of,
    remote_url,
    require_host,
    room_board,
    room_pace,
    room_timeline,
    rooms_store,
    stage_of,
)
from .players import listed_players
from .results import class_first, class_view, finders_of, live_ranking, named_finders, room_results, rounds_to_learn
from .teams import class_of, class_walk, team_finders, team_standings

# --- the host ------------------------------------------------------------------------------------------------


@bp.get("/rooms/<code>/host")
def host_room(code: str) -> ResponseReturnValue:
    """The host's view, for a projector: the join code and QR, the players, Start; the clock with Pause, more time
    and End; the live ranking; the podium. It polls, so a host's action from another device (the teacher's
    remote) shows within one poll."""
    room = find_room(code)
    require_host(room)
    if code != room.code:
        return redirect(cached_url("rooms.host_room", code=room.code), 308)
    phase = phase_of(room, now())
    if room.walk_step is not None and phase.name == "over":
        if wants_fragment():
            return "", 200, {"HX-Redirect": walk_url(room, room.walk_step)}  # the remote started the walk-through
        rooms_store().set_room(room.id, walk_step=None)  # the teacher came back to the podium: the remote follows
    context = host_context(room, phase)
    state = (
        "host",
        room.current.number,
        phase.name,
        phase.ends_at,
        phase.seconds_left if phase.name == "paused" else None,
        room.locked,
        room.names,
        room.player_count,
        context["find"],
        [(p.id, p.nickname, p.extra, p.rejoin_code) for p in context["players"]],
        context["shown"],
        [ban.player_id for ban in context["bans"]],
        context["still_playing"],
        context["ranking"].state() if phase.name == "over" else None,
        context["class_view"] and context["class_view"]["still_counting"],
        context["teams"],
        context["together"],
        [(p.id, p.team) for p in context["players"]],
    )
    return conditional(
        state, lambda etag: render("room_host.html", ["game"], etag=etag, **context, **qr_codes(context, phase))
    )


def qr_codes(context: PageContext, phase: Reading) -> dict[str, Markup | None]:
    """The host's QR codes (the join link's in the lobby, the remote's), drawn only when the stage is rendered: a
    poll answered 304 draws none."""
    return {
        "qr_svg": qr_svg(context["join_url"]) if phase.name == "waiting" else None,
        "remote_qr": qr_svg(context["remote_url"]),
    }


def host_context(room: Room, phase: Reading) -> PageContext:
    board = room_board(room)
    url = join_url(room)
    waiting = phase.name == "waiting"
    find = request.args.get("find", "").strip()[:40]
    context: PageContext = {
        "room": room,
        "phase": phase,
        "stage": stage_of(room),
        "request_board": board,
        "board": board.board(),
        "join_url": url,
        "remote_url": remote_url(room),
        "players": listed_players(room, find),
        "find": find,
        "shown": request.args.get("shown", type=int),  # the player whose rejoin code the host just made opens
        "player_count": room.player_count,
        "names_listed": NAMES_LISTED,
        "bans": rooms_store().bans(room.id),
        "poll_seconds": POLL_SECONDS,
        "ranking": None if waiting else room_results(room).ranking if phase.name == "over" else live_ranking(room),
        "class_view": None,
        "still_playing": 0,
        "add_seconds": ADD_SECONDS[2],
        "names_shown": NAMES_SHOWN,
        "teams": [] if waiting else team_standings(room),
        "together": None if waiting else class_of(room, board),
        "best_teams": None,
    }
    if phase.name == "over":
        context["still_playing"] = rooms_store().still_playing(room.id, room.current.number, phase.now)
        context["class_view"] = class_view(room, board, context["still_playing"])
        best = context["class_view"]["best"]
        if context["teams"] and best:  # which teams found the best word
            found = rooms_store().words_found(room, room.current.number, best.word)
            context["best_teams"] = team_finders(found).get(best.word)
    return context


@bp.get("/rooms/<code>/words-to-learn")
def show_words_to_learn(code: str) -> ResponseReturnValue:
    """The room's words to learn, for its host: each round's teacher's words and rare finds with their meanings, and
    the download (views/exports.py)."""
    room = host_action(code)
    return render("room_words.html", ["main"], room=room, rounds=rounds_to_learn(room))


@bp.post("/rooms/<code>/start")
def start_room(code: str) -> ResponseReturnValue:
    """Start the current round for everyone, after a short 3-2-1 (a second press changes nothing)."""
    room = host_action(code)
    if room.current.started is None:
        rooms_store().start(
            room.id, room.current.number, math.ceil(now()) + room_pace(room).countdown, round_board(room_board(room))
        )
    return back_to_host(room)


def change_clock(
    code: str, change: Callable[[Timeline, float], Timeline], apply: Callable[[int, int, float], None]
) -> ResponseReturnValue:
    """A host's change of the round's clock: checked on the class's timeline (409 saying why it cannot happen
    now), then made in the store for the class and every player at once."""
    room = host_action(code)
    moment = now()
    try:
        change(room_timeline(room), moment)
    except TimelineError as error:
        raise Conflict(sentence(translate_error(error))) from error
    apply(room.id, room.current.number, moment)
    return back_to_host(room)


@bp.post("/rooms/<code>/pause")
def pause_room(code: str) -> ResponseReturnValue:
    """Pause the round: every phone's and the projector's clock stops; words wait."""
    return change_clock(code, Timeline.pause, rooms_store().pause)


@bp.post("/rooms/<code>/resume")
def resume_room(code: str) -> ResponseReturnValue:
    """Resume the round with the time that was left."""
    return change_clock(code, Timeline.resume, rooms_store().resume)


@bp.post("/rooms/<code>/time")
def add_room_time(code: str) -> ResponseReturnValue:
    """Move the deadline for everyone (`seconds`, -60 to 600; +30 by default)."""
    seconds = parse_whole(request.form.get("seconds"), *ADD_SECONDS)
    return change_clock(
        code,
        lambda timeline, moment: timeline.add_time(seconds, moment),
        lambda room_id, number, moment: rooms_store().add_time(room_id, number, seconds, moment),
    )


@bp.post("/rooms/<code>/end")
def end_room_round(code: str) -> ResponseReturnValue:
    """End the round now (the words already answered count)."""
    return change_clock(code, lambda timeline, moment: timeline.end(moment), rooms_store().end)


@bp.post("/rooms/<code>/lock")
def lock_room(code: str) -> ResponseReturnValue:
    """Nobody new joins (a pupil with their rejoin code still takes their seat)."""
    room = host_action(code)
    rooms_store().set_room(room.id, locked=True)
    return back_to_host(room)


@bp.post("/rooms/<code>/unlock")
def unlock_room(code: str) -> ResponseReturnValue:
    room = host_action(code)
    rooms_store().set_room(room.id, locked=False)
    return back_to_host(room)


@bp.post("/rooms/<code>/settings")
def change_room_settings(code: str) -> ResponseReturnValue:
    """Who the projector names: everyone, the top 3, or nobody (class totals); each phone still shows its rank."""
    room = host_action(code)
    rooms_store().set_room(room.id, names=parse_names(request.form.get("names")))
    return back_to_host(room)


@bp.post("/rooms/<code>/rounds")
def add_room_round(code: str) -> ResponseReturnValue:
    """Another round in the same room on a fresh board: in a match, the next round's bonus tiles, and after its last
    round the first round of another match."""
    room = finished_room(code, gettext("This round is not over yet: a new round can start once it ends."))
    number = room.current.number
    seed = next_seed(room.language, room.rows, room.cols, room.targets, room.safe, room.rounds[0].seed, new_seed)
    rooms_store().add_round(room.id, number, seed, LATEST_VERSION, board_round(room.preset, number + 1))
    return back_to_host(room)


@bp.post("/rooms/<code>/walk")
def step_room_walk(code: str) -> ResponseReturnValue:
    """The remote's walk-through keys: `step` next, previous, or a number; the projector follows."""
    room = finished_room(code, gettext("The walk-through opens when the round is over."))
    total = walk_total(room)
    step = room.walk_step or 0
    wanted = request.form.get("step", "next")
    if wanted == "next":
        step = min(total, step + 1) if room.walk_step is not None else 0
    elif wanted == "previous":
        step = max(0, step - 1)
    else:
        step = min(total, parse_step(wanted))
    rooms_store().set_room(room.id, walk_step=step)
    return back_to_host(room)


def walk_total(room: Room) -> int:
    """How many steps the room's walk-through has (one a word of the board)."""
    return len(room_board(room).solution())


def walk_url(room: Room, step: int) -> str:
    return (
        cached_url("rooms.show_room_walk", code=room.code, step=str(step))
        if step
        else cached_url("rooms.show_room_walk", code=room.code)
    )


@bp.get("/rooms/<code>/projector")
def show_room_walk(code: str) -> ResponseReturnValue:
    """The walk-through of the room's board for the host: the words the class found (the most found first), then
    those nobody found, each revealed word with who found it."""
    room = finished_room(code, gettext("The walk-through opens when the round is over."))
    step = parse_step(request.args.get("step"))
    if step != room.walk_step:
        rooms_store().set_room(room.id, walk_step=step)  # the remote goes on from where the projector is
    finders = finders_of(room)
    shown = named_finders(room, finders)
    if room.mode == "teams":  # the teams that found each word, rather than the pupils
        teams = team_finders(rooms_store().words_found(room, room.current.number))
        shown = {word: [mark.label for mark in marks] for word, marks in teams.items()}
    return projector_page(
        room_board(room),
        step,
        join_url=join_url(room),
        seconds=room.seconds,
        finders=shown,
        room=room,
        arrange=lambda words, order: (
            class_walk(room, class_first(words, order, finders, room.targets), finders)
            if room.mode == "class"
            else class_first(words, order, finders, room.targets)
        ),
    )


@bp.get("/rooms/<code>/walk")
def follow_room_walk(code: str) -> ResponseReturnValue:
    """Polled by the projector's walk-through: where the remote took it (a step, or another round)."""
    room = host_action(code)
    shown = (request.args.get("round", ""), request.args.get("step", ""))
    if phase_of(room, now()).name != "over" or str(room.current.number) != shown[0]:
        return "", 200, {"HX-Redirect": cached_url("rooms.host_room", code=room.code)}
    if room.walk_step is not None and str(room.walk_step) != shown[1]:
        return "", 200, {"HX-Redirect": walk_url(room, room.walk_step)}
    return "", 204
