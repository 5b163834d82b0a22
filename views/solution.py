"""Showing and teaching a board's solution: the solution explorer, the projector, boards typed in by hand."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask import Blueprint, redirect, request, session
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from werkzeug.exceptions import BadRequest, NotFound

from ruzzle import (
    Board,
    Found,
    normalize_word,
    sort_found,
)
from ruzzle.board import Cell
from ruzzle.game import Solution

from .boards import MAX_SIDE, BoardRequest, BoardSource, TypedBoard
from .numbers import read_whole_number
from .pages import render
from .rounds import board_in_play, end_round, homework_running, load_round, start_round
from .translations import gettext, ngettext

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

    def args(self, **changes: Any) -> dict[str, str]:  # WordQuery fields: replace() checks them
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
def show_solution(language: str, seed: str) -> tuple[str, int]:
    """Every word of a generated board; hidden from a player whose round on it is still running."""
    source = BoardRequest.from_url(language, seed, request.args)
    if (running := board_in_play(source)) is not None:
        return locked_page(source, running)
    if homework_running(source):
        return homework_page(source)
    played = load_round(source)
    if played is None:
        # Seeing the solution ends this board's round before it starts: no playing it afterwards for a score.
        played = end_round(start_round(source))
    found = {found.word for found in played.round.words(source.solution())}
    return solution_page(source, found)


def locked_page(source: BoardSource, running: BoardRequest) -> tuple[str, int]:
    """The page that says the solution waits for the end of the player's round on these letters (`running`)."""
    return render("solution_locked.html", ["solution_locked"], 403, source=running, board=source.board())


def homework_page(source: BoardSource) -> tuple[str, int]:
    """The page that says these letters are a homework's board, whose words wait for its deadline."""
    return render("solution_locked.html", ["solution_locked"], 403, source=source, board=source.board(), homework=True)


@bp.get("/solve/<language>/<code>")
def show_typed_solution(language: str, code: str) -> ResponseReturnValue:
    """Every word of a board typed in by hand; its URL is the board itself."""
    source = TypedBoard.from_url(language, code, request.args)
    if code != source.code:
        # (a query argument named `_external` would make the URL external, as before: mypy points at that)
        return redirect(source.page_url("solution", **request.args.to_dict()), 308)  # type: ignore[arg-type]
    # Typing in the letters of a board being played does not show its words either.
    if (running := board_in_play(source)) is not None:
        return locked_page(source, running)
    if homework_running(source):
        return homework_page(source)
    return solution_page(source, set())


THEMES = {"auto": lazy_gettext("like this device"), "light": lazy_gettext("light"), "dark": lazy_gettext("dark")}


def chosen_theme() -> str:
    """The solution page's theme: the one chosen on it (`?theme=`, remembered in the session), else the device's."""
    asked = request.args.get("theme")
    if asked in THEMES and session.get("theme") != asked:
        session["theme"] = asked
    theme = session.get("theme")
    return theme if theme in THEMES else "auto"


def solution_page(source: BoardSource, found_words: set[str], **more: object) -> tuple[str, int]:
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
    return source.url(source.PAGES["solution"], **args)  # type: ignore[arg-type]  # no list argument is `_external`
