"""A class over weeks (issue 25) through the Flask client, on SQLite and on PostgreSQL: a class list, five homework
set for it, pupils who are the same pupil every week by their code (on any device), each pupil's numbers (rounds,
average, words found, the words found for the first time, homework by homework) and the class's, the chart, and
deleting a pupil or the class (every table counted)."""

from __future__ import annotations

import re

import pytest

from .helpers import (
    CLASS_NAMES,
    SECONDS,
    class_data,
    found,
    homework_words_of,
    iso,
    join_with_code,
    make_class,
    rows_in_every_table,
    send_homework_word,
    set_class_homework,
    text_of,
)

WEEK = 7 * 86400


@pytest.fixture
def store_url(migrated_database_url) -> str:
    return migrated_database_url


def test_five_homework_with_the_same_class_follow_each_pupil(app, client, clock):
    code, link = make_class(client)
    codes = {pupil["nickname"]: pupil["code"] for pupil in class_data(client, link)["pupils"]}
    devices = {name: app.test_client() for name in CLASS_NAMES}
    expected = {name: {"rounds": 0, "score": 0, "words": 0, "new": [], "seen": set()} for name in CLASS_NAMES}
    for week in range(5):
        seed = f"WEEK{week % 2}"  # two boards in turn: the same words come back, and are new only once
        homework = set_class_homework(client, code, link, clock, seed)
        words = homework_words_of(app, homework, 1)
        for index, name in enumerate(CLASS_NAMES):
            numbers = expected[name]
            if (name, week) == ("Ana", 3):
                numbers["new"].append(0)  # Ana skips week 4
                continue
            # Luca plays from a new device in week 3: the same pupil by his code
            device = app.test_client() if (name, week) == ("Luca", 2) else devices[name]
            join_with_code(app, homework, name, codes[name].lower(), device)
            device.post(f"/a/{homework}/boards/1/start")
            picked = words[index + week : index + week + 2 + week % 3]
            taken = [w for w in picked if found(send_homework_word(device, homework, 1, w.word))]
            assert taken == picked
            numbers["rounds"] += 1
            numbers["score"] += sum(w.score for w in taken)
            numbers["words"] += len(taken)
            numbers["new"].append(len({w.word for w in taken} - numbers["seen"]))
            numbers["seen"] |= {w.word for w in taken}
        clock.advance(WEEK)
    data = class_data(client, link)
    assert [lesson["kind"] for lesson in data["lessons"]] == ["homework"] * 5
    by_name = {pupil["nickname"]: pupil for pupil in data["pupils"]}
    for name, numbers in expected.items():
        pupil = by_name[name]
        assert (pupil["rounds"], pupil["score"], pupil["words"], pupil["new_words"]) == (
            numbers["rounds"],
            numbers["score"],
            numbers["words"],
            numbers["new"],
        )
        assert pupil["average"] == round(numbers["score"] / numbers["rounds"], 1)
    assert data["new_words"] == [sum(expected[name]["new"][week] for name in CLASS_NAMES) for week in range(5)]
    page = client.get(link).get_data(as_text=True)
    # one chart a pupil and the class's, each bar titled with its number
    assert page.count('<svg class="chart"') == len(CLASS_NAMES) + 1
    first = data["lessons"][0]["code"]
    assert f"Homework {first}: {data['new_words'][0]} new words" in page


def test_class_homework_takes_the_lists_pupils_with_their_codes_only(app, client, clock):
    code, link = make_class(client)
    codes = {pupil["nickname"]: pupil["code"] for pupil in class_data(client, link)["pupils"]}
    homework = set_class_homework(client, code, link, clock, "WEEK0")
    stranger = app.test_client().post(f"/a/{homework}/pupils", data={"nickname": "Max", "code": codes["Zoë"]})
    assert stranger.status_code == 403 and "type your name as it is on the list" in text_of(stranger)
    wrong = app.test_client().post(f"/a/{homework}/pupils", data={"nickname": "Zoë", "code": codes["Ana"]})
    assert wrong.status_code == 403 and "Type your class code" in text_of(wrong)
    assert app.test_client().post(f"/a/{homework}/pupils", data={"nickname": "Zoë"}).status_code == 403
    zoe = join_with_code(app, homework, "zoe", codes["Zoë"])  # any case and accents: the list's name
    assert re.search(r"You are Zoë ?\.", text_of(zoe.get(f"/a/{homework}")))


def test_bad_class_input_gets_a_sentence(app, client, clock):
    assert client.post("/classes", data={"name": "", "pupils": "Zoë"}).status_code == 400
    twice = client.post("/classes", data={"name": "7B", "pupils": "Zoë\nzoe"})
    assert twice.status_code == 422 and "Line 2: zoe is on the list twice." in text_of(twice)
    code, link = make_class(client)
    assert client.get(f"/classes/{code}?key=guess").status_code == 403
    assert client.get("/classes/ZZZZZZ?key=guess").status_code == 404
    answer = client.post(
        "/assignments",
        data={
            "language": "en",
            "time": "60",
            "count": "1",
            "due": iso(clock() + 3600),
            "class": code,
            "class_key": "guess",
        },
    )
    assert answer.status_code == 403 and "This is not the private link of class" in text_of(answer)
    key = link.split("key=")[1]
    taken = client.post(f"/classes/{code}/pupils", data={"key": key, "nickname": "ANA"})
    assert taken.status_code == 409 and "on the class list already" in text_of(taken)


def test_deleting_a_pupil_and_the_class_leaves_nothing(app, client, clock):
    before = rows_in_every_table(app)
    code, link = make_class(client)
    key = link.split("key=")[1]
    codes = {pupil["nickname"]: pupil["code"] for pupil in class_data(client, link)["pupils"]}
    for seed in ("WEEK0", "WEEK1"):
        homework = set_class_homework(client, code, link, clock, seed)
        for name in CLASS_NAMES:
            device = join_with_code(app, homework, name, codes[name])
            device.post(f"/a/{homework}/boards/1/start")
            assert found(send_homework_word(device, homework, 1, homework_words_of(app, homework, 1)[0].word))
    full = rows_in_every_table(app)
    ana = next(p for p in class_data(client, link)["pupils"] if p["nickname"] == "Ana")
    assert client.post(f"/classes/{code}/pupils/{ana['id']}/delete", data={"key": key}).status_code == 303
    after = rows_in_every_table(app)
    assert (full["class_pupils"] - after["class_pupils"], full["assignment_pupils"] - after["assignment_pupils"]) == (
        1,
        2,
    )
    assert (full["rounds"] - after["rounds"], full["words"] - after["words"]) == (2, 2)
    gone = client.post(f"/classes/{code}/delete", data={"key": key})
    assert gone.status_code == 200 and "are gone from this site" in text_of(gone)
    assert rows_in_every_table(app) == before


def test_the_clean_up_forgets_a_class_180_days_after_its_last_homework(app, client, clock):
    from store.classes import KEEP_SECONDS
    from store.cleanup import Cleanup, Retention

    before = rows_in_every_table(app)
    code, link = make_class(client)
    clock.advance(WEEK)
    set_class_homework(client, code, link, clock, "WEEK0")  # used a week later: kept from then
    store = app.extensions["ruzzle.store"]
    retention = Retention(round_days=365, assignment_days=365)
    Cleanup(store, retention).run(clock() + KEEP_SECONDS - 60)
    assert store.classes.get(code) is not None
    Cleanup(store, retention).run(clock() + KEEP_SECONDS + 60)
    assert store.classes.get(code) is None and rows_in_every_table(app) == before


def test_a_live_room_for_the_class_takes_its_pupils_and_counts_on_the_class_page(app, client, clock):
    from views.rooms import COUNTDOWN, room_board

    code, link = make_class(client)
    key = link.split("key=")[1]
    codes = {pupil["nickname"]: pupil["code"] for pupil in class_data(client, link)["pupils"]}
    homework = set_class_homework(client, code, link, clock, "WEEK0")
    zoe = join_with_code(app, homework, "Zoë", codes["Zoë"])
    zoe.post(f"/a/{homework}/boards/1/start")
    first = homework_words_of(app, homework, 1)[0]
    assert found(send_homework_word(zoe, homework, 1, first.word))
    clock.advance(86400)
    opened = client.post(
        "/rooms", data={"language": "en", "time": str(SECONDS), "seed": "WEEK0", "class": code, "class_key": key}
    )
    room = re.fullmatch(r"/rooms/([A-Z0-9]{6})/host", opened.headers["Location"]).group(1)
    stranger = app.test_client().post(f"/rooms/{room}/players", data={"nickname": "Max", "any": "1"})
    assert stranger.status_code == 403 and "type your name as it is on the list" in text_of(stranger)
    phone = zoe  # the same device, or any: her name and code make her the same pupil
    joined = phone.post(f"/rooms/{room}/players", data={"nickname": "ZOE", "code": codes["Zoë"]})
    assert joined.status_code == 303, text_of(joined)
    assert client.post(f"/rooms/{room}/start").status_code == 303
    clock.advance(COUNTDOWN + 1)
    with app.test_request_context():
        words = list(room_board(app.extensions["ruzzle.store"].rooms.get(room)).solution())
    second = next(w for w in words if w.word != first.word)
    for word in (first.word, second.word):
        assert found(phone.post(f"/rooms/{room}/words", data={"word": word}, headers={"HX-Request": "true"}))
    data = class_data(client, link)
    assert [lesson["kind"] for lesson in data["lessons"]] == ["homework", "room"]
    zoe_line = next(pupil for pupil in data["pupils"] if pupil["nickname"] == "Zoë")
    # the room's board is the homework's (same seed): only the second word is new there
    assert (zoe_line["rounds"], zoe_line["words"], zoe_line["new_words"]) == (2, 3, [1, 1])
    assert zoe_line["score"] == first.score * 2 + second.score
    # deleting the class deletes its room too
    before_delete = rows_in_every_table(app)
    client.post(f"/classes/{code}/delete", data={"key": key})
    after = rows_in_every_table(app)
    assert (after["rooms"], after["room_players"], after["classes"]) == (0, 0, 0)
    assert before_delete["rounds"] - after["rounds"] == 2
