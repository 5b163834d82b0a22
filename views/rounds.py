"""A player's rounds, kept in the signed session cookie: one per board URL, the most recent few."""

from __future__ import annotations

from flask import Flask, current_app, request, session
from flask.sessions import SecureCookieSessionInterface

from ruzzle.game import Round

from .boards import BoardRequest

ROUNDS = "rounds"
UNREADABLE = "ruzzle.session_unreadable"
UNREADABLE_MESSAGE = ("Your saved round could not be read (the cookie was changed, or it comes from another "
                      "server), so a new round has started.")


class RoundSessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, which also notes when a cookie was sent but could not be trusted."""

    def get_signing_serializer(self, app: Flask):
        """Flask builds a new signer per request; one per secret key does the same work."""
        key = app.secret_key
        cached = app.extensions.get("ruzzle.session_signer")
        if cached is None or cached[0] != key:
            cached = (key, super().get_signing_serializer(app))
            app.extensions["ruzzle.session_signer"] = cached
        return cached[1]

    def open_session(self, app: Flask, request_):
        session_ = super().open_session(app, request_)
        if session_ is not None and not session_ and request_.cookies.get(self.get_cookie_name(app)):
            request_.environ[UNREADABLE] = True
        return session_


def now() -> float:
    """The server's clock (a test may give the app another)."""
    return current_app.config["CLOCK"]()


def load_round(board: BoardRequest) -> tuple[Round | None, str | None]:
    """This board's round from the cookie (None if there is none yet), and a message if it was unreadable."""
    message = UNREADABLE_MESSAGE if request.environ.get(UNREADABLE) else None
    token = session.get(ROUNDS, {}).get(board.round_key) if isinstance(session.get(ROUNDS), dict) else None
    if token is None:
        return None, message
    try:
        return Round.from_token(token), message
    except (ValueError, TypeError):
        return None, UNREADABLE_MESSAGE


def start_round(board: BoardRequest) -> Round:
    """A new round on this board, starting now."""
    return Round(started=int(now()), seconds=board.seconds)


def save_round(board: BoardRequest, round_: Round) -> None:
    """Keep the round in the cookie as the most recent one; the oldest rounds beyond the limit are dropped."""
    rounds = session.get(ROUNDS)
    rounds = dict(rounds) if isinstance(rounds, dict) else {}
    rounds.pop(board.round_key, None)
    rounds[board.round_key] = round_.to_token()
    while len(rounds) > current_app.config["ROUNDS_IN_COOKIE"]:
        del rounds[next(iter(rounds))]
    session[ROUNDS] = rounds
    session.permanent = True
