"""A lesson without loose ends: a teacher's link can be replaced (the old one, and every device that became a host
through it, stop counting), private pages stay out of caches and Referer headers, keys stay out of the access log, a
control character is a 400 on every store, and a homework's boards are not solvable elsewhere before the deadline."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from types import SimpleNamespace

import pytest

from ruzzle.generator import LATEST_VERSION
from tools.servers import gunicorn_server
from views.access_log import KeylessLogger
from views.boards import BoardRequest
from views.keys import REDACTED, redact_keys

from .conftest import START
from .helpers import SECONDS, iso, join, make_class, open_room, text_of

REMOTE = re.compile(r'data-remote-url="https?://[^"/]+(/rooms/[A-Z0-9]{6}/remote/[\w-]+)"')
CONFIRMED = {"confirm": "yes"}
SEED = "KEYS42"


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


def remote_link(client, code: str) -> str:
    """The remote link the host's page shows (a path)."""
    return REMOTE.search(client.get(f"/rooms/{code}/host").get_data(as_text=True)).group(1)


def set_homework(client, due: float = START + 3600, seed: str = SEED) -> str:
    """The teacher sets homework on one board; the teacher's private link (a path)."""
    answer = client.post("/assignments", data={"language": "en", "time": str(SECONDS), "seeds": seed, "due": iso(due)})
    assert answer.status_code == 303, text_of(answer)
    return answer.headers["Location"]


# --- a new remote link --------------------------------------------------------------------------------------------


def test_a_replaced_remote_link_ends_the_hosting_of_every_device_that_opened_it(app, client):
    code = open_room(client)
    old = remote_link(client, code)
    phone = app.test_client()
    assert phone.get(old).status_code == 303 and phone.post(f"/rooms/{code}/lock").status_code == 303

    assert client.post(f"/rooms/{code}/remote/new", data=CONFIRMED).status_code == 303

    refused = phone.post(f"/rooms/{code}/unlock")
    assert refused.status_code == 403 and f"Only the host of room {code}" in text_of(refused)
    stale = app.test_client().get(old)
    assert stale.status_code == 403 and "it was replaced by a new one" in text_of(stale)
    new = remote_link(client, code)
    assert new != old
    other = app.test_client()
    assert other.get(new).status_code == 303 and other.post(f"/rooms/{code}/unlock").status_code == 303


def test_the_host_that_asks_for_a_new_remote_link_stays_a_host(app, client):
    code = open_room(client)
    phone = app.test_client()
    phone.get(remote_link(client, code))
    assert phone.post(f"/rooms/{code}/remote/new", data={**CONFIRMED, "view": "remote"}).status_code == 303
    assert phone.post(f"/rooms/{code}/lock").status_code == 303


@pytest.mark.parametrize("form", [{}, {"confirm": "no"}])
def test_a_new_remote_link_needs_the_box_ticked(app, client, form):
    code = open_room(client)
    old = remote_link(client, code)
    answer = client.post(f"/rooms/{code}/remote/new", data=form)
    assert answer.status_code == 400 and "Tick the box to confirm" in text_of(answer)
    assert remote_link(client, code) == old


def test_only_a_host_makes_a_new_remote_link(app, client):
    code = open_room(client)
    old = remote_link(client, code)
    pupil = join(app, code, "Ana")
    assert pupil.post(f"/rooms/{code}/remote/new", data=CONFIRMED).status_code == 403
    assert remote_link(client, code) == old


def test_the_host_page_offers_a_new_remote_link_with_a_box_to_tick(client):
    code = open_room(client)
    page = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    assert f'action="/rooms/{code}/remote/new"' in page and 'name="confirm" value="yes" required' in page


# --- a new teacher's link for homework and for a class ------------------------------------------------------------


def test_a_new_homework_link_opens_the_page_and_the_old_one_nothing(client):
    old = set_homework(client)
    code, key = re.fullmatch(r"/a/([A-Z0-9]{6})/teacher\?key=([\w-]+)", old).groups()
    assert f'action="/a/{code}/teacher/new"' in client.get(old).get_data(as_text=True)
    assert client.post(f"/a/{code}/teacher/new", data={"key": key}).status_code == 400
    answer = client.post(f"/a/{code}/teacher/new", data={"key": key, **CONFIRMED})
    new = answer.headers["Location"]
    assert answer.status_code == 303 and new != old and client.get(new).status_code == 200
    assert client.get(old).status_code == 403
    assert client.get(f"/a/{code}/results.csv?key={key}").status_code == 403  # the downloads ask the same key


def test_a_new_class_link_opens_the_page_and_the_old_one_nothing(client):
    code, old = make_class(client)
    key = old.split("key=")[1]
    assert f'action="/classes/{code}/new-link"' in client.get(old).get_data(as_text=True)
    assert client.post(f"/classes/{code}/new-link", data={"key": key}).status_code == 400
    answer = client.post(f"/classes/{code}/new-link", data={"key": key, **CONFIRMED})
    new = answer.headers["Location"]
    assert answer.status_code == 303 and new != old and client.get(new).status_code == 200
    refused = client.get(old)
    assert refused.status_code == 403 and f"This is not the private link of class {code}" in text_of(refused)


# --- private pages: no copy kept, no Referer ------------------------------------------------------------------------


def private_pages(app, client) -> dict[str, tuple]:
    """A page of each private kind: (client, path)."""
    code = open_room(client)
    pupil = join(app, code, "Ana")
    homework = set_homework(client)
    assignment = homework.split("/")[2]
    _, class_link = make_class(client)
    return {
        "host": (client, f"/rooms/{code}/host"),
        "remote": (client, f"/rooms/{code}/remote"),
        "remote link": (app.test_client(), remote_link(client, code)),
        "pupil's seat": (pupil, f"/rooms/{code}/play"),
        "homework teacher": (client, homework),
        "homework pupil": (client, f"/a/{assignment}"),
        "class": (client, class_link),
    }


def test_private_pages_are_kept_by_no_cache_and_name_no_address_to_another_site(app, client):
    """same-origin, not no-referrer: under no-referrer a browser posts the page's forms with `Origin: null`, which the
    cross-site check refuses (test_browser_lesson_loose_ends.py joins and hosts a room through such pages)."""
    answers = {name: visitor.get(path) for name, (visitor, path) in private_pages(app, client).items()}
    assert {
        name: (answer.headers["Cache-Control"], answer.headers["Referrer-Policy"]) for name, answer in answers.items()
    } == {name: ("no-store", "same-origin") for name in answers}


def test_a_public_board_page_keeps_its_usual_headers(client):
    answer = client.get("/play/en/PUBLIC")
    assert answer.headers["Referrer-Policy"] == "same-origin" and answer.headers.get("Cache-Control") != "no-store"


# --- keys in the access log -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("logged", "kept"),
    [
        ("GET /rooms/K7M2QX/remote/Ab-c_9x HTTP/1.1", f"GET /rooms/K7M2QX/remote/{REDACTED} HTTP/1.1"),
        (
            "GET /rooms/K7M2QX/remote/Ab-c_9x?view=host HTTP/1.1",
            f"GET /rooms/K7M2QX/remote/{REDACTED}?view=host HTTP/1.1",
        ),
        ("POST /rooms/K7M2QX/remote/new HTTP/1.1", "POST /rooms/K7M2QX/remote/new HTTP/1.1"),
        ("/rooms/K7M2QX/remote/news-xyz", f"/rooms/K7M2QX/remote/{REDACTED}"),
        ("GET /a/K7M2QX/teacher?key=Ab-c_9x HTTP/1.1", f"GET /a/K7M2QX/teacher?key={REDACTED} HTTP/1.1"),
        ("/classes/K7M2QX?lang=fr&key=Ab-c_9x&x=1", f"/classes/K7M2QX?lang=fr&key={REDACTED}&x=1"),
        ("/assignments?class_key=Ab-c_9x", f"/assignments?class_key={REDACTED}"),
        ("/play/en/KEYS42?monkey=1", "/play/en/KEYS42?monkey=1"),
    ],
)
def test_keys_are_redacted_from_what_is_logged(logged, kept):
    assert redact_keys(logged) == kept


def test_gunicorns_access_log_atoms_carry_no_key():
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/a/K7M2QX/teacher?key=SECRET1",
        "PATH_INFO": "/rooms/K7M2QX/remote/SECRET2",
        "QUERY_STRING": "key=SECRET1",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": "http://x/classes/K7M2QX?key=SECRET3",
    }
    response = SimpleNamespace(status="200 OK", headers=[], sent=10)
    request = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    logger = KeylessLogger.__new__(KeylessLogger)
    atoms = logger.atoms_wrapper_class(
        logger.atoms(response, request, environ, SimpleNamespace(seconds=0, microseconds=5))
    )
    read = {name: atoms[name] for name in atoms}  # every atom a log format could name, as the format reads it
    assert "{referer}i" in read and "{path_info}e" in read and "r" in read
    assert not [value for value in read.values() if isinstance(value, str) and "SECRET" in value]
    assert "GET /a/K7M2QX/teacher?key=" in read["r"]


@pytest.mark.server
def test_a_real_gunicorns_access_log_names_no_key(tmp_path):
    log = tmp_path / "access.log"
    with gunicorn_server(workers=1, GUNICORN_CMD_ARGS=f"--access-logfile {log}") as server:
        for path, referer in [
            ("/rooms/K7M2QX/remote/SECRETREMOTE", ""),
            ("/a/K7M2QX/teacher?key=SECRETHOMEWORK", ""),
            ("/healthz", "http://elsewhere/classes/K7M2QX?key=SECRETCLASS"),
        ]:
            request = urllib.request.Request(server.url + path, headers={"Referer": referer} if referer else {})
            try:
                urllib.request.urlopen(request, timeout=60).close()
            except urllib.error.HTTPError as error:
                error.close()  # 404s are logged as well
    text = log.read_text()
    assert "/rooms/K7M2QX/remote/" in text and "key=" in text and "SECRET" not in text


# --- control characters ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("character", ["\x00", "\x01", "\x1b", "\x7f"])
@pytest.mark.parametrize(
    "where", ["class name", "host's find", "nickname", "board word", "path", "query name", "raw query"]
)
def test_a_control_character_is_a_400_sentence_on_every_store(app, client, character, where):
    code = open_room(client)
    requests = {
        "class name": lambda: client.post("/classes", data={"name": f"7{character}B", "pupils": "Ana"}),
        "host's find": lambda: client.get(f"/rooms/{code}/host", query_string={"find": character}),
        "nickname": lambda: app.test_client().post(f"/rooms/{code}/players", data={"nickname": f"An{character}a"}),
        "board word": lambda: client.post("/play/en/KEYS42/words", data={"word": f"RA{character}IN"}),
        "path": lambda: client.get(f"/play/en/KE{character}YS"),
        "query name": lambda: client.get("/play/en/KEYS42", query_string={f"si{character}ze": "4x4"}),
        "raw query": lambda: client.get("/play/en/KEYS42", environ_overrides={"QUERY_STRING": f"a{character}"}),
    }
    answer = requests[where]()
    assert answer.status_code == 400 and "control character" in text_of(answer)


def test_a_pasted_board_and_class_list_keep_their_tabs_and_line_breaks(client):
    answer = client.post("/classes", data={"name": "7B", "pupils": "Ana\r\nLuca\tB"})
    assert answer.status_code in (303, 422)


# --- a homework's boards wait for its deadline ------------------------------------------------------------------


def homework_board_pages(app) -> dict[str, str]:
    """The pages of the homework board's letters that list words: its solution, as a typed board, its projector."""
    generator = {"gen": str(LATEST_VERSION)}  # homework is set on the newest generator's boards
    with app.test_request_context():
        letters = BoardRequest.from_url("en", SEED, generator).board().to_code()
    return {
        "solution": f"/play/en/{SEED}/solution?gen={LATEST_VERSION}",
        "typed board": f"/solve/en/{letters}",
        "projector's walk-through": f"/play/en/{SEED}/projector?gen={LATEST_VERSION}&step=1",
    }


@pytest.mark.parametrize("page", ["solution", "typed board", "projector's walk-through"])
def test_a_homeworks_board_is_solvable_nowhere_until_its_deadline(app, client, clock, page):
    set_homework(client, due=START + 3600)
    path = homework_board_pages(app)[page]
    stranger = app.test_client()
    locked = stranger.get(path)
    assert locked.status_code == 403 and "This board is homework" in text_of(locked)
    clock.advance(3600 + SECONDS + app.config["ROUND_GRACE_SECONDS"] + 1)
    assert stranger.get(path).status_code == 200


@pytest.mark.parametrize("path", ["/play/en/OTHER1/solution", f"/play/en/{SEED}/solution?gen=1"])
def test_other_letters_stay_solvable_while_the_homework_runs(client, path):
    set_homework(client)
    assert client.get(path).status_code == 200
