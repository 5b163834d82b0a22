"""A room's 3-round match through the Flask client, on SQLite and on PostgreSQL: after each round every phone names
this round's points, the total and the rank in the match; after round 3 the final podium (projector and phones) and
"Another match", whose first round is round 1 of 3 of match 2 with the totals back at 0. A room of single rounds
keeps "Another round" and its running totals."""

from __future__ import annotations

import csv
import io
import itertools
import re

import pytest

from .helpers import JSON, SECONDS, join, open_room, send, start, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")  # the ranking as it is at each request


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


NAMES = ("Ada", "Bruno", "Chiara")
# Which of the board's words (best first) each player finds, round by round: the lead changes hands.
MATCH = (
    {"Ada": (0,), "Bruno": (1, 2), "Chiara": ()},
    {"Ada": (3,), "Bruno": (), "Chiara": (0, 1)},
    {"Ada": (), "Bruno": (0,), "Chiara": (2,)},
)


@pytest.fixture(autouse=True)
def known_seeds(monkeypatch):
    """The rounds after the first on known boards (a fresh room's seed is random), so the totals never tie."""
    seeds = (f"MATCH{n}" for n in itertools.count(2))
    monkeypatch.setattr("views.rooms.host.new_seed", lambda: next(seeds))


def play(app, client, clock, code, phones, picks) -> dict[str, int]:
    """The host starts the room's round, each player sends the words of `picks`, the round ends: each one's points."""
    start(client, clock, code)
    words = words_of(app, code)
    for name, chosen in picks.items():
        for index in chosen:
            assert send(phones[name], code, words[index].word).status_code == 200
    clock.advance(SECONDS + 10)
    return {name: sum(words[index].score for index in chosen) for name, chosen in picks.items()}


def ranks(totals: dict[str, int]) -> dict[str, int]:
    assert len(set(totals.values())) == len(totals), totals  # (the known boards make no tie)
    return {name: rank for rank, name in enumerate(sorted(totals, key=totals.get, reverse=True), start=1)}


def points(number: int) -> str:
    return f"<strong>{number}</strong> point{'' if number == 1 else 's'}"


def score_line(page: str) -> tuple[str, dict[str, str]]:
    """The phone's score line: its text and its data- attributes."""
    found = re.search(r'<p class="summary-score[^"]*"([^>]*)>(.*?)</p>', page, re.S)
    return found.group(2), dict(re.findall(r'data-([a-z-]+)="([^"]*)"', found.group(1)))


def podium(page: str) -> list[tuple[str, str, str]]:
    """The projector's final podium: (place, name, score) from first to third."""
    final = re.search(r"<section[^>]*data-final-podium[^>]*>(.*?)</section>", page, re.S).group(1)
    return re.findall(
        r'<li [^>]*data-place="(\d)"><span class="podium-rank">\d</span> <span class="podium-name">'
        r'([^<]+)</span> <span class="podium-score">([^<]+)</span>',
        final,
    )


def button(page: str, endpoint: str) -> str:
    """The label of the button that posts to `endpoint`."""
    return re.search(
        rf'action="{re.escape(endpoint)}" method="post">(?:<input[^>]*>)*<button[^>]*>([^<]+)</button>', page
    ).group(1)


def test_a_whole_match_names_each_rounds_points_the_total_and_ends_with_a_final_podium(app, client, clock):
    code = open_room(client, preset="match")
    phones = {name: join(app, code, name) for name in NAMES}
    totals = dict.fromkeys(NAMES, 0)
    for number, picks in enumerate(MATCH, start=1):
        this_round = play(app, client, clock, code, phones, picks)
        totals = {name: totals[name] + this_round[name] for name in NAMES}
        place = ranks(totals)
        for name, phone in phones.items():
            page = phone.get(f"/rooms/{code}/play").get_data(as_text=True)
            text, data = score_line(page)
            assert f"This round: {points(this_round[name])}" in text and f"Total: {points(totals[name])}" in text
            assert (int(data["round-points"]), int(data["total-points"])) == (this_round[name], totals[name])
            if number < 3:
                assert '<h2 id="summary-title"' in page and ">Round over</h2>" in page
                assert f"Rank <strong>{place[name]}</strong> of 3 in the match" in text
                assert int(data["rank"]) == place[name] and "final-place" not in data
            else:
                assert ">Match over</h2>" in page
                assert f"Final place: <strong>{place[name]}</strong> of 3" in text
                assert int(data["final-place"]) == place[name]
        host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
        assert (f"After {number} of 3 rounds" if number < 3 else "Match 1: final podium") in host
        assert ">Total</th>" in host and ">This round</th>" in host
        board = client.get(f"/rooms/{code}/leaderboard", headers=JSON).get_json()
        assert (board["match"], board["round_in_match"], board["rounds"]) == (1, number, number)
        assert {p["nickname"]: p["score"] for p in board["players"]} == totals
        if number < 3:
            assert "data-final-podium" not in host
            assert button(host, f"/rooms/{code}/rounds") == "Next round of the match"
            assert client.post(f"/rooms/{code}/rounds").status_code == 303
    by_place = sorted(NAMES, key=place.get)
    assert podium(host) == [(str(place[name]), name, str(totals[name])) for name in by_place]
    assert button(host, f"/rooms/{code}/rounds") == "Another match"
    remote = client.get(f"/rooms/{code}/remote").get_data(as_text=True)
    assert button(remote, f"/rooms/{code}/rounds") == "Another match"

    # Another match: round 1 of 3 of match 2, every total back at 0
    assert client.post(f"/rooms/{code}/rounds").status_code == 303
    host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert ">Start round 1 of 3 in match 2</button>" in host and "round 4" not in host
    ada_page = phones["Ada"].get(f"/rooms/{code}/play").get_data(as_text=True)
    assert "<strong>Ada</strong>, round 1 of 3 in match 2." in ada_page
    board = client.get(f"/rooms/{code}/leaderboard", headers=JSON).get_json()
    assert (board["round"], board["match"], board["round_in_match"]) == (4, 2, 1)
    assert {p["nickname"]: p["score"] for p in board["players"]} == dict.fromkeys(NAMES, 0)
    this_round = play(app, client, clock, code, phones, {"Ada": (), "Bruno": (4,), "Chiara": ()})
    text, data = score_line(phones["Bruno"].get(f"/rooms/{code}/play").get_data(as_text=True))
    assert f"This round: {points(this_round['Bruno'])}" in text and f"Total: {points(this_round['Bruno'])}" in text
    assert "Rank <strong>1</strong> of 3 in the match" in text
    text, _ = score_line(phones["Ada"].get(f"/rooms/{code}/play").get_data(as_text=True))
    assert f"This round: {points(0)}" in text and f"Total: {points(0)}" in text
    host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert "data-final-podium" not in host and button(host, f"/rooms/{code}/rounds") == "Next round of the match"


def test_the_final_podium_waits_for_a_pupil_still_playing(app, client, clock):
    code = open_room(client, preset="match")
    phones = {name: join(app, code, name) for name in NAMES}
    for number, picks in enumerate(MATCH, start=1):
        if number == 3:
            rooms = app.extensions["ruzzle.store"].rooms
            chiara = next(p.id for p in rooms.players(rooms.get(code).id) if p.nickname == "Chiara")
            assert client.post(f"/rooms/{code}/players/{chiara}/time", data={"seconds": "60"}).status_code == 303
        play(app, client, clock, code, phones, picks)
        if number < 3:
            client.post(f"/rooms/{code}/rounds")
    host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert "1 still playing" in host and "data-final-podium" not in host and "After 3 of 3 rounds" in host
    clock.advance(60)
    assert "data-final-podium" in client.get(f"/rooms/{code}/host").get_data(as_text=True)


def test_the_csv_after_two_matches_holds_the_second_match(app, client, clock):
    code = open_room(client, preset="match")
    phones = {name: join(app, code, name) for name in NAMES}
    for picks in MATCH:
        play(app, client, clock, code, phones, picks)
        client.post(f"/rooms/{code}/rounds")
    second = []
    for picks in reversed(MATCH):
        second.append(play(app, client, clock, code, phones, picks))
        if len(second) < 3:
            client.post(f"/rooms/{code}/rounds")
    last = words_of(app, code)
    totals = {name: sum(scores[name] for scores in second) for name in NAMES}
    answer = client.get(f"/rooms/{code}/results.csv").get_data().decode("utf-8-sig")  # (it starts with a BOM)
    rows = list(csv.DictReader(io.StringIO(answer)))
    place = ranks(totals)
    assert [(r["nickname"], int(r["score"]), int(r["rank"])) for r in rows] == sorted(
        ((name, totals[name], place[name]) for name in NAMES), key=lambda row: row[2]
    )
    for row in rows:
        assert [int(row[f"round {n}"]) for n in (1, 2, 3)] == [scores[row["nickname"]] for scores in second]
        last_words = {last[index].word for index in MATCH[0][row["nickname"]]}
        assert last_words <= set(row["words"].split())  # (the last round's words among the match's)
    assert "round 4" not in rows[0]


def test_a_room_of_single_rounds_keeps_another_round_and_its_running_totals(app, client, clock):
    code = open_room(client)
    phones = {name: join(app, code, name) for name in NAMES}
    first = play(app, client, clock, code, phones, MATCH[0])
    text, data = score_line(phones["Bruno"].get(f"/rooms/{code}/play").get_data(as_text=True))
    assert "Total" not in text and "This round" not in text and set(data) == set()  # one round: its line only
    host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert button(host, f"/rooms/{code}/rounds") == "Another round" and "This round</th>" not in host
    totals = dict(first)
    for number in (2, 3, 4):
        client.post(f"/rooms/{code}/rounds")
        this_round = play(app, client, clock, code, phones, MATCH[(number - 1) % 3])
        totals = {name: totals[name] + this_round[name] for name in NAMES}
        text, data = score_line(phones["Chiara"].get(f"/rooms/{code}/play").get_data(as_text=True))
        assert f"This round: {points(this_round['Chiara'])}" in text and f"Total: {points(totals['Chiara'])}" in text
        assert "of 3 overall" in text and int(data["total-points"]) == totals["Chiara"]
        host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
        assert button(host, f"/rooms/{code}/rounds") == "Another round" and "data-final-podium" not in host
        assert f"After {number} rounds" in host
    board = client.get(f"/rooms/{code}/leaderboard", headers=JSON).get_json()
    assert (board["round"], board["rounds"], board["match"], board["round_in_match"]) == (4, 4, None, None)
