"""No cell of any file the app makes for a teacher (a room's results and words to learn, homework's results, each as
CSV and .xlsx where there is one) starts a formula in a spreadsheet, whichever separator the spreadsheet splits a CSV
on: a nickname such as ;=cmd|'/C calc'!A0; in an English (comma) file must not become a formula in a spreadsheet
that splits on ';'."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest
from openpyxl import load_workbook

from .helpers import SECONDS, iso, join, open_room, send, start, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")

# What makes a spreadsheet run a field as a formula (OWASP's "CSV injection"): written here, not read from the app.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NICKNAMES = (";=cmd|'/C calc'!A0;", ",=1+1", "@SUM(A1)", "+Zoë", "-2+3", "a;-1", "x,@y", '"=1";=2', "Zoë")
SEPARATORS = (",", ";")


def fields(body: bytes, separator: str) -> list[str]:
    """Every field of a CSV file as a spreadsheet splitting on `separator` reads it."""
    text = body.decode("utf-8-sig")
    return [field for row in csv.reader(io.StringIO(text, newline=""), delimiter=separator) for field in row]


def starting_formulas(body: bytes) -> list[tuple[str, str]]:
    """The fields that would start a formula, with the separator that split them so."""
    return [
        (separator, field)
        for separator in SEPARATORS
        for field in fields(body, separator)
        if field.startswith(FORMULA_STARTS)
    ]


def workbook_risks(data: bytes) -> list[str]:
    """Cells a spreadsheet could run: stored formulas, or text starting like one that is not marked as text."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        stored = [
            name for name in archive.namelist() if name.startswith("xl/worksheets/") and b"<f>" in archive.read(name)
        ]
    book = load_workbook(io.BytesIO(data))
    loose = [
        f"{sheet.title}!{cell.coordinate}"
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if isinstance(cell.value, str)
        and cell.value.startswith(FORMULA_STARTS)
        and not (cell.data_type == "s" and cell.quotePrefix)
    ]
    return stored + loose


def speak(client, language: str) -> None:
    assert client.post("/language", data={"language": language, "next": "/"}).status_code == 303


@pytest.fixture
def room(app, client, clock) -> str:
    """A room whose players have every nickname, each with a word found (its words to learn: rare finds)."""
    code = open_room(client)
    phones = {name: join(app, code, name) for name in NICKNAMES}
    start(client, clock, code)
    words = words_of(app, code)
    for index, phone in enumerate(phones.values()):
        send(phone, code, words[index].word)
    clock.advance(SECONDS + 10)
    return code


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("download", ["results.csv", "words-to-learn.csv"])
def test_no_field_of_a_rooms_csv_starts_a_formula_split_on_either_separator(client, room, language, download):
    speak(client, language)
    body = client.get(f"/rooms/{room}/{download}").get_data()
    assert starting_formulas(body) == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_nickname_is_one_field_whichever_separator_splits_the_file(client, room, language):
    speak(client, language)
    body = client.get(f"/rooms/{room}/results.csv").get_data()
    written = ";" if language == "fr" else ","
    names = [row[0] for row in csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=written)][1:]
    assert sorted(name.removeprefix("'") for name in names) == sorted(NICKNAMES)


def test_no_cell_of_a_rooms_workbook_may_run_as_a_formula(client, room):
    data = client.get(f"/rooms/{room}/results.xlsx").get_data()
    assert workbook_risks(data) == []
    names = [row[0] for row in load_workbook(io.BytesIO(data)).worksheets[0].iter_rows(min_row=2, values_only=True)]
    assert sorted(names) == sorted(NICKNAMES)  # the names as the players typed them


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_cell_of_homeworks_files_starts_a_formula(app, client, clock, language):
    answer = client.post(
        "/assignments",
        data={"language": "en", "size": "4x4", "time": str(SECONDS), "count": "1", "due": iso(clock() + 7200)},
    )
    link = answer.headers["Location"]
    code, key = link.split("/")[2], link.split("key=")[1]
    for name in NICKNAMES:
        assert app.test_client().post(f"/a/{code}/pupils", data={"nickname": name}).status_code == 303
    speak(client, language)
    body = client.get(f"/a/{code}/results.csv?key={key}").get_data()
    assert starting_formulas(body) == []
    assert workbook_risks(client.get(f"/a/{code}/results.xlsx?key={key}").get_data()) == []
