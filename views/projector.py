"""The teacher's projector: a board large enough for the back of the room, a QR code to join, a timer, and the
walk-through of the board's words, one word at a time (a generated board's, a typed board's; a room's walk-through
is the same page with the room's finders)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from flask import Blueprint, request
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from werkzeug.exceptions import BadRequest

from ruzzle import Found, score_breakdown, sort_found
from ruzzle.game import DEFAULT_SECONDS
from store.rooms import Room

from .boards import BoardRequest, BoardSource, TypedBoard
from .numbers import parse_whole_number
from .pages import render, wants_fragment
from .qr import qr_svg
from .rounds import board_in_play, homework_running
from .solution import homework_page
from .translations import gettext

bp = Blueprint("projector", __name__)
WALK_ORDERS = {"score": lazy_gettext("best first"), "length": lazy_gettext("longest first")}
WalkArrangement = Callable[[Iterable[Found], str], list[Found]]  # a board's words in the walk's order ("score", ...)


@bp.get("/play/<language>/<seed>/projector")
def show_projector(language: str, seed: str) -> ResponseReturnValue:
    """The teacher's view of a generated board: the board, a QR code to join, a timer, the walk-through."""
    source = BoardRequest.from_url(language, seed, request.args)
    return board_projector(source, join_url=source.url(_external=True), seconds=source.seconds)


@bp.get("/solve/<language>/<code>/projector")
def show_typed_projector(language: str, code: str) -> ResponseReturnValue:
    """The teacher's view of a typed board (the board comes from the real app; the QR code opens its solution)."""
    source = TypedBoard.from_url(language, code, request.args)
    return board_projector(source, join_url=source.page_url("solution", _external=True), seconds=DEFAULT_SECONDS)


def board_projector(source: BoardSource, join_url: str, seconds: int) -> ResponseReturnValue:
    """A board's projector at the step the URL asks for; while the teacher's own round on these letters runs, the
    whole page says so (an htmx request for the walk's panel is sent to it)."""
    step = parse_step(request.args.get("step"))
    if step and homework_running(source):
        if wants_fragment():
            return "", 200, {"HX-Redirect": request.full_path}
        return homework_page(source)  # a homework's words wait for its deadline, on the projector too
    running = board_in_play(source) if step else None
    if running is not None and wants_fragment():
        return "", 200, {"HX-Redirect": request.full_path}  # the whole page explains it, not the walk's panel
    return projector_page(source, step, join_url=join_url, seconds=seconds, running=running)


def projector_page(
    source: BoardSource,
    step: int,
    join_url: str,
    seconds: int,
    running: BoardRequest | None = None,
    finders: Mapping[str, list[str] | None] | None = None,
    room: Room | None = None,
    arrange: WalkArrangement = sort_found,
) -> tuple[str, int]:
    """The projector page at a step of the walk-through (0: nothing revealed yet). `running`: the teacher's own
    round on these letters, still running, so the page says so (with a button that ends it) instead of
    revealing words. In a room, `finders` names who found each word, and `arrange` puts the class's words first."""
    solution = source.solution()
    order = request.args.get("order") or "score"
    if order not in WALK_ORDERS:
        raise BadRequest(
            gettext(
                "the walk-through goes %(orders)s; not %(order)s",
                orders=" / ".join(WALK_ORDERS),
                order=repr(order[:20]),
            )
        )
    walk = arrange(solution, order)
    step = min(step, len(walk))
    shown = walk[step - 1] if step else None
    settings = {
        "order": order,
        "scores": request.args.get("scores", "1") != "0",
        "theme": "dark" if request.args.get("theme") == "dark" else "light",
    }
    context = {
        "source": source,
        "board": solution.board,
        "solution": solution,
        "step": step,
        "total": len(walk),
        "shown": shown,
        "breakdown": shown and score_breakdown(solution.board, shown.path),
        "settings": settings,
        "join_url": join_url,
        "qr_svg": qr_svg(join_url),
        "seconds": seconds or DEFAULT_SECONDS,
        "walk_orders": WALK_ORDERS,
        "projector_args": _projector_args,
        "running": running,
        "finders": finders,
        "room": room,
    }
    if running is not None:
        context.update(shown=None, breakdown=None)
        return render("projector.html", ["walk", "projector_board"], 403, **context)
    return render("projector.html", ["walk", "projector_board"], **context)


def _projector_args(settings: Mapping[str, object], **changes: object) -> dict[str, str]:
    """The projector's query arguments (order, scores, theme, step) with some changed, defaults left out."""
    values = {**settings, **changes}
    args = {}
    if values["order"] != "score":
        args["order"] = str(values["order"])
    if not values["scores"]:
        args["scores"] = "0"
    if values["theme"] != "light":
        args["theme"] = str(values["theme"])
    if values.get("step"):
        args["step"] = str(values["step"])
    return args


def parse_step(text: str | None) -> int:
    if not text:
        return 0
    return parse_whole_number(
        text, 5, lambda: gettext("a walk-through step is a whole number (0: before the first word)")
    )
