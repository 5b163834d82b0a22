"""A lesson without loose ends: the teacher of homework set for a class sees every pupil of the list, played or not,
on the page, in the JSON and in both downloads; and the class page counts only the rooms that ran."""

from __future__ import annotations

import csv
import io
import re

import pytest
from openpyxl import load_workbook

from .helpers import (
    CLASS_NAMES,
    JSON,
    class_data,
    found,
    homework_words_of,
    join_with_code,
    make_class,
    rows_in_every_table,
    send_homework_word,
    set_class_homework,
    text_of,
)


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


@pytest.fixture
def one_played(app, client, clock) -> tuple[str, str, str]:
    """A class of three on the list; homework of one board set for it; only the first pupil played it. The
    homework's code, the teacher's link and key."""
    code, link = make_class(client)
    codes = {pupil["nickname"]: pupil["code"] for pupil in class_data(client, link)["pupils"]}
    homework = set_class_homework(client, code, link, clock, "WEEK0")
    zoe = join_with_code(app, homework, CLASS_NAMES[0], codes[CLASS_NAMES[0]])
    zoe.post(f"/a/{homework}/boards/1/start")
    assert found(send_homework_word(zoe, homework, 1, homework_words_of(app, homework, 1)[0].word))
    teacher = client.get(link).get_data(as_text=True)
    teacher_link = re.search(r'href="(/a/[A-Z0-9]{6}/teacher\?key=[\w-]+)"', teacher).group(1)
    return homework, teacher_link, teacher_link.split("key=")[1]


def test_the_teachers_page_lists_every_pupil_of_the_class_played_or_not(client, one_played):
    homework, link, _ = one_played
    page = text_of(client.get(link))
    assert "3 pupils" in page
    rows = re.findall(r"<tr>\s*<th scope=\"row\">([^<]+)</th>(.*?)</tr>", client.get(link).get_data(as_text=True), re.S)
    assert [name for name, _ in rows] == CLASS_NAMES  # the list's order
    assert ["not played" in cells for _, cells in rows] == [False, True, True]


def test_the_json_lists_every_pupil_with_played_or_not_on_each_board(client, one_played):
    _, link, _ = one_played
    pupils = client.get(link, headers=JSON).get_json()["pupils"]
    assert [(pupil["nickname"], [board["played"] for board in pupil["boards"]]) for pupil in pupils] == [
        (CLASS_NAMES[0], [True]),
        (CLASS_NAMES[1], [False]),
        (CLASS_NAMES[2], [False]),
    ]
    assert [pupil["id"] is None for pupil in pupils] == [False, True, True]  # (never came: no seat to delete)


def test_the_csv_lists_every_pupil_with_not_played_on_the_boards_they_did_not_play(client, one_played):
    homework, _, key = one_played
    body = client.get(f"/a/{homework}/results.csv?key={key}").get_data().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))[1:]
    assert [row[0] for row in rows] == CLASS_NAMES
    assert [row[3] == "not played" for row in rows] == [False, True, True]
    assert int(rows[0][3]) > 0


def test_the_workbook_lists_every_pupil_with_not_played_on_the_boards_they_did_not_play(client, one_played):
    homework, _, key = one_played
    book = load_workbook(io.BytesIO(client.get(f"/a/{homework}/results.xlsx?key={key}").get_data()))
    rows = list(book.active.iter_rows(min_row=2, values_only=True))
    assert [row[0] for row in rows] == CLASS_NAMES
    assert [row[3] for row in rows][1:] == ["not played", "not played"] and isinstance(rows[0][3], int)


def test_a_room_opened_for_the_class_is_a_lesson_once_its_first_round_started(app, client, clock):
    code, link = make_class(client)
    key = link.split("key=")[1]
    form = {"language": "en", "time": "60", "seed": "WEEK0", "class": code, "class_key": key}
    opened = client.post("/rooms", data=form)
    room = re.fullmatch(r"/rooms/([A-Z0-9]{6})/host", opened.headers["Location"]).group(1)
    assert class_data(client, link)["lessons"] == []
    assert "Room " + room not in text_of(client.get(link))
    assert client.post(f"/rooms/{room}/start").status_code == 303
    assert [(lesson["kind"], lesson["code"]) for lesson in class_data(client, link)["lessons"]] == [("room", room)]


def test_deleting_a_class_deletes_its_rooms_that_never_ran_too(app, client):
    before = rows_in_every_table(app)
    code, link = make_class(client)
    key = link.split("key=")[1]
    client.post("/rooms", data={"language": "en", "time": "60", "seed": "WEEK0", "class": code, "class_key": key})
    assert rows_in_every_table(app)["rooms"] == before["rooms"] + 1
    client.post(f"/classes/{code}/delete", data={"key": key})
    assert rows_in_every_table(app) == before
