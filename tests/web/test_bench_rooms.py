"""bench/rooms.py reads the room's pages as htmx and the board page's scripts (static/js/) do: these tests hold it to
the pages as they are, so a change of the templates that the bench would misread fails here rather than in a
benchmark's figures."""

from __future__ import annotations

from bench.room_client import TIMER_TAG, attributes, polls_in
from tests.web.conftest import HTMX
from views.rooms import COUNTDOWN, POLL_SECONDS


def open_room(app):
    host = app.test_client()
    answer = host.post("/rooms", data={"language": "en", "size": "4x4", "time": "60", "seed": "ROOMLD"})
    return host, answer.headers["Location"].split("/")[2]


def join(app, code: str, nickname: str):
    phone = app.test_client()
    assert phone.post(f"/rooms/{code}/players", data={"nickname": nickname}).status_code == 303
    return phone


def test_the_waiting_page_poll_is_read_with_its_interval_and_an_etag_that_makes_a_304(app):
    host, code = open_room(app)
    phone = join(app, code, "Ana")
    [poll] = polls_in(phone.get(f"/rooms/{code}/play").text)
    assert (poll.key, poll.url, poll.target, poll.every) == ("game", f"/rooms/{code}/play", "game", POLL_SECONDS)
    first = phone.get(poll.url, headers={**HTMX, "If-None-Match": poll.etag})
    if first.status_code == 200:  # (the whole page's ETag is not its region's: the first poll brings the region)
        [poll] = polls_in(first.text)
    asked = {**HTMX, "If-None-Match": poll.etag}
    assert phone.get(poll.url, headers=asked).status_code == 304
    join(app, code, "Ben")  # the lobby changed: the same ETag now gets the new region, with a new ETag in it
    answer = phone.get(poll.url, headers=asked)
    assert answer.status_code == 200
    [again] = polls_in(answer.text)
    assert again.etag and again.etag != poll.etag


def test_the_host_page_polls_its_stage_and_the_3_2_1_says_when_to_ask_for_the_board(app, clock):
    host, code = open_room(app)
    phone = join(app, code, "Ana")
    stage = {poll.key: poll for poll in polls_in(host.get(f"/rooms/{code}/host").text)}
    assert stage["game"].url == f"/rooms/{code}/host" and stage["game"].every == POLL_SECONDS
    host.post(f"/rooms/{code}/start")
    countdown = phone.get(f"/rooms/{code}/play", headers=HTMX).text
    timer = attributes(TIMER_TAG.search(countdown).group(0))
    assert timer["data-refresh-url"] == f"/rooms/{code}/play"
    starts_at = float(timer["data-server-now"]) + float(timer["data-remaining"])
    assert clock.now < starts_at <= clock.now + COUNTDOWN + 1
    clock.advance(starts_at - clock.now)
    board = phone.get(timer["data-refresh-url"], headers=HTMX).text
    assert [poll.key for poll in polls_in(board)] == ["clock"]
