"""Live rooms through the Flask client, on SQLite and on PostgreSQL: every URL of the contract, every refusal
(non-host actions, nicknames, words before the start and after the end, unknown codes, a full room), the ranking
and its ties, the CSV, more rounds, the match preset, expiry, and 30 players sending words at once."""

from __future__ import annotations

import csv
import io
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import views.rooms.results
from ruzzle import sort_found
from ruzzle.rules import Multiplier
from store.rooms import CODE_ALPHABET, EXPIRY_SECONDS
from views.rooms import COUNTDOWN, room_board

from .conftest import HTMX
from .helpers import JSON, SECONDS, SEED, join, message, open_room, send, start, walk_word, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")  # the ranking as it is at each request


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


def ranking(client, code: str) -> list[tuple[str, int, int]]:
    players = client.get(f"/rooms/{code}/leaderboard", headers=JSON).get_json()["players"]
    return [(p["nickname"], p["score"], p["words"]) for p in players]


# --- opening and joining -----------------------------------------------------------------------------------


def test_the_start_page_offers_a_room_with_its_settings(client):
    page = client.get("/").get_data(as_text=True)
    assert 'formaction="/rooms" formmethod="post">Play with a class / with friends</button>' in page
    assert 'name="preset"' in page and 'action="/rooms" method="get"' in page


def test_opening_a_room_gives_a_code_and_the_host_view(client):
    code = open_room(client)
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    page = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert f'<p class="join-seed room-code">{code}</p>' in page
    assert "<svg" in page and f"/rooms/{code}</p>" in page.replace("<wbr>", "")
    assert ">Start</button>" in page


@pytest.mark.parametrize(
    "form, status, words",
    [
        ({"time": "0"}, 400, "needs a time limit"),
        ({"preset": "marathon"}, 400, "one board a round"),
        ({"language": "xx"}, 404, "no language"),
        ({"size": "40x40"}, 400, "1 to 12 rows"),
        ({"time": "2"}, 400, "5 to 3600 seconds"),
    ],
)
def test_a_room_with_bad_settings_is_refused_with_a_message(client, form, status, words):
    answer = client.post("/rooms", data={"language": "en", "time": "60", **form})
    assert answer.status_code == status and words in answer.get_data(as_text=True)


def test_a_code_typed_in_any_case_finds_the_room(client):
    code = open_room(client)
    answer = client.get(f"/rooms?code= {code.lower()} ")
    assert answer.status_code == 303 and answer.headers["Location"] == f"/rooms/{code}"
    assert client.get(f"/rooms/{code.lower()}").status_code == 308
    assert client.get("/rooms?code=").status_code == 400


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/rooms/{code}"),
        ("post", "/rooms/{code}/players"),
        ("get", "/rooms/{code}/play"),
        ("post", "/rooms/{code}/words"),
        ("get", "/rooms/{code}/host"),
        ("post", "/rooms/{code}/start"),
        ("get", "/rooms/{code}/leaderboard"),
        ("get", "/rooms/{code}/results.csv"),
        ("post", "/rooms/{code}/players/1/remove"),
        ("post", "/rooms/{code}/rounds"),
        ("get", "/rooms/{code}/projector"),
        ("get", "/rooms?code={code}"),
        ("get", "/rooms/{code}/results.xlsx"),
    ],
)
@pytest.mark.parametrize("code", ["ZZZZZZ", "not-a-code", "O0I1L"])
def test_an_unknown_code_is_a_404_that_says_so(client, method, path, code):
    answer = getattr(client, method)(path.format(code=code))
    assert answer.status_code == 404
    assert f"There is no room {code.upper()}" in answer.get_data(as_text=True)


def test_joining_takes_a_trimmed_nickname_and_lists_it(app, client):
    code = open_room(client)
    phone = join(app, code, "  Ada   Lovelace ")
    page = phone.get(f"/rooms/{code}/play").get_data(as_text=True)
    assert "Waiting for the host to start" in page and '<li class="room-me">Ada Lovelace</li>' in page
    assert "Ada Lovelace" in client.get(f"/rooms/{code}/host").get_data(as_text=True)
    # the same browser joining again keeps its place and name
    assert phone.get(f"/rooms/{code}").headers["Location"] == f"/rooms/{code}/play"


@pytest.mark.parametrize(
    "nickname, status, words",
    [
        ("", 422, "Type a nickname"),
        ("   ", 422, "Type a nickname"),
        ("A" * 21, 422, "at most 20 characters"),
        ("crap", 422, "not allowed in class"),
        ("xXcrapXx", 422, "not allowed in class"),  # a whole word in a gamer tag's frame
        ("Sh1tface", 422, "not allowed in class"),  # a digit for a letter, a reviewed compound
        ("f u c k", 422, "not allowed in class"),  # spaced out
        ("BICOT", 422, "not allowed in class"),  # French
        ("neger123", 422, "not allowed in class"),  # Dutch, digits apart
        ("Ada\u200bx", 422, "letters, digits, spaces"),  # an invisible character
    ],
)
def test_a_bad_nickname_is_refused_with_a_message(app, client, nickname, status, words):
    code = open_room(client)
    answer = app.test_client().post(f"/rooms/{code}/players", data={"nickname": nickname})
    assert answer.status_code == status and words in message(answer)
    assert ranking(client, code) == []


@pytest.mark.parametrize(
    "taken, again",
    [
        ("Anna", "anna"),
        ("Anna", " ANNA "),
        ("Zoë", "Zoe"),
        ("Anna", "\u0410nna"),  # a Cyrillic A
        ("Anna", "\U0001d400nna"),  # a mathematical bold A
        ("Anna", "\u1d00\u0274\u0274\u1d00"),  # small capitals
        ("\u0410nna", "Anna"),
    ],
)
def test_a_nickname_is_unique_in_the_room_and_the_refusal_shows_who_has_it(app, client, taken, again):
    code = open_room(client)
    join(app, code, taken)
    answer = app.test_client().post(f"/rooms/{code}/players", data={"nickname": again})
    assert answer.status_code == 409 and f"already called {taken}." in message(answer)
    assert [name for name, _, _ in ranking(client, code)] == [taken]


def test_any_name_gives_a_friendly_unused_name(app, client):
    code = open_room(client)
    for _ in range(5):
        phone = app.test_client()
        assert phone.post(f"/rooms/{code}/players", data={"nickname": "", "any": "1"}).status_code == 303
    names = [name for name, _, _ in ranking(client, code)]
    assert len(set(names)) == 5 and all(re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+|[A-Z][a-z]+ \d+", n) for n in names)


def test_any_name_speaks_the_rooms_language(app, client):
    from ruzzle.nicknames import friendly_name

    code = open_room(client, language="it")
    phone = app.test_client()
    assert phone.post(f"/rooms/{code}/players", data={"nickname": "", "any": "1"}).status_code == 303
    name = ranking(client, code)[0][0]
    italian = {friendly_name((), "it") for _ in range(300)}
    english = {friendly_name((), "en") for _ in range(300)}
    assert name not in english and any(name.split()[0] == other.split()[0] for other in italian)


@pytest.mark.parametrize(
    "nickname",
    [
        "Peter",
        "Mona",
        "Pippa",
        "Janusz",
        "Maricarmen",
        "Analisa",
        "Dickens",
        "Shital",
        "Anusha",
        "Constantin",
        "Consuelo",
        "Mariano",
    ],
)
def test_real_childrens_names_join_the_room(app, client, nickname):
    code = open_room(client)
    join(app, code, nickname)
    assert ranking(client, code) == [(nickname, 0, 0)]


def test_a_room_is_full_at_its_limit(app, client):
    app.config["ROOM_PLAYERS"] = 3
    code = open_room(client)
    for name in ("A1", "B2", "C3"):
        join(app, code, name)
    answer = app.test_client().post(f"/rooms/{code}/players", data={"nickname": "D4"})
    assert answer.status_code == 409 and "This room is full (3 players)" in message(answer)


# --- the host's actions --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/rooms/{code}/host"),
        ("post", "/rooms/{code}/start"),
        ("get", "/rooms/{code}/results.csv"),
        ("get", "/rooms/{code}/results.xlsx"),
        ("post", "/rooms/{code}/players/{player}/remove"),
        ("post", "/rooms/{code}/rounds"),
        ("get", "/rooms/{code}/projector"),
    ],
)
def test_only_the_host_may_run_the_room(app, client, method, path):
    code = open_room(client)
    phone = join(app, code, "Ada")
    player_id = re.search(r"/players/(\d+)/remove", client.get(f"/rooms/{code}/host").get_data(as_text=True)).group(1)
    for stranger in (phone, app.test_client()):
        answer = getattr(stranger, method)(path.format(code=code, player=player_id))
        assert answer.status_code == 403 and "Only the host of room" in answer.get_data(as_text=True)
    assert ranking(client, code) == [("Ada", 0, 0)]


def test_the_host_removes_a_player_and_their_name(app, client, clock):
    code = open_room(client)
    join(app, code, "Ada")
    bruno = join(app, code, "Bruno")
    start(client, clock, code)
    word = words_of(app, code)[0]
    assert send(bruno, code, word.word).status_code == 200
    assert "Bruno" in client.get(f"/rooms/{code}/leaderboard?all=1").get_data(as_text=True)
    rooms = app.extensions["ruzzle.store"].rooms
    bruno_id = next(p.id for p in rooms.players(rooms.get(code).id) if p.nickname == "Bruno")
    assert client.post(f"/rooms/{code}/players/{bruno_id}/remove").status_code == 303
    assert ranking(client, code) == [("Ada", 0, 0)]
    assert send(bruno, code, words_of(app, code)[1].word).status_code == 403
    assert bruno.get(f"/rooms/{code}/play").headers["Location"] == f"/rooms/{code}"
    assert client.post(f"/rooms/{code}/players/{bruno_id}/remove").status_code == 404


# --- playing ------------------------------------------------------------------------------------------------


def test_a_word_before_the_start_is_refused(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    word = words_of(app, code)[0].word
    answer = send(phone, code, word)
    assert answer.status_code == 409 and "has not started yet" in answer.get_data(as_text=True)
    client.post(f"/rooms/{code}/start")
    answer = send(phone, code, word)  # during the 3-2-1
    assert answer.status_code == 409 and "The round starts in" in answer.get_data(as_text=True)
    assert ranking(client, code) == [("Ada", 0, 0)]


def test_a_word_from_a_browser_that_has_not_joined_is_refused(app, client, clock):
    code = open_room(client)
    start(client, clock, code)
    answer = send(app.test_client(), code, words_of(app, code)[0].word)
    assert answer.status_code == 403 and "Join room" in answer.get_data(as_text=True)


def test_everyone_gets_the_board_at_the_start_and_one_deadline(app, client, clock):
    code = open_room(client)
    early = join(app, code, "Early")
    client.post(f"/rooms/{code}/start")
    countdown = early.get(f"/rooms/{code}/play").get_data(as_text=True)
    assert "The round starts in" in countdown and 'id="board"' not in countdown
    clock.advance(COUNTDOWN + 1)
    assert 'class="board board-play' in early.get(f"/rooms/{code}/play").get_data(as_text=True)
    clock.advance(SECONDS - 10)
    late = join(app, code, "Late")  # joins with 10 s left, and gets those 10 s, not a round of its own
    page = late.get(f"/rooms/{code}/play").get_data(as_text=True)
    remaining = int(re.search(r'data-remaining="(\d+)', page).group(1))
    assert remaining <= 10
    words = words_of(app, code)
    assert send(late, code, words[0].word).status_code == 200
    clock.advance(10 + app.config["ROUND_GRACE_SECONDS"] + 1)
    for phone in (early, late):
        answer = send(phone, code, words[1].word)
        assert "Time is up" in answer.get_data(as_text=True) or answer.headers.get("HX-Retarget") == "#game"
    assert ranking(client, code) == [("Late", words[0].score, 1), ("Early", 0, 0)]


def test_a_word_counts_once_and_the_answer_is_the_solo_boards(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    word = words_of(app, code)[0]
    first = send(phone, code, word.word).get_data(as_text=True)
    assert 'id="result"' in first and 'id="score"' in first
    assert f'<strong class="score">{word.score}</strong>' in first
    again = send(phone, code, word.word).get_data(as_text=True)
    assert "already found" in again
    assert phone.post(f"/rooms/{code}/words", data={"word": "QQQQ"}, headers=HTMX).status_code == 200
    assert ranking(client, code) == [("Ada", word.score, 1)]
    # without JavaScript: a redirect back to the room's page
    plain = phone.post(f"/rooms/{code}/words", data={"word": words_of(app, code)[1].word})
    assert plain.status_code == 303 and plain.headers["Location"] == f"/rooms/{code}/play"
    # a found word's path, and a word not found yet stays hidden while the round runs
    assert phone.get(f"/rooms/{code}/words/{word.word}", headers=HTMX).status_code == 200
    assert phone.get(f"/rooms/{code}/words/{words_of(app, code)[5].word}", headers=HTMX).status_code == 403


def test_ties_go_to_the_player_who_reached_the_score_first(app, client, clock):
    code = open_room(client)
    ada, bruno, chiara = (join(app, code, name) for name in ("Ada", "Bruno", "Chiara"))
    start(client, clock, code)
    word = words_of(app, code)[0]
    send(bruno, code, word.word)
    clock.advance(1)
    send(ada, code, word.word)
    assert [name for name, _, _ in ranking(client, code)] == ["Bruno", "Ada", "Chiara"]


def test_the_leaderboard_is_a_fragment_with_an_etag(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    first = client.get(f"/rooms/{code}/leaderboard", headers=HTMX)
    assert first.status_code == 200 and first.get_data(as_text=True).lstrip().startswith('<section id="leaderboard"')
    etag = first.headers["ETag"]
    assert client.get(f"/rooms/{code}/leaderboard", headers={**HTMX, "If-None-Match": etag}).status_code == 304
    send(phone, code, words_of(app, code)[0].word)
    changed = client.get(f"/rooms/{code}/leaderboard", headers={**HTMX, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert f'If-None-Match": "\\"{changed.headers["ETag"].strip(chr(34))}' in changed.get_data(as_text=True)


def test_the_waiting_page_answers_304_until_someone_joins(app, client):
    code = open_room(client)
    phone = join(app, code, "Ada")
    etag = phone.get(f"/rooms/{code}/play", headers=HTMX).headers["ETag"]
    assert phone.get(f"/rooms/{code}/play", headers={**HTMX, "If-None-Match": etag}).status_code == 304
    compressed = etag[:-1] + ':br"'  # the tag flask-compress gives a compressed answer
    assert phone.get(f"/rooms/{code}/play", headers={**HTMX, "If-None-Match": compressed}).status_code == 304
    join(app, code, "Bruno")
    assert phone.get(f"/rooms/{code}/play", headers={**HTMX, "If-None-Match": etag}).status_code == 200


# --- the end ---------------------------------------------------------------------------------------------------


def play_a_round(app, client, clock, code):
    """Ada finds words 0-2, Bruno 1 and 3, Chiara nothing; the round ends."""
    phones = {name: join(app, code, name) for name in ("Ada", "Bruno", "Chiara")}
    start(client, clock, code)
    words = words_of(app, code)
    for name, picks in (("Ada", (0, 1, 2)), ("Bruno", (1, 3))):
        for i in picks:
            assert send(phones[name], code, words[i].word).status_code == 200
    clock.advance(SECONDS + 10)
    return phones, words


def test_after_the_end_each_player_sees_rank_percentile_and_the_rooms_words(app, client, clock):
    code = open_room(client)
    phones, words = play_a_round(app, client, clock, code)
    page = phones["Bruno"].get(f"/rooms/{code}/play").get_data(as_text=True)
    assert "Rank <strong>2</strong> of 3" in page and "You did better than 50% of the room" in page
    only_bruno = page.split("<h2>Only you found</h2>")[1].split("</ol>")[0]
    assert words[3].word in only_bruno and words[1].word not in only_bruno
    assert "<h2>Nobody found" in page and words[4].word in page.split("<h2>Nobody found")[1]


def test_the_host_sees_the_podium_and_the_class_view(app, client, clock):
    code = open_room(client)
    _, words = play_a_round(app, client, clock, code)
    page = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    podium = re.findall(r'<span class="podium-name">([^<]+)</span>', page)
    assert podium == ["Ada", "Bruno", "Chiara"]
    assert f'<strong lang="en">{words[0].word}</strong> ({words[0].score}) by Ada' in page
    # (each word a link to its meaning)
    assert f'<strong lang="en">{words[1].word}</strong></a> <span class="hint">2 players</span>' in page
    assert f"/play/en/{SEED}" in page


def test_the_walk_through_says_who_found_each_word(app, client, clock):
    code = open_room(client)
    assert client.get(f"/rooms/{code}/projector").status_code == 409
    _, words = play_a_round(app, client, clock, code)
    steps = {step: client.get(f"/rooms/{code}/projector?step={step}").get_data(as_text=True) for step in (1, 2, 5)}
    assert "Found by <strong>Ada, Bruno</strong>" in steps[1] and words[1].word in steps[1]  # the most found first
    assert "Found by <strong>Ada</strong>" in steps[2] and words[0].word in steps[2]
    assert "Nobody found it" in steps[5]


@pytest.mark.parametrize("order", ["score", "length"])
def test_the_walk_through_starts_with_the_words_the_class_found_most_found_first(app, client, clock, order):
    code = open_room(client, size="3x3")  # every step of the walk is asked: a 3x3 board's 61 words, not 432
    phones = {name: join(app, code, name) for name in ("Ada", "Bruno", "Chiara")}
    start(client, clock, code)
    words = words_of(app, code)
    best, second, third = (found.word for found in words[:3])
    for name, found in (("Ada", [second, third]), ("Bruno", [second, third]), ("Chiara", [best, third])):
        for word in found:
            assert send(phones[name], code, word).status_code == 200
    clock.advance(SECONDS + 10)
    nobody = [found.word for found in sort_found(words, order) if found.word not in (best, second, third)]
    walk = [walk_word(client, code, step, order) for step in range(1, len(words) + 1)]
    assert walk[:3] == [
        (third, "Found by Ada, Bruno, Chiara"),
        (second, "Found by Ada, Bruno"),
        (best, "Found by Chiara"),
    ]  # the rare find last of the class's words, with its finder
    assert walk[3:] == [(word, "Nobody found it") for word in nobody]  # then nobody's words, in the walk's order
    assert walk_word(client, code, len(words) + 1, order) == walk[-1]  # a step past the end shows the last word


def test_the_remote_steps_through_the_class_first_walk(app, client, clock):
    code = open_room(client)
    _, words = play_a_round(app, client, clock, code)
    for _ in range(3):  # the first opens the walk-through (step 0), then two words
        assert client.post(f"/rooms/{code}/walk", data={"step": "next"}).status_code == 303
    answer = client.get(f"/rooms/{code}/walk?round=1&step=0", headers=HTMX)
    assert answer.headers["HX-Redirect"] == f"/rooms/{code}/projector?step=2"
    assert walk_word(client, code, 2) == (words[0].word, "Found by Ada")  # after Ada and Bruno's word
    remote = client.get(f"/rooms/{code}/remote").get_data(as_text=True)
    assert f"Word 2 of {len(words)}" in remote


def test_the_csv_has_a_row_per_player_that_matches_the_ranking(app, client, clock):
    code = open_room(client)
    _, words = play_a_round(app, client, clock, code)
    answer = client.get(f"/rooms/{code}/results.csv")
    assert answer.mimetype == "text/csv" and f"ruzzle-room-{code}.csv" in answer.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.get_data().decode("utf-8-sig"))))
    assert [(r["nickname"], int(r["score"]), int(r["words found"]), int(r["rank"])) for r in rows] == [
        ("Ada", words[0].score + words[1].score + words[2].score, 3, 1),
        ("Bruno", words[1].score + words[3].score, 2, 2),
        ("Chiara", 0, 0, 3),
    ]
    assert rows[1]["words"].split() == sorted([words[1].word, words[3].word])


def test_a_nickname_a_spreadsheet_would_run_is_written_as_text(app, client):
    code = open_room(client)
    join(app, code, "=1+2")
    rows = list(csv.reader(io.StringIO(client.get(f"/rooms/{code}/results.csv").get_data().decode("utf-8-sig"))))
    assert rows[1][0] == "'=1+2"


def test_another_round_on_a_fresh_board_and_the_total(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    assert client.post(f"/rooms/{code}/rounds").status_code == 409  # not before the end
    start(client, clock, code)
    first = words_of(app, code)[0]
    send(phone, code, first.word)
    clock.advance(SECONDS + 10)
    assert client.post(f"/rooms/{code}/rounds").status_code == 303
    assert client.post(f"/rooms/{code}/rounds").status_code == 409  # a second press: round 2 is waiting
    assert "Waiting for the host" in phone.get(f"/rooms/{code}/play").get_data(as_text=True)
    start(client, clock, code)
    second = words_of(app, code)[0]
    assert [w.word for w in words_of(app, code)] != [first.word]
    send(phone, code, second.word)
    board = client.get(f"/rooms/{code}/leaderboard", headers=JSON).get_json()
    assert board["rounds"] == 2 and board["players"][0]["rounds"] == [first.score, second.score]
    assert board["players"][0]["score"] == first.score + second.score


def test_the_match_preset_grows_the_bonus_tiles_by_round_and_the_next_match_starts_over(app, client, clock):
    code = open_room(client, preset="match")
    counts = []
    for _round_number in (1, 2, 3, 4):
        with app.test_request_context():
            room = app.extensions["ruzzle.store"].rooms.get(code)
            board = room_board(room).board()
        counts.append({m: sum(t.multiplier is m for t in board.tiles) for m in Multiplier})
        start(client, clock, code)
        clock.advance(SECONDS + 10)
        client.post(f"/rooms/{code}/rounds")
    assert [(c[Multiplier.DL], c[Multiplier.TL], c[Multiplier.DW], c[Multiplier.TW]) for c in counts] == [
        (1, 1, 0, 0),
        (1, 1, 1, 0),
        (1, 2, 2, 1),
        (1, 1, 0, 0),
    ]
    page = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert ">Start round 2 of 3 in match 2</button>" in page and "Ruzzle match, round 2 of 3 in match 2" in page


def test_a_room_closes_a_day_after_its_last_game(app, client, clock):
    code = open_room(client)
    clock.advance(EXPIRY_SECONDS + 1)
    answer = app.test_client().get(f"/rooms/{code}")
    assert answer.status_code == 404 and "A room closes a day after its last game:" in answer.get_data(as_text=True)


# --- many players at once ----------------------------------------------------------------------------------------


def test_thirty_players_send_ten_words_each_at_once_and_every_point_is_counted(app, client, clock):
    code = open_room(client)
    players = 30
    barrier = threading.Barrier(players)
    phones = {}

    def join_at_once(i: int) -> None:
        barrier.wait()
        phones[i] = join(app, code, f"Player {i:02d}")

    with ThreadPoolExecutor(players) as pool:
        list(pool.map(join_at_once, range(players)))
    start(client, clock, code)
    words = words_of(app, code)
    accepted: dict[str, int] = {}
    barrier = threading.Barrier(players)

    def play(i: int) -> None:
        barrier.wait()
        total = 0
        for k in range(10):
            word = words[(i + 7 * k) % len(words)]
            answer = send(phones[i], code, word.word)
            assert answer.status_code == 200
            if "result-found" in answer.get_data(as_text=True):
                total += word.score
        accepted[f"Player {i:02d}"] = total

    with ThreadPoolExecutor(players) as pool:
        list(pool.map(play, range(players)))
    board = {name: score for name, score, _ in ranking(client, code)}
    assert board == accepted and len(board) == players
    rows = list(csv.DictReader(io.StringIO(client.get(f"/rooms/{code}/results.csv").get_data().decode("utf-8-sig"))))
    assert {r["nickname"]: int(r["score"]) for r in rows} == accepted
    assert all(len(r["words"].split()) == int(r["words found"]) for r in rows)


@pytest.mark.parametrize("header", ['""', "", "*", 'W/"x", "y:gzip"', "garbage"])
def test_any_if_none_match_header_is_answered(app, client, header):
    code = open_room(client)
    answer = client.get(f"/rooms/{code}/leaderboard", headers={**HTMX, "If-None-Match": header})
    assert answer.status_code == 200 and 'id="leaderboard"' in answer.get_data(as_text=True)


class Monotonic:
    """time.monotonic as the test moves it."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_the_polled_ranking_is_at_most_a_second_old(app, client, clock, monkeypatch):
    app.config["ROOM_RANKING_SECONDS"] = 1
    worker_clock = Monotonic()  # the worker's clock, which the ranking's cache keeps its age by
    monkeypatch.setattr(views.rooms.results, "time", worker_clock)
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    assert ranking(client, code) == [("Ada", 0, 0)]
    word = words_of(app, code)[0]
    send(phone, code, word.word)
    assert ranking(client, code) == [("Ada", 0, 0)]  # the same second: the ranking polls share
    worker_clock.now += 0.9
    assert ranking(client, code) == [("Ada", 0, 0)]
    worker_clock.now += 0.2
    assert ranking(client, code) == [("Ada", word.score, 1)]


def test_a_rooms_link_opened_fresh_speaks_the_rooms_language(app, client):
    code = open_room(client, language="it")
    for browser in ({}, {"Accept-Language": "de"}):  # the room's language comes before the browser's
        page = app.test_client().get(f"/rooms/{code}", headers=browser).get_data(as_text=True)
        assert '<html lang="it"' in page and "Join room" not in page and "Your nickname" not in page
