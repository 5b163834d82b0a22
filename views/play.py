"""Playing: the start page, a board page with its round, submitting words, the end of a round."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from flask import Blueprint, g, redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import BadRequest, NotFound, TooManyRequests

from ruzzle import LANGUAGES, new_seed
from ruzzle.game import Round
from ruzzle.generator import LATEST_VERSION
from ruzzle.room import is_room_code
from ruzzle.targets import MAX_TARGETS
from store.rooms import Room

from .addresses import same_site_path
from .boards import BOARD_SIZES, DEFAULT_SIZE, ROUND_LENGTHS, BoardRequest, parse_challenge, parse_seconds, parse_size
from .deadlines import homework_form
from .game import GamePage, answer_word, extra_args, show_word_on
from .pages import render
from .rounds import end_round, load_round, now, start_round, unreadable_message
from .translations import gettext

bp = Blueprint("play", __name__)


@bp.get("/")
def start() -> ResponseReturnValue:
    """The start page: language, size, round length, a board code (seed), and the daily boards."""
    return start_page()


def start_page(room_offer: RoomOffer | None = None) -> tuple[str, int]:
    """The start page, with the offer to join a room whose code was typed as a board code, if one was."""
    return render(
        "start.html",
        ["start"],
        languages=LANGUAGES,
        sizes=BOARD_SIZES,
        default_size=DEFAULT_SIZE,
        round_lengths=ROUND_LENGTHS,
        room_offer=room_offer,
        **homework_form(),
        max_targets=MAX_TARGETS,
    )


@bp.get("/new")
def new_board() -> ResponseReturnValue:
    """Go to the board the start form describes (a fresh seed when none is typed); a board code that is an open
    room's code gets the start page again, offering to join that room or to play the board all the same."""
    typed = request.args.get("seed", "").strip()
    rows, cols = parse_size(request.args.get("size"))
    query = {"size": f"{rows}x{cols}", "time": str(parse_seconds(request.args.get("time")))}
    if request.args.get("safe") not in (None, "", "1"):
        query["safe"] = request.args["safe"]
    query["gen"] = str(LATEST_VERSION)
    board = BoardRequest.from_url(request.args.get("language", "en"), typed or new_seed(), query)
    room = open_room_named(typed)
    if room is not None:
        body, status = start_page(RoomOffer(room.code, board.url()))
        return body, status, {"Cache-Control": "no-store"}  # the room closes; the same URL then leads to the board
    return redirect(board.url(), 303)


@dataclass(frozen=True)
class RoomOffer:
    """A room whose code was typed as a board code: the start page offers to join it, or to play that board."""

    code: str
    board_url: str


def open_room_named(typed: str) -> Room | None:
    """The open room whose code the board code field holds (pupils type a room's code there), or None.

    Only text shaped like a room code is looked up, and it counts as a room lookup (views/limits.py): a client that
    tried too many codes gets its boards and no offer, so the field tells nobody which codes are rooms.
    """
    code = typed.upper()
    if not is_room_code(code):
        return None
    from .rooms import find_room  # views.rooms imports this module: its lookup is imported when it is needed

    try:
        room = find_room(code)
    except (NotFound, TooManyRequests):
        return None
    g.pop("board_language", None)  # the offer is the start page: it speaks the start page's language, not the room's
    return room


@bp.get("/daily/<language>")
def daily_board(language: str) -> ResponseReturnValue:
    """Today's board (UTC) in a language: the same for everyone on that day."""
    today = datetime.datetime.fromtimestamp(now(), datetime.UTC).date().isoformat()
    board = BoardRequest.from_url(language, today, {"gen": str(LATEST_VERSION)})
    response = redirect(board.url(), 302)
    response.headers["Cache-Control"] = "no-store"  # tomorrow the same URL leads elsewhere
    return response


@bp.get("/play/<language>/<seed>")
def show_board(language: str, seed: str) -> ResponseReturnValue:
    """The board page: the board, the clock, the score, the words found; the summary once the round is over."""
    board = BoardRequest.from_url(language, seed, request.args)
    if (language, seed) != (board.language, board.seed):
        return redirect(board.url(**extra_args()), 308)  # one canonical URL per board: k7m2qx -> K7M2QX
    message = unreadable_message()
    played = start_round(board)
    page = GamePage(board)
    return page.page(page.context(played.round, message))


@bp.post("/play/<language>/<seed>/words")
def submit_word(language: str, seed: str) -> ResponseReturnValue:
    """Score a traced path or a typed word; htmx gets the path and breakdown, a plain form a redirect."""
    board = BoardRequest.from_url(language, seed, request.args)
    message = unreadable_message()
    return answer_word(GamePage(board), start_round(board), message)


@bp.post("/play/<language>/<seed>/round")
def change_round(language: str, seed: str) -> ResponseReturnValue:
    """Play the board again (a new round) or give up (end this round now and see the summary)."""
    board = BoardRequest.from_url(language, seed, request.args)
    action = request.form.get("action")
    next_page = "solution" if request.form.get("next") == "solution" else "board"
    if action == "again":
        start_round(board, again=True)
    elif action == "give-up":
        end_round(start_round(board))
    else:
        raise BadRequest(gettext("the round action is 'again' (a new round) or 'give-up' (end this round)"))
    back = same_site_path(request.form.get("back"))
    if request.form.get("next") == "projector" and back is not None:
        return redirect(back, 303)  # the projector step the teacher asked for
    challenge = parse_challenge(request.form.get("challenge"))
    if next_page == "board" and challenge is not None:
        return redirect(board.url(challenge=challenge), 303)  # the summary compares the score with it
    return redirect(board.page_url(next_page), 303)


@bp.get("/play/<language>/<seed>/words/<word>")
def show_word(language: str, seed: str, word: str) -> ResponseReturnValue:
    """One word's path on the board with its score breakdown: for words found, or any word once the round is over."""
    board = BoardRequest.from_url(language, seed, request.args)
    played = load_round(board)
    round_ = played.round if played else Round.timed(int(now()), board.seconds)  # shown, not kept
    return show_word_on(GamePage(board), round_, word, unreadable_message())
