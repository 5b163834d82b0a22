"""What a board URL means: language, seed, size, round length and the classroom filter, read and written."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Self
from urllib.parse import quote

from werkzeug.exceptions import BadRequest, NotFound

from ruzzle import Board, Lexicon, blocked_words, generate, get_language, normalize_seed
from ruzzle.game import DEFAULT_SECONDS, Solution
from ruzzle.generator import FIRST_VERSION, VERSIONS
from ruzzle.match import MATCH_ROUNDS, MatchRound, match_board
from store import PlayedBoard

from .numbers import parse_whole_number, read_whole_number
from .pages import cached_url
from .services import services
from .translations import gettext

MAX_SIDE = 12
DEFAULT_SIZE = (4, 4)
MIN_SECONDS = 5
MAX_SECONDS = 3600
ROUND_LENGTHS = (60, 120, 180, 300, 0)  # offered on the start page; any MIN..MAX works in a URL
BOARD_SIZES = ((4, 4), (5, 5), (6, 6), (8, 8), (10, 10), (12, 12))
MAX_CHALLENGE = 10**6
MAX_CODE_LENGTH = 3 * MAX_SIDE * MAX_SIDE + MAX_SIDE - 1  # every tile with a multiplier, rows joined by "-"
_SIZE = re.compile(r"\s*(\d{1,3})\s*(?:[xX×*]\s*(\d{1,3})\s*)?")


class BoardSource:
    """What every board page needs of its board, whether a seed or a typed board names it."""

    language: str
    safe: bool
    kind = "seeded"
    # The board's pages by what they do (board, words: send a word, word: one word's path, round: play again or give
    # up, hints, solution, projector); each kind of board names its own routes for them, and templates and views ask
    # for a page by its name (page_url), never by another kind's endpoint.
    PAGES: dict[str, str] = {}

    def path_values(self) -> dict[str, str]:
        """The values of the URL path that name this board."""
        raise NotImplementedError

    def query(self) -> dict[str, str]:
        """The query string that names this board, without the parts that are at their default."""
        return {} if self.safe else {"safe": "0"}

    def url(self, endpoint: str, _external: bool = False, **values: object) -> str:
        """The URL of one of this board's pages."""
        return cached_url(endpoint, _external, **self.path_values(), **self.query(), **values)

    def page_url(self, page: str, _external: bool = False, **values: object) -> str:
        """The URL of this board's page `solution`, `projector`, ... (see PAGES)."""
        return self.url(self.PAGES[page], _external=_external, **values)

    def solution(self) -> Solution:
        """The board's solution: asked of the process's cache once per board object (a request makes its board once
        and its page asks for the solution several times)."""
        known: Solution | None = self.__dict__.get("_solution")
        if known is None:
            known = self.__dict__["_solution"] = self.solve()  # (a frozen dataclass: its __dict__ is the one way in)
        return known

    def solve(self) -> Solution:
        """The board's solution from the process's cache (solved there once per process)."""
        raise NotImplementedError

    def board(self) -> Board:
        """The board itself."""
        return self.solution().board

    def lexicon(self) -> Lexicon:
        """The dictionary of the board's language."""
        return lexicon_for(self.language)


@lru_cache(maxsize=4096)
def short_key(name: str) -> str:
    """A board URL's long name as its short key (12 hex digits of its SHA-256): hashed once per board and process, not
    on each of its pages and words."""
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class BoardRequest(BoardSource):
    """A generated board as its URL names it; `from_url` checks every part and refuses with a message."""

    language: str
    seed: str
    rows: int = DEFAULT_SIZE[0]
    cols: int = DEFAULT_SIZE[1]
    seconds: int = DEFAULT_SECONDS
    safe: bool = True
    generator: int = FIRST_VERSION  # what a URL without `gen` has always meant; new boards name the latest
    match_round: int | None = None  # a round of Ruzzle's 3-round match: its bonus tiles only (a variant)
    PAGES = {
        "board": "play.show_board",
        "words": "play.submit_word",
        "word": "play.show_word",
        "round": "play.change_round",
        "hints": "hints.show_hints",
        "solution": "solution.show_solution",
        "projector": "projector.show_projector",
    }

    @classmethod
    def from_url(cls, language: str, seed: str, args: Mapping[str, str]) -> BoardRequest:
        """The board of `/play/<language>/<seed>?size=RxC&time=S&safe=0&gen=2`; UnknownLanguage or BadRequest."""
        code = get_language(language).code
        rows, cols = parse_size(args.get("size"))
        return cls(
            code,
            parse_seed(seed),
            rows,
            cols,
            parse_seconds(args.get("time")),
            parse_safe(args.get("safe")),
            parse_generator(args.get("gen")),
            parse_match_round(args.get("match")),
        )

    @classmethod
    def of_played(cls, played: PlayedBoard, **extra: Any) -> Self:
        """The board URL of a round the store keeps, every part of it (e.g. for its links in "My rounds"); `extra`:
        the fields of a subclass. The inverse of `played`."""
        return cls(
            played.language,
            played.seed,
            played.rows,
            played.cols,
            played.seconds,
            played.safe,
            played.generator,
            played.match_round,
            **extra,
        )

    def played(self) -> PlayedBoard:
        """This board URL as the store keeps it with a round (under `round_key`)."""
        return PlayedBoard(
            self.round_key,
            self.language,
            self.seed,
            self.rows,
            self.cols,
            self.seconds,
            self.safe,
            self.generator,
            self.match_round,
        )

    @property
    def size(self) -> str:
        """The size as URLs write it, e.g. `4x4`."""
        return f"{self.rows}x{self.cols}"

    def path_values(self) -> dict[str, str]:
        return {"language": self.language, "seed": self.seed}

    def query(self) -> dict[str, str]:
        query = {}
        if (self.rows, self.cols) != DEFAULT_SIZE:
            query["size"] = self.size
        if self.seconds != DEFAULT_SECONDS:
            query["time"] = str(self.seconds)
        if self.generator != FIRST_VERSION:
            query["gen"] = str(self.generator)
        if self.match_round is not None:
            query["match"] = str(self.match_round)
        return query | super().query()

    def url(self, endpoint: str = "play.show_board", _external: bool = False, **values: object) -> str:
        return super().url(endpoint, _external, **values)

    @cached_property
    def word_url_parts(self) -> tuple[str, str]:
        """The URL of a word's page (`show_word`) split around the word, built once per request."""
        marker = "WORD"
        url = self.page_url("word", word=marker)
        head, _, tail = url.partition(f"/words/{marker}")
        return head + "/words/", tail

    def word_url(self, word: str) -> str:
        """The URL of a word's path and breakdown on this board (a page listing many words calls this often)."""
        head, tail = self.word_url_parts
        return head + quote(word) + tail

    @cached_property
    def round_key(self) -> str:
        """A short name for this board's round in the session cookie (one round per board URL)."""
        name = f"{self.language}|{self.seed}|{self.size}|{self.seconds}|{int(self.safe)}"
        # The first version's keys stay what they were, so that rounds already stored keep their board
        if self.generator != FIRST_VERSION:
            name += f"|gen{self.generator}"
        if self.match_round is not None:
            name += f"|match{self.match_round}"  # (added only then, as the generator)
        return short_key(name)

    def solve(self) -> Solution:
        return services().solutions(
            self.language, self.seed, self.rows, self.cols, self.safe, self.generator, self.match_round
        )


@dataclass(frozen=True)
class TypedBoard(BoardSource):
    """A board typed in by hand (copied from the real app), named in its URL by its compact code."""

    language: str
    code: str
    safe: bool = True
    kind = "typed"
    PAGES = {"solution": "solution.show_typed_solution", "projector": "projector.show_typed_projector"}

    @classmethod
    def from_url(cls, language: str, code: str, args: Mapping[str, str]) -> TypedBoard:
        """The board of `/solve/<language>/<code>`; BoardFormatError pointing at the tile, or BadRequest."""
        language = get_language(language).code
        if len(code) > MAX_CODE_LENGTH:  # refused before any work on it
            raise BadRequest(gettext("a board has at most %(side)dx%(side)d tiles", side=MAX_SIDE))
        board = Board.from_code(code, language)
        check_web_size(board.rows, board.cols)
        return cls(language, board.to_code(), parse_safe(args.get("safe")))

    def path_values(self) -> dict[str, str]:
        return {"language": self.language, "code": self.code}

    def solve(self) -> Solution:
        return services().typed_solutions(self.language, self.code, self.safe)


def lexicon_for(language: str) -> Lexicon:
    """The loaded dictionary of a language; 404 if this server has none for it."""
    lexicons = services().lexicons
    if language not in lexicons:
        raise NotFound(
            gettext("there is no dictionary for %(language)s on this server yet", language=get_language(language).name)
        )
    return lexicons[language]


def solve_board(
    language: str,
    seed: str,
    rows: int,
    cols: int,
    safe: bool,
    generator: int = FIRST_VERSION,
    match_round: int | None = None,
) -> Solution:
    """Generate and solve a board (with a match round's bonus tiles); the app wraps this in a per-process cache."""
    board = generate(language, seed, rows, cols, version=generator)
    return _solve(board if match_round is None else match_board(board, match_round), safe)


def solve_typed_board(language: str, code: str, safe: bool) -> Solution:
    """Solve a typed board; the app wraps this in a per-process cache."""
    return _solve(Board.from_code(code, language), safe)


def _solve(board: Board, safe: bool) -> Solution:
    """The board's words, without the classroom filter's words when it is on."""
    blocked = blocked_words(board.language) if safe else frozenset()
    return Solution.of(board, lexicon_for(board.language), blocked)


def check_web_size(rows: int, cols: int) -> None:
    """Refuse boards beyond what the web serves (12x12), before any work is done on them."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise BadRequest(
            gettext(
                "a board has 1 to %(side)d rows and columns, not %(rows)dx%(cols)d", side=MAX_SIDE, rows=rows, cols=cols
            )
        )


def parse_class_board(form: Mapping[str, str], untimed: Callable[[int, int], str]) -> tuple[str, int, int, int]:
    """The language, size and round length of boards a class shares (a room, homework): 404 for a language this
    server has no dictionary for; 400 for an untimed round, saying why with `untimed(least, most)`."""
    language = get_language(form.get("language", "en")).code
    lexicon_for(language)
    rows, cols = parse_size(form.get("size"))
    seconds = parse_seconds(form.get("time"))
    if seconds == 0:
        raise BadRequest(untimed(MIN_SECONDS, MAX_SECONDS))
    return language, rows, cols, seconds


def parse_generator(text: str | None) -> int:
    """The generator version a board URL names (`gen=2`); FIRST_VERSION when absent, which every older URL is."""
    if text is None or text.strip() == "":
        return FIRST_VERSION
    version = read_whole_number(text, 3)
    if version not in VERSIONS:
        raise BadRequest(
            gettext("a board generator version (gen=) is one of %(versions)s", versions=", ".join(map(str, VERSIONS)))
        )
    return version


def parse_seed(text: str) -> str:
    """A seed from a URL or a form: any text up to 64 characters that can stand in a URL path."""
    seed = normalize_seed(text)
    if "/" in seed or "\\" in seed:
        raise BadRequest(gettext("a board code cannot contain a slash"))
    if seed.strip(".") == "":
        raise BadRequest(gettext("a board code cannot be only dots"))
    return seed


def parse_size(text: str | None) -> tuple[int, int]:
    """`RxC` (or `N` for NxN), each side 1 to 12; the default 4x4 when absent."""
    if text is None or text == "":
        return DEFAULT_SIZE
    match = _SIZE.fullmatch(text)
    if match is None:
        raise BadRequest(
            gettext("a board size is written rows x columns, e.g. 4x4 (up to %(side)dx%(side)d)", side=MAX_SIDE)
        )
    rows = int(match.group(1))
    cols = int(match.group(2) or rows)
    check_web_size(rows, cols)
    return rows, cols


def parse_seconds(text: str | None) -> int:
    """A round length in seconds: 0 for untimed, or 5 to 3600; DEFAULT_SECONDS when absent."""
    if text is None or text == "":
        return DEFAULT_SECONDS
    seconds = parse_whole_number(
        text, 5, lambda: gettext("a round length is a whole number of seconds, e.g. 120 (0 for no time limit)")
    )
    if seconds and not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise BadRequest(
            gettext(
                "a round lasts %(least)d to %(most)d seconds (0 for no time limit), not %(seconds)d",
                least=MIN_SECONDS,
                most=MAX_SECONDS,
                seconds=seconds,
            )
        )
    return seconds


def parse_safe(text: str | None) -> bool:
    """The classroom filter: on unless the URL says `safe=0` (or off/no/false)."""
    if text is None:
        return True
    value = text.strip().lower()
    if value in ("", "1", "on", "yes", "true"):
        return True
    if value in ("0", "off", "no", "false"):
        return False
    raise BadRequest(
        gettext("The classroom filter (safe=) is 1 (offensive words hidden, the default) or 0 (every dictionary word)")
    )


def parse_match_round(text: str | None) -> int | None:
    """The round of Ruzzle's 3-round match whose bonus tiles a board has (`match=1`, 2 or 3); None when absent.
    Round 3 is the whole board, so it is the same as no round."""
    if text is None or text == "":
        return None
    if text.strip() not in map(str, MATCH_ROUNDS):
        raise BadRequest(
            gettext(
                "a match round (match=) is one of %(rounds)s (the last one is the whole board)",
                rounds=", ".join(map(str, MATCH_ROUNDS)),
            )
        )
    return MatchRound.of(int(text)).board_round


def parse_challenge(text: str | None) -> int | None:
    """A challenger's score from a challenge link, or None when absent or not a plausible score."""
    score = read_whole_number(text, 7)
    return score if score is not None and 0 < score < MAX_CHALLENGE else None
