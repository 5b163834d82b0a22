"""Live rooms: a class (or friends) plays one board at the same moment, the host's projector shows who is in, the
live ranking, a podium, and walks the class through the words saying who found each one.

Everything lives in the store, so any worker on any host answers any request; pages update by polling (htmx,
every 2 s) with conditional responses: a poll whose answer has not changed costs a query and a 304.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

from flask import Blueprint, Response, current_app, g, redirect, request
from flask_babel import gettext, ngettext
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound, UnprocessableEntity

from ruzzle import Found, get_language, new_seed, sort_found
from ruzzle.game import Round
from ruzzle.generator import LATEST_VERSION
from ruzzle.match import ROUNDS_PER_MATCH, MatchRound
from ruzzle.nicknames import NicknameRefused, check_nickname, friendly_name, nickname_key
from ruzzle.timeline import Timeline, TimelineError
from store.rooms import (CODE_ALPHABET, CODE_LENGTH, AlreadySeated, Banned, NicknameTaken, Room, RoomFull, RoomLocked,
                         RoomPlayer, round_key)

from .boards import MAX_SECONDS, MIN_SECONDS, BoardRequest, lexicon_for, parse_safe, parse_seconds, parse_seed, parse_size
from .i18n import translate_error
from .limits import check_code_lookup
from .live import find_live_room, is_live, live_capacity, live_results
from .pages import cached_url, render, sentence, wants_fragment
from .play import GAME_REGIONS, answer_word, game_context, show_word_on
from .rounds import (PlayerRound, board_in_play, clean_up_store, load_round, now, player_id, rough_now, round_board,
                     the_store)
from .solution import locked_page, parse_step, projector_page, qr_svg, solution_page

bp = Blueprint("rooms", __name__)
PRESETS = ("single", "match")  # one board a round, or Ruzzle's 3-round match (the start page names them)
COUNTDOWN = 3  # seconds of 3-2-1 between the host's Start and the first word (more in a big room: pace_of)
POLL_SECONDS = 2  # how often a page of a class-sized room asks what is new (more seconds in a big room: pace_of)
TOP_SHOWN = 10
RANKINGS_CACHED = 256
RESULTS_POLL_AFTER_END = 6  # seconds after the end during which results still poll (words sent in the grace)
FINAL_FRESH_SECONDS = 30  # a worker keeps results nothing can change any more this long (a host may still add time)
ADD_SECONDS = (-60, 600, 30)  # the host's "more time": least, most, and the default (+30 s)
EXTRA_SECONDS = (0, 600)  # a pupil's extra time (an accommodation)
LET_IN_SECONDS = 600  # "let back in": the pupil's name takes their seat on any device for this long
NAMES_SHOWN = ("all", "top3", "none")  # who the projector names: everyone, the top 3, nobody (class totals)
_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
MOBILE = re.compile(r"Mobi|Android|iPhone|iPad")  # a phone or tablet opening the remote link gets the remote
MAX_ID = 2**31 - 1  # a player id past any the store holds (PostgreSQL's integer): not in the room
# A room a browser did not join and no round started in for this long is over for that day's lesson: the other pages
# stop offering the way back to it (a round lasts an hour at most; a double lesson is two).
ROOM_IDLE_SECONDS = 2 * 3600


# --- a room's board ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RoomBoard(BoardRequest):
    """The board of a room's round: a generated board whose pages are the room's (the words go to the room)."""

    room_code: str = ""
    room_id: int = 0
    number: int = 1
    ENDPOINTS = {"play.show_board": "rooms.play_room", "play.submit_word": "rooms.submit_room_word",
                 "play.show_word": "rooms.show_room_word", "solution.show_projector": "rooms.show_room_walk",
                 "solution.show_solution": "rooms.show_room_words"}
    PAGES = {"board": "rooms.play_room", "projector": "rooms.show_room_walk", "solution": "rooms.show_room_words"}
    WORDS_PAGE = "rooms.show_room_words"

    def path_values(self) -> dict[str, str]:
        return {"code": self.room_code}

    def query(self) -> dict[str, str]:
        """What the room's page of all words needs besides the code: the round (the filter form sends it back)."""
        return {"round": str(self.number)}

    def url(self, endpoint: str = "rooms.play_room", _external: bool = False, **values) -> str:
        values.pop("challenge", None)  # a room compares with the room, not with a challenge link
        endpoint = self.ENDPOINTS.get(endpoint, endpoint)
        if endpoint == self.WORDS_PAGE:
            values.update(self.query())  # a round's words stay that round's when the next one begins
        return cached_url(endpoint, _external, **self.path_values(), **values)

    @property
    def round_key(self) -> str:
        return round_key(self.room_id, self.number)

    @cached_property
    def seed_board(self) -> BoardRequest:
        """The same board as an ordinary board URL (to play it again alone, or see its solution page)."""
        return BoardRequest(self.language, self.seed, self.rows, self.cols, self.seconds, self.safe,
                            generator=self.generator, match_round=self.match_round)


def room_board(room: Room, number: int | None = None) -> RoomBoard:
    """The board of a round of the room (the current one by default)."""
    played = room.round(number)
    return RoomBoard(room.language, played.seed, room.rows, room.cols, room.seconds, room.safe,
                     generator=played.generator, match_round=played.match_round, room_code=room.code, room_id=room.id,
                     number=played.number)


# --- a big room's pace ---------------------------------------------------------------------------------------

LOBBY_POLLS_PER_SECOND = 250  # what one room's lobby polls may ask of the server, all its phones together
PLAY_POLLS_PER_SECOND = 100  # ... its clock and results polls (a word's answer says a pause as well)
BIG_ROOM = 150  # from this many players, the results wait until no word can land, spread over a few seconds
RESULTS_PER_SECOND = 100  # results pages a second that the end of a big room's round may ask for (bench/rooms.py)
NAMES_LISTED = 40  # a lobby lists the players who joined last, up to this many (and says how many in all): the
# projector's lobby lays out 40 names without scrolling at 1280x800 (issue 20's layout test)


@dataclass(frozen=True)
class Pace:
    """How a room's phones ask the server, by the room's size: a class of 30 polls every 2 s and sees its results at
    0:00. A school's phones poll more slowly, so that all their polls together stay within what two cores answer
    beside the words (bench/rooms.py): the lobby's polls under LOBBY_POLLS_PER_SECOND (its 3-2-1 long enough for
    every lobby poll to see it), the clock's and the results' under PLAY_POLLS_PER_SECOND (a phone that sends a word
    hears of a pause in its answer); and at 0:00 each phone says "Time is up" on its own and asks for its results
    once no word can land any more, at a moment of its own within a few seconds (not all 2,000 at once). The host's
    pages poll every POLL_SECONDS whatever the size: one projector, and the teacher watches it."""

    lobby_seconds: int
    play_seconds: int  # the clock during the round, the results after it
    countdown: int
    results_after: float  # seconds after the phone's 0:00 before it asks for the results (0: at once)
    results_spread: float  # ... plus a random share of this many seconds


def pace_of(players: int) -> Pace:
    lobby = max(POLL_SECONDS, math.ceil(players / LOBBY_POLLS_PER_SECOND))
    play = max(POLL_SECONDS, math.ceil(players / PLAY_POLLS_PER_SECOND))
    if players < BIG_ROOM:
        return Pace(lobby, play, COUNTDOWN, 0.0, 0.0)
    return Pace(lobby, play, max(COUNTDOWN, lobby + 1), float(RESULTS_POLL_AFTER_END),
                round(players / RESULTS_PER_SECOND, 1))


def room_pace(room: Room) -> Pace:
    return pace_of(room.player_count)


# --- where a room stands -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RoomStage:
    """Where the room's current round stands in the room's life, as the pages name it: its number, its match and round
    in the match (in a room that plays matches), and the rounds whose points add up to the totals and the ranking."""

    number: int  # the room's round number: 1, 2, 3, ... for the room's whole life, matches or not
    match: MatchRound | None  # None in a room of single rounds
    counted: tuple[int, ...]  # the current match's rounds so far, or every round of a room of single rounds

    @property
    def totals(self) -> bool:
        """Whether the pages show a total beside the round's points: in a match, or once there are several rounds."""
        return self.match is not None or len(self.counted) > 1

    @property
    def match_ends(self) -> bool:
        """Whether this round is the last of its match (a final podium after it, then another match)."""
        return self.match is not None and self.match.last


def stage_of(room: Room) -> RoomStage:
    """Where the room's current round stands (ruzzle.match says how rounds make a match)."""
    number = room.current.number
    if room.preset != "match":
        return RoomStage(number, None, tuple(played.number for played in room.rounds))
    match = MatchRound.of(number)
    return RoomStage(number, match, tuple(match.numbers))


def board_round(preset: str, number: int) -> int | None:
    """The match round whose bonus tiles the room's round `number` has (None: the whole board)."""
    return MatchRound.of(number).board_round if preset == "match" else None


@dataclass(frozen=True)
class RoomClock:
    """Where a round stands at a moment, as the pages, the phones' clocks and the JSON show it (from its Timeline)."""

    name: str  # "waiting", "countdown", "playing", "paused", "over"
    seconds_left: float | None  # of play: frozen while paused, the whole length before the start
    starts_in: float  # seconds until the start (the 3-2-1)
    ends_at: float | None  # when it ends as things stand (None while paused or before the start)
    now: float  # the server's time it was read at (the pages' clocks follow it, not the phone's own)


def clock_of(timeline: Timeline, moment: float) -> RoomClock:
    """A round's clock at a moment."""
    started = timeline.started if timeline.started is not None else moment
    return RoomClock(timeline.phase(moment).value, timeline.seconds_left(moment), max(0.0, started - moment),
                     timeline.ends_at(moment), moment)


def room_timeline(room: Room, number: int | None = None) -> Timeline:
    """The class's timeline of a round of the room (the current one by default)."""
    played = room.round(number)
    return Timeline(played.started, room.seconds, played.shift, played.paused_at, played.ended)


def phase_of(room: Room, moment: float) -> RoomClock:
    """Where the room's current round stands at a moment, for the class."""
    return clock_of(room_timeline(room), moment)


def rooms_store():
    return the_store().rooms


def find_room(code: str) -> Room:
    """The room of a code typed in any case; 404 for a code that names no open room, the same whether the room
    never was or has closed (nobody learns which codes were used); 429 for a client that tried too many such codes."""
    code = code.strip().upper()
    moment = now()  # read for every code: a closed room and an unknown code take the same steps
    room = rooms_store().get(code, player_id()) if _CODE.fullmatch(code) else find_live_room(code, player_id(), moment)
    if room is None or room.active_until < moment:
        check_code_lookup(missed=True)
        raise NotFound(gettext("There is no room %(code)s. Check the code on the projector: %(length)d letters and "
                               "digits, such as K7M2QX. A room closes a day after its last game.", code=code[:12],
                               length=CODE_LENGTH))
    check_code_lookup(missed=False, knows_room=room.member is not None or room.asker_hosts)
    g.board_language = room.language  # a room's link opened fresh speaks the room's language (views/i18n.py)
    return room


def is_host(room: Room) -> bool:
    """Whether this browser hosts the room: it opened it, or it opened the teacher's remote link."""
    return room.asker_hosts


def require_host(room: Room) -> None:
    """403 for anyone but the host."""
    if not is_host(room):
        raise Forbidden(gettext("Only the host of room %(code)s (the browser that opened it) can do this.",
                                code=room.code))


def require_member(room: Room) -> RoomPlayer:
    """This browser's place in the room; 403 for a browser that has not joined (or was removed)."""
    member = room.member
    if not member:
        if room.asker_banned:
            raise Forbidden(banned_message(room))
        raise Forbidden(gettext("Join room %(code)s first, with a nickname.", code=room.code))
    return member


def require_member_or_host(room: Room) -> None:
    """403 for a browser that neither plays in the room nor hosts it (the class's ranking is the class's)."""
    if not is_host(room):
        require_member(room)


def banned_message(room: Room) -> str:
    return gettext("The teacher removed this device from room %(code)s.", code=room.code)


def finished_room(code: str, not_yet: str) -> Room:
    """The room, for its host, once its current round is over for everyone, a pupil's extra time included (409
    with `not_yet` before, or saying who still plays: the walk-through would show them the words)."""
    room = find_room(code)
    require_host(room)
    require_everyone_done(room, not_yet)
    return room


def require_everyone_done(room: Room, not_yet: str) -> None:
    """409 (`not_yet`, or saying who still plays) unless the current round is over for every player."""
    if phase_of(room, now()).name != "over":
        raise Conflict(not_yet)
    still = rooms_store().still_playing(room.id, room.current.number, now())
    if still:
        raise Conflict(ngettext("%(num)s pupil is still playing (extra time): wait for them, or end the round now.",
                                "%(num)s pupils are still playing (extra time): wait for them, or end the round now.",
                                still))


def host_action(code: str) -> Room:
    """The room, for one of its hosts (403 for anyone else)."""
    room = find_room(code)
    require_host(room)
    return room


def back_to_host(room: Room):
    """After a host's action: back to the view it came from (the remote, or the host's view)."""
    if request.form.get("view") == "remote":
        return redirect(cached_url("rooms.show_remote", code=room.code), 303)
    anchor = "#manage" if request.form.get("manage") else ""  # the players' tools stay open for the next change
    return redirect(cached_url("rooms.host_room", code=room.code) + anchor, 303)


def join_url(room: Room, _external: bool = True) -> str:
    return cached_url("rooms.join_page", _external, code=room.code)


# --- creating and joining ---------------------------------------------------------------------------------

@bp.post("/rooms")
def create_room():
    """Open a room on a fresh board; the browser that opens it is its host."""
    form = request.form
    language = get_language(form.get("language", "en")).code
    lexicon_for(language)  # 404 when this server has no dictionary for it
    rows, cols = parse_size(form.get("size"))
    seconds = parse_seconds(form.get("time"))
    if seconds == 0:
        raise BadRequest(gettext("A room's round needs a time limit (%(least)d to %(most)d seconds), so everyone "
                                 "stops at once.", least=MIN_SECONDS, most=MAX_SECONDS))
    preset = form.get("preset") or "single"
    if preset not in PRESETS:
        raise BadRequest(gettext("A room plays one board a round (single) or Ruzzle's 3-round match (match)."))
    seed = parse_seed(form["seed"]) if form.get("seed", "").strip() else new_seed()
    match_round = board_round(preset, 1)
    names = parse_names(form.get("names"))
    clean_up_store()
    room = rooms_store().create(player_id(create=True), language, rows, cols, seconds, parse_safe(form.get("safe")),
                                preset, seed, LATEST_VERSION, match_round, now(), names=names)
    return redirect(cached_url("rooms.host_room", code=room.code), 303)


@bp.get("/rooms")
def find_room_by_code():
    """The start page's "join a room" field: to the room's join page."""
    code = request.args.get("code", "").strip().upper().replace(" ", "")
    if not code:
        raise BadRequest(gettext("Type the room's code (it is on the projector)."))
    return redirect(cached_url("rooms.join_page", code=find_room(code).code), 303)


@bp.get("/rooms/<code>")
def join_page(code: str):
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


def _join_form(room: Room, problem: str | None = None, nickname: str = "", status: int = 200):
    return render("room_join.html", ["main"], status, room=room, problem=problem, nickname=nickname,
                  rounds_per_match=ROUNDS_PER_MATCH)


def locked_message(room: Room) -> str:
    return gettext("The teacher has locked room %(code)s: nobody new can join now. If you were in it, type your "
                   "name and your rejoin code.", code=room.code)


@bp.post("/rooms/<code>/players")
def join_room(code: str):
    """Join with a nickname: 1-20 characters, unique in the room, nothing of the classroom blocklist in it."""
    room = find_room(code)
    store = rooms_store()
    typed = request.form.get("nickname", "")
    rejoin_code = request.form.get("code", "").strip()[:16] or None
    try:
        if request.form.get("any"):
            nickname = friendly_name((player.nickname for player in store.players(room.id)), room.language)
        else:
            nickname = check_nickname(typed)
        store.join(room.id, player_id(create=True), nickname, nickname_key(nickname), now(),
                   live_capacity() if is_live(room) else int(current_app.config["ROOM_PLAYERS"]), rejoin_code)
    except NicknameRefused as error:
        return _join_form(room, sentence(translate_error(error)), typed[:40], 422)
    except NicknameTaken:
        problem = (gettext("That rejoin code is not %(name)s's. Check it under the name on the other phone, or ask "
                           "the teacher to let you back in.", name=nickname) if rejoin_code else
                   gettext("Someone in this room is already called %(name)s. If that is you, type your rejoin code "
                           "(under your name on your other phone) or ask the teacher to let you back in; if not, "
                           "pick another name.", name=nickname))
        return _join_form(room, problem, typed[:40], 409)
    except AlreadySeated as error:
        return _join_form(room, gettext("This device already plays as %(name)s in this room: take your seat on "
                                        "another device, or ask the teacher.", name=error.args[0]), typed[:40], 409)
    except Banned:
        return _join_form(room, banned_message(room), typed[:40], 403)
    except RoomLocked:
        return _join_form(room, locked_message(room), typed[:40], 403)
    except RoomFull as error:
        return _join_form(room, ngettext("This room is full (%(num)d player).", "This room is full (%(num)d players).",
                                         error.args[0]), typed[:40], 409)
    return redirect(cached_url("rooms.play_room", code=room.code), 303)


# --- playing ------------------------------------------------------------------------------------------------

def room_round(room: Room, board: RoomBoard) -> PlayerRound | None:
    """This player's round on the room's current board, made when the round has started: the class's timeline as
    it is now (start, pauses, time added), plus the player's own extra time."""
    if room.current.started is None:
        return None
    played = load_round(board)
    if played is None:
        rooms_store().player_round(room.id, room.current.number, player_id(create=True), round_board(board))
        played = load_round(board)
    return played


@bp.get("/rooms/<code>/play")
def play_room(code: str):
    """The player's page: waiting for the host, 3-2-1, the board (paused when the teacher pauses), then the
    results against the room's."""
    room = find_room(code)
    member = room.member
    if not member:
        target = cached_url("rooms.join_page", code=room.code)
        if wants_fragment():
            return "", 200, {"HX-Redirect": target}
        return redirect(target, 303)
    return player_page(room, member)


def player_page(room: Room, member: RoomPlayer):
    """The player's page as things stand (the whole game region for htmx)."""
    moment = now()
    phase = phase_of(room, moment)
    board = room_board(room)
    if phase.name == "countdown" and request.args.get("ahead") == "1":
        return board_ahead(room, board, member)
    if phase.name in ("waiting", "countdown"):
        board.solution()  # solved now, while the class waits, so no worker meets the first words cold
        players = rooms_store().recent_players(room.id, NAMES_LISTED)
        state = (phase.name, room.current.number, room.current.started, room.player_count,
                 [p.nickname for p in players], member.id)
        return conditional(state, lambda etag: render("room_play.html", ["game"], etag=etag, **_waiting_context(
            room, board, member, phase, players)), path=cached_url("rooms.play_room", code=room.code))
    played = room_round(room, board)
    if played.round.is_over(moment):
        shared = room_results(room)
        state = ("over", room.current.number, shared.tag, member.id, room.names, tuple(sorted(played.round.found)))
        return conditional(state, lambda etag: render("room_play.html", ["game"], etag=etag, **room_game_context(
            room, board, member, played.round, results=shared)), path=cached_url("rooms.play_room", code=room.code))
    return render("room_play.html", GAME_REGIONS, **room_game_context(room, board, member, played.round))


def board_ahead(room: Room, board: RoomBoard, member: RoomPlayer):
    """The player's board during the 3-2-1, drawn as of the start (its clock full, the server's time the start's), for
    the phone to show at 0 without asking: every phone of a school then asks for it during the 3-2-1, when its lobby
    poll sees it, instead of all at the same instant at 0. (The letters reach the phone a few seconds early, unseen
    unless someone reads the page's memory; the words count from the start only, as always.)"""
    played = room_round(room, board)
    context = room_game_context(room, board, member, played.round, moment=room.current.started)
    return render("room_play.html", GAME_REGIONS, **context)


@bp.get("/rooms/<code>/clock")
def show_room_clock(code: str):
    """A phone's clock during the round, polled: a 304 while nothing changed, the clock when the deadline moved,
    the whole game region when the round paused, resumed or ended (or another round began). In a big room, a round
    that ended is left to the phone's own clock (it asks for the results itself, at a moment of its own) until no
    word can land any more: the first poll after the end does not bring every phone's results at once."""
    room = find_room(code)
    member = require_member(room)
    moment = now()
    board = room_board(room)
    played = room_round(room, board) if phase_of(room, moment).name not in ("waiting", "countdown") else None
    clock = played and clock_of(played.round.timeline, moment)
    asked = (request.args.get("phase"), request.args.get("round"))
    if (clock is not None and clock.name == "over" and asked == ("playing", str(room.current.number))
            and room_pace(room).results_after and not room_results(room).final):
        return "", 204
    if clock is None or asked != (clock.name, str(room.current.number)):
        response = current_app.make_response(player_page(room, member))
        response.headers.update({"HX-Retarget": "#game", "HX-Reswap": "outerHTML"})
        return response
    state = (clock.name, room.current.number, clock.ends_at, clock.seconds_left if clock.name == "paused" else None)
    return conditional(state, lambda etag: render("room_play.html", ["clock"], etag=etag, **room_game_context(
        room, board, member, played.round)))


def _waiting_context(room: Room, board: RoomBoard, member: RoomPlayer, phase: RoomClock, players) -> dict:
    return {"room": room, "request_board": board, "member": member, "phase": phase, "players": players,
            "player_count": room.player_count, "pace": room_pace(room), "poll_seconds": room_pace(room).lobby_seconds,
            "countdown": phase.starts_in, "board": None, "clock": phase, "stage": stage_of(room)}


def room_game_context(room: Room, board: RoomBoard, member: RoomPlayer, round_: Round, message=None,
                      results: RoomResults | None = None, moment: float | None = None) -> dict:
    """The board page's context for a room: the game on the player's own clock (the class's, plus their extra
    time), and once over, the room's results for this player (now, or as of `moment`)."""
    moment = now() if moment is None else moment
    context = game_context(board, round_, message, moment)
    context.update(room=room, member=member, phase=phase_of(room, moment), clock=clock_of(round_.timeline, moment),
                   pace=room_pace(room), poll_seconds=room_pace(room).play_seconds, page_template="room_play.html",
                   stage=stage_of(room))
    if context["over"]:
        context["results"] = (live_results(room, board, member, still_counting(room)) if is_live(room) else
                              player_results(results or room_results(room), board, member, context["found"]))
    return context


@bp.post("/rooms/<code>/words")
def submit_room_word(code: str):
    """A word traced or typed in a room: the same answers as on a solo board; refused before the start."""
    room = find_room(code)
    member = require_member(room)
    board = room_board(room)
    phase = phase_of(room, now())
    if phase.name == "waiting":
        raise Conflict(not_started_message())
    if phase.name == "countdown":
        raise Conflict(gettext("The round starts in %(seconds)d s: get ready.", seconds=math.ceil(phase.starts_in)))
    return answer_word(board, room_round(room, board), None,
                       lambda board_, round_, message: room_game_context(room, board_, member, round_, message))


@bp.get("/rooms/<code>/words/<word>")
def show_room_word(code: str, word: str):
    """One word's path and breakdown on the room's board (a word found, or any once the round is over)."""
    room = find_room(code)
    member = require_member(room)
    board = room_board(room)
    if phase_of(room, now()).name in ("waiting", "countdown"):
        raise Conflict(not_started_message())  # (the board is not shown before the start, nor its words)
    played = room_round(room, board)
    return show_word_on(board, played.round, word,
                        lambda board_, round_, message: room_game_context(room, board_, member, round_, message))


@bp.get("/rooms/<code>/words")
def show_room_words(code: str):
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
    if not text.isdecimal() or len(text) > (10 if is_live(room) else 4):  # (a live round's number is its slot's)
        raise BadRequest(gettext("A room's round is a whole number, from 1."))
    if not any(played.number == int(text) for played in room.rounds):
        raise NotFound(ngettext("Room %(code)s has had %(num)d round: there is no round %(round)s.",
                                "Room %(code)s has had %(num)d rounds: there is no round %(round)s.",
                                len(room.rounds), code=room.code, round=text))
    return int(text)


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
    return played and played.round


@bp.app_template_global()
def room_to_go_back_to() -> str | None:
    """The code of the live room this browser has a seat in, for the "Back to room" banner of every other page; None
    on the room's own pages and for static files, and without asking the store for a browser with no player id.
    base.html asks outside the blocks htmx swaps, so fragments never ask. Live: the room is open, and this browser
    joined it or a round started in it within ROOM_IDLE_SECONDS (its lobby included)."""
    player = player_id()
    if player is None or request.blueprint == bp.name or request.endpoint == "static":
        return None
    moment = rough_now()
    try:
        return rooms_store().live_room(player, moment - ROOM_IDLE_SECONDS, moment)
    except SQLAlchemyError:  # the page (an error page, say) shows without its banner when the store does not answer
        current_app.logger.exception("the room banner could not ask the store")
        return None


# --- the host ------------------------------------------------------------------------------------------------

@bp.get("/rooms/<code>/host")
def host_room(code: str):
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
    state = ("host", room.current.number, phase.name, phase.ends_at, phase.seconds_left if phase.name == "paused"
             else None, room.locked, room.names, room.player_count, context["find"],
             [(p.id, p.nickname, p.extra) for p in context["players"]],
             [ban.player_id for ban in context["bans"]], context["still_playing"],
             context["ranking"].state() if phase.name == "over" else None,
             context["class_view"] and context["class_view"]["still_counting"])
    return conditional(state, lambda etag: render("room_host.html", ["game"], etag=etag, **context,
                                                  **qr_codes(context, phase)))


def qr_codes(context: dict, phase: RoomClock) -> dict:
    """The host's QR codes (the join link's in the lobby, the remote's), drawn only when the stage is rendered: a
    poll answered 304 draws none."""
    return {"qr_svg": qr_svg(context["join_url"]) if phase.name == "waiting" else None,
            "remote_qr": qr_svg(context["remote_url"])}


def host_context(room: Room, phase: RoomClock) -> dict:
    board = room_board(room)
    url = join_url(room)
    waiting = phase.name == "waiting"
    find = request.args.get("find", "").strip()[:40]
    context = {"room": room, "phase": phase, "stage": stage_of(room), "request_board": board, "board": board.board(),
               "join_url": url, "remote_url": remote_url(room), "players": listed_players(room, find), "find": find,
               "player_count": room.player_count, "names_listed": NAMES_LISTED,
               "bans": rooms_store().bans(room.id), "poll_seconds": POLL_SECONDS,
               "ranking": None if waiting else room_results(room).ranking if phase.name == "over"
               else live_ranking(room), "class_view": None,
               "still_playing": 0, "add_seconds": ADD_SECONDS[2], "names_shown": NAMES_SHOWN}
    if phase.name == "over":
        context["still_playing"] = rooms_store().still_playing(room.id, room.current.number, phase.now)
        context["class_view"] = class_view(room, board, context["still_playing"])
    return context


def listed_players(room: Room, find: str = "") -> list[RoomPlayer]:
    """The players a host's page lists: those whose name holds `find` (a big room's teacher looks for one pupil), or
    the last NAMES_LISTED to join (every player of a class)."""
    if find:
        return rooms_store().find_players(room.id, nickname_key(find), NAMES_LISTED)
    return rooms_store().recent_players(room.id, NAMES_LISTED)


def remote_url(room: Room, _external: bool = True) -> str:
    """The teacher's remote link: whoever opens it hosts the room (a secret of the room, not in the join link)."""
    return cached_url("rooms.open_remote", _external, code=room.code, key=room.remote_key)


@bp.get("/rooms/<code>/remote/<key>")
def open_remote(code: str, key: str):
    """The teacher's remote link: this browser becomes a host of the room; a phone gets the remote's big buttons,
    a laptop the full host view (a crashed browser, or the move to the classroom's PC, no longer ends a lesson)."""
    room = find_room(code)
    if not room.remote_key or not hmac.compare_digest(key.encode(), room.remote_key.encode()):
        raise Forbidden(gettext("This remote link is not the one of room %(code)s. Open the link the host's view "
                                "shows.", code=room.code))
    rooms_store().add_host(room.id, player_id(create=True))
    view = request.args.get("view")
    if view not in ("remote", "host"):
        view = "remote" if request.user_agent.string and MOBILE.search(request.user_agent.string) else "host"
    return redirect(cached_url("rooms.show_remote" if view == "remote" else "rooms.host_room", code=room.code), 303)


@bp.get("/rooms/<code>/remote")
def show_remote(code: str):
    """The teacher's remote: big buttons for the lesson (Start, Pause, +30 s, End, the walk-through, another
    round, the results), polled so it shows where the room stands."""
    room = host_action(code)
    phase = phase_of(room, now())
    still = rooms_store().still_playing(room.id, room.current.number, phase.now) if phase.name == "over" else 0
    context = {"room": room, "phase": phase, "stage": stage_of(room), "player_count": room.player_count,
               "still_playing": still, "poll_seconds": POLL_SECONDS, "add_seconds": ADD_SECONDS[2], "walk_total": walk_total(room)
               if phase.name == "over" else 0, "host_url": cached_url("rooms.host_room", code=room.code)}
    state = ("remote", room.current.number, phase.name, phase.ends_at, phase.seconds_left if phase.name == "paused"
             else None, room.locked, room.player_count, still, room.walk_step)
    return conditional(state, lambda etag: render("room_remote.html", ["remote"], etag=etag, **context))


@bp.post("/rooms/<code>/start")
def start_room(code: str):
    """Start the current round for everyone, after a short 3-2-1 (a second press changes nothing)."""
    room = host_action(code)
    if room.current.started is None:
        rooms_store().start(room.id, room.current.number, math.ceil(now()) + room_pace(room).countdown,
                            round_board(room_board(room)))
    return back_to_host(room)


def change_clock(code: str, change, apply):
    """A host's change of the round's clock: checked on the class's timeline (409 saying why it cannot happen
    now), then made in the store for the class and every player at once."""
    room = host_action(code)
    moment = now()
    try:
        change(room_timeline(room), moment)
    except TimelineError as error:
        raise Conflict(sentence(translate_error(error)))
    apply(room.id, room.current.number, moment)
    return back_to_host(room)


@bp.post("/rooms/<code>/pause")
def pause_room(code: str):
    """Pause the round: every phone's and the projector's clock stops; words wait."""
    return change_clock(code, Timeline.pause, rooms_store().pause)


@bp.post("/rooms/<code>/resume")
def resume_room(code: str):
    """Resume the round with the time that was left."""
    return change_clock(code, Timeline.resume, rooms_store().resume)


@bp.post("/rooms/<code>/time")
def add_room_time(code: str):
    """Move the deadline for everyone (`seconds`, -60 to 600; +30 by default)."""
    seconds = parse_whole(request.form.get("seconds"), *ADD_SECONDS)
    return change_clock(code, lambda timeline, moment: timeline.add_time(seconds, moment),
                        lambda room_id, number, moment: rooms_store().add_time(room_id, number, seconds, moment))


@bp.post("/rooms/<code>/end")
def end_room_round(code: str):
    """End the round now (the words already answered count)."""
    return change_clock(code, lambda timeline, moment: timeline.end(moment), rooms_store().end)


@bp.post("/rooms/<code>/lock")
def lock_room(code: str):
    """Nobody new joins (a pupil with their rejoin code still takes their seat)."""
    room = host_action(code)
    rooms_store().set_room(room.id, locked=True)
    return back_to_host(room)


@bp.post("/rooms/<code>/unlock")
def unlock_room(code: str):
    room = host_action(code)
    rooms_store().set_room(room.id, locked=False)
    return back_to_host(room)


@bp.post("/rooms/<code>/settings")
def change_room_settings(code: str):
    """Who the projector names: everyone, the top 3, or nobody (class totals); each phone still shows its rank."""
    room = host_action(code)
    rooms_store().set_room(room.id, names=parse_names(request.form.get("names")))
    return back_to_host(room)


@bp.post("/rooms/<code>/rounds")
def add_room_round(code: str):
    """Another round in the same room on a fresh board: in a match, the next round's bonus tiles, and after its last
    round the first round of another match."""
    room = finished_room(code, gettext("This round is not over yet: a new round can start once it ends."))
    number = room.current.number
    rooms_store().add_round(room.id, number, new_seed(), LATEST_VERSION, board_round(room.preset, number + 1))
    return back_to_host(room)


def on_player(player: int, action) -> None:
    """Do a host's action on the player of the URL (the store's step says whether the room has that player); 404
    when it has not, or for an id past any the store holds."""
    if player > MAX_ID or not action():
        raise NotFound(gettext("That player is not in this room (any more)."))


@bp.post("/rooms/<code>/players/<int:player>/remove")
def remove_room_player(code: str, player: int):
    """Remove a player: their browser cannot rejoin under any name (the host can undo); their name is free."""
    room = host_action(code)
    on_player(player, lambda: rooms_store().remove(room.id, player, now()))
    return back_to_host(room)


@bp.post("/rooms/<code>/players/<int:player>/unban")
def unban_room_player(code: str, player: int):
    """Undo a removal: the browser may join again (with its seat and name back when the name is still free)."""
    room = host_action(code)
    ban = next((ban for ban in rooms_store().bans(room.id) if ban.player_id == player), None)
    if ban is None or rooms_store().unban(room.id, player, nickname_key(ban.nickname)) is None:
        raise NotFound(gettext("Nobody removed has that number in this room."))
    return back_to_host(room)


@bp.post("/rooms/<code>/players/<int:player>/name")
def rename_room_player(code: str, player: int):
    """Give a pupil another name (the class's rules for names)."""
    room = host_action(code)
    try:
        nickname = check_nickname(request.form.get("nickname", ""))
        on_player(player, lambda: rooms_store().rename(room.id, player, nickname, nickname_key(nickname)))
    except NicknameRefused as error:
        raise UnprocessableEntity(sentence(translate_error(error)))
    except NicknameTaken:
        raise Conflict(gettext("Someone in this room is already called %(name)s.", name=nickname))
    return back_to_host(room)


@bp.post("/rooms/<code>/players/<int:player>/time")
def give_player_time(code: str, player: int):
    """Extra time for one pupil in every round (0 to 600 s), never shown to classmates."""
    room = host_action(code)
    seconds = parse_whole(request.form.get("seconds"), *EXTRA_SECONDS, None)
    on_player(player, lambda: rooms_store().set_extra(room.id, player, seconds, room.current.number))
    return back_to_host(room)


@bp.post("/rooms/<code>/players/<int:player>/let-in")
def let_player_in(code: str, player: int):
    """For a pupil who lost their rejoin code: for ten minutes their name takes their seat on any device."""
    room = host_action(code)
    on_player(player, lambda: rooms_store().let_in(room.id, player, now() + LET_IN_SECONDS))
    return back_to_host(room)


@bp.post("/rooms/<code>/walk")
def step_room_walk(code: str):
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
    return cached_url("rooms.show_room_walk", code=room.code, **({"step": str(step)} if step else {}))


def parse_whole(text: str | None, least: int, most: int, default: int | None):
    """A whole number of seconds from a form, within bounds (400 saying them otherwise)."""
    text = (text or "").strip()
    if not text and default is not None:
        return default
    if not re.fullmatch(r"[+-]?\d{1,4}", text) or not least <= int(text) <= most:
        raise BadRequest(gettext("Seconds are a whole number from %(least)d to %(most)d.", least=least, most=most))
    return int(text)


def parse_names(text: str | None) -> str:
    if not text:
        return NAMES_SHOWN[0]
    if text not in NAMES_SHOWN:
        raise BadRequest(gettext("The projector shows the names of all players (all), the top 3 (top3) or nobody "
                                 "(none)."))
    return text


@bp.get("/rooms/<code>/projector")
def show_room_walk(code: str):
    """The walk-through of the room's board for the host: the words the class found (the most found first), then
    those nobody found, each revealed word with who found it."""
    room = finished_room(code, gettext("The walk-through opens when the round is over."))
    step = parse_step(request.args.get("step"))
    if step != room.walk_step:
        rooms_store().set_room(room.id, walk_step=step)  # the remote goes on from where the projector is
    finders = finders_of(room)
    return projector_page(room_board(room), step, join_url=join_url(room), seconds=room.seconds,
                          finders=named_finders(room, finders), room=room,
                          arrange=lambda words, order: class_first(words, order, finders))


def class_first(words: Iterable[Found], order: str, finders: dict[str, list[str]]) -> list[Found]:
    """The room's walk-through: the words the class found, the most found first (then the rare finds), then the
    words nobody found; words found as often, and those nobody found, in the walk's own order (best first, ...)."""
    return sorted(sort_found(words, order), key=lambda found: -len(finders.get(found.word, ())))  # (a stable sort)


def named_finders(room: Room, finders: dict[str, list[str]]) -> dict[str, list[str] | None] | None:
    """Who found each word, as the projector may name them (the room's setting): everyone; the top 3 only (a word
    only others found maps to None: found, but by nobody it names); nobody (None)."""
    if room.names == "none":
        return None
    if room.names == "top3":
        top = {line.nickname for line in ranking(room).lines[:3]}
        return {word: [name for name in names if name in top] or None for word, names in finders.items()}
    return finders


@bp.get("/rooms/<code>/walk")
def follow_room_walk(code: str):
    """Polled by the projector's walk-through: where the remote took it (a step, or another round)."""
    room = host_action(code)
    shown = (request.args.get("round", ""), request.args.get("step", ""))
    if phase_of(room, now()).name != "over" or str(room.current.number) != shown[0]:
        return "", 200, {"HX-Redirect": cached_url("rooms.host_room", code=room.code)}
    if room.walk_step is not None and str(room.walk_step) != shown[1]:
        return "", 200, {"HX-Redirect": walk_url(room, room.walk_step)}
    return "", 204


def finders_of(room: Room) -> dict[str, list[str]]:
    """Each word found in the room's current round, with the nicknames of who found it (alphabetical)."""
    return _by_word(rooms_store().words_found(room, room.current.number))


def finders_of_word(room: Room, word: str) -> list[str]:
    """The nicknames of who found one word in the room's current round (alphabetical)."""
    return _by_word(rooms_store().words_found(room, room.current.number, word)).get(word, [])


def _by_word(found_words) -> dict[str, list[str]]:
    finders = defaultdict(list)
    for found in found_words:
        finders[found.word].append(found.nickname)
    return {word: sorted(names, key=str.casefold) for word, names in finders.items()}


def not_started_message() -> str:
    return gettext("The round has not started yet: wait for the host to start it.")


# --- the ranking ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RankLine:
    """A player's line in the room's ranking."""

    rank: int
    player_id: int
    nickname: str
    score: int  # the total of the rounds the ranking counts
    words: int
    round_scores: tuple[int, ...]  # each counted round's score, the current round's last
    reached: float | None  # when the score was reached (ties go to the earlier)

    @property
    def this_round(self) -> int:
        """The player's points in the room's current round."""
        return self.round_scores[-1] if self.round_scores else 0


@dataclass(frozen=True)
class Ranking:
    """The room's ranking over the rounds its stage counts (the current match's, or every round): every player, best
    first, with each round's score."""

    stage: RoomStage
    lines: tuple[RankLine, ...]

    @property
    def rounds(self) -> int:
        """How many rounds the totals add up."""
        return len(self.stage.counted)

    def state(self) -> tuple:
        return self.stage, tuple((line.player_id, line.score, line.words, line.round_scores) for line in self.lines)

    def of(self, player_id: int) -> RankLine | None:
        return next((line for line in self.lines if line.player_id == player_id), None)


def ranking(room: Room) -> Ranking:
    """Rank the room's players by their total over the rounds that count (the current match's, or every round), ties
    to the one who reached it first (then who joined first)."""
    stage = stage_of(room)
    position = {number: index for index, number in enumerate(stage.counted)}
    totals: dict[int, dict] = {}
    for row in rooms_store().scores(room, stage.counted):
        line = totals.setdefault(row.player_id, {"nickname": row.nickname, "joined": row.joined, "score": 0,
                                                 "words": 0, "rounds": [0] * len(stage.counted), "reached": None})
        if row.number is None:
            continue
        line["score"] += row.score
        line["words"] += row.found
        line["rounds"][position[row.number]] = row.score
        if row.scored_at is not None:
            line["reached"] = max(line["reached"] or row.scored_at, row.scored_at)
    ordered = sorted(totals.items(), key=lambda item: (-item[1]["score"], item[1]["reached"] or math.inf,
                                                       item[1]["joined"], item[0]))
    return Ranking(stage, tuple(
        RankLine(rank, player, line["nickname"], line["score"], line["words"], tuple(line["rounds"]), line["reached"])
        for rank, (player, line) in enumerate(ordered, start=1)))


def live_ranking(room: Room) -> Ranking:
    """The ranking that polls show: computed at most once every ROOM_RANKING_SECONDS per worker and room (100
    phones polling every 2 s then cost one ranking a second, not fifty), so it is at most that much behind."""
    fresh_for = float(current_app.config["ROOM_RANKING_SECONDS"])
    if fresh_for <= 0:
        return ranking(room)
    cache = current_app.extensions.setdefault("ruzzle.room_rankings", {})
    key = (room.id, len(room.rounds), room.current.started)
    moment = time.monotonic()
    cached = cache.get(key)
    if cached is not None and moment - cached[0] < fresh_for:
        return cached[1]
    if len(cache) > RANKINGS_CACHED:
        cache.clear()  # rooms come and go: the rankings of rooms no longer polled go with the next clean-out
    table = ranking(room)
    cache[key] = (moment, table)
    return table


@bp.get("/rooms/<code>/leaderboard")
def show_leaderboard(code: str):
    """The ranking as a fragment (htmx polls it) or, for `Accept: application/json`, as JSON (`round` is the room's
    round number; in a match, `match` and `round_in_match` place it, and the totals and `rounds` are the match's): for
    the room's players and hosts only."""
    room = find_room(code)
    require_member_or_host(room)
    table = live_ranking(room)
    phase = phase_of(room, now())
    state = (room.current.number, phase.name, table.state())
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json" and \
            "application/json" in request.headers.get("Accept", ""):
        return conditional(state + (phase.ends_at, room.locked), lambda etag: {
            "room": room.code, "round": room.current.number, "rounds": table.rounds, "phase": phase.name,
            "match": table.stage.match and table.stage.match.match,
            "round_in_match": table.stage.match and table.stage.match.round,
            "starts_at": room.current.started, "ends_at": phase.ends_at, "seconds_left": phase.seconds_left,
            "locked": room.locked,
            "players": [{"rank": line.rank, "nickname": line.nickname, "score": line.score, "words": line.words,
                         "rounds": list(line.round_scores)} for line in table.lines]}, json=True)
    top = TOP_SHOWN if request.args.get("all") != "1" else len(table.lines)
    return conditional(state, lambda etag: render("_room_leaderboard.html", ["leaderboard"], room=room,
                                                  ranking=table, top=top, phase=phase, poll_seconds=POLL_SECONDS,
                                                  member_id=None, etag=etag))


# --- results ----------------------------------------------------------------------------------------------------

def class_view(room: Room, board: RoomBoard, still_playing: int = 0) -> dict:
    """The class's view of the round's board: words by how many found them, the words nobody found, the best (with
    who found it). From the room's shared results: the counts, not every word every player found."""
    solution = board.solution()
    counts = room_results(room).counts
    by_word = {found.word: found for found in solution}
    common = sorted((word for word in counts if word in by_word),
                    key=lambda word: (-counts[word], -by_word[word].score, word))
    nobody = [found for found in solution if found.word not in counts]
    best = max((by_word[word] for word in common), key=lambda f: (f.score, -len(f.word)), default=None)
    return {"found_by": [(by_word[word], counts[word]) for word in common],
            "nobody": nobody[:20], "nobody_count": len(nobody), "best": best,
            "best_finders": finders_of_word(room, best.word) if best else [],
            "total": len(solution), "found_count": len(common), "still_playing": still_playing,
            "still_counting": bool(still_playing) or still_counting(room)}


@dataclass(frozen=True)
class RoomResults:
    """What every player's results share at the end of a round: the ranking, how many players found each word, and
    whether words may still land. The same for the whole room, so it is made once per worker and change (at most
    once every ROOM_RANKING_SECONDS), not once per phone; its tag is the same on every worker for the same results,
    so a phone's poll is a 304 on any of them while nothing changed for it."""

    ranking: Ranking
    counts: dict[str, int]  # each word found in the round: how many players found it
    still_counting: bool  # words sent in the last seconds may still land, or a pupil plays on (extra time)
    tag: str

    @property
    def final(self) -> bool:
        return not self.still_counting


def room_results(room: Room) -> RoomResults:
    """The room's results for its current round, as fresh as ROOM_RANKING_SECONDS (more once nothing can land)."""
    cache = current_app.extensions.setdefault("ruzzle.room_results", {})
    key = (room.id, room.current)  # a new round, the host's end, time added: other results
    moment = time.monotonic()
    cached = cache.get(key)
    fresh_for = float(current_app.config["ROOM_RANKING_SECONDS"])
    if cached is not None and moment - cached[0] < (fresh_for if cached[1].still_counting else FINAL_FRESH_SECONDS):
        return cached[1]
    if len(cache) > RANKINGS_CACHED:
        cache.clear()
    results = _make_results(room)
    cache[key] = (moment, results)
    return results


def _make_results(room: Room) -> RoomResults:
    table = ranking(room)
    counts = rooms_store().word_counts(room.id, room.current.number)
    counting = still_counting(room) or bool(rooms_store().still_playing(room.id, room.current.number, now()))
    tag = hashlib.blake2b(repr((table.state(), sorted(counts.items()), counting)).encode(), digest_size=12).hexdigest()
    return RoomResults(table, counts, counting, tag)


def still_counting(room: Room) -> bool:
    """Whether words sent in the round's last seconds may still land (results poll meanwhile)."""
    ends_at = room_timeline(room).ends_at(now())
    return ends_at is not None and now() < ends_at + RESULTS_POLL_AFTER_END


def player_results(shared: RoomResults, board: RoomBoard, member: RoomPlayer, found: list[Found]) -> dict:
    """A player's results in the room: rank, score, percentile; their words (`found`) against the room's."""
    table, counts = shared.ranking, shared.counts
    mine = table.of(member.id)
    players = len(table.lines)
    solution = board.solution()
    missed_by_all = [word for word in solution if word.word not in counts]
    beaten = players - mine.rank if mine else 0
    return {
        "ranking": table, "line": mine, "players": players,
        "percentile": round(100 * beaten / (players - 1)) if players > 1 else 100,
        "only_you": [word for word in found if counts.get(word.word) == 1],
        "everyone": [word for word in solution if players > 1 and counts.get(word.word) == players],
        "missed_by_all": missed_by_all[:10], "missed_by_all_count": len(missed_by_all),
        "still_counting": shared.still_counting,
    }


# --- conditional answers ------------------------------------------------------------------------------------------

def conditional(state: tuple, make, json: bool = False, path: str | None = None):
    """Answer 304 when the client has this state already (its ETag), else the answer `make` builds, tagged.

    A poll every 2 s from every phone costs a query and a hash, not a page: rendering only happens on a change. The
    tag is the state's at a path: `path` when the answer is another URL's page (the player's page that a clock poll
    brings at the end of a round is the one its results then poll: the same tag, so their first poll is a 304).
    """
    def tag(fragment: bool) -> str:
        key = repr((state, fragment, json, path or request.path)).encode("utf-8")
        return hashlib.blake2b(key, digest_size=12).hexdigest()

    etag = tag(wants_fragment())
    # (flask-compress tags a compressed answer "<etag>:br"; either is the same state)
    if any(sent and sent.split(":", 1)[0] == etag for sent in request.if_none_match.as_set()):
        response = Response(status=304)
    else:
        # the page's polls are htmx's: a whole page carries the tag its first poll's fragment will have
        response = current_app.make_response(make(tag(fragment=True)))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"  # always ask again; the ETag makes asking cheap
    return response
