"""The Ruzzle web application: the factory, its settings, headers and error pages (views live in `views/`)."""

from __future__ import annotations

import datetime
import os
import secrets
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, g, make_response, request
from flask_babel import gettext, lazy_gettext, ngettext
from flask_compress import Compress
from flask_limiter import Limiter
from jinja2 import FileSystemBytecodeCache
from werkzeug.exceptions import BadRequest, Forbidden, HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from ruzzle import LANGUAGES, Lexicon
from ruzzle.errors import DictionaryError, RuzzleError, UnknownLanguage
from ruzzle.meanings import MeaningsLibrary
from store import APP_INSTANCE, STORE_OUTAGES, Store, StoreUnavailable, database_url, describe_outage, is_outage
from store.cleanup import Cleanup, Retention
from views import assignments, classes, exports, hints, history, i18n, live, meanings, play, rooms, solution
from views.addresses import MAX_HOST, LanAddresses
from views.assets import StaticFiles, serve_static_files
from views.boards import solve_board, solve_typed_board
from views.budget import SolvingBudget
from views.caching import SingleFlight
from views.limits import client_address, init_limits
from views.pages import (
    TEMPLATE_HELPERS,
    breakable_url,
    build_url,
    clock_text,
    render_board_table,
    render_breakdown_table,
    render_error,
    sentence,
    translate_tile_texts,
)
from views.rounds import RoundSessionInterface
from views.services import Services, services
from views.targets import new_target_boards

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECRET_KEY_FILE = "secret_key"


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: defaults, then `RUZZLE_*` environment variables, then the test config."""
    # The instance folder is the store's rule (store.engine.default_instance), which `python -m store upgrade` asks too
    app = Flask(__name__, instance_path=str(APP_INSTANCE), instance_relative_config=True)
    app.config.from_mapping(
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=datetime.timedelta(days=365),  # the session cookie (README: what it holds)
        MAX_CONTENT_LENGTH=64 * 1024,  # a word or a path is a few hundred bytes at most
        ROUND_GRACE_SECONDS=2,  # a word traced in the last second still counts while it travels
        # The folder of the default store, the generated secret key and the compiled templates; unset: instance/
        # beside this file. The tests give each run a temporary one, so that they never write into the working copy.
        INSTANCE_PATH=None,
        TEMPLATE_CACHE=None,  # the folder of compiled templates; unset: jinja-cache/ in the instance folder
        DATABASE_URL=None,  # RUZZLE_DATABASE_URL=postgresql://...; unset: SQLite in the instance folder
        MIGRATE_ON_START=True,  # or 0, and run `python -m store upgrade` before starting the servers
        STORE_RETRY_SECONDS=10,  # the Retry-After of the 503 a store outage answers (a full disk, a database away)
        RETENTION_DAYS=30,  # rounds started longer ago are deleted
        SOLUTIONS_CACHED=64,
        BOARDS_RENDERED_CACHED=1024,
        SESSION_REFRESH_EACH_REQUEST=False,  # re-sign the cookie only when it changes (a new player)
        # None: the store's clock (the database's on PostgreSQL, which every host shares; this host's on SQLite). Tests
        # give a clock of their own.
        CLOCK=None,
        # Seconds of CPU solving new boards a client may cause per second in each worker, and at once: a
        # Spanish 12x12 board takes about 0.1 s, so some 10 new big boards at once per worker, then one every
        # 2 s (with 5 workers, a quarter of a core per client at most). 0 turns the limit off. Boards already
        # solved cost nothing.
        SOLVING_RATE=0.05,
        SOLVING_BURST=1.0,
        ROOM_PLAYERS=2000,  # players a room takes: a class, or a whole school in its hall (bench/rooms.py plays 2,000)
        ROOM_RANKING_SECONDS=1.0,  # a room's polled ranking is at most this old (0: computed for every poll)
        # The rooms that never close (/live/<language>): a round of play then the results, slots aligned on the UTC
        # clock (slot n starts n x (play + results) s after the epoch); players a live room takes; how long its rounds
        # are kept (the day's ranking needs the UTC day's, so a little more than a day).
        LIVE_PLAY_SECONDS=120,
        LIVE_RESULTS_SECONDS=60,
        LIVE_PLAYERS=100_000,
        LIVE_KEEP_SECONDS=25 * 3600,
        ASSIGNMENT_KEEP_DAYS=30,  # homework (its pupils, rounds and words) is deleted this long after its deadline
        # Behind this many proxies of our own that speak HTTPS to the browsers (nginx in front: 1): their
        # X-Forwarded-For, -Proto and -Host are believed, and every cookie is Secure. 0: those headers are ignored
        # (a client cannot pass for another address).
        PROXY_FIX=0,
        # Per client, in a moving window (views/limits.py; README, "Limits per client"). Joins and codes count per
        # address: a class of 150 behind one school address joins within a minute, a script filling rooms does not.
        # Words count per player: a fast pupil's bursts, not a script's thousand. Per worker unless
        # RATELIMIT_STORAGE_URI names a shared storage; RATELIMIT_ENABLED=0 turns them all off.
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_STRATEGY="moving-window",  # no double burst at the edge of a fixed window
        RATELIMIT_SWALLOW_ERRORS=True,  # a shared storage that does not answer lets requests through, logged
        LIMIT_JOINS="200 per minute;400 per hour",
        LIMIT_CODE_MISSES="60 per minute;300 per hour",  # codes that name no open room, on any room page
        LIMIT_NEW_ROOMS="20 per minute;100 per hour",
        LIMIT_WORDS="10 per 5 seconds;90 per minute",
    )
    app.config.from_prefixed_env("RUZZLE")
    if test_config:
        app.config.from_mapping(test_config)
    if app.config["INSTANCE_PATH"]:
        app.instance_path = str(app.config["INSTANCE_PATH"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))
    app.session_interface = RoundSessionInterface()
    _trust_proxies(app)
    store, cleanup = open_store(app)
    rendered = int(app.config["BOARDS_RENDERED_CACHED"])
    static_files = StaticFiles(Path(app.static_folder or "static"))
    Services(
        store=store,
        cleanup=cleanup,
        lexicons=_load_lexicons(),
        **solving(app),
        # Rendered boards, with or without a path: the page's most expensive part, the same for every player.
        board_html=lru_cache(maxsize=rendered)(render_board_table),
        breakdown_html=lru_cache(maxsize=rendered)(render_breakdown_table),
        urls=lru_cache(maxsize=4096)(build_url),
        tile_texts=lru_cache(maxsize=rendered)(translate_tile_texts),
        lan_addresses=LanAddresses(),
        static_files=static_files,
        static_path=app.static_url_path or "/static",
        limiter=Limiter(client_address),
        meanings=MeaningsLibrary(),
        target_boards=new_target_boards(),
    ).install(app)
    i18n.init_app(app)
    app.jinja_env.globals.update(TEMPLATE_HELPERS)
    app.jinja_env.globals.update(meanings.TEMPLATE_HELPERS)
    app.jinja_env.filters["sentence"] = sentence
    app.jinja_env.filters["clock"] = clock_text
    app.jinja_env.filters["breakable_url"] = breakable_url
    _compile_templates(app)
    app.register_blueprint(play.bp)
    app.register_blueprint(hints.bp)
    app.register_blueprint(solution.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(rooms.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(assignments.bp)
    app.register_blueprint(classes.bp)
    app.register_blueprint(exports.bp)
    app.register_blueprint(meanings.bp)
    serve_static_files(app, static_files)
    init_limits(app)  # after the views: it wraps those it limits
    # Pages, fragments, CSS and JavaScript compressed as the browser accepts (zstd, br, gzip): a 12x12
    # solution page is 184 KB of HTML and 15 KB on the wire.
    Compress(app)
    _add_headers(app)
    _refuse_cross_site_posts(app)
    _refuse_long_hosts(app)
    _add_error_pages(app)

    @app.get("/healthz")
    def healthz():
        """200 with each loaded dictionary's word count; 503 when no dictionary could be opened, or the store does
        not answer, or it answers but cannot write (a full disk): the status says which, in words."""
        lexicons = services(app).lexicons
        body = {code: len(lexicon) for code, lexicon in lexicons.items()}
        if not lexicons:
            return {"status": "no dictionary"}, 503
        store = services(app).store
        for problem, check in (
            ("the store does not answer", store.ping),
            ("the store does not take writes", lambda: store.heartbeat(time.time())),
        ):
            try:
                check()
            except Exception as error:  # any driver error: the store is out, which is what this answer says
                app.logger.error("%s: %s", problem, describe_outage(error))
                return {"status": problem, "dictionaries": body, "store": store.dialect}, 503
        return {"status": "ok", "dictionaries": body, "store": store.dialect}, 200

    return app


def solving(app: Flask, solve: Callable = solve_board, solve_typed: Callable = solve_typed_board) -> dict[str, Any]:
    """The solving budget and the caches of solutions around it (the Services fields solving_budget, solutions and
    typed_solutions). The budget inside the cache: a board already solved comes back without asking it. Threads asking
    for the same new board at once solve it once (SingleFlight). (The tests give each test these afresh around solvers
    whose results their whole run shares.)"""
    budget = SolvingBudget(float(app.config["SOLVING_RATE"]), float(app.config["SOLVING_BURST"]))
    cached = lru_cache(maxsize=int(app.config["SOLUTIONS_CACHED"]))
    return {
        "solving_budget": budget,
        "solutions": SingleFlight(cached(budget.guard(solve))),
        "typed_solutions": SingleFlight(cached(budget.guard(solve_typed))),
    }


def open_store(app: Flask) -> tuple[Store, Cleanup]:
    """The store of rounds (store.database_url: RUZZLE_DATABASE_URL, or SQLite in the instance folder, made on first
    start) and its clean-up; migrated to the newest schema and rid of what is past its time, unless told not to
    migrate.

    A store that cannot be migrated stops the start with a sentence saying which store and why (the worker would
    otherwise die on a driver's trace, and gunicorn start it again and again)."""
    store = Store(database_url(app.config["DATABASE_URL"], Path(app.instance_path)))
    cleanup = Cleanup(store, retention(app))
    if app.config["MIGRATE_ON_START"]:
        try:
            store.migrate()
            cleanup.run((app.config["CLOCK"] or store.database_time)())
        except STORE_OUTAGES as error:
            raise StoreUnavailable(
                f"The store at {store.address} could not be migrated on start: {describe_outage(error)}. Check that "
                "the database runs and takes writes, and RUZZLE_DATABASE_URL; with RUZZLE_MIGRATE_ON_START=0 the app "
                "starts without it and answers 503 until it answers (then run python -m store upgrade)."
            ) from error
    return store, cleanup


def retention(app: Flask) -> Retention:
    """How long the store keeps rounds, live rounds and homework (RUZZLE_RETENTION_DAYS, RUZZLE_LIVE_KEEP_SECONDS,
    RUZZLE_ASSIGNMENT_KEEP_DAYS)."""
    return Retention(
        float(app.config["RETENTION_DAYS"]),
        float(app.config["LIVE_KEEP_SECONDS"]),
        float(app.config["ASSIGNMENT_KEEP_DAYS"]),
    )


def _trust_proxies(app: Flask) -> None:
    """Behind PROXY_FIX proxies: the client's address, scheme and host as the nearest of them reports them
    (werkzeug's ProxyFix), and cookies only over HTTPS. Without it, X-Forwarded-* headers count for nothing."""
    hops = int(app.config["PROXY_FIX"] or 0)
    if hops > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
        app.config["SESSION_COOKIE_SECURE"] = True


def _compile_templates(app: Flask) -> None:
    """Compile every template when a worker starts, not on its first requests: compiling them all takes a third of
    a second of CPU, which a fresh worker (every 500 requests) otherwise spent while a class's first words waited.
    The compiled code is kept in the instance folder (or TEMPLATE_CACHE), so only the first worker of a version
    compiles (8 ms after); Jinja checks each template's source against its compiled copy, so an edited one is
    compiled again."""
    cache = Path(app.config["TEMPLATE_CACHE"] or Path(app.instance_path) / "jinja-cache")
    try:
        cache.mkdir(parents=True, exist_ok=True)
        app.jinja_env.bytecode_cache = TemplateCache(str(cache))
    except OSError:
        pass  # a read-only instance folder: each worker compiles for itself
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)


class TemplateCache(FileSystemBytecodeCache):
    """Compiled templates kept in a folder; a folder that takes no more files (a full or read-only disk) only makes
    each worker compile for itself, it does not stop the start."""

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass  # the template is compiled and in memory; only the copy for the next worker is lost


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


def _load_lexicons() -> dict[str, Lexicon]:
    """Open each language's built-in dictionary once per process (memory-mapped, shared by workers)."""
    lexicons = {}
    for code in LANGUAGES:
        try:
            lexicons[code] = Lexicon.builtin(code)
        except DictionaryError:
            continue  # languages without a dictionary yet are simply not playable
    return lexicons


def _add_headers(app: Flask) -> None:
    """Strict security headers on every response, and `Vary: HX-Request` since htmx gets fragments."""

    @app.after_request
    def secure(response):
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
        response.vary.add("HX-Request")
        if "ruzzle_now" in g:
            # the server's time when it answers: the pages' clocks follow it, not the phone's own clock
            response.headers["X-Ruzzle-Time"] = f"{g.ruzzle_now + time.perf_counter() - g.ruzzle_read_at:.3f}"
        return response


# HTTP errors in plain words: a title, and the message when the code raising it gave none of its own.
PLAIN_ERRORS = {
    400: (lazy_gettext("That does not work"), lazy_gettext("Something in this address or form is not right.")),
    403: (lazy_gettext("Not allowed"), lazy_gettext("This page is not open to you.")),
    404: (
        lazy_gettext("Not found"),
        lazy_gettext("There is no page at this address. Check the link, or start again from the start page."),
    ),
    405: (
        lazy_gettext("Not that way"),
        lazy_gettext("This address does not take that kind of request; use the buttons and links on the pages."),
    ),
    413: (lazy_gettext("Too much sent"), lazy_gettext("That request is far bigger than anything this game needs.")),
    422: (lazy_gettext("That does not work"), lazy_gettext("The request could not be understood.")),
    429: (lazy_gettext("Slow down"), lazy_gettext("Too many requests in a short time. Wait a little, then try again.")),
}
UNKNOWN_ERROR = (lazy_gettext("That does not work"), lazy_gettext("This request could not be answered."))


def _refuse_cross_site_posts(app: Flask) -> None:
    """A word or a round action sent by another site's page is refused: the SameSite=Lax cookie already keeps
    the round out of such a request; the browser's Origin header makes it a clear 403 (no CSRF token needed)."""

    # behind an HTTPS proxy the scheme is known, so http://this-host (a page of a network attacker) is not this site
    with_scheme = int(app.config["PROXY_FIX"] or 0) > 0

    @app.before_request
    def same_site_only():
        if request.method != "POST":
            return
        origin = request.headers.get("Origin")
        if (origin is not None and not _is_this_site(origin, with_scheme)) or request.headers.get(
            "Sec-Fetch-Site"
        ) == "cross-site":
            raise Forbidden(
                gettext("This was sent from another site, so it was not taken. Play on the board's own page.")
            )


def _is_this_site(origin: str, with_scheme: bool) -> bool:
    """Whether a request's Origin is this server: the same host (and port), and the same scheme when it is known."""
    parts = urlsplit(origin)
    return parts.netloc.lower() == request.host.lower() and (not with_scheme or parts.scheme == request.scheme)


def _refuse_long_hosts(app: Flask) -> None:
    """A Host header longer than any web address is refused: every link and QR code of a page is built on it."""

    @app.before_request
    def host_of_a_real_address():
        if len(request.host) > MAX_HOST:
            raise BadRequest(
                gettext(
                    "The Host header is %(length)d characters long; a web address has at most %(most)d.",
                    length=len(request.host),
                    most=MAX_HOST,
                )
            )


def _add_error_pages(app: Flask) -> None:
    """Every refusal as a page (or an htmx fragment) with a message a person understands, never a trace."""

    @app.errorhandler(UnknownLanguage)
    def unknown_language(error: UnknownLanguage):
        return render_error(
            404,
            gettext("Unknown language"),
            gettext("There is no language %(code)s here.", code=repr(error.code[:20])),
            list_languages=True,
        )

    @app.errorhandler(RuzzleError)
    def bad_game_input(error: RuzzleError):
        return render_error(400, gettext("That does not work"), i18n.translate_error(error))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if error.code and error.code < 400:
            return error
        title, default = PLAIN_ERRORS.get(error.code, UNKNOWN_ERROR)
        # werkzeug's own English description is replaced by ours; a message the code gave is already translated
        message = default if error.description == type(error).description else error.description or default
        response = make_response(render_error(error.code or 500, title, message))
        if getattr(error, "retry_after", None):
            response.headers["Retry-After"] = str(error.retry_after)
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        app.logger.exception("unexpected error")
        return render_error(
            500, gettext("Something broke"), gettext("Sorry, the server failed on this request. Try again.")
        )

    def store_outage(error: Exception):
        """The store does not answer or cannot write: a 503 that says to wait (logged in a line, no trace)."""
        if not is_outage(error):
            return unexpected(error)
        app.logger.error("the store failed on %s %s: %s", request.method, request.path, describe_outage(error))
        seconds = int(app.config["STORE_RETRY_SECONDS"])
        response = make_response(
            render_error(
                503,
                gettext("The game's storage is not answering"),
                ngettext(
                    "Words you played wait on the board page, which sends them again by itself. Try again in "
                    "%(num)d second.",
                    "Words you played wait on the board page, which sends them again by itself. Try again in %(num)d "
                    "seconds.",
                    seconds,
                ),
            )
        )
        response.headers["Retry-After"] = str(seconds)
        return response

    for outage in STORE_OUTAGES:
        app.register_error_handler(outage, store_outage)


def __getattr__(name: str) -> Flask:
    """`app`, the application that `gunicorn app:app` serves, made when it is first asked for (then kept): importing
    this module, as the tests and benchmarks do for `create_app`, opens no store and migrates nothing."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    application = globals()["app"] = create_app()
    return application
