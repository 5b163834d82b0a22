"""Rooms that never close: `/live/<language>`, one board every few minutes for anyone, without a host.

A live room is an ordinary room of the store (store/live.py) whose code is LIVE + its language (LIVEEN) and whose
round number is the slot of the wall clock (ruzzle/live.py): the rooms. pages (views/rooms/) serve it as any room,
the board page, its word queue, its clock polls and its results. What this module adds: finding the live room of a
code with its slot's round (made by the first request of the slot, on any worker of any server), making the next
slot's round and board ahead of time, the live results (the round's, the hour's and the day's rankings, the
percentile, the words most players found and the rare ones) and the page that joins.
"""

from __future__ import annotations

import datetime
import math
import time
from collections import defaultdict
from dataclasses import dataclass

from flask import Blueprint, Flask, Response, after_this_request, current_app, g, redirect, render_template
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound

from ruzzle import LANGUAGES
from ruzzle.generator import LATEST_VERSION
from ruzzle.live import Schedule, day_start, hour_start, language_of, live_code, live_seed
from ruzzle.results import class_view, in_order, standing
from ruzzle.room import TOP_SHOWN, percentile
from ruzzle.solver import Found
from store.live import COLS, PRESET, ROWS, LiveScore
from store.rooms import Room, RoomPlayer

from .boards import BoardRequest
from .game import PageContext
from .pages import cached_url
from .rounds import clean_up_store, now, player_id, the_store
from .services import current_flask, services
from .translations import gettext

bp = Blueprint("live", __name__)
SHOWN = TOP_SHOWN  # lines of each ranking, and words of each list, a phone shows (the player's own line besides)


@bp.app_template_global("live_schedule")
def schedule() -> Schedule:
    """The live rooms' slots, from the settings (LIVE_PLAY_SECONDS, LIVE_RESULTS_SECONDS)."""
    config = current_app.config
    return Schedule(int(config["LIVE_PLAY_SECONDS"]), int(config["LIVE_RESULTS_SECONDS"]))


def is_live(room: Room) -> bool:
    return room.preset == PRESET


def playable(language: str) -> bool:
    return language in services().lexicons


# --- the live room of a code, with its slot's round -----------------------------------------------------------


def find_live_room(code: str, player: str | None, moment: float) -> Room | None:
    """The live room of a code such as LIVEEN with the round of the slot under way (made by the first request of the
    slot, here or on another server), or None when the code names no live room this server plays. One query when
    the round is there, as for a class room."""
    language = language_of(code)
    if language is None or not playable(language):
        return None
    plan = schedule()
    slot = plan.slot_at(moment)
    store = the_store()
    room = store.rooms.get(code, player, number=slot)
    if room is None or room.seconds != plan.play_seconds:
        open_slot(language, slot, moment)
        room = store.rooms.get(code, player, number=slot)
        assert room is not None  # open_slot made it (or another request of the slot did)
    prepare_next_slot(room, slot)
    return room


def open_slot(language: str, slot: int, moment: float) -> int:
    """Make the live room of a language and its round for `slot` (nothing that exists already); its id."""
    plan = schedule()
    clean_up_store()  # (at most once an hour per process: the live rounds the day's ranking no longer needs go too)
    return the_store().live.open_round(
        live_code(language),
        language,
        plan.play_seconds,
        slot,
        slot_seed(language, slot),
        LATEST_VERSION,
        plan.starts(slot),
        moment,
    )


def slot_seed(language: str, slot: int) -> str:
    key = current_app.secret_key
    assert isinstance(key, str)  # the settings' key: SECRET_KEY, or the instance's secret_key file (views/settings.py)
    return live_seed(key.encode("utf-8"), language, slot)


def slot_board(language: str, slot: int) -> BoardRequest:
    """The board of a slot as an ordinary board (4x4, classroom-safe, the latest generator)."""
    return BoardRequest(
        language, slot_seed(language, slot), ROWS, COLS, schedule().play_seconds, True, generator=LATEST_VERSION
    )


def prepare_next_slot(room: Room, slot: int) -> None:
    """Once per worker and slot: after this answer is sent, the next slot's round is made in the store and its board
    solved in this worker, so that no request at the start of the next round waits for either."""
    prepared: dict[str, int] = services().live_prepared  # code -> the slot prepared
    if prepared.get(room.code, -1) > slot:
        return
    prepared[room.code] = slot + 1
    job = (current_flask(), room.language, slot + 1, now())  # (the app itself, which outlives the request)

    @after_this_request
    def when_sent(response: Response) -> Response:
        response.call_on_close(lambda: prepare_slot(*job))
        return response


def prepare_slot(app: Flask, language: str, slot: int, moment: float) -> None:
    """Make a slot's round and solve its board (run after an answer went out; a failure is logged, the slot's first
    request then does it)."""
    # a request context of its own: the solving budget charges the client that asks, here the server itself
    with app.test_request_context(environ_base={"REMOTE_ADDR": "live-rooms"}):
        try:
            open_slot(language, slot, moment)
            slot_board(language, slot).solution()
        except Exception:
            app.logger.exception("the next live round (%s, slot %d) could not be prepared", language, slot)


# --- results ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LiveLine:
    """A player's line in a live ranking (a round's, an hour's, a day's)."""

    rank: int
    player_id: int
    nickname: str
    score: int
    words: int
    rounds: int


@dataclass(frozen=True)
class LiveRanking:
    """A live ranking: the players with a word found, best first (ties: ruzzle.results.standing)."""

    lines: tuple[LiveLine, ...]

    @classmethod
    def of(cls, scores: list[LiveScore]) -> LiveRanking:
        ordered = in_order(scores, lambda s: standing(s.score, s.reached, seat=s.player_id))
        return cls(tuple(LiveLine(rank, s.player_id, s.nickname, s.score, s.words, s.rounds) for rank, s in ordered))

    def line_of(self, player_id: int) -> LiveLine | None:
        return next((line for line in self.lines if line.player_id == player_id), None)

    def shown(self, player_id: int | None = None) -> list[LiveLine]:
        """The top lines, and the player's own below them when it is not among them."""
        top = list(self.lines[:SHOWN])
        mine = player_id is not None and self.line_of(player_id)
        return top + [mine] if mine and mine not in top else top

    def state(self) -> tuple[tuple[int, int, int], ...]:
        return tuple((line.player_id, line.score, line.words) for line in self.lines)


@dataclass(frozen=True)
class RoundResults:
    """What every player of a live round sees alike: the rankings, and the words by how many players found them."""

    slot: int
    started: float
    ranking: LiveRanking  # the round's
    hour: LiveRanking
    day: LiveRanking
    most_found: tuple[tuple[Found, int], ...]  # (Found, how many found it), the most found first (by two or more)
    rare: tuple[tuple[Found, str], ...]  # (Found, who found it): the rare finds (ruzzle.results.is_rare), best first
    rare_count: int


def live_results(room: Room, board: BoardRequest, member: RoomPlayer, still_counting: bool) -> PageContext:
    """A player's results in a live round: rank and percentile among the round's players, the words most found and
    the rare ones, the round's, the hour's and the day's rankings, and the share text's values."""
    shared = round_results(room, board, still_counting)
    line = shared.ranking.line_of(member.id)
    others = [other.score for other in shared.ranking.lines if other.player_id != member.id]
    plan = schedule()
    return {
        "live": True,
        "ranking": shared.ranking,
        "shared": shared,
        "line": line,
        "players": len(shared.ranking.lines),
        "others": len(others),
        "percentile": percentile(line.score, others) if line else None,
        "still_counting": still_counting,
        "next_in": max(0.0, plan.starts(shared.slot + 1) - now()),
        "server_now": now(),
        "time": datetime.datetime.fromtimestamp(shared.started, datetime.UTC).strftime("%H:%M"),
        "live_url": cached_url("live.play_live", True, language=room.language),
    }


def round_results(room: Room, board: BoardRequest, still_counting: bool) -> RoundResults:
    """The round's shared results, worked out once per worker while words may still land (at most every
    ROOM_RANKING_SECONDS) and then kept until the next round: every phone polls its results page."""
    # room code -> (slot, made at, results)
    cache: dict[str, tuple[int, float | None, RoundResults]] = services().live_results
    slot = room.current.number
    cached = cache.get(room.code)
    fresh_for = float(current_app.config["ROOM_RANKING_SECONDS"])
    if (
        cached is not None
        and cached[0] == slot
        and (cached[1] is None or (still_counting and time.monotonic() - cached[1] < fresh_for))
    ):
        return cached[2]
    results = work_out_results(room, board)
    cache[room.code] = (slot, time.monotonic() if still_counting else None, results)
    return results


def work_out_results(room: Room, board: BoardRequest) -> RoundResults:
    """A live round's shared results, from the store."""
    live = the_store().live
    played = room.current
    started = played.started
    assert started is not None  # a live round is made started, at its slot's start (open_slot)
    finders: defaultdict[str, list[str]] = defaultdict(list)
    for found in the_store().rooms.words_found(room, played.number):
        finders[found.word].append(found.nickname)
    view = class_view(board.solution(), {word: len(names) for word, names in finders.items()})
    rare = view.rare()
    return RoundResults(
        played.number,
        started,
        LiveRanking.of(live.round_scores(room.id, played.number)),
        LiveRanking.of(live.scores(room.id, hour_start(started), started + 1)),
        LiveRanking.of(live.scores(room.id, day_start(started), started + 1)),
        tuple(view.found_by_many()[:SHOWN]),
        tuple((found, finders[found.word][0]) for found, _ in rare[:SHOWN]),
        len(rare),
    )


def live_capacity() -> int:
    """How many players a live room takes (ROOM_PLAYERS is a class's)."""
    return int(current_app.config["LIVE_PLAYERS"])


# --- the page that joins --------------------------------------------------------------------------------------


@bp.get("/live/<language>")
def play_live(language: str) -> ResponseReturnValue:
    """A language's live room: the join form (a nickname, or any name), or for a browser that joined, the board of
    the round under way (its page is the room's)."""
    code = language.strip().lower()
    if code not in LANGUAGES or not playable(code):
        raise NotFound(
            gettext(
                "There is no live room in %(language)s. Live rooms play in: %(languages)s.",
                language=language[:20],
                languages=", ".join(LANGUAGES[known].name for known in LANGUAGES if playable(known)),
            )
        )
    if code != language:
        return redirect(cached_url("live.play_live", language=code), 308)
    g.board_language = code  # a fresh browser's pages speak the room's language (views/i18n.py)
    room = find_live_room(live_code(code), player_id(), now())
    assert room is not None  # a playable language has its live room
    if room.member:
        return redirect(cached_url("rooms.play_room", code=room.code), 303)
    return render_template("room_join.html", room=room, problem=None, nickname="", oob=frozenset(), fragment=False)


@bp.app_template_global()
def live_context(room: Room) -> dict[str, int | bool]:
    """What a live room's join form says besides the form: the slots' lengths and the round under way."""
    plan = schedule()
    moment = now()
    slot = room.current.number
    return {
        "play_seconds": plan.play_seconds,
        "slot_seconds": plan.slot_seconds,
        "playing": moment < plan.play_ends(slot),
        "left": max(0, math.ceil(plan.play_ends(slot) - moment)),
        "next_in": max(0, math.ceil(plan.starts(slot + 1) - moment)),
    }


@bp.app_template_global()
def live_rooms() -> list[tuple[str, str]]:
    """The languages with a live room on this server, for the start page: (code, name)."""
    return [(code, language.name) for code, language in LANGUAGES.items() if playable(code)]
