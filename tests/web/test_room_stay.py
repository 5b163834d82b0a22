"""Inside the room, stay in the room (on SQLite and PostgreSQL): every link of a pupil's room pages stays in the room,
the room's own page of a round's words (closed while the round runs for the asker), the "Back to room" banner on
every other page while the room is live (one indexed query, none for fragments), the solution lock that points to
the room, and "My rounds" listing a room's round as the room."""

from __future__ import annotations

import contextlib
import re
from html.parser import HTMLParser

import pytest

from store.rooms import EXPIRY_SECONDS
from tools.statements import statements as recorded
from views.rooms import ROOM_IDLE_SECONDS, room_board
from views.rounds import SEATED

from .conftest import HTMX
from .helpers import SECONDS, SEED, join, open_room, send, start, words_of

pytestmark = pytest.mark.usefixtures("exact_ranking")  # the ranking as it is at each request


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


SITE_HEADER = {"/", "/me", "/language"}  # the brand, My rounds, the language switcher: pages with the banner
BANNER = re.compile(
    r'<nav class="room-banner"[^>]*><a class="room-banner-link" href="/rooms/([A-Z0-9]+)/play">'
    r"Back to room ([A-Z0-9]+)</a></nav>"
)


class Links(HTMLParser):
    """Every URL a page may lead to or send to: links, forms, buttons, htmx attributes, the scripts' data URLs
    (not the stylesheets, scripts and icons it loads)."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("link", "script"):
            return
        if ("target", "_blank") in attrs:  # a word's reference (its Wiktionary page, the meanings' licences) opens
            return  # beside the room, which stays open
        for name, value in attrs:
            if value and (
                name in ("href", "action", "formaction", "hx-get", "hx-post")
                or (name.startswith("data-") and name.endswith("-url"))
            ):
                self.urls.append(value)


def urls_of(page: str) -> list[str]:
    links = Links()
    links.feed(page)
    return links.urls


def leaving(page: str, code: str) -> list[str]:
    """The URLs of a page that leave room `code` other than the site header's."""
    return [url for url in urls_of(page) if not url.startswith(f"/rooms/{code}/") and url not in SITE_HEADER]


def banner(page: str) -> str | None:
    """The room the page's banner leads back to, or None."""
    found = BANNER.search(page)
    assert found is None or found.group(1) == found.group(2)
    return found and found.group(1)


def html(answer) -> str:
    return answer.get_data(as_text=True)


def seed_url(app, code: str, page: str) -> str:
    """A page of the room's current board as an ordinary board URL (its seed)."""
    with app.test_request_context():
        room = app.extensions["ruzzle.store"].rooms.get(code)
        return room_board(room).seed_board.page_url(page)


def end_round(app, client, clock, code: str) -> None:
    """The class's time runs out, and the grace after it."""
    clock.advance(SECONDS + app.config["ROUND_GRACE_SECONDS"] + 1)


@contextlib.contextmanager
def statements(app):
    """The SQL statements the store runs meanwhile (not SQLite's BEGIN around a read: the same trip to the file)."""
    with recorded(app.extensions["ruzzle.store"].engine) as seen:
        texts: list[str] = []
        yield texts
    texts.extend(statement for statement, _ in seen)


# --- every link stays in the room ------------------------------------------------------------------------------


def test_every_link_of_a_pupils_room_pages_stays_in_the_room(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    pages = {"waiting": html(ada.get(f"/rooms/{code}/play"))}
    client.post(f"/rooms/{code}/start")
    pages["countdown"] = html(ada.get(f"/rooms/{code}/play"))
    clock.advance(4)
    word = words_of(app, code)[0].word
    send(ada, code, word)
    pages["playing"] = html(ada.get(f"/rooms/{code}/play"))
    pages["a word"] = html(ada.get(f"/rooms/{code}/words/{word}"))
    client.post(f"/rooms/{code}/pause")
    pages["paused"] = html(ada.get(f"/rooms/{code}/play"))
    client.post(f"/rooms/{code}/resume")
    end_round(app, client, clock, code)
    pages["results"] = html(ada.get(f"/rooms/{code}/play"))
    pages["all words"] = html(ada.get(f"/rooms/{code}/words?round=1"))
    pages["all words, a word open"] = html(ada.get(f"/rooms/{code}/words?round=1&word={word}&sort=length"))
    for name, page in pages.items():
        assert urls_of(page), name
        assert leaving(page, code) == [], name
        assert banner(page) is None, name  # the room's own pages are the room: no banner there
    assert "Play this board alone" not in pages["results"]
    assert f'href="/rooms/{code}/words?round=1">See all words</a>' in pages["results"]


def test_the_site_headers_links_lead_to_pages_that_lead_back(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    send(ada, code, words_of(app, code)[0].word)
    for url in ("/", "/me"):
        assert banner(html(ada.get(url))) == code, url
    switched = ada.post("/language", data={"language": "it", "next": f"/rooms/{code}/play"})
    assert switched.headers["Location"].endswith(f"/rooms/{code}/play")


def test_a_stray_link_would_be_caught():
    page = '<a href="/rooms/K7M2QX/play">in</a><a href="/play/en/K7M2QX">out</a><form action="/me"></form>'
    assert leaving(page, "K7M2QX") == ["/play/en/K7M2QX"]


# --- the room's page of all words ------------------------------------------------------------------------------


def test_all_words_are_closed_to_a_pupil_until_their_round_is_over(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    assert ada.get(f"/rooms/{code}/words").status_code == 409  # waiting
    client.post(f"/rooms/{code}/start")
    assert ada.get(f"/rooms/{code}/words?round=1").status_code == 409  # 3-2-1
    clock.advance(4)
    for headers in ({}, HTMX):
        answer = ada.get(f"/rooms/{code}/words?round=1", headers=headers)
        assert answer.status_code == 409 and "once your round is over" in html(answer)
        assert words_of(app, code)[0].word not in html(answer)
    assert client.get(f"/rooms/{code}/words").status_code == 409  # the host's, too
    assert app.test_client().get(f"/rooms/{code}/words").status_code == 403  # a stranger's, always
    end_round(app, client, clock, code)
    assert app.test_client().get(f"/rooms/{code}/words").status_code == 403


def test_after_the_round_a_pupil_sees_every_word_in_the_room_with_theirs_marked(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    words = words_of(app, code)
    for found in words[:2]:
        send(ada, code, found.word)
    end_round(app, client, clock, code)
    answer = ada.get(f"/rooms/{code}/words?round=1")
    page = html(answer)
    assert answer.status_code == 200
    assert set(re.findall(r'<a id="w-([A-Z]+)"', page)) == {found.word for found in words}
    assert sorted(re.findall(r'<tr class="word-found"[^>]*><th scope="row">[^>]*>([A-Z]+)</a>', page)) == sorted(
        found.word for found in words[:2]
    )
    assert f'Room <span class="seed">{code}</span> · round 1 · Ada' in page
    assert f'<a href="/rooms/{code}/play">Back to the room</a>' in page
    assert '<input type="hidden" name="round" value="1">' in page  # the filter stays on this round
    opened = ada.get(
        f"/rooms/{code}/words?round=1&word={words[3].word}", headers={**HTMX, "HX-Target": "solution_word"}
    )
    assert opened.status_code == 200 and "breakdown" in html(opened)
    assert ada.get(f"/rooms/{code}/words").status_code == 200  # the current round by default


def test_the_host_sees_all_words_once_every_pupil_is_done(app, client, clock):
    code = open_room(client)
    join(app, code, "Ada")
    bruno = join(app, code, "Bruno")
    rooms = app.extensions["ruzzle.store"].rooms
    bruno_id = next(p.id for p in rooms.players(rooms.get(code).id) if p.nickname == "Bruno")
    client.post(f"/rooms/{code}/players/{bruno_id}/time", data={"seconds": "60"})
    start(client, clock, code)
    end_round(app, client, clock, code)
    answer = client.get(f"/rooms/{code}/words")
    assert answer.status_code == 409 and "still playing (extra time)" in html(answer)
    assert bruno.get(f"/rooms/{code}/words").status_code == 409  # Bruno plays on: not a word for him
    clock.advance(60)
    page = html(client.get(f"/rooms/{code}/words"))
    assert f'<a href="/rooms/{code}/host">Back to the room</a>' in page and 'class="word-found"' not in page
    assert bruno.get(f"/rooms/{code}/words").status_code == 200


def test_a_rounds_words_stay_that_rounds_when_the_next_begins(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    first = words_of(app, code)
    send(ada, code, first[0].word)
    end_round(app, client, clock, code)
    assert client.post(f"/rooms/{code}/rounds").status_code == 303
    start(client, clock, code)
    page = html(ada.get(f"/rooms/{code}/words?round=1"))
    assert f'id="w-{first[0].word}"' in page and 'class="word-found"' in page and "· round 1 ·" in page
    assert ada.get(f"/rooms/{code}/words?round=2").status_code == 409
    assert ada.get(f"/rooms/{code}/words").status_code == 409  # the current round: round 2, still running


@pytest.mark.parametrize(
    "number, status, words",
    [
        ("3", 404, "has had 1 round: there is no round 3"),
        ("0", 404, "there is no round 0"),
        ("x", 400, "whole number"),
        ("99999", 400, "whole number"),
        ("²", 400, "whole number"),
    ],
)
def test_a_round_the_room_has_not_had_is_refused_with_a_sentence(app, client, clock, number, status, words):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    end_round(app, client, clock, code)
    answer = ada.get(f"/rooms/{code}/words", query_string={"round": number})
    assert answer.status_code == status and words in html(answer)


def test_a_round_alone_on_the_same_letters_keeps_the_rooms_words_hidden(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    end_round(app, client, clock, code)
    ada.get(seed_url(app, code, "board"))  # a round of the same board, alone, starts now
    answer = ada.get(f"/rooms/{code}/words")
    assert answer.status_code == 403 and "Your round on this board is still running" in html(answer)


# --- the banner that brings a pupil back -------------------------------------------------------------------------


def test_a_pupil_who_leaves_sees_the_way_back_on_every_page(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    assert banner(html(ada.get("/"))) == code  # in the lobby already
    start(client, clock, code)
    for url in ("/", "/play/en/OTHER1", "/solve", "/me", "/play/xx/OTHER1"):
        assert banner(html(ada.get(url))) == code, url
    end_round(app, client, clock, code)
    assert banner(html(ada.get(seed_url(app, code, "solution")))) == code
    assert banner(html(ada.get(f"/rooms/{code}/play"))) is None


def test_no_banner_for_a_stranger_the_host_or_a_removed_pupil(app, client, clock):
    code = open_room(client)
    join(app, code, "Ada")
    bruno = join(app, code, "Bruno")
    stranger = app.test_client()
    stranger.get("/play/en/OTHER1")  # a player of the site, in no room
    assert banner(html(stranger.get("/"))) is None
    assert banner(html(client.get("/"))) is None  # the host is not a pupil of the room
    rooms = app.extensions["ruzzle.store"].rooms
    bruno_id = next(p.id for p in rooms.players(rooms.get(code).id) if p.nickname == "Bruno")
    assert banner(html(bruno.get("/"))) == code
    client.post(f"/rooms/{code}/players/{bruno_id}/remove")
    assert banner(html(bruno.get("/"))) is None


def test_the_banner_goes_when_the_room_is_idle_and_comes_back_with_a_round(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    clock.advance(ROOM_IDLE_SECONDS - 10)
    assert banner(html(ada.get("/"))) == code
    clock.advance(20)
    assert banner(html(ada.get("/"))) is None
    client.post(f"/rooms/{code}/rounds")
    start(client, clock, code)
    assert banner(html(ada.get("/"))) == code
    clock.advance(EXPIRY_SECONDS)
    assert banner(html(ada.get("/"))) is None


def test_the_banner_costs_one_query_a_page_and_none_for_fragments_and_files(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    with statements(app) as seen:
        assert banner(html(ada.get("/"))) == code
    assert len(seen) == 1 and "room_players" in seen[0]
    with statements(app) as seen:
        assert banner(html(ada.get("/", headers=HTMX))) is None
        assert ada.get("/static/css/ruzzle.css").status_code == 200
        assert app.test_client().get("/").status_code == 200  # no player id: nothing to ask
    assert seen == []
    start(client, clock, code)
    with statements(app) as seen:
        answer = ada.post("/play/en/OTHER1/words", data={"word": "XX"}, headers=HTMX)
    assert banner(html(answer)) is None and not any("room_players" in statement for statement in seen)


def test_a_browser_that_never_took_a_seat_asks_the_store_nothing_for_the_banner(app, client, clock):
    code = open_room(client)
    player = app.test_client()
    player.get("/play/en/OTHER1")  # a player of the site: its cookie says it has no seat anywhere
    with statements(app) as seen:
        assert banner(html(player.get("/play/en/OTHER1"))) is None
    assert not any("room_players" in statement for statement in seen)
    player.post(f"/rooms/{code}/players", data={"nickname": "Ada"})  # the join notes the seat in the cookie
    assert banner(html(player.get("/play/en/OTHER1"))) == code


def test_a_cookie_older_than_the_seat_note_asks_once_then_keeps_the_answer(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    stranger = app.test_client()
    stranger.get("/play/en/OTHER1")
    for browser in (ada, stranger):  # their cookies as a worker before the note wrote them
        with browser.session_transaction() as session:
            del session[SEATED]
    assert banner(html(ada.get("/"))) == code
    assert banner(html(stranger.get("/"))) is None
    with ada.session_transaction() as seated, stranger.session_transaction() as unseated:
        assert seated[SEATED] == 1 and unseated[SEATED] == 0
    with statements(app) as seen:
        assert banner(html(stranger.get("/"))) is None
    assert not any("room_players" in statement for statement in seen)


# --- the lock of the solution page, and My rounds -------------------------------------------------------------------


def test_the_solution_lock_during_a_room_round_leads_to_the_room(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    answer = ada.get(seed_url(app, code, "solution"))
    page = html(answer)
    assert answer.status_code == 403 and f"Your round in room {code} is still running" in page
    assert f'class="button button-primary" href="/rooms/{code}/play">Back to room {code}</a>' in page
    assert 'value="give-up"' not in page and "/round" not in page  # giving up a round alone would not end it
    end_round(app, client, clock, code)
    assert ada.get(seed_url(app, code, "solution")).status_code == 200


def test_my_rounds_lists_a_room_round_as_the_room(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    found = words_of(app, code)[0]
    send(ada, code, found.word)
    end_round(app, client, clock, code)
    row = html(ada.get("/me")).split("<tbody>")[-1]
    assert f'<a href="/rooms/{code}/play">Room <span class="seed">{code}</span> · round 1</a>' in row
    assert f'<a href="/rooms/{code}/words?round=1">Solution</a>' in row and f"/play/en/{SEED}" not in row
    clock.advance(EXPIRY_SECONDS)
    app.extensions["ruzzle.store"].rooms.delete_expired(clock.now)
    row = html(ada.get("/me")).split("<tbody>")[-1]
    assert "A closed room's round 1" in row and f'href="/play/en/{SEED}?' in row and "/rooms/" not in row


# --- a pupil away from the board comes back when the next round starts ------------------------------------------

FOLLOW = re.compile(r'<div id="room-follow" hidden hx-get="(/rooms/[A-Z0-9]+/next)" hx-trigger="every (\d+)s"')


def follow_poll(page: str) -> str | None:
    """The URL the page polls to follow the room (None when it does not)."""
    found = FOLLOW.search(page)
    return found and found.group(1)


def etag_of(answer) -> str:
    return answer.headers["ETag"]


def test_a_pupils_word_list_and_meaning_follow_the_room_a_strangers_do_not(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    word = words_of(app, code)[0].word
    end_round(app, client, clock, code)
    assert follow_poll(html(ada.get(f"/rooms/{code}/words?round=1"))) == f"/rooms/{code}/next"
    assert follow_poll(html(ada.get(f"/define/en/{word}"))) == f"/rooms/{code}/next"
    assert follow_poll(html(client.get(f"/rooms/{code}/words?round=1"))) is None  # the host's list stays put
    assert follow_poll(html(app.test_client().get(f"/define/en/{word}"))) is None  # nobody's room
    assert follow_poll(html(ada.get("/"))) is None  # a page of the pupil's own choosing is not taken away


def test_the_room_poll_is_a_304_until_the_next_round_starts_then_leads_to_the_board(app, client, clock):
    code = open_room(client)
    ada = join(app, code, "Ada")
    start(client, clock, code)
    end_round(app, client, clock, code)
    first = ada.get(f"/rooms/{code}/next", headers=HTMX)
    assert first.status_code == 200 and follow_poll(html(first)) == f"/rooms/{code}/next"
    again = {**HTMX, "If-None-Match": etag_of(first)}
    assert ada.get(f"/rooms/{code}/next", headers=again).status_code == 304
    client.post(f"/rooms/{code}/rounds")  # another round, not started: the pupil reads on
    waiting = ada.get(f"/rooms/{code}/next", headers=again)
    assert waiting.status_code == 200 and "HX-Redirect" not in waiting.headers
    assert ada.get(f"/rooms/{code}/next", headers={**HTMX, "If-None-Match": etag_of(waiting)}).status_code == 304
    client.post(f"/rooms/{code}/start")  # the 3-2-1 begins
    answer = ada.get(f"/rooms/{code}/next", headers={**HTMX, "If-None-Match": etag_of(waiting)})
    assert (answer.status_code, answer.headers.get("HX-Redirect")) == (200, f"/rooms/{code}/play")


@pytest.mark.parametrize("who", ["stranger", "host"])
def test_only_a_pupil_of_the_room_may_follow_it(app, client, clock, who):
    code = open_room(client)
    asker = app.test_client() if who == "stranger" else client
    assert asker.get(f"/rooms/{code}/next", headers=HTMX).status_code == 403


# --- a rename shows at the pupil's next poll --------------------------------------------------------------------

NAME = re.compile(r'<span id="member-name"( hx-swap-oob="true")?>([^<]*)</span>')


def rename(app, client, code: str, old: str, new: str) -> None:
    rooms = app.extensions["ruzzle.store"].rooms
    player = next(p.id for p in rooms.players(rooms.get(code).id) if p.nickname == old)
    assert client.post(f"/rooms/{code}/players/{player}/name", data={"nickname": new}).status_code == 303


@pytest.mark.parametrize("stage", ["waiting", "playing", "over"])
def test_a_renamed_pupil_sees_the_new_name_at_their_next_poll(app, client, clock, stage):
    code = open_room(client)
    ada = join(app, code, "Ada")
    if stage != "waiting":
        start(client, clock, code)
    if stage == "over":
        end_round(app, client, clock, code)
    poll = f"/rooms/{code}/clock?phase=playing&round=1" if stage == "playing" else f"/rooms/{code}/play"
    before = ada.get(poll, headers=HTMX)
    assert before.status_code == 200
    rename(app, client, code, "Ada", "Adele")
    answer = ada.get(poll, headers={**HTMX, "If-None-Match": etag_of(before)})
    assert answer.status_code == 200
    assert NAME.findall(html(answer)) == [(' hx-swap-oob="true"', "Adele")]
