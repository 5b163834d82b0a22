"""What a pupil reads when something goes wrong says what happened and what to do: a room code that names no room
(and the box to type it again), homework after its deadline; and the start page's room box comes first, where a
phone's first screen shows it."""

from __future__ import annotations

import re

import pytest

from .conftest import START
from .helpers import SECONDS, iso, text_of


@pytest.mark.parametrize("url", ["/rooms?code=zz99zz", "/rooms/ZZ99ZZ"])
def test_a_code_that_names_no_room_says_what_to_do_and_offers_the_box_again(client, url):
    answer = client.get(url)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 404
    assert "There is no room ZZ99ZZ. Check the code on the projector" in text_of(answer)
    assert "type it again" in text_of(answer) and "ask your teacher for the new code" in text_of(answer)
    assert re.search(r'<form class="join-room-form" action="/rooms"[^>]*>', page)
    assert 'name="code"' in page and 'value="ZZ99ZZ"' in page


def test_other_missing_pages_offer_no_room_box(client):
    assert 'class="join-room-form"' not in client.get("/no/such/page").get_data(as_text=True)


def test_the_start_pages_room_box_comes_before_the_board_settings(client):
    page = client.get("/").get_data(as_text=True)
    assert page.index('class="join-room-form"') < page.index('class="start-form"')


def test_homework_after_its_deadline_says_it_is_closed_and_whom_to_ask(app, client, clock):
    due = START + 3600
    answer = client.post(
        "/assignments",
        data={"language": "en", "size": "4x4", "time": str(SECONDS), "count": "1", "due": iso(due)},
    )
    code = re.search(r"/a/([A-Z0-9]{6})/teacher", answer.headers["Location"]).group(1)
    clock.advance(2 * 3600)
    page = text_of(app.test_client().get(f"/a/{code}"))
    assert "The deadline was" in page
    assert "This homework is closed: no board can be started any more." in page
    assert "ask your teacher to set the homework again" in page
