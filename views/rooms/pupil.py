"""The pupil's pages: waiting, the 3-2-1, the board and its words, the clock's polls, the results."""

from __future__ import annotations

from flask import current_app, g, redirect, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import Conflict, Forbidden, NotFound

from ruzzle.game import Round
from store.rooms import Room

from ..game import GAME_REGIONS, answer_word, show_word_on
from ..hints import answer_hints
from ..live import is_live
from ..numbers import parse_whole_number
from ..pages import cached_url, render, wants_fragment
from ..rounds import board_in_play, load_round, now, player_id, rough_now, seated_somewhere
from ..solution import locked_page, solution_page
from ..translations import gettext, ngettext
from .core import (
    NAMES_LISTED,
    ROOM_IDLE_SECONDS,
    RoomBoard,
    bp,
    clock_state,
    conditional,
    find_room,
    is_host,
    not_started_message,
    phase_of,
    require_everyone_done,
    require_member,
    room_board,
    rooms_store,
)
from .page import RoomPage, room_round
from .results import room_results

# --- playing ------------------------------------------------------------------------------------------------


@bp.get("/rooms/<code>/play")
def play_room(code: str) -> ResponseReturnValue:
    """The player's page: waiting for the host, 3-2-1, the board (paused when the teacher pauses), then the
    results against the room's."""
    room = find_room(code)
    member = room.member
    if not member:
        target = cached_url("rooms.join_page", code=room.code)
        if wants_fragment():
            return "", 200, {"HX-Redirect": target}
        return redirect(target, 303)
    return player_page(RoomPage(room, member))


def player_page(page: RoomPage) -> ResponseReturnValue:
    """The player's page as things stand (the whole game region for htmx)."""
    room, member = page.room, page.member
    if page.phase.name == "countdown" and request.args.get("ahead") == "1":
        return board_ahead(page)
    if not page.started:
        page.board.solution()  # solved now, while the class waits, so no worker meets the first words cold
        players = rooms_store().recent_players(room.id, NAMES_LISTED)
        state: tuple[object, ...] = (
            page.phase.name,
            room.current.number,
            room.current.started,
            room.player_count,
            [p.nickname for p in players],
            member.id,
        )
        return conditional(
            state,
            lambda etag: render("room_play.html", ["game"], etag=etag, **page.waiting_context(players)),
            path=cached_url("rooms.play_room", code=room.code),
        )
    played = page.started_round
    if played.round.is_over(page.moment):
        shared = room_results(room)
        state = ("over", room.current.number, shared.tag, member.id, room.names, tuple(sorted(played.round.found)))
        return conditional(
            state,
            lambda etag: render("room_play.html", ["game"], etag=etag, **page.context(played.round, results=shared)),
            path=cached_url("rooms.play_room", code=room.code),
        )
    return render("room_play.html", GAME_REGIONS, **page.context(played.round))


# A phone shows the board it fetched during the 3-2-1 (board_ahead) at its own reckoning of the start, which may come
# this much before the server's: what opens with the board (the hints) opens for it from then.
AHEAD_SECONDS = 1.0


def board_ahead(page: RoomPage) -> tuple[str, int]:
    """The player's board during the 3-2-1, drawn as of the start (its clock full, the server's time the start's), for
    the phone to show at 0 without asking: every phone of a school then asks for it during the 3-2-1, when its lobby
    poll sees it, instead of all at the same instant at 0. (The letters reach the phone a few seconds early, unseen
    unless someone reads the page's memory; the words count from the start only, as always.)"""
    ahead = page.as_of_start()
    return render("room_play.html", GAME_REGIONS, **ahead.context(ahead.started_round.round))


@bp.get("/rooms/<code>/clock")
def show_room_clock(code: str) -> ResponseReturnValue:
    """A phone's clock during the round, polled: a 304 while nothing changed, the clock when the deadline moved,
    the whole game region when the round paused, resumed or ended (or another round began). In a big room, a round
    that ended is left to the phone's own clock (it asks for the results itself, at a moment of its own) until no
    word can land any more: the first poll after the end does not bring every phone's results at once."""
    page = RoomPage.of_member(code)
    room = page.room
    played = page.played if page.started else None
    clock = played.round.timeline.read(page.moment) if played else None
    asked = (request.args.get("phase"), request.args.get("round"))
    if (
        clock is not None
        and clock.over
        and asked == ("playing", str(room.current.number))
        and page.pace.results_after
        and not room_results(room).final
    ):
        return "", 204
    if played is None or clock is None or asked != (clock.name, str(room.current.number)):
        response = current_app.make_response(player_page(page))
        response.headers.update({"HX-Retarget": "#game", "HX-Reswap": "outerHTML"})
        return response
    state = clock_state(clock, room.current.number)
    # (the clock's block sends the tag its poll has now, clock_tag: this same one)
    return conditional(state, lambda _etag: render("room_play.html", ["clock"], **page.context(played.round)))


@bp.get("/rooms/<code>/hints")
def show_room_hints(code: str) -> ResponseReturnValue:
    """The hints of this player's round in the room (as on a solo board), when the host allows them: 403 otherwise,
    and before the round starts (the board is not shown yet)."""
    page = RoomPage.of_member(code)
    if not page.room.hints:
        raise Forbidden(gettext("The teacher has not turned the hints on in room %(code)s.", code=page.room.code))
    if page.phase.name == "waiting" or (page.phase.name == "countdown" and page.phase.starts_in > AHEAD_SECONDS):
        raise Forbidden(gettext("The hints open with the board, when the round starts."))
    return answer_hints(page.board, page.played)


@bp.post("/rooms/<code>/words")
def submit_room_word(code: str) -> ResponseReturnValue:
    """A word traced or typed in a room: the same answers as on a solo board; refused before the start."""
    page = RoomPage.of_member(code)
    page.require_started()
    return answer_word(page, page.started_round)


@bp.get("/rooms/<code>/words/<word>")
def show_room_word(code: str, word: str) -> ResponseReturnValue:
    """One word's path and breakdown on the room's board (a word found, or any once the round is over)."""
    page = RoomPage.of_member(code)
    page.require_started()  # (the board is not shown before the start, nor its words)
    return show_word_on(page, page.started_round.round, word)


@bp.get("/rooms/<code>/words")
def show_room_words(code: str) -> ResponseReturnValue:
    """Every word of a round's board (`?round=N`, the current one by default) as the solution page shows them, in the
    room, with the player's own words marked: for its players once their round is over (extra time included), for its
    hosts once the class's is. Before that, 409: the words would help whoever still plays."""
    room = find_room(code)
    board = room_board(room, parse_round(request.args.get("round"), room))
    played = round_over_for_asker(room, board)
    if (running := board_in_play(board)) is not None:
        return locked_page(board, running)  # a round of theirs on the same letters still runs (alone, say)
    found = {found.word for found in played.words(board.solution())} if played else set()
    back = cached_url("rooms.play_room" if room.member else "rooms.host_room", code=room.code)
    return solution_page(board, found, room=room, back_url=back)


def parse_round(text: str | None, room: Room) -> int:
    """A round of the room from `?round=` (the current one when absent); 400 for what is not a round number, 404 for
    a round the room has not had."""
    if text is None or text == "":
        return room.current.number
    digits = 10 if is_live(room) else 4  # (a live round's number is its slot's)
    number = parse_whole_number(text, digits, lambda: gettext("A room's round is a whole number, from 1."))
    if not any(played.number == number for played in room.rounds):
        raise NotFound(
            ngettext(
                "Room %(code)s has had %(num)d round: there is no round %(round)s.",
                "Room %(code)s has had %(num)d rounds: there is no round %(round)s.",
                len(room.rounds),
                code=room.code,
                round=number,
            )
        )
    return number


def round_over_for_asker(room: Room, board: RoomBoard) -> Round | None:
    """The asker's round on a round's board, once the words may be shown to them (None: a host, or a player who was
    not there for that round). 403 for a browser not in the room; 409 while the round still runs for them."""
    if not room.member and is_host(room):
        if board.number == room.current.number:
            require_everyone_done(room, gettext("The words show here once the round is over."))
        return None
    require_member(room)
    if board.number == room.current.number:
        if phase_of(room, now()).name in ("waiting", "countdown"):
            raise Conflict(not_started_message())
        played = room_round(room, board)
    else:
        played = load_round(board)
    if played is not None and not played.round.is_over(now()):
        raise Conflict(gettext("Every word of this board shows here once your round is over. Play on!"))
    return played.round if played else None


@bp.app_template_global()
def room_to_go_back_to() -> str | None:
    """The code of the live room this browser has a seat in, for the "Back to room" banner of every other page; None
    on the room's own pages and for static files, and without asking the store for a browser with no player id.
    base.html asks outside the blocks htmx swaps, so fragments never ask. Live: the room is open, and this browser
    joined it or a round started in it within ROOM_IDLE_SECONDS (its lobby included)."""
    here = g._get_current_object()  # (one lookup of the context-local object, not one per attribute)
    if "room_to_go_back_to" not in here:  # (asked once a request: a board page's frame names it too)
        here.room_to_go_back_to = _room_to_go_back_to()
    room: str | None = here.room_to_go_back_to
    return room


def _room_to_go_back_to() -> str | None:
    player = player_id()
    if player is None or request.blueprint == bp.name or request.endpoint == "static":
        return None
    try:
        if not seated_somewhere(player, rooms_store().has_seat):
            return None  # (most pages of most browsers: no query at all)
        moment = rough_now()
        return rooms_store().live_room(player, moment - ROOM_IDLE_SECONDS, moment)
    except SQLAlchemyError:  # the page (an error page, say) shows without its banner when the store does not answer
        current_app.logger.exception("the room banner could not ask the store")
        return None
