"""My rounds: a player's recent rounds with their results, and personal bests per language and board size."""

from __future__ import annotations

import datetime

from flask import Blueprint

from .boards import BoardRequest
from .pages import render
from .rounds import player_id, the_store

bp = Blueprint("history", __name__)
ROUNDS_SHOWN = 50


@bp.get("/me")
def my_rounds():
    """The player's recent rounds (score, share found, best word, links to the board and its solution) and bests."""
    player = player_id()
    records = the_store().recent_rounds(player, ROUNDS_SHOWN) if player else []
    bests = the_store().personal_bests(player) if player else []
    rounds = [{"record": record,
               "board": BoardRequest(record.language, record.seed, record.rows, record.cols, record.seconds,
                                     record.safe, record.generator),
               "played_on": datetime.datetime.fromtimestamp(record.started, datetime.timezone.utc)}
              for record in records]
    response = render("me.html", ["my_rounds"], rounds=rounds, bests=bests)
    return response[0], response[1], {"Cache-Control": "no-store"}  # it changes with every word
