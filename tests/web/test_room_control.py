"""The teacher in control, through the Flask client on SQLite and PostgreSQL: pause and resume, more time, end now,
lock, a pupil's extra time, rename, remove (a ban the host can undo), the teacher's remote link, the pupils' rejoin
codes, who the projector names, the walk-through driven from the remote, and the phones' clocks."""

from __future__ import annotations

import re

import pytest

from views.rooms import COUNTDOWN

from .conftest import HTMX
from .helpers import JSON, SECONDS, join, message, open_room, send, start, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")  # the ranking as it is at each request


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


MOBILE = {"User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36"}
LAPTOP = {"User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36"}


def state(client, code: str) -> dict:
    """The room as the leaderboard's JSON says it."""
    return client.get(f"/rooms/{code}/leaderboard", headers=JSON).get_json()


def player_id(app, code: str, nickname: str) -> int:
    rooms = app.extensions["ruzzle.store"].rooms
    return next(p.id for p in rooms.players(rooms.get(code).id) if p.nickname == nickname)


def rejoin_code(phone, code: str) -> str:
    page = phone.get(f"/rooms/{code}/play").get_data(as_text=True)
    return re.search(r'data-rejoin-code="([A-Z0-9]+)"', page).group(1)


def remote_link(client, code: str) -> str:
    return re.search(
        r'data-remote-url="http://localhost(/rooms/[^"]+)"', client.get(f"/rooms/{code}/host").get_data(as_text=True)
    ).group(1)


# --- pause, more time, end ---------------------------------------------------------------------------------


def test_a_pause_stops_every_clock_and_resuming_keeps_the_time_left_exactly(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    clock.advance(20.5)
    before = state(client, code)
    assert before["phase"] == "playing" and before["seconds_left"] == pytest.approx(SECONDS - 21.5)
    assert client.post(f"/rooms/{code}/pause").status_code == 303
    paused = state(client, code)
    assert paused["phase"] == "paused" and paused["ends_at"] is None
    clock.advance(300)  # the bell rang: five minutes later
    assert state(client, code)["seconds_left"] == pytest.approx(before["seconds_left"])
    word = words_of(app, code)[0].word
    answer = send(phone, code, word)
    assert answer.status_code == 409 and "The teacher paused the round." in message(answer)
    assert "The teacher paused the round." in phone.get(f"/rooms/{code}/play").get_data(as_text=True)
    assert client.post(f"/rooms/{code}/resume").status_code == 303
    resumed = state(client, code)
    assert resumed["phase"] == "playing" and resumed["seconds_left"] == pytest.approx(before["seconds_left"])
    assert resumed["ends_at"] == pytest.approx(before["ends_at"] + 300)
    assert send(phone, code, word).status_code == 200


@pytest.mark.parametrize(
    "when, action",
    [
        ("waiting", "pause"),
        ("waiting", "resume"),
        ("playing", "resume"),
        ("over", "pause"),
        ("over", "time"),
        ("waiting", "time"),
    ],
)
def test_a_clock_change_that_cannot_happen_now_is_a_409_that_says_why(app, client, clock, when, action):
    code = open_room(client)
    if when != "waiting":
        start(client, clock, code)
    if when == "over":
        clock.advance(SECONDS + 10)
    answer = client.post(f"/rooms/{code}/{action}")
    assert answer.status_code == 409
    assert re.search(
        r"Only a running round can be paused|The round is not paused|Time can be added only",
        answer.get_data(as_text=True),
    )


@pytest.mark.parametrize("seconds, moved", [(None, 30), ("30", 30), ("600", 600), ("-60", -60), ("+15", 15)])
def test_more_time_moves_the_deadline_for_everyone(app, client, clock, seconds, moved):
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    ends_at = state(client, code)["ends_at"]
    answer = client.post(f"/rooms/{code}/time", data={} if seconds is None else {"seconds": seconds})
    assert answer.status_code == 303
    assert state(client, code)["ends_at"] == pytest.approx(ends_at + moved)
    page = phone.get(f"/rooms/{code}/play").get_data(as_text=True)
    if ends_at + moved > clock.now:
        left = float(re.search(r'id="timer" class="timer" data-remaining="([\d.]+)"', page).group(1))
        assert left == pytest.approx(ends_at + moved - clock.now)
    else:
        assert "Round over" in page  # time taken away past now: the round is over on the phone too


@pytest.mark.parametrize("seconds", ["abc", "601", "-61", "1e3", "", " "])
def test_more_time_outside_its_bounds_is_a_400(app, client, clock, seconds):
    code = open_room(client)
    start(client, clock, code)
    answer = client.post(f"/rooms/{code}/time", data={"seconds": seconds})
    if seconds.strip() == "":
        assert answer.status_code == 303  # the default, +30 s
    else:
        assert answer.status_code == 400 and "whole number from -60 to 600" in answer.get_data(as_text=True)


def test_taking_time_away_past_now_ends_the_round(app, client, clock):
    code = open_room(client)
    start(client, clock, code)
    clock.advance(SECONDS - 10)
    client.post(f"/rooms/{code}/time", data={"seconds": "-60"})
    assert state(client, code)["phase"] == "over"


def test_end_now_ends_the_round_and_the_words_already_answered_count(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    words = words_of(app, code)
    assert send(phone, code, words[0].word).status_code == 200
    assert client.post(f"/rooms/{code}/end").status_code == 303
    assert state(client, code)["phase"] == "over"
    late = send(phone, code, words[1].word)
    assert "Time is up" in late.get_data(as_text=True)
    assert state(client, code)["players"][0]["score"] == words[0].score
    assert "Podium" in client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert client.post(f"/rooms/{code}/end").status_code == 303  # a second press changes nothing
    assert state(client, code)["players"][0]["score"] == words[0].score


def projector_clock(client, code: str) -> str:
    """The clock the host's stage (the projector) shows, as the server wrote it."""
    page = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    return re.search(r'<span id="timer"[^>]*>([^<]*)</span>', page).group(1)


@pytest.mark.parametrize(
    ("seconds_after_start", "shown"),
    [
        (0, f"0:{COUNTDOWN:02d}"),  # the 3-2-1 from its first second, not the round's length as if it ran
        (1.5, f"0:{COUNTDOWN - 1:02d}"),  # whole seconds rounded up, as every clock
        (COUNTDOWN + 1, f"0:{SECONDS - 1:02d}"),  # then the round's own clock
    ],
)
def test_the_projector_counts_the_3_2_1_then_the_rounds_time_left(app, client, clock, seconds_after_start, shown):
    code = open_room(client)
    join(app, code, "Ada")
    assert client.post(f"/rooms/{code}/start").status_code == 303
    clock.advance(seconds_after_start)
    assert projector_clock(client, code) == shown


def test_the_leaderboard_json_says_the_phase_the_deadline_and_the_lock(app, client, clock):
    code = open_room(client)
    waiting = state(client, code)
    assert (waiting["phase"], waiting["ends_at"], waiting["locked"]) == ("waiting", None, False)
    client.post(f"/rooms/{code}/start")
    assert state(client, code)["phase"] == "countdown"
    clock.advance(COUNTDOWN + 1)
    playing = state(client, code)
    assert playing["phase"] == "playing" and playing["ends_at"] == pytest.approx(playing["starts_at"] + SECONDS)
    assert playing["seconds_left"] == pytest.approx(playing["ends_at"] - clock.now)
    client.post(f"/rooms/{code}/lock")
    assert state(client, code)["locked"] is True


# --- a pupil's extra time ------------------------------------------------------------------------------------


def test_a_pupil_with_extra_time_plays_on_after_the_class_and_the_projector_says_so(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    bruno = join(app, code, "Bruno")
    assert (
        client.post(f"/rooms/{code}/players/{player_id(app, code, 'Bruno')}/time", data={"seconds": "60"}).status_code
        == 303
    )
    start(client, clock, code)
    clock.advance(SECONDS + 5)
    words = words_of(app, code)
    assert "Time is up" in send(ada, code, words[0].word).get_data(as_text=True)
    assert send(bruno, code, words[0].word).status_code == 200 and not message(send(bruno, code, words[1].word))
    host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert "1 still playing" in host
    assert "+60" not in ada.get(f"/rooms/{code}/play").get_data(as_text=True)  # classmates never see it
    clock.advance(60)
    assert "still playing" not in client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert "Time is up" in send(bruno, code, words[2].word).get_data(as_text=True)


def test_extra_time_given_during_the_round_moves_that_pupils_deadline_only(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    join(app, code, "Bruno")
    start(client, clock, code)
    client.post(f"/rooms/{code}/players/{player_id(app, code, 'Ada')}/time", data={"seconds": "30"})
    clock.advance(SECONDS + 5)
    assert send(ada, code, words_of(app, code)[0].word).status_code == 200
    assert "1 still playing" in client.get(f"/rooms/{code}/host").get_data(as_text=True)


@pytest.mark.parametrize("seconds", ["601", "-1", "x"])
def test_extra_time_outside_0_to_600_is_a_400(app, client, seconds):
    code = open_room(client)
    join(app, code, "Ada")
    answer = client.post(f"/rooms/{code}/players/{player_id(app, code, 'Ada')}/time", data={"seconds": seconds})
    assert answer.status_code == 400 and "from 0 to 600" in answer.get_data(as_text=True)


@pytest.mark.parametrize("action", ["time", "name", "let-in", "remove", "unban"])
@pytest.mark.parametrize("player", ["999", str(2**63), str(2**31)])
def test_an_unknown_player_is_a_404_never_a_500(app, client, action, player):
    code = open_room(client)
    answer = client.post(f"/rooms/{code}/players/{player}/{action}", data={"seconds": "30", "nickname": "Ada"})
    assert answer.status_code == 404 and "room" in answer.get_data(as_text=True)


# --- lock, rename, remove and undo ------------------------------------------------------------------------------


def test_a_locked_room_refuses_a_new_phone_with_a_sentence_and_unlocking_opens_it(app, client):
    code = open_room(client)
    ada = join(app, code, "Ada")
    code_of_ada = rejoin_code(ada, code)
    assert client.post(f"/rooms/{code}/lock").status_code == 303
    newcomer = app.test_client()
    assert newcomer.get(f"/rooms/{code}").status_code == 403
    answer = newcomer.post(f"/rooms/{code}/players", data={"nickname": "Zed"})
    assert answer.status_code == 403 and "The teacher has locked room" in message(answer)
    # Ada's phone died: on another phone her code still takes her seat
    moved = app.test_client()
    assert moved.post(f"/rooms/{code}/players", data={"nickname": "Ada", "code": code_of_ada}).status_code == 303
    client.post(f"/rooms/{code}/unlock")
    assert newcomer.post(f"/rooms/{code}/players", data={"nickname": "Zed"}).status_code == 303


def test_the_host_renames_a_pupil_within_the_rules_for_names(app, client):
    code = open_room(client)
    join(app, code, "Ada")
    join(app, code, "Bruno")
    ada = player_id(app, code, "Ada")
    assert client.post(f"/rooms/{code}/players/{ada}/name", data={"nickname": "Ada L."}).status_code == 303
    assert [p["nickname"] for p in state(client, code)["players"]] == ["Ada L.", "Bruno"]
    assert client.post(f"/rooms/{code}/players/{ada}/name", data={"nickname": "bruno"}).status_code == 409
    assert client.post(f"/rooms/{code}/players/{ada}/name", data={"nickname": "fuck"}).status_code == 422
    assert client.post(f"/rooms/{code}/players/{ada}/name", data={"nickname": ""}).status_code == 422


def test_a_removed_pupil_cannot_rejoin_from_their_browser_nor_under_their_name_until_the_host_undoes(
    app, client, clock
):
    code = open_room(client)
    bot = join(app, code, "Bruno")
    start(client, clock, code)
    word = words_of(app, code)[0]
    send(bot, code, word.word)
    bruno = player_id(app, code, "Bruno")
    assert client.post(f"/rooms/{code}/players/{bruno}/remove").status_code == 303
    for name in ("Bruno", "Another Name"):
        answer = bot.post(f"/rooms/{code}/players", data={"nickname": name})
        assert answer.status_code == 403 and "removed this device" in message(answer)
    assert "removed this device" in send(bot, code, word.word).get_data(as_text=True)
    for name in ("Bruno", "bruno", "BRUNO "):  # a private tab: a new browser, the same name (as names compare)
        answer = app.test_client().post(f"/rooms/{code}/players", data={"nickname": name})
        assert answer.status_code == 403 and f"The teacher removed {name.strip()} from room {code}" in message(answer)
    other = join(app, code, "Bruno R.")  # another name still joins (the teacher sees it come in)
    assert [p["nickname"] for p in state(client, code)["players"]] == ["Bruno R."]
    assert "Undo" in client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert client.post(f"/rooms/{code}/players/{bruno}/unban").status_code == 303  # the seat, its name and score back
    assert sorted((p["nickname"], p["score"]) for p in state(client, code)["players"]) == [
        ("Bruno", word.score),
        ("Bruno R.", 0),
    ]
    assert bot.get(f"/rooms/{code}/play").status_code == 200 and other.get(f"/rooms/{code}/play").status_code == 200


def test_undoing_a_removal_gives_back_the_seat_name_and_score_when_the_name_is_free(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    word = words_of(app, code)[0]
    send(ada, code, word.word)
    seat = player_id(app, code, "Ada")
    client.post(f"/rooms/{code}/players/{seat}/remove")
    assert state(client, code)["players"] == []
    client.post(f"/rooms/{code}/players/{seat}/unban")
    assert [(p["nickname"], p["score"]) for p in state(client, code)["players"]] == [("Ada", word.score)]
    assert send(ada, code, words_of(app, code)[1].word).status_code == 200


# --- the teacher's remote -----------------------------------------------------------------------------------------


def test_the_remote_link_makes_any_device_a_host_and_a_phone_gets_the_big_buttons(app, client, clock):
    code = open_room(client)
    link = remote_link(client, code)
    assert code not in link.split("/remote/")[1] and len(link.split("/remote/")[1]) >= 20
    assert link not in app.test_client().get(f"/rooms/{code}").get_data(as_text=True)  # not in the join page
    phone = app.test_client()
    assert phone.post(f"/rooms/{code}/start").status_code == 403
    opened = phone.get(link, headers=MOBILE)
    assert opened.status_code == 303 and opened.headers["Location"] == f"/rooms/{code}/remote"
    remote = phone.get(f"/rooms/{code}/remote").get_data(as_text=True)
    assert ">Start</button>" in remote and 'name="view" value="remote"' in remote
    assert phone.post(f"/rooms/{code}/start", data={"view": "remote"}).headers["Location"] == f"/rooms/{code}/remote"
    clock.advance(COUNTDOWN + 1)
    assert phone.post(f"/rooms/{code}/pause", data={"view": "remote"}).status_code == 303
    assert state(client, code)["phase"] == "paused"
    assert ">Resume</button>" in phone.get(f"/rooms/{code}/remote").get_data(as_text=True)


def test_the_remote_link_on_a_laptop_gives_back_the_whole_host_view_after_a_crash(app, client, clock):
    code = open_room(client)
    join(app, code, "Ada")
    link = remote_link(client, code)
    start(client, clock, code)
    classroom_pc = app.test_client()  # the teacher's browser crashed; the classroom's PC takes over
    assert classroom_pc.get(link, headers=LAPTOP).headers["Location"] == f"/rooms/{code}/host"
    assert classroom_pc.get(f"/rooms/{code}/host").status_code == 200
    assert classroom_pc.post(f"/rooms/{code}/end").status_code == 303
    assert classroom_pc.get(f"/rooms/{code}/results.csv").status_code == 200
    assert classroom_pc.post(f"/rooms/{code}/rounds").status_code == 303


@pytest.mark.parametrize("key", ["wrong", "A" * 22, ""])
def test_a_wrong_remote_key_is_a_403(app, client, key):
    code = open_room(client)
    stranger = app.test_client()
    answer = stranger.get(f"/rooms/{code}/remote/{key}") if key else stranger.get(f"/rooms/{code}/remote")
    assert answer.status_code in (403, 404) and answer.status_code != 500
    assert stranger.post(f"/rooms/{code}/start").status_code == 403


def test_the_remote_steps_the_walk_through_and_the_projector_follows(app, client, clock):
    code = open_room(client)
    link = remote_link(client, code)
    remote = app.test_client()
    remote.get(link, headers=MOBILE)
    start(client, clock, code)
    clock.advance(SECONDS + 10)
    assert remote.post(f"/rooms/{code}/walk", data={"step": "next", "view": "remote"}).status_code == 303
    poll = client.get(f"/rooms/{code}/host", headers=HTMX)
    assert poll.headers["HX-Redirect"] == f"/rooms/{code}/projector"
    assert client.get(f"/rooms/{code}/projector").status_code == 200
    remote.post(f"/rooms/{code}/walk", data={"step": "next"})
    remote.post(f"/rooms/{code}/walk", data={"step": "next"})
    follow = client.get(f"/rooms/{code}/walk?round=1&step=0", headers=HTMX)
    assert follow.headers["HX-Redirect"] == f"/rooms/{code}/projector?step=2"
    assert client.get(f"/rooms/{code}/walk?round=1&step=2", headers=HTMX).status_code == 204
    assert "Word 2 of" in remote.get(f"/rooms/{code}/remote").get_data(as_text=True)
    remote.post(f"/rooms/{code}/rounds")  # another round: the projector goes back to the room
    assert (
        client.get(f"/rooms/{code}/walk?round=1&step=2", headers=HTMX).headers["HX-Redirect"] == f"/rooms/{code}/host"
    )


# --- rejoin codes ------------------------------------------------------------------------------------------------


def test_a_pupil_moves_to_a_new_phone_with_the_rejoin_code_and_keeps_seat_score_and_words(app, client, clock):
    code = open_room(client)
    old = join(app, code, "Peter")
    start(client, clock, code)
    words = words_of(app, code)
    send(old, code, words[0].word)
    pupil_code = rejoin_code(old, code)
    new = app.test_client()
    answer = new.post(f"/rooms/{code}/players", data={"nickname": "Peter"})
    assert answer.status_code == 409 and "rejoin code" in message(answer) and "ask the teacher" in message(answer)
    wrong = new.post(f"/rooms/{code}/players", data={"nickname": "Peter", "code": "ZZZZ"})
    assert wrong.status_code == 409 and "rejoin code is not" in message(wrong)
    assert new.post(f"/rooms/{code}/players", data={"nickname": "peter", "code": pupil_code.lower()}).status_code == 303
    assert send(new, code, words[1].word).status_code == 200
    assert state(client, code)["players"] == [
        {
            "rank": 1,
            "nickname": "Peter",
            "score": words[0].score + words[1].score,
            "words": 2,
            "rounds": [words[0].score + words[1].score],
            "team": None,  # (a solo room)
        }
    ]
    assert send(old, code, words[2].word).status_code == 403  # the seat left the dead phone
    assert words[0].word in new.get(f"/rooms/{code}/play").get_data(as_text=True)


def shown_code(client, code: str, name: str) -> str:
    """The rejoin code the host's page shows under a pupil's name after "let back in" (opened for them)."""
    answer = client.post(f"/rooms/{code}/players/{player_id(client.application, code, name)}/let-in", data={})
    assert answer.status_code == 303
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    opened = re.search(r'<details class="rejoin-code" open>.*?</details>', page, re.S).group(0)
    assert name in opened
    return re.search(r"<strong>([A-Z0-9]{4})</strong>", opened).group(1)


def test_letting_a_pupil_back_in_gives_their_seat_a_new_code_for_the_teacher_to_tell_them(app, client, clock):
    code = open_room(client)
    mona = join(app, code, "Mona")
    old = rejoin_code(mona, code)
    new = shown_code(client, code, "Mona")
    assert new != old
    for typed in ("", old):  # whoever types the name first, or with the code that may be on a lost phone: no seat
        stranger = app.test_client()
        assert stranger.post(f"/rooms/{code}/players", data={"nickname": "Mona", "code": typed}).status_code == 409
    clock.advance(3600)  # no door left open: the new code is the seat's as long as the room lasts
    phone = app.test_client()
    assert phone.post(f"/rooms/{code}/players", data={"nickname": "mona", "code": new.lower()}).status_code == 303
    assert rejoin_code(phone, code) == new and len(state(client, code)["players"]) == 1


def test_a_phone_already_seated_cannot_take_another_seat(app, client):
    code = open_room(client)
    ada = join(app, code, "Ada")
    bruno = join(app, code, "Bruno")
    answer = ada.post(f"/rooms/{code}/players", data={"nickname": "Bruno", "code": rejoin_code(bruno, code)})
    assert answer.status_code == 409 and "already plays as Ada" in message(answer)


# --- who the projector names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("names, shown", [("all", 4), ("top3", 3), ("none", 0)])
def test_the_projector_names_everyone_the_top_3_or_nobody(app, client, clock, names, shown):
    code = open_room(client)
    phones = [join(app, code, name) for name in ("Ada", "Bruno", "Chen", "Dara")]
    assert client.post(f"/rooms/{code}/settings", data={"names": names}).status_code == 303
    start(client, clock, code)
    board = client.get(f"/rooms/{code}/leaderboard", headers=HTMX).get_data(as_text=True)
    assert len(re.findall(r'<th scope="row" class="nickname">', board)) == shown
    if names == "none":
        assert "Players" in board and "Points together" in board
    clock.advance(SECONDS + 10)
    podium = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert len(re.findall(r'class="podium-name"', podium)) == (0 if names == "none" else 3)
    results = phones[3].get(f"/rooms/{code}/play").get_data(as_text=True)
    assert "Rank 4 of 4" in re.sub(r"<[^>]+>", "", results)  # each phone still shows its own rank
    assert len(re.findall(r'<th scope="row" class="nickname">', results)) == min(shown, 4 if names == "all" else 3)


@pytest.mark.parametrize("rounds", [1, 3])
def test_with_names_hidden_the_projector_says_the_class_totals_once_after_any_rounds(app, client, clock, rounds):
    code = open_room(client)
    phones = [join(app, code, name) for name in ("Ada", "Bruno")]
    client.post(f"/rooms/{code}/settings", data={"names": "none"})
    for number in range(rounds):
        if number:
            assert client.post(f"/rooms/{code}/rounds").status_code == 303
        start(client, clock, code)
        send(phones[number % 2], code, words_of(app, code)[0].word)
        clock.advance(SECONDS + 10)
    podium = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert podium.count("Points together") == 1 and 'class="podium-name"' not in podium


def test_a_bad_names_setting_is_a_400(app, client):
    code = open_room(client)
    assert client.post(f"/rooms/{code}/settings", data={"names": "some"}).status_code == 400


# --- every host action is the host's --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "pause",
        "resume",
        "time",
        "end",
        "lock",
        "unlock",
        "settings",
        "walk",
        "players/{player}/time",
        "players/{player}/name",
        "players/{player}/let-in",
        "players/{player}/unban",
        "players/{player}/remove",
    ],
)
def test_only_a_host_may_use_the_teachers_controls(app, client, clock, path):
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    for stranger in (phone, app.test_client()):
        answer = stranger.post(
            f"/rooms/{code}/" + path.format(player=player_id(app, code, "Ada")),
            data={"seconds": "30", "nickname": "X", "names": "none"},
        )
        assert answer.status_code == 403 and "Only the host of room" in answer.get_data(as_text=True)
    assert stranger.get(f"/rooms/{code}/remote").status_code == 403
    assert state(client, code)["phase"] == "playing"


# --- the phones' clocks ---------------------------------------------------------------------------------------------


def test_a_phones_clock_poll_is_a_304_until_the_teacher_changes_the_round(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    url = f"/rooms/{code}/clock?phase=playing&round=1"
    first = phone.get(url, headers=HTMX)
    assert first.status_code == 200 and 'id="clock"' in first.get_data(as_text=True)
    clock.advance(5)
    assert phone.get(url, headers={**HTMX, "If-None-Match": first.headers["ETag"]}).status_code == 304
    client.post(f"/rooms/{code}/time", data={"seconds": "30"})
    moved = phone.get(url, headers={**HTMX, "If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200 and "HX-Retarget" not in moved.headers
    client.post(f"/rooms/{code}/pause")
    paused = phone.get(url, headers=HTMX)
    assert paused.headers["HX-Retarget"] == "#game" and "The teacher paused the round." in paused.get_data(as_text=True)
    assert "data-paused" in paused.get_data(as_text=True) and 'id="board"' not in paused.get_data(as_text=True)


def test_every_answer_says_the_servers_time(app, client, clock):
    code = open_room(client)
    answer = client.get(f"/rooms/{code}/leaderboard", headers=JSON)
    assert float(answer.headers["X-Ruzzle-Time"]) == pytest.approx(clock.now, abs=1)


def test_nothing_of_the_boards_words_shows_while_a_pupil_still_plays(app, client, clock):
    """The podium, the walk-through and another round wait for a pupil's extra time: the projector would show
    them the words. End now ends it for them too."""
    code = open_room(client)
    join(app, code, "Ada")
    bruno = join(app, code, "Bruno")
    client.post(f"/rooms/{code}/players/{player_id(app, code, 'Bruno')}/time", data={"seconds": "60"})
    start(client, clock, code)
    clock.advance(SECONDS + 5)
    podium = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert "1 still playing" in podium and "Nobody found" not in podium and "Best word" not in podium
    for method, path in (("get", "projector"), ("post", "walk"), ("post", "rounds")):
        answer = getattr(client, method)(f"/rooms/{code}/{path}")
        assert answer.status_code == 409 and "still playing (extra time)" in answer.get_data(as_text=True)
    assert client.post(f"/rooms/{code}/end").status_code == 303
    assert "Time is up" in send(bruno, code, words_of(app, code)[0].word).get_data(as_text=True)
    assert "Nobody found" in client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert client.get(f"/rooms/{code}/projector").status_code == 200


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_words_page_during_the_3_2_1_is_a_409_not_a_500(app, client, headers):
    code = open_room(client)
    phone = join(app, code, "Ada")
    client.post(f"/rooms/{code}/start")
    answer = phone.get(f"/rooms/{code}/words/{words_of(app, code)[0].word}", headers=headers)
    assert answer.status_code == 409 and "The round starts in 3 s: get ready." in answer.get_data(as_text=True)


def test_the_walk_through_names_only_whom_the_projector_may_name(app, client, clock):
    code = open_room(client)
    phones = {name: join(app, code, name) for name in ("Ada", "Bruno", "Chen", "Dara")}
    start(client, clock, code)
    words = words_of(app, code)
    for i, name in enumerate(("Ada", "Bruno", "Chen")):  # the top 3, best first
        send(phones[name], code, words[i].word)
    send(phones["Dara"], code, words[-1].word)  # the lowest word: Dara is 4th
    clock.advance(SECONDS + 10)
    step = 4  # the last of the class's words (each found once, best first): the lowest, found only by Dara

    def finders_line(names: str) -> str:
        client.post(f"/rooms/{code}/settings", data={"names": names})
        page = client.get(f"/rooms/{code}/projector?step={step}").get_data(as_text=True)
        found = re.search(r'<p class="walk-finders">(.*?)</p>', page, flags=re.S)
        return re.sub(r"<[^>]+>", "", found.group(1)) if found else ""

    assert finders_line("all") == "Found by Dara"
    assert finders_line("top3") == ""  # found, by someone the projector does not name
    assert finders_line("none") == ""
    client.post(f"/rooms/{code}/settings", data={"names": "top3"})
    first = client.get(f"/rooms/{code}/projector?step=1").get_data(as_text=True)
    assert "Found by <strong>Ada</strong>" in first
