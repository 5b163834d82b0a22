"""Boards typed in by hand (a teacher copying a board from the real app) or built around a teacher's words: the form
at `GET /solve`, which sends a filled board to its solution page (its URL is the board itself)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from flask import Blueprint, redirect, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from ruzzle import LANGUAGES, Board, BoardFormatError, get_language, new_seed, normalize_word
from ruzzle.board import Cell, Tile
from ruzzle.rules import MULTIPLIER_CODES, Multiplier
from ruzzle.targets import MAX_TARGETS

from .boards import MAX_SIDE, TypedBoard, parse_size
from .i18n import multiplier_name, translate_error
from .pages import render
from .targets import TargetsNotPlaced, board_around, parse_words_field
from .translations import current_language, gettext, ngettext

bp = Blueprint("typed_boards", __name__)
MULTIPLIER_CHOICES = ("", *MULTIPLIER_CODES)  # a typed tile's choices: none, then each multiplier


@bp.get("/solve")
def type_board() -> ResponseReturnValue:
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


def _board_around_words(language: str, rows: int, cols: int) -> ResponseReturnValue:
    """A new board built around the words of the form's `words` field, shown as a typed board's solution (its URL
    reproduces it); the form again, saying which words cannot be on it and why."""
    words = parse_words_field(request.args.get("words"))
    try:
        built = board_around(get_language(language).code, new_seed(), rows, cols, words, True)
    except TargetsNotPlaced as refused:
        return _board_form(language, rows, cols, {"words": request.args["words"][:200]}, {}, refused.description, 422)
    return redirect(TypedBoard(built.board.language, built.board.to_code()).page_url("solution"), 303)


_CELL_FIELD = re.compile(r"[lm](\d{1,2})_(\d{1,2})")
# What the form gets back as typed: the pasted board or the words by field name, or each cell's letter and multiplier
FormValues = dict[str, str] | dict[Cell, tuple[str, str]]


class TypedBoardErrors(ValueError):
    """What is wrong with a typed board, cell by cell, to show on the form."""

    def __init__(self, message: str, rows: int, cols: int, values: FormValues, cells: dict[Cell, str]) -> None:
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
    language: str,
    rows: int,
    cols: int,
    values: FormValues,
    problems: dict[Cell, str],
    message: str | None,
    status: int = 200,
) -> tuple[str, int]:
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
