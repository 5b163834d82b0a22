"""The app's process state in one typed object (`Services`), kept at `app.extensions["ruzzle"]` and reached through
`services()`: the store and its clean-up, the dictionaries, the solving budget, the per-process caches, the limits.

Nothing here is per request, and nothing is shared between processes (the store is what workers share).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

from .caching import Flights, SingleFlight

if TYPE_CHECKING:
    from flask_limiter import Limiter
    from markupsafe import Markup

    from ruzzle import Lexicon
    from ruzzle.board import Cell
    from ruzzle.game import Solution
    from ruzzle.meanings import MeaningsLibrary
    from ruzzle.targets import TargetBoard
    from store import Store
    from store.cleanup import Cleanup

    from .addresses import LanAddresses
    from .assets import StaticFiles
    from .budget import SolvingBudget

EXTENSION = "ruzzle"


# The string keys of app.extensions that tests and benchmarks still read: each names the same object as the field
# of Services it mirrors.
LEGACY_KEYS = ("store", "lexicons")


@dataclass
class Services:
    """What every request of a process may use: made once by `create_app`."""

    store: Store
    cleanup: Cleanup  # deletes what the store keeps past its time, at most once an hour per process
    lexicons: dict[str, Lexicon]  # the dictionaries this server has, by language code
    solving_budget: SolvingBudget  # the CPU a client may spend on solving new boards
    solutions: SingleFlight[Solution]  # a generated board's solution, solved once per process
    typed_solutions: SingleFlight[Solution]  # a typed board's
    board_html: Callable[..., Markup]  # rendered boards, with or without a path
    breakdown_html: Callable[..., Markup]  # rendered score breakdowns
    urls: Callable[..., str]  # url_for's results
    tile_texts: Callable[..., dict[Cell, tuple[str, str, str]]]  # each tile's words in a language
    lan_addresses: LanAddresses  # this machine's network addresses (for links phones can open)
    static_files: StaticFiles  # the static files' content-hashed names
    static_path: str  # the static files' URL path (app.static_url_path is a property that costs a lookup per call)
    limiter: Limiter  # the per-client limits (views/limits.py)
    meanings: MeaningsLibrary  # each language's meanings, memory-mapped on first use (ruzzle/meanings.py)
    target_boards: SingleFlight[TargetBoard]  # boards built around teachers' words (views/targets.py new_target_boards)
    # Per-process caches of the views (each bounded by the view that fills it).
    word_items: dict[tuple[Hashable, str, int], Markup] = field(default_factory=dict)  # (a board, a word, its points)
    frames: dict[Hashable, Any] = field(default_factory=dict)  # pages' frames (views/frames.py)
    blocks: dict[Hashable, str] = field(default_factory=dict)  # blocks drawn once per case (views.pages.BlockDrawer)
    room_rankings: dict[Any, Any] = field(default_factory=dict)
    room_results: dict[Any, Any] = field(default_factory=dict)
    room_flights: Flights = field(default_factory=Flights)  # rooms' rankings and results, made once at a time
    live_prepared: dict[Any, Any] = field(default_factory=dict)
    live_results: dict[Any, Any] = field(default_factory=dict)

    def install(self, app: Flask) -> None:
        """Keep these services in the app (and under the legacy keys, for the modules that still read them)."""
        app.extensions[EXTENSION] = self
        for name in LEGACY_KEYS:
            app.extensions[f"ruzzle.{name}"] = getattr(self, name)


def current_flask() -> Flask:
    """This request's app itself, not Flask's proxy of it: it outlives the request, and reading it once costs 0.15 µs
    where each attribute read through the proxy costs 0.8 (Flask types current_app as the Flask it stands for)."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return app


def services(app: Flask | None = None) -> Services:
    """The services of this request's app (or of `app`)."""
    found: Services = (app or current_flask()).extensions[EXTENSION]
    return found
