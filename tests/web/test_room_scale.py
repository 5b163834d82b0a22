"""A room of a whole school: the pages' pace adapts to the room's size, what the whole room shares is made once, and
a phone's poll with nothing new for it is a 304 (issue 21; bench/rooms.py measures 2,000 phones over the network)."""

from __future__ import annotations

import re

import pytest

from views.rooms import (
    BIG_ROOM,
    CLOCK_POLL_SPREAD,
    COUNTDOWN,
    LOBBY_POLLS_PER_SECOND,
    NAMES_LISTED,
    PLAY_POLLS_PER_SECOND,
    POLL_SECONDS,
    RESULTS_POLL_AFTER_END,
    clock_poll_seconds,
    pace_of,
)

from .conftest import HTMX
from .helpers import SECONDS, join, open_room, send, start, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")  # the ranking as it is at each request


@pytest.fixture
def store_url(migrated_database_url):
    return migrated_database_url


def fill(app, code: str, players: int, prefix: str = "Pupil") -> list:
    return [join(app, code, f"{prefix}{number:03d}") for number in range(players)]


@pytest.mark.parametrize("players", [1, 30, BIG_ROOM - 1, BIG_ROOM, 500, 2000, 5000])
def test_all_the_polls_of_a_room_stay_under_the_budget_and_the_countdown_outlasts_a_poll(players):
    pace = pace_of(players)
    # a class polls every POLL_SECONDS; a bigger room only as often as the budget of its phase allows
    assert players / pace.lobby_seconds <= max(LOBBY_POLLS_PER_SECOND, players / POLL_SECONDS)
    assert players / pace.play_seconds <= max(PLAY_POLLS_PER_SECOND, players / POLL_SECONDS)
    assert min(pace.lobby_seconds, pace.play_seconds) >= POLL_SECONDS and pace.countdown >= COUNTDOWN
    if players >= BIG_ROOM:
        # every phone's lobby poll comes during the 3-2-1, and the results wait until no word can land
        assert pace.countdown > pace.lobby_seconds
        assert pace.results_after >= RESULTS_POLL_AFTER_END and pace.results_spread > 0
    else:
        assert (pace.lobby_seconds, pace.countdown, pace.results_after) == (POLL_SECONDS, COUNTDOWN, 0)


def poll_seconds(html: str) -> float:
    return float(re.search(r'hx-trigger="every ([0-9.]+)s"', html).group(1))


@pytest.mark.parametrize("players", [30, 500])
def test_a_rooms_clocks_poll_at_intervals_of_their_own_never_faster_than_the_pace(players):
    pace = pace_of(players)
    intervals = [clock_poll_seconds(pace, seat) for seat in range(1, players + 1)]
    assert min(intervals) >= pace.play_seconds and max(intervals) <= pace.play_seconds * (1 + CLOCK_POLL_SPREAD)
    # spread over the whole range, at every tenth of a second it holds: the seats' first polls after the start with it
    assert len(set(intervals)) >= round(pace.play_seconds * CLOCK_POLL_SPREAD * 10)


def test_each_phones_clock_polls_at_its_own_interval(app, client, clock):
    code = open_room(client)
    phones = [join(app, code, name) for name in ("Ada", "Bruno", "Chiara")]
    start(client, clock, code)
    clocks = [re.search(r'<p id="clock"[^>]*>', phone.get(f"/rooms/{code}/play", headers=HTMX).get_data(as_text=True))
              for phone in phones]  # fmt: skip
    assert len({poll_seconds(found.group(0)) for found in clocks}) == 3


def test_a_big_rooms_lobby_lists_the_last_to_join_says_how_many_and_polls_slower(app, client):
    code = open_room(client)
    phones = fill(app, code, NAMES_LISTED + 5)
    page = phones[0].get(f"/rooms/{code}/play", headers=HTMX).get_data(as_text=True)
    listed = re.findall(r"<li[^>]*>(Pupil\d+)</li>", page)
    assert listed == [f"Pupil{number:03d}" for number in range(5, NAMES_LISTED + 5)]
    assert f"{NAMES_LISTED + 5} players in the room" in page
    host = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert f"{NAMES_LISTED + 5} players" in host and 'name="find"' in host
    found = client.get(f"/rooms/{code}/host?find=pupil002").get_data(as_text=True)
    assert re.findall(r'<span class="nickname">(Pupil\d+)</span>', found) == ["Pupil002"] * 2  # lobby and tools
    assert poll_seconds(page) == pace_of(NAMES_LISTED + 5).lobby_seconds


def test_a_big_room_leaves_the_end_to_each_phone_then_gives_results_once_and_304_after(app, client, clock):
    app.config["ROOM_RANKING_SECONDS"] = 0
    code = open_room(client)
    phones = fill(app, code, BIG_ROOM)
    start_answer = client.post(f"/rooms/{code}/start")
    assert start_answer.status_code == 303
    countdown = pace_of(BIG_ROOM).countdown
    clock.advance(countdown + 1)
    words = words_of(app, code)
    board = phones[0].get(f"/rooms/{code}/play", headers=HTMX).get_data(as_text=True)
    timer = re.search(r'<span id="timer"[^>]*>', board).group(0)
    assert f'data-refresh-after="{float(RESULTS_POLL_AFTER_END)}"' in timer and "data-refresh-spread" in timer
    assert send(phones[0], code, words[0].word).status_code == 200
    assert send(phones[1], code, words[0].word).status_code == 200
    assert send(phones[1], code, words[1].word).status_code == 200
    clock.advance(SECONDS - 1 + 0.5)  # the end, within the grace
    clock_url = f"/rooms/{code}/clock?phase=playing&round=1"
    assert phones[2].get(clock_url, headers=HTMX).status_code == 204  # the phone's own clock says "Time is up"
    clock.advance(RESULTS_POLL_AFTER_END)
    results = phones[1].get(clock_url, headers=HTMX)  # now final: the results, whole
    page = results.get_data(as_text=True)
    assert results.status_code == 200 and "Counting the last words" not in page
    assert f"Rank <strong>1</strong> of {BIG_ROOM}" in page
    tag = results.headers["ETag"]
    again = phones[1].get(f"/rooms/{code}/play", headers={**HTMX, "If-None-Match": tag})
    assert again.status_code == 304
    # another phone's results: its own rank among the same shared ranking
    other = phones[0].get(f"/rooms/{code}/play", headers=HTMX).get_data(as_text=True)
    assert f"Rank <strong>2</strong> of {BIG_ROOM}" in other
    # the host adds a round: the polls that were 304 bring the lobby
    assert client.post(f"/rooms/{code}/rounds").status_code == 303
    assert phones[1].get(f"/rooms/{code}/play", headers={**HTMX, "If-None-Match": tag}).status_code == 200


def test_results_say_what_everyone_nobody_and_only_you_found_from_the_shared_counts(app, client, clock):
    code = open_room(client)
    ada, bob, cy = (join(app, code, name) for name in ("Ada", "Bob", "Cy"))
    start(client, clock, code)
    words = words_of(app, code)
    for phone in (ada, bob, cy):
        send(phone, code, words[0].word)  # everyone
    send(ada, code, words[1].word)  # only Ada
    send(bob, code, words[2].word)
    send(cy, code, words[2].word)
    clock.advance(SECONDS + RESULTS_POLL_AFTER_END + 1)
    page = ada.get(f"/rooms/{code}/play", headers=HTMX).get_data(as_text=True)
    sections = dict(re.findall(r"<h2>([^<]+?)(?: <span[^>]*>.*?</span>)?</h2>\s*<ol[^>]*>(.*?)</ol>", page, re.S))
    assert words[1].word in sections["Only you found"] and words[2].word not in sections["Only you found"]
    assert words[0].word in sections["Everyone found"] and words[2].word not in sections["Everyone found"]
    nobody = sections["Nobody found"]
    assert all(w.word not in nobody for w in words[:3]) and words[3].word in nobody


def test_the_board_comes_during_the_3_2_1_drawn_as_of_the_start_and_its_words_still_wait(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    lobby = phone.get(f"/rooms/{code}/play?ahead=1", headers=HTMX).get_data(as_text=True)
    assert 'id="board"' not in lobby  # before the Start, nothing ahead: the lobby
    assert client.post(f"/rooms/{code}/start").status_code == 303
    clock.advance(1)
    countdown = phone.get(f"/rooms/{code}/play", headers=HTMX).get_data(as_text=True)
    assert f'data-ahead-url="/rooms/{code}/play?ahead=1"' in countdown and 'id="board"' not in countdown
    ahead = phone.get(f"/rooms/{code}/play?ahead=1", headers=HTMX).get_data(as_text=True)
    timer = re.search(r'<span id="timer"[^>]*>', ahead).group(0)
    started = app.extensions["ruzzle.store"].rooms.get(code).current.started
    assert 'id="board"' in ahead and f'data-server-now="{started:.3f}"' in timer
    assert f'data-remaining="{SECONDS:.3f}"' in timer
    word = words_of(app, code)[0].word
    assert send(phone, code, word).status_code == 409  # the board is there; its words count from the start
    clock.now = started + 0.5
    assert send(phone, code, word).status_code == 200
