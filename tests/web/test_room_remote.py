"""The teacher's phone is enough for a lesson, and the host's actions are safe: extra time never reopens a round that
is over (it starts with the next round, says so, and lasts until reset, shown with its Reset wherever it is shown),
Remove asks first on a page of its own, the remote's players page does every host action on a pupil, and a host
URL in a browser that is not the host says how to become host again."""

from __future__ import annotations

import html
import re

import pytest

from .helpers import SECONDS, join, open_room, send, start, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores (the extra time's rule is a statement of the store)."""
    return migrated_database_url


def seat(app, code: str, nickname: str) -> int:
    rooms = app.extensions["ruzzle.store"].rooms
    return next(p.id for p in rooms.players(rooms.get(code).id) if p.nickname == nickname)


def rejoin_code_of(app, code: str, nickname: str) -> str:
    rooms = app.extensions["ruzzle.store"].rooms
    return next(p.rejoin_code for p in rooms.players(rooms.get(code).id) if p.nickname == nickname)


def seated(app, code: str) -> list[str]:
    rooms = app.extensions["ruzzle.store"].rooms
    return [p.nickname for p in rooms.players(rooms.get(code).id)]


def give_time(client, code: str, player: int, seconds: int, view: str | None = None):
    return client.post(
        f"/rooms/{code}/players/{player}/time", data={"seconds": str(seconds), **({"view": view} if view else {})}
    )


def page(client, url: str) -> str:
    return client.get(url).get_data(as_text=True)


def said(client, url: str) -> str:
    """The page a host's action came back to, with the sentence it was told (a flash message)."""
    return re.sub(r"\s+", " ", html.unescape(page(client, url)))


# --- extra time -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ended_by", ["the clock", "End now"])
def test_extra_time_after_the_end_never_reopens_the_round_and_starts_with_the_next(app, client, clock, ended_by):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    if ended_by == "End now":
        client.post(f"/rooms/{code}/end")
    else:
        clock.advance(SECONDS + 5)
    assert give_time(client, code, seat(app, code, "Ada"), 60).status_code == 303
    told = said(client, f"/rooms/{code}/host")
    assert "Ada's round is over and stays as it was: the 60 s extra time starts with the next round" in told
    words = words_of(app, code)
    assert "Time is up" in send(ada, code, words[0].word).get_data(as_text=True)  # the round stays over
    assert "still playing" not in page(client, f"/rooms/{code}/host")
    # the next round gives her the 60 s
    assert client.post(f"/rooms/{code}/rounds").status_code == 303
    start(client, clock, code)
    clock.advance(SECONDS + 5)
    assert send(ada, code, words_of(app, code)[0].word).status_code == 200
    assert "1 still playing" in page(client, f"/rooms/{code}/host")


def test_extra_time_during_the_round_says_it_moves_this_round_and_every_later_one(app, client, clock):
    code = open_room(client)
    join(app, code, "Ada")
    start(client, clock, code)
    give_time(client, code, seat(app, code, "Ada"), 30)
    assert "Ada has 30 s extra time in this round and every later round, until you reset it." in said(
        client, f"/rooms/{code}/host"
    )


def test_extra_time_set_in_the_lobby_says_it_starts_with_this_round(app, client):
    code = open_room(client)
    join(app, code, "Ada")
    give_time(client, code, seat(app, code, "Ada"), 45)
    assert "Ada will have 45 s extra time in every round, from this one, until you reset it." in said(
        client, f"/rooms/{code}/host"
    )


@pytest.mark.parametrize("where", ["/rooms/{code}/host", "/rooms/{code}/remote/players"])
def test_extra_time_is_shown_as_lasting_until_reset_with_its_reset(app, client, where):
    code = open_room(client)
    join(app, code, "Ada")
    ada = seat(app, code, "Ada")
    give_time(client, code, ada, 60)
    shown = said(client, where.format(code=code))
    assert "+60 s each round, until you reset it" in shown
    reset = re.search(rf'<form action="/rooms/{code}/players/{ada}/time" method="post">(.*?)</form>', shown).group(1)
    assert 'name="seconds" value="0"' in reset and ">Reset</button>" in reset
    give_time(client, code, ada, 0)
    shown = said(client, where.format(code=code))
    assert "Ada has no extra time any more" in shown and "+60 s each round" not in shown


# --- remove asks first ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["/rooms/{code}/host", "/rooms/{code}/remote/players"])
def test_no_page_removes_a_pupil_in_one_click(app, client, where):
    code = open_room(client)
    join(app, code, "Ada")
    shown = page(client, where.format(code=code))
    assert not re.search(r'<form action="[^"]*/remove"', shown)  # no button posts the removal
    assert f'href="/rooms/{code}/players/{seat(app, code, "Ada")}/remove' in shown  # each asks first


@pytest.mark.parametrize(
    ("asked_from", "back"), [("", "/rooms/{code}/host#manage"), ("?view=players", "/rooms/{code}/remote/players")]
)
def test_remove_asks_naming_the_pupil_and_only_the_form_removes(app, client, asked_from, back):
    code = open_room(client)
    join(app, code, "Ada")
    player = seat(app, code, "Ada")
    question = page(client, f"/rooms/{code}/players/{player}/remove{asked_from}")
    assert f"Remove Ada from room {code}?" in question
    assert f'<form action="/rooms/{code}/players/{player}/remove" method="post">' in question
    assert f'href="{back.format(code=code)}"' in question and "Cancel: keep Ada" in question
    assert seated(app, code) == ["Ada"]  # asking removed nobody
    view = {"view": "players"} if asked_from else {"manage": "1"}
    answer = client.post(f"/rooms/{code}/players/{player}/remove", data=view)
    assert answer.status_code == 303 and answer.headers["Location"] == back.format(code=code)
    assert seated(app, code) == []


@pytest.mark.parametrize("player", ["999", str(2**31)])
def test_asking_to_remove_an_unknown_player_is_a_404(app, client, player):
    code = open_room(client)
    assert client.get(f"/rooms/{code}/players/{player}/remove").status_code == 404


def test_only_a_host_may_ask_to_remove(app, client):
    code = open_room(client)
    ada = join(app, code, "Ada")
    assert ada.get(f"/rooms/{code}/players/{seat(app, code, 'Ada')}/remove").status_code == 403


# --- the remote does every host action ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "form"),
    [
        ("name", {"nickname": "Ada L."}),
        ("time", {"seconds": "30"}),
        ("let-in", {}),
        ("remove", {}),
    ],
)
def test_every_action_on_a_pupil_from_the_remotes_players_page_comes_back_to_it(app, client, action, form):
    code = open_room(client)
    join(app, code, "Ada")
    shown = page(client, f"/rooms/{code}/remote/players")
    player = seat(app, code, "Ada")
    assert f"/rooms/{code}/players/{player}/{action}" in shown
    answer = client.post(f"/rooms/{code}/players/{player}/{action}", data={**form, "view": "players"})
    assert answer.status_code == 303 and answer.headers["Location"].split("?")[0] == f"/rooms/{code}/remote/players"


def test_letting_a_pupil_back_in_from_the_remote_shows_the_teacher_their_new_code_there(app, client):
    code = open_room(client)
    join(app, code, "Ada")
    old_code = rejoin_code_of(app, code, "Ada")
    player = seat(app, code, "Ada")
    answer = client.post(f"/rooms/{code}/players/{player}/let-in", data={"view": "players"})
    assert answer.headers["Location"] == f"/rooms/{code}/remote/players?shown={player}"
    shown = page(client, answer.headers["Location"])
    new_code = rejoin_code_of(app, code, "Ada")
    assert (
        new_code != old_code
        and f"<strong>{new_code}</strong>" in shown
        and '<details class="rejoin-code" open>' in shown
    )


def test_the_remotes_players_page_undoes_a_removal_and_sets_the_names_shown(app, client):
    code = open_room(client)
    join(app, code, "Ada")
    player = seat(app, code, "Ada")
    client.post(f"/rooms/{code}/players/{player}/remove", data={"view": "players"})
    shown = page(client, f"/rooms/{code}/remote/players")
    assert f'action="/rooms/{code}/players/{player}/unban"' in shown and 'name="names"' in shown
    answer = client.post(f"/rooms/{code}/players/{player}/unban", data={"view": "players"})
    assert answer.headers["Location"] == f"/rooms/{code}/remote/players"
    answer = client.post(f"/rooms/{code}/settings", data={"names": "none", "view": "players"})
    assert answer.headers["Location"] == f"/rooms/{code}/remote/players"
    assert 'value="none" selected' in page(client, f"/rooms/{code}/remote/players")


def test_the_remote_links_its_players_page_and_the_link_for_another_device(app, client):
    code = open_room(client)
    shown = page(client, f"/rooms/{code}/remote")
    assert f'href="/rooms/{code}/remote/players"' in shown
    assert re.search(rf'data-remote-url="http://localhost/rooms/{code}/remote/[^"]+"', shown)


def test_only_a_host_sees_the_remotes_players_page(app, client):
    code = open_room(client)
    ada = join(app, code, "Ada")
    assert ada.get(f"/rooms/{code}/remote/players").status_code == 403


@pytest.mark.parametrize("path", ["host", "remote", "remote/players"])
def test_a_host_page_in_another_browser_says_how_to_become_host_again(app, client, path):
    code = open_room(client)
    answer = app.test_client().get(f"/rooms/{code}/{path}")
    text = html.unescape(answer.get_data(as_text=True))
    assert answer.status_code == 403
    assert "Open the room's remote link in this browser" in text and "your class's page" in text
