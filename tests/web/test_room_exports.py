"""A room's results as files the host keeps: the CSV read back as each interface language's spreadsheets read it
(a byte-order mark, then fields split on ',' or ';')."""

from __future__ import annotations

import codecs
import csv
import io

import pytest
from flask_babel import force_locale, gettext

from views.i18n import INTERFACE_LANGUAGES

from .test_rooms import JSON, SECONDS, join, open_room, send, start, words_of

NAMES = ("Zoë", "Ñandú", "Øyvind", "Łukasz", "François", "=1+1")
# The list separator of each language's spreadsheets: ';' wherever the comma is the decimal mark.
DELIMITERS = {"en": ",", "it": ";", "es": ";", "fr": ";", "de": ";", "nl": ";", "pt": ";"}


@pytest.fixture(autouse=True)
def exact_ranking(app):
    """The ranking as it is at each request, to compare the files with."""
    app.config["ROOM_RANKING_SECONDS"] = 0


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
    rows = list(csv.reader(io.StringIO(body[len(codecs.BOM_UTF8):].decode("utf-8")), delimiter=DELIMITERS[language]))
    assert rows[0][:5] == in_language(app, language, "nickname", "score", "words found", "rank", "words")
    players = leaderboard(client, code)
    assert [len(row) for row in rows] == [7] * (len(NAMES) + 1)
    assert [row[:4] for row in rows[1:]] == [
        [("'" if p["nickname"].startswith("=") else "") + p["nickname"], str(p["score"]), str(p["words"]), str(rank)]
        for rank, p in enumerate(players, start=1)]
    assert {row[0].lstrip("'"): row[4].split() for row in rows[1:]} == {
        name: sorted(found[name, 1] + found[name, 2]) for name in NAMES}
    assert [row[5:] for row in rows[1:]] == [[str(points) for points in p["rounds"]] for p in players]


def test_a_host_who_chose_no_language_gets_the_rooms_as_on_its_pages(app, client):
    code = open_room(client, language="it")
    join(app, code, "Zoë")
    body = client.get(f"/rooms/{code}/results.csv", headers={"Accept-Language": "en"}).get_data().decode("utf-8-sig")
    assert body.splitlines() == [";".join(in_language(app, "it", "nickname", "score", "words found", "rank", "words")),
                                 "Zoë;0;0;1;"]


def test_a_room_nobody_joined_gives_a_csv_with_the_headers_only(client):
    code = open_room(client)
    csv_file = client.get(f"/rooms/{code}/results.csv").get_data()
    assert csv_file == codecs.BOM_UTF8 + b"nickname,score,words found,rank,words\r\n"
