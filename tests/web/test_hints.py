"""Hints on the web (issue 24): the grid of a player's round as JSON and as a panel, the reveal of learning rounds
and its cost, a room's host turning hints on or off; boards built around the teacher's words (rooms and /solve)."""

from __future__ import annotations

import re
import threading
from collections import Counter

import pytest

import views.targets
from ruzzle import Lexicon, solve
from views.rooms import COUNTDOWN, room_board
from views.rooms.pupil import AHEAD_SECONDS

from .conftest import HTMX, solution_of
from .helpers import SECONDS, join, open_room, send, start, walk_word, words_of

JSON = {"Accept": "application/json"}
SEED = "HINTS2"


def grid_of(client, query: str = "") -> dict:
    answer = client.get(f"/play/en/{SEED}/hints{query}", headers=JSON)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()


def test_the_json_grid_is_the_players_round_with_their_words_removed(app, client):
    solution = solution_of(app, seed=SEED)
    found = [solution[0], solution[3], solution[7]]
    client.get(f"/play/en/{SEED}")  # the round starts
    for word in found:
        assert client.post(f"/play/en/{SEED}/words", data={"word": word.word}, headers=HTMX).status_code == 200
    grid = grid_of(client)["grid"]
    left = [f for f in solution if f not in found]
    assert grid["words_left"] == len(left)
    assert grid["points_left"] == solution.total_score - sum(f.score for f in found)
    assert grid["by_length"] == {str(n): count for n, count in sorted(Counter(len(f.word) for f in left).items())}
    assert grid["by_start"] == dict(sorted(Counter(f.word[:2] for f in left).items()))
    by_letter = Counter((f.word[0], str(len(f.word))) for f in left)
    assert {(letter, n): c for letter, row in grid["by_letter"].items() for n, c in row.items()} == dict(by_letter)


def test_another_player_sees_the_whole_board_left(app, client):
    solution = solution_of(app, seed=SEED)
    client.get(f"/play/en/{SEED}")
    client.post(f"/play/en/{SEED}/words", data={"word": solution[0].word}, headers=HTMX)
    assert grid_of(app.test_client())["grid"]["words_left"] == len(solution)


def test_the_panel_opens_on_the_board_page_and_answers_htmx_with_the_panel_alone(client):
    board = client.get(f"/play/en/{SEED}").get_data(as_text=True)
    assert f'hx-get="/play/en/{SEED}/hints"' in board
    panel = client.get(f"/play/en/{SEED}/hints", headers=HTMX).get_data(as_text=True)
    assert panel.lstrip().startswith('<section id="hints"') and "<html" not in panel
    assert "with no time limit" in panel  # a timed round offers no reveal, and says where there is one
    page = client.get(f"/play/en/{SEED}/hints").get_data(as_text=True)
    assert "<html" in page and 'id="hints"' in page  # without JavaScript, a page of its own


def test_a_reveal_in_an_untimed_round_shows_a_word_and_costs_what_it_said(app, client):
    query = "?time=0"
    client.get(f"/play/en/{SEED}{query}")
    offer = grid_of(client, query)["next_reveal"]
    panel = client.get(f"/play/en/{SEED}/hints{query}", headers=HTMX).get_data(as_text=True)
    assert f"(costs {offer['cost']} points)" in panel  # the cost, shown before the hint is taken
    answer = client.post(f"/play/en/{SEED}/hints{query}", data={"taken": "0"}, headers=HTMX)
    assert answer.status_code == 200
    after = grid_of(client, query)
    assert after["taken"] == [{**offer, "found": False}] and after["penalty"] == offer["cost"]
    word = next(
        f for f in solution_of(app, seed=SEED) if (f.word[0], len(f.word)) == (offer["first_letter"], offer["length"])
    )
    assert after["next_reveal"] != offer  # the next hint is another word
    # the same form sent again (a double tap) takes no second hint
    client.post(f"/play/en/{SEED}/hints{query}", data={"taken": "0"}, headers=HTMX)
    assert grid_of(client, query)["penalty"] == offer["cost"]
    assert word.word[0] == offer["first_letter"]


def test_a_reveal_is_refused_in_a_timed_round(client):
    client.get(f"/play/en/{SEED}")
    answer = client.post(f"/play/en/{SEED}/hints", data={"taken": "0"})
    assert answer.status_code == 403
    assert "learning rounds, with no time limit" in answer.get_data(as_text=True)
    assert grid_of(client)["next_reveal"] is None


@pytest.mark.parametrize("hints", [True, False])
def test_a_rooms_host_turns_the_hints_on_or_off(app, client, clock, hints):
    code = open_room(client, **({"hints": "on"} if hints else {}))
    phone = join(app, code, "Ada")
    start(client, clock, code)
    board = phone.get(f"/rooms/{code}/play").get_data(as_text=True)
    assert (f'hx-get="/rooms/{code}/hints"' in board) is hints
    answer = phone.get(f"/rooms/{code}/hints", headers=JSON)
    if hints:
        assert answer.status_code == 200 and answer.get_json()["grid"]["words_left"] == len(words_of(app, code))
        assert answer.get_json()["next_reveal"] is None  # a room's round is timed: no reveal
    else:
        assert answer.status_code == 403
        assert "has not turned the hints on" in answer.get_data(as_text=True)


def test_a_rooms_hints_open_with_the_board_a_phone_shows_at_its_own_reckoning_of_the_start(app, client, clock):
    """The board fetched during the 3-2-1 shows at the phone's own reckoning of 0, which may be a little early: its
    hints answer from then (a test on a loaded machine tapped Hints in that moment and got a 403), not before."""
    code = open_room(client, hints="on")
    phone = join(app, code, "Ada")
    assert client.post(f"/rooms/{code}/start").status_code == 303
    assert phone.get(f"/rooms/{code}/hints", headers=JSON).status_code == 403  # the 3-2-1 has just begun
    clock.advance(COUNTDOWN - AHEAD_SECONDS - 0.1)
    refused = phone.get(f"/rooms/{code}/hints", headers=JSON)
    assert refused.status_code == 403 and "open with the board" in refused.get_data(as_text=True)
    clock.advance(0.2)  # the board may show on a phone now
    answer = phone.get(f"/rooms/{code}/hints", headers=JSON)
    assert answer.status_code == 200 and answer.get_json()["grid"]["words_left"] == len(words_of(app, code))


def test_the_room_hints_are_for_its_players(app, client, clock):
    code = open_room(client, hints="on")
    start(client, clock, code)
    assert app.test_client().get(f"/rooms/{code}/hints").status_code == 403


# --- the teacher's own words ---------------------------------------------------------------------------------------

TARGETS = ["river", "water", "cloud", "rain", "storm", "wind", "snow", "ice"]


def test_a_room_opened_with_target_words_has_them_all_on_its_board(app, client):
    code = open_room(client, size="5x5", words=", ".join(TARGETS))
    on_board = {found.word for found in words_of(app, code)}
    assert {word.upper() for word in TARGETS} <= on_board
    with app.test_request_context():
        board = room_board(app.extensions["ruzzle.store"].rooms.get(code)).board()
    assert {found.word for found in solve(board, Lexicon.builtin("en"))} >= {word.upper() for word in TARGETS}


def test_a_target_word_nobody_found_comes_first_in_the_walk_through_and_the_class_view(app, client, clock):
    code = open_room(client, size="5x5", words="river water cloud")
    phone = join(app, code, "Ada")
    start(client, clock, code)
    assert send(phone, code, "WATER").status_code == 200
    clock.advance(SECONDS + 10)
    first, _ = walk_word(client, code, 1)
    second, _ = walk_word(client, code, 2)
    assert {first, second} == {"RIVER", "CLOUD"}  # the teacher's words nobody found, before the class's words
    assert walk_word(client, code, 3) == ("WATER", "Found by Ada")
    page = client.get(f"/rooms/{code}/projector?step=1").get_data(as_text=True)
    assert '<p class="walk-target">One of the teacher' in page
    assert walk_word(client, code, 4)[0] not in ("RIVER", "WATER", "CLOUD")
    assert "walk-target" not in client.get(f"/rooms/{code}/projector?step=4").get_data(as_text=True)
    host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    targets = re.findall(
        r'<li class="room-target[^"]*"><strong lang="en">([A-Z]+)</strong> <span class="hint">([^<]+)', host
    )
    assert dict(targets) == {
        "CLOUD": "nobody: first in the walk-through",
        "RIVER": "nobody: first in the walk-through",
        "WATER": "1 player",
    }


@pytest.mark.parametrize(
    ("words", "reason"),
    [
        ("cat zzqxj", "ZZQXJ is not in this language"),
        ("cat internationalization", "INTERNATIONALIZATION is longer than the board has tiles (16)"),
        ("cat assess", "ASSESS needs a letter more than 2 times"),
        ("a b c d e f g h i", "at most 8 words, not 9"),
    ],
)
def test_a_room_with_words_that_cannot_fit_is_refused_with_the_reason(client, words, reason):
    answer = client.post("/rooms", data={"language": "en", "size": "4x4", "time": "60", "words": words})
    assert answer.status_code == 400
    assert reason in answer.get_data(as_text=True).replace("&#39;", "'")


def test_solve_builds_a_board_around_the_words_with_a_link_of_its_own(app, client):
    answer = client.get("/solve", query_string={"language": "en", "size": "5x5", "words": " ".join(TARGETS)})
    assert answer.status_code == 303
    assert client.get(answer.headers["Location"]).status_code == 200
    for word in TARGETS:  # the page lists 500 words at a time: a short word of a rich board may be on the next page
        listed = client.get(answer.headers["Location"], query_string={"prefix": word.upper()})
        assert f">{word.upper()}<" in listed.get_data(as_text=True), word
    refused = client.get("/solve", query_string={"language": "en", "size": "4x4", "words": "cat zzqxj"})
    assert refused.status_code == 422 and "ZZQXJ is not in this language" in refused.get_data(as_text=True).replace(
        "&#39;", "'"
    )


def test_every_round_of_a_room_with_target_words_holds_them(app, client, clock):
    code = open_room(client, size="5x5", words="river water cloud")
    for number in (1, 2):
        assert {"RIVER", "WATER", "CLOUD"} <= {found.word for found in words_of(app, code)}, number
        start(client, clock, code)
        clock.advance(SECONDS + 10)
        assert client.post(f"/rooms/{code}/rounds").status_code == 303
    seeds = [played.seed for played in app.extensions["ruzzle.store"].rooms.get(code).rounds]
    assert len(set(seeds)) == 3  # a fresh board each round, built around the same words


def test_a_round_that_is_over_offers_no_reveal_and_takes_none(client):
    query = "?time=0"
    client.get(f"/play/en/{SEED}{query}")
    client.post(f"/play/en/{SEED}/round{query}", data={"action": "give-up"})
    assert grid_of(client, query)["next_reveal"] is None
    client.post(f"/play/en/{SEED}/hints{query}", data={"taken": "0"}, headers=HTMX)
    assert grid_of(client, query)["penalty"] == 0


@pytest.mark.parametrize("query", ["?size=99x99", "?time=abc", "?gen=7"])
def test_a_bad_board_url_gets_a_sentence_not_hints(client, query):
    answer = client.get(f"/play/en/{SEED}/hints{query}", headers=JSON)
    assert answer.status_code == 400


def test_a_board_around_words_that_many_ask_for_at_once_is_built_once(app, monkeypatch):
    """A room's phones on a worker that has not built its board yet: one builds it, the others wait and read it."""
    built = []
    real = views.targets.build_target_board

    def counted(*args, **kwargs):
        built.append(args[:2])
        return real(*args, **kwargs)

    monkeypatch.setattr(views.targets, "build_target_board", counted)
    boards = []

    def ask():
        with app.app_context():
            boards.append(views.targets.board_around("en", "CROWD", 5, 5, ("RIVER", "WATER"), True).board)

    threads = [threading.Thread(target=ask) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert built == [("en", "CROWD")] and len(boards) == 12 and len(set(boards)) == 1
