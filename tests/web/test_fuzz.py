"""Malformed requests over every route and parameter: never a 500, every refusal with a message, nothing reflected raw.

The corpus is generated from families of hostile values (seeds, sizes, times, numbers, languages, words, paths,
cells, typed boards, form bodies, methods, headers), each sent as a page request and as an htmx request, with the
cookie kinds in turn (none, a real round, tampered, garbage, oversized, signed by the server but malformed). A request
with several fields gets one hostile value in one field at a time, every other field valid (`Fields`): a value
refused by the first field read would hide the fields read after it.
The corpus is data: one test per route sends it every request that reaches that route (and one test the requests
that reach none) and reports every request that was not answered safely. Hypothesis then puts random text with
markup in every parameter.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import quote, unquote, urlencode

import pytest
from conftest import HYPOTHESIS_PROFILE, examples
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.routing import RequestRedirect

from app import create_app
from views.boards import BoardRequest

from .conftest import HTMX, Clock, loaded_languages, reference_app

SEED = "FUZZED"
BOARD = f"/play/en/{SEED}"
ROOM = "FUZZ23"  # the room fuzz_app opens
HOST = "H" * 22  # its host's player id
TYPED = "/solve/en/TtlRSNdl-OdwHtwEI-CdwINV-EtlADE"
MARK = "ruzzlefuzz"
INJECTIONS = (
    f"<{MARK}>",
    f'"><{MARK} a=1>',
    f"'{MARK}",
    f'"{MARK}',
    f"<script>{MARK}()</script>",
    f"</textarea><{MARK}>",
    f"javascript:{MARK}()",
)
JAVASCRIPT_URL = re.compile(r"\s*javascript:", re.I)
JAVASCRIPT_ANYWHERE = re.compile(r"javascript:", re.I)
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "hx-get", "hx-post", "data-words-url", "data-refresh-url"}
MESSAGE = re.compile(
    r'class="(?:result-message|notice notice-refused|typing-problem|meaning-none)"[^>]*>\s*([^<\s][^<]*)<'
    r'|id="solution_locked"[^>]*>\s*<h1 class="result-title">([^<]+)<'
)

HOSTILE_TEXT = (
    "",
    " ",
    "\t\n",
    "A" * 10_240,
    "\x00",
    "a\x01b",
    "\x1b[31m",
    "\x7f",
    "../",
    "../../etc/passwd",
    "..\\..\\win.ini",
    "%2e%2e%2f",
    ".",
    "ñandú",
    "日本語",
    "😀😀😀",
    "\u202eLIVE",
    "\u200b",
    "Ⅻ",
    "ﬁ",
    "A\u0301",
    "straße",
    "İ",
    "%",
    "%zz",
    "+",
    "?",
    "#x",
    ";",
    "a b",
    "A" * 64,
    "A" * 65,
    *INJECTIONS,
)
SIZES = (
    "0x0",
    "-1x4",
    "999x999",
    "4x",
    "x4",
    "4x4x4",
    "0",
    "13",
    "12x13",
    "13x1",
    "1x1",
    "1",
    "12x1",
    "1e3",
    "4.5x4",
    " 4 x 4 ",
    "4×4",
    "4*4",
    "٤x٤",
    "²x²",
    "9" * 10_000,
    "4x4\x00",
    "NaN",
    "",
    " ",
    *INJECTIONS[:2],
)
TIMES = (
    "-1",
    "0",
    "4",
    "5",
    "3600",
    "3601",
    "99999",
    "1e9",
    "abc",
    "",
    "  ",
    "²",
    "٣٠",
    "１２０",
    "12.5",
    "0x10",
    "+60",
    "60s",
    "9" * 10_000,
    *INJECTIONS[:2],
)
LANGUAGES = (
    "xx",
    "EN",
    " en",
    "en-US",
    "english",
    "ｅｎ",
    "e\x00n",
    "..",
    "a" * 1000,
    "it",
    "de",
    "ü",
    *INJECTIONS[:3],
)
WORDS = (*HOSTILE_TEXT, "CaT", "c a t", "ÇÀT", "cat\n", "A" * 17, "a" * 145, "AB", "QUIZ")
PATHS = (
    "",
    " ",
    "garbage",
    "0,0",
    "0,0 0,0",
    "0,0 0,1 0,0",
    "0,0 " * 144,
    "0,0 0,1 " * 4000,
    "-1,0 0,0",
    "0,0,0 0,1",
    "1e3,2 0,0",
    "٠,٠ ٠,١",
    "²,0 0,1",
    "99999,1 0,0",
    "0,0\x000,1",
    "0, 0 0, 1",
    "0 ,0 0,1",
    "0,0 1,1 2,2 3,3",
    "3,3 2,2 1,1 0,0",
    ";",
    "0,0;0,1",
    "11,11 11,10",
    *INJECTIONS[:2],
)
NUMBERS = (  # a whole number's field: gen=, match=, challenge=, page=, step=, round=, a homework's count
    "-1",
    "0",
    "1",
    "2",
    "3",
    "",
    " ",
    "²",
    "³",
    "٣",
    "１",
    "+1",
    "1.0",
    "1e3",
    "0x1",
    "99999",
    "0011",
    "9" * 10_000,
    "001" + "0" * 5_000,  # a small number's first digits, then more digits than int() reads (4,300)
    "abc",
    *INJECTIONS[:2],
)
SAFES = ("", "0", "1", "2", "OFF", "yes\x00", *INJECTIONS[:2])
SORTS = ("random", "SCORE", "score\x00", *INJECTIONS[:2])
CELLS = ("x", "-1,0", "99,99", "0,0,0", "²,0", "4,4", "0,4", " 1,1 ", "1, 1", "٠,٠", *INJECTIONS[:2])
PREFIXES = ("a1", "ü", "a" * 10_000, " ", "Ⅻ", "ﬁ", *INJECTIONS[:2])
STEPS = ("-1", "²", "99999", "100000", "1e3", "0", "abc", "9" * 1000)
PHASES = ("", "over", "OVER", "playing\x00", *INJECTIONS[:2])
ORDERS = ("random", "LENGTH", *INJECTIONS[:2])
CODES = (
    "-",
    "--",
    "A",
    "A" * 145,
    "A" * 500,
    "A" * 10_000,
    "Ax",
    "AB-C",
    "Atlx",
    "Atltl",
    "aTL",
    "ATL",
    "Q",
    "Ä",
    "A-" * 12,
    "-".join(["A" * 12] * 13),
    "-".join(["A" * 13] * 12),
    "-".join(["AtlBdw" * 6] * 12),
    "..",
    "%2F",
    "A-B-C-D-E-F-G-H-I-J-K-L-M",
    *INJECTIONS[:3],
)
BOARD_TEXTS = (
    "A" * 4001,
    "A B\nC",
    "Atl Bxx",
    "\ufeffA B\r\nC D",
    "\n".join([" ".join("A" * 13)] * 13),
    "A\x00B",
    "A  B\n\n\nC D",
    "\t",
    *INJECTIONS[:2],
)
TILE_FIELDS = (
    {"l0_0": "ab"},
    {"l0_0": "ü"},
    {"l0_0": "ﬁ"},
    {"l0_0": "Q", "m0_0": "xx"},
    {"l0_0": "A", "m0_0": "DL"},
    {"l99_99": "A"},
    {"l0_0": "A" * 10_000},
    {"l0_0": INJECTIONS[0]},
    {"m0_0": INJECTIONS[1]},
    {"l0_0": "A", "size": "999x999"},
    {"l0_0": "A", "language": "xx"},
    {"l0_0": "A", "size": "12x12"},
)
ACTIONS = ("", "cheat", "AGAIN", "give-up\x00", "again", "give-up", *INJECTIONS[:2])
NEXT_PAGES = ("solution", "//evil.example", *INJECTIONS[:1])
# (A port out of range such as localhost:99999 cannot be sent: the test client itself refuses it.)
LOADED_LANGUAGES = loaded_languages()  # the others answer 404 and are fuzzed as such above
HOSTS = ("", INJECTIONS[0], 'a"b', "a" * 1000, "a" * 64 + ".example", "[::1", "évil.example", "a b")
FORM = "application/x-www-form-urlencoded"
ROUTES = {  # one well-formed request per route, that the cookie and method families vary
    "board": ("GET", BOARD, None),
    "word": ("POST", BOARD + "/words", {"word": "CAT"}),
    "round": ("POST", BOARD + "/round", {"action": "give-up"}),
    "word page": ("GET", BOARD + "/words/CAT", None),
    "solution": ("GET", BOARD + "/solution", None),
    "projector": ("GET", BOARD + "/projector?step=3", None),
    "typed": ("GET", TYPED, None),
    "typed projector": ("GET", TYPED + "/projector", None),
    "solve form": ("GET", "/solve?l0_0=A", None),
    "start": ("GET", "/", None),
    "new": ("GET", "/new?seed=X", None),
    "daily": ("GET", "/daily/en", None),
    "health": ("GET", "/healthz", None),
    "my rounds": ("GET", "/me", None),
    "language": ("POST", "/language", {"language": "it", "next": BOARD}),
    "room create": ("POST", "/rooms", {"language": "en", "time": "60"}),
    "room by code": ("GET", f"/rooms?code={ROOM}", None),
    "room join page": ("GET", f"/rooms/{ROOM}", None),
    "room join": ("POST", f"/rooms/{ROOM}/players", {"nickname": "ADA"}),
    "room play": ("GET", f"/rooms/{ROOM}/play", None),
    "room word": ("POST", f"/rooms/{ROOM}/words", {"word": "CAT"}),
    "room word page": ("GET", f"/rooms/{ROOM}/words/CAT", None),
    "room host": ("GET", f"/rooms/{ROOM}/host", None),
    "room all words": ("GET", f"/rooms/{ROOM}/words?round=1&sort=length", None),
    "room start": ("POST", f"/rooms/{ROOM}/start", {}),
    "room ranking": ("GET", f"/rooms/{ROOM}/leaderboard", None),
    "room csv": ("GET", f"/rooms/{ROOM}/results.csv", None),
    "room xlsx": ("GET", f"/rooms/{ROOM}/results.xlsx", None),
    "room remove": ("POST", f"/rooms/{ROOM}/players/1/remove", {}),
    "room next round": ("POST", f"/rooms/{ROOM}/rounds", {}),
    "room walk": ("GET", f"/rooms/{ROOM}/projector?step=1", None),
    "room pause": ("POST", f"/rooms/{ROOM}/pause", {}),
    "room resume": ("POST", f"/rooms/{ROOM}/resume", {}),
    "room time": ("POST", f"/rooms/{ROOM}/time", {"seconds": "30"}),
    "room end": ("POST", f"/rooms/{ROOM}/end", {}),
    "room lock": ("POST", f"/rooms/{ROOM}/lock", {}),
    "room unlock": ("POST", f"/rooms/{ROOM}/unlock", {}),
    "room settings": ("POST", f"/rooms/{ROOM}/settings", {"names": "top3"}),
    "room player time": ("POST", f"/rooms/{ROOM}/players/1/time", {"seconds": "60"}),
    "room rename": ("POST", f"/rooms/{ROOM}/players/1/name", {"nickname": "ADA"}),
    "room let in": ("POST", f"/rooms/{ROOM}/players/1/let-in", {}),
    "room unban": ("POST", f"/rooms/{ROOM}/players/1/unban", {}),
    "room remote link": ("GET", f"/rooms/{ROOM}/remote/not-the-key", None),
    "room remote": ("GET", f"/rooms/{ROOM}/remote", None),
    "live room": ("GET", "/live/en", None),
    "room remote step": ("POST", f"/rooms/{ROOM}/walk", {"step": "next"}),
    "room follow": ("GET", f"/rooms/{ROOM}/walk?round=1&step=0", None),
    "room clock": ("GET", f"/rooms/{ROOM}/clock?phase=playing&round=1", None),
    "room next round's poll": ("GET", f"/rooms/{ROOM}/next", None),
    "room remote players": ("GET", f"/rooms/{ROOM}/remote/players?find=ADA", None),
    "room move to a team": ("POST", f"/rooms/{ROOM}/players/1/team", {"team": "2"}),
}


@dataclass(frozen=True)
class Probe:
    """One malformed request: method, URL (already encoded), a form or a raw body, extra headers."""

    name: str
    method: str
    url: str
    form: dict | None = None
    body: bytes | None = None
    headers: dict = field(default_factory=dict)
    session: dict | None = None  # a session the server signs, sent instead of the rotating cookie (a room's host)


def q(text: str) -> str:
    """Text as one URL path segment."""
    return quote(text, safe="")


def args(**values) -> str:
    return urlencode(values)


@dataclass(frozen=True)
class Fields:
    """A route's well-formed request (its query, and its form for a POST), and the hostile values each field takes:
    one field at a time, every other field left valid, so that every field is reached and tried on its own."""

    name: str
    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    form: dict[str, str] | None = None
    hostile_query: dict[str, tuple[str, ...]] = field(default_factory=dict)
    hostile_form: dict[str, tuple[str, ...]] = field(default_factory=dict)
    session: dict | None = None  # the valid session a request needs to reach its fields (a room's are its host's)

    def probes(self):
        for name, values in self.hostile_query.items():
            for i, value in enumerate(values):
                yield Probe(
                    f"{self.name}-{name}{i}",
                    self.method,
                    f"{self.path}?{args(**(self.query | {name: value}))}",
                    self.form,
                    session=self.session,
                )
        for name, values in self.hostile_form.items():
            for i, value in enumerate(values):
                url = f"{self.path}?{args(**self.query)}" if self.query else self.path
                form = (self.form or {}) | {name: value}
                yield Probe(f"{self.name}-form-{name}{i}", self.method, url, form, session=self.session)


def seed_probes():
    for i, seed in enumerate(HOSTILE_TEXT):
        base = f"/play/en/{q(seed)}"
        yield Probe(f"seed{i}-board", "GET", base)
        yield Probe(f"seed{i}-word", "POST", base + "/words", {"word": "CAT"})
        yield Probe(f"seed{i}-round", "POST", base + "/round", {"action": "again"})
        yield Probe(f"seed{i}-word-page", "GET", base + "/words/CAT")
        yield Probe(f"seed{i}-solution", "GET", base + "/solution")
        yield Probe(f"seed{i}-projector", "GET", base + "/projector")
        yield Probe(f"seed{i}-new", "GET", "/new?" + args(seed=seed))


BOARD_URL_FIELDS = {  # every part of a board URL's query (views.boards.BoardRequest.from_url)
    "size": SIZES,
    "time": TIMES,
    "gen": NUMBERS,
    "match": NUMBERS,
    "safe": SAFES,
    "challenge": NUMBERS,
}
DUE = "2026-09-23T18:00+02:00"  # two days after the fuzzed app's clock (tests/web/conftest.py START)
FIELDS = (
    Fields("board", "GET", BOARD, hostile_query=BOARD_URL_FIELDS),
    Fields("word", "POST", BOARD + "/words", form={"word": "CAT"}, hostile_query=BOARD_URL_FIELDS),
    Fields(
        "round",
        "POST",
        BOARD + "/round",
        form={"action": "again", "challenge": "10"},
        hostile_query=BOARD_URL_FIELDS,
        hostile_form={"challenge": NUMBERS},
    ),
    Fields("word-page", "GET", BOARD + "/words/CAT", hostile_query=BOARD_URL_FIELDS),
    Fields("solution", "GET", BOARD + "/solution", hostile_query=BOARD_URL_FIELDS | {"page": NUMBERS}),
    Fields("projector", "GET", BOARD + "/projector", query={"step": "1"}, hostile_query=BOARD_URL_FIELDS),
    Fields("hints", "GET", BOARD + "/hints", hostile_query=BOARD_URL_FIELDS),
    Fields(
        "hints-take",
        "POST",
        BOARD + "/hints",
        query={"time": "0"},
        form={"taken": "0"},
        hostile_query=BOARD_URL_FIELDS,
        hostile_form={"taken": NUMBERS},
    ),
    Fields("new", "GET", "/new", query={"seed": "X"}, hostile_query={"size": SIZES, "time": TIMES, "safe": SAFES}),
    Fields("solve-form", "GET", "/solve", query={"l0_0": "A"}, hostile_query={"size": SIZES}),
    Fields(
        "room-all-words",
        "GET",
        f"/rooms/{ROOM}/words",
        query={"round": "1", "sort": "length"},
        hostile_query={"round": NUMBERS, "sort": SORTS, "prefix": PREFIXES},
        session={"player": HOST},
    ),
    Fields(
        "room-step",
        "GET",
        f"/rooms/{ROOM}/projector",
        hostile_query={"step": STEPS + NUMBERS},
        session={"player": HOST},
    ),
    Fields(
        "room-clock",
        "GET",
        f"/rooms/{ROOM}/clock",
        query={"phase": "playing", "round": "1"},
        hostile_query={"phase": PHASES, "round": NUMBERS},
    ),
    Fields(
        "room-follow",
        "GET",
        f"/rooms/{ROOM}/walk",
        query={"round": "1", "step": "0"},
        hostile_query={"round": NUMBERS, "step": STEPS + NUMBERS},
        session={"player": HOST},
    ),
    Fields(
        "homework",
        "POST",
        "/assignments",
        form={"language": "en", "size": "4x4", "time": "60", "count": "1", "due": DUE},
        hostile_form={
            "count": NUMBERS,
            "seeds": HOSTILE_TEXT,
            "due": HOSTILE_TEXT,
            "size": SIZES,
            "time": TIMES,
            "safe": SAFES,
            "language": LANGUAGES,
        },
    ),
    Fields(
        "homework-local",
        "POST",
        "/assignments",
        form={"language": "en", "time": "60", "due_local": DUE[:16], "due_offset": DUE[16:]},
        hostile_form={"due_local": HOSTILE_TEXT, "due_offset": HOSTILE_TEXT},
    ),
)


FIELDS_BY_NAME = {fields.name: fields for fields in FIELDS}


def field_probes():
    """Each hostile value in each field of each request of FIELDS, on its own."""
    for fields in FIELDS:
        yield from fields.probes()


def language_probes():
    for i, language in enumerate(LANGUAGES):
        base = f"/play/{q(language)}/{SEED}"
        yield Probe(f"language{i}-board", "GET", base)
        yield Probe(f"language{i}-word", "POST", base + "/words", {"word": "CAT"})
        yield Probe(f"language{i}-solution", "GET", base + "/solution")
        yield Probe(f"language{i}-projector", "GET", base + "/projector")
        yield Probe(f"language{i}-daily", "GET", f"/daily/{q(language)}")
        yield Probe(f"language{i}-new", "GET", "/new?" + args(language=language))
        yield Probe(f"language{i}-solve-form", "GET", "/solve?" + args(language=language, l0_0="A"))
        yield Probe(f"language{i}-typed", "GET", f"/solve/{q(language)}/TtlRSNdl-OdwHtwEI-CdwINV-EtlADE")


def word_probes():
    for i, word in enumerate(WORDS):
        yield Probe(f"word{i}-typed", "POST", BOARD + "/words", {"word": word})
        yield Probe(f"word{i}-12x12", "POST", BOARD + "/words?size=12x12", {"word": word})
        if word:
            yield Probe(f"word{i}-page", "GET", f"{BOARD}/words/{q(word)}")
        yield Probe(f"word{i}-solution", "GET", f"{BOARD}/solution?{args(word=word)}")
        yield Probe(f"word{i}-prefix", "GET", f"{BOARD}/solution?{args(prefix=word)}")


def other_language_probes():
    """The word, path and seed families on a board of each other language this server has loaded."""
    for language in LOADED_LANGUAGES:
        if language == "en":
            continue  # the families above play English boards
        base = f"/play/{language}/{SEED}"
        for i, word in enumerate(WORDS):
            yield Probe(f"{language}-word{i}", "POST", base + "/words", {"word": word})
        for i, path in enumerate(PATHS):
            yield Probe(f"{language}-path{i}", "POST", base + "/words", {"path": path})
        for i, seed in enumerate(INJECTIONS + ("ñandú", "straße", "日本語", "\x00", "A" * 65)):
            yield Probe(f"{language}-seed{i}", "GET", f"/play/{language}/{q(seed)}")
        for i, text in enumerate(INJECTIONS[:2] + ("ü", "a1")):
            yield Probe(f"{language}-solution{i}", "GET", f"{base}/solution?{args(word=text, prefix=text)}")
            yield Probe(f"{language}-typed{i}", "GET", f"/solve?{args(language=language, l0_0=text, size='2x2')}")
        yield Probe(f"{language}-projector", "GET", f"{base}/projector?step=2&size=12x12")
        yield Probe(f"{language}-daily", "GET", f"/daily/{language}")


def path_probes():
    for i, path in enumerate(PATHS):
        yield Probe(f"path{i}", "POST", BOARD + "/words", {"path": path})
        yield Probe(f"path{i}-12x12", "POST", BOARD + "/words?size=12x12", {"path": path})
        yield Probe(f"path{i}-with-word", "POST", BOARD + "/words", {"path": path, "word": INJECTIONS[0]})


def explorer_probes():
    for base, kind in ((f"{BOARD}/solution", "seeded"), (TYPED, "typed")):
        for name, values in (("sort", SORTS), ("cell", CELLS), ("prefix", PREFIXES)):
            for i, value in enumerate(values):
                yield Probe(f"{kind}-{name}{i}", "GET", f"{base}?{args(**{name: value})}")
                yield Probe(
                    f"{kind}-{name}{i}-target",
                    "GET",
                    f"{base}?{args(**{name: value})}",
                    headers={"HX-Target": "solution_word"},
                )
        yield Probe(f"{kind}-repeated-keys", "GET", f"{base}?sort=alpha&sort={q(INJECTIONS[0])}&cell=0,0&cell=x")
        yield Probe(f"{kind}-target-garbage", "GET", base, headers={"HX-Target": INJECTIONS[1]})


def projector_probes():
    for base, kind in ((f"{BOARD}/projector", "seeded"), (TYPED + "/projector", "typed")):
        for name, values in (
            ("step", STEPS),
            ("order", ORDERS),
            ("scores", ("2", *INJECTIONS[:1])),
            ("theme", ("neon", *INJECTIONS[:1])),
        ):
            for i, value in enumerate(values):
                yield Probe(f"{kind}-projector-{name}{i}", "GET", f"{base}?{args(**{name: value})}")


def typed_board_probes():
    for i, code in enumerate(CODES):
        yield Probe(f"code{i}-solution", "GET", f"/solve/en/{q(code)}")
        yield Probe(f"code{i}-projector", "GET", f"/solve/en/{q(code)}/projector")
        yield Probe(f"code{i}-query", "GET", f"{TYPED}?{args(safe=code)}")
    for i, text in enumerate(BOARD_TEXTS):
        yield Probe(f"board-text{i}", "GET", "/solve?" + args(text=text))
    for i, fields in enumerate(TILE_FIELDS):
        yield Probe(f"tile-fields{i}", "GET", "/solve?" + args(**fields))


def round_probes():
    for i, action in enumerate(ACTIONS):
        for j, next_page in enumerate(NEXT_PAGES):
            yield Probe(f"round-action{i}-next{j}", "POST", BOARD + "/round", {"action": action, "next": next_page})
    yield Probe("round-no-form", "POST", BOARD + "/round")


def interface_language_probes():
    """The language switcher's form and the headers and cookie that choose the interface language."""
    for i, language in enumerate((*LANGUAGES, "")):
        yield Probe(f"choose-language{i}", "POST", "/language", {"language": language, "next": BOARD})
    for i, back in enumerate(
        ("", "//evil.example", "https://evil.example/", "/\\evil.example", "A" * 10_000, *INJECTIONS)
    ):
        yield Probe(f"choose-language-next{i}", "POST", "/language", {"language": "de", "next": back})
    for i, accepted in enumerate(
        ("", "*", "de-DE,de;q=0.9", "xx;q=x", "it;q=2, fr;q=-1", "a" * 5000, ",;=,", *INJECTIONS)
    ):
        yield Probe(f"accept-language{i}", "GET", BOARD, headers={"Accept-Language": accepted})
        yield Probe(
            f"accept-language{i}-word", "POST", BOARD + "/words", {"word": "QQQ"}, headers={"Accept-Language": accepted}
        )
    for i, chosen in enumerate(("xx", "", "EN", "de\x00", "a" * 5000, *INJECTIONS[:2])):
        yield Probe(f"language-cookie{i}", "GET", BOARD + "/words/QQQ", headers={"Cookie": f"ruzzle_lang={q(chosen)}"})


def body_probes():
    words = BOARD + "/words"
    bodies = {
        "json": (b'{"word": "<ruzzlefuzz>"}', "application/json"),
        "plain": (b"word=CAT", "text/plain"),
        "bad-escape": (b"word=%ZZ&path=%", FORM),
        "not-utf8": (b"word=%FF%FE&path=%C0%AF", FORM),
        "raw-not-utf8": (b"word=\xff\xfe\xc0\xaf", FORM),
        "repeated-keys": (b"word=CAT&word=%3Cruzzlefuzz%3E&path=0,0+0,1&path=x", FORM),
        "many-fields": ("&".join(f"f{i}=1" for i in range(5000)).encode(), FORM),
        "just-under-limit": (b"word=" + b"A" * (64 * 1024 - 100), FORM),
        "over-limit": (b"word=" + b"A" * (64 * 1024 + 1), FORM),
        "multipart-file": (
            b'--B\r\nContent-Disposition: form-data; name="word"; filename="x.txt"\r\n\r\n<ruzzlefuzz>\r\n--B--\r\n',
            "multipart/form-data; boundary=B",
        ),
        "multipart-broken": (b"--B\r\nnonsense", "multipart/form-data; boundary=B"),
        "multipart-no-boundary": (b"word=CAT", "multipart/form-data"),
        "charset": (b"word=CAT", FORM + "; charset=utf-7"),
        "empty": (b"", FORM),
    }
    for name, (body, content_type) in bodies.items():
        yield Probe(f"body-{name}", "POST", words, body=body, headers={"Content-Type": content_type})
        yield Probe(f"body-{name}-round", "POST", BOARD + "/round", body=body, headers={"Content-Type": content_type})


def method_probes():
    for route, (_, url, _) in ROUTES.items():
        for method in ("PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"):
            yield Probe(f"{route}-{method}", method, url)


def room_probes():
    for i, text in enumerate(HOSTILE_TEXT):
        code = q(text)
        yield Probe(f"room{i}-join-page", "GET", f"/rooms/{code}")
        yield Probe(f"room{i}-play", "GET", f"/rooms/{code}/play")
        yield Probe(f"room{i}-host", "GET", f"/rooms/{code}/host")
        yield Probe(f"room{i}-ranking", "GET", f"/rooms/{code}/leaderboard", headers={"Accept": "application/json"})
        yield Probe(f"room{i}-by-code", "GET", "/rooms?" + args(code=text))
        yield Probe(f"room{i}-nickname", "POST", f"/rooms/{ROOM}/players", {"nickname": text})
        yield Probe(f"room{i}-word", "POST", f"/rooms/{ROOM}/words", {"word": text})
        yield Probe(f"room{i}-path", "POST", f"/rooms/{ROOM}/words", {"path": text})
        yield Probe(f"room{i}-word-page", "GET", f"/rooms/{ROOM}/words/{code}")
        yield Probe(f"room{i}-all-words-of", "GET", f"/rooms/{code}/words?round=1")
        yield Probe(f"room{i}-remove", "POST", f"/rooms/{ROOM}/players/{code}/remove")
        yield Probe(f"room{i}-rejoin", "POST", f"/rooms/{ROOM}/players", {"nickname": "ADA", "code": text})
        yield Probe(f"room{i}-time", "POST", f"/rooms/{ROOM}/time", {"seconds": text})
        yield Probe(f"room{i}-player-time", "POST", f"/rooms/{ROOM}/players/1/time", {"seconds": text})
        yield Probe(f"room{i}-rename", "POST", f"/rooms/{ROOM}/players/1/name", {"nickname": text})
        yield Probe(f"room{i}-names", "POST", f"/rooms/{ROOM}/settings", {"names": text})
        yield Probe(f"room{i}-remote-step", "POST", f"/rooms/{ROOM}/walk", {"step": text})
        yield Probe(f"room{i}-remote-key", "GET", f"/rooms/{ROOM}/remote/{code}")
        yield Probe(f"room{i}-new-remote-link", "POST", f"/rooms/{ROOM}/remote/new", {"confirm": text})
        yield Probe(f"room{i}-create-time", "POST", "/rooms", {"language": "en", "time": text})
        yield Probe(f"room{i}-create-seed", "POST", "/rooms", {"language": "en", "time": "60", "seed": text})
        yield Probe(f"room{i}-create-preset", "POST", "/rooms", {"language": "en", "time": "60", "preset": text})
        yield Probe(f"room{i}-create-language", "POST", "/rooms", {"language": text, "time": "60"})


def lesson_probes():
    """Meanings, hints, the teacher's words, homework and class lists (issues 24 and 25): hostile codes, words, board
    arguments and form fields."""
    for i, text in enumerate(HOSTILE_TEXT):
        code = q(text)
        yield Probe(f"define{i}-word", "GET", f"/define/en/{code}")
        yield Probe(f"define{i}-word-json", "GET", f"/define/en/{code}", headers={"Accept": "application/json"})
        yield Probe(f"define{i}-language", "GET", f"/define/{code}/RAN")
        yield Probe(f"hints{i}-seed", "GET", f"/play/en/{code}/hints", headers={"Accept": "application/json"})
        yield Probe(f"hints{i}-take", "POST", f"{BOARD}/hints?time=0", {"taken": text})
        yield Probe(f"room{i}-hints", "GET", f"/rooms/{code}/hints")
        yield Probe(f"room{i}-words-to-learn", "GET", f"/rooms/{code}/words-to-learn")
        yield Probe(f"room{i}-words-to-learn-csv", "GET", f"/rooms/{code}/words-to-learn.csv")
        yield Probe(f"room{i}-create-words", "POST", "/rooms", {"language": "en", "time": "60", "words": text})
        yield Probe(f"solve{i}-words", "GET", "/solve?" + args(language="en", size="5x5", words=text))
        yield Probe(f"homework{i}-page", "GET", f"/a/{code}")
        yield Probe(f"homework{i}-join", "POST", f"/a/{code}/pupils", {"nickname": text, "code": text})
        yield Probe(f"homework{i}-board", "GET", f"/a/{code}/boards/1")
        yield Probe(f"homework{i}-start", "POST", f"/a/{code}/boards/1/start")
        yield Probe(f"homework{i}-word", "POST", f"/a/{code}/boards/1/words", {"word": text, "path": text})
        yield Probe(f"homework{i}-word-page", "GET", f"/a/{code}/boards/1/words/{code}")
        yield Probe(f"homework{i}-round", "POST", f"/a/{code}/boards/1/round", {"action": text})
        yield Probe(f"homework{i}-teacher", "GET", f"/a/{code}/teacher?" + args(key=text))
        yield Probe(f"homework{i}-csv", "GET", f"/a/{code}/results.csv?" + args(key=text))
        yield Probe(f"homework{i}-xlsx", "GET", f"/a/{code}/results.xlsx?" + args(key=text))
        yield Probe(f"homework{i}-delete", "POST", f"/a/{code}/delete", {"key": text})
        yield Probe(f"homework{i}-new-link", "POST", f"/a/{code}/teacher/new", {"key": text, "confirm": text})
        yield Probe(f"homework{i}-delete-pupil", "POST", f"/a/{code}/pupils/1/delete", {"key": text})
        yield Probe(f"class{i}-create", "POST", "/classes", {"name": text})
        yield Probe(f"class{i}-page", "GET", f"/classes/{code}?" + args(key=text))
        yield Probe(f"class{i}-add", "POST", f"/classes/{code}/pupils", {"key": text, "nickname": text})
        yield Probe(f"class{i}-delete-pupil", "POST", f"/classes/{code}/pupils/1/delete", {"key": text})
        yield Probe(f"class{i}-delete", "POST", f"/classes/{code}/delete", {"key": text})
        yield Probe(f"class{i}-new-link", "POST", f"/classes/{code}/new-link", {"key": text, "confirm": text})
    yield Probe("classes-new", "GET", "/classes")
    yield Probe("about-meanings", "GET", "/about/meanings")


def header_probes():
    for route, (method, url, form) in ROUTES.items():
        for i, host in enumerate(HOSTS):
            yield Probe(f"{route}-host{i}", method, url, form, headers={"Host": host})
        yield Probe(f"{route}-history-restore", method, url, form, headers={"HX-History-Restore-Request": "true"})
        yield Probe(f"{route}-hx-request-garbage", method, url, form, headers={"HX-Request": INJECTIONS[0]})


CORPUS = [
    probe
    for family in (
        seed_probes,
        field_probes,
        language_probes,
        word_probes,
        path_probes,
        other_language_probes,
        explorer_probes,
        projector_probes,
        typed_board_probes,
        round_probes,
        interface_language_probes,
        room_probes,
        lesson_probes,
        body_probes,
        method_probes,
        header_probes,
    )
    for probe in family()
]


def route_of(probe: Probe, adapter) -> str:
    """The endpoint a probe's URL reaches, or how it reaches none (no route, a method the route does not take, a
    redirect)."""
    try:
        return adapter.match(
            unquote(probe.url.split("?")[0]), method="GET" if probe.method == "HEAD" else probe.method
        )[0]
    except MethodNotAllowed:
        return "(method not allowed)"
    except RequestRedirect:
        return "(redirected)"
    except HTTPException:  # a malformed URL that matches no route is part of the corpus too
        return "(no route)"


def corpus_by_route() -> dict[str, list[int]]:
    """The corpus's indexes (each request keeps its cookie, see cookie_for) by the route they reach."""
    adapter = reference_app().url_map.bind("localhost")
    routes: dict[str, list[int]] = {}
    for index, probe in enumerate(CORPUS):
        routes.setdefault(route_of(probe, adapter), []).append(index)
    return routes


CORPUS_BY_ROUTE = corpus_by_route()


# --- the cookies a request may carry --------------------------------------------------------------------------


def signed_payloads(round_key: str) -> list:
    """Session contents only a server with the key could sign: what a bug (or a leaked key) could put there."""
    bad_tokens = [
        [10**30, 120, "", 0],
        [-(10**30), 120, "", 0],
        [0, -5, "", 0],
        [1, 10**30, "", 0],
        [1, 1, "!!!!", 0],
        [1, 1, "_" * 4096, 0],
        [1, 1, "_" * 5000, 0],
        [1.5, 120, "", 0],
        [True, True, "", "yes"],
        "a string",
        None,
        [1, 2, 3],
        {"a": 1},
        [0, 0, "A", 0],
    ]
    payloads = [{"rounds": {round_key: token}} for token in bad_tokens]  # what cookies held before the store
    payloads += [
        {"rounds": "not a dict"},
        {"rounds": [1, 2]},
        {"rounds": {str(i): [0, 0, "", 0] for i in range(50)}},
        {"rounds": None},
        {},
        {"other": INJECTIONS[0]},
    ]
    bad_players = [
        None,
        0,
        10**30,
        "",
        "short",
        "x" * 33,
        "a" * 10_000,
        INJECTIONS[0],
        "é" * 20,
        ["a" * 22],
        {"id": "a" * 22},
        "'; DROP TABLE rounds; --aaaa",
        "a" * 22 + "\x00",
    ]
    payloads += [{"player": player} for player in bad_players]
    payloads += [{"player": "A" * 22, "rounds": {round_key: [0, 0, "", 0]}}]  # a well-formed id nobody was given
    return payloads


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("instance")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "fuzz key, not a secret",
            "CLOCK": Clock(),
            "DATABASE_URL": f"sqlite:///{folder / 'store.sqlite3'}",
            # The limits per client (tests/web/test_limits.py) would answer most of a route's corpus with a 429 once
            # its first 20 rooms or homework, or 60 unknown codes, were asked for: every request must reach its parser.
            "RATELIMIT_ENABLED": False,
        }
    )
    app.instance_path = str(folder)
    with app.app_context():  # a room under a known code, so that well-formed room requests meet a real room
        app.extensions["ruzzle.store"].rooms.create(
            HOST, "en", 4, 4, 60, True, "single", "FUZZ", 2, None, Clock()(), code=ROOM
        )
    return app


@pytest.fixture(scope="module")
def cookies(fuzz_app) -> dict[str, list[str | None]]:
    """Cookie values by kind: none, a real round, tampered, garbage, oversized, signed but malformed."""
    client = fuzz_app.test_client()
    client.get(BOARD)
    client.post(BOARD + "/words", data={"word": "CAT"})
    real = client.get_cookie("session").value
    flipped = real[:-4] + ("AAAA" if not real.endswith("AAAA") else "BBBB")
    with fuzz_app.test_request_context():
        key = BoardRequest.from_url("en", SEED, {}).round_key
    serializer = SecureCookieSessionInterface().get_signing_serializer(fuzz_app)
    return {
        "none": [None],
        "real": [real],
        "tampered": [flipped, real[: len(real) // 2], real.replace(".", "", 1), "." + real],
        "garbage": ["x" * 3000, "\x00", "é", '"quoted"', "a;b", ".", "...", INJECTIONS[1]],
        "oversized": [real + "A" * 10_000, "B" * 100_000],
        "signed-malformed": [serializer.dumps(payload) for payload in signed_payloads(key)],
    }


COOKIE_KINDS = ("none", "real", "tampered", "garbage", "oversized", "signed-malformed")


def cookie_for(cookies: dict, index: int) -> str | None:
    """The cookie of the index-th request: each kind in turn, and within a kind each value in turn."""
    values = cookies[COOKIE_KINDS[index % len(COOKIE_KINDS)]]
    return values[(index // len(COOKIE_KINDS)) % len(values)]


# --- what every answer must be ----------------------------------------------------------------------------------


def send(app, probe: Probe, htmx: bool, cookie: str | None):
    headers = {**(HTMX if htmx else {}), **probe.headers}
    if probe.session is not None:
        cookie = SecureCookieSessionInterface().get_signing_serializer(app).dumps(probe.session)
    if cookie is not None:
        headers["Cookie"] = f"session={cookie}"
    client = app.test_client(use_cookies=False)
    if probe.body is not None:
        return client.open(probe.url, method=probe.method, data=probe.body, headers=headers)
    return client.open(probe.url, method=probe.method, data=probe.form, headers=headers)


def message_of(response) -> str | None:
    """The message a refusal shows a person, or None."""
    page = response.get_data(as_text=True)
    if response.mimetype == "text/plain":
        return page.strip() or None
    if response.mimetype == "application/json":  # an API's refusal: {"error": "<the sentence>"}
        error = (response.get_json(silent=True) or {}).get("error")
        return error.strip() or None if isinstance(error, str) else None
    match = MESSAGE.search(page)
    return (match.group(1) or match.group(2)).strip() if match else None


class MarkupFinder(HTMLParser):
    """Collects the places where the marker became markup: a tag, an attribute, script, or a javascript: URL."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        if MARK in tag.lower():
            self.found.append(f"tag <{tag}>")
        for name, value in attrs:
            if MARK in name.lower():
                self.found.append(f"attribute {name} in <{tag}>")
            elif name in URL_ATTRIBUTES and value and JAVASCRIPT_URL.match(value):
                self.found.append(f"javascript: URL in {name} of <{tag}>")
        self.in_script = tag == "script"

    def handle_endtag(self, tag):
        self.in_script = False

    def handle_data(self, data):
        if self.in_script and MARK in data.lower():
            self.found.append("script text")


def could_reflect(page: str) -> bool:
    """Whether MarkupFinder could find anything in a page, told without parsing it (parsing every page was a third of
    this module's time): each place it reports holds the marker as the page writes it (a tag's or an attribute's name,
    a script's text), or is an attribute value that starts with javascript: once its character references are read,
    which html.unescape reads in the whole page as the parser does in the value."""
    return MARK in page.lower() or JAVASCRIPT_ANYWHERE.search(html.unescape(page)) is not None


def raw_reflections(response) -> list[str]:
    """Where something the user sent became markup of the page (escaped text and attribute values are fine)."""
    if response.mimetype != "text/html":
        return []
    page = response.get_data(as_text=True)
    if not could_reflect(page):
        return []
    finder = MarkupFinder()
    finder.feed(page)
    finder.close()
    return finder.found


def assert_answered_safely(response, probe: Probe, htmx: bool) -> None:
    """Below 500; a refusal says why (as a fragment for htmx); nothing the user sent comes back unescaped."""
    page = response.get_data(as_text=True)
    assert response.status_code < 500, f"{probe.name}: {response.status_code}"
    fragment = (
        htmx and probe.headers.get("HX-Request", "true") == "true" and "HX-History-Restore-Request" not in probe.headers
    )
    if response.status_code >= 400 and probe.method != "HEAD":
        assert message_of(response), f"{probe.name}: {response.status_code} without a message"
        if fragment:
            assert "<html" not in page, f"{probe.name}: a whole page for htmx"
    if 300 <= response.status_code < 400:
        location = response.headers.get("Location", "")
        # A quote ' may stand in a URL; white space (a header split), < > or " may not.
        assert location and not re.search(r'[\s<>"]', location), f"{probe.name}: Location {location!r}"
    assert raw_reflections(response) == [], f"{probe.name}: reflected raw"


def unsafe_answers(app, requests) -> list[str]:
    """Each request (a probe, htmx or not, a cookie) that was not answered safely, with what was wrong: all of them,
    not only the first."""
    found = []
    for probe, htmx, cookie in requests:
        try:
            assert_answered_safely(send(app, probe, htmx, cookie), probe, htmx)
        except AssertionError as error:
            found.append(f"{str(error).splitlines()[0]} (htmx={htmx}, cookie={cookie!r:.40})")
        except Exception as error:  # a crash the app let through: reported with the others
            found.append(f"{probe.name}: raised {error!r:.200} (htmx={htmx}, cookie={cookie!r:.40})")
    return found


def test_the_corpus_covers_every_route_with_hundreds_of_requests(fuzz_app):
    routes = {rule.endpoint for rule in fuzz_app.url_map.iter_rules() if rule.endpoint != "static"}
    assert len(CORPUS) >= 500 and len({probe.name for probe in CORPUS}) == len(CORPUS)
    assert sorted(index for indexes in CORPUS_BY_ROUTE.values() for index in indexes) == list(range(len(CORPUS)))
    assert (
        all(
            any(probe.url.startswith(f"/play/{language}/{SEED}/words") for probe in CORPUS)
            for language in LOADED_LANGUAGES
        )
        and "en" in LOADED_LANGUAGES
    )
    assert routes <= set(CORPUS_BY_ROUTE), f"routes never fuzzed: {routes - set(CORPUS_BY_ROUTE)}"


def as_sent(position: int) -> tuple[bool, ...]:
    """How a route's position-th probe is sent: as a page and as htmx (the ci profile). The fast profile sends half of
    a route's probes, each once, as a page and as htmx in turn (its first two always): every route is still met by
    both kinds, and CI sends the whole corpus both ways."""
    if HYPOTHESIS_PROFILE == "ci":
        return (False, True)
    return ((False,), (True,), (), ())[position % 4]


@pytest.mark.parametrize("route", sorted(CORPUS_BY_ROUTE))
def test_malformed_requests_to_each_route_are_answered_safely(fuzz_app, cookies, route):
    requests = [
        (CORPUS[index], htmx, cookie_for(cookies, index))
        for position, index in enumerate(CORPUS_BY_ROUTE[route])
        for htmx in as_sent(position)
    ]
    unsafe = unsafe_answers(fuzz_app, requests)
    assert unsafe == [], f"{len(unsafe)} of {len(requests)} requests to {route} not answered safely:\n" + "\n".join(
        unsafe
    )


def cookies_sent(cookies: dict, route_number: int) -> list[tuple[str, str | None, bool]]:
    """The cookies sent to a route, each with its kind and whether as htmx: every value of every kind, as a page and as
    htmx (the ci profile). The fast profile sends one value of each kind, as a page and as htmx in turn, each route
    another value than the route before: every route still meets every kind, and every value some route."""
    if HYPOTHESIS_PROFILE == "ci":
        return [(kind, cookie, htmx) for kind in COOKIE_KINDS for cookie in cookies[kind] for htmx in (False, True)]
    return [
        (kind, cookies[kind][route_number % len(cookies[kind])], (route_number + position) % 2 == 1)
        for position, kind in enumerate(COOKIE_KINDS)
    ]


def test_every_cookie_is_sent_to_some_route_as_a_page_and_as_htmx(cookies):
    sent = [cookies_sent(cookies, number) for number in range(len(ROUTES))]
    every = {(kind, cookie) for kind in COOKIE_KINDS for cookie in cookies[kind]}
    assert {(kind, cookie) for each in sent for kind, cookie, _ in each} == every
    assert all({kind for kind, _, _ in each} == set(COOKIE_KINDS) for each in sent)
    assert {htmx for each in sent for _, _, htmx in each} == {False, True}


@pytest.mark.parametrize("route", ROUTES)
def test_every_cookie_kind_on_every_route_is_answered_safely(fuzz_app, cookies, route):
    method, url, form = ROUTES[route]
    requests = [
        (Probe(f"{route}-{kind}", method, url, form), htmx, cookie)
        for kind, cookie, htmx in cookies_sent(cookies, list(ROUTES).index(route))
    ]
    unsafe = unsafe_answers(fuzz_app, requests)
    assert unsafe == [], f"{len(unsafe)} of {len(requests)} requests to {route} not answered safely:\n" + "\n".join(
        unsafe
    )


def careless_app():
    """An app that makes every mistake the checks look for: markup reflected raw, a bare 500, a 400 without a word."""
    careless = Flask("careless")

    @careless.get("/echo/<text>")
    def echo(text):
        return f"<p>{text}</p><a href='{text}' title=\"{text}\">x</a>"

    @careless.get("/crash")
    def crash():
        return "", 500

    @careless.get("/silent")
    def silent():
        return "<p>no</p>", 400

    return careless


@pytest.mark.parametrize(
    "url",
    [f"/echo/{q(injection)}" for injection in INJECTIONS if injection[0] in "<\"'j"]
    + [f"/echo/{q('&#106;avascript:go()')}", "/crash", "/silent"],  # (a javascript: URL without the marker, escaped)
)
def test_the_checks_catch_raw_reflections_server_errors_and_silent_refusals(url):
    response = careless_app().test_client().get(url)
    with pytest.raises(AssertionError):
        assert_answered_safely(response, Probe("careless", "GET", url), htmx=False)


def test_a_route_test_reports_every_unsafe_answer_not_only_the_first():
    requests = [
        (Probe(f"careless{i}", "GET", url), False, None)
        for i, url in enumerate(("/crash", "/echo/fine", "/silent", f"/echo/{q(INJECTIONS[0])}"))
    ]
    unsafe = unsafe_answers(careless_app(), requests)
    assert [line.split(":")[0] for line in unsafe] == ["careless0", "careless2", "careless3"]
    assert "careless0: 500" in unsafe[0] and "without a message" in unsafe[1] and "reflected raw" in unsafe[2]


# --- random text with markup in every parameter (hypothesis) -----------------------------------------------------


def query_slot(url: str, name: str):
    """A slot that puts the text in one field of the URL's query."""
    return lambda text: Probe(name, "GET", f"{url}?{args(**{name: text})}")


SLOTS = {
    "seed": lambda text: Probe("seed", "GET", f"/play/en/{q(text)}"),
    "size": lambda text: Probe("size", "GET", f"{BOARD}?{args(size=text)}"),
    "time": lambda text: Probe("time", "POST", f"{BOARD}/words?{args(time=text)}", {"word": "CAT"}),
    "challenge": lambda text: Probe("challenge", "GET", f"{BOARD}?{args(challenge=text)}"),
    "safe": lambda text: Probe("safe", "GET", f"{BOARD}?{args(safe=text)}"),
    "language": lambda text: Probe("language", "GET", f"/play/{q(text)}/{SEED}"),
    "word": lambda text: Probe("word", "POST", BOARD + "/words", {"word": text}),
    "word page": lambda text: Probe("word page", "GET", f"{BOARD}/words/{q(text)}"),
    "path": lambda text: Probe("path", "POST", BOARD + "/words", {"path": text}),
    "action": lambda text: Probe("action", "POST", BOARD + "/round", {"action": text}),
    **{  # each of the explorer's and the walk-through's fields on its own (Fields)
        f"{page} {name}": query_slot(url, name)
        for page, url, names in (
            ("solution", TYPED, ("sort", "cell", "prefix", "word", "page")),
            ("projector", f"{BOARD}/projector", ("step", "order", "theme")),
            ("board", BOARD, ("gen", "match")),
        )
        for name in names
    },
    "count": lambda text: Probe("count", "POST", "/assignments", FIELDS_BY_NAME["homework"].form | {"count": text}),
    "code": lambda text: Probe("code", "GET", f"/solve/en/{q(text)}"),
    "board text": lambda text: Probe("board text", "GET", "/solve?" + args(text=text)),
    "tile": lambda text: Probe("tile", "GET", "/solve?" + args(l0_0=text, m0_1=text, size="2x2")),
}
surrogate_free = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
hostile = st.one_of(
    surrogate_free,
    st.builds("".join, st.lists(st.one_of(surrogate_free, st.sampled_from(INJECTIONS)), min_size=1, max_size=4)),
)


@settings(max_examples=examples(400), derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(slot=st.sampled_from(sorted(SLOTS)), text=hostile, htmx=st.booleans(), cookie_index=st.integers(0, 100))
def test_random_text_in_any_parameter_is_answered_safely(fuzz_app, cookies, slot, text, htmx, cookie_index):
    probe = SLOTS[slot](text)
    assert_answered_safely(send(fuzz_app, probe, htmx, cookie_for(cookies, cookie_index)), probe, htmx)


# --- regressions the fuzzing found --------------------------------------------------------------------------------


# str.isdigit() accepts superscripts (² ³⁰) that int() cannot read: such a number is a refusal, not a crash.
@pytest.mark.parametrize(
    "url, status, message",
    [
        (f"{BOARD}?time=²", 400, "whole number of seconds"),
        (f"{BOARD}?time=³⁰", 400, "whole number of seconds"),
        (f"{BOARD}/projector?step=²", 400, "whole number"),
        (f"{BOARD}?gen=²", 400, "generator version"),
        (f"{BOARD}/solution?gen=³", 400, "generator version"),
        (f"{BOARD}/solution?page=²", 400, "whole number"),
        (f"{BOARD}?challenge=²", 200, "Type a word"),  # a nonsense challenge is ignored
    ],
)
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_digits_int_cannot_read_are_refused_not_a_crash(client, url, status, message, headers):
    response = client.get(url, headers=headers)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)


# A Host header with a label over 63 characters cannot be encoded (IDNA): werkzeug refuses it before routing,
# and the error page, which links to the start page, could not build a URL.
@pytest.mark.parametrize("host", ["a" * 64, "a" * 1000, "a" * 64 + ".example"])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_an_unreadable_host_is_a_400_with_a_message(client, host, headers):
    response = client.get(BOARD, headers={"Host": host, **headers})
    assert response.status_code == 400
    assert response.mimetype == "text/plain" and "That does not work" in response.get_data(as_text=True)
