"""Live rooms: a class (or friends) plays one board at the same moment, the host's projector shows who is in, the
live ranking, a podium, and walks the class through the words saying who found each one.

Everything lives in the store, so any worker on any host answers any request; pages update by polling (htmx,
every 2 s) with conditional responses: a poll whose answer has not changed costs a query and a 304.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cached_property

from flask import Blueprint, Response, current_app, g, redirect, request
from flask_babel import gettext, ngettext
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound

from ruzzle import get_language, new_seed
from ruzzle.game import Round
from ruzzle.generator import LATEST_VERSION
from ruzzle.match import MATCH_ROUNDS
from ruzzle.nicknames import NicknameRefused, check_nickname, friendly_name, nickname_key
from store.rooms import CODE_ALPHABET, CODE_LENGTH, NicknameTaken, Room, RoomFull, RoomPlayer, round_key

from .boards import MAX_SECONDS, MIN_SECONDS, BoardRequest, lexicon_for, parse_safe, parse_seconds, parse_seed, parse_size
from .i18n import translate_error
from .pages import cached_url, render, sentence, wants_fragment
from .play import GAME_REGIONS, answer_word, game_context, show_word_on
from .rounds import PlayerRound, clean_up_store, load_round, now, player_id, round_board, start_round, the_store
from .solution import parse_step, projector_page, qr_svg

bp = Blueprint("rooms", __name__)
PRESETS = ("single", "match")  # one board a round, or Ruzzle's 3-round match (the start page names them)
COUNTDOWN = 3  # seconds of 3-2-1 between the host's Start and the first word
POLL_SECONDS = 2
TOP_SHOWN = 10
RANKINGS_CACHED = 256
RESULTS_POLL_AFTER_END = 6  # seconds after the end during which results still poll (words sent in the grace)
_CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")


# --- a room's board ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RoomBoard(BoardRequest):
    """The board of a room's round: a generated board whose pages are the room's (the words go to the room)."""

    room_code: str = ""
    room_id: int = 0
    number: int = 1
    ENDPOINTS = {"play.show_board": "rooms.play_room", "play.submit_word": "rooms.submit_room_word",
                 "play.show_word": "rooms.show_room_word", "solution.show_projector": "rooms.show_room_walk"}
    PAGES = {"board": "rooms.play_room", "projector": "rooms.show_room_walk"}

    def path_values(self) -> dict[str, str]:
        return {"code": self.room_code}

    def query(self) -> dict[str, str]:
        return {}

    def url(self, endpoint: str = "rooms.play_room", _external: bool = False, **values) -> str:
        values.pop("challenge", None)  # a room compares with the room, not with a challenge link
        return cached_url(self.ENDPOINTS.get(endpoint, endpoint), _external, **self.path_values(), **values)

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
    played = room.rounds[(number or len(room.rounds)) - 1]
    return RoomBoard(room.language, played.seed, room.rows, room.cols, room.seconds, room.safe,
                     generator=played.generator, match_round=played.match_round, room_code=room.code, room_id=room.id,
                     number=played.number)


# --- where a room stands -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Phase:
    """The current round of a room now: waiting for the host, counting down, running, or over."""

    name: str  # "waiting", "countdown", "playing", "over"
    seconds_left: float = 0.0  # until the start (countdown) or the end (playing)


def phase_of(room: Room, moment: float) -> Phase:
    """Where the room's current round stands at a moment."""
    started = room.current.started
    if started is None:
        return Phase("waiting")
    if moment < started:
        return Phase("countdown", started - moment)
    end = started + room.seconds
    if moment < end:
        return Phase("playing", end - moment)
    return Phase("over")


def rooms_store():
    return the_store().rooms


def find_room(code: str) -> Room:
    """The room of a code typed in any case; 404 with a message for a code that names no open room."""
    code = code.strip().upper()
    room = rooms_store().get(code, player_id()) if _CODE.fullmatch(code) else None
    if room is None:
        raise NotFound(gettext("There is no room %(code)s. Check the code on the projector: %(length)d letters and "
                               "digits, such as K7M2QX.", code=code[:12], length=CODE_LENGTH))
    if room.active_until < now():
        raise NotFound(gettext("Room %(code)s has closed: rooms close after a day without a game.", code=code))
    g.board_language = room.language  # a room's link opened fresh speaks the room's language (views/i18n.py)
    return room


def is_host(room: Room) -> bool:
    """Whether this browser opened the room."""
    return player_id() == room.host


def require_host(room: Room) -> None:
    """403 for anyone but the host."""
    if not is_host(room):
        raise Forbidden(gettext("Only the host of room %(code)s (the browser that opened it) can do this.",
                                code=room.code))


def require_member(room: Room) -> RoomPlayer:
    """This browser's place in the room; 403 for a browser that has not joined (or was removed)."""
    member = room.member
    if not member:
        raise Forbidden(gettext("Join room %(code)s first, with a nickname.", code=room.code))
    return member


def finished_room(code: str, not_yet: str) -> Room:
    """The room, for its host, once its current round is over (409 with `not_yet` before)."""
    room = find_room(code)
    require_host(room)
    if phase_of(room, now()).name != "over":
        raise Conflict(not_yet)
    return room


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
    match_round = MATCH_ROUNDS[0] if preset == "match" else None
    clean_up_store()
    room = rooms_store().create(player_id(create=True), language, rows, cols, seconds, parse_safe(form.get("safe")),
                                preset, seed, LATEST_VERSION, match_round, now())
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
    return _join_form(room)


def _join_form(room: Room, problem: str | None = None, nickname: str = "", status: int = 200):
    return render("room_join.html", ["main"], status, room=room, problem=problem, nickname=nickname)


@bp.post("/rooms/<code>/players")
def join_room(code: str):
    """Join with a nickname: 1-20 characters, unique in the room, nothing of the classroom blocklist in it."""
    room = find_room(code)
    store = rooms_store()
    typed = request.form.get("nickname", "")
    try:
        if request.form.get("any"):
            nickname = friendly_name(player.nickname for player in store.players(room.id))
        else:
            nickname = check_nickname(typed)
        store.join(room.id, player_id(create=True), nickname, nickname_key(nickname), now(),
                   int(current_app.config["ROOM_PLAYERS"]))
    except NicknameRefused as error:
        return _join_form(room, sentence(translate_error(error)), typed[:40], 422)
    except NicknameTaken:
        return _join_form(room, gettext("Someone in this room is already called %(name)s. Pick another name.",
                                        name=nickname), typed[:40], 409)
    except RoomFull as error:
        return _join_form(room, ngettext("This room is full (%(num)d player).", "This room is full (%(num)d players).",
                                         error.args[0]), typed[:40], 409)
    return redirect(cached_url("rooms.play_room", code=room.code), 303)


# --- playing ------------------------------------------------------------------------------------------------

def room_round(room: Room, board: RoomBoard) -> PlayerRound | None:
    """This player's round on the room's current board, made when the round has started (the room's start and
    length for everyone, whenever the player arrives)."""
    started = room.current.started
    if started is None:
        return None
    return load_round(board) or start_round(board, started=started)


@bp.get("/rooms/<code>/play")
def play_room(code: str):
    """The player's page: waiting for the host, 3-2-1, the board, then the results against the room's."""
    room = find_room(code)
    member = room.member
    if not member:
        target = cached_url("rooms.join_page", code=room.code)
        if wants_fragment():
            return "", 200, {"HX-Redirect": target}
        return redirect(target, 303)
    moment = now()
    phase = phase_of(room, moment)
    board = room_board(room)
    if phase.name in ("waiting", "countdown"):
        board.solution()  # solved now, while the class waits, so no worker meets the first words cold
        players = rooms_store().players(room.id)
        state = (phase.name, room.current.number, room.current.started, [p.nickname for p in players], member.id)
        return conditional(state, lambda etag: render("room_play.html", ["game"], etag=etag, **_waiting_context(
            room, board, member, phase, players)))
    played = room_round(room, board)
    context = room_game_context(room, board, member, played.round)
    if phase.name == "over":
        state = ("over", room.current.number, _results_state(context))
        return conditional(state, lambda etag: render("room_play.html", ["game"], etag=etag, **context))
    return render("room_play.html", GAME_REGIONS, **context)


def _waiting_context(room: Room, board: RoomBoard, member: RoomPlayer, phase: Phase, players) -> dict:
    return {"room": room, "request_board": board, "member": member, "phase": phase, "players": players,
            "poll_seconds": POLL_SECONDS, "countdown": phase.seconds_left, "board": None}


def room_game_context(room: Room, board: RoomBoard, member: RoomPlayer, round_: Round, message=None) -> dict:
    """The board page's context for a room: the game, and once over, the room's results for this player."""
    context = game_context(board, round_, message)
    context.update(room=room, member=member, phase=phase_of(room, now()), poll_seconds=POLL_SECONDS,
                   page_template="room_play.html")
    if context["over"]:
        context["results"] = player_results(room, board, member)
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
        raise Conflict(gettext("The round starts in %(seconds)d s: get ready.", seconds=math.ceil(phase.seconds_left)))
    return answer_word(board, room_round(room, board), None,
                       lambda board_, round_, message: room_game_context(room, board_, member, round_, message))


@bp.get("/rooms/<code>/words/<word>")
def show_room_word(code: str, word: str):
    """One word's path and breakdown on the room's board (a word found, or any once the round is over)."""
    room = find_room(code)
    member = require_member(room)
    board = room_board(room)
    played = room_round(room, board)
    if played is None:
        raise Conflict(not_started_message())
    return show_word_on(board, played.round, word,
                        lambda board_, round_, message: room_game_context(room, board_, member, round_, message))


# --- the host ------------------------------------------------------------------------------------------------

@bp.get("/rooms/<code>/host")
def host_room(code: str):
    """The host's view, for a projector: the join code and QR, the players, Start; the live ranking; the podium."""
    room = find_room(code)
    require_host(room)
    if code != room.code:
        return redirect(cached_url("rooms.host_room", code=room.code), 308)
    moment = now()
    phase = phase_of(room, moment)
    context = host_context(room, phase)
    if phase.name == "waiting":
        state = ("waiting", room.current.number, [p.nickname for p in context["players"]])
        return conditional(state, lambda etag: render("room_host.html", ["game"], etag=etag, **context))
    if phase.name == "over":
        state = ("over", room.current.number, context["ranking"].state(), context["class_view"]["still_counting"])
        return conditional(state, lambda etag: render("room_host.html", ["game"], etag=etag, **context))
    return render("room_host.html", ["game"], etag="", **context)


def host_context(room: Room, phase: Phase) -> dict:
    board = room_board(room)
    url = join_url(room)
    waiting = phase.name == "waiting"
    context = {"room": room, "phase": phase, "request_board": board, "board": board.board(), "join_url": url,
               "qr_svg": qr_svg(url) if waiting else None,  # (only the lobby shows it)
               "players": rooms_store().players(room.id), "poll_seconds": POLL_SECONDS,
               "ranking": None if waiting else ranking(room), "class_view": None}
    if phase.name == "over":
        context["class_view"] = class_view(room, board)
    return context


@bp.post("/rooms/<code>/start")
def start_room(code: str):
    """Start the current round for everyone, after a short 3-2-1 (a second press changes nothing)."""
    room = find_room(code)
    require_host(room)
    if room.current.started is None:
        rooms_store().start(room.id, room.current.number, math.ceil(now()) + COUNTDOWN, round_board(room_board(room)))
    return redirect(cached_url("rooms.host_room", code=room.code), 303)


@bp.post("/rooms/<code>/rounds")
def add_room_round(code: str):
    """Another round in the same room on a fresh board (in a match, the next round's bonus tiles)."""
    room = finished_room(code, gettext("This round is not over yet: a new round can start once it ends."))
    number = room.current.number
    match_round = (number % len(MATCH_ROUNDS)) + 1 if room.preset == "match" else None
    if match_round == MATCH_ROUNDS[-1]:
        match_round = None  # round 3 of a match is a whole board
    rooms_store().add_round(room.id, number, new_seed(), LATEST_VERSION, match_round)
    return redirect(cached_url("rooms.host_room", code=room.code), 303)


@bp.post("/rooms/<code>/players/<int:player>/remove")
def remove_room_player(code: str, player: int):
    """Remove a player and their name from the room (a name a class should not see)."""
    room = find_room(code)
    require_host(room)
    if not rooms_store().remove(room.id, player):
        raise NotFound(gettext("That player is not in this room (any more)."))
    return redirect(cached_url("rooms.host_room", code=room.code), 303)


@bp.get("/rooms/<code>/results.csv")
def download_results(code: str):
    """The room's results for the host: one row per player (nickname, score, words found, rank, the words)."""
    room = find_room(code)
    require_host(room)
    table = ranking(room)
    words = defaultdict(list)
    for number in range(1, len(room.rounds) + 1):
        for found in rooms_store().words_found(room, number):
            words[found.player_id].append(found.word)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rounds_header = [gettext("round %(round)s", round=n) for n in range(1, len(room.rounds) + 1)] \
        if len(room.rounds) > 1 else []
    writer.writerow([gettext("nickname"), gettext("score"), gettext("words found"), gettext("rank"), gettext("words"),
                     *rounds_header])
    for line in table.lines:
        writer.writerow([_csv_safe(line.nickname), line.score, line.words, line.rank,
                         " ".join(sorted(words[line.player_id])), *(line.round_scores if rounds_header else [])])
    filename = f"ruzzle-room-{room.code}.csv"
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"})


def _csv_safe(text: str) -> str:
    """A nickname a spreadsheet shows as text (one starting with = + - @ would be run as a formula)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


@bp.get("/rooms/<code>/projector")
def show_room_walk(code: str):
    """The walk-through of the room's board for the host, each revealed word with who found it."""
    room = finished_room(code, gettext("The walk-through opens when the round is over."))
    return projector_page(room_board(room), parse_step(request.args.get("step")), join_url=join_url(room),
                          seconds=room.seconds, finders=finders_of(room), room=room)


def finders_of(room: Room) -> dict[str, list[str]]:
    """Each word found in the room's current round, with the nicknames of who found it (alphabetical)."""
    finders = defaultdict(list)
    for found in rooms_store().words_found(room, room.current.number):
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
    score: int
    words: int
    round_scores: tuple[int, ...]
    reached: float | None  # when the score was reached (ties go to the earlier)


@dataclass(frozen=True)
class Ranking:
    """The room's ranking: every player, best first, with each round's score when there are several."""

    rounds: int
    lines: tuple[RankLine, ...]

    def state(self) -> tuple:
        return self.rounds, tuple((line.player_id, line.score, line.words, line.round_scores) for line in self.lines)

    def of(self, player_id: int) -> RankLine | None:
        return next((line for line in self.lines if line.player_id == player_id), None)


def ranking(room: Room) -> Ranking:
    """Rank the room's players by their total, ties to the one who reached it first (then who joined first)."""
    totals: dict[int, dict] = {}
    for row in rooms_store().scores(room):
        line = totals.setdefault(row.player_id, {"nickname": row.nickname, "joined": row.joined, "score": 0,
                                                 "words": 0, "rounds": [0] * len(room.rounds), "reached": None})
        if row.number is None:
            continue
        line["score"] += row.score
        line["words"] += row.found
        line["rounds"][row.number - 1] = row.score
        if row.scored_at is not None:
            line["reached"] = max(line["reached"] or row.scored_at, row.scored_at)
    ordered = sorted(totals.items(), key=lambda item: (-item[1]["score"], item[1]["reached"] or math.inf,
                                                       item[1]["joined"], item[0]))
    return Ranking(len(room.rounds), tuple(
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
    """The ranking as a fragment (htmx polls it) or, for `Accept: application/json`, as JSON."""
    room = find_room(code)
    table = live_ranking(room)
    phase = phase_of(room, now())
    state = (room.current.number, phase.name, table.state())
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json" and \
            "application/json" in request.headers.get("Accept", ""):
        return conditional(state, lambda etag: {
            "room": room.code, "round": room.current.number, "rounds": len(room.rounds), "phase": phase.name,
            "starts_at": room.current.started, "ends_at": room.current.started and room.current.started + room.seconds,
            "players": [{"rank": line.rank, "nickname": line.nickname, "score": line.score, "words": line.words,
                         "rounds": list(line.round_scores)} for line in table.lines]}, json=True)
    top = TOP_SHOWN if request.args.get("all") != "1" else len(table.lines)
    return conditional(state, lambda etag: render("_room_leaderboard.html", ["leaderboard"], room=room,
                                                  ranking=table, top=top, phase=phase, poll_seconds=POLL_SECONDS,
                                                  member_id=None, etag=etag))


# --- results ----------------------------------------------------------------------------------------------------

def class_view(room: Room, board: RoomBoard) -> dict:
    """The class's view of the round's board: words by how many found them, the words nobody found, the best."""
    solution = board.solution()
    found_by = finders_of(room)
    by_word = {found.word: found for found in solution}
    common = sorted(found_by.items(), key=lambda item: (-len(item[1]), -by_word[item[0]].score, item[0]))
    nobody = [found for found in solution if found.word not in found_by]
    best = max((by_word[word] for word in found_by), key=lambda f: (f.score, -len(f.word)), default=None)
    return {"found_by": [(by_word[word], names) for word, names in common],
            "nobody": nobody[:20], "nobody_count": len(nobody), "best": best,
            "best_finders": found_by[best.word] if best else [],
            "total": len(solution), "found_count": len(found_by),
            "still_counting": now() < room.current.started + room.seconds + RESULTS_POLL_AFTER_END}


def player_results(room: Room, board: RoomBoard, member: RoomPlayer) -> dict:
    """A player's results in the room: rank, score, percentile; their words against the room's."""
    table = live_ranking(room)  # every phone polls its results page: they share one ranking a second
    mine = table.of(member.id)
    found_words = rooms_store().words_found(room, room.current.number)
    counts = Counter(found.word for found in found_words)
    my_words = {found.word for found in found_words if found.player_id == member.id}
    players = len(table.lines)
    solution = board.solution()
    missed_by_all = [found for found in solution if counts[found.word] == 0]
    beaten = players - mine.rank if mine else 0
    return {
        "ranking": table, "line": mine, "players": players,
        "percentile": round(100 * beaten / (players - 1)) if players > 1 else 100,
        "only_you": [found for found in solution if found.word in my_words and counts[found.word] == 1],
        "everyone": [found for found in solution if players > 1 and counts[found.word] == players],
        "missed_by_all": missed_by_all[:10], "missed_by_all_count": len(missed_by_all),
        "still_counting": now() < room.current.started + room.seconds + RESULTS_POLL_AFTER_END,
    }


def _results_state(context: dict) -> tuple:
    results = context["results"]
    return results["ranking"].state(), results["still_counting"]


# --- conditional answers ------------------------------------------------------------------------------------------

def conditional(state: tuple, make, json: bool = False):
    """Answer 304 when the client has this state already (its ETag), else the answer `make` builds, tagged.

    A poll every 2 s from every phone costs a query and a hash, not a page: rendering only happens on a change.
    """
    key = repr((state, wants_fragment(), json, request.path)).encode("utf-8")
    etag = hashlib.blake2b(key, digest_size=12).hexdigest()
    # (flask-compress tags a compressed answer "<etag>:br"; either is the same state)
    if any(tag and tag.split(":", 1)[0] == etag for tag in request.if_none_match.as_set()):
        response = Response(status=304)
    else:
        response = current_app.make_response(make(etag))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"  # always ask again; the ETag makes asking cheap
    return response
