"""A room's results for the host to keep: a CSV that opens right in the spreadsheets of every interface language
(no mangled accents, one value a column, numbers as numbers, no nickname run as a formula).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict

from babel.numbers import get_decimal_symbol
from flask import Blueprint, Response
from flask_babel import get_locale, gettext

from store.rooms import Room

from .rooms import Ranking, find_room, ranking, require_host, rooms_store

bp = Blueprint("exports", __name__)
BOM = "\ufeff"  # without it, Excel reads a CSV in the region's old code page: Zoë becomes ZoÃ«
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet run a CSV field as a formula
Words = dict[int, list[str]]  # the words each player found in a round, by player id


# --- what both downloads show ----------------------------------------------------------------------------------------

def host_results(code: str) -> tuple[Room, Ranking, list[Words]]:
    """The room (for its host only: 403 otherwise), its ranking and the words of each of its rounds."""
    room = find_room(code)
    require_host(room)
    return room, ranking(room), [words_by_player(room, number) for number in range(1, len(room.rounds) + 1)]


def words_by_player(room: Room, number: int) -> Words:
    """The words each player found in a round of the room, in alphabetical order."""
    words = defaultdict(list)
    for found in rooms_store().words_found(room, number):
        words[found.player_id].append(found.word)
    return {player: sorted(found) for player, found in words.items()}


def round_headers(rounds: int) -> list[str]:
    return [gettext("round %(round)s", round=number) for number in range(1, rounds + 1)]


def download(body: str | bytes, mimetype: str, filename: str) -> Response:
    """A file the browser saves under its name, kept by no cache (the results change while the room plays)."""
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"})


# --- the CSV -----------------------------------------------------------------------------------------------------

@bp.get("/rooms/<code>/results.csv")
def download_results(code: str):
    """The room's results for the host: one row per player (nickname, score, words found, rank, the words, and each
    round's score when there are several), separated as the interface language's spreadsheets expect."""
    room, table, rounds = host_results(code)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=csv_delimiter(), lineterminator="\r\n")
    per_round = round_headers(len(rounds)) if len(rounds) > 1 else []
    writer.writerow([gettext("nickname"), gettext("score"), gettext("words found"), gettext("rank"), gettext("words"),
                     *per_round])
    for line in table.lines:
        words = sorted(word for found in rounds for word in found.get(line.player_id, ()))
        writer.writerow([csv_safe(line.nickname), line.score, line.words, line.rank, " ".join(words),
                         *(line.round_scores if per_round else ())])
    return download(BOM + out.getvalue(), "text/csv", f"ruzzle-room-{room.code}.csv")


def csv_delimiter() -> str:
    """The field separator of this request's language: spreadsheets split a CSV on the region's list separator,
    which is ';' where the comma is the decimal mark (1,5;2 in Italy) and ',' elsewhere (1.5,2 in England)."""
    return ";" if get_decimal_symbol(get_locale()) == "," else ","


def csv_safe(text: str) -> str:
    """A nickname a spreadsheet shows as text (one starting with = + - @ would be run as a formula)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
