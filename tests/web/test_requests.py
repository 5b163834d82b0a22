"""A small urlencoded form is read straight from its body (views.application.AppRequest): the same form as werkzeug
reads, the same answers to a body too big, cut short or not UTF-8; any other form goes werkzeug's own way."""

from __future__ import annotations

import io

import pytest
from flask import Request, request
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import ClientDisconnected

from views.application import SMALL_FORM, URLENCODED, AppRequest, Fields, cookies_of

BODIES = [
    b"word=LAICISES",
    b"path=0%2C0+0%2C1+1%2C1&word=",
    b"word=%C3%91ANDU&word=second&empty=&bare",
    b"nickname=Z%C3%B6e+%F0%9F%98%80&a=%ZZ&b=%C3",  # a bad escape and a cut UTF-8 sequence
    b"word=\xff\xfe",  # not UTF-8
    b"",
    b"word=" + b"A" * (SMALL_FORM - 5),  # the largest read here
    b"word=" + b"A" * (SMALL_FORM - 4),  # one byte more: werkzeug's way
]


def environ_of(body: bytes, content_type: str = URLENCODED, length: str | None = None) -> dict:
    return {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/words",
        "SERVER_NAME": "localhost",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(body)) if length is None else length,
    }


def form_read_by(request_class: type[Request], app, environ: dict) -> tuple[list, list, bytes]:
    with app.app_context():
        read = request_class(dict(environ, **{"wsgi.input": io.BytesIO(environ["wsgi.input"].getvalue())}))
        return list(read.form.items(multi=True)), list(read.files.items(multi=True)), read.get_data()


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("content_type", [URLENCODED, URLENCODED + "; charset=UTF-8", "text/plain"])
def test_a_form_is_what_werkzeug_reads(app, body, content_type):
    environ = environ_of(body, content_type)
    assert form_read_by(AppRequest, app, environ) == form_read_by(Request, app, environ)


def test_the_apps_requests_read_their_forms_here_and_werkzeug_reads_the_rest(app):
    with app.test_request_context("/words", method="POST", data={"word": "LAICISES"}):
        assert type(request._get_current_object()) is app.request_class and issubclass(app.request_class, AppRequest)
        assert request.form["word"] == "LAICISES" and "stream" in request.__dict__


def test_a_body_cut_short_is_the_400_werkzeug_gives(app):
    environ = environ_of(b"word=LAI", length="13")
    for request_class in (AppRequest, Request):
        with pytest.raises(ClientDisconnected):
            form_read_by(request_class, app, environ)


@pytest.mark.parametrize("length", ["-1", "１３", "13x", "99999999999999999999"])
def test_an_odd_content_length_goes_werkzeugs_way(app, length):
    environ = environ_of(b"word=LAICISES", length=length)
    try:
        expected = form_read_by(Request, app, environ)
    except Exception as error:  # noqa: BLE001 (whatever werkzeug says, the app says the same)
        with pytest.raises(type(error)):
            form_read_by(AppRequest, app, environ)
    else:
        assert form_read_by(AppRequest, app, environ) == expected


def test_a_small_form_over_the_apps_limit_is_refused_as_werkzeug_refuses_it(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 10
    answer = client.post("/play/en/TESTS2/words", data=b"word=LAICISES", content_type=URLENCODED)
    assert answer.status_code == 413


@pytest.mark.parametrize(
    ("key", "options"),
    [
        ("word", {}),
        ("missing", {}),
        ("missing", {"default": "x"}),
        ("count", {"type": int}),
        ("word", {"type": int, "default": -1}),  # a value the type refuses: the default
        ("empty", {"type": int}),
        ("both", {}),  # a repeated field: its first value
        ("missing", {"type": int, "default": 7}),
    ],
)
def test_a_fields_get_answers_as_werkzeugs(key, options):
    items = [("word", "LAICISES"), ("count", "12"), ("empty", ""), ("both", "first"), ("both", "second")]
    assert Fields(items).get(key, **options) == ImmutableMultiDict(items).get(key, **options)


def test_a_requests_query_form_and_cookies_are_fields(app):
    with app.test_request_context("/words?size=4x4", method="POST", data={"word": "A"}, headers={"Cookie": "a=b"}):
        assert all(isinstance(found, Fields) for found in (request.args, request.form, request.cookies))


COOKIE_HEADERS = [
    "",
    "session=eyJwbGF5ZXIiOiJreFNI.awxOHg.ESUWLrXaX5t8",
    "session=abc; ruzzle_language=fr",
    'a="quoted \\"value\\""; b = spaced ; =nameless; c',
    "a=1; a=2; empty=",
    "odd=caf%C3%A9; utf8=café; semi=x;;",
]


@pytest.mark.parametrize("header", COOKIE_HEADERS)
def test_cookies_are_what_werkzeug_reads(app, header):
    environ = {**environ_of(b""), "REQUEST_METHOD": "GET", "HTTP_COOKIE": header}
    with app.app_context():
        ours, werkzeugs = AppRequest(dict(environ)).cookies, Request(dict(environ)).cookies
    assert list(ours.items(multi=True)) == list(werkzeugs.items(multi=True))


def test_a_cookie_header_is_read_once_and_its_cookies_cannot_be_changed(app):
    header = "session=one-phone; ruzzle_language=it"
    assert cookies_of(header) is cookies_of(header)  # (the second request of this phone reads nothing)
    with pytest.raises(TypeError):
        cookies_of(header)["session"] = "another"  # type: ignore[index]
    with app.test_request_context("/", headers={"Cookie": header}):
        assert request.cookies is cookies_of(header)
