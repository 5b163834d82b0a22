"""My rounds: a player's recent rounds with their results, and personal bests per language and board size."""

from __future__ import annotations

import datetime

from flask import Blueprint

from store import RoundRecord
from store.assignments import parse_homework_key
from store.rooms import parse_round_key

from .boards import BoardRequest
from .pages import cached_url, render
from .rounds import player_id, the_store

bp = Blueprint("history", __name__)
ROUNDS_SHOWN = 50


@bp.get("/me")
def my_rounds() -> tuple[str, int, dict[str, str]]:
    """The player's recent rounds (score, share found, best word, links to the board and its solution) and bests."""
    player = player_id()
    records = the_store().records.recent(player, ROUNDS_SHOWN) if player else []
    bests = the_store().records.bests(player) if player else []
    room_rounds = {record.id: key for record in records if (key := parse_round_key(record.board.board_key))}
    codes = the_store().rooms.codes({room_id for room_id, _ in room_rounds.values()})
    homework = {record.id: key for record in records if (key := parse_homework_key(record.board.board_key))}
    homework_codes = the_store().assignments.codes({assignment_id for assignment_id, _ in homework.values()})
    rounds = [
        {
            "record": record,
            **(
                _homework_links(homework[record.id], homework_codes)
                if homework.get(record.id, (None,))[0] in homework_codes
                else _links(record, room_rounds.get(record.id), codes)
            ),
            "played_on": datetime.datetime.fromtimestamp(record.started, datetime.UTC),
        }
        for record in records
    ]
    response = render("me.html", ["my_rounds"], rounds=rounds, bests=bests)
    return response[0], response[1], {"Cache-Control": "no-store"}  # it changes with every word


def _homework_links(board: tuple[int, int], codes: dict[int, str]) -> dict[str, object]:
    """A homework's round leads to its board in the homework while the homework is kept (its board's code would give
    its solution to the classmates who have not played it yet); no solution link."""
    code = codes[board[0]]
    return {
        "room": None,
        "homework": code,
        "number": board[1],
        "board_url": cached_url("assignments.play_board", code=code, number=board[1]),
        "solution_url": None,
    }


def _links(record: RoundRecord, room_round: tuple[int, int] | None, codes: dict[int, str]) -> dict[str, object]:
    """Where a line of My rounds leads: a room's round to its room (its board and all its words there) while the room
    is open; a round alone, or one of a room that has closed, to the board's own pages."""
    room_id, number = room_round or (None, None)
    code = codes.get(room_id) if room_id is not None else None
    if code is not None:
        return {
            "room": code,
            "number": number,
            "board_url": cached_url("rooms.play_room", code=code),
            "solution_url": cached_url("rooms.show_room_words", code=code, round=str(number)),
        }
    board = BoardRequest.of_played(record.board)
    return {"room": None, "number": number, "board_url": board.url(), "solution_url": board.page_url("solution")}
