"""A pupil's clock poll with nothing new is answered 304 before Flask sees it (views/rooms/clock_poll.py), on both
stores: with the very tag and headers the view would give, and never when the view would answer anything else: a
pause, time added to the class or to the pupil, a new name, a removal, the round's end or the next round, a clock past
the deadline, a cookie that does not read, another phase asked or another tag sent."""

from __future__ import annotations

import re

import pytest
from flask import request_started

from views.rooms.clock_poll import ClockPolls

from .conftest import HTMX
from .helpers import SECONDS, join, open_room, start

IGNORED = {"Date", "X-Ruzzle-Time"}  # the moment of each answer


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


@pytest.fixture
def seen(app) -> list[str]:
    """The paths of the requests that reached Flask."""
    reached: list[str] = []

    def note(sender, **extra) -> None:
        from flask import request

        reached.append(request.path)

    request_started.connect(note, app)
    yield reached
    request_started.disconnect(note, app)


@pytest.fixture
def room(app, client, clock):
    """A started room with one pupil; (its code, the pupil's client)."""
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    return code, phone


def poll(phone, code: str, etag: str | None = None, phase: str = "playing", round_: int = 1):
    headers = dict(HTMX)
    if etag:
        headers["If-None-Match"] = etag
    return phone.get(f"/rooms/{code}/clock?phase={phase}&round={round_}", headers=headers)


def seat_of(app, code: str, nickname: str) -> int:
    store = app.extensions["ruzzle.store"].rooms
    return next(player.id for player in store.players(store.get(code).id) if player.nickname == nickname)


def test_a_poll_with_the_pupil_s_tag_is_a_304_that_flask_never_sees(room, seen):
    code, phone = room
    first = poll(phone, code)
    assert first.status_code == 200 and first.headers["ETag"]
    assert sent_tag(first.get_data(as_text=True)) == first.headers["ETag"]  # the clock it brings polls with its tag
    seen.clear()
    again = poll(phone, code, first.headers["ETag"])
    assert again.status_code == 304
    assert again.headers["ETag"] == first.headers["ETag"]
    assert seen == []


def sent_tag(page: str) -> str:
    """The If-None-Match the page's clock sends with its polls (its hx-headers)."""
    found = re.search(r'id="clock"[^>]*hx-headers=\'\{"If-None-Match": "(\\"[0-9a-f]+\\")"\}\'', page)
    assert found, "the clock sends no tag"
    return found.group(1).replace("\\", "")


@pytest.mark.parametrize("ahead", [False, True], ids=["board at the start", "board fetched during the 3-2-1"])
def test_the_boards_first_clock_poll_is_a_304_that_flask_never_sees(app, client, clock, seen, ahead):
    code = open_room(client)
    phone = join(app, code, "Ada")
    client.post(f"/rooms/{code}/start", data={})
    if not ahead:
        clock.advance(5)  # (the 3-2-1 over)
    page = phone.get(f"/rooms/{code}/play" + ("?ahead=1" if ahead else ""), headers=HTMX).get_data(as_text=True)
    clock.advance(5 if ahead else 1)
    seen.clear()
    first = poll(phone, code, sent_tag(page))
    assert first.status_code == 304 and seen == []
    assert first.headers["ETag"] == sent_tag(page)


def test_the_early_304_carries_the_headers_of_the_view_s_own(app, room):
    code, phone = room
    etag = poll(phone, code).headers["ETag"]
    early = poll(phone, code, etag)
    app.wsgi_app = app.wsgi_app.inner  # the view alone
    try:
        own = poll(phone, code, etag)
    finally:
        app.wsgi_app = ClockPolls(app, app.wsgi_app)
    assert own.status_code == early.status_code == 304
    assert {k: v for k, v in early.headers.items() if k not in IGNORED} == {
        k: v for k, v in own.headers.items() if k not in IGNORED
    }
    assert abs(float(early.headers["X-Ruzzle-Time"]) - float(own.headers["X-Ruzzle-Time"])) < 1


def host_changes(app, client, code: str, clock):
    """What a host (or time) may change between two polls, each with what the pupil's next poll must bring."""
    return {
        "pause": lambda: client.post(f"/rooms/{code}/pause"),
        "time added to the class": lambda: client.post(f"/rooms/{code}/time", data={"seconds": "30"}),
        "the pupil's extra time": lambda: client.post(
            f"/rooms/{code}/players/{seat_of(app, code, 'Ada')}/time", data={"seconds": "45"}
        ),
        "a new name": lambda: client.post(
            f"/rooms/{code}/players/{seat_of(app, code, 'Ada')}/name", data={"nickname": "Grace"}
        ),
        "the round ended": lambda: client.post(f"/rooms/{code}/end"),
        "the deadline passed": lambda: clock.advance(SECONDS + 10),
    }


CHANGES = ["pause", "time added to the class", "the pupil's extra time", "a new name", "the round ended"]


@pytest.mark.parametrize("change", [*CHANGES, "the deadline passed"])
def test_after_a_change_the_poll_goes_to_the_view_and_brings_it(app, client, clock, room, seen, change):
    code, phone = room
    etag = poll(phone, code).headers["ETag"]
    host_changes(app, client, code, clock)[change]()
    seen.clear()
    answer = poll(phone, code, etag)
    assert answer.status_code in (200, 204)
    assert seen == [f"/rooms/{code}/clock"]


def test_a_removed_pupil_s_poll_goes_to_the_view_and_is_refused(app, client, room, seen):
    code, phone = room
    etag = poll(phone, code).headers["ETag"]
    assert client.post(f"/rooms/{code}/players/{seat_of(app, code, 'Ada')}/remove").status_code in (200, 303)
    seen.clear()
    assert poll(phone, code, etag).status_code == 403
    assert seen == [f"/rooms/{code}/clock"]


def test_the_next_round_s_poll_goes_to_the_view(client, clock, room, seen):
    code, phone = room
    etag = poll(phone, code).headers["ETag"]
    client.post(f"/rooms/{code}/end")
    assert client.post(f"/rooms/{code}/rounds").status_code == 303
    start(client, clock, code)
    seen.clear()
    assert poll(phone, code, etag).status_code == 200
    assert poll(phone, code, etag, round_=2).status_code == 200  # (round 2's clock has a tag of its own)
    assert seen == [f"/rooms/{code}/clock"] * 2


@pytest.mark.parametrize(
    "tamper",
    [
        pytest.param(lambda etag, cookie: (etag[:-3] + 'ff"', cookie), id="another tag"),
        pytest.param(lambda etag, cookie: (etag, cookie[:-2] + "xx"), id="a cookie that does not read"),
        pytest.param(lambda etag, cookie: (etag, None), id="no cookie"),
    ],
)
def test_a_poll_the_early_answer_cannot_vouch_for_goes_to_the_view(app, room, seen, tamper):
    code, phone = room
    etag = poll(phone, code).headers["ETag"]
    cookie = phone.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    sent_tag, sent_cookie = tamper(etag, cookie)
    stranger = app.test_client()
    if sent_cookie is not None:
        stranger.set_cookie(app.config["SESSION_COOKIE_NAME"], sent_cookie)
    seen.clear()
    answer = poll(stranger, code, sent_tag)
    assert seen == [f"/rooms/{code}/clock"]
    assert answer.status_code in (200, 403)


def test_a_poll_that_asks_for_another_phase_goes_to_the_view(room, seen):
    code, phone = room
    etag = poll(phone, code).headers["ETag"]
    seen.clear()
    answer = poll(phone, code, etag, phase="paused")
    assert answer.status_code == 200 and answer.headers.get("HX-Retarget") == "#game"
    assert seen == [f"/rooms/{code}/clock"]
