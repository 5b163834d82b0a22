"""Two app servers on one PostgreSQL database count each client's limits together in one Redis
(RUZZLE_RATELIMIT_STORAGE_URI=redis://..., README "Limits per client"): Flask-Limiter's limits (joins) and the
app's own counts (room codes missed per address and per browser, new browsers, wrong rejoin codes per seat). Each
rule is shown beside its contrast, the default memory://, where each server counts only what it saw. And a Redis
that goes away mid-lesson: every request is still answered, the outage is in the servers' logs, and the counting
starts again when Redis is back.

Every request comes from 127.0.0.1: one address, as a class behind its school's. Each server has one worker, so that
memory:// counts per server (with more workers it counts per worker, which only lowers the counts further)."""

from __future__ import annotations

import contextlib
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest

import tools.redis
from tools.redis import redis_server
from tools.servers import Server, gunicorn_server

from .helpers import ServerBrowser

KEY = "the key both servers of these tests share"
SEED = "SHARED"
MISSES = ["ZZZZZ2", "ZZZZZ3", "ZZZZZ4", "ZZZZZ5", "ZZZZZ6", "ZZZZZ7"]  # room codes that name no room
pytestmark = pytest.mark.server  # every test here starts its own servers


class Phone(ServerBrowser):
    """A browser: one session cookie, carried to whichever server it talks to."""

    def request(self, url: str, form: dict | None = None) -> tuple[int, dict, str]:
        """Status, headers and page of a GET (or a POST of `form`)."""
        return self.ask(url, form)

    def status(self, url: str, form: dict | None = None) -> int:
        return self.request(url, form)[0]

    def open_page(self, url: str) -> int:
        """A room page as a browser opens it, following the app's redirect to the same page (a cookie given)."""
        status, headers, _ = self.request(url)
        return self.status(urllib.parse.urljoin(url, headers["Location"])) if status == 303 else status


def open_room(server: Server) -> str:
    """A teacher opens a room on the server; its code."""
    form = {"language": "en", "size": "4x4", "time": "60", "seed": SEED}
    status, headers, page = Phone().request(server.url + "/rooms", form)
    assert status == 303, page[:500]
    return re.fullmatch(r"/rooms/([A-Z0-9]{6})/host", headers["Location"])[1]


def join(server: Server, code: str, nickname: str, rejoin: str | None = None) -> tuple[int, dict, str]:
    """A new phone joins the room with a nickname (and a rejoin code, to take a seat back)."""
    form = {"nickname": nickname, **({"code": rejoin} if rejoin is not None else {})}
    return Phone().request(f"{server.url}/rooms/{code}/players", form)


def seat_of_ada(server: Server, code: str) -> str:
    """Ada joins the room; her rejoin code."""
    ada = Phone()
    assert ada.status(f"{server.url}/rooms/{code}/players", {"nickname": "Ada"}) == 303
    return re.search(r'data-rejoin-code="([A-Z0-9]+)"', ada.request(f"{server.url}/rooms/{code}/play")[2])[1]


def refusal(answer: tuple[int, dict, str]) -> tuple[int, str, str]:
    """A 429 as a person meets it: the status, how long Retry-After says to wait, the message on the page."""
    status, headers, page = answer
    message = re.search(r'class="result-message">([^<]*)<', page)
    return status, headers.get("Retry-After", ""), message[1] if message else ""


@pytest.fixture(params=["redis", "memory"], ids=["one Redis", "memory of each server"])
def storage(request) -> Iterator[str]:
    """Where the two servers count: one Redis for both, or (the contrast) each its own memory."""
    if request.param == "memory":
        yield "memory://"
        return
    with redis_server() as redis:
        yield redis.url


def miss_on_each(phone: Phone, *servers: Server) -> list[int]:
    """The phone tries a code that names no room on each server in turn; the answers."""
    return [phone.status(f"{server.url}/rooms/{miss}") for server, miss in zip(servers, MISSES, strict=False)]


def turns(one: Server, other: Server) -> list[Server]:
    """Two tries on the first server, then three on the second: with a limit of four, the last is the one over it."""
    return [one, one, other, other, other]


def shared(storage: str) -> bool:
    return storage.startswith("redis://")


@contextlib.contextmanager
def two_servers(postgres, storage: str, **limits: str) -> Iterator[tuple[Server, Server]]:
    """Two gunicorn servers, one worker each, on one fresh PostgreSQL database, their limits on and counted in
    `storage`, with these limit settings (LIMIT_JOINS="4 per minute", ...)."""
    environment = {
        "RUZZLE_DATABASE_URL": postgres.new_database(),
        "RUZZLE_RATELIMIT_STORAGE_URI": storage,
        **{f"RUZZLE_{name}": value for name, value in limits.items()},
    }
    with (
        gunicorn_server(KEY, workers=1, rate_limits=True, **environment) as one,
        gunicorn_server(KEY, workers=1, rate_limits=True, **environment) as other,
    ):
        yield one, other


# --- Flask-Limiter's limits ----------------------------------------------------------------------------------------


def test_joins_from_one_address_count_on_both_servers_together(postgres, storage):
    with two_servers(postgres, storage, LIMIT_JOINS="4 per minute") as (one, other):
        code = open_room(one)
        answers = [join(server, code, f"Pupil {i}") for i, server in enumerate(turns(one, other))]
    statuses = [status for status, _, _ in answers]
    if not shared(storage):
        assert statuses == [303] * 5  # each server saw 2 or 3 of the 4 it takes
        return
    assert statuses == [303] * 4 + [429]
    status, retry_after, message = refusal(answers[-1])
    assert retry_after in ("60", "61")
    assert (
        message
        == f"Many players joined rooms from this network in a short time. Wait {retry_after} seconds, then try again."
    )


# --- the app's own counts --------------------------------------------------------------------------------------


def test_room_codes_missed_from_one_address_count_on_both_servers_together(postgres, storage):
    with two_servers(postgres, storage, LIMIT_CODE_MISSES="4 per minute") as (one, other):
        guesser = Phone()
        answers = [
            guesser.request(f"{server.url}/rooms/{miss}")
            for server, miss in zip(turns(one, other), MISSES, strict=False)
        ]
    statuses = [status for status, _, _ in answers]
    if not shared(storage):
        assert statuses == [404] * 5
        return
    assert statuses == [404] * 4 + [429]
    status, retry_after, message = refusal(answers[-1])
    assert retry_after in ("60", "61")
    assert message == (
        f"Many room codes that name no room were tried from this network. Wait {retry_after} seconds, then try again."
    )


def test_a_browsers_missed_codes_count_on_both_servers_together(postgres, storage):
    """While the address's count is full, a browser that missed LIMIT_CODE_MISSES_BROWSER codes (one on each server)
    is refused the real room; a browser that missed fewer still opens it."""
    settings = {"LIMIT_CODE_MISSES": "3 per minute", "LIMIT_CODE_MISSES_BROWSER": "2 per hour"}
    with two_servers(postgres, storage, **settings) as (one, other):
        code = open_room(one)
        guesser, pupil = Phone(), Phone()
        assert miss_on_each(guesser, one, other) == [404, 404]
        assert pupil.status(f"{other.url}/rooms/{MISSES[2]}") == 404  # a typo: the address's third miss
        guessers_try = guesser.request(f"{other.url}/rooms/{code}")
        pupils_try = pupil.status(f"{other.url}/rooms/{code}")
    assert pupils_try == 200
    if not shared(storage):
        assert guessers_try[0] == 200  # the second server saw one of the guesser's misses and two of the address's
        return
    status, retry_after, message = refusal(guessers_try)
    assert status == 429 and 1 <= int(retry_after) <= 61
    assert message.startswith("Many room codes that name no room were tried from this network.")


def test_new_browsers_at_a_guessing_address_count_on_both_servers_together(postgres, storage):
    """While the address's count is full, new browsers (no cookie yet) open the real room until
    LIMIT_CODE_NEW_BROWSERS of them came, on either server."""
    settings = {"LIMIT_CODE_MISSES": "2 per minute", "LIMIT_CODE_NEW_BROWSERS": "3 per minute"}
    with two_servers(postgres, storage, **settings) as (one, other):
        code = open_room(one)
        guesser = Phone()  # new too: its second try, back with its cookie, is the address's first new browser
        assert miss_on_each(guesser, one, other) == [404, 404]
        newcomers = [Phone().open_page(f"{server.url}/rooms/{code}") for server in (one, other, one)]
    assert newcomers == ([200, 200, 429] if shared(storage) else [200, 200, 200])


def test_wrong_rejoin_codes_for_a_seat_count_on_both_servers_together(postgres, storage):
    """A seat that took LIMIT_REJOIN_MISSES wrong codes, on either server, takes no code, not even the right one."""
    with two_servers(postgres, storage, LIMIT_REJOIN_MISSES="3 per hour") as (one, other):
        code = open_room(one)
        right = seat_of_ada(one, code)
        wrong = [guess for guess in ("AAAA", "BBBB", "CCCC", "DDDD") if guess != right][:3]
        tries = [join(server, code, "Ada", guess)[0] for server, guess in zip([one, other, other], wrong, strict=True)]
        taken_back = join(other, code, "Ada", right)
    assert tries == [409, 409, 409]  # the name is taken, and that is not its code
    if not shared(storage):
        assert taken_back[0] == 303  # the second server saw two of the three
        return
    status, headers, page = taken_back  # (the join form again, saying why)
    assert status == 429 and 3000 < int(headers["Retry-After"]) <= 3601
    assert "Too many wrong codes were typed for this name, so it is closed for a while" in page


# --- Redis going away mid-lesson ---------------------------------------------------------------------------------

OUTAGE_LIMITS = {
    "LIMIT_JOINS": "4 per minute",
    "LIMIT_CODE_MISSES": "4 per minute",
    "LIMIT_REJOIN_MISSES": "3 per hour",
}


def test_a_lesson_goes_on_uncounted_and_logged_while_redis_is_away_and_counted_again_when_it_is_back(postgres):
    with redis_server() as redis, two_servers(postgres, redis.url, **OUTAGE_LIMITS) as (one, other):
        code = open_room(one)
        right = seat_of_ada(one, code)
        redis.stop()
        servers = [one, other] * 3
        joins = [join(server, code, f"Pupil {i}")[0] for i, server in enumerate(servers)]
        misses = miss_on_each(Phone(), *servers)
        wrong = [join(server, code, "Ada", "ZZZZ" if right != "ZZZZ" else "YYYY")[0] for server in servers[:4]]
        ada_back = join(other, code, "Ada", right)[0]
        logs = one.log_text() + other.log_text()
        redis.start()  # an empty Redis on the same port: the counts start again
        joins_after = [join(server, code, f"Pupil {i}")[0] for i, server in enumerate(servers[:5], start=10)]
    # every limit more than reached, and not one refusal or error: the lesson went on, uncounted
    assert joins == [303] * 6 and misses == [404] * 6 and wrong == [409] * 4 and ada_back == 303
    assert "Failed to rate limit. Swallowing error" in logs  # Flask-Limiter's, for the joins
    assert "the limits' storage does not answer" in logs  # the app's own, for the codes
    assert "ConnectionError" in logs  # and why
    assert joins_after == [303] * 4 + [429]


def test_a_machine_without_redis_server_is_told_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(tools.redis, "DEBIAN_BINARY", tmp_path / "redis-server")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match=r"apt-get install -y redis-server"), redis_server():
        pass
