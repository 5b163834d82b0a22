"""A room's (and homework's) results for the teacher to keep: a CSV and an .xlsx workbook, each opening right in the
spreadsheets of every interface language (no mangled accents, one value a column, numbers as numbers, no nickname run as
a formula).
"""

from __future__ import annotations

import io
import re
from collections import defaultdict
from collections.abc import Sequence

from babel.numbers import get_decimal_symbol
from flask import Blueprint, Response, request
from flask_babel import get_locale
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from ruzzle.room import Ranking, RankLine
from store.rooms import Room

from .homework import PupilLine, results, teacher_assignment
from .meanings import Definition, define
from .rooms import find_room, ranking, require_host, rooms_store
from .rooms.results import rounds_to_learn
from .rooms.teams import TeamStanding, team_mark, team_standings
from .translations import gettext

bp = Blueprint("exports", __name__)
BOM = "\ufeff"  # without it, Excel reads a CSV in the region's old code page: Zoë becomes ZoÃ«
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet run a field as a formula
SEPARATORS = (",", ";")  # a CSV is split on one of these, whichever the file was written with
COLUMN_WIDTHS = (8, 60)  # a workbook column's least and most width, in characters
SHEET_TITLE = re.compile(r"[\\/*?:\[\]]")  # characters a sheet's title may not hold
SHEET_TITLE_LENGTH = 31
BOLD = Font(bold=True)
Words = dict[int, list[str]]  # the words each player found in a round, by player id


# --- what both downloads show ----------------------------------------------------------------------------------------


def host_results(code: str) -> tuple[Room, Ranking, list[Words]]:
    """The room (for its host only: 403 otherwise), its ranking and the words of each round it counts (the current
    match's, or every round of a room of single rounds), in order."""
    room = find_room(code)
    require_host(room)
    table = ranking(room)
    return room, table, [words_by_player(room, number) for number in table.stage.counted]


def words_by_player(room: Room, number: int) -> Words:
    """The words each player found in a round of the room, in alphabetical order."""
    words = defaultdict(list)
    for found in rooms_store().words_found(room, number):
        words[found.player_id].append(found.word)
    return {player: sorted(found) for player, found in words.items()}


def team_names(room: Room) -> dict[int, str]:
    """Each player's team's name, by player id, in a room played in teams (the seat's team now); {} otherwise."""
    if room.mode != "teams":
        return {}
    return {player.id: team_mark(player.team).name for player in rooms_store().players(room.id) if player.team}


def with_team(room: Room, teams: dict[int, str], player_id: int) -> list[str]:
    """A player's team column (a room played in teams only)."""
    return [teams.get(player_id, "")] if room.mode == "teams" else []


def team_header(room: Room) -> list[str]:
    return [gettext("team")] if room.mode == "teams" else []


def round_headers(rounds: int) -> list[str]:
    return [gettext("round %(round)s", round=number) for number in range(1, rounds + 1)]


def download(body: str | bytes, mimetype: str, filename: str) -> Response:
    """A file the browser saves under its name, kept by no cache (the results change while the room plays)."""
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )


# --- the CSV -----------------------------------------------------------------------------------------------------


@bp.get("/rooms/<code>/results.csv")
def download_results(code: str) -> Response:
    """The room's results for the host: one row per player (nickname, score, words found, rank, the words, and each
    round's score when there are several), separated as the interface language's spreadsheets expect."""
    room, table, rounds = host_results(code)
    per_round = round_headers(len(rounds)) if len(rounds) > 1 else []
    teams = team_names(room)
    header = [
        gettext("nickname"),
        *team_header(room),
        gettext("score"),
        gettext("words found"),
        gettext("rank"),
        gettext("words"),
    ]
    rows: list[list[str | int]] = [
        [
            line.nickname,
            *with_team(room, teams, line.player_id),
            line.score,
            line.words,
            line.rank,
            " ".join(sorted(word for found in rounds for word in found.get(line.player_id, ()))),
            *(line.round_scores if per_round else ()),
        ]
        for line in table.lines
    ]
    return download(csv_text([*header, *per_round], rows), "text/csv", f"ruzzle-room-{room.code}.csv")


@bp.get("/rooms/<code>/words-to-learn.csv")
def download_words_to_learn(code: str) -> Response:
    """The room's words to learn, for its host: every round's teacher's words and rare finds, each with its meaning
    (or the link to its Wiktionary page), to study after the lesson."""
    room = find_room(code)
    require_host(room)
    header = [
        gettext("round"),
        gettext("word"),
        gettext("points"),
        gettext("why"),
        gettext("players"),
        gettext("meaning"),
    ]
    rows: list[list[str | int]] = [
        [
            number,
            item.word,
            item.score,
            gettext("one of your words") if item.target else gettext("found by one player alone"),
            item.finders,
            meaning_text(define(room.language, item.word, room.safe)),
        ]
        for number, words in rounds_to_learn(room)
        for item in words
    ]
    return download(csv_text(header, rows), "text/csv", f"ruzzle-room-{room.code}-words.csv")


def meaning_text(definition: Definition) -> str:
    """A word's meaning on one line: the form it is, its first sense; the Wiktionary link where there is none."""
    meaning = definition.meaning
    if meaning is None or not meaning.senses:
        return definition.link
    sense = meaning.senses[0]
    return " — ".join(part for part in (definition.form, sense.gloss) if part)


def csv_delimiter() -> str:
    """The field separator of this request's language: spreadsheets split a CSV on the region's list separator,
    which is ';' where the comma is the decimal mark (1,5;2 in Italy) and ',' elsewhere (1.5,2 in England)."""
    return ";" if get_decimal_symbol(get_locale()) == "," else ","


def cell_text(text: str) -> str:
    """A text a spreadsheet shows as text: one starting with = + - @ or a tab or return would be run as a formula,
    so it gets the apostrophe that spreadsheets read as "text follows"."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_field(value: str | int) -> str:
    """A CSV field that no spreadsheet runs as a formula, whichever separator it splits on: the text made safe
    (`cell_text`), then quoted when it holds either separator, a quote or a line break, so that a spreadsheet
    splitting on the other separator still reads one field (;=cmd|... in an English file is not split on its ;)."""
    if not isinstance(value, str):
        return str(value)
    text = cell_text(value)
    if any(mark in text for mark in (*SEPARATORS, '"', "\r", "\n")):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_text(header: list[str], rows: Sequence[Sequence[str | int]]) -> str:
    """A CSV file's text: the byte-order mark, then the rows split on this request's language's separator."""
    delimiter = csv_delimiter()
    lines = [delimiter.join(csv_field(value) for value in row) + "\r\n" for row in (header, *rows)]
    return BOM + "".join(lines)


# --- the workbook ------------------------------------------------------------------------------------------------


@bp.get("/rooms/<code>/results.xlsx")
def download_workbook(code: str) -> Response:
    """The room's results for the host as a workbook: the totals first, then a sheet per round."""
    room, table, rounds = host_results(code)
    book = Workbook()
    fill_totals(book.active, room, table)
    if room.mode == "teams":
        fill_teams(book.create_sheet(), team_standings(room, table.stage))
    for number, words in enumerate(rounds, start=1):
        fill_round(book.create_sheet(), number, table, words)
    out = io.BytesIO()
    book.save(out)
    return download(out.getvalue(), XLSX, f"ruzzle-room-{room.code}.xlsx")


def fill_totals(sheet: Worksheet, room: Room, table: Ranking) -> None:
    """Every player in ranking order: nickname (and team), total, rank, words found, and the points of each round."""
    sheet.title = sheet_title(gettext("Totals"))
    teams = team_names(room)
    rows: list[list[str | int]] = [
        [line.nickname, *with_team(room, teams, line.player_id), line.score, line.rank, line.words, *line.round_scores]
        for line in table.lines
    ]
    header = [gettext("nickname"), *team_header(room), gettext("score"), gettext("rank"), gettext("words found")]
    fill(sheet, [*header, *round_headers(table.rounds)], rows)


def fill_teams(sheet: Worksheet, standings: list[TeamStanding]) -> None:
    """The teams in ranking order: rank, team, points (a word once per team), words, players."""
    sheet.title = sheet_title(gettext("Teams"))
    rows: list[list[str | int]] = [
        [standing.place, standing.mark.name, standing.line.score, standing.line.words, standing.line.players]
        for standing in standings
    ]
    header = [gettext("rank"), gettext("team"), gettext("score"), gettext("words found"), gettext("players")]
    fill(sheet, header, rows)


def fill_round(sheet: Worksheet, number: int, table: Ranking, words: Words) -> None:
    """One round, best first (ties in the ranking's order): nickname, points, words found, the words."""
    sheet.title = sheet_title(gettext("Round %(round)s", round=number))

    def points(line: RankLine) -> int:
        return line.round_scores[number - 1]

    rows: list[list[str | int]] = [
        [line.nickname, points(line), len(words.get(line.player_id, ())), " ".join(words.get(line.player_id, ()))]
        for line in sorted(table.lines, key=points, reverse=True)
    ]
    fill(sheet, [gettext("nickname"), gettext("score"), gettext("words found"), gettext("words")], rows)


def fill(sheet: Worksheet, header: Sequence[str], rows: Sequence[Sequence[str | int]]) -> None:
    """A sheet with a bold header row that stays in sight, its rows, and each column as wide as its values."""
    for values in (header, *rows):
        sheet.append(values)
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str):
                cell.data_type = "s"  # text as typed: openpyxl would store a nickname such as =1+1 as a formula
                if cell.value.startswith(FORMULA_STARTS):
                    cell.quotePrefix = True  # and it stays text when the teacher edits it or saves it as CSV
    for cell in sheet[1]:
        cell.font = BOLD
    sheet.freeze_panes = "A2"
    least, most = COLUMN_WIDTHS
    for column, values in enumerate(zip(header, *rows, strict=True), start=1):
        longest = max(len(str(value)) for value in values)
        sheet.column_dimensions[get_column_letter(column)].width = min(most, max(least, longest + 2))


def sheet_title(text: str) -> str:
    """A translated title as a sheet may carry it (no \\ / * ? : [ ], at most 31 characters)."""
    return SHEET_TITLE.sub(" ", text)[:SHEET_TITLE_LENGTH]


# --- homework (issue 25): the same files for an assignment, for the holder of its teacher's link -------------------


def homework_rows(lines: list[PupilLine], boards: int) -> tuple[list[str], list[list[str | int]]]:
    """One row per pupil (every pupil of the class list for homework set for a class): nickname, total, words found,
    then each board's points ("not played" when the pupil has not played it) and words."""
    header = [gettext("nickname"), gettext("score"), gettext("words found")]
    for number in range(1, boards + 1):
        header += [gettext("board %(number)s", number=number), gettext("words on board %(number)s", number=number)]
    rows = []
    for line in lines:
        row: list[str | int] = [line.nickname, line.total, line.found]
        for played, words in zip(line.rounds, line.words, strict=True):
            row += [played.score if played else gettext("not played"), " ".join(words)]
        rows.append(row)
    return header, rows


@bp.get("/a/<code>/results.csv")
def download_homework_csv(code: str) -> Response:
    """An assignment's results as a CSV (the teacher's key in `key`)."""
    assignment = teacher_assignment(code, request.args.get("key"))
    header, rows = homework_rows(results(assignment), len(assignment.seeds))
    return download(csv_text(header, rows), "text/csv", f"ruzzle-homework-{assignment.code}.csv")


@bp.get("/a/<code>/results.xlsx")
def download_homework_workbook(code: str) -> Response:
    """An assignment's results as a workbook (the teacher's key in `key`)."""
    assignment = teacher_assignment(code, request.args.get("key"))
    book = Workbook()
    book.active.title = sheet_title(gettext("Homework %(code)s", code=assignment.code))
    fill(book.active, *homework_rows(results(assignment), len(assignment.seeds)))
    out = io.BytesIO()
    book.save(out)
    return download(out.getvalue(), XLSX, f"ruzzle-homework-{assignment.code}.xlsx")
