"""A player's rounds: the player is an anonymous id in the signed session cookie, the rounds live in the store."""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, overload

from flask import Flask, Request, current_app, g, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_babel import lazy_gettext
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer

from ruzzle import Found
from ruzzle.errors import N_, WordRefused
from ruzzle.game import Round, Solution
from ruzzle.timeline import Timeline
from store import Recorded, RoundBoard, Store, StoredRound, is_player_id, new_player_id
from store.rooms import parse_round_key

from .boards import BoardRequest, BoardSource
from .services import services

PLAYER = "player"
# Whether this browser ever took a seat in a room (1), never did since its player was made (0), or has a cookie older
# than this note (missing): the room banner asks the store only where a seat can be (seated_somewhere). One letter: the
# cookie goes with every request.
SEATED = "s"
UNREADABLE = "ruzzle.session_unreadable"
UNREADABLE_MESSAGE = lazy_gettext(
    "Your saved round could not be read (the cookie was changed, or it comes from "
    "another server), so a new round has started."
)
READ_COOKIES_KEPT = 4096  # the cookies' readings each worker keeps (RoundSessionInterface.open_session): a school
MAX_CLOCK_SKEW = 300  # seconds another host's clock may run ahead of this one's for its cookies to be read


class SkewTolerantSigner(TimestampSigner):
    """A cookie's signature is dated by the host that signed it: with several hosts, one whose clock runs ahead
    signs "in the future", which itsdangerous takes for an expired signature (a pupil lost their seat on the other
    host for as long as the clocks differ). A date up to MAX_CLOCK_SKEW ahead is taken as now."""

    # itsdangerous types unsign as two overloads on return_timestamp's value (False: bytes, True: with the date);
    # this passes the value on unchanged, which its overloads cannot describe: hence the ignores
    def unsign(  # type: ignore[override]
        self, signed_value: str | bytes, max_age: int | None = None, return_timestamp: bool = False
    ) -> tuple[bytes, datetime.datetime] | bytes:
        try:
            return super().unsign(signed_value, max_age, return_timestamp)  # type: ignore[call-overload,no-any-return]
        except SignatureExpired as error:
            ahead = error.date_signed and error.date_signed.timestamp() - self.get_timestamp()
            if not ahead or not 0 < ahead <= MAX_CLOCK_SKEW:
                raise
            return super().unsign(signed_value, None, return_timestamp)  # type: ignore[call-overload,no-any-return]


class RoundSessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, which also notes when a cookie was sent but could not be trusted."""

    _signer: tuple[object, URLSafeTimedSerializer | None] | None = None  # (the secret key, its serializer)

    def __init__(self) -> None:
        self._read_cookies: dict[tuple[object, str], tuple[dict[str, Any], float]] = {}

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask builds a new signer per request; one per secret key does the same work (the app has its own
        interface, made by create_app)."""
        key = app.secret_key
        if self._signer is None or self._signer[0] != key:
            serializer = super().get_signing_serializer(app)
            if serializer is not None:
                serializer.signer = SkewTolerantSigner
            self._signer = (key, serializer)
        return self._signer[1]

    def open_session(self, app: Flask, request_: Request) -> SecureCookieSession | None:
        """Flask's, on `read_cookie`, noting a cookie sent but not to be trusted (or empty): the player is a new one,
        and is told so."""
        if self.get_signing_serializer(app) is None:
            return None
        value = request_.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        data = self.read_cookie(app, value)
        if not data:
            request_.environ[UNREADABLE] = True
            return self.session_class()
        return self.session_class(data)

    def read_cookie(self, app: Flask, value: str) -> dict[str, Any]:
        """What a session cookie's text holds ({} for one that does not read), each reading kept (READ_COOKIES_KEPT):
        a phone sends the same cookie with every word and poll, and checking its signature again cost a tenth of a
        word's answer. A kept reading is the signature checked once for that exact text under this key; its age is
        still checked on every request. Also what views/rooms/clock_poll.py reads a poll's player with."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return {}
        max_age = int(app.permanent_session_lifetime.total_seconds())
        kept = self._read_cookies.get((serializer, value))
        if kept is not None and time.time() - kept[1] <= max_age:
            return dict(kept[0])
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return {}
        if not isinstance(data, dict):
            return {}
        if data and all(isinstance(item, str | int | float | bool | None) for item in data.values()):  # (copied whole)
            if len(self._read_cookies) >= READ_COOKIES_KEPT:
                self._read_cookies.pop(next(iter(self._read_cookies)), None)  # the oldest first
            self._read_cookies[(serializer, value)] = (data, signed.timestamp())
        return data


@dataclass(frozen=True)
class PlayerRound:
    """A round of this player as the game sees it (`round`), with its id in the store."""

    id: int
    round: Round


def now() -> float:
    """The time of this request, read once: the database's clock on PostgreSQL (several hosts, one clock, whatever
    their own clocks say), this host's on SQLite; a test may give the app a clock of its own (CLOCK)."""
    here = g._get_current_object()  # (one lookup of the context-local object, not one per attribute)
    moment: float | None = getattr(here, "ruzzle_now", None)
    if moment is None:
        clock = current_app.config["CLOCK"]
        moment = here.ruzzle_now = clock() if clock is not None else the_store().database_time()
        here.ruzzle_read_at = time.perf_counter()
    return moment


def rough_now() -> float:
    """The time of this request to within minutes, with no trip to the database: the request's clock when it was
    read already, else the test's clock or this host's (for rules measured in hours, such as a room's idleness)."""
    moment: float | None = getattr(g._get_current_object(), "ruzzle_now", None)
    if moment is not None:
        return moment
    clock = current_app.config["CLOCK"]
    return clock() if clock is not None else time.time()


def current_grace() -> float:
    """Seconds after the deadline during which a word already on its way still counts."""
    grace: float = current_app.config["ROUND_GRACE_SECONDS"]
    return grace


def the_store() -> Store:
    """The app's store of rounds."""
    return services().store


@overload
def player_id(create: Literal[True]) -> str: ...
@overload
def player_id(create: bool = False) -> str | None: ...
def player_id(create: bool = False) -> str | None:
    """The player of this request (from the signed cookie); a new one when asked to create and there is none."""
    player = session.get(PLAYER)
    if is_player_id(player):
        return player
    if not create:
        return None
    session.clear()  # whatever else an old cookie held (rounds of the cookie era) goes with it
    session[PLAYER] = player = new_player_id()
    session[SEATED] = 0  # a new player has no seat anywhere
    session.permanent = True
    return player


def note_seated() -> None:
    """Note in the cookie that this browser took a seat (a join, a rejoin code, a class list's pupil)."""
    if session.get(SEATED) != 1:
        session[SEATED] = 1


def seated_somewhere(player: str, has_seat: Callable[[str], bool]) -> bool:
    """Whether this browser may have a seat in a room: its cookie says so, or, for a cookie older than the note, the
    store's `has_seat` says so once and the cookie keeps the answer (a seat taken later notes itself)."""
    seated = session.get(SEATED)
    if seated is None:
        seated = session[SEATED] = int(has_seat(player))
    return bool(seated)


def unreadable_message() -> str | None:
    """The message for a cookie that was sent but could not be trusted (so the player is a new one)."""
    return str(UNREADABLE_MESSAGE) if request.environ.get(UNREADABLE) else None


def letters_key(source: BoardSource) -> str:
    """The board by its letters: language, size and letters, whatever seed, length or filter made it."""
    board = source.board()
    return f"{board.language}|{board.rows}x{board.cols}|{board.letters}"


def round_board(board: BoardRequest) -> RoundBoard:
    """What the store keeps of a board URL when a round starts on it."""
    solution = board.solution()
    return RoundBoard(board.played(), letters_key(board), len(solution), solution.total_score)


def load_round(board: BoardRequest) -> PlayerRound | None:
    """This player's current round on this board URL, or None (no player yet, or no round)."""
    player = player_id()
    if player is None:
        return None
    stored = the_store().rounds.current(player, board.round_key)
    return None if stored is None else _player_round(board.solution(), stored)


def start_round(board: BoardRequest, again: bool = False, started: float | None = None) -> PlayerRound:
    """The running round on this board (the first one if none), or with `again` a new round from now; `started`:
    a start other than now (a room's round starts for everyone at once)."""
    if not again and (played := load_round(board)) is not None:
        return played  # the usual case, a read: the board page and each word come here
    clean_up_store()
    moment = int(now()) if started is None else started
    stored = the_store().rounds.start(player_id(create=True), round_board(board), moment, again=again)
    return _player_round(board.solution(), stored)


def end_round(played: PlayerRound) -> PlayerRound:
    """The round ended now by the player (a round that is already over keeps its end)."""
    the_store().rounds.end(played.id, now())
    return PlayerRound(played.id, played.round.give_up(now()))


def record_word(board: BoardRequest, played: PlayerRound, found: Found, moment: float) -> PlayerRound:
    """The round with a word found at `moment` (the request's): the game's rule (Round.submit) on the round as this
    request read it, then the store's atomic step, which decides between requests; WordRefused, in the game's words,
    when it is not taken."""
    solution = board.solution()
    grace = current_grace()
    taken = played.round.submit(solution, found, moment, grace)  # the refusals the round we read explains
    outcome = the_store().rounds.record_word(played.id, found.word, found.score, moment, grace)
    if outcome is Recorded.ADDED:
        return PlayerRound(played.id, taken)
    # Another request got there first (the word, or the round's end): the round as it is now says why.
    stored = the_store().rounds.current(player, board.round_key) if (player := player_id()) is not None else None
    latest = _player_round(solution, stored).round if stored is not None and stored.id == played.id else played.round
    if outcome is Recorded.ROUND_OVER and latest.timeline.takes_word(moment, grace):
        latest = latest.give_up(moment)  # the store saw the round end (another request ended it meanwhile)
    latest.submit(solution, found, moment, grace)  # the game's words for the refusal, when it has them
    # Reached when the round read is no longer the player's (another tab began a new one, or the clean-up took it):
    # the round as we read it takes the word, so only the store's reason is left.
    raise WordRefused(outcome.value, N_("%(word)s was not taken"), word=found.word)


@dataclass(frozen=True)
class BoardInPlay(BoardRequest):
    """The board URL of a round of this player still running. A room's round is played in its room, not on this
    URL: `in_room` says so, and `room_code` names the room when the player has a seat in it and the round is its
    current one (the link back goes there; giving up a solo round on the seed would not end it)."""

    in_room: bool = False
    room_code: str | None = None


def board_in_play(source: BoardSource) -> BoardInPlay | None:
    """This player's round still running on this board's letters (so its solution stays hidden), or None."""
    player = player_id()
    played = player and the_store().rounds.in_play(player, letters_key(source), now(), current_grace())
    if not played or not player:
        return None
    room_round = parse_round_key(played.board_key)
    return BoardInPlay.of_played(
        played,
        in_room=room_round is not None,
        room_code=room_round and the_store().rooms.room_playing(*room_round, player),
    )


def homework_running(source: BoardSource) -> bool:
    """Whether a homework whose deadline has not passed (a round begun just before it included) has this board's
    letters: their words wait for the deadline, for everybody, on every page that could list them."""
    return the_store().assignments.running_homework(letters_key(source), now() - current_grace())


def _player_round(solution: Solution, stored: StoredRound) -> PlayerRound:
    indices = (solution.index(word) for word in stored.words)
    timeline = Timeline(stored.started, stored.seconds, stored.shift, stored.paused_at, stored.ended)
    round_ = Round(timeline, frozenset(i for i in indices if i is not None), stored.score)
    return PlayerRound(stored.id, round_)


def clean_up_store() -> None:
    """Delete what the store keeps past its time (store/cleanup.py), at most once an hour per process."""
    services().cleanup.run_if_due(now())
