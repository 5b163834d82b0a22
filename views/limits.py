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
from functools import lru_cache

from flask import Flask, current_app, request
from flask_babel import format_timedelta, gettext
from flask_limiter import Limiter, RateLimitExceeded
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import TooManyRequests

from .rounds import player_id
from .services import services

CODE_LOOKUPS = "room codes"  # the scope of the count of codes that named no open room, shared by every room page


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


def init_limits(app: Flask) -> Limiter:
    """Flask-Limiter on the app, its limits on the views that take them, and its refusals as the app's 429 page."""
    limiter = services(app).limiter
    limiter.init_app(app)
    if not limiter.enabled:
        return limiter

    def setting(name: str):
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
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])

    @app.errorhandler(RateLimitExceeded)
    def too_many_requests(error: RateLimitExceeded):
        """The limit's reason, how long to wait, and Retry-After: the app's own 429 (a page, or a fragment)."""
        wait = seconds_to_wait(limiter.current_limit.window.reset_time)
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
    """Count a room code that named no open room against the client; 429 once it has tried too many. A code that
    names a room is refused too, while the count is full, unless the browser plays in the room or hosts it: else a
    guesser would tell a room from the refusals around it."""
    limiter = services().limiter
    items = _code_miss_limits(limiter)
    if not items or (knows_room and not missed):
        return
    key = (client_address(), CODE_LOOKUPS)
    count = limiter.limiter.hit if missed else limiter.limiter.test
    try:
        # the shortest window first, and no further once one is full (as Flask-Limiter does): a refused code is not
        # counted in the longer windows
        full = next((item for item in sorted(items) if not count(item, *key)), None)
        free_at = limiter.limiter.get_window_stats(full, *key).reset_time if full is not None else None
    except Exception:  # a shared storage that does not answer: rooms go on uncounted, as the other limits do
        current_app.logger.exception("the limits' storage does not answer")
        return
    if full is not None:
        raise refusal(code_misses_reason(), seconds_to_wait(free_at))


def _code_miss_limits(limiter: Limiter) -> tuple[RateLimitItem, ...]:
    """The limits on codes that name no room, as the setting says them (none when limits are off)."""
    if not (limiter.enabled and limiter.initialized):
        return ()
    return _parse(current_app.config["LIMIT_CODE_MISSES"])


@lru_cache(maxsize=16)
def _parse(text: str) -> tuple[RateLimitItem, ...]:
    """A limit's setting read once, not on every room request ("" is no limit)."""
    return tuple(parse_many(text)) if text else ()
