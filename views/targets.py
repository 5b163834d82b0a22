"""The teacher's own words on the web: the `words` field of the room form and of `/solve`, the board built around
them (ruzzle.targets), and the reasons in the page's language when some cannot be on it."""

from __future__ import annotations

import functools
from collections.abc import Callable

from werkzeug.exceptions import BadRequest

from ruzzle import blocked_words
from ruzzle.match import match_board
from ruzzle.targets import (
    Refusal,
    TargetBoard,
    TargetsRefused,
    TooManyTargets,
    build_target_board,
    parse_targets,
)

from .boards import lexicon_for
from .caching import SingleFlight
from .i18n import translate_error
from .services import services
from .translations import gettext

SEEDS_TRIED = 3  # fresh seeds tried for a room's next round before it plays its first round's board again
TARGET_BOARDS_CACHED = 256  # boards built around words that a process keeps (a room's every request asks for one)


class TargetsNotPlaced(BadRequest):
    """Some target words cannot be on the board: the sentence names each and says why."""


def parse_words_field(text: str | None) -> tuple[str, ...]:
    """The target words a form's `words` field holds (none when empty); 400 for more than a board takes."""
    try:
        return parse_targets(text or "")
    except TooManyTargets as error:
        raise BadRequest(translate_error(error)) from None


def board_around(language: str, seed: str, rows: int, cols: int, words: tuple[str, ...], safe: bool) -> TargetBoard:
    """The board of a seed built around the words (cached per process); TargetsNotPlaced saying which cannot be."""
    try:
        return services().target_boards(language, seed, rows, cols, words, safe)
    except TargetsRefused as error:
        raise TargetsNotPlaced(refusal_sentences(error.refusals)) from None


def new_target_boards() -> SingleFlight[TargetBoard]:
    """The process's boards built around words (Services.target_boards): the last TARGET_BOARDS_CACHED kept, and a
    board many ask for at once (a room's phones on a worker that has not built it yet) built once, as solutions are
    (a refusal is not kept: it is raised again to each asker)."""
    return SingleFlight(functools.lru_cache(maxsize=TARGET_BOARDS_CACHED)(build_around))


def build_around(language: str, seed: str, rows: int, cols: int, words: tuple[str, ...], safe: bool) -> TargetBoard:
    """The seed's board with the words on it (classroom-safe: no blocked word among them); TargetsRefused."""
    blocked = blocked_words(language) if safe else frozenset()
    return build_target_board(language, seed, rows, cols, words, lexicon_for(language), blocked)


def target_board_code(
    language: str, seed: str, rows: int, cols: int, words: tuple[str, ...], safe: bool, match_round: int | None
) -> str:
    """The compact code of a room round's board built around its words (with a match round's bonus tiles)."""
    board = board_around(language, seed, rows, cols, words, safe).board
    return (board if match_round is None else match_board(board, match_round)).to_code()


def refusal_sentences(refusals: tuple[Refusal, ...]) -> str:
    """Why each word cannot be on the board, one sentence each, in the page's language."""
    return " ".join(gettext(refusal.message, word=refusal.word, num=refusal.num) for refusal in refusals)


def next_seed(
    language: str, rows: int, cols: int, words: tuple[str, ...], safe: bool, known: str, draw: Callable[[], str]
) -> str:
    """A fresh seed (from `draw`) for a room's next round whose board holds the room's words (a few tried), else
    `known`, a seed whose board was built around them already: a round never opens on a board that cannot be built."""
    if not words:
        return draw()
    for _ in range(SEEDS_TRIED):
        seed = draw()
        try:
            board_around(language, seed, rows, cols, words, safe)
        except TargetsNotPlaced:
            continue
        return seed
    return known
