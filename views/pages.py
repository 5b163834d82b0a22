"""Rendering: a full page, or for htmx only the regions it swaps; error pages and fragments."""

from __future__ import annotations

import json
import math
import weakref
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, MutableMapping
from types import MappingProxyType
from typing import Any, Protocol, cast

from flask import current_app, render_template, request, url_for
from flask.globals import request_ctx
from flask.templating import Environment as FlaskEnvironment
from flask_babel import LazyString
from jinja2 import Environment, Template, nodes
from markupsafe import Markup

from ruzzle import LANGUAGES, Board, get_language, score_breakdown
from ruzzle.board import Cell
from ruzzle.game import DEFAULT_SECONDS
from ruzzle.match import ROUNDS_PER_MATCH
from ruzzle.nicknames import MAX_NICKNAME
from ruzzle.results import CLASS_VIEW_BESIDE_RANKING
from ruzzle.room import PODIUM, TOP_SHOWN, ranking_shown
from ruzzle.solver import Found
from ruzzle.teams import DEFAULT_TEAMS, MAX_TEAMS, MIN_TEAMS

from .addresses import join_address
from .i18n import multiplier_label, multiplier_name
from .services import current_flask, services
from .translations import current_language, ngettext

# The templates each template extends, per Jinja environment (an app's): parent_names. The blocks of a template and
# its parents, per template: block_chains.
TEMPLATE_PARENTS: weakref.WeakKeyDictionary[Environment, dict[str, list[str]]] = weakref.WeakKeyDictionary()
BLOCK_CHAINS: weakref.WeakKeyDictionary[Template, dict[str, tuple[Callable[..., Iterator[str]], ...]]] = (
    weakref.WeakKeyDictionary()
)


class PageEnvironment(FlaskEnvironment):
    """Flask's Jinja environment, with a template's globals the environment's own when it has none of its own.

    Jinja lays a template's globals over the environment's in a ChainMap, and every render copies them into the new
    context through it: key by key, each first missed in the template's empty map (53 globals, a tenth of a word's
    answer). As the environment's dict itself, they are still every global added later, copied at C speed."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> Any:
        return self.globals if not d else super().make_globals(d)


def wants_fragment() -> bool:
    """An htmx request that swaps part of the page (a history restore needs the whole page)."""
    environ = request.environ  # (the headers as sent: werkzeug's headers walk the environment for each)
    return environ.get("HTTP_HX_REQUEST") == "true" and environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST") != "true"


def wants_json() -> bool:
    """A request that asks for JSON (`Accept: application/json`) rather than a page."""
    accepted = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return accepted == "application/json" and "application/json" in request.headers.get("Accept", "")


# (positional only: any name may be a template variable)
def render(template: str, blocks: list[str], status: int = 200, /, **context: object) -> tuple[str, int]:
    """The whole page, or for htmx the named blocks: the first replaces the target, the others swap out of band.

    Each swapped region is a template block whose name is the id of its element.
    """
    if wants_fragment():
        return render_blocks(template, blocks, oob=frozenset(blocks[1:]), fragment=True, **context), status
    return render_template(template, oob=frozenset(), fragment=False, **context), status


def render_blocks(template_name: str, blocks: list[str], **context: object) -> str:
    """Render some blocks of a template, one after the other, with one shared context.

    (jinja2-fragments does the same but builds a new context per block: a word's answer has five blocks,
    and those copies were a tenth of its time.)
    """
    current_app.update_template_context(context)
    drawer = BlockDrawer(current_app.jinja_env.get_template(template_name), context)
    return "".join(drawer.draw(name) for name in blocks)


# Blocks whose text depends only on the page's language and address, its board and these values of the context: each
# is drawn once per process for each such case (a score's region, a challenge link, a word's result), not for every
# page and word. Per template (a room's score has its team's: drawn each time in a team, None). With FRAMES_CHECKED,
# each is drawn as well and compared, so a value missing here fails the tests that show it.
BlockInputs = Callable[[Mapping[str, Any]], Hashable]


def _result_inputs(context: Mapping[str, Any]) -> Hashable:
    path = context.get("breakdown_path")
    return (
        context.get("refused"),
        context.get("refused_reason"),
        context.get("highlight") is not None,
        tuple(path) if path else None,
        context.get("meaning_word"),
        context.get("new_item"),
        "result" in context["oob"],
    )


def _score_inputs(context: Mapping[str, Any]) -> Hashable:
    return (context["score"], len(context["found"]), "score" in context["oob"])


MEMO_BLOCKS: dict[str, dict[str, BlockInputs]] = {
    "play.html": {
        "score": _score_inputs,
        "challenge": lambda context: (context["score"], "challenge" in context["oob"]),
        "result": _result_inputs,
    },
    "room_play.html": {
        "score": lambda context: None if context.get("team") else _score_inputs(context),  # (a team's score: not)
        "result": _result_inputs,
        "targets": lambda context: None if context["room"].targets else "targets" in context["oob"],
    },
    "homework_play.html": {"result": _result_inputs},
}
BLOCKS_KEPT = 4096
# What a page's address is made of in its WSGI environment (behind ProxyFix: as the proxy said it)
ADDRESS_PARTS = ("wsgi.url_scheme", "HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME")


class FrameMismatch(AssertionError):
    """A page drawn from a kept frame, or a block drawn once, differs from the same drawn whole (FRAMES_CHECKED): the
    key it was kept under missed something (views/frames.py)."""


def page_of_blocks(context: Mapping[str, Any]) -> Hashable:
    """What every memoised block of a page depends on besides its own values: the language, the address it is asked
    at, the board (found once for all the blocks a request draws)."""
    environ = request.environ  # (the address as sent: werkzeug's host_url decodes it each time)
    return (current_language(), tuple(environ.get(part) for part in ADDRESS_PARTS), context.get("request_board"))


class BlockDrawer:
    """The blocks of a template drawn for one request in one shared context, which has the blocks of the templates it
    extends too (room_play.html's own blocks may call super() on play.html's), as a whole render's has. A block comes
    from the process's memo when MEMO_BLOCKS says what its text depends on besides the page (page_of_blocks); with
    FRAMES_CHECKED, it is drawn as well and compared, as frames are. What the blocks need of the app is found once."""

    def __init__(self, template: Template, context: dict[str, Any]):
        self.template_name = str(template.name)
        self.context = context
        self.shared = template.new_context(context)
        # (the template's chains themselves, not a copy: Jinja adds to a context's blocks only while it renders a whole
        # template, which a drawer never does; read-only, so a change would fail loudly)
        self.shared.blocks = cast(Any, MappingProxyType(block_chains(template)))
        app = current_flask()
        self.concat = app.jinja_env.concat
        self.checked = bool(app.config["FRAMES_CHECKED"])
        self.memo = services(app).blocks
        self.inputs = MEMO_BLOCKS.get(self.template_name, {})
        self.page = page_of_blocks(context)

    def draw(self, name: str) -> str:
        """The block's text for this request."""
        inputs = self.inputs.get(name)
        values = None if inputs is None else inputs(self.context)
        if values is None:
            return self.draw_now(name)
        key = (self.template_name, name, self.page, values)
        memo = self.memo
        text: str | None = memo.get(key)
        if text is None or self.checked:
            drawn = self.draw_now(name)
            if text is not None and text != drawn:
                raise FrameMismatch(
                    f"block {name} of {self.template_name} kept under {key!r} differs: {text!r} / {drawn!r}"
                )
            if len(memo) >= BLOCKS_KEPT:
                memo.pop(next(iter(memo)), None)  # the oldest first
            text = memo[key] = drawn
        return text

    def draw_now(self, name: str) -> str:
        """The block drawn in the shared context."""
        text: str = self.concat(self.shared.blocks[name][0](self.shared))
        return text


def block_chains(template: Template) -> dict[str, tuple[Callable[..., Iterator[str]], ...]]:
    """Each block of `template` and of the templates it extends, the nearest template's first: found once per template
    (every request walked the chain's forty blocks again), or each time while templates reload."""
    environment = template.environment
    chains = None if environment.auto_reload else BLOCK_CHAINS.get(template)
    if chains is None:
        found = {name: [render] for name, render in template.blocks.items()}
        for name in parent_names(environment, str(template.name)):
            for block, render in environment.get_template(name).blocks.items():
                found.setdefault(block, []).append(render)
        chains = {name: tuple(renders) for name, renders in found.items()}
        if not environment.auto_reload:
            BLOCK_CHAINS[template] = chains
    return chains


def parent_names(environment: Environment, template_name: str) -> list[str]:
    """The templates a template extends, nearest first (read once per template and environment: they are the
    templates' own, the same for every request and every store)."""
    cache = TEMPLATE_PARENTS.setdefault(environment, {})
    if template_name not in cache:
        parents, name = [], template_name
        assert environment.loader is not None  # Flask's environment always has its loader
        while True:
            source = environment.loader.get_source(environment, name)[0]
            extends = next(environment.parse(source).find_all(nodes.Extends), None)
            if extends is None or not isinstance(extends.template, nodes.Const):
                break
            name = extends.template.value
            parents.append(name)
        cache[template_name] = parents
    return cache[template_name]


def sentence(text: object) -> str:
    """A message as a finished sentence: a capital first letter and a full stop (one style on every page)."""
    text = str(text).strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


def breakable_url(url: str) -> Markup:
    """A URL as the projector shows it: it may wrap after each slash (a long address on a narrow side panel)."""
    return Markup("/<wbr>").join(url.split("/"))


def clock_text(seconds: float | None) -> str:
    """A time left as every clock shows it, m:ss in whole seconds rounded up (None: 0:00); the scripts' clocks count
    the same way (static/js/clock.js), so a clock never jumps when the script takes over from the page."""
    whole = max(0, math.ceil(seconds or 0))
    return f"{whole // 60}:{whole % 60:02d}"


def render_error(
    status: int, title: str | LazyString, message: str | LazyString, list_languages: bool = False
) -> tuple[str, int, dict[str, str]]:
    """An error as a page, or as a fragment into the region htmx was about to replace (saying, for a word that was
    sent, that it was refused and why: word_outcome)."""
    if request_ctx.url_adapter is None:  # a Host header werkzeug cannot read: no URL, so no page, can be built
        return f"{title}: {message}\n", status, {"Content-Type": "text/plain; charset=utf-8"}
    body, status = render(
        "error.html",
        ["result"],
        status,
        title=title,
        message=sentence(message),
        languages=LANGUAGES if list_languages else None,
    )
    return body, status, word_outcome(refused=sentence(message), reason="error") if wants_fragment() else {}


def word_outcome(points: int | None = None, refused: str | None = None, reason: str | None = None) -> dict[str, str]:
    """The header that states what became of a word the page sent (static/js/word_queue.js reads it, not the HTML):
    `HX-Trigger` with the event `ruzzle:word` and {"outcome": "found", "points"} or {"outcome": "refused",
    "reason", "message"}; "too-late" when the round was over. (htmx also fires the event on a swap it made.)"""
    if refused is None:
        detail = {"outcome": "found", "points": points}
    else:
        detail = {"outcome": "too-late" if reason == "time-up" else "refused", "reason": reason, "message": refused}
    return {"HX-Trigger": json.dumps({"ruzzle:word": detail})}  # (ASCII: the non-ASCII as \u escapes)


def board_values(board: Board) -> Mapping[str, int]:
    """The letter values of the board's language, for the tiles."""
    return get_language(board.language).letter_values


def tile_texts(board: Board) -> dict[Cell, tuple[str, str, str]]:
    """Each tile's words in the interface language: what it shows (letter, badge, value), what it is in words
    (points, multiplier) and its badge. Kept per board and language: a word's answer draws its path on a new
    copy of the board, and asking the catalogue for every tile's words each time was most of that answer's time."""
    return services().tile_texts(board, current_language())


def translate_tile_texts(board: Board, language: str) -> dict[Cell, tuple[str, str, str]]:
    """tile_texts, worked out (`language` is the cache's key: the catalogue is the request's)."""
    values = board_values(board)
    texts: dict[Cell, tuple[str, str, str]] = {}
    for cell in board.cells():
        tile = board[cell]
        value = values[tile.letter]
        badge = multiplier_name(tile.multiplier) if tile.multiplier else ""
        visible = tile.letter + (" " + badge if badge else "") + f" {value}"
        words = ngettext("%(num)d point", "%(num)d points", value) + (
            ", " + multiplier_label(tile.multiplier) if tile.multiplier else ""
        )
        texts[cell] = (visible, words, badge)
    return texts


def path_steps(path: tuple[Cell, ...]) -> dict[Cell, int]:
    """Each cell of a path with its position in the word, from 1."""
    return {cell: step for step, cell in enumerate(path, start=1)}


def language_name(code: str) -> str:
    """A language's own name (English, Italiano, ...)."""
    return get_language(code).name


def cached_url(endpoint: str, _external: bool = False, **values: object) -> str:
    """url_for, remembered per process: a URL depends only on the routes, its values and where the app is
    served from, and building one costs more than rendering a tile (a board page links half a dozen).

    An external URL is one given to phones (a share link, a QR code): it starts with `join_address(...)`,
    the machine's network address when the page is seen on localhost.
    """
    path = services().urls(endpoint, request.script_root, tuple(sorted(values.items())))
    return join_address(services().lan_addresses).url(path) if _external else path


# url_for takes its values as Any (and some by name: _anchor, _external, ...)
def build_url(endpoint: str, root: str, values: tuple[tuple[str, Any], ...]) -> str:
    """Build one URL with Flask's url_for (`root` is part of the cache key only); the app caches the result."""
    return url_for(endpoint, **dict(values))


def join_advice() -> str | None:
    """What to do so that phones can open this server's links, when they cannot (the page is on localhost)."""
    return join_address(services().lan_addresses).advice


def static_url(filename: str) -> str:
    """The URL of one of our static files under its content-hashed name (cached for a year): what
    url_for("static") builds, without the routing map's cost (the board page links four of them and is the
    hottest page; filenames here are plain ASCII)."""
    known = services()
    return f"{request.script_root}{known.static_path}/{known.static_files.name(filename)}"


def board_table(board: Board, path: tuple[Cell, ...] = (), mode: str = "show", marked: Cell | None = None) -> Markup:
    """The board's table with a path drawn on it, from the per-process cache of rendered boards.

    mode: "play" (tiles trace words), "filter" (a tile filters a word list) or "show" (tiles do nothing).
    """
    return services().board_html(board, tuple(path), mode, marked, current_language())


def breakdown_table(board: Board, path: tuple[Cell, ...]) -> Markup:
    """A path's score breakdown as a table, from the per-process cache (it depends on the board, the path and the
    interface language only)."""
    return services().breakdown_html(board, tuple(path), current_language())


def render_breakdown_table(board: Board, path: tuple[Cell, ...], locale: str) -> Markup:
    """Render `_breakdown.html` for a path in the request's language (`locale`: part of the cache key); the app
    keeps the results in an LRU cache."""
    return Markup(render_template("_breakdown.html", breakdown=score_breakdown(board, path), language=board.language))


def render_board_table(board: Board, path: tuple[Cell, ...], mode: str, marked: Cell | None, locale: str) -> Markup:
    """Render `_board_table.html` in the request's language (`locale`: part of the cache key, the tiles' names
    are words); the app keeps the results in an LRU cache (a board never changes)."""
    return Markup(render_template("_board_table.html", board=board, path=path, mode=mode, marked=marked))


class WordPages(Protocol):
    """What a list of words needs of its board (every kind in views.boards has it): its language and a word's page.
    Said here rather than imported, since views.boards builds its URLs with this module."""

    language: str

    def word_url(self, word: str) -> str: ...

    def __hash__(self) -> int: ...  # (a key of the process's word items)


WORD_ITEMS_CACHED = 50_000  # words' list items a process keeps (a 12x12 board has up to ~2,500 words)


def word_link(board: WordPages, word: str) -> Markup:
    """A word that opens its path and breakdown in the page's result region (a plain link without htmx)."""
    url = board.word_url(word)
    return Markup('<a href="%s" lang="%s" hx-get="%s" hx-target="#result" hx-swap="outerHTML">%s</a>') % (
        url,
        board.language,
        url,
        word,
    )


def word_items(board: WordPages, words: Iterable[Found]) -> Markup:
    """Each word as a list item, its link and its points, as every list of words shows them. Each item is drawn
    once per process, board and word: a word's answer lists every word the player found, and every player of a
    room's board lists the same words (the found list was half of a word's answer)."""
    cache = services().word_items
    items = []
    for word in words:
        key = (board, word.word, word.score)
        item = cache.get(key)
        if item is None:
            if len(cache) >= WORD_ITEMS_CACHED:
                cache.clear()
            item = cache[key] = Markup('<li>%s <span class="points">%s</span></li>') % (
                word_link(board, word.word),
                word.score,
            )
        items.append(item)
    return Markup("".join(items))


# The game's rules the templates name, asked where they live (a field's length, a ranking's lines, a match's rounds,
# the round length a form offers first).
RULES = {
    "max_nickname": MAX_NICKNAME,
    "rounds_per_match": ROUNDS_PER_MATCH,
    "top_shown": TOP_SHOWN,
    "podium": PODIUM,
    "default_seconds": DEFAULT_SECONDS,
    "ranking_shown": ranking_shown,
    "class_view_beside_ranking": CLASS_VIEW_BESIDE_RANKING,
    "teams_range": (MIN_TEAMS, DEFAULT_TEAMS, MAX_TEAMS),
}

TEMPLATE_HELPERS = {
    **RULES,
    "board_values": board_values,
    "word_link_html": word_link,
    "word_items": word_items,
    "path_steps": path_steps,
    "tile_texts": tile_texts,
    "language_name": language_name,
    "board_table": board_table,
    "breakdown_table": breakdown_table,
    "static_url": static_url,
    "url_for": cached_url,
    "join_advice": join_advice,
}
