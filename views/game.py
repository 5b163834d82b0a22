"""The board page's engine, shared by every kind of board page (a solo board, a room's, a homework's): what the page
shows of a round, a word sent and answered, a word opened. Each kind is a `GamePage` that says which board, which
template and what its page adds; the engine asks it and never calls back into a blueprint.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, NamedTuple, TypedDict

from flask import current_app, flash, get_flashed_messages, redirect, request
from flask.typing import ResponseReturnValue

from ruzzle import InvalidPath, common_words
from ruzzle.errors import WordRefused
from ruzzle.game import Round, Solution, parse_path, word_of_path, word_of_text
from ruzzle.solver import Found

from .boards import BoardRequest, parse_challenge
from .frames import render_framed
from .i18n import translate_error
from .pages import ADDRESS_PARTS, render, sentence, wants_fragment, word_outcome
from .rounds import PlayerRound, now, record_word
from .translations import current_language, gettext, ngettext

MISSED_SHOWN = 10
GAME_REGIONS = ["game"]
# The blocks of a board page that are one player's own, drawn for each request; the rest of the page is its frame,
# kept once per board, language and state (views/frames.py). What else is one player's keeps a page out of frames.
# (The clock's timer is its own part: the clock's label stays in the frame.)
FRAME_BLOCKS = ("timer", "score", "result", "found_words", "challenge", "summary", "targets")
PAGE_ADDRESS_PARTS = (*ADDRESS_PARTS, "PATH_INFO", "QUERY_STRING")  # (the page's whole address)
ONE_PLAYER_S = ("message", "flashes", "challenge", "highlight", "refused")
WORD_REFUSED_REGIONS = ["result"]  # a word refused changes nothing else (the board's letters never change in a round)
WAIT_REASONS = ("paused", "not-started")  # a word the round cannot take yet: 409, the player waits
# What a board page's template is given, by name: values of every kind, which the kinds of page add to and read back.
PageContext = dict[str, Any]


class GamePage:
    """A kind of board page, made once per request: its board, the request's one moment (every clock on the page
    is read at it, and a word is recorded at it), its template, and the context it shows for a round. The solo board
    is this class itself; a room's and a homework's page are subclasses that add to the context."""

    template = "play.html"
    # A word found (or found again) changes these regions besides the result, which brings the path to draw on the
    # board and the word's item for the list of words found (static/js/trace.js, found_list.js): the score, and on a
    # solo board the challenge to share, which names the score.
    word_regions = ["result", "score", "challenge"]

    def __init__(self, board: BoardRequest, moment: float | None = None):
        self.board = board
        self.moment = now() if moment is None else moment

    def context(self, round_: Round, message: str | None = None) -> PageContext:
        """Everything the page shows for this round at the page's moment."""
        return game_context(self.board, round_, message, self.moment)

    def page(self, context: PageContext) -> tuple[str | bytes, int]:
        """The page for this context: htmx's game region, or the whole page, drawn from its frame when it has one."""
        key = None if wants_fragment() else self.frame_key(context)
        if key is None:
            return render(self.template, GAME_REGIONS, **context)
        return render_framed(self.template, FRAME_BLOCKS, key, context), 200

    def frame_key(self, context: PageContext) -> Hashable | None:
        """What the solo board page's text outside FRAME_BLOCKS depends on besides the board (which its URL names):
        the language, the address it is asked at, the way back to a room, the round's state and what the page offers;
        None for a page with something of its own outside them (a message, a challenge, a word shown on the board).
        Kinds of page with more of their own (a room's, a homework's) draw whole (None)."""
        if type(self) is not GamePage or any(context[name] for name in ONE_PLAYER_S):
            return None
        environ = request.environ  # (the address and path as sent: werkzeug's host_url and full_path decode them)
        return (
            current_language(),
            tuple(environ.get(name) for name in PAGE_ADDRESS_PARTS),
            room_banner(),
            context["over"],
            context["hints_offered"],
        )


def answer_word(page: GamePage, played: PlayerRound, message: str | None = None) -> ResponseReturnValue:
    """Score the word of this request in a round and answer: the path and breakdown (htmx), or a redirect."""
    board = page.board
    round_ = played.round
    solution = board.solution()
    traced = request.form.get("path", "").strip()
    found: Found | None = None
    highlight: Found | None = None
    refused: WordRefused | None = None
    try:
        if traced:
            path = parse_path(traced, solution.board)
            found = word_of_path(solution, path)
        else:
            found = word_of_text(solution, board.lexicon(), request.form.get("word", ""))
        round_ = record_word(board, played, found, page.moment).round  # the game's rule, then the store's atomic step
        highlight = found
    except InvalidPath as error:
        return _refuse_request(page, round_, translate_error(error))
    except WordRefused as error:
        # (without its traceback: kept, it would hold this stack's frames in a cycle, every refused word's garbage for
        # the cyclic collector: 75 objects a word)
        refused = error.with_traceback(None)
    if not wants_fragment():
        if refused:
            flash(translate_error(refused), "refused")
        else:
            assert highlight is not None  # a word not refused was found
            flash(
                ngettext("%(word)s: %(num)d point.", "%(word)s: %(num)d points.", highlight.score, word=highlight.word),
                "found",
            )
        return redirect(board.url(**extra_args()), 303)
    context = page.context(round_, message)
    # A word found again brings its item too: if the answer that first found it was lost on the way (the phone then
    # sends it again), the list gets it now (the page's script adds an item only once).
    listed = found if highlight or (refused and refused.reason == "already-found") else None
    context.update(
        highlight=highlight,
        breakdown_path=highlight.path if highlight else None,
        refused=refused and translate_error(refused),
        refused_reason=refused and refused.reason,
        new_item=listed and found_item(solution, context["found"], listed),
    )
    if highlight:
        outcome = word_outcome(points=highlight.score)
    else:
        assert refused is not None  # a word not found was refused
        outcome = word_outcome(refused=sentence(context["refused"]), reason=refused.reason)
    if refused and refused.reason == "time-up":
        body, status = render(page.template, GAME_REGIONS, **context)
        return body, status, {"HX-Retarget": "#game", "HX-Reswap": "outerHTML", **outcome}  # show the round's end
    body, status = render(page.template, page.word_regions if listed else WORD_REFUSED_REGIONS, **context)
    return body, 409 if refused and refused.reason in WAIT_REASONS else status, outcome


def show_word_on(page: GamePage, round_: Round, word: str, message: str | None = None) -> ResponseReturnValue:
    """Answer with a word's path and breakdown, if the player may see it (found, or the round is over)."""
    solution = page.board.solution()
    found = solution.find(word.upper())
    if found is None:
        return _refuse_request(
            page, round_, gettext("%(word)s is not one of this board's words.", word=word.upper()[:40]), 404
        )
    if not (round_.is_over(page.moment) or solution.index(found.word) in round_.found):
        return _refuse_request(
            page, round_, gettext("finish the round (or give up) to see the words you have not found"), 403
        )
    context = page.context(round_, message)
    # an opened word shows its meaning under its breakdown (not a word just played: the round goes on)
    context.update(highlight=found, breakdown_path=found.path, meaning_word=found.word)
    return render(page.template, ["result"], **context)


class FoundItem(NamedTuple):
    """A word's item for the list of words found, and the word it goes before in the list's order ("" for the end)."""

    word: Found
    before: str


def found_item(solution: Solution, found: list[Found], word: Found) -> FoundItem:
    """The item of `word` and the word of `found` (in the list's order, the solution's) that follows it there; `word`
    may be missing from `found` (another request took it after this one read the round: "already found")."""
    place = solution.index(word.word)
    following = next((each.word for each in found if (solution.index(each.word) or 0) > (place or 0)), "")
    return FoundItem(word, following)


def _refuse_request(page: GamePage, round_: Round, message: str, status: int = 422) -> tuple[str, int, dict[str, str]]:
    """A request the page could not have sent (a forged path, a word it never showed): a 4xx that says why."""
    context = page.context(round_)
    context.update(refused=message)
    body, status = render(page.template, ["result"], status, **context)
    return body, status, word_outcome(refused=sentence(message), reason="invalid")


class ExtraArgs(TypedDict, total=False):
    """The query arguments extra_args passes on to a board's URL (by name: none can be taken for url()'s own)."""

    challenge: str


def room_banner() -> str | None:
    """The room a page's banner leads back to (views/rooms/pupil.py `room_to_go_back_to`, a template global: that
    module imports this one)."""
    banner: Callable[[], str | None] = current_app.jinja_env.globals["room_to_go_back_to"]  # type: ignore[assignment]
    return banner()


def extra_args() -> ExtraArgs:
    """Query arguments that are not part of the board's name but go with it (a challenge)."""
    return {"challenge": request.args["challenge"]} if "challenge" in request.args else {}


def game_context(board: BoardRequest, round_: Round, message: str | None, moment: float) -> PageContext:
    """Everything the board page shows for this round as of `moment` (the request's, or a room's start for the board
    a phone fetches during the 3-2-1)."""
    solution = board.solution()
    clock = round_.timeline.read(moment)  # the round's clock, read once for the whole page
    found = round_.words(solution)
    over = clock.over
    challenge = parse_challenge(request.args.get("challenge"))
    context: PageContext = {
        "request_board": board,
        "board": solution.board,
        "solution": solution,
        "round": round_,
        "clock": clock,
        "remaining": clock.remaining,
        "seconds_left": clock.seconds_left,
        "server_now": f"{moment:.3f}",  # the page's clock counts on the server's time, not the phone's
        "over": over,
        "found": found,
        "score": round_.score,
        "message": message,
        "flashes": get_flashed_messages(with_categories=True),
        "challenge": challenge,
        "challenge_args": {"challenge": challenge} if challenge else {},  # (what the page's links carry along)
        "highlight": None,
        "breakdown_path": None,
        "refused": None,
        "hints_offered": True,  # a room's page offers them when its host allows it (views/rooms/pupil.py)
    }
    if over:
        context["summary"] = round_summary(solution, round_)
    return context


def round_summary(solution: Solution, round_: Round) -> dict[str, object]:
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
