"""The app's Flask class: its templates' environment (views.pages.PageEnvironment) and its request class."""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO
from typing import Any, cast
from urllib.parse import parse_qsl

from flask import Flask, Request, current_app
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.exceptions import ClientDisconnected
from werkzeug.sansio.http import parse_cookie
from werkzeug.utils import cached_property

from .pages import PageEnvironment

URLENCODED = "application/x-www-form-urlencoded"
SMALL_FORM = 4096  # bytes: a word, a path, a nickname is a few hundred; a bigger form goes werkzeug's own way
COOKIE_HEADERS_KEPT = 4096  # the Cookie headers each worker keeps read (cookies_of): a school's phones, each its own


class Fields(ImmutableMultiDict[str, str]):
    """werkzeug's read-only fields (a query, a form, the cookies) whose `get` finds a missing field without raising:
    werkzeug's made and caught an HTTP exception (BadRequestKeyError) for every absent one, 2 µs each, five a word."""

    # (werkzeug's parameter names and its overloads' behaviour, in one signature)
    def get(self, key: str, default: Any = None, type: Any = None) -> Any:  # type: ignore[override]  # noqa: A002
        values = cast(list[str] | None, dict.get(self, key))  # (a MultiDict keeps each key's values in a list)
        if not values:
            return default
        if type is None:
            return values[0]
        try:
            return type(values[0])
        except (ValueError, TypeError):
            return default


@lru_cache(maxsize=COOKIE_HEADERS_KEPT)
def cookies_of(header: str) -> Fields:
    """A Cookie header's cookies, read as werkzeug reads them; each header read once (a phone sends the same one with
    every word and poll, and reading it cost 10 µs: werkzeug walks every header of the request to find it). The
    cookies are read-only, so one reading serves every request that sends that header."""
    return cast(Fields, parse_cookie(header, cls=Fields))


class AppRequest(Request):
    """Flask's request, a small urlencoded form (every word a phone sends) read straight from its body.

    werkzeug reads one through its form parser and a limited stream, asking the app's limits through Flask's
    context-local objects eleven times: 25 µs for `word=LAICISES`, a twentieth of a room's word. The form is the same
    as werkzeug's, a body cut short the same 400 (tests/web/test_requests.py)."""

    parameter_storage_class = Fields
    dict_storage_class = Fields

    @cached_property
    def cookies(self) -> Fields:
        return cookies_of(self.environ.get("HTTP_COOKIE", ""))

    def _load_form_data(self) -> None:
        if "form" not in self.__dict__ and not self._read_small_form():
            super()._load_form_data()

    def _read_small_form(self) -> bool:
        """Read the form if it is a small urlencoded one within the app's limit; False for werkzeug to read it."""
        environ = self.environ
        length_text = environ.get("CONTENT_LENGTH", "")
        if self.shallow or environ.get("CONTENT_TYPE") != URLENCODED:
            return False
        if not (length_text.isascii() and length_text.isdigit()):
            return False
        length = int(length_text)
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        if length > SMALL_FORM or (limit is not None and length > limit):
            return False  # (a bigger form, or one over the limit: werkzeug's way, which refuses the latter with 413)
        body = environ["wsgi.input"].read(length)
        if len(body) < length:
            raise ClientDisconnected()  # as werkzeug's limited stream says it
        try:
            fields = parse_qsl(body.decode(), keep_blank_values=True, errors="werkzeug.url_quote")
        except ValueError:
            fields = []  # as werkzeug's parser, silent: a body that is no UTF-8 is an empty form
        storage = self.parameter_storage_class
        self.__dict__.update(stream=BytesIO(), form=storage(fields), files=storage())
        return True


class RuzzleFlask(Flask):
    """Flask, its templates rendered in a PageEnvironment and its requests AppRequests."""

    jinja_environment = PageEnvironment
    request_class = AppRequest
