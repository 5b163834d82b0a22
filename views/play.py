"""Playing: the start page, a board page with its round, submitting words, the end of a round."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from flask import Blueprint, flash, g, get_flashed_messages, redirect, request
from flask_babel import gettext, ngettext
from werkzeug.exceptions import BadRequest, NotFound, TooManyRequests

from ruzzle import LANGUAGES, InvalidPath, common_words, new_seed
from ruzzle.errors import WordRefused
from ruzzle.game import Round, parse_path, word_of_path, word_of_text
from ruzzle.generator import LATEST_VERSION
from ruzzle.room import is_room_code
from ruzzle.targets import MAX_TARGETS
from store.rooms import Room

from .addresses import same_site_path
from .boards import BOARD_SIZES, DEFAULT_SIZE, ROUND_LENGTHS, BoardRequest, parse_challenge, parse_seconds, parse_size
from .i18n import translate_error
from .pages import render, sentence, wants_fragment, word_outcome
from .rounds import PlayerRound, end_round, load_round, now, record_word, rough_now, start_round, unreadable_message

bp = Blueprint("play", __name__)
MISSED_SHOWN = 10
GAME_REGIONS = ["game"]
WORD_REGIONS = ["result", "board_frame", "score", "found", "share"]
WAIT_REASONS = ("paused", "not-started")  # a word the round cannot take yet: 409, the player waits


@bp.get("/")
def start():
    """The start page: language, size, round length, a board code (seed), and the daily boards."""
    return start_page()


def start_page(room_offer: RoomOffer | None = None):
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


def homework_form() -> dict:
    """What the start page's "Set as homework" fields need: the most boards, the UTC offsets, a deadline a week away
    at 18:00 (UTC: the teacher's browser or the teacher moves it)."""
    from .assignments import MAX_BOARDS, UTC_OFFSETS, offset_text  # (views.assignments imports this module)

    week = datetime.datetime.fromtimestamp(rough_now(), datetime.UTC).date() + datetime.timedelta(days=7)
    return {
        "max_boards": MAX_BOARDS,
        "utc_offsets": UTC_OFFSETS,
        "offset_text": offset_text,
        "default_due": f"{week.isoformat()}T18:00",
    }


@bp.get("/new")
def new_board():
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
def daily_board(language: str):
    """Today's board (UTC) in a language: the same for everyone on that day."""
    today = datetime.datetime.fromtimestamp(now(), datetime.UTC).date().isoformat()
    board = BoardRequest.from_url(language, today, {"gen": str(LATEST_VERSION)})
    response = redirect(board.url(), 302)
    response.headers["Cache-Control"] = "no-store"  # tomorrow the same URL leads elsewhere
    return response


@bp.get("/play/<language>/<seed>")
def show_board(language: str, seed: str):
    """The board page: the board, the clock, the score, the words found; the summary once the round is over."""
    board = BoardRequest.from_url(language, seed, request.args)
    if (language, seed) != (board.language, board.seed):
        return redirect(board.url(**_extra_args()), 308)  # one canonical URL per board: k7m2qx -> K7M2QX
    message = unreadable_message()
    played = start_round(board)
    return render("play.html", GAME_REGIONS, **game_context(board, played.round, message))


@bp.post("/play/<language>/<seed>/words")
def submit_word(language: str, seed: str):
    """Score a traced path or a typed word; htmx gets the path and breakdown, a plain form a redirect."""
    board = BoardRequest.from_url(language, seed, request.args)
    message = unreadable_message()
    return answer_word(board, start_round(board), message)


def answer_word(board: BoardRequest, played: PlayerRound, message: str | None, context_of=None):
    """Score the word of this request in a round and answer: the path and breakdown (htmx), or a redirect.

    `context_of(board, round, message)` builds the page's context (a room's adds the room); game_context by default.
    """
    context_of = context_of or game_context
    round_ = played.round
    solution = board.solution()
    traced = request.form.get("path", "").strip()
    highlight = refused = None
    try:
        if traced:
            path = parse_path(traced, solution.board)
            found = word_of_path(solution, path)
        else:
            found = word_of_text(solution, board.lexicon(), request.form.get("word", ""))
        round_ = record_word(board, played, found).round  # the game's rule, then the store's atomic step
        highlight = found
    except InvalidPath as error:
        return _refuse_request(board, round_, translate_error(error), context_of=context_of)
    except WordRefused as error:
        refused = error
    if not wants_fragment():
        flash(
            translate_error(refused)
            if refused
            else ngettext(
                "%(word)s: %(num)d point.", "%(word)s: %(num)d points.", highlight.score, word=highlight.word
            ),
            "refused" if refused else "found",
        )
        return redirect(board.url(**_extra_args()), 303)
    context = context_of(board, round_, message)
    context.update(
        highlight=highlight,
        breakdown_path=highlight.path if highlight else None,
        refused=refused and translate_error(refused),
        refused_reason=refused and refused.reason,
    )
    template = context.get("page_template", "play.html")
    outcome = (
        word_outcome(points=highlight.score)
        if highlight
        else word_outcome(refused=sentence(context["refused"]), reason=refused.reason)
    )
    if refused and refused.reason == "time-up":
        body, status = render(template, GAME_REGIONS, **context)
        return body, status, {"HX-Retarget": "#game", "HX-Reswap": "outerHTML", **outcome}  # show the round's end
    body, status = render(template, WORD_REGIONS, **context)
    return body, 409 if refused and refused.reason in WAIT_REASONS else status, outcome


@bp.post("/play/<language>/<seed>/round")
def change_round(language: str, seed: str):
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
def show_word(language: str, seed: str, word: str):
    """One word's path on the board with its score breakdown: for words found, or any word once the round is over."""
    board = BoardRequest.from_url(language, seed, request.args)
    played = load_round(board)
    round_ = played.round if played else Round.timed(int(now()), board.seconds)  # shown, not kept
    return show_word_on(board, round_, word, message=unreadable_message())


def show_word_on(board: BoardRequest, round_: Round, word: str, context_of=None, message: str | None = None):
    """Answer with a word's path and breakdown, if the player may see it (found, or the round is over)."""
    context_of = context_of or game_context
    solution = board.solution()
    found = solution.find(word.upper())
    if found is None:
        return _refuse_request(
            board,
            round_,
            gettext("%(word)s is not one of this board's words.", word=word.upper()[:40]),
            404,
            context_of,
        )
    if not (round_.is_over(now()) or solution.index(found.word) in round_.found):
        return _refuse_request(
            board, round_, gettext("finish the round (or give up) to see the words you have not found"), 403, context_of
        )
    context = context_of(board, round_, message)
    # an opened word shows its meaning under its breakdown (not a word just played: the round goes on)
    context.update(highlight=found, breakdown_path=found.path, meaning_word=found.word)
    return render(context.get("page_template", "play.html"), ["result", "board_frame"], **context)


def _refuse_request(board: BoardRequest, round_: Round, message: str, status: int = 422, context_of=None):
    """A request the page could not have sent (a forged path, a word it never showed): a 4xx that says why."""
    context = (context_of or game_context)(board, round_, None)
    context.update(refused=message)
    body, status = render(context.get("page_template", "play.html"), ["result"], status, **context)
    return body, status, word_outcome(refused=sentence(message), reason="invalid")


def _extra_args() -> dict[str, str]:
    """Query arguments that are not part of the board's name but go with it (a challenge)."""
    return {key: request.args[key] for key in ("challenge",) if key in request.args}


def game_context(board: BoardRequest, round_: Round, message: str | None, moment: float | None = None) -> dict:
    """Everything the board page shows for this round (now, or as of `moment`: a room's board made ahead of its
    start)."""
    solution = board.solution()
    moment = now() if moment is None else moment
    found = round_.words(solution)
    over = round_.is_over(moment)
    context = {
        "request_board": board,
        "board": solution.board,
        "solution": solution,
        "round": round_,
        "remaining": round_.remaining(moment),
        "seconds_left": round_.timeline.seconds_left(moment),
        "server_now": f"{moment:.3f}",  # the page's clock counts on the server's time, not the phone's
        "over": over,
        "found": found,
        "score": round_.score,
        "message": message,
        "flashes": get_flashed_messages(with_categories=True),
        "challenge": parse_challenge(request.args.get("challenge")),
        "share_url": board.url(_external=True),
        "highlight": None,
        "breakdown_path": None,
        "refused": None,
        "hints_offered": True,  # a room's page offers them when its host allows it (views/rooms/pupil.py)
    }
    if over:
        context["summary"] = round_summary(solution, round_)
    return context


def round_summary(solution, round_: Round) -> dict:
    """The end of a round: score, share of the words found, best and longest words, the best words missed."""
    found = round_.words(solution)
    missed = [word for i, word in enumerate(solution) if i not in round_.found]
    common = common_words(solution.board.language)
    common_total = sum(word.word in common for word in solution)
    common_found = sum(word.word in common for word in found)
    return {
        "score": round_.score,
        "found": len(found),
        "total": len(solution),
        "percent": round(100 * len(found) / len(solution)) if len(solution) else 0,
        "best": found[0] if found else None,
        "longest": min(found, key=lambda f: (-len(f.word), -f.score, f.word)) if found else None,
        "missed": missed[:MISSED_SHOWN],
        "max_score": solution.total_score,
        "common_found": common_found,
        "common_total": common_total,
        "common_percent": round(100 * common_found / common_total) if common_total else 0,
    }
