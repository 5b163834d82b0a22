"""Abuse has a price (issue 20): per-client limits on joining rooms, trying room codes, opening rooms and sending
words, counted on a clock the test moves (Flask-Limiter's counts read time.time, which time-machine moves with the
app's clock: no sleeping through a window); a code that names no open room answers the same whether or not the room
ever was; a room's ranking is for its players and hosts; behind RUZZLE_PROXY_FIX, Secure cookies, the Origin's
scheme checked, and the client's address as the proxy reports it.

Run with -s to see the counts each burst got (2xx/3xx and other answers against 429s)."""

from __future__ import annotations

import random
import re
import time
from collections import Counter

import pytest
import time_machine
from conftest import copy_of_migrated
from sqlalchemy import event

from app import create_app
from store.rooms import CODE_ALPHABET, CODE_LENGTH, EXPIRY_SECONDS
from views.rooms import COUNTDOWN, room_board
from views.services import services

from .conftest import HTMX, START, Clock, one_tests_app

SCHOOL = "203.0.113.7"  # a school's one public address (documentation ranges, RFC 5737)
SCRIPT = "198.51.100.9"
TEACHER = "192.0.2.1"
PROXY = "10.0.0.2"  # the HTTPS proxy in front of the servers
SEED = "ABUSE7"
JSON = {"Accept": "application/json"}


class TravellingClock(Clock):
    """The app's clock and the machine's (time.time, which the limits read), standing still together until moved."""

    def __init__(self, traveller):
        super().__init__(START)
        self.traveller = traveller

    def advance(self, seconds: float) -> None:
        super().advance(seconds)
        self.traveller.shift(seconds)


@pytest.fixture
def clock():
    with time_machine.travel(START, tick=False) as traveller:
        yield TravellingClock(traveller)


def make_app(clock, tmp_path, **settings):
    tmp_path.mkdir(exist_ok=True)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test key, not a secret",
            "CLOCK": clock,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'store.sqlite3'}",
            "ROOM_RANKING_SECONDS": 0,
            **settings,
        }
    )
    app.instance_path = str(tmp_path / "instance")
    return app


@pytest.fixture(scope="module")
def limited_app(tmp_path_factory, migrated_store):
    """The app with its limits as they ship (the other web tests turn them off), made once for this module."""
    folder = tmp_path_factory.mktemp("limited")
    app = make_app(Clock(), folder, DATABASE_URL=copy_of_migrated(migrated_store, folder / "store.sqlite3"))
    yield app
    services(app).store.dispose()


@pytest.fixture
def app(limited_app, clock, tmp_path, store_url):
    """The limited app as one test sees it: its own store, clock and settings, and counts that start at nothing."""
    services(limited_app).limiter.reset()
    with one_tests_app(limited_app, clock, store_url, tmp_path / "instance") as app:
        yield app


def browser(app, address: str, **headers):
    """A new browser (no cookie yet) at an address, sending these headers with every request."""
    client = app.test_client()
    client.environ_base.update(
        REMOTE_ADDR=address, **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()}
    )
    return client


def open_room(host, seconds: int = 60) -> str:
    answer = host.post("/rooms", data={"language": "en", "size": "4x4", "time": str(seconds), "seed": SEED})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return re.fullmatch(r"/rooms/([A-Z0-9]{6})/host", answer.headers["Location"]).group(1)


def join(phone, code: str, nickname: str):
    return phone.post(f"/rooms/{code}/players", data={"nickname": nickname})


def words_of(app, code: str) -> list[str]:
    with app.test_request_context():
        return [found.word for found in room_board(app.extensions["ruzzle.store"].rooms.get(code)).solution()]


def tally(statuses) -> str:
    """Counts a person reads: how many were answered, how many refused with 429."""
    counts = Counter(statuses)
    answered = sum(n for status, n in counts.items() if status != 429)
    return (
        f"{answered} answered ({', '.join(f'{s}: {n}' for s, n in sorted(counts.items()) if s != 429)}), "
        f"{counts[429]} refused with 429"
    )


def message_of(answer) -> str:
    return re.search(r'class="result-message">([^<]*)<', answer.get_data(as_text=True)).group(1)


# --- joining a room ----------------------------------------------------------------------------------------------


def test_a_class_of_150_behind_one_address_joins_within_a_minute(app, clock):
    code = open_room(browser(app, TEACHER))
    statuses = []
    for i in range(150):  # each pupil types the code, then a name: 150 in 60 s of the test's clock
        pupil = browser(app, SCHOOL)
        assert pupil.get(f"/rooms?code={code.lower()}").status_code == 303
        statuses.append(join(pupil, code, f"Pupil {i:03d}").status_code)
        clock.advance(0.4)
    print(f"\n150 pupils joining from one address in 60 s: {tally(statuses)}")
    assert statuses == [303] * 150


def test_a_script_filling_a_room_from_one_address_meets_429s(app, clock):
    app.config["ROOM_PLAYERS"] = 150  # a class's room, which the script fills before the limit stops it
    teacher = browser(app, TEACHER)
    code = open_room(teacher)
    statuses = [browser(app, SCRIPT).post(f"/rooms/{code}/players", data={"any": "1"}).status_code for _ in range(400)]
    print(f"\n400 joins from one address at once: {tally(statuses)}")
    assert Counter(statuses) == {303: 150, 409: 50, 429: 200}  # the room takes 150, then it is full, then refused
    # the teacher removes a bot: the script does not get the seat back within the minute
    seat = teacher.get(f"/rooms/{code}/leaderboard?all=1", headers=JSON).get_json()["players"]
    assert len(seat) == 150
    players = app.extensions["ruzzle.store"].rooms.players(app.extensions["ruzzle.store"].rooms.get(code).id)
    assert teacher.post(f"/rooms/{code}/players/{players[0].id}/remove").status_code == 303
    again = browser(app, SCRIPT).post(f"/rooms/{code}/players", data={"any": "1"})
    assert again.status_code == 429 and again.headers["Retry-After"] == "61"
    assert message_of(again) == (
        "Many players joined rooms from this network in a short time. Wait 61 seconds, then try again."
    )
    assert join(browser(app, SCHOOL), code, "Ada").status_code == 303  # a pupil elsewhere takes it
    clock.advance(61)  # as Retry-After said
    assert browser(app, SCRIPT).post(f"/rooms/{code}/players", data={"any": "1"}).status_code == 409  # full again


# --- guessing room codes -----------------------------------------------------------------------------------------


def guesses(count: int) -> list[str]:
    draw = random.Random(20)
    return ["".join(draw.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)) for _ in range(count)]


def test_guessing_codes_from_one_address_meets_429s_and_a_hit_looks_like_a_miss(app, clock):
    teacher = browser(app, TEACHER)
    code = open_room(teacher)
    guesser = browser(app, SCRIPT)
    statuses = [
        guesser.get(f"/rooms?code={guess}" if i % 2 else f"/rooms/{guess}").status_code
        for i, guess in enumerate(guesses(1000))
    ]
    print(f"\n1,000 code guesses from one address at once: {tally(statuses)}")
    assert Counter(statuses) == {404: 60, 429: 940}
    refused = guesser.get(f"/rooms/{code}")  # the real code now answers as the misses do: nothing to tell apart
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "61"
    assert message_of(refused) == (
        "Many room codes that name no room were tried from this network. Wait 61 seconds, then try again."
    )
    assert guesser.get(f"/rooms/{code}/leaderboard", headers=JSON).status_code == 429
    assert teacher.get(f"/rooms/{code}/host").status_code == 200  # other addresses are not concerned
    clock.advance(61)
    assert guesser.get(f"/rooms/{code}").status_code == 200


def test_the_board_code_field_tells_no_room_from_none_once_the_count_is_full(app, clock):
    """The start form offers to join a room whose code is typed as a board code; a guess there counts as a room code
    tried, and once the count is full every code plays its board (no offer, no 429): nothing to tell rooms by."""
    code = open_room(browser(app, TEACHER))
    guesser = browser(app, SCRIPT)
    statuses = [guesser.get(f"/new?language=en&seed={guess}").status_code for guess in guesses(100) if guess != code]
    print(f"\n100 code guesses through the board code field: {tally(statuses)}")
    assert set(statuses) == {303}
    assert guesser.get(f"/new?language=en&seed={code}").status_code == 303  # the count is full: a board, no offer
    assert guesser.get(f"/rooms/{code}").status_code == 429  # the field's guesses counted as the room pages' do
    assert browser(app, SCHOOL).get(f"/new?language=en&seed={code}").status_code == 200  # another address: the offer
    clock.advance(61)
    assert guesser.get(f"/new?language=en&seed={code}").status_code == 200


def test_a_class_mistyping_codes_still_joins_and_players_keep_playing_when_the_count_is_full(app, clock):
    code = open_room(browser(app, TEACHER))
    pupil = browser(app, SCHOOL)
    assert join(pupil, code, "Ada").status_code == 303
    for guess in guesses(30):  # half a class mistypes the code: counted, never refused
        assert browser(app, SCHOOL).get(f"/rooms?code={guess}").status_code == 404
    assert browser(app, SCHOOL).get(f"/rooms?code={code}").status_code == 303
    guesser = browser(app, SCHOOL)
    for guess in guesses(100)[30:]:  # someone at the school guesses on: the address's count is full
        guesser.get(f"/rooms/{guess}")
    assert guesser.get(f"/rooms/{code}").status_code == 429  # the guesser's browser is refused every code
    assert browser(app, SCHOOL).get(f"/rooms/{code}", follow_redirects=True).status_code == 200  # a newcomer joins
    assert pupil.get(f"/rooms/{code}/play").status_code == 200  # who is in the room plays on
    assert pupil.get(f"/rooms/{code}/leaderboard", headers=JSON).status_code == 200


def test_1500_wrong_codes_from_one_browser_leave_a_real_room_open_to_a_new_browser_at_that_address(app, clock):
    """The measured defect: a pupil's 1,500 wrong codes in 6.5 minutes shut the whole school out for an hour."""
    code = open_room(browser(app, TEACHER))
    guesser = browser(app, SCHOOL)
    began = time.perf_counter()
    statuses = []
    for i, guess in enumerate(guesses(1500)):
        statuses.append(guesser.get(f"/rooms?code={guess}" if i % 2 else f"/rooms/{guess}").status_code)
        clock.advance(0.26)  # 1,500 tries in 6.5 minutes
    took = time.perf_counter() - began
    print(f"\n1,500 wrong codes from one browser in 6.5 minutes (run in {took:.1f} s): {tally(statuses)}")
    assert Counter(statuses) == {404: 300, 429: 1200}  # 60 a minute, 300 an hour
    assert guesser.get(f"/rooms/{code}").status_code == 429  # a hit reads as a miss for the guesser
    newcomer = browser(app, SCHOOL)
    opened = newcomer.get(f"/rooms/{code}", follow_redirects=True)
    print(f"a new browser at that address: {[r.status_code for r in opened.history]} then {opened.status_code}")
    assert opened.status_code == 200 and 'name="nickname"' in opened.get_data(as_text=True)
    assert join(newcomer, code, "Ada").status_code == 303


def test_a_guesser_that_drops_its_cookie_learns_nothing_once_the_count_is_full(app, clock):
    code = open_room(browser(app, TEACHER))
    statuses = []
    for guess in guesses(1500):
        statuses.append(browser(app, SCRIPT).get(f"/rooms/{guess}").status_code)  # a new browser every time
        clock.advance(0.26)
    print(f"\n1,500 wrong codes, a new cookie-less browser each: {tally(statuses)}")
    assert Counter(statuses) == {404: 300, 303: 1200}  # then only "come back with the cookie", room or not
    assert browser(app, SCRIPT).get(f"/rooms/{code}").status_code == 303
    assert browser(app, SCRIPT).get(f"/rooms/{code}", follow_redirects=True).status_code == 200


def test_new_browsers_at_a_guessing_address_open_a_real_room_up_to_the_new_browsers_count(app, clock):
    """Past LIMIT_CODE_NEW_BROWSERS (400 an hour) while the address's count is full, a browser new to the site waits:
    else a script that takes a new cookie for every few tries would learn which codes are rooms at its own speed."""
    code = open_room(browser(app, TEACHER))
    guesser = browser(app, SCRIPT)
    for guess in guesses(300):
        guesser.get(f"/rooms/{guess}")
        clock.advance(1.1)  # the address's hour is full
    opened = 0
    for _ in range(450):
        clock.advance(6)
        fresh = browser(app, SCRIPT)
        assert fresh.get(f"/rooms/{code}").status_code == 303  # its cookie first
        if fresh.get(f"/rooms/{code}").status_code != 200:
            break
        opened += 1
    print(f"\nnew browsers that opened the room at the guessing address: {opened}")
    assert opened == 400 - 1  # the guesser's own browser was the first new one


# --- wrong rejoin and class codes, per seat --------------------------------------------------------------------


@pytest.mark.parametrize("place", ["room", "class list"])
def test_wrong_codes_close_the_seat_for_everyone_after_five(app, clock, place):
    code, right = seated_pupil(app, place)
    guesser = browser(app, SCRIPT)
    began = time.perf_counter()
    statuses = [
        guesser.post(f"/rooms/{code}/players", data={"nickname": "Ada", "code": guess}).status_code
        for guess in rejoin_guesses(100, right)  # (under the joins' count of the address: 200 a minute)
    ]
    print(f"\n100 codes for one seat ({place}) at once, in {time.perf_counter() - began:.1f} s: {tally(statuses)}")
    assert Counter(statuses) == {403 if place == "class list" else 409: 5, 429: 95}
    for someone in (guesser, browser(app, SCHOOL)):  # the right code too, from any address: nothing to tell it by
        refused = someone.post(f"/rooms/{code}/players", data={"nickname": "Ada", "code": right})
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "601"
        assert "Too many wrong codes were typed for this name" in refused.get_data(as_text=True)
    clock.advance(601)
    back = browser(app, SCHOOL).post(f"/rooms/{code}/players", data={"nickname": "Ada", "code": right})
    assert back.status_code == 303


def seated_pupil(app, place: str) -> tuple[str, str]:
    """A room with Ada in it (her rejoin code), or a room for a class list with Ada on it (her class code)."""
    teacher = browser(app, TEACHER)
    if place == "room":
        code = open_room(teacher)
        ada = browser(app, SCHOOL)
        assert join(ada, code, "Ada").status_code == 303
        page = ada.get(f"/rooms/{code}/play").get_data(as_text=True)
        return code, re.search(r'data-rejoin-code="([A-Z0-9]+)"', page)[1]
    link = teacher.post("/classes", data={"name": "7B", "pupils": "Ada\nBruno"}).headers["Location"]
    pupils = teacher.get(link, headers=JSON).get_json()["pupils"]
    form = {"language": "en", "size": "4x4", "time": "60", "seed": SEED}
    form.update({"class": link.split("/")[2].split("?")[0], "class_key": link.split("key=")[1]})
    code = re.search(r"/rooms/([A-Z0-9]{6})/host", teacher.post("/rooms", data=form).headers["Location"])[1]
    return code, next(pupil["code"] for pupil in pupils if pupil["nickname"] == "Ada")


@pytest.mark.parametrize("place", ["room", "class list"])
def test_a_seat_takes_ten_wrong_codes_an_hour_from_every_address_together(app, clock, place):
    code, right = seated_pupil(app, place)
    answered = Counter()
    for i, guess in enumerate(rejoin_guesses(600, right)):  # one every 6 s for an hour, each from its own address
        guesser = browser(app, f"198.51.{i // 250}.{i % 250}")
        answered[guesser.post(f"/rooms/{code}/players", data={"nickname": "Ada", "code": guess}).status_code] += 1
        clock.advance(6)
    print(f"\n600 wrong codes for one seat ({place}) in an hour, each from its own address: {dict(answered)}")
    assert answered[429] == 590 and sum(answered.values()) == 600  # 10 answered (409, or 403 for a class code)


def rejoin_guesses(count: int, right: str) -> list[str]:
    draw = random.Random(4)
    drawn = ("".join(draw.choice(CODE_ALPHABET) for _ in range(4)) for _ in range(count + 1))
    return [guess for guess in drawn if guess != right][:count]


# --- opening rooms -----------------------------------------------------------------------------------------------


def test_opening_rooms_in_a_burst_meets_429s(app, clock):
    statuses = [
        browser(app, SCRIPT).post("/rooms", data={"language": "en", "size": "4x4", "time": "60"}).status_code
        for _ in range(100)
    ]
    print(f"\n100 rooms opened from one address at once: {tally(statuses)}")
    assert Counter(statuses) == {303: 20, 429: 80}
    assert open_room(browser(app, TEACHER))  # a teacher elsewhere opens theirs
    clock.advance(61)
    assert browser(app, SCRIPT).post("/rooms", data={"language": "en", "size": "4x4", "time": "60"}).status_code == 303


# --- words -------------------------------------------------------------------------------------------------------


def room_pupil(app, clock, seconds: int):
    """A pupil in a started room of `seconds` a round: the words URL, the pupil, the board's words."""
    teacher = browser(app, TEACHER)
    code = open_room(teacher, seconds)
    pupil = browser(app, SCHOOL)
    assert join(pupil, code, "Ada").status_code == 303
    assert teacher.post(f"/rooms/{code}/start").status_code == 303
    clock.advance(COUNTDOWN + 1)
    return f"/rooms/{code}/words", pupil, words_of(app, code)


def solo_pupil(app, clock, seconds: int):
    """A pupil on a solo board of `seconds` a round."""
    pupil = browser(app, SCHOOL)
    board = f"/play/en/{SEED}?size=4x4&time={seconds}"
    assert pupil.get(board).status_code == 200
    with app.test_request_context():
        from views.boards import BoardRequest

        words = [found.word for found in BoardRequest.from_url("en", SEED, {"size": "4x4"}).solution()]
    return f"/play/en/{SEED}/words?size=4x4&time={seconds}", pupil, words


@pytest.mark.parametrize("where", [room_pupil, solo_pupil], ids=["room", "solo"])
def test_a_thousand_words_in_ten_seconds_are_capped_with_a_sentence(app, clock, where):
    url, pupil, words = where(app, clock, 120)
    answers = []
    for i in range(1000):  # 100 a second for 10 s
        answers.append(pupil.post(url, data={"word": words[i % len(words)]}, headers=HTMX))
        clock.advance(0.01)
    statuses = [answer.status_code for answer in answers]
    print(f"\n1,000 words from one pupil in 10 s ({where.__name__}): {tally(statuses)}")
    assert Counter(statuses) == {200: 20, 429: 980}  # 10 every 5 s
    refused = next(answer for answer in answers if answer.status_code == 429)
    body = refused.get_data(as_text=True)
    # the board page shows it as the word's answer (static/js/word_queue.js passes on the HX-Trigger's message)
    assert body.lstrip().startswith('<section id="result" class="result result-refused"') and "<html" not in body
    assert message_of(refused).startswith(
        "Slow down: that is more words than anyone traces in a few seconds, so this one was not taken. Wait "
    )
    assert 1 <= int(refused.headers["Retry-After"]) <= 5


@pytest.mark.parametrize("where", [room_pupil, solo_pupil], ids=["room", "solo"])
def test_a_fast_pupils_words_at_a_human_pace_are_all_answered(app, clock, where):
    url, pupil, words = where(app, clock, 150)
    statuses = []
    for burst in range(24):  # two minutes: 6 words in 2 s, 3 s to find the next ones (72 words a minute)
        for k in range(6):
            statuses.append(
                pupil.post(url, data={"word": words[(6 * burst + k) % len(words)]}, headers=HTMX).status_code
            )
            clock.advance(0.4)
        clock.advance(2.6)
    print(f"\n144 words in 2 minutes, in bursts of 6 ({where.__name__}): {tally(statuses)}")
    assert statuses == [200] * 144


def test_a_pupils_words_count_per_pupil_not_per_address(app, clock):
    url, pupil, words = room_pupil(app, clock, 120)
    code = url.split("/")[2]
    classmate = browser(app, SCHOOL)
    assert join(classmate, code, "Bruno").status_code == 303
    for word in words[:10]:
        assert pupil.post(url, data={"word": word}, headers=HTMX).status_code == 200
    assert pupil.post(url, data={"word": words[10]}, headers=HTMX).status_code == 429
    assert classmate.post(url, data={"word": words[10]}, headers=HTMX).status_code == 200


# --- a code that names no open room ------------------------------------------------------------------------------


def count_queries(app):
    """The statements the store runs, counted (the steps a request takes, whatever the machine's speed)."""
    counted = []
    event.listen(app.extensions["ruzzle.store"].engine, "before_cursor_execute", lambda *_: counted.append(1))
    return counted


def answer_as_seen(answer, code: str) -> tuple:
    """What a client can compare of an answer: status, body (the code it typed aside), header names."""
    return (
        answer.status_code,
        answer.get_data(as_text=True).replace(code, "CODE"),
        sorted(name for name in answer.headers.keys() if name != "Content-Length"),
    )


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/rooms/{code}"),
        ("get", "/rooms?code={code}"),
        ("post", "/rooms/{code}/players"),
        ("get", "/rooms/{code}/leaderboard"),
        ("get", "/rooms/{code}/play"),
        ("get", "/rooms/{code}/host"),
    ],
)
def test_a_closed_room_a_deleted_one_and_a_code_never_used_answer_alike(app, clock, method, path):
    teacher = browser(app, TEACHER)  # even the browser that hosted the rooms learns nothing
    closed, deleted = open_room(teacher), open_room(teacher)
    never = next(guess for guess in guesses(10) if guess not in (closed, deleted))
    clock.advance(EXPIRY_SECONDS + 1)
    queries = count_queries(app)
    answers, steps = {}, {}
    for name, code in (("closed", closed), ("never", never)):
        before = len(queries)
        answers[name] = answer_as_seen(getattr(teacher, method)(path.format(code=code)), code)
        steps[name] = len(queries) - before
    app.extensions["ruzzle.store"].rooms.delete_expired(clock())
    answers["deleted"] = answer_as_seen(getattr(teacher, method)(path.format(code=deleted)), deleted)
    assert answers["closed"] == answers["never"] == answers["deleted"]
    assert answers["never"][0] == 404 and "There is no room CODE." in answers["never"][1]
    assert steps["closed"] == steps["never"] > 0  # the same statements: the same steps, the same time class


# --- the ranking -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [JSON, HTMX, {}], ids=["json", "htmx", "page"])
def test_a_rooms_ranking_is_for_its_players_and_hosts(app, clock, headers):
    teacher = browser(app, TEACHER)
    code = open_room(teacher)
    pupil = browser(app, SCHOOL)
    assert join(pupil, code, "Ada").status_code == 303
    remote = browser(app, "192.0.2.44")  # the teacher's phone, by the remote link
    with app.app_context():
        key = app.extensions["ruzzle.store"].rooms.get(code).remote_key
    assert remote.get(f"/rooms/{code}/remote/{key}").status_code == 303
    url = f"/rooms/{code}/leaderboard"
    for reader in (teacher, pupil, remote):
        answer = reader.get(url, headers=headers)
        assert answer.status_code == 200 and "Ada" in answer.get_data(as_text=True)
    stranger = browser(app, SCRIPT).get(url, headers=headers)
    assert stranger.status_code == 403 and "Ada" not in stranger.get_data(as_text=True)
    assert message_of(stranger) == f"Join room {code} first, with a nickname."
    players = app.extensions["ruzzle.store"].rooms.players(app.extensions["ruzzle.store"].rooms.get(code).id)
    assert teacher.post(f"/rooms/{code}/players/{players[0].id}/remove").status_code == 303
    removed = pupil.get(url, headers=headers)
    assert removed.status_code == 403 and message_of(removed) == f"The teacher removed this device from room {code}."


# --- behind an HTTPS proxy ---------------------------------------------------------------------------------------


@pytest.fixture
def proxied(clock, tmp_path):
    """The app behind one HTTPS proxy of its own (RUZZLE_PROXY_FIX=1)."""
    app = make_app(clock, tmp_path, PROXY_FIX=1)
    yield app
    app.extensions["ruzzle.store"].dispose()


def through_proxy(app, client_address: str):
    """A browser whose requests reach the app through the proxy, over HTTPS."""
    return browser(
        app,
        PROXY,
        **{"X-Forwarded-For": client_address, "X-Forwarded-Proto": "https", "X-Forwarded-Host": "ruzzle.example.org"},
    )


def test_behind_the_proxy_every_cookie_is_secure(proxied):
    teacher = through_proxy(proxied, TEACHER)
    code = open_room(teacher)
    joined = join(through_proxy(proxied, SCHOOL), code, "Ada")
    assert joined.status_code == 303 and "; Secure" in joined.headers["Set-Cookie"]
    cookies = teacher.post("/language", data={"language": "it", "next": "/"}).headers.getlist("Set-Cookie")
    assert any(cookie.startswith("ruzzle_lang=it;") for cookie in cookies)
    assert all("; Secure" in cookie for cookie in cookies)
    assert "https://ruzzle.example.org/rooms/" in teacher.get(f"/rooms/{code}/host").get_data(as_text=True)


@pytest.mark.parametrize(
    "origin, status",
    [("https://ruzzle.example.org", 303), ("http://ruzzle.example.org", 403), ("https://evil.example", 403)],
)
def test_behind_the_proxy_a_post_from_the_same_host_but_another_scheme_is_refused(proxied, origin, status):
    answer = through_proxy(proxied, TEACHER).post(
        "/rooms", data={"language": "en", "size": "4x4", "time": "60"}, headers={"Origin": origin}
    )
    assert answer.status_code == status
    if status == 403:
        assert message_of(answer).startswith("This was sent from another site, so it was not taken.")


def test_behind_the_proxy_the_forwarded_address_is_the_client_the_limits_count(proxied):
    for _ in range(20):
        open_room(through_proxy(proxied, SCRIPT))
    assert (
        through_proxy(proxied, SCRIPT).post("/rooms", data={"language": "en", "size": "4x4", "time": "60"}).status_code
        == 429
    )
    assert open_room(through_proxy(proxied, TEACHER))  # another client behind the same proxy


def test_without_the_setting_forwarded_headers_count_for_nothing(app):
    def spoofing(address):
        return browser(
            app,
            PROXY,
            **{"X-Forwarded-For": address, "X-Forwarded-Proto": "https", "X-Forwarded-Host": "ruzzle.example.org"},
        )

    for i in range(20):
        open_room(spoofing(f"198.51.100.{i}"))
    refused = spoofing("198.51.100.99").post("/rooms", data={"language": "en", "size": "4x4", "time": "60"})
    assert refused.status_code == 429  # a new X-Forwarded-For each time: still the one address it comes from
    joined = join(browser(app, SCHOOL), open_room(browser(app, TEACHER)), "Ada")
    assert "Secure" not in joined.headers["Set-Cookie"]
    page = spoofing(TEACHER).get("/").get_data(as_text=True)
    assert "ruzzle.example.org" not in page
    # a site served over HTTPS by a proxy without the setting still takes its own pages' posts (the host decides)
    assert (
        browser(app, TEACHER)
        .post("/rooms", data={"language": "en", "size": "4x4", "time": "60"}, headers={"Origin": "https://localhost"})
        .status_code
        == 303
    )


# --- the switches --------------------------------------------------------------------------------------------------


def test_the_limits_are_on_unless_turned_off_and_each_can_be_turned_off(clock, tmp_path):
    shipped = make_app(clock, tmp_path)
    assert shipped.config["RATELIMIT_ENABLED"] and shipped.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert all(shipped.config[name] for name in ("LIMIT_JOINS", "LIMIT_CODE_MISSES", "LIMIT_NEW_ROOMS", "LIMIT_WORDS"))
    off = make_app(clock, tmp_path / "off", RATELIMIT_ENABLED=False)
    rooms_off = make_app(clock, tmp_path / "rooms-off", LIMIT_NEW_ROOMS="")
    for app in (off, rooms_off):
        statuses = [
            browser(app, SCRIPT).post("/rooms", data={"language": "en", "size": "4x4", "time": "60"}).status_code
            for _ in range(30)
        ]
        assert statuses == [303] * 30
    assert Counter(browser(off, SCRIPT).get(f"/rooms/{guess}").status_code for guess in guesses(70)) == {404: 70}
    guesser = browser(rooms_off, SCRIPT)  # (a new browser for each guess would be sent for its cookie: a 303)
    assert Counter(guesser.get(f"/rooms/{guess}").status_code for guess in guesses(70)) == {404: 60, 429: 10}
    for app in (shipped, off, rooms_off):
        app.extensions["ruzzle.store"].dispose()


def test_the_storage_and_the_numbers_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("RUZZLE_RATELIMIT_STORAGE_URI", "memory://")
    monkeypatch.setenv("RUZZLE_LIMIT_WORDS", "3 per second")
    monkeypatch.setenv("RUZZLE_PROXY_FIX", "1")
    app = create_app({"SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'store.sqlite3'}"})
    assert app.config["LIMIT_WORDS"] == "3 per second" and app.config["PROXY_FIX"] == 1
    assert app.config["SESSION_COOKIE_SECURE"] is True
    monkeypatch.setenv("RUZZLE_RATELIMIT_ENABLED", "0")
    assert not services(
        create_app({"SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{tmp_path / 'store.sqlite3'}"})
    ).limiter.enabled
