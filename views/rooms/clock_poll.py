"""A pupil's clock poll with nothing new, answered 304 before Flask sees the request.

Every phone of a room polls its clock during the round (every 2 s, less often in a big room: views/rooms/core.py
`pace_of`), and almost every poll finds nothing new. Through Flask such a 304 cost a request context, the signed
cookie, the room's and the round's reads through SQLAlchemy, and every response hook: about 0.7 ms of CPU, three times
what the answer needs. Here, in front of the app, the poll is read from its own parts (the path, the query, the
cookie, If-None-Match), the pupil's clock in one statement (store/rooms.py `CLOCK_POLL`), and its tag made by the
view's own functions (core.py `clock_state`, `state_tag`). Only when that tag is the phone's, and the
clock still runs, is the answer a 304 here; anything else (another phase, the round's end, a new round, a removed
pupil, a renamed one, a cookie that does not read, an error) goes on to the app, whose view decides as always. So this
answers no request the app would answer otherwise: it answers the app's own 304s sooner.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from flask import Flask
from werkzeug.http import parse_etags

from ruzzle.room import is_room_code
from ruzzle.timeline import Timeline
from store import is_outage, is_player_id

from ..application import cookies_of
from ..rounds import PLAYER, RoundSessionInterface
from ..security import SECURITY_HEADERS, VARY_PAGE
from ..services import services
from .core import clock_state, state_tag

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

CLOCK_PATH = re.compile(r"/rooms/([A-Za-z0-9]{1,12})/clock")
# the headers of the view's 304 (views/security.py, keys.py, flask-compress and core.py's conditional)
NOT_MODIFIED_HEADERS = (("Cache-Control", "private, no-cache"), *SECURITY_HEADERS, ("Vary", VARY_PAGE))


class ClockPolls:
    """WSGI middleware: a running clock's poll whose ETag is still the pupil's gets its 304 here (see the module)."""

    def __init__(self, app: Flask, inner: WSGIApplication):
        self.app, self.inner = app, inner

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        try:
            headers = self.not_modified(environ)
        except Exception as error:  # noqa: BLE001 (the app's view answers instead, with its own page for an outage)
            if not is_outage(error):
                self.app.logger.exception("a clock poll could not be answered early")
            headers = None
        if headers is None:
            return self.inner(environ, start_response)
        start_response("304 NOT MODIFIED", headers)
        return []

    def not_modified(self, environ: WSGIEnvironment) -> list[tuple[str, str]] | None:
        """The headers of a 304 for a poll whose clock has not changed; None for any other request."""
        path = environ.get("PATH_INFO", "")
        match = CLOCK_PATH.fullmatch(path)
        sent = environ.get("HTTP_IF_NONE_MATCH")
        if (
            match is None
            or not sent
            or environ.get("REQUEST_METHOD") != "GET"
            or environ.get("HTTP_HX_REQUEST") != "true"
            or environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST") == "true"
        ):
            return None
        code = match.group(1).upper()
        player = self.player(environ.get("HTTP_COOKIE", ""))
        if player is None or not is_room_code(code):
            return None  # (a live room's code: its own view)
        store = services(self.app).store
        polled = store.rooms.clock_poll(code, player)
        moment, read_at = self.now(store), time.perf_counter()
        if polled is None or polled.active_until < moment:
            return None
        clock = Timeline(polled.started, polled.seconds, polled.shift, polled.paused_at, polled.ended).read(moment)
        query = parse_qs(environ.get("QUERY_STRING", ""))
        asked = (query.get("phase", [None])[0], query.get("round", [None])[0])
        if clock.over or asked != (clock.name, str(polled.number)):
            return None
        tag = state_tag(clock_state(clock, polled.number), polled.nickname, True, False, path)
        if not any(etag.split(":", 1)[0] == tag for etag in parse_etags(sent).as_set()):
            return None
        answered_at = moment + time.perf_counter() - read_at
        return [("ETag", f'"{tag}"'), *NOT_MODIFIED_HEADERS, ("X-Ruzzle-Time", f"{answered_at:.3f}")]

    def player(self, cookies: str) -> str | None:
        """The player id of the signed session cookie, as the app's session reads it; None if it does not read."""
        value = cookies_of(cookies).get(self.app.config["SESSION_COOKIE_NAME"])
        interface = self.app.session_interface
        if not value or not isinstance(interface, RoundSessionInterface):
            return None
        player = interface.read_cookie(self.app, value).get(PLAYER)
        return player if is_player_id(player) else None

    def now(self, store: Any) -> float:
        """The request's moment, as views/rounds.py `now` reads it (a test's clock, else the store's)."""
        clock: Callable[[], float] | None = self.app.config["CLOCK"]
        return clock() if clock is not None else float(store.database_time())


def answer_clock_polls_early(app: Flask) -> None:
    """Put ClockPolls in front of the app (Flask's documented way: wrap `wsgi_app`)."""
    app.wsgi_app = ClockPolls(app, app.wsgi_app)  # type: ignore[method-assign]


__all__ = ["ClockPolls", "answer_clock_polls_early"]
