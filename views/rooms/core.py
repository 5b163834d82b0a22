"""What every room page shares: the blueprint, a room's board, its pace by size, where it stands (its phase and
clock), who may ask what, and conditional answers (ETags)."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from flask import Blueprint, Response, current_app, g, redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound

from ruzzle.game import Solution
from ruzzle.room import CODE_LENGTH, NAMES_SHOWN, RoomStage, is_room_code
from ruzzle.room import stage_of as room_stage
from ruzzle.timeline import Reading, Timeline
from store.rooms import Room, RoomPlayer, Rooms, round_key

from ..boards import BoardRequest
from ..limits import check_code_lookup
from ..live import find_live_room
from ..pages import cached_url, wants_fragment
from ..rounds import now, player_id, the_store
from ..services import services
from ..targets import target_board_code
from ..translations import gettext, ngettext

bp = Blueprint("rooms", __name__)
COUNTDOWN = 3  # seconds of 3-2-1 between the host's Start and the first word (more in a big room: pace_of)
POLL_SECONDS = 2  # how often a page of a class-sized room asks what is new (more seconds in a big room: pace_of)
RANKINGS_CACHED = 256
RESULTS_POLL_AFTER_END = 6  # seconds after the end during which results still poll (words sent in the grace)
FINAL_FRESH_SECONDS = 30  # a worker keeps results nothing can change any more this long (a host may still add time)
ADD_SECONDS = (-60, 600, 30)  # the host's "more time": least, most, and the default (+30 s)
EXTRA_SECONDS = (0, 600)  # a pupil's extra time (an accommodation)
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
    targets: tuple[str, ...] = ()  # the teacher's words the board is built around (views/targets.py)
    PAGES = {
        "board": "rooms.play_room",
        "words": "rooms.submit_room_word",
        "word": "rooms.show_room_word",
        "hints": "rooms.show_room_hints",
        "solution": "rooms.show_room_words",
        "projector": "rooms.show_room_walk",
    }
    WORDS_PAGE = "rooms.show_room_words"

    def path_values(self) -> dict[str, str]:
        return {"code": self.room_code}

    def query(self) -> dict[str, str]:
        """What the room's page of all words needs besides the code: the round (the filter form sends it back)."""
        return {"round": str(self.number)}

    def url(self, endpoint: str = "rooms.play_room", _external: bool = False, **values: object) -> str:
        values.pop("challenge", None)  # a room compares with the room, not with a challenge link
        if endpoint == self.WORDS_PAGE:
            values.update(self.query())  # a round's words stay that round's when the next one begins
        return cached_url(endpoint, _external, **self.path_values(), **values)

    @property
    def round_key(self) -> str:
        return round_key(self.room_id, self.number)

    def solve(self) -> Solution:
        """The generated board's solution; a room with target words: the board built around them, solved as a typed
        board (its letters are no longer the seed's alone)."""
        if not self.targets:
            return super().solve()
        code = target_board_code(
            self.language, self.seed, self.rows, self.cols, self.targets, self.safe, self.match_round
        )
        return services().typed_solutions(self.language, code, self.safe)

    @cached_property
    def seed_board(self) -> BoardRequest:
        """The same board as an ordinary board URL (to play it again alone, or see its solution page): its every part,
        passed whole through the one conversion (BoardRequest.of_played)."""
        return BoardRequest.of_played(self.played())


def room_board(room: Room, number: int | None = None) -> RoomBoard:
    """The board of a round of the room (the current one by default)."""
    played = room.round(number)
    return RoomBoard(
        room.language,
        played.seed,
        room.rows,
        room.cols,
        room.seconds,
        room.safe,
        generator=played.generator,
        match_round=played.match_round,
        room_code=room.code,
        room_id=room.id,
        number=played.number,
        targets=room.targets,
    )


# --- a big room's pace ---------------------------------------------------------------------------------------

LOBBY_POLLS_PER_SECOND = 250  # what one room's lobby polls may ask of the server, all its phones together
PLAY_POLLS_PER_SECOND = 100  # ... its clock and results polls (a word's answer says a pause as well)
BIG_ROOM = 150  # from this many players, the results wait until no word can land, spread over a few seconds
CLOCK_POLL_SPREAD = 0.3  # a phone's clock polls up to this share more slowly than its room's pace, by its seat
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
    return Pace(
        lobby, play, max(COUNTDOWN, lobby + 1), float(RESULTS_POLL_AFTER_END), round(players / RESULTS_PER_SECOND, 1)
    )


@bp.app_template_global()
def clock_poll_seconds(pace: Pace, seat: int) -> float:
    """How often a phone's clock polls: its room's pace, up to CLOCK_POLL_SPREAD slower, by its seat (spread evenly
    over the seats). Every phone of a room shows the board at the same moment, and a poll with nothing new changes
    nothing on the page: on one beat, all their polls would arrive within the same few milliseconds all round long (500
    phones: each poll queued 100 ms behind the others, and the words with them). Never faster than the pace."""
    share = (seat * GOLDEN_RATIO) % 1.0
    return round(pace.play_seconds * (1 + CLOCK_POLL_SPREAD * share), 1)


GOLDEN_RATIO = (math.sqrt(5) - 1) / 2  # (multiples of it modulo 1 spread the evenest over any number of seats)


def room_pace(room: Room) -> Pace:
    return pace_of(room.player_count)


# --- where a room stands -----------------------------------------------------------------------------------


def stage_of(room: Room) -> RoomStage:
    """Where the room's current round stands (ruzzle.room.stage_of)."""
    return room_stage(room.preset, room.current.number, (played.number for played in room.rounds))


def room_timeline(room: Room, number: int | None = None) -> Timeline:
    """The class's timeline of a round of the room (the current one by default)."""
    played = room.round(number)
    return Timeline(played.started, room.seconds, played.shift, played.paused_at, played.ended)


def phase_of(room: Room, moment: float) -> Reading:
    """Where the room's current round stands at a moment, for the class."""
    return room_timeline(room).read(moment)


def rooms_store() -> Rooms:
    return the_store().rooms


def find_room(code: str, moment: float | None = None) -> Room:
    """The room of a code typed in any case (open at `moment`, the request's); 404 for a code that names no open room,
    the same whether the room never was or has closed (nobody learns which codes were used); 429 for a client that
    tried too many such codes."""
    code = code.strip().upper()
    moment = now() if moment is None else moment  # read for every code: a closed room and an unknown code alike
    room = rooms_store().get(code, player_id()) if is_room_code(code) else find_live_room(code, player_id(), moment)
    if room is None or room.active_until < moment:
        check_code_lookup(missed=True)
        raise NotFound(
            gettext(
                "There is no room %(code)s. Check the code on the projector (%(length)d letters and digits, such "
                "as K7M2QX) and type it again. A room closes a day after its last game: for an older one, ask your "
                "teacher for the new code.",
                code=code[:12],
                length=CODE_LENGTH,
            )
        )
    check_code_lookup(missed=False, knows_room=room.member is not None or room.asker_hosts)
    # every page of the room shows the asker's nickname: a rename changes the answer of their next poll (conditional)
    g.asker_nickname = room.member.nickname if room.member else None
    g.board_language = room.language  # a room's link opened fresh speaks the room's language (views/i18n.py)
    return room


def is_host(room: Room) -> bool:
    """Whether this browser hosts the room: it opened it, or it opened the teacher's remote link."""
    return room.asker_hosts


def require_host(room: Room) -> None:
    """403 for anyone but the host, saying how the teacher becomes host again in this browser (a crashed or new
    browser has lost the host's cookie, not the room)."""
    if not is_host(room):
        raise Forbidden(
            gettext("Only the host of room %(code)s (the browser that opened it) can do this.", code=room.code)
            + " "
            + gettext(
                "Are you the teacher? Open the room's remote link in this browser: it is on your phone's remote "
                "(“Run the room from another device”), on your class's page, or under “Teacher's "
                "remote” on the host's view."
            )
        )


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
        raise Conflict(
            ngettext(
                "%(num)s pupil is still playing (extra time): wait for them, or end the round now.",
                "%(num)s pupils are still playing (extra time): wait for them, or end the round now.",
                still,
            )
        )


def host_action(code: str) -> Room:
    """The room, for one of its hosts (403 for anyone else)."""
    room = find_room(code)
    require_host(room)
    return room


def back_to_host(room: Room, shown: int | None = None) -> ResponseReturnValue:
    """After a host's action: back to the view it came from (the remote, its players' page, or the host's view);
    `shown`: the player whose rejoin code opens there."""
    view = request.form.get("view")
    if view in ("remote", "players"):
        endpoint = "rooms.show_remote" if view == "remote" else "rooms.show_remote_players"
        return redirect(cached_url(endpoint, code=room.code, shown=shown), 303)  # (url_for leaves out a None)
    anchor = (
        "#manage" if request.form.get("manage") or shown else ""
    )  # the players' tools stay open for the next change
    return redirect(cached_url("rooms.host_room", code=room.code, shown=shown) + anchor, 303)


def join_url(room: Room, _external: bool = True) -> str:
    return cached_url("rooms.join_page", _external, code=room.code)


def parse_whole(text: str | None, least: int, most: int, default: int | None) -> int:
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
        raise BadRequest(
            gettext("The projector shows the names of all players (all), the top 3 (top3) or nobody (none).")
        )
    return text


def not_started_message() -> str:
    return gettext("The round has not started yet: wait for the host to start it.")


# --- conditional answers ------------------------------------------------------------------------------------------


def conditional(
    state: tuple[object, ...], make: Callable[[str], ResponseReturnValue], json: bool = False, path: str | None = None
) -> Response:
    """Answer 304 when the client has this state already (its ETag), else the answer `make` builds, tagged.

    A poll every 2 s from every phone costs a query and a hash, not a page: rendering only happens on a change. The
    tag is the state's at a path: `path` when the answer is another URL's page (the player's page that a clock poll
    brings at the end of a round is the one its results then poll: the same tag, so their first poll is a 304). The
    asker's nickname is in every tag (find_room notes it): a pupil the teacher renamed sees the new name at their next
    poll, not at the next round.
    """

    def tag(fragment: bool) -> str:
        return state_tag(state, g.get("asker_nickname"), fragment, json, path or request.path)

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


def clock_state(clock: Reading, number: int) -> tuple[object, ...]:
    """What a running clock's poll shows (its ETag's state): the phase, the round, the deadline, and while paused the
    time left. The same for its view, the page it polls on and the poll answered before Flask
    (views/rooms/clock_poll.py)."""
    return (clock.name, number, clock.ends_at, clock.seconds_left if clock.name == "paused" else None)


@bp.app_template_global()
def clock_tag(room: Room, clock: Reading) -> str:
    """The tag the clock's view gives a running clock's poll now: what the page's first poll sends, so that it is a 304
    answered before Flask, as every later one is, and not a whole answer from every phone in the seconds after the
    start (the path is the poll's as its view reads it: request.path, without the application root)."""
    path = cached_url("rooms.show_room_clock", code=room.code).removeprefix(request.script_root)
    return state_tag(clock_state(clock, room.current.number), g.get("asker_nickname"), True, False, path)


def state_tag(state: tuple[object, ...], nickname: str | None, fragment: bool, json: bool, path: str) -> str:
    """The ETag of an answer: its state, the asker's nickname, its kind (fragment, JSON) and the path it is the page
    of (also what views/rooms/clock_poll.py compares a clock poll's tag with, before Flask sees the request)."""
    key = repr((state, nickname, fragment, json, path)).encode("utf-8")
    return hashlib.blake2b(key, digest_size=12).hexdigest()


def remote_url(room: Room, _external: bool = True) -> str:
    """The teacher's remote link: whoever opens it hosts the room (a secret of the room, not in the join link)."""
    return cached_url("rooms.open_remote", _external, code=room.code, key=room.remote_key)
