"""The app's settings in one place: their defaults (`DEFAULTS`), then `RUZZLE_*` environment variables, then a test's
own; the README's table "Settings" lists each with its default (`tests/test_app.py` checks the two agree). Also the
secret key, which an unset setting makes once into the instance folder for every worker to share.
"""

from __future__ import annotations

import datetime
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from flask import Flask

SECRET_KEY_FILE = "secret_key"

DEFAULTS: MappingProxyType[str, Any] = MappingProxyType(
    {
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "PERMANENT_SESSION_LIFETIME": datetime.timedelta(days=365),  # the session cookie (README: what it holds)
        "MAX_CONTENT_LENGTH": 64 * 1024,  # a word or a path is a few hundred bytes at most
        "ROUND_GRACE_SECONDS": 2,  # a word traced in the last second still counts while it travels
        # The folder of the default store, the generated secret key and the compiled templates; unset: instance/
        # beside this file. The tests give each run a temporary one, so that they never write into the working copy.
        "INSTANCE_PATH": None,
        "TEMPLATE_CACHE": None,  # the folder of compiled templates; unset: jinja-cache/ in the instance folder
        "DATABASE_URL": None,  # RUZZLE_DATABASE_URL=postgresql://...; unset: SQLite in the instance folder
        "MIGRATE_ON_START": True,  # or 0, and run `python -m store upgrade` before starting the servers
        "STORE_RETRY_SECONDS": 10,  # the Retry-After of the 503 a store outage answers (a full disk, a database away)
        "RETENTION_DAYS": 30,  # rounds started longer ago are deleted
        "SOLUTIONS_CACHED": 64,
        "BOARDS_RENDERED_CACHED": 1024,
        # Every page drawn from a kept frame (views/frames.py) also drawn whole and compared: the tests' apps turn it on
        "FRAMES_CHECKED": False,
        "SESSION_REFRESH_EACH_REQUEST": False,  # re-sign the cookie only when it changes (a new player)
        # None: the store's clock (the database's on PostgreSQL, which every host shares; this host's on SQLite). Tests
        # give a clock of their own.
        "CLOCK": None,
        # Seconds of CPU solving new boards a client may cause per second in each worker, and at once: a
        # Spanish 12x12 board takes about 0.1 s, so some 10 new big boards at once per worker, then one every
        # 2 s (with 5 workers, a quarter of a core per client at most). 0 turns the limit off. Boards already
        # solved cost nothing.
        "SOLVING_RATE": 0.05,
        "SOLVING_BURST": 1.0,
        "ROOM_PLAYERS": 2000,  # players a room takes: a class, or a whole school in its hall (bench/rooms.py: 2,000)
        "ROOM_RANKING_SECONDS": 1.0,  # a room's polled ranking is at most this old (0: computed for every poll)
        # The rooms that never close (/live/<language>): a round of play then the results, slots aligned on the UTC
        # clock (slot n starts n x (play + results) s after the epoch); players a live room takes; how long its rounds
        # are kept (the day's ranking needs the UTC day's, so a little more than a day).
        "LIVE_PLAY_SECONDS": 120,
        "LIVE_RESULTS_SECONDS": 60,
        "LIVE_PLAYERS": 100_000,
        "LIVE_KEEP_SECONDS": 25 * 3600,
        "ASSIGNMENT_KEEP_DAYS": 30,  # homework (its pupils, rounds and words) is deleted this long after its deadline
        # Behind this many proxies of our own that speak HTTPS to the browsers (nginx in front: 1): their
        # X-Forwarded-For, -Proto and -Host are believed, and every cookie is Secure. 0: those headers are ignored
        # (a client cannot pass for another address).
        "PROXY_FIX": 0,
        # Per client, in a moving window (views/limits.py; README, "Limits per client"). Joins and codes count per
        # address: a class of 150 behind one school address joins within a minute, a script filling rooms does not.
        # Words count per player: a fast pupil's bursts, not a script's thousand. Per worker unless
        # RATELIMIT_STORAGE_URI names a shared storage; RATELIMIT_ENABLED=0 turns them all off.
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": "memory://",
        "RATELIMIT_STRATEGY": "moving-window",  # no double burst at the edge of a fixed window
        "RATELIMIT_SWALLOW_ERRORS": True,  # a shared storage that does not answer lets requests through, logged
        "LIMIT_JOINS": "200 per minute;400 per hour",
        "LIMIT_CODE_MISSES": "60 per minute;300 per hour",  # codes that name no open room, on any room page
        # while an address's count above is full: a browser that missed fewer codes than this still opens a real
        # room (a new pupil at a school where someone guesses), and the new browsers (no cookie yet) that try codes
        "LIMIT_CODE_MISSES_BROWSER": "3 per hour",
        "LIMIT_CODE_NEW_BROWSERS": "200 per minute;400 per hour",
        "LIMIT_REJOIN_MISSES": "5 per 10 minutes;10 per hour",  # wrong rejoin or class codes typed for one seat
        "LIMIT_NEW_ROOMS": "20 per minute;100 per hour",
        "LIMIT_WORDS": "10 per 5 seconds;90 per minute",
    }
)


def configure(app: Flask, test_config: Mapping[str, Any] | None = None) -> None:
    """The app's settings: the defaults, then `RUZZLE_*` environment variables, then the test config; the instance
    folder they name, and a secret key (made once in that folder when no setting gives one)."""
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("RUZZLE")
    if test_config:
        app.config.from_mapping(test_config)
    if app.config["INSTANCE_PATH"]:
        app.instance_path = str(app.config["INSTANCE_PATH"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))


def instance_secret_key(instance: Path) -> str:
    """The key in the instance folder, made once: every worker (and every restart) reads the same one."""
    path = instance / SECRET_KEY_FILE
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        draft = instance / f".{SECRET_KEY_FILE}.{os.getpid()}"
        draft.write_text(secrets.token_hex(32))
        draft.chmod(0o600)
        try:
            os.link(draft, path)  # atomic: of workers starting together, one key wins and all read it
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()
