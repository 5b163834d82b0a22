"""Per-client limits on what a person does a few times and a script thousands of times a second: joining a room,
trying room codes that name no open room, opening rooms, sending words. Flask-Limiter counts each in a moving
window per client, in each worker's memory or in the storage RUZZLE_RATELIMIT_STORAGE_URI names (README, "Limits
per client"). The numbers are settings (LIMIT_*, in Flask-Limiter's notation: "10 per 5 seconds;90 per minute");
RATELIMIT_ENABLED=0 turns them all off, an empty setting turns one off.
"""

from __future__ import annotations

import datetime
import math
import time
from collections.abc import Callable
from functools import lru_cache

from flask import Flask, abort, current_app, redirect, request, session
from flask.typing import ResponseReturnValue
from flask_babel import format_timedelta
from flask_limiter import Limiter, RateLimitExceeded
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import HTTPException, TooManyRequests

from .rounds import player_id
from .services import services
from .translations import gettext

CODE_LOOKUPS = "room codes"  # the scope of the count of codes that named no open room, shared by every room page
NEW_BROWSER = "new"  # in the session: a browser given its cookie by a room code's page, not yet counted as new


def client_address() -> str:
    """The client as the limits count it: its address (behind RUZZLE_PROXY_FIX, the address the proxy reports)."""
    return request.remote_addr or "unknown"  # (an empty key would make Flask-Limiter skip the limit)


def player_or_address() -> str:
    """A pupil's words count against the pupil, the player in the cookie (a class shares one address); a request
    without a player, against its address."""
    player = player_id()
    return f"player {player}" if player else f"address {client_address()}"


def joins_reason() -> str:
    return gettext("Many players joined rooms from this network in a short time.")


def new_rooms_reason() -> str:
    return gettext("Many rooms were opened from this network in a short time.")


def words_reason() -> str:
    return gettext("Slow down: that is more words than anyone traces in a few seconds, so this one was not taken.")


def code_misses_reason() -> str:
    return gettext("Many room codes that name no room were tried from this network.")


def rejoin_misses_reason() -> str:
    return gettext(
        "Too many wrong codes were typed for this name, so it is closed for a while, even to the right code. "
        "Ask your teacher."
    )


def init_limits(app: Flask) -> Limiter:
    """Flask-Limiter on the app, its limits on the views that take them, and its refusals as the app's 429 page."""
    limiter = services(app).limiter
    # Flask-Limiter logs a storage that does not answer to a logger with no handler of its own (so nothing reached
    # the servers' log while Redis was away): the app's logger, where the app's own counts log the same outage
    limiter.logger = app.logger
    limiter.init_app(app)
    if not limiter.enabled:
        return limiter

    def setting(name: str) -> Callable[[], str]:
        return lambda: app.config[name]  # read per request: a test or an operator may change it

    joins = limiter.limit(setting("LIMIT_JOINS"), error_message=joins_reason)
    new_rooms = limiter.limit(setting("LIMIT_NEW_ROOMS"), error_message=new_rooms_reason)
    # a room's words and a solo board's: the same pupil's hands, one count
    words = limiter.shared_limit(
        setting("LIMIT_WORDS"), "words", key_func=player_or_address, error_message=words_reason
    )
    for endpoint, limit in (
        ("rooms.join_room", joins),
        ("rooms.create_room", new_rooms),
        ("assignments.join_assignment", joins),
        ("assignments.create_assignment", new_rooms),
        ("classes.create_class", new_rooms),
        ("assignments.submit_word", words),
        ("rooms.submit_room_word", words),
        ("play.submit_word", words),
    ):
        # (Flask-Limiter's decorator is typed as if it made every view async; ours stay as they are)
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])  # type: ignore[assignment]

    @app.errorhandler(RateLimitExceeded)
    def too_many_requests(error: RateLimitExceeded) -> ResponseReturnValue:
        """The limit's reason, how long to wait, and Retry-After: the app's own 429 (a page, or a fragment)."""
        reached = limiter.current_limit
        assert reached is not None  # (the limit that raised RateLimitExceeded)
        wait = seconds_to_wait(reached.window.reset_time)
        return app.handle_http_exception(refusal(str(error.description), wait))

    return limiter


def refusal(reason: str, wait: int) -> TooManyRequests:
    """A 429 that says why and for how long, in words and in Retry-After."""
    return TooManyRequests(
        reason + " " + gettext("Wait %(wait)s, then try again.", wait=how_long(wait)), retry_after=wait
    )


def seconds_to_wait(free_at: float) -> int:
    """Whole seconds from now until a count has room again: past `free_at`, since the window still holds a request
    made exactly one window ago."""
    return max(1, math.floor(free_at - time.time()) + 1)


def how_long(seconds: int) -> str:
    """A wait in words, in the interface's language, never shorter than it is: 61 seconds, 2 minutes, 50 minutes."""
    if seconds > 120:
        seconds = math.ceil(seconds / 60) * 60  # whole minutes, rounded up
    return format_timedelta(datetime.timedelta(seconds=seconds), threshold=2)


def check_code_lookup(missed: bool, knows_room: bool = False) -> None:
    """Count a room code that named no open room against the client's address and its browser; 429 once the address
    has tried too many. The limit slows the guesser, not the school: while the address's count is full, a code that
    names a room still opens it for a browser that has missed fewer than LIMIT_CODE_MISSES_BROWSER codes (a pupil who
    just came in), and the guesser's own browser is refused every code, a room's too (nothing to tell a room by). A
    browser without a cookie is first given one (a redirect to the same page), and the address's new browsers count
    under LIMIT_CODE_NEW_BROWSERS: a script that drops its cookie learns nothing. Players and hosts are not counted."""
    limiter = services().limiter
    address_items = _code_miss_limits(limiter, "LIMIT_CODE_MISSES")
    if not address_items or (knows_room and not missed):
        return
    address = (client_address(), CODE_LOOKUPS)
    try:
        if player_id() is None:
            _new_browser(address_items, address)
            newcomers_full = False
        else:
            newcomers_full = bool(session.pop(NEW_BROWSER, False)) and (
                _first_full(
                    _code_miss_limits(limiter, "LIMIT_CODE_NEW_BROWSERS"),
                    (client_address(), "new browsers"),
                    count=True,
                )
                is not None
            )
        browser = (f"browser {player_id()}", CODE_LOOKUPS)
        if missed:
            _first_full(_code_miss_limits(limiter, "LIMIT_CODE_MISSES_BROWSER"), browser, count=True)
        full = _first_full(address_items, address, count=missed)
        if full is None or not (
            missed
            or newcomers_full
            or _first_full(_code_miss_limits(limiter, "LIMIT_CODE_MISSES_BROWSER"), browser, count=False)
        ):
            return
        free_at = limiter.limiter.get_window_stats(full, *address).reset_time
    except HTTPException:
        raise
    except Exception:  # a shared storage that does not answer: rooms go on uncounted, as the other limits do
        current_app.logger.exception("the limits' storage does not answer")
        return
    raise refusal(code_misses_reason(), seconds_to_wait(free_at))


def _new_browser(address_items: tuple[RateLimitItem, ...], address: tuple[str, str]) -> None:
    """A browser without a cookie gets one (a player), marked new until it comes back with it; while its address's
    count is full, it is sent back to the same page to show it (a GET), or refused (a form sent without ever opening
    a page); else its try counts as any other."""
    player_id(create=True)
    session[NEW_BROWSER] = True
    full = _first_full(address_items, address, count=False)
    if full is None:
        return
    if request.method == "GET":
        abort(redirect(request.full_path.rstrip("?"), 303))
    raise refusal(
        code_misses_reason(), seconds_to_wait(services().limiter.limiter.get_window_stats(full, *address).reset_time)
    )


def _first_full(items: tuple[RateLimitItem, ...], key: tuple[str, str], count: bool) -> RateLimitItem | None:
    """The first of the limits (the shortest window first) whose count is full, counting one more in each that has
    room when `count` (and no further once one is full, as Flask-Limiter does: a refused try is not counted in the
    longer windows); None: none is full."""
    limiter = services().limiter.limiter
    step = limiter.hit if count else limiter.test
    return next((item for item in sorted(items) if not step(item, *key)), None)


def _code_miss_limits(limiter: Limiter, setting: str) -> tuple[RateLimitItem, ...]:
    """The limits a setting says (none when limits are off)."""
    if not (limiter.enabled and limiter.initialized):
        return ()
    return _parse(current_app.config[setting])


@lru_cache(maxsize=16)
def _parse(text: str) -> tuple[RateLimitItem, ...]:
    """A limit's setting read once, not on every room request ("" is no limit)."""
    return tuple(parse_many(text)) if text else ()


# --- wrong rejoin and class codes, per seat ---------------------------------------------------------------------
# A rejoin code or a class code is 4 characters (a 12-year-old copies it from a paper slip): a guesser who knows a
# name on the projector would find its code in a few hundred thousand tries, so the wrong codes typed for one seat
# are counted for that seat, from every address together, and a seat whose count is full takes no code, not even
# the right one (else the lock would tell the right code from the others). README, "Limits per client", has the
# arithmetic.


def _rejoin_limits() -> tuple[RateLimitItem, ...]:
    """The limits on wrong codes typed for one seat (none when limits are off)."""
    limiter = services().limiter
    return _code_miss_limits(limiter, "LIMIT_REJOIN_MISSES")


def rejoin_wait(seat: str) -> int | None:
    """Seconds until the seat takes a code again, when too many wrong ones were typed for it; None: it takes one."""
    items = _rejoin_limits()
    if not items:
        return None
    limiter = services().limiter.limiter
    key = (seat, "rejoin codes")
    try:
        full = next((item for item in sorted(items) if not limiter.test(item, *key)), None)
        return None if full is None else seconds_to_wait(limiter.get_window_stats(full, *key).reset_time)
    except Exception:  # a shared storage that does not answer: codes are taken uncounted, as the other limits do
        current_app.logger.exception("the limits' storage does not answer")
        return None


def count_rejoin_miss(seat: str) -> None:
    """Count a wrong code typed for the seat (its name with a code that is not its own)."""
    _on_rejoin_counts(lambda item: services().limiter.limiter.hit(item, seat, "rejoin codes"))


def forget_rejoin_misses(seat: str) -> None:
    """The seat's count starts again (the teacher gave the pupil a fresh code)."""
    _on_rejoin_counts(lambda item: services().limiter.limiter.clear(item, seat, "rejoin codes"))


def _on_rejoin_counts(change: Callable[[RateLimitItem], object]) -> None:
    """Change each of a seat's wrong-code counts (limits off: none); a storage that does not answer is logged."""
    items = _rejoin_limits()
    try:
        for item in items:
            change(item)
    except Exception:
        current_app.logger.exception("the limits' storage does not answer")
