"""Homework (issue 25) through the Flask client, on SQLite and on PostgreSQL, with a clock the test moves: setting it,
pupils joining and playing each board once before, during and after the deadline, a round running at the deadline
finishing, the teacher's results (page, JSON, CSV, .xlsx) equal to the words the store accepted, deleting a pupil
and the homework (every table counted), the clean-up, and every refusal a person can meet."""

from __future__ import annotations

import csv
import io
import re

import openpyxl
import pytest
from sqlalchemy import func, select

from store.assignments import MAX_BOARDS
from store.cleanup import DAY, Cleanup, Retention
from store.schema import metadata
from views.deadlines import MAX_DUE_DAYS

from .conftest import START
from .helpers import JSON, SECONDS, found, homework_words_of, iso, rows_in_every_table, send_homework_word, text_of

HOUR = 3600


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


def set_homework(client, due: float = START + 2 * HOUR, **form) -> tuple[str, str]:
    """The teacher sets homework (this client); its code and the teacher's private link (a path)."""
    values = {"language": "en", "size": "4x4", "time": str(SECONDS), "count": "2", "due": iso(due), **form}
    answer = client.post("/assignments", data=values)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    link = answer.headers["Location"]
    code = re.fullmatch(r"/a/([A-Z0-9]{6})/teacher\?key=[\w-]{20,}", link).group(1)
    return code, link


def join(app, code: str, nickname: str, rejoin: str | None = None):
    """A pupil's browser takes a nickname (or its seat back with the rejoin code); its client."""
    pupil = app.test_client()
    answer = pupil.post(f"/a/{code}/pupils", data={"nickname": nickname, **({"code": rejoin} if rejoin else {})})
    assert (answer.status_code, answer.headers.get("Location")) == (303, f"/a/{code}"), answer.get_data(as_text=True)
    return pupil


# --- setting homework ------------------------------------------------------------------------------------------


def test_the_start_page_offers_homework_with_its_deadline_fields(client):
    page = client.get("/").get_data(as_text=True)
    assert 'formaction="/assignments" formmethod="post">Set as homework</button>' in page
    assert 'name="due_local" type="datetime-local"' in page and 'name="due_offset"' in page
    assert '<option value="+05:30">UTC+05:30</option>' in page and '<option value="+00:00" selected>' in page


def test_setting_homework_leads_to_the_teachers_private_page(app, client):
    code, link = set_homework(client)
    page = client.get(link)
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f'data-teacher-url="http://localhost{link}"' in html
    assert f'href="http://localhost/a/{code}"' in html and "<svg" in html
    assert "Pupils play by" in text_of(page) and "+01:00" in html


def test_the_start_pages_local_deadline_and_offset_are_the_teachers(client):
    answer = client.post(
        "/assignments",
        data={"language": "en", "time": "120", "count": "1", "due_local": "2026-09-22T18:00", "due_offset": "+02:00"},
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    results = client.get(answer.headers["Location"], headers=JSON).get_json()
    assert (results["due"], results["seconds"], len(results["boards"])) == ("2026-09-22T18:00:00+02:00", 120, 1)


@pytest.mark.parametrize("count", ["3", " 3 ", "003"])
def test_a_count_of_boards_makes_that_many_boards(client, count):
    _, link = set_homework(client, count=count)
    assert len(client.get(link, headers=JSON).get_json()["boards"]) == 3


def test_typed_board_codes_are_the_homeworks_boards(client):
    _, link = set_homework(client, seeds="tiger, LION  owl")
    assert [board["seed"] for board in client.get(link, headers=JSON).get_json()["boards"]] == ["TIGER", "LION", "OWL"]


@pytest.mark.parametrize(
    ("form", "status", "sentence"),
    [
        ({"due": "next friday"}, 400, "The deadline is a date and time with its time zone's offset"),
        ({"due": "2026-09-22T18:00"}, 400, "The deadline needs its time zone's offset from UTC"),
        ({"due": iso(START - 60)}, 422, "has passed already: choose a later one"),
        ({"due": iso(START + (MAX_DUE_DAYS + 1) * DAY)}, 422, f"A deadline is at most {MAX_DUE_DAYS} days away"),
        ({"count": str(MAX_BOARDS + 1)}, 400, f"Homework has 1 to {MAX_BOARDS} boards."),
        ({"count": "0"}, 400, f"Homework has 1 to {MAX_BOARDS} boards."),
        # the number is read once and that number checked: leading zeros hide no extra digits from the limit
        ({"count": f"00{MAX_BOARDS + 1}"}, 400, f"Homework has 1 to {MAX_BOARDS} boards."),
        ({"count": "0099"}, 400, f"Homework has 1 to {MAX_BOARDS} boards."),
        ({"count": "²"}, 400, f"Homework has 1 to {MAX_BOARDS} boards."),
        ({"seeds": " ".join(f"B{n}" for n in range(MAX_BOARDS + 1))}, 400, f"Homework has 1 to {MAX_BOARDS} boards."),
        ({"time": "0"}, 400, "Homework's rounds need a time limit"),
        ({"size": "13x13"}, 400, "A board has 1 to 12 rows and columns"),
    ],
)
def test_bad_homework_settings_get_a_sentence(client, form, status, sentence):
    values = {"language": "en", "time": str(SECONDS), "count": "1", "due": iso(START + HOUR), **form}
    answer = client.post("/assignments", data=values)
    assert answer.status_code == status
    assert sentence in text_of(answer)


# --- the pupils ------------------------------------------------------------------------------------------------


def test_before_during_and_after_the_deadline(app, client, clock):
    code, link = set_homework(client, due=START + HOUR)
    pupil = join(app, code, "Zoë")
    page = text_of(pupil.get(f"/a/{code}"))
    assert "Play by" in page and page.count("not started") == 2
    # before: a board's page offers Start; nothing is played before it
    start_page = pupil.get(f"/a/{code}/boards/1")
    assert start_page.status_code == 200 and "You play this board once" in text_of(start_page)
    assert send_homework_word(pupil, code, 1, homework_words_of(app, code, 1)[0].word).status_code == 409
    # during: Start, then words count
    assert pupil.post(f"/a/{code}/boards/1/start").headers["Location"] == f"/a/{code}/boards/1"
    assert found(send_homework_word(pupil, code, 1, homework_words_of(app, code, 1)[0].word))
    assert "your round is running" in text_of(pupil.get(f"/a/{code}"))
    clock.advance(SECONDS + 5)
    assert "Your score:" in text_of(pupil.get(f"/a/{code}"))
    # after: board 2 can no longer start, and the pages say so
    clock.advance(HOUR)
    refused = pupil.post(f"/a/{code}/boards/2/start")
    assert refused.status_code == 403 and "new boards cannot be started any more" in text_of(refused)
    board_page = pupil.get(f"/a/{code}/boards/2")
    assert board_page.status_code == 403 and "The deadline of this homework was" in text_of(board_page)
    assert "closed: the deadline has passed" in text_of(pupil.get(f"/a/{code}"))
    assert "The deadline was" in text_of(client.get(link))


def test_a_second_attempt_is_refused_and_a_reload_resumes_the_round(app, client, clock):
    code, link = set_homework(client)
    seed = client.get(link, headers=JSON).get_json()["boards"][0]["seed"]
    pupil = join(app, code, "Zoë")
    best = homework_words_of(app, code, 1)[0]
    pupil.post(f"/a/{code}/boards/1/start")
    assert found(send_homework_word(pupil, code, 1, best.word))
    clock.advance(20)
    # a reload (or a second Start) while it runs: the same round, its words and its clock
    assert pupil.post(f"/a/{code}/boards/1/start").status_code == 303
    page = pupil.get(f"/a/{code}/boards/1").get_data(as_text=True)
    assert f'data-remaining="{SECONDS - 20:.3f}"' in page and f">{best.word}<" in page
    clock.advance(SECONDS)
    again = pupil.post(f"/a/{code}/boards/1/start")
    assert again.status_code == 409 and "You have played board 1 already" in text_of(again)
    assert pupil.post(f"/a/{code}/boards/1/round", data={"action": "again"}).status_code == 400
    summary = pupil.get(f"/a/{code}/boards/1").get_data(as_text=True)
    assert "Round over" in summary and "Play this board again" not in summary
    assert f'href="/a/{code}"' in summary
    assert seed not in page + summary  # the board's code stays the teacher's (its solution page lists every word)


def test_a_round_running_at_the_deadline_finishes(app, client, clock):
    code, link = set_homework(client, due=START + HOUR)
    pupil = join(app, code, "Zoë")
    words = homework_words_of(app, code, 1)
    clock.advance(HOUR - 10)  # ten seconds before the deadline
    assert pupil.post(f"/a/{code}/boards/1/start").status_code == 303
    clock.advance(30)  # twenty seconds past the deadline, thirty into the round
    assert found(send_homework_word(pupil, code, 1, words[0].word))
    clock.advance(SECONDS - 30 + app.config["ROUND_GRACE_SECONDS"] + 1)  # the round's own time is up
    late = send_homework_word(pupil, code, 1, words[1].word)
    assert not found(late) and '"reason": "time-up"' in late.headers["HX-Trigger"]
    results = client.get(link, headers=JSON).get_json()
    assert results["pupils"][0]["boards"][0]["words"] == [words[0].word]


def test_the_results_are_the_words_the_store_accepted(app, client, clock):
    code, link = set_homework(client)
    names = ["Zoë", "Ana", "=1+1"]
    pupils = {name: join(app, code, name) for name in names}
    accepted: dict[tuple[str, int], list[str]] = {}
    points: dict[tuple[str, int], int] = {}
    for number in (1, 2):
        words = homework_words_of(app, code, number)
        for i, (name, pupil) in enumerate(pupils.items()):
            if (name, number) == ("Ana", 2):
                continue  # Ana does not play board 2
            pupil.post(f"/a/{code}/boards/{number}/start")
            # each sends some words, one twice, one not on the board
            tries = [w.word for w in words[i : i + 4 + i]] + [words[i].word, "QZXQ"]
            taken = [word for word in tries if found(send_homework_word(pupil, code, number, word))]
            accepted[name, number] = sorted(taken)
            points[name, number] = sum(w.score for w in words if w.word in taken)
        clock.advance(SECONDS + 5)
    results = client.get(link, headers=JSON).get_json()
    by_name = {p["nickname"]: p for p in results["pupils"]}
    assert set(by_name) == set(names)
    for (name, number), words in accepted.items():
        board = by_name[name]["boards"][number - 1]
        assert (board["words"], board["score"], board["found"]) == (words, points[name, number], len(words))
    assert by_name["Ana"]["boards"][1] == {"board": 2, "played": False}
    assert by_name["Zoë"]["score"] == points["Zoë", 1] + points["Zoë", 2]
    # the CSV: the same numbers and words, the formula-like nickname as text
    key = link.split("key=")[1]
    body = client.get(f"/a/{code}/results.csv?key={key}").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == ["nickname", "score", "words found", "board 1", "words on board 1", "board 2", "words on board 2"]
    csv_rows = {row[0].removeprefix("'"): row for row in rows[1:]}
    assert csv_rows["=1+1"][0] == "'=1+1"
    for name in names:
        row = csv_rows[name]
        assert row[4].split() == accepted[name, 1] and row[3] == str(points[name, 1])
        assert row[6].split() == accepted.get((name, 2), [])
    # the workbook: the same rows
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/a/{code}/results.xlsx?key={key}").get_data()))
    sheet = book.active
    values = {row[0]: row for row in sheet.iter_rows(min_row=2, values_only=True)}
    assert values["Zoë"][1:3] == (by_name["Zoë"]["score"], by_name["Zoë"]["found"])
    assert values["=1+1"][0] == "=1+1" and sheet["A4"].data_type == "s"
    # the teacher's page: each board's class view names who found a word, and the words nobody found
    page = text_of(client.get(link))
    first = homework_words_of(app, code, 1)[0].word
    finders = [name for name in names if first in accepted.get((name, 1), [])]
    assert re.search(rf"{first} \d+ · {re.escape(', '.join(finders))}", page)
    nobody = [
        w.word for w in homework_words_of(app, code, 1) if not any(w.word in accepted.get((n, 1), []) for n in names)
    ]
    assert f"{len(nobody)} words nobody found" in page
    assert f"/play/en/{results['boards'][0]['seed']}/projector" in client.get(link).get_data(as_text=True)


def test_the_nickname_rules_and_rejoin_code_are_a_rooms(app, client):
    code, link = set_homework(client)
    zoe = join(app, code, "Zoë")
    zoe.post(f"/a/{code}/boards/1/start")
    word = homework_words_of(app, code, 1)[0].word
    assert found(send_homework_word(zoe, code, 1, word))
    taken = app.test_client().post(f"/a/{code}/pupils", data={"nickname": "zoe"})
    assert taken.status_code == 409 and "already called" in text_of(taken)
    refused = app.test_client().post(f"/a/{code}/pupils", data={"nickname": ""})
    assert refused.status_code == 422
    rejoin = re.search(r'data-rejoin-code="(\w+)"', zoe.get(f"/a/{code}").get_data(as_text=True)).group(1)
    phone = join(app, code, "Zoë", rejoin.lower())
    page = phone.get(f"/a/{code}/boards/1").get_data(as_text=True)
    assert f">{word}<" in page  # the seat moved with its round and words
    assert zoe.get(f"/a/{code}/boards/1").status_code == 303  # the old device has no seat any more
    assert [p["nickname"] for p in client.get(link, headers=JSON).get_json()["pupils"]] == ["Zoë"]


def test_unknown_codes_boards_and_keys_get_a_sentence(app, client):
    code, link = set_homework(client)
    stranger = app.test_client()
    unknown = stranger.get("/a/ZZZZZZ")
    assert unknown.status_code == 404 and "There is no homework ZZZZZZ" in text_of(unknown)
    assert stranger.get("/a/not-a-code").status_code == 404
    wrong = client.get(f"/a/{code}/teacher?key=guess")
    assert wrong.status_code == 403 and "This is not the teacher's link of homework" in text_of(wrong)
    assert client.get(f"/a/{code}/teacher").status_code == 403
    assert client.get(f"/a/{code}/results.csv?key=guess").status_code == 403
    assert client.post(f"/a/{code}/delete", data={"key": "guess"}).status_code == 403
    pupil = join(app, code, "Zoë")
    missing = pupil.get(f"/a/{code}/boards/3")
    assert missing.status_code == 404 and "has 2 boards: there is no board 3" in text_of(missing)
    assert stranger.post(f"/a/{code}/boards/1/start").status_code == 403
    no_seat = stranger.post(f"/a/{code}/boards/1/words", data={"word": "TEA"})
    assert no_seat.status_code == 403 and "Take a nickname" in text_of(no_seat)
    key = link.split("key=")[1]
    assert client.post(f"/a/{code}/pupils/999/delete", data={"key": key}).status_code == 404


# --- deleting ---------------------------------------------------------------------------------------------------


def test_deleting_a_pupil_and_the_homework_leaves_nothing_in_the_store(app, client, clock):
    before = rows_in_every_table(app)
    code, link = set_homework(client)
    key = link.split("key=")[1]
    pupils = {name: join(app, code, name) for name in ("Zoë", "Ana")}
    for pupil in pupils.values():
        for number in (1, 2):
            pupil.post(f"/a/{code}/boards/{number}/start")
            assert found(send_homework_word(pupil, code, number, homework_words_of(app, code, number)[0].word))
    during = rows_in_every_table(app)
    assert (during["assignment_pupils"], during["rounds"] - before["rounds"], during["words"] - before["words"]) == (
        2,
        4,
        4,
    )
    ana = next(p for p in client.get(link, headers=JSON).get_json()["pupils"] if p["nickname"] == "Ana")
    assert client.post(f"/a/{code}/pupils/{ana['id']}/delete", data={"key": key}).status_code == 303
    after_pupil = rows_in_every_table(app)
    assert (after_pupil["assignment_pupils"], after_pupil["rounds"], after_pupil["words"]) == (
        1,
        during["rounds"] - 2,
        during["words"] - 2,
    )
    assert [p["nickname"] for p in client.get(link, headers=JSON).get_json()["pupils"]] == ["Zoë"]
    gone = client.post(f"/a/{code}/delete", data={"key": key})
    assert gone.status_code == 200 and "are gone from this site" in text_of(gone)
    assert rows_in_every_table(app) == before
    assert client.get(link).status_code == 404


def test_the_clean_up_forgets_homework_a_month_after_its_deadline(app, client):
    before = rows_in_every_table(app)
    code, _ = set_homework(client, due=START + HOUR)
    pupil = join(app, code, "Zoë")
    pupil.post(f"/a/{code}/boards/1/start")
    send_homework_word(pupil, code, 1, homework_words_of(app, code, 1)[0].word)
    store = app.extensions["ruzzle.store"]
    retention = Retention(round_days=365, assignment_days=30)
    Cleanup(store, retention).run(START + HOUR + 29 * DAY)
    assert store.assignments.get(code) is not None
    Cleanup(store, retention).run(START + HOUR + 31 * DAY)
    assert store.assignments.get(code) is None and rows_in_every_table(app) == before


def test_my_rounds_leads_to_the_homework_not_to_the_boards_code(app, client, clock):
    code, link = set_homework(client)
    seed = client.get(link, headers=JSON).get_json()["boards"][0]["seed"]
    pupil = join(app, code, "Zoë")
    pupil.post(f"/a/{code}/boards/1/start")
    assert found(send_homework_word(pupil, code, 1, homework_words_of(app, code, 1)[0].word))
    clock.advance(SECONDS + 5)
    page = pupil.get("/me").get_data(as_text=True)
    assert f'href="/a/{code}/boards/1"' in page and "board 1" in page
    assert seed not in page  # its solution page would give the board's words to classmates who have not played


def test_the_deadline_is_the_first_moment_no_round_starts(app, client, clock):
    code, _ = set_homework(client, due=START + HOUR)
    pupil = join(app, code, "Zoë")
    clock.advance(HOUR - 0.5)
    assert pupil.post(f"/a/{code}/boards/1/start").status_code == 303
    clock.advance(0.5)
    assert pupil.post(f"/a/{code}/boards/2/start").status_code == 403


def test_starts_sent_at_once_make_one_round(app, client):
    from concurrent.futures import ThreadPoolExecutor

    code, _ = set_homework(client)
    pupil = join(app, code, "Zoë")
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: pupil.post(f"/a/{code}/boards/1/start").status_code, range(8)))
    assert answers == [303] * 8
    store = app.extensions["ruzzle.store"]
    assignment = store.assignments.get(code)
    with store.engine.connect() as connection:
        count = connection.execute(
            select(func.count())
            .select_from(metadata.tables["rounds"])
            .where(metadata.tables["rounds"].c.board_key == f"homework|{assignment.id}|1")
        ).scalar_one()
    assert count == 1
