"""A room's results as files the host keeps: the CSV read back as each interface language's spreadsheets read it
(a byte-order mark, then fields split on ',' or ';'), the .xlsx workbook read back with openpyxl (the totals, a sheet
per round, names intact, nothing run as a formula), and both refused to anyone but the host."""

from __future__ import annotations

import codecs
import csv
import io
import zipfile

import pytest
from flask_babel import force_locale, gettext
from openpyxl import load_workbook

from views.translations import INTERFACE_LANGUAGES

from .helpers import JSON, SECONDS, join, open_room, send, start, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")  # the ranking as it is at each request

NAMES = ("Zoë", "Ñandú", "Øyvind", "Łukasz", "François", "=1+1")
# The list separator of each language's spreadsheets: ';' wherever the comma is the decimal mark.
DELIMITERS = {"en": ",", "it": ";", "es": ";", "fr": ";", "de": ";", "nl": ";", "pt": ";"}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def played(app, client, clock) -> tuple[str, dict[tuple[str, int], list[str]]]:
    """A room whose players (accented names, and one a spreadsheet would run) played two rounds; its code and the
    words each player found in each round. The i-th player finds i + 1 words in round 1 ("=1+1" none) and one in
    round 2."""
    code = open_room(client)
    phones = {name: join(app, code, name) for name in NAMES}
    found: dict[tuple[str, int], list[str]] = {}
    for number, picks in ((1, lambda i: range(i + 1) if i < 5 else ()), (2, lambda i: (2 * i,))):
        if number > 1:
            assert client.post(f"/rooms/{code}/rounds").status_code == 303
        start(client, clock, code)
        words = words_of(app, code)
        for i, name in enumerate(NAMES):
            found[name, number] = sorted(words[k].word for k in picks(i))
            for k in picks(i):
                assert "result-found" in send(phones[name], code, words[k].word).get_data(as_text=True)
        clock.advance(SECONDS + 10)
    return code, found


def leaderboard(client, code: str) -> list[dict]:
    return client.get(f"/rooms/{code}/leaderboard", headers=JSON).get_json()["players"]


def speak(client, language: str) -> None:
    """The host chooses the interface language, as with the page's language switcher."""
    assert client.post("/language", data={"language": language, "next": "/"}).status_code == 303


def in_language(app, language: str, *messages: str) -> list[str]:
    with app.test_request_context(), force_locale(language):
        return [gettext(message) for message in messages]


# --- the CSV -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", INTERFACE_LANGUAGES)
def test_the_csv_reads_back_in_the_spreadsheets_of_each_language(app, client, played, language):
    code, found = played
    speak(client, language)
    answer = client.get(f"/rooms/{code}/results.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"] == f'attachment; filename="ruzzle-room-{code}.csv"'
    assert answer.headers["Cache-Control"] == "no-store"
    body = answer.get_data()
    assert body.startswith(codecs.BOM_UTF8)
    rows = list(csv.reader(io.StringIO(body[len(codecs.BOM_UTF8) :].decode("utf-8")), delimiter=DELIMITERS[language]))
    assert rows[0][:5] == in_language(app, language, "nickname", "score", "words found", "rank", "words")
    players = leaderboard(client, code)
    assert [len(row) for row in rows] == [7] * (len(NAMES) + 1)
    assert [row[:4] for row in rows[1:]] == [
        [("'" if p["nickname"].startswith("=") else "") + p["nickname"], str(p["score"]), str(p["words"]), str(rank)]
        for rank, p in enumerate(players, start=1)
    ]
    assert {row[0].lstrip("'"): row[4].split() for row in rows[1:]} == {
        name: sorted(found[name, 1] + found[name, 2]) for name in NAMES
    }
    assert [row[5:] for row in rows[1:]] == [[str(points) for points in p["rounds"]] for p in players]


def test_a_host_who_chose_no_language_gets_the_rooms_as_on_its_pages(app, client):
    code = open_room(client, language="it")
    join(app, code, "Zoë")
    body = client.get(f"/rooms/{code}/results.csv", headers={"Accept-Language": "en"}).get_data().decode("utf-8-sig")
    assert body.splitlines() == [
        ";".join(in_language(app, "it", "nickname", "score", "words found", "rank", "words")),
        "Zoë;0;0;1;",
    ]


# --- the workbook ------------------------------------------------------------------------------------------------


def sheet_rows(sheet) -> list[list]:
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def test_the_workbook_has_the_totals_and_a_sheet_per_round(client, played):
    code, found = played
    answer = client.get(f"/rooms/{code}/results.xlsx")
    assert answer.status_code == 200 and answer.mimetype == XLSX
    assert answer.headers["Content-Disposition"] == f'attachment; filename="ruzzle-room-{code}.xlsx"'
    assert answer.headers["Cache-Control"] == "no-store"
    book = load_workbook(io.BytesIO(answer.get_data()))
    assert book.sheetnames == ["Totals", "Round 1", "Round 2"]
    totals = sheet_rows(book["Totals"])
    assert totals[0] == ["nickname", "score", "rank", "words found", "round 1", "round 2"]
    players = leaderboard(client, code)
    assert totals[1:] == [
        [p["nickname"], p["score"], rank, p["words"], *p["rounds"]] for rank, p in enumerate(players, start=1)
    ]
    by_round = {}
    for number in (1, 2):
        rows = sheet_rows(book[f"Round {number}"])
        assert rows[0] == ["nickname", "score", "words found", "words"]
        assert [row[1] for row in rows[1:]] == sorted((row[1] for row in rows[1:]), reverse=True)  # best first
        assert {row[0]: (row[2], (row[3] or "").split()) for row in rows[1:]} == {
            name: (len(found[name, number]), found[name, number]) for name in NAMES
        }
        by_round[number] = {row[0]: row[1] for row in rows[1:]}
    assert {row[0]: row[1] for row in totals[1:]} == {name: by_round[1][name] + by_round[2][name] for name in NAMES}


def test_a_nickname_that_looks_like_a_formula_stays_text_in_the_workbook(client, played):
    code, _ = played
    data = client.get(f"/rooms/{code}/results.xlsx").get_data()
    book = load_workbook(io.BytesIO(data))
    for sheet in book.worksheets:
        cell = next(cell for (cell, *_) in sheet.iter_rows(min_row=2) if cell.value == "=1+1")
        assert cell.data_type == "s"
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        sheets = [name for name in archive.namelist() if name.startswith("xl/worksheets/")]
        assert len(sheets) == 3 and not any(b"<f>" in archive.read(name) for name in sheets)


def test_the_workbook_has_a_bold_header_and_columns_as_wide_as_their_values(client, played):
    code, _ = played
    book = load_workbook(io.BytesIO(client.get(f"/rooms/{code}/results.xlsx").get_data()))
    for sheet in book.worksheets:
        assert all(cell.font.bold for cell in sheet[1]) and not any(cell.font.bold for cell in sheet[2])
        assert sheet.freeze_panes == "A2"
        for column in sheet.iter_cols():
            longest = max(len(str(cell.value or "")) for cell in column)
            assert min(longest, 60) <= sheet.column_dimensions[column[0].column_letter].width <= 60


def test_the_workbook_speaks_the_interface_language(app, client):
    code = open_room(client)
    join(app, code, "Zoë")
    speak(client, "it")
    book = load_workbook(io.BytesIO(client.get(f"/rooms/{code}/results.xlsx").get_data()))
    assert sheet_rows(book.worksheets[0]) == [
        [*in_language(app, "it", "nickname", "score", "rank", "words found"), "round 1"],
        ["Zoë", 0, 1, 0, 0],
    ]


def test_a_room_nobody_joined_gives_files_with_the_headers_only(client):
    code = open_room(client)
    csv_file = client.get(f"/rooms/{code}/results.csv").get_data()
    assert csv_file == codecs.BOM_UTF8 + b"nickname,score,words found,rank,words\r\n"
    book = load_workbook(io.BytesIO(client.get(f"/rooms/{code}/results.xlsx").get_data()))
    assert [sheet_rows(sheet) for sheet in book.worksheets] == [
        [["nickname", "score", "rank", "words found", "round 1"]],
        [["nickname", "score", "words found", "words"]],
    ]


# --- only the host ---------------------------------------------------------------------------------------------


def test_only_the_host_downloads_and_others_get_the_csvs_refusal(app, client):
    code = open_room(client)
    phone = join(app, code, "Zoë")
    for stranger in (phone, app.test_client()):
        refusals = [stranger.get(f"/rooms/{code}/results.{kind}") for kind in ("csv", "xlsx")]
        assert [answer.status_code for answer in refusals] == [403, 403]
        # the same page, word for word, but for its own address (the language switcher comes back to it)
        assert refusals[0].get_data() == refusals[1].get_data().replace(b"results.xlsx", b"results.csv")
        assert "Only the host of room" in refusals[1].get_data(as_text=True)


def test_the_host_sees_both_downloads_after_the_round(client, played):
    code, _ = played
    page = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert f'href="/rooms/{code}/results.xlsx" download>Results (Excel, .xlsx)</a>' in page
    assert f'href="/rooms/{code}/results.csv" download>Results (CSV)</a>' in page
