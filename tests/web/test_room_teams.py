"""Ways to play a room (issue 36), through the web on both stores: teams (a word counts once per team, with the first
finder's points; a late joiner goes to the smallest team; a pupil the host moves takes this round's words along and
leaves earlier rounds' with their team; a rejoin keeps the team; a match adds up the teams' points), the whole class
against the board (its count is the distinct words found), the leaderboard JSON's contract and the exports."""

from __future__ import annotations

import csv
import io
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook

from ruzzle.teams import MAX_TEAMS, TEAM_STYLES, place_newcomer, team_ink
from store.room_records import smallest_team

from .helpers import JSON, SECONDS, join, open_room, send, start, text_of, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")  # the ranking as it is at each request


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


def board(client, code: str) -> dict:
    return client.get(f"/rooms/{code}/leaderboard", headers=JSON).get_json()


def teams_of(client, code: str) -> dict[int, tuple[int, int]]:
    """Each team's (score, words) as the leaderboard JSON gives them."""
    return {line["team"]: (line["score"], line["words"]) for line in board(client, code)["teams"]}


def team_of_players(client, code: str) -> dict[str, int | None]:
    return {line["nickname"]: line["team"] for line in board(client, code)["players"]}


def found(answer) -> bool:
    return '"outcome": "found"' in answer.headers.get("HX-Trigger", "")


def move(client, code: str, player_id: int, team: int):
    return client.post(f"/rooms/{code}/players/{player_id}/team", data={"team": str(team)})


def seat_id(app, code: str, nickname: str) -> int:
    store = app.extensions["ruzzle.store"].rooms
    room = store.get(code)
    return next(player.id for player in store.players(room.id) if player.nickname == nickname)


# --- opening a room in a way to play -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "mode", "teams"),
    [
        ({}, "solo", None),
        ({"mode": "solo"}, "solo", None),
        ({"mode": "teams"}, "teams", 2),
        ({"mode": "teams", "teams": "8"}, "teams", 8),
        ({"mode": "class", "teams": "3"}, "class", None),
    ],
)
def test_a_room_opens_in_the_way_to_play_its_form_chose(app, client, form, mode, teams):
    code = open_room(client, **form)
    room = app.extensions["ruzzle.store"].rooms.get(code)
    assert (room.mode, room.teams) == (mode, teams)
    assert board(client, code)["mode"] == mode


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"mode": "pairs"}, "A room is played solo, in teams or as a class, not &#39;pairs&#39;."),
        ({"mode": "teams", "teams": "1"}, "A room has 2 to 8 teams, not 1."),
        ({"mode": "teams", "teams": "9"}, "A room has 2 to 8 teams, not 9."),
        ({"mode": "teams", "teams": "two"}, "The number of teams is a whole number."),
    ],
)
def test_a_way_to_play_the_game_has_not_is_refused_with_a_sentence(client, form, said):
    answer = client.post("/rooms", data={"language": "en", "size": "4x4", "time": "60", **form})
    assert answer.status_code == 400
    assert said in answer.get_data(as_text=True)


# --- teams -----------------------------------------------------------------------------------------------------


def test_pupils_joining_are_placed_in_the_smallest_team_in_turn(app, client):
    code = open_room(client, mode="teams", teams="3")
    for name in ("Ann", "Ben", "Cat", "Dan", "Eve"):
        join(app, code, name)
    assert team_of_players(client, code) == {"Ann": 1, "Ben": 2, "Cat": 3, "Dan": 1, "Eve": 2}


def test_a_late_joiner_goes_to_the_smallest_team_after_the_host_moved_pupils(app, client, clock):
    code = open_room(client, mode="teams", teams="3")
    for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"):
        join(app, code, name)  # 1 2 3 1 2 3
    assert move(client, code, seat_id(app, code, "Cat"), 1).status_code == 303  # teams: 3, 2, 1 pupils
    start(client, clock, code)
    join(app, code, "Gus")  # during the round
    assert team_of_players(client, code)["Gus"] == 3
    assert {line["team"]: line["players"] for line in board(client, code)["teams"]} == {1: 3, 2: 2, 3: 2}


def test_a_word_counts_once_per_team_with_the_first_teammate_s_points(app, client, clock):
    code = open_room(client, mode="teams", teams="2")
    phones = {name: join(app, code, name) for name in ("Ann", "Ben", "Cat", "Dan")}  # Ann, Cat: 1; Ben, Dan: 2
    start(client, clock, code)
    words = words_of(app, code)
    first, second = words[0], words[1]
    assert found(send(phones["Ann"], code, first.word))
    clock.advance(1)
    assert found(send(phones["Cat"], code, first.word))  # a teammate's again: no more for the team
    assert found(send(phones["Cat"], code, second.word))
    assert found(send(phones["Ben"], code, first.word))  # the other team's first
    assert teams_of(client, code) == {1: (first.score + second.score, 2), 2: (first.score, 1)}
    # each pupil's own finds still count for them
    scores = {line["nickname"]: line["score"] for line in board(client, code)["players"]}
    assert scores == {"Ann": first.score, "Cat": first.score + second.score, "Ben": first.score, "Dan": 0}
    # Cat's page says one of her words was new to the team
    page = phones["Cat"].get(f"/rooms/{code}/play").get_data(as_text=True)
    assert re.search(r'id="team-score"[^>]*data-team="1"[^>]*data-team-points="(\d+)"[^>]*data-new-to-team="1"', page)
    assert "1 of your words was new to the team" in text_of(phones["Cat"].get(f"/rooms/{code}/play"))


def test_a_pupil_moved_during_a_round_takes_its_words_and_leaves_earlier_rounds_with_the_team(app, client, clock):
    code = open_room(client, mode="teams", teams="2")
    phones = {name: join(app, code, name) for name in ("Ann", "Ben", "Cat")}  # Ann, Cat: 1; Ben: 2
    start(client, clock, code)
    words = words_of(app, code)
    assert found(send(phones["Ann"], code, words[0].word))
    assert found(send(phones["Cat"], code, words[0].word))
    assert found(send(phones["Ann"], code, words[1].word))
    clock.advance(SECONDS + 10)
    round_one = {1: (words[0].score + words[1].score, 2), 2: (0, 0)}
    assert teams_of(client, code) == round_one
    # round 2: Ann plays for team 1, then the host moves her to team 2 during the round
    assert client.post(f"/rooms/{code}/rounds").status_code == 303
    start(client, clock, code)
    words = words_of(app, code)
    assert found(send(phones["Ann"], code, words[0].word))
    assert found(send(phones["Cat"], code, words[0].word))
    assert found(send(phones["Ben"], code, words[2].word))
    assert move(client, code, seat_id(app, code, "Ann"), 2).status_code == 303
    assert found(send(phones["Ann"], code, words[2].word))  # Ben found it first for team 2 now
    assert found(send(phones["Ann"], code, words[3].word))
    totals = teams_of(client, code)
    assert totals == {
        1: (round_one[1][0] + words[0].score, 3),  # Cat's find stays; Ann's went with her
        2: (words[0].score + words[2].score + words[3].score, 3),
    }
    # a move after the round is over leaves that round with the team it was played for
    clock.advance(SECONDS + 10)
    assert move(client, code, seat_id(app, code, "Ann"), 1).status_code == 303
    assert teams_of(client, code) == totals
    assert team_of_players(client, code)["Ann"] == 1


def test_rejoining_with_the_rejoin_code_keeps_the_team(app, client, clock):
    code = open_room(client, mode="teams", teams="2")
    join(app, code, "Ann")
    join(app, code, "Ben")
    store = app.extensions["ruzzle.store"].rooms
    seat = next(player for player in store.players(store.get(code).id) if player.nickname == "Ben")
    other_phone = app.test_client()
    answer = other_phone.post(f"/rooms/{code}/players", data={"nickname": "Ben", "code": seat.rejoin_code})
    assert answer.status_code == 303
    assert team_of_players(client, code) == {"Ann": 1, "Ben": 2}
    assert "Your team: ● Owls" in text_of(other_phone.get(f"/rooms/{code}/play"))


def test_a_match_adds_up_the_teams_points_over_its_rounds(app, client, clock):
    code = open_room(client, mode="teams", teams="2", preset="match")
    phones = {name: join(app, code, name) for name in ("Ann", "Ben")}
    expected = {1: 0, 2: 0}
    for number in (1, 2, 3):
        if number > 1:
            assert client.post(f"/rooms/{code}/rounds").status_code == 303
        start(client, clock, code)
        words = words_of(app, code)
        for k in range(number):
            assert found(send(phones["Ann"], code, words[k].word))
            expected[1] += words[k].score
        assert found(send(phones["Ben"], code, words[-1].word))
        expected[2] += words[-1].score
        clock.advance(SECONDS + 10)
        assert {team: score for team, (score, _words) in teams_of(client, code).items()} == expected
    assert {team: words for team, (_score, words) in teams_of(client, code).items()} == {1: 6, 2: 3}


def test_the_host_moves_a_pupil_only_to_one_of_the_room_s_teams(app, client):
    code = open_room(client, mode="teams", teams="3")
    join(app, code, "Ann")
    pupil = seat_id(app, code, "Ann")
    assert move(client, code, pupil, 4).status_code == 400
    assert move(client, code, pupil, 0).status_code == 400
    assert move(client, code, 999_999, 2).status_code == 404
    phone = join(app, code, "Ben")
    assert move(phone, code, pupil, 2).status_code == 403
    solo = open_room(client)
    join(app, solo, "Cat")
    assert move(client, solo, seat_id(app, solo, "Cat"), 1).status_code == 400


def test_the_walk_through_says_which_teams_found_each_word(app, client, clock):
    code = open_room(client, mode="teams", teams="2")
    phones = {name: join(app, code, name) for name in ("Ann", "Ben")}
    start(client, clock, code)
    words = words_of(app, code)
    for phone in phones.values():
        assert found(send(phone, code, words[0].word))
    assert found(send(phones["Ben"], code, words[1].word))
    clock.advance(SECONDS + 10)
    page = text_of(client.get(f"/rooms/{code}/projector?step=1"))
    assert "Found by ▲ Foxes, ● Owls" in page
    page = text_of(client.get(f"/rooms/{code}/projector?step=2"))
    assert "Found by ● Owls" in page
    podium = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert re.findall(r'data-place="(\d)" data-team="(\d)"', podium) == [("1", "2"), ("2", "1")]


# --- the class against the board ------------------------------------------------------------------------------


def test_the_class_count_is_the_distinct_words_anyone_found(app, client, clock):
    code = open_room(client, mode="class")
    phones = [join(app, code, name) for name in ("Ann", "Ben", "Cat")]
    start(client, clock, code)
    words = words_of(app, code)
    picks = ([0, 1, 2], [1, 2, 3], [3, 5])
    for phone, chosen in zip(phones, picks, strict=True):
        for k in chosen:
            assert found(send(phone, code, words[k].word))
    distinct = {0, 1, 2, 3, 5}
    together = board(client, code)["class"]
    assert together == {
        "found": len(distinct),
        "total": len(words),
        "score": sum(words[k].score for k in distinct),
    }
    scores = {line["nickname"]: line["score"] for line in board(client, code)["players"]}
    assert scores == {
        name: sum(words[k].score for k in chosen) for name, chosen in zip(("Ann", "Ben", "Cat"), picks, strict=True)
    }


def test_the_class_s_walk_through_starts_with_the_common_words_it_missed(app, client, clock):
    from ruzzle.frequency import is_common

    code = open_room(client, mode="class")
    phone = join(app, code, "Ann")
    start(client, clock, code)
    words = words_of(app, code)
    common = [w.word for w in words if is_common("en", w.word)]
    assert len(common) >= 2
    assert found(send(phone, code, common[0]))
    clock.advance(SECONDS + 10)
    page = client.get(f"/rooms/{code}/projector?step=1").get_data(as_text=True)
    first = re.search(r'<p class="walk-word[^"]*"><span lang="en">([A-Z]+)</span>', page).group(1)
    assert first in common[1:]
    assert "Nobody found it" in text_of(client.get(f"/rooms/{code}/projector?step=1"))


# --- the contract ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["solo", "teams", "class"])
def test_the_leaderboard_json_says_the_mode_each_player_s_team_and_the_mode_s_totals(app, client, clock, mode):
    code = open_room(client, mode=mode)
    phone = join(app, code, "Ann")
    join(app, code, "Ben")
    start(client, clock, code)
    word = words_of(app, code)[0]
    assert found(send(phone, code, word.word))
    data = board(client, code)
    assert data["mode"] == mode
    assert {line["nickname"]: line["team"] for line in data["players"]} == (
        {"Ann": 1, "Ben": 2} if mode == "teams" else {"Ann": None, "Ben": None}
    )
    if mode == "teams":
        assert data["teams"] == [
            {"team": 1, "name": "Foxes", "score": word.score, "words": 1, "players": 1},
            {"team": 2, "name": "Owls", "score": 0, "words": 0, "players": 1},
        ]
    else:
        assert data["teams"] is None
    if mode == "class":
        assert data["class"] == {"found": 1, "total": len(words_of(app, code)), "score": word.score}
    else:
        assert data["class"] is None


def test_the_exports_carry_each_pupil_s_team_and_a_teams_sheet(app, client, clock):
    code = open_room(client, mode="teams", teams="2")
    phones = {name: join(app, code, name) for name in ("Ann", "Ben", "Cat")}
    start(client, clock, code)
    words = words_of(app, code)
    assert found(send(phones["Ann"], code, words[0].word))
    assert found(send(phones["Cat"], code, words[0].word))
    assert found(send(phones["Ben"], code, words[1].word))
    clock.advance(SECONDS + 10)
    rows = list(
        csv.reader(io.StringIO(client.get(f"/rooms/{code}/results.csv").get_data(as_text=True).lstrip("\ufeff")))
    )
    assert rows[0][:3] == ["nickname", "team", "score"]
    assert {row[0]: row[1] for row in rows[1:]} == {"Ann": "Foxes", "Ben": "Owls", "Cat": "Foxes"}
    book = load_workbook(io.BytesIO(client.get(f"/rooms/{code}/results.xlsx").data))
    assert book.sheetnames[:2] == ["Totals", "Teams"]
    teams = [[cell.value for cell in row] for row in book["Teams"].iter_rows()]
    ranked = sorted([("Foxes", words[0].score), ("Owls", words[1].score)], key=lambda team: -team[1])
    assert teams[0] == ["rank", "team", "score", "words found", "players"]
    assert [(row[1], row[2]) for row in teams[1:]] == ranked
    assert {row[1]: row[4] for row in teams[1:]} == {"Foxes": 2, "Owls": 1}
    totals = [[cell.value for cell in row] for row in book["Totals"].iter_rows()]
    assert totals[0][:2] == ["nickname", "team"]


def test_a_solo_room_s_exports_have_no_team_column(app, client, clock):
    code = open_room(client)
    join(app, code, "Ann")
    rows = list(
        csv.reader(io.StringIO(client.get(f"/rooms/{code}/results.csv").get_data(as_text=True).lstrip("\ufeff")))
    )
    assert "team" not in rows[0]
    book = load_workbook(io.BytesIO(client.get(f"/rooms/{code}/results.xlsx").data))
    assert "Teams" not in book.sheetnames


# --- the copies pinned to the game's rules ----------------------------------------------------------------------


@given(st.lists(st.integers(0, 30), min_size=2, max_size=MAX_TEAMS))
def test_the_store_s_smallest_team_is_the_game_s_place_newcomer(sizes):
    assert smallest_team({team: size for team, size in enumerate(sizes, start=1)}, len(sizes)) == place_newcomer(sizes)


def test_the_team_colours_of_the_style_sheet_are_the_game_s():
    css = open("static/css/ruzzle.css", encoding="utf-8").read()
    for team, style in enumerate(TEAM_STYLES, start=1):
        rule = re.search(rf"\.team-{team} {{ background: (#\w+); color: (#\w+); }}", css)
        assert rule is not None, team
        assert rule.groups() == (style.colour, team_ink(team))
