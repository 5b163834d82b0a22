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
FORGOTTEN = "forgotten"
FORGOTTEN_MESSAGE = ("Your earlier round on this board was let go to make room for your rounds on other big boards "
                     "(a browser keeps only 4 KB of a cookie), so a new round has started.")
# The signed cookie value may take this much: with its name and attributes (~80 bytes), under the 4093 bytes
# that werkzeug warns above and that browsers keep. Found words are a bit set, so only big boards come near.
COOKIE_VALUE_BUDGET = 3900
ROUGH_SAFE_SIZE = 2000  # below this many characters of found words, the cookie fits without measuring it


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
        return None, FORGOTTEN_MESSAGE if board.round_key in _forgotten() else message
    try:
        return Round.from_token(token), message
    except (ValueError, TypeError):
        return None, UNREADABLE_MESSAGE


def start_round(board: BoardRequest) -> Round:
    """A new round on this board, starting now."""
    return Round(started=int(now()), seconds=board.seconds)


def save_round(board: BoardRequest, round_: Round) -> None:
    """Keep the round in the cookie as the most recent one; the oldest rounds beyond the limit are dropped,
    and so are the oldest while the cookie would be too big for a browser (noted, to say so on their board)."""
    rounds = session.get(ROUNDS)
    rounds = dict(rounds) if isinstance(rounds, dict) else {}
    rounds.pop(board.round_key, None)
    rounds[board.round_key] = round_.to_token()
    while len(rounds) > current_app.config["ROUNDS_IN_COOKIE"]:
        del rounds[next(iter(rounds))]
    forgotten = [key for key in _forgotten() if key != board.round_key]
    while len(rounds) > 1 and _too_big(rounds, forgotten):
        oldest = next(iter(rounds))
        del rounds[oldest]
        forgotten = [*forgotten, oldest][-current_app.config["ROUNDS_IN_COOKIE"]:]
    session[ROUNDS] = rounds
    if forgotten:
        session[FORGOTTEN] = forgotten
    else:
        session.pop(FORGOTTEN, None)
    session.permanent = True


def _forgotten() -> list[str]:
    """The boards whose rounds were let go for room in the cookie."""
    forgotten = session.get(FORGOTTEN)
    return [key for key in forgotten if isinstance(key, str)] if isinstance(forgotten, list) else []


def _too_big(rounds: dict, forgotten: list[str]) -> bool:
    """Whether the session with these rounds would sign into a cookie value beyond the budget."""
    if sum(len(str(token)) for token in rounds.values()) < ROUGH_SAFE_SIZE:
        return False
    contents = {**session, ROUNDS: rounds, FORGOTTEN: forgotten}
    return len(current_app.session_interface.get_signing_serializer(current_app).dumps(contents)) > COOKIE_VALUE_BUDGET
