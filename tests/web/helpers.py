"""The web tests' shared helpers through the Flask client (rooms, homework, classes, translations, the QR code, a
server's clock): every test module imports them from here, never from another test module."""

from __future__ import annotations

import datetime
import glob
import html
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from babel.messages.pofile import read_po
from babel.support import Translations
from sqlalchemy import func, select

from store.schema import metadata
from views.homework import homework_board
from views.rooms import COUNTDOWN, room_board
from views.translations import INTERFACE_LANGUAGES

from .conftest import HTMX

# --- a browser against a real server ----------------------------------------------------------------------------


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class ServerBrowser:
    """A browser talking to real servers: one session cookie, carried to whichever server it asks, no redirect
    followed (the test reads each)."""

    def __init__(self):
        self.cookie: str | None = None
        self.opener = urllib.request.build_opener(NoRedirect)

    def ask(self, url: str, form: dict | None = None, headers: dict | None = None) -> tuple[int, dict, str]:
        """Status, headers and body of a GET (or a POST of `form`)."""
        headers = dict(headers or {})
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            response = self.opener.open(urllib.request.Request(url, data, headers), timeout=30)
        except urllib.error.HTTPError as error:
            response = error
        with response:
            if response.headers.get("Set-Cookie"):
                self.cookie = response.headers["Set-Cookie"].split(";")[0]
            return response.status, dict(response.headers), response.read().decode("utf-8")


# --- rooms ---------------------------------------------------------------------------------------------------

SEED = "ROOMS7"


SECONDS = 60


JSON = {"Accept": "application/json"}


def open_room(client, **form) -> str:
    """The host (this client) opens a room; its code."""
    answer = client.post("/rooms", data={"language": "en", "size": "4x4", "time": str(SECONDS), "seed": SEED, **form})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    code = re.fullmatch(r"/rooms/([A-Z0-9]{6})/host", answer.headers["Location"]).group(1)
    return code


def join(app, code: str, nickname: str):
    """A new phone joins with a nickname; its client."""
    phone = app.test_client()
    answer = phone.post(f"/rooms/{code}/players", data={"nickname": nickname})
    assert (answer.status_code, answer.headers.get("Location")) == (303, f"/rooms/{code}/play"), answer.get_data(
        as_text=True
    )
    return phone


def start(client, clock, code: str) -> None:
    """The host starts the round, and the 3-2-1 passes."""
    assert client.post(f"/rooms/{code}/start").status_code == 303
    clock.advance(COUNTDOWN + 1)


def words_of(app, code: str) -> list:
    """The room's current board's words, best first, as the server has them."""
    with app.test_request_context():
        room = app.extensions["ruzzle.store"].rooms.get(code)
        return list(room_board(room).solution())


def send(phone, code: str, word: str):
    return phone.post(f"/rooms/{code}/words", data={"word": word}, headers=HTMX)


def message(answer) -> str:
    return " ".join(
        re.findall(r'class="(?:result-message|notice notice-refused)"[^>]*>([^<]*)<', answer.get_data(as_text=True))
    )


def walk_word(client, code: str, step: int, order: str = "score") -> tuple[str, str]:
    """The word a step of the room's walk-through shows, and its line of who found it."""
    page = client.get(f"/rooms/{code}/projector?step={step}&order={order}").get_data(as_text=True)
    word = re.search(r'<p class="walk-word[^"]*"><span lang="en">([A-Z]+)</span>', page).group(1)
    finders = re.search(r'<p class="walk-finders">(.*?)</p>', page, flags=re.S)
    return word, re.sub(r"<[^>]+>", "", finders.group(1)) if finders else ""


# --- homework and classes ------------------------------------------------------------------------------------

PARIS = datetime.timezone(datetime.timedelta(hours=1))


def iso(moment: float, zone=PARIS) -> str:
    return datetime.datetime.fromtimestamp(moment, zone).isoformat()


def homework_words_of(app, code: str, number: int) -> list:
    """Board `number`'s words, best first, as the server has them."""
    with app.test_request_context():
        assignment = app.extensions["ruzzle.store"].assignments.get(code)
        return list(homework_board(assignment, number).solution())


def send_homework_word(pupil, code: str, number: int, word: str):
    return pupil.post(f"/a/{code}/boards/{number}/words", data={"word": word}, headers=HTMX)


def found(answer) -> bool:
    return '"outcome": "found"' in answer.headers.get("HX-Trigger", "")


def text_of(answer) -> str:
    """A page's words, without its markup."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", answer.get_data(as_text=True))))


def rows_in_every_table(app) -> dict[str, int]:
    store = app.extensions["ruzzle.store"]
    with store.engine.connect() as connection:
        return {
            table.name: connection.execute(select(func.count()).select_from(table)).scalar_one()
            for table in metadata.sorted_tables
        }


CLASS_NAMES = ["Zoë", "Ana", "Luca"]


def make_class(client, names=CLASS_NAMES) -> tuple[str, str]:
    answer = client.post("/classes", data={"name": "7B", "pupils": "\n".join(names)})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    link = answer.headers["Location"]
    code = re.fullmatch(r"/classes/([A-Z0-9]{6})\?key=[\w-]{20,}", link).group(1)
    return code, link


def class_data(client, link) -> dict:
    return client.get(link, headers=JSON).get_json()


def set_class_homework(client, code: str, link: str, clock, seed: str) -> str:
    key = link.split("key=")[1]
    answer = client.post(
        "/assignments",
        data={
            "language": "en",
            "time": str(SECONDS),
            "seeds": seed,
            "due": iso(clock() + 2 * 86400),
            "class": code,
            "class_key": key,
        },
    )
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return re.match(r"/a/([A-Z0-9]{6})/teacher", answer.headers["Location"]).group(1)


def join_with_code(app, homework: str, name: str, code: str, device=None):
    device = device or app.test_client()
    answer = device.post(f"/a/{homework}/pupils", data={"nickname": name, "code": code})
    assert answer.status_code == 303, text_of(answer)
    return device


# --- translations ----------------------------------------------------------------------------------------------

TRANSLATIONS = Path(__file__).resolve().parents[2] / "translations"


TRANSLATED = [code for code in INTERFACE_LANGUAGES if code != "en"]


def catalogue(language: str):
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        return read_po(file, locale=language)


def entries(language: str):
    """The catalogue's messages (without the header)."""
    return [message for message in catalogue(language) if message.id]


def translate(language: str, text: str, context: str | None = None) -> str:
    translations = Translations.load(str(TRANSLATIONS), [language])
    return translations.upgettext(context, text) if context else translations.ugettext(text)


START_BUTTON = "button: start the round or the clock"


# --- the room's QR code ----------------------------------------------------------------------------------------


def qr_matrix_from_svg(svg: str) -> list[list[bool]]:
    """Read the dark modules back from segno's SVG path (horizontal runs: `M x y h n m dx dy ...`)."""
    d = re.search(r'class="qr-modules"[^>]* d="([^"]+)"', svg).group(1)
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, number_text in re.findall(r"([MmHh])([-\d.]+(?:\s[-\d.]+)?)", d):
        numbers = [float(n) for n in number_text.split()]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:
            length = numbers[0]
            dark.update((int(y - 0.5), int(x + i)) for i in range(int(length)))
            x += length
    size = max(max(r, c) for r, c in dark) + 1
    return [[(r, c) in dark for c in range(size)] for r in range(size)]


# --- a server's own clock --------------------------------------------------------------------------------------

FAKETIME_LIBRARIES = (
    "/usr/lib/*/faketime/libfaketimeMT.so.1",
    "/usr/lib/faketime/libfaketimeMT.so.1",
    "/usr/local/lib/faketime/libfaketimeMT.so.1",
)


def faketime_library() -> str:
    """Debian's libfaketime, the multi-threaded one (gunicorn's gthread workers answer on several threads)."""
    for pattern in FAKETIME_LIBRARIES:
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    raise RuntimeError("libfaketime is not installed: apt-get install -y faketime (tools/test.sh does it)")


def clock_ahead(seconds: int) -> dict[str, str]:
    """The environment that moves a process's own clock `seconds` ahead (its monotonic clock moves by the same
    constant, which libfaketime needs: with FAKETIME_DONT_FAKE_MONOTONIC, Python's time.sleep fails with EINVAL)."""
    return {"LD_PRELOAD": faketime_library(), "FAKETIME": f"+{seconds}s"}


def a_listed_word_with_a_meaning(page, server: str) -> str:
    """The first word of a pupil's room results that has a meaning in class (a tenth of a board's words have none:
    their page is a 404 with a link out, which the browser's console reports)."""
    listed = [text.split()[0] for text in page.locator(".room-results .word-list a").all_inner_texts()]
    return next(word for word in listed if page.request.get(f"{server}/define/en/{word}").status == 200)
