"""Live rooms (/live/<language>) through the Flask client with a clock the test moves, on SQLite and PostgreSQL:
rounds follow the wall clock's slots, a late joiner gets what is left, words after the end do not count, the round's,
the hour's and the day's rankings add up, the percentile, the next board made ahead, the clean-up, and two app servers
on one store agreeing on the slot and its board."""

from __future__ import annotations

import datetime
import re
import threading

import pytest
from sqlalchemy import func, select

from app import create_app
from ruzzle.live import Schedule
from store.schema import room_players, room_rounds, rooms, words
from store.schema import rounds as player_rounds
from views.services import services

from .conftest import HTMX, START, Clock

PLAY, RESULTS = 20, 10
PLAN = Schedule(PLAY, RESULTS)
KEY = "test key, not a secret"


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


@pytest.fixture
def clock() -> Clock:
    """At the start of a slot."""
    return Clock(PLAN.starts(PLAN.slot_at(START) + 1))


@pytest.fixture(autouse=True)
def short_slots(app):
    app.config.update(LIVE_PLAY_SECONDS=PLAY, LIVE_RESULTS_SECONDS=RESULTS, ROOM_RANKING_SECONDS=0)


def get(client, url: str, **kwargs):
    """A GET whose answer is closed, as a server closes it once sent (what runs after the answer then runs)."""
    with client.get(url, **kwargs) as answer:
        answer.get_data()
    return answer


def join(app, nickname: str, language: str = "en"):
    phone = app.test_client()
    assert get(phone, f"/live/{language}").status_code == 200
    answer = phone.post(f"/rooms/LIVE{language.upper()}/players", data={"nickname": nickname})
    assert answer.status_code == 303 and answer.headers["Location"] == f"/rooms/LIVE{language.upper()}/play", (
        answer.get_data(as_text=True)
    )
    return phone


def page(phone, code: str = "LIVEEN") -> str:
    answer = get(phone, f"/rooms/{code}/play")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_data(as_text=True)


def board_words(app, clock, language: str = "en") -> list:
    """The words of the slot's board under way, best first, as the server has them."""
    with app.test_request_context():
        from views.live import slot_board

        return list(slot_board(language, PLAN.slot_at(clock.now)).solution())


def send(phone, word: str, code: str = "LIVEEN"):
    return phone.post(f"/rooms/{code}/words", data={"word": word}, headers=HTMX)


def remaining(html: str) -> float:
    return float(re.search(r'id="timer" class="timer[^"]*" data-remaining="([\d.]+)"', html).group(1))


def tables(html: str) -> dict[str, dict[str, int]]:
    """Each live ranking of a results page by its caption: nickname -> score."""
    found = {}
    for caption, body in re.findall(
        r'<table class="ranking live-ranking">\s*<caption>([^<]*)</caption>(.*?)</table>', html, flags=re.S
    ):
        found[caption] = {
            name: int(score.replace(",", ""))
            for name, score in re.findall(
                r'<th scope="row" class="nickname">([^<]*)</th><td class="rank-score">([\d,]+)</td>', body
            )
        }
    return found


def my_line(html: str) -> dict:
    match = re.search(r'data-rank="(\d+)" data-points="(\d+)" data-percentile="(\d*)"', html)
    return match and {"rank": int(match[1]), "points": int(match[2]), "percentile": int(match[3]) if match[3] else None}


def store_of(app):
    return app.extensions["ruzzle.store"]


def count(app, table, *where) -> int:
    with store_of(app).engine.connect() as connection:
        return connection.execute(select(func.count()).select_from(table).where(*where)).scalar_one()


# --- the page and its refusals ---------------------------------------------------------------------------------


def test_the_start_page_offers_the_live_rooms(client):
    html = client.get("/").get_data(as_text=True)
    assert "Play live with everyone" in html and 'href="/live/en"' in html and 'href="/live/it"' in html


def test_the_live_page_offers_to_join_the_round_under_way(client, clock):
    clock.advance(5)
    html = get(client, "/live/en").get_data(as_text=True)
    assert "Play live with everyone" in html and f"This round: <strong>0:{PLAY - 5:02d}</strong> left." in html
    assert 'action="/rooms/LIVEEN/players"' in html
    clock.advance(PLAY)
    html = get(client, "/live/en").get_data(as_text=True)
    assert f"the next round starts in <strong>0:{RESULTS - 5:02d}</strong>" in html


@pytest.mark.parametrize(
    "language, status, words",
    [
        ("xx", 404, "There is no live room in xx. Live rooms play in: Deutsch, English"),
        ("klingon", 404, "There is no live room in klingon."),
    ],
)
def test_an_unknown_language_is_a_404_with_a_sentence(client, language, status, words):
    answer = client.get(f"/live/{language}")
    assert answer.status_code == status and words in answer.get_data(as_text=True)


def test_a_language_in_capitals_goes_to_its_one_address(client):
    answer = client.get("/live/EN")
    assert answer.status_code == 308 and answer.headers["Location"] == "/live/en"


@pytest.mark.parametrize(
    "nickname, status, words",
    [
        ("", 422, "nickname"),
        ("x" * 21, 422, "20"),
        ("fuck", 422, "not allowed"),
    ],
)
def test_a_bad_nickname_gets_the_rooms_message(client, nickname, status, words):
    get(client, "/live/en")
    answer = client.post("/rooms/LIVEEN/players", data={"nickname": nickname})
    text = answer.get_data(as_text=True)
    assert answer.status_code == status and words in text and "Play live with everyone" in text


def test_a_taken_nickname_is_refused_and_any_name_is_given(app, client):
    join(app, "Ann")
    get(client, "/live/en")
    answer = client.post("/rooms/LIVEEN/players", data={"nickname": "ANN"})
    assert answer.status_code == 409 and "already called" in answer.get_data(as_text=True)
    assert client.post("/rooms/LIVEEN/players", data={"any": "1"}).status_code == 303


def test_a_live_room_has_no_host_and_no_way_back_banner(app, client):
    phone = join(app, "Ann")
    for action in ("start", "end", "pause", "rounds"):
        assert phone.post(f"/rooms/LIVEEN/{action}").status_code == 403
    assert get(phone, "/rooms/LIVEEN/host").status_code == 403
    assert "Back to room" not in phone.get("/").get_data(as_text=True)


def test_a_member_opening_the_live_page_goes_to_the_board(app):
    phone = join(app, "Ann")
    answer = get(phone, "/live/en")
    assert answer.status_code == 303 and answer.headers["Location"] == "/rooms/LIVEEN/play"


# --- the rounds follow the clock ----------------------------------------------------------------------------------


def test_rounds_follow_each_other_on_the_wall_clock(app, clock):
    phone = join(app, "Ann")
    first = page(phone)
    assert 'id="board"' in first and "board-play" in first and remaining(first) == PLAY
    first_words = {found.word for found in board_words(app, clock)}
    clock.advance(PLAY)
    over = page(phone)
    assert "Round over" in over and "board-play" not in over and remaining(over) == RESULTS
    clock.advance(RESULTS)
    second = page(phone)
    assert "board-play" in second and remaining(second) == PLAY
    assert {found.word for found in board_words(app, clock)} != first_words  # another board
    slot = PLAN.slot_at(clock.now)
    with store_of(app).engine.connect() as connection:
        numbers = connection.execute(
            select(room_rounds.c.number, room_rounds.c.started).order_by(room_rounds.c.number)
        ).all()
    assert [tuple(row) for row in numbers][:2] == [(slot - 1, PLAN.starts(slot - 1)), (slot, PLAN.starts(slot))]


def test_the_clock_poll_brings_the_results_then_the_next_board(app, clock):
    phone = join(app, "Ann")
    page(phone)
    slot = PLAN.slot_at(clock.now)
    clock.advance(PLAY + 1)
    answer = get(phone, f"/rooms/LIVEEN/clock?phase=playing&round={slot}", headers=HTMX)
    assert answer.headers["HX-Retarget"] == "#game" and "Round over" in answer.get_data(as_text=True)
    etag = get(phone, "/rooms/LIVEEN/play", headers=HTMX).headers["ETag"]
    results = get(phone, "/rooms/LIVEEN/play", headers={**HTMX, "If-None-Match": etag})
    assert results.status_code == 304  # the results poll, nothing new
    clock.advance(RESULTS)
    answer = get(phone, "/rooms/LIVEEN/play", headers={**HTMX, "If-None-Match": etag})
    assert answer.status_code == 200 and "board-play" in answer.get_data(as_text=True)


def test_a_late_joiner_gets_what_is_left_of_the_round(app, clock):
    clock.advance(PLAY - 6)
    phone = join(app, "Late")
    assert remaining(page(phone)) == 6
    best = board_words(app, clock)[0]
    assert send(phone, best.word).status_code == 200
    clock.advance(7)
    assert my_line(page(phone))["points"] == best.score


def test_a_player_joining_in_the_results_plays_the_next_round(app, clock):
    clock.advance(PLAY + 2)
    phone = join(app, "Ben")
    html = page(phone)
    assert "You found no word in this round" in html and remaining(html) == RESULTS - 2
    clock.advance(RESULTS - 2)
    assert remaining(page(phone)) == PLAY


def test_words_after_the_end_do_not_count(app, clock):
    phone = join(app, "Ann")
    first, second = board_words(app, clock)[:2]
    assert send(phone, first.word).status_code == 200
    clock.advance(PLAY + app.config["ROUND_GRACE_SECONDS"] + 0.5)
    late = send(phone, second.word)
    assert "do not count" in late.get_data(as_text=True) or late.headers.get("HX-Retarget") == "#game"
    clock.advance(RESULTS - app.config["ROUND_GRACE_SECONDS"] - 1)  # still the results of that round
    assert my_line(page(phone))["points"] == first.score
    clock.advance(1)
    send(phone, second.word)  # another board now: the word, if it is on it, counts there
    with store_of(app).engine.connect() as connection:
        scores = connection.execute(
            select(player_rounds.c.board_key, player_rounds.c.score).order_by(player_rounds.c.started)
        ).all()
    assert scores[0][1] == first.score


# --- results ------------------------------------------------------------------------------------------------


def test_the_percentile_on_a_constructed_round(app, clock):
    by_score = {}
    for found in board_words(app, clock):  # best first: the three best distinct scores
        by_score.setdefault(found.score, found)
    best, second, third = list(by_score.values())[:3]
    assert best.score > second.score > third.score > 0
    phones = {name: join(app, name) for name in ("Ann", "Ben", "Cat", "Dan", "Eve")}
    plays = {"Ann": [best, second], "Ben": [best], "Cat": [best], "Dan": [third], "Eve": []}
    for name, found in plays.items():
        page(phones[name])
        for word in found:
            assert send(phones[name], word.word).status_code == 200
    clock.advance(PLAY + 3)
    lines = {name: my_line(page(phones[name])) for name in plays}
    # four players found a word (Eve had the board but found none: not one of the round's players)
    assert lines["Ann"] == {"rank": 1, "points": best.score + second.score, "percentile": 100}
    assert {lines["Ben"]["percentile"], lines["Cat"]["percentile"]} == {33}  # Dan below, the other equal: 1 of 3
    assert lines["Dan"]["percentile"] == 0 and lines["Eve"] is None
    ann = page(phones["Ann"])
    assert "Better than <strong>100%</strong> of the 3 other players." in ann
    started = datetime.datetime.fromtimestamp(PLAN.starts(PLAN.slot_at(clock.now)), datetime.UTC)
    time_text = started.strftime("%H:%M")
    assert (
        f"Ruzzle live (en), {time_text} UTC: {best.score + second.score} points, better than 100% of 3 other "
        "players http://localhost/live/en"
    ) in ann
    assert tables(ann)["This round"] == {
        "Ann": best.score + second.score,
        "Ben": best.score,
        "Cat": best.score,
        "Dan": third.score,
    }
    # the words most players found, and those one player alone found, with who
    most = re.search(r"Found by most players</h2>\s*<ol[^>]*>(.*?)</ol>", ann, flags=re.S).group(1)
    assert f'>{best.word}</a> <span class="points">{best.score}</span> <span class="hint">3 players</span>' in most
    rare = re.search(r"Rare finds.*?<ol[^>]*>(.*?)</ol>", ann, flags=re.S).group(1)
    assert re.findall(r">([A-Z]+)</a>.*?<span class=\"hint\">([^<]+)</span>", rare) == [
        (second.word, "Ann"),
        (third.word, "Dan"),
    ]


def test_one_player_alone_gets_no_percentile_sentence(app, clock):
    phone = join(app, "Solo")
    send(phone, board_words(app, clock)[0].word)
    clock.advance(PLAY + 3)
    html = page(phone)
    assert my_line(html)["percentile"] is None and "Better than" not in html and "better than" not in html
    assert "Rank <strong>1</strong> of 1" in html


@pytest.mark.parametrize("boundary", ["hour", "day"])
def test_the_hours_and_days_rankings_add_up_the_rounds(app, clock, boundary):
    unit = 3600 if boundary == "hour" else 86400
    clock.now = PLAN.starts(PLAN.slot_at((START // 86400 + 1) * 86400 - (0 if boundary == "day" else 3600)) - 2)
    assert (clock.now + 2 * PLAN.slot_seconds) % unit == 0  # two rounds before the boundary, two after
    phones = {name: join(app, name) for name in ("Ann", "Ben", "Cat")}
    scores: list[dict[str, int]] = []
    for round_ in range(4):
        found = board_words(app, clock)
        taken = {
            "Ann": found[round_ : round_ + 2],
            "Ben": found[5:6],
            "Cat": found[6 + round_ : 7 + round_] if round_ % 2 else [],
        }
        for name, phone in phones.items():
            page(phone)
            for word in taken[name]:
                assert send(phone, word.word).status_code == 200
        clock.advance(PLAY + 3)
        pages = {name: tables(page(phone)) for name, phone in phones.items()}
        scores.append(pages["Ann"]["This round"])
        assert all(page_["This round"] == scores[-1] for page_ in pages.values())
        totals = pages["Ben"]
        clock.advance(RESULTS - 3)
    after = scores[2:]
    before_too = scores if boundary == "hour" else after

    def add(rounds):
        summed: dict[str, int] = {}
        for table in rounds:
            for name, score in table.items():
                summed[name] = summed.get(name, 0) + score
        return summed

    assert totals["This hour (UTC)"] == add(after)
    assert totals["Today (UTC)"] == add(before_too)
    assert add(scores) != add(after)  # the rounds before the boundary had points: the test can tell


def test_the_next_slots_round_and_board_are_made_ahead(app, clock):
    phone = join(app, "Ann")
    page(phone)
    slot = PLAN.slot_at(clock.now)
    assert count(app, room_rounds, room_rounds.c.number == slot + 1) == 1
    with app.test_request_context():
        from views.live import slot_board

        solutions = services(app).solutions.cached
        misses = solutions.cache_info().misses
        slot_board("en", slot + 1).solution()
        assert solutions.cache_info().misses == misses  # solved already
    clock.advance(PLAN.slot_seconds)
    with app.test_request_context():
        misses = solutions.cache_info().misses
    assert "board-play" in page(phone)
    # one board solved since: the slot after it, once the answer was sent; this slot's was ready
    assert solutions.cache_info().misses == misses + 1
    with app.test_request_context():
        slot_board("en", slot + 2).solution()
    assert solutions.cache_info().misses == misses + 1


def test_old_live_rounds_are_cleaned_up_after_a_day_and_an_hour(app, clock):
    old = join(app, "Old")
    send(old, board_words(app, clock)[0].word)
    clock.advance(PLAN.slot_seconds)
    recent = join(app, "Recent")
    clock.advance(24 * 3600)
    assert "board-play" in page(recent)
    send(recent, board_words(app, clock)[0].word)  # a day later: Recent plays on, Old does not
    first_slot = PLAN.slot_at(clock.now - 24 * 3600 - PLAN.slot_seconds)
    assert count(app, room_rounds, room_rounds.c.number == first_slot) == 1
    cutoff = clock.now + 2 * 3600 - 25 * 3600  # where the clean-up two hours later cuts
    assert count(app, words, words.c.found_at < cutoff) == 1 and count(app, words) == 2  # Old's, then Recent's
    clock.advance(2 * 3600)  # the first round is now 26 hours old: past what a day's ranking needs
    newcomer = join(app, "New")
    page(newcomer)
    assert count(app, room_rounds, room_rounds.c.number == first_slot) == 0
    assert count(app, room_rounds, room_rounds.c.number == first_slot + 1) == 0
    assert count(app, player_rounds, player_rounds.c.started < cutoff) == 0
    assert count(app, words, words.c.found_at < cutoff) == 0 and count(app, words) == 1  # Recent's stays
    with store_of(app).engine.connect() as connection:
        names = set(connection.execute(select(room_players.c.nickname)).scalars())
    assert "Old" not in names and "New" in names and "Recent" in names  # (Recent played within the day)
    assert get(old, "/rooms/LIVEEN/play").headers["Location"] == "/rooms/LIVEEN"  # join again


# --- several workers and servers -------------------------------------------------------------------------------------


def test_two_app_servers_on_one_store_agree_on_the_slot_and_its_board(app, clock, store_url, tmp_path):
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": KEY,
            "CLOCK": clock,
            "DATABASE_URL": store_url,
            "RATELIMIT_ENABLED": False,
            "LIVE_PLAY_SECONDS": PLAY,
            "LIVE_RESULTS_SECONDS": RESULTS,
        }
    )
    other.instance_path = str(tmp_path / "other")
    try:
        phone = join(app, "Ann")  # joins on the first server...
        words_here, words_there = board_words(app, clock), board_words(other, clock)
        assert [f.word for f in words_here] == [f.word for f in words_there]
        cookie = phone.get_cookie("session").value
        there = other.test_client()
        there.set_cookie("session", cookie)
        assert send(there, words_here[0].word).status_code == 200  # ...plays on the second
        assert send(phone, words_here[1].word).status_code == 200
        clock.advance(PLAY + 3)
        assert (
            my_line(page(there))["points"]
            == my_line(page(phone))["points"]
            == words_here[0].score + words_here[1].score
        )
        clock.advance(RESULTS)
        assert [f.word for f in board_words(app, clock)] == [f.word for f in board_words(other, clock)]
        assert count(app, rooms) == 1
    finally:
        other.extensions["ruzzle.store"].dispose()


def test_workers_opening_the_live_room_at_once_make_one_room_and_one_round(app, clock):
    barrier = threading.Barrier(8)
    answers = []

    def visit():
        phone = app.test_client()
        barrier.wait()
        answers.append(get(phone, "/live/fr").status_code)

    threads = [threading.Thread(target=visit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200] * 8
    assert count(app, rooms, rooms.c.code == "LIVEFR") == 1
    assert count(app, room_rounds, room_rounds.c.number == PLAN.slot_at(clock.now)) == 1


def test_a_live_rounds_words_and_my_rounds_pages_work_after_it(app, clock):
    phone = join(app, "Ann")
    best = board_words(app, clock)[0]
    send(phone, best.word)
    slot = PLAN.slot_at(clock.now)
    assert get(phone, f"/rooms/LIVEEN/words?round={slot}").status_code == 409  # not while the round runs
    clock.advance(PLAY + 3)
    link = re.search(r'href="(/rooms/LIVEEN/words\?round=\d+)"', page(phone)).group(1)
    assert link == f"/rooms/LIVEEN/words?round={slot}"
    words_page = get(phone, link)
    assert words_page.status_code == 200 and best.word in words_page.get_data(as_text=True)
    assert get(phone, f"/rooms/LIVEEN/words?round={slot - 1}").status_code == 404  # not this room's round now
    mine = get(phone, "/me")
    assert mine.status_code == 200 and best.word in mine.get_data(as_text=True)


def test_a_live_rooms_pupil_reading_a_meaning_is_left_to_read(app, clock):
    """Live rounds run back to back: the poll of a page read between them swaps itself out instead of leading back."""
    phone = join(app, "Ada")
    answer = get(phone, "/rooms/LIVEEN/next", headers=HTMX)
    assert (answer.status_code, answer.get_data(as_text=True)) == (200, "") and "HX-Redirect" not in answer.headers
