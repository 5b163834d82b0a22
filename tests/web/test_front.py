"""nginx in front of gunicorn, as the README runs them in production (deploy/nginx.conf): every static file a page links
comes from the files, as the app would send it, and never reaches the app (gunicorn's access log has no line for it);
pages, words and polls go through to the app and work; nothing outside the static files leaks."""

from __future__ import annotations

import gzip
import http.client
import itertools
import re
import socket
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import pytest

from ruzzle import Lexicon, blocked_words, generate
from ruzzle.game import Solution
from tools.nginx import nginx_front
from tools.servers import SYNC_WORKERS, gunicorn_server
from views.collect_static import main as collect_static

pytestmark = pytest.mark.server  # every test here talks to the module's own gunicorn and nginx

SEED = "FRONT1"
PAGES = ["/", f"/play/en/{SEED}", f"/play/en/{SEED}/projector", "/solve"]
# What the app puts on every answer (views/security.py), a static file's too
SECURITY_HEADERS = ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"]
LOGGED_REQUEST = re.compile(r'"[A-Z]+ (\S+) HTTP/[\d.]+"')
MARKERS = itertools.count()


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes  # as sent, before any decoding

    def content(self) -> bytes:
        """The body as the browser reads it (gzip undone)."""
        return gzip.decompress(self.body) if self.headers.get("Content-Encoding") == "gzip" else self.body

    def text(self) -> str:
        return self.content().decode("utf-8")


@dataclass
class Front:
    """nginx in front of gunicorn: nginx's base URL, and gunicorn's access log."""

    url: str
    access_log: Path

    def request(
        self, path: str, method: str = "GET", form: dict | None = None, timeout: float = 30, **headers: str
    ) -> Answer:
        """One request to nginx, the path sent exactly as given (no client-side clean-up of `..`)."""
        address = urllib.parse.urlsplit(self.url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=timeout)
        body = urllib.parse.urlencode(form) if form is not None else None
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body, headers={name.replace("_", "-"): v for name, v in headers.items()})
            response = connection.getresponse()
            return Answer(response.status, response.headers, response.read())
        finally:
            connection.close()

    def paths_the_app_answered(self) -> list[str]:
        """The request paths in gunicorn's access log, up to now: a worker writes its line just after it answers, so
        this first asks the app for a page of its own and waits (a few seconds at most) until its line is there."""
        marker = f"/healthz?marker={next(MARKERS)}"
        assert self.request(marker).status == 200
        deadline = time.monotonic() + 10
        while True:
            paths = LOGGED_REQUEST.findall(self.access_log.read_text())
            if marker in paths:
                return paths
            assert time.monotonic() < deadline, f"gunicorn's access log has no line for {marker}"
            time.sleep(0.05)


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """The README's production pair: the static folder written by views.collect_static, gunicorn (RUZZLE_PROXY_FIX=1:
    one proxy in front), nginx with deploy/nginx.conf."""
    folder = tmp_path_factory.mktemp("front")
    assert collect_static([str(folder / "static")]) == 0
    access_log = folder / "gunicorn-access.log"
    store = {"RUZZLE_DATABASE_URL": f"sqlite:///{folder / 'store.sqlite3'}", "RUZZLE_PROXY_FIX": "1"}
    with gunicorn_server(workers=2, access_log=access_log, **store) as app_server:
        upstream = urllib.parse.urlsplit(app_server.url).netloc
        with nginx_front(upstream, folder / "static") as nginx:
            yield Front(nginx.url, access_log)


@pytest.fixture(scope="module")
def linked(front) -> dict[str, list[str]]:
    """Each page's static files, as its HTML (fetched through nginx) links them."""
    found = {}
    for page in PAGES:
        answer = front.request(page)
        assert answer.status == 200, page
        found[page] = sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', answer.text())))
        assert found[page], page
    return found


def linked_files(linked) -> list[str]:
    return sorted({url for urls in linked.values() for url in urls})


def cache_directives(value: str | None) -> set[str]:
    return {part.strip() for part in (value or "").split(",")}


def static_lines(paths: list[str]) -> list[str]:
    return [path for path in paths if path.startswith("/static")]


def test_every_static_file_a_page_links_comes_from_nginx_as_the_app_sends_it(front, linked, client):
    for url in linked_files(linked):
        from_nginx = front.request(url, Accept_Encoding="gzip")
        from_app = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert (from_nginx.status, from_app.status_code) == (200, 200), url
        app_body = gzip.decompress(from_app.data) if from_app.content_encoding == "gzip" else from_app.data
        assert from_nginx.content() == app_body, url
        assert from_nginx.headers["Content-Type"] == from_app.headers["Content-Type"], url
        assert cache_directives(from_nginx.headers["Cache-Control"]) == cache_directives(
            from_app.headers["Cache-Control"]
        ), url
        for header in SECURITY_HEADERS:
            assert from_nginx.headers[header] == from_app.headers[header], (url, header)
    assert static_lines(front.paths_the_app_answered()) == []


@pytest.mark.parametrize("page", PAGES)
def test_the_app_answers_a_page_but_none_of_the_static_files_it_links(front, linked, page):
    for url in linked[page]:
        assert front.request(url).status == 200
    answered = front.paths_the_app_answered()
    assert page in answered
    assert static_lines(answered) == []


def test_scripts_and_styles_come_gzipped_from_their_files(front, linked):
    texts = [url for url in linked_files(linked) if url.endswith((".js", ".css"))]
    assert texts
    for url in texts:
        answer = front.request(url, Accept_Encoding="gzip")
        assert answer.headers["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in answer.headers["Vary"], url
        assert len(answer.body) < len(answer.content()), url


def test_a_plain_name_is_revalidated_by_nginx_without_the_app(front):
    first = front.request("/static/css/ruzzle.css")
    assert first.status == 200 and cache_directives(first.headers["Cache-Control"]) == {"no-cache"}
    again = front.request("/static/css/ruzzle.css", If_None_Match=first.headers["ETag"])
    assert again.status == 304
    assert "/static/css/ruzzle.css" not in front.paths_the_app_answered()


@pytest.mark.parametrize(
    "path",
    [
        "/static/",
        "/static/css/",
        "/static/nonexistent.css",
        "/static/css/nothing.000000000000.css",
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static/css/../../app.py",
        "/static/../gunicorn.conf.py",
        "/static/../../../etc/passwd",
    ],
)
def test_a_url_that_is_no_static_file_is_a_404_that_shows_nothing_of_the_server(front, path):
    answer = front.request(path)
    assert answer.status in (400, 404)
    shown = answer.text()
    # no file's content (app.py, gunicorn.conf.py, /etc/passwd), no listing of a folder (nginx's, werkzeug's)
    for secret in ("create_app", "worker_class", "root:x:", "Index of", "Directory listing", "projector.css"):
        assert secret not in shown, secret
    # nginx answers it: the app never sees a miss under /static/ either
    assert path not in front.paths_the_app_answered()


def board_words() -> list:
    """The board's words, best first (classroom filter on, as the web app has it)."""
    return list(Solution.of(generate("en", SEED), Lexicon.builtin("en"), blocked_words("en")))


def cookie_of(answer: Answer) -> str:
    return answer.headers["Set-Cookie"].split(";")[0]


def test_a_board_page_and_a_word_go_through_nginx_to_the_app(front):
    page = front.request(f"/play/en/{SEED}")
    assert page.status == 200 and 'id="board"' in page.text()
    # the app's own headers come through, and the browser's Host: links are to the address the phone used
    assert page.headers["Content-Security-Policy"] and page.headers["X-Ruzzle-Time"]
    assert f'data-share="{front.url}/play/en/{SEED}"' in page.text()
    # RUZZLE_PROXY_FIX=1 with one proxy in front: the cookie is for HTTPS only
    assert "Secure" in page.headers["Set-Cookie"]
    best = board_words()[0]
    answer = front.request(
        f"/play/en/{SEED}/words", "POST", {"word": best.word}, Cookie=cookie_of(page), HX_Request="true"
    )
    assert answer.status == 200
    assert f'<strong class="score">{best.score}</strong>' in answer.text()
    assert f"/play/en/{SEED}/words" in front.paths_the_app_answered()


def test_a_rooms_poll_with_nothing_new_is_a_304_through_nginx(front):
    opened = front.request("/rooms", "POST", {"language": "en", "size": "4x4", "time": "60", "seed": SEED})
    assert opened.status == 303, opened.text()
    code = re.fullmatch(r"/rooms/([A-Z0-9]{6})/host", opened.headers["Location"]).group(1)
    joined = front.request(f"/rooms/{code}/players", "POST", {"nickname": "Ada"})
    assert joined.status == 303
    phone = cookie_of(joined)
    first = front.request(f"/rooms/{code}/play", Cookie=phone, HX_Request="true")
    assert first.status == 200 and first.headers["ETag"]
    again = front.request(f"/rooms/{code}/play", Cookie=phone, HX_Request="true", If_None_Match=first.headers["ETag"])
    assert again.status == 304
    assert f"/rooms/{code}/play" in front.paths_the_app_answered()


def test_a_phone_that_sends_its_word_slowly_holds_no_worker(tmp_path):
    """nginx reads a request's whole body before it passes it on: with a single worker that answers one request at a
    time, a phone stuck halfway through its POST leaves it free for the others."""
    store = {"RUZZLE_DATABASE_URL": f"sqlite:///{tmp_path / 'store.sqlite3'}", "RUZZLE_PROXY_FIX": "1"}
    with gunicorn_server(workers=1, **store, **SYNC_WORKERS) as app_server:
        upstream = urllib.parse.urlsplit(app_server.url).netloc
        (tmp_path / "static").mkdir()
        with nginx_front(upstream, tmp_path / "static") as nginx:
            address = urllib.parse.urlsplit(nginx.url)
            with socket.create_connection((address.hostname, address.port)) as slow_phone:
                slow_phone.sendall(
                    f"POST /play/en/{SEED}/words HTTP/1.1\r\nHost: {address.netloc}\r\n"
                    "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nword=".encode()
                )
                # Held by the slow phone, the worker would answer only when nginx gave up on it (client_body_timeout,
                # 10 s): the page would time out first.
                page = Front(nginx.url, tmp_path / "no-log").request(f"/play/en/{SEED}", timeout=5)
                assert page.status == 200
