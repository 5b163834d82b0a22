"""Showing and teaching a board's solution: the solution explorer, the projector, boards typed in by hand."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

import segno
from flask import Blueprint, redirect, request, session
from flask_babel import gettext, lazy_gettext, ngettext
from markupsafe import Markup
from werkzeug.exceptions import BadRequest, NotFound

from ruzzle import (
    LANGUAGES,
    Board,
    BoardFormatError,
    Found,
    get_language,
    new_seed,
    normalize_word,
    score_breakdown,
    sort_found,
)
from ruzzle.board import Cell, Tile
from ruzzle.game import DEFAULT_SECONDS, Solution
from ruzzle.rules import MULTIPLIER_CODES, Multiplier
from ruzzle.targets import MAX_TARGETS

from .boards import MAX_SIDE, BoardRequest, BoardSource, TypedBoard, parse_size
from .i18n import current_language, multiplier_name, translate_error
from .numbers import parse_whole_number, read_whole_number
from .pages import render, wants_fragment
from .rounds import board_in_play, end_round, load_round, start_round
from .targets import TargetsNotPlaced, board_around, parse_words_field

bp = Blueprint("solution", __name__)
SORTS = {
    "score": lazy_gettext("score"),
    "length": lazy_gettext("length"),
    "alpha": lazy_gettext("alphabet"),
    "start": lazy_gettext("start cell"),
    "end": lazy_gettext("end cell"),
}
# Words per page of the list: a 12x12 board has up to ~7000, megabytes of rows; a page of 500 keeps the
# page under 300 KB, and nearly every 4x4 board's words still fit on one.
WORDS_PER_PAGE = 500
WALK_ORDERS = {"score": lazy_gettext("best first"), "length": lazy_gettext("longest first")}
WalkArrangement = Callable[[Iterable[Found], str], list[Found]]  # a board's words in the walk's order ("score", ...)
_CELL = re.compile(r"(\d{1,2}),(\d{1,2})")


@dataclass(frozen=True)
class WordQuery:
    """Which of the board's words the list shows, in which order, and which one is opened."""

    sort: str = "score"
    cell: Cell | None = None
    prefix: str = ""
    word: str | None = None
    page: int | None = None  # None: the first page, or the one with the opened word

    @classmethod
    def from_args(cls, args: Mapping[str, str], board: Board) -> WordQuery:
        """Read `sort`, `cell=r,c`, `prefix`, `word` and `page`; BadRequest saying what is wrong."""
        sort = args.get("sort") or "score"
        if sort not in SORTS:
            raise BadRequest(
                gettext("the words sort by %(sorts)s; not by %(sort)s", sorts=", ".join(SORTS), sort=repr(sort[:20]))
            )
        return cls(
            sort,
            _parse_cell(args.get("cell"), board),
            _parse_prefix(args.get("prefix")),
            normalize_word(args["word"]) if args.get("word") else None,
            _parse_page(args.get("page")),
        )

    def args(self, **changes) -> dict[str, str]:
        """The query arguments of this view of the list (with some changed), defaults left out."""
        query = replace(self, **changes)
        args = {}
        if query.sort != "score":
            args["sort"] = query.sort
        if query.cell is not None:
            args["cell"] = f"{query.cell[0]},{query.cell[1]}"
        if query.prefix:
            args["prefix"] = query.prefix
        if query.page:
            args["page"] = str(query.page)
        if query.word:
            args["word"] = query.word
        return args

    def words(self, solution: Solution) -> list[Found]:
        """The words through the cell and with the prefix, in the chosen order."""
        words = solution.through(self.cell) if self.cell is not None else list(solution)
        if self.prefix:
            words = [found for found in words if found.word.startswith(self.prefix)]
        return sort_found(words, self.sort)


def _parse_cell(text: str | None, board: Board) -> Cell | None:
    if not text:
        return None
    match = _CELL.fullmatch(text.strip())
    if match is None or not board.contains((int(match.group(1)), int(match.group(2)))):
        raise BadRequest(
            gettext(
                "a cell is row,column on this %(rows)dx%(cols)d board, counted from 0 (e.g. 0,2)",
                rows=board.rows,
                cols=board.cols,
            )
        )
    return int(match.group(1)), int(match.group(2))


def _parse_page(text: str | None) -> int | None:
    if not text:
        return None
    page = read_whole_number(text, 4)
    if page is None or page < 1:
        raise BadRequest(gettext("a page of the word list is a whole number, from 1"))
    return page


@dataclass(frozen=True)
class WordPage:
    """One page of the word list: its words, its number, and how many pages the list has."""

    words: list[Found]
    number: int
    count: int
    first: int  # the position of its first word in the whole list, from 1
    total: int  # words in the whole list

    @property
    def last(self) -> int:
        return self.first + len(self.words) - 1

    @property
    def next_size(self) -> int:
        """How many words the next page shows."""
        return min(WORDS_PER_PAGE, self.total - self.last)

    @classmethod
    def of(cls, words: list[Found], page: int | None, selected: Found | None) -> WordPage:
        """The page asked for; without one, the page with the opened word on it (or the first)."""
        count = max(1, -(-len(words) // WORDS_PER_PAGE))
        if page is None:
            page = words.index(selected) // WORDS_PER_PAGE + 1 if selected in words else 1
        if page > count:
            raise NotFound(
                ngettext(
                    "this list has %(words)d words, %(num)d page of %(size)d: there is no page %(page)d",
                    "this list has %(words)d words, %(num)d pages of %(size)d: there is no page %(page)d",
                    count,
                    words=len(words),
                    size=WORDS_PER_PAGE,
                    page=page,
                )
            )
        start = (page - 1) * WORDS_PER_PAGE
        return cls(words[start : start + WORDS_PER_PAGE], page, count, start + 1, len(words))


def _parse_prefix(text: str | None) -> str:
    if not text or not text.strip():
        return ""
    prefix = normalize_word(text[: MAX_SIDE * MAX_SIDE])
    if prefix is None:
        raise BadRequest(gettext("a prefix is made of letters only (A to Z)"))
    return prefix


# --- the solution explorer --------------------------------------------------------------------------------


@bp.get("/play/<language>/<seed>/solution")
def show_solution(language: str, seed: str):
    """Every word of a generated board; hidden from a player whose round on it is still running."""
    source = BoardRequest.from_url(language, seed, request.args)
    if (running := board_in_play(source)) is not None:
        return locked_page(source, running)
    played = load_round(source)
    if played is None:
        # Seeing the solution ends this board's round before it starts: no playing it afterwards for a score.
        played = end_round(start_round(source))
    found = {found.word for found in played.round.words(source.solution())}
    return solution_page(source, found)


def locked_page(source: BoardSource, running: BoardRequest):
    """The page that says the solution waits for the end of the player's round on these letters (`running`)."""
    return render("solution_locked.html", ["solution_locked"], 403, source=running, board=source.board())


@bp.get("/solve/<language>/<code>")
def show_typed_solution(language: str, code: str):
    """Every word of a board typed in by hand; its URL is the board itself."""
    source = TypedBoard.from_url(language, code, request.args)
    if code != source.code:
        return redirect(source.page_url("solution", **request.args.to_dict()), 308)
    # Typing in the letters of a board being played does not show its words either.
    if (running := board_in_play(source)) is not None:
        return locked_page(source, running)
    return solution_page(source, set())


THEMES = {"auto": lazy_gettext("like this device"), "light": lazy_gettext("light"), "dark": lazy_gettext("dark")}


def chosen_theme() -> str:
    """The solution page's theme: the one chosen on it (`?theme=`, remembered in the session), else the device's."""
    asked = request.args.get("theme")
    if asked in THEMES and session.get("theme") != asked:
        session["theme"] = asked
    theme = session.get("theme")
    return theme if theme in THEMES else "auto"


def solution_page(source: BoardSource, found_words: set[str], **more):
    """The explorer: statistics, the sortable and filterable list, the opened word's path and breakdown. `more`: more
    for the template (a room's page of all words gives its room)."""
    solution = source.solution()
    query = WordQuery.from_args(request.args, solution.board)
    selected = None
    if query.word:
        selected = solution.find(query.word)
        if selected is None:
            raise NotFound(gettext("%(word)s is not one of this board's words.", word=query.word[:40]))
    words = query.words(solution)
    page = WordPage.of(words, query.page, selected)
    list_url = _list_url(source, query.args(word=None, page=page.number if page.number > 1 else None))
    separator = "&" if "?" in list_url else "?"
    context = {
        "source": source,
        "board": solution.board,
        "solution": solution,
        "query": query,
        # a long list links every word: one URL joined per word, not one url_for per word
        "word_url": lambda word: f"{list_url}{separator}word={word}",
        "page_url": lambda number: _list_url(source, query.args(word=None, page=number if number > 1 else None)),
        "words": words,
        "page": page,
        "selected": selected,
        "found_words": found_words,
        "breakdown_path": selected.path if selected else None,
        "sorts": SORTS,
        "longest": solution.longest,
        "theme": chosen_theme(),
        "themes": THEMES,
        "theme_url": lambda name: _list_url(source, {**query.args(), "theme": name}),
        "room": None,
        **more,
    }
    # The component asked for says what comes back: opening a word swaps its breakdown and the board,
    # changing the list swaps the list and the board, "more words" adds the next page's rows.
    target = request.headers.get("HX-Target")
    if target == "solution_word":
        regions = ["solution_word", "solution_board"]
    elif target == "more_words":
        regions = ["more_words"]
    else:
        regions = ["solution_words", "solution_board", "solution_word"]
    return render("solution.html", regions, **context)


def _list_url(source: BoardSource, args: dict[str, str]) -> str:
    """The solution page's URL with these list arguments (`page` among them, a name page_url takes itself)."""
    return source.url(source.PAGES["solution"], **args)


# --- the projector ----------------------------------------------------------------------------------------


@bp.get("/play/<language>/<seed>/projector")
def show_projector(language: str, seed: str):
    """The teacher's view of a generated board: the board, a QR code to join, a timer, the walk-through."""
    source = BoardRequest.from_url(language, seed, request.args)
    step = parse_step(request.args.get("step"))
    running = board_in_play(source) if step else None
    if running is not None and wants_fragment():
        return "", 200, {"HX-Redirect": request.full_path}  # the whole page explains it, not the walk's panel
    return projector_page(source, step, join_url=source.url(_external=True), seconds=source.seconds, running=running)


@bp.get("/solve/<language>/<code>/projector")
def show_typed_projector(language: str, code: str):
    """The teacher's view of a typed board (the board comes from the real app; the QR code opens its solution)."""
    source = TypedBoard.from_url(language, code, request.args)
    step = parse_step(request.args.get("step"))
    running = board_in_play(source) if step else None
    if running is not None and wants_fragment():
        return "", 200, {"HX-Redirect": request.full_path}
    return projector_page(
        source, step, join_url=source.page_url("solution", _external=True), seconds=DEFAULT_SECONDS, running=running
    )


def projector_page(
    source: BoardSource,
    step: int,
    join_url: str,
    seconds: int,
    running: BoardRequest | None = None,
    finders: dict[str, list[str]] | None = None,
    room=None,
    arrange: WalkArrangement = sort_found,
):
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


def _projector_args(settings: dict, **changes) -> dict[str, str]:
    """The projector's query arguments (order, scores, theme, step) with some changed, defaults left out."""
    values = {**settings, **changes}
    args = {}
    if values["order"] != "score":
        args["order"] = values["order"]
    if not values["scores"]:
        args["scores"] = "0"
    if values["theme"] != "light":
        args["theme"] = values["theme"]
    if values.get("step"):
        args["step"] = str(values["step"])
    return args


def parse_step(text: str | None) -> int:
    if not text:
        return 0
    return parse_whole_number(
        text, 5, lambda: gettext("a walk-through step is a whole number (0: before the first word)")
    )


def qr_svg(url: str) -> Markup | None:
    """A QR code of the URL as inline SVG, drawn on the server (segno), scaled by CSS; None when the URL
    is too long for any QR code."""
    return _qr_svg(url, gettext("QR code: %(url)s", url=url))


@functools.lru_cache(maxsize=256)
def _qr_svg(url: str, title: str) -> Markup | None:
    """(Drawn once per link and language: a room's lobby redraws the host's stage at each join, with the same QR.)"""
    try:
        code = segno.make(url, error="m")
    except segno.DataOverflowError:
        return None
    return Markup(
        code.svg_inline(
            omitsize=True, border=4, dark="#000", light="#fff", title=title, svgclass="qr", lineclass="qr-modules"
        )
    )


# --- boards typed in by hand ------------------------------------------------------------------------------

MULTIPLIER_CHOICES = ("", *MULTIPLIER_CODES)  # a typed tile's choices: none, then each multiplier


@bp.get("/solve")
def type_board():
    """The form to type (or paste) a board from the real app; a filled form goes to the board's solution."""
    language = request.args.get("language") or current_language()  # a board in the player's own language, first
    get_language(language)
    rows, cols = parse_size(request.args.get("size"))
    if request.args.get("words", "").strip():
        return _board_around_words(language, rows, cols)
    if not any(key == "text" or _CELL_FIELD.fullmatch(key) for key in request.args):
        return _board_form(language, rows, cols, {}, {}, None)
    try:
        board = _board_from_form(request.args, language, rows, cols)
    except TypedBoardErrors as errors:
        return _board_form(language, errors.rows, errors.cols, errors.values, errors.cells, errors.message, 400)
    source = TypedBoard(board.language, board.to_code())
    return redirect(source.page_url("solution"), 303)


def _board_around_words(language: str, rows: int, cols: int):
    """A new board built around the words of the form's `words` field, shown as a typed board's solution (its URL
    reproduces it); the form again, saying which words cannot be on it and why."""
    words = parse_words_field(request.args.get("words"))
    try:
        built = board_around(get_language(language).code, new_seed(), rows, cols, words, True)
    except TargetsNotPlaced as refused:
        return _board_form(language, rows, cols, {"words": request.args["words"][:200]}, {}, refused.description, 422)
    return redirect(TypedBoard(built.board.language, built.board.to_code()).page_url("solution"), 303)


_CELL_FIELD = re.compile(r"[lm](\d{1,2})_(\d{1,2})")


class TypedBoardErrors(ValueError):
    """What is wrong with a typed board, cell by cell, to show on the form."""

    def __init__(self, message: str, rows: int, cols: int, values: dict, cells: dict[Cell, str]):
        super().__init__(message)
        self.message, self.rows, self.cols, self.values, self.cells = message, rows, cols, values, cells


def _board_from_form(args: Mapping[str, str], language: str, rows: int, cols: int) -> Board:
    """The board the form describes: pasted text if any, else the grid of letters and multipliers."""
    text = args.get("text", "").strip()
    if text:
        try:
            board = Board.parse(text[:4000], language)
        except BoardFormatError as error:
            raise TypedBoardErrors(
                gettext("In the pasted board, %(problem)s", problem=translate_error(error)),
                rows,
                cols,
                {"text": text[:4000]},
                {},
            ) from None
        if board.rows > MAX_SIDE or board.cols > MAX_SIDE:
            raise TypedBoardErrors(
                gettext(
                    "A board has at most %(side)dx%(side)d tiles, not %(rows)dx%(cols)d",
                    side=MAX_SIDE,
                    rows=board.rows,
                    cols=board.cols,
                ),
                rows,
                cols,
                {"text": text[:4000]},
                {},
            )
        return board
    values, problems, tiles = {}, {}, []
    for r in range(rows):
        for c in range(cols):
            letter = args.get(f"l{r}_{c}", "").strip()[:8]
            multiplier = args.get(f"m{r}_{c}", "").strip().lower()[:8]
            values[(r, c)] = (letter, multiplier)
            tile = _typed_tile(letter, multiplier)
            if isinstance(tile, str):
                problems[(r, c)] = tile
            else:
                tiles.append(tile)
    if problems:
        count = len(problems)
        raise TypedBoardErrors(
            ngettext("%(num)d tile needs a fix (marked)", "%(num)d tiles need a fix (marked)", count),
            rows,
            cols,
            values,
            problems,
        )
    return Board(rows, cols, tuple(tiles), language)


def _typed_tile(letter: str, multiplier: str) -> Tile | str:
    """A tile from a grid cell, or what is wrong with it."""
    if multiplier not in MULTIPLIER_CHOICES:
        return gettext("the multiplier is %(names)s or none", names=", ".join(multiplier_name(m) for m in Multiplier))
    if not letter:
        return gettext("type a letter")
    word = normalize_word(letter)
    if word is None or len(word) != 1:
        return gettext("one letter A to Z (no Qu tile: Q is a letter of its own)")
    return Tile(word, Multiplier.from_code(multiplier) if multiplier else None)


def _board_form(
    language: str, rows: int, cols: int, values: dict, problems: dict, message: str | None, status: int = 200
):
    """The typing form, with what was typed and what is wrong with it."""
    return render(
        "solve.html",
        ["solve_form"],
        status,
        language=language,
        rows=rows,
        cols=cols,
        values=values,
        problems=problems,
        message=message,
        languages=LANGUAGES,
        multipliers=MULTIPLIER_CHOICES,
        max_side=MAX_SIDE,
        multiplier_of=Multiplier.from_code,
        multiplier_names=[multiplier_name(multiplier) for multiplier in Multiplier],
        code_example=Markup("<code>Ttl R S Ndl</code>"),
        max_targets=MAX_TARGETS,
    )
