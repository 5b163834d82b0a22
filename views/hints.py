"""Hints on a board: the Spelling Bee grid of the words a player has left, and in learning mode (an untimed round) a
reveal of one word's first letter and length, at a cost shown before it is taken and kept with the round."""

from __future__ import annotations

from flask import Blueprint, redirect, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import Forbidden

from ruzzle import common_words
from ruzzle.hints import HintGrid, Reveal, hint_grid, is_learning, next_reveal

from .boards import BoardRequest
from .pages import render, wants_fragment, wants_json
from .rounds import PlayerRound, load_round, now, start_round, the_store
from .translations import gettext

bp = Blueprint("hints", __name__)
HINT_REGIONS = ["hints"]


@bp.get("/play/<language>/<seed>/hints")
def show_hints(language: str, seed: str) -> ResponseReturnValue:
    """The hints of this player's round on a board: a panel (htmx), a page, or with `Accept: application/json` the
    grid."""
    board = BoardRequest.from_url(language, seed, request.args)
    return answer_hints(board, load_round(board))


@bp.post("/play/<language>/<seed>/hints")
def take_hint(language: str, seed: str) -> ResponseReturnValue:
    """Take the reveal hint the panel offered (learning mode only): kept with the round, its cost a penalty."""
    board = BoardRequest.from_url(language, seed, request.args)
    if not is_learning(board.seconds):
        raise Forbidden(gettext("A hint that shows a word's first letter is for learning rounds, with no time limit."))
    played = start_round(board)
    hints = Hints.of(board, played)
    # The form says how many hints the panel showed as taken: a second click, or a second tab, takes no second hint.
    # (A round that is over offers no reveal: its words are all on the summary.)
    if hints.reveal is not None and request.form.get("taken", "") == str(len(hints.taken)):
        the_store().rounds.take_hint(played.id, hints.reveal.word, hints.reveal.cost, now())
    if wants_fragment() or wants_json():
        return answer_hints(board, played)
    return redirect(board.page_url("hints"), 303)


class Hints:
    """What the hints panel shows for a player's round: the grid, the reveals taken (and whether each word was found
    since), the penalty, and the next reveal on offer."""

    def __init__(self, grid: HintGrid, taken: list[tuple[Reveal, bool]], reveal: Reveal | None, learning: bool):
        self.grid = grid
        self.taken = taken
        self.reveal = reveal
        self.learning = learning

    @property
    def penalty(self) -> int:
        return sum(reveal.cost for reveal, _ in self.taken)

    @classmethod
    def of(cls, board: BoardRequest, played: PlayerRound | None) -> Hints:
        solution = board.solution()
        found = [word.word for word in played.round.words(solution)] if played else []
        costs = the_store().rounds.hints_taken(played.id) if played else {}
        taken = [(Reveal(word, word[0], len(word), cost), word in found) for word, cost in costs.items()]
        learning = is_learning(board.seconds) and not (played and played.round.is_over(now()))
        prefer = common_words(board.language)
        reveal = next_reveal(solution, found, costs, prefer) if learning else None
        return cls(hint_grid(solution, found), taken, reveal, learning)

    def to_json(self) -> dict[str, object]:
        return {
            "grid": self.grid.to_json(),
            "learning": self.learning,
            "taken": [{**reveal.to_json(), "found": found} for reveal, found in self.taken],
            "penalty": self.penalty,
            "next_reveal": self.reveal.to_json() if self.reveal else None,
        }


def answer_hints(board: BoardRequest, played: PlayerRound | None, page: str = "hints.html") -> ResponseReturnValue:
    """The hints as JSON, as the panel (htmx) or as a page of their own (no JavaScript)."""
    hints = Hints.of(board, played)
    if wants_json():
        return hints.to_json()
    score = played.round.score if played else 0
    return render(page, HINT_REGIONS, request_board=board, hints=hints, score=score)
