"""The Ruzzle web application: the factory that puts it together (`create_app`), and `app` for `gunicorn app:app`.

The parts live in `views/`: the settings (`views.settings`), the headers and request checks (`views.security`), the
error pages (`views.errors`), the health check (`views.health`), and the pages themselves."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask
from flask_compress import Compress
from flask_limiter import Limiter

from ruzzle import LANGUAGES, Lexicon
from ruzzle.errors import DictionaryError
from ruzzle.game import Solution
from ruzzle.meanings import MeaningsLibrary
from store import APP_INSTANCE, STORE_OUTAGES, Store, StoreUnavailable, database_url, describe_outage
from store.cleanup import Cleanup, Retention
from views import (
    classes,
    exports,
    health,
    hints,
    history,
    homework,
    i18n,
    live,
    meanings,
    play,
    projector,
    rooms,
    solution,
    typed_boards,
)
from views.addresses import LanAddresses
from views.application import RuzzleFlask
from views.assets import StaticFiles, serve_static_files
from views.boards import solve_board, solve_typed_board
from views.budget import SolvingBudget
from views.caching import SingleFlight
from views.errors import add_error_pages
from views.keys import keep_private_pages_private
from views.limits import client_address, init_limits
from views.pages import (
    TEMPLATE_HELPERS,
    breakable_url,
    build_url,
    clock_text,
    render_board_table,
    render_breakdown_table,
    sentence,
    translate_tile_texts,
)
from views.rooms.clock_poll import answer_clock_polls_early
from views.rounds import RoundSessionInterface
from views.security import (
    add_headers,
    refuse_control_characters,
    refuse_cross_site_posts,
    refuse_long_hosts,
    trust_proxies,
)
from views.services import Services
from views.settings import configure
from views.targets import new_target_boards
from views.templating import compile_templates


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then `RUZZLE_*` environment variables, then the test config."""
    # The instance folder is the store's rule (store.engine.default_instance), which `python -m store upgrade` asks too
    app = RuzzleFlask(__name__, instance_path=str(APP_INSTANCE), instance_relative_config=True)
    configure(app, test_config)
    app.session_interface = RoundSessionInterface()
    trust_proxies(app)
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
    compile_templates(app)
    app.register_blueprint(play.bp)
    app.register_blueprint(hints.bp)
    app.register_blueprint(solution.bp)
    app.register_blueprint(projector.bp)
    app.register_blueprint(typed_boards.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(rooms.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(homework.bp)
    app.register_blueprint(classes.bp)
    app.register_blueprint(exports.bp)
    app.register_blueprint(meanings.bp)
    app.register_blueprint(health.bp)
    serve_static_files(app, static_files)
    init_limits(app)  # after the views: it wraps those it limits
    # Pages, fragments, CSS and JavaScript compressed as the browser accepts (zstd, br, gzip): a 12x12
    # solution page is 184 KB of HTML and 15 KB on the wire.
    Compress(app)
    add_headers(app)
    keep_private_pages_private(app)
    refuse_cross_site_posts(app)
    refuse_long_hosts(app)
    refuse_control_characters(app)
    add_error_pages(app)
    answer_clock_polls_early(app)

    return app


def solving(
    app: Flask, solve: Callable[..., Solution] = solve_board, solve_typed: Callable[..., Solution] = solve_typed_board
) -> dict[str, Any]:
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


def _load_lexicons() -> dict[str, Lexicon]:
    """Open each language's built-in dictionary once per process (memory-mapped, shared by workers)."""
    lexicons = {}
    for code in LANGUAGES:
        try:
            lexicons[code] = Lexicon.builtin(code)
        except DictionaryError:
            continue  # languages without a dictionary yet are simply not playable
    return lexicons


def __getattr__(name: str) -> Flask:
    """`app`, the application that `gunicorn app:app` serves, made when it is first asked for (then kept): importing
    this module, as the tests and benchmarks do for `create_app`, opens no store and migrates nothing."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    application = globals()["app"] = create_app()
    return application
