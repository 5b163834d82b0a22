"""The interface in seven languages: complete catalogues, the language each request gets, and every page, fragment
and refusal rendered in every language with no English left (outside the words themselves and the brand).

A new page or fragment joins the check with one line in PAGES: a name and a function that asks for it.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import render_template_string
from flask_babel import force_locale, gettext

from views import translations
from views.services import services
from views.translations import INTERFACE_LANGUAGES, LANGUAGE_COOKIE, current_language

from .conftest import HTMX, Clock, solution_of
from .helpers import START_BUTTON, TRANSLATED, TRANSLATIONS, catalogue, entries, translate

ROOT = Path(__file__).resolve().parents[2]
BOARD = "/play/en/TESTS2"
TYPED = "/solve/en/TtlRSNdl-OdwHtwEI-CdwINV-EtlADE"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")


def key(message) -> tuple:
    return message.context, message.id


# --- the catalogues --------------------------------------------------------------------------------------------


def test_pybabel_extract_finds_no_message_missing_from_the_catalogues(tmp_path):
    """The code's messages today (tools/translations.sh extract) are all in every catalogue."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        ["bash", "tools/translations.sh", "extract"],
        cwd=ROOT,
        check=True,
        env={**os.environ, "POT": str(pot), "PYBABEL": str(Path(sys.executable).parent / "pybabel")},
    )
    with open(pot, "rb") as file:
        extracted = {key(message) for message in read_po(file) if message.id}
    assert len(extracted) > 250
    for language in TRANSLATED:
        missing = extracted - {key(message) for message in entries(language)}
        assert not missing, (
            f"{language}: not in the catalogue (bash tools/translations.sh update): {sorted(missing, key=repr)[:5]}"
        )


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalogue_entry_is_translated_with_its_placeholders(language):
    for message in entries(language):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        originals = message.id if isinstance(message.id, tuple) else (message.id,)
        assert "fuzzy" not in message.flags, f"{language}: fuzzy {message.id!r}"
        assert all(form.strip() for form in forms), f"{language}: untranslated {message.id!r}"
        for form, original in zip(forms, originals, strict=False):
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(original)), (
                f"{language}: placeholders of {form!r} differ from {original!r}"
            )
            assert "%" not in PLACEHOLDER.sub("", form).replace("%%", ""), f"{language}: a stray % in {form!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_compiled_catalogue_is_the_po_file(language):
    """The .mo the app serves says what the reviewed .po says (tools/setup.sh compiles it on each run)."""
    compiled = Translations.load(str(TRANSLATIONS), [language])
    for message in entries(language):
        if isinstance(message.id, tuple):
            assert (
                compiled.unpgettext(message.context, *message.id, 2) == message.string[1]
                if message.context
                else compiled.ungettext(*message.id, 2) == message.string[1]
            )
        elif message.context:
            assert compiled.upgettext(message.context, message.id) == message.string
        else:
            assert compiled.ugettext(message.id) == message.string


# --- which language a request gets -----------------------------------------------------------------------------


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


def test_a_client_without_accept_language_gets_english(client):
    page = client.get("/").get_data(as_text=True)
    assert html_lang(page) == "en" and "Find words on a board of letters" in page


@pytest.mark.parametrize(
    "accepted, language",
    [("de-DE,de;q=0.9,en;q=0.5", "de"), ("pt-BR", "pt"), ("ja, fr;q=0.3", "fr"), ("ja", "en"), ("*", "en")],
)
def test_the_browsers_accept_language_picks_the_interface(client, accepted, language):
    page = client.get("/", headers={"Accept-Language": accepted}).get_data(as_text=True)
    assert html_lang(page) == language
    assert translate(language, "Find words on a board of letters") in page


def test_a_board_link_opened_fresh_speaks_the_boards_language_and_words_keep_theirs(client, app):
    word = solution_of(app, "it", "LINGUA")[0]
    page = client.get("/play/it/LINGUA", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert html_lang(page) == "it" and "Scrivi una parola o tracciala sulla griglia" in page
    answer = client.post("/play/it/LINGUA/words", data={"word": word.word}, headers=HTMX).get_data(as_text=True)
    assert f'<span class="breakdown-word" lang="it">{word.word}</span>' in answer and "Lettera" in answer
    assert html_lang(client.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)) == "de"


def test_the_players_choice_wins_sticks_and_brings_them_back(client):
    chosen = client.post("/language", data={"language": "fr", "next": "/play/it/LINGUA?size=5x5"})
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/play/it/LINGUA?size=5x5"
    cookie = chosen.headers["Set-Cookie"]
    assert f"{LANGUAGE_COOKIE}=fr" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    for url in ("/play/it/LINGUA", "/", "/me", BOARD + "/projector"):
        page = client.get(url, headers={"Accept-Language": "de"}).get_data(as_text=True)
        assert html_lang(page) == "fr", url


@pytest.mark.parametrize(
    "form, status, location",
    [
        ({"language": "xx", "next": "/"}, 400, None),
        ({"language": "", "next": "/"}, 400, None),
        ({"language": "de", "next": "//evil.example/"}, 303, "/"),
        ({"language": "de", "next": "https://evil.example"}, 303, "/"),
        ({"language": "de", "next": "/\\evil.example"}, 303, "/"),
        ({"language": "de"}, 303, "/"),
        # a browser drops tabs and line breaks from a URL: "/\t/evil.example" is "//evil.example" (and a line break is a
        # header no response may carry: it was a 500)
        ({"language": "de", "next": "/\t/evil.example"}, 303, "/"),
        ({"language": "de", "next": "/\n/evil.example"}, 303, "/"),
    ],
)
def test_the_switcher_refuses_unknown_languages_and_foreign_addresses(client, form, status, location):
    response = client.post("/language", data=form)
    assert response.status_code == status
    if location:
        assert response.headers["Location"] == location
    else:
        assert "The interface speaks en, it, es, fr, de, nl, pt" in response.get_data(as_text=True)


def test_the_switcher_is_a_form_on_every_page_that_comes_back_to_it(client):
    for url in ("/", BOARD + "?size=5x5", BOARD + "/solution", BOARD + "/projector", "/solve", "/me", "/play/xx/A"):
        page = client.get(url).get_data(as_text=True)
        assert '<form class="language-choices" action="/language" method="post">' in page, url
        back = re.search(r'name="next" value="([^"]+)"', page).group(1).replace("&amp;", "&")
        assert back == url, url
        assert all(f'name="language" value="{code}"' in page for code in INTERFACE_LANGUAGES)


def test_new_boards_start_in_the_interfaces_language(client):
    """The start page and the typing form offer the player's language as the board's language first."""
    for url in ("/", "/solve"):
        page = client.get(url, headers={"Accept-Language": "nl"}).get_data(as_text=True)
        assert re.search(r'<option value="nl" lang="nl" selected>Nederlands</option>', page), url
        english = client.get(url).get_data(as_text=True)
        assert re.search(r'<option value="en" lang="en" selected>English</option>', english), url


def test_pages_vary_by_cookie_and_accept_language(client):
    response = client.get(BOARD)
    assert {"Cookie", "Accept-Language", "HX-Request"} <= set(response.vary)


def test_rendered_boards_are_cached_per_language(client):
    """The same board in two languages: each gets its own tiles' names, not the first one's cached markup."""
    names = {}
    for language in ("it", "de", "it"):
        client.set_cookie(LANGUAGE_COOKIE, language)
        page = client.get(BOARD).get_data(as_text=True)
        names.setdefault(language, set()).add(re.search(r'class="tile-face"[^>]*aria-label="([^"]+)"', page).group(1))
    assert len(names["it"]) == 1 and names["it"] != names["de"]
    assert "punt" in next(iter(names["it"])) and "Punkt" in next(iter(names["de"]))


def test_a_requests_messages_follow_its_language_and_a_locale_forced_for_a_while(app):
    """The catalogue a request finds once (views.translations.request_language) is its language's, in the
    templates, the app's own gettext and Flask-Babel's alike, and a locale forced inside the request (force_locale)
    speaks its own, then gives way back."""
    said = {language: catalogue(language)["Not found"].string for language in ("fr", "de")}
    assert said["fr"] != said["de"] and "Not found" not in said.values()

    def both() -> tuple[str, str, str, str]:
        template = render_template_string("{{ _('Not found') }}")
        return translations.gettext("Not found"), gettext("Not found"), template, current_language()

    with app.test_request_context(headers={"Accept-Language": "fr"}):
        assert both() == (said["fr"], said["fr"], said["fr"], "fr")
        with force_locale("de"):
            assert both() == (said["de"], said["de"], said["de"], "de")
        assert both() == (said["fr"], said["fr"], said["fr"], "fr")
    with app.test_request_context(headers={"Accept-Language": "de"}):
        assert current_language() == "de"  # (the language found first, then the catalogue)
        assert both() == (said["de"], said["de"], said["de"], "de")


@pytest.mark.parametrize(
    "language, points",
    [
        ("en", "1,234 points"),
        ("de", "1.234 Punkte"),
        ("fr", "1\u202f234 points"),
    ],
)
def test_numbers_take_the_languages_format(client, language, points):
    client.set_cookie(LANGUAGE_COOKIE, language)
    page = client.get(BOARD + "?challenge=1234").get_data(as_text=True)
    assert points.split()[0] in page


# --- one English string, two meanings; plurals; the two codes of the start page ----------------------------------

START_COLUMN = "solution table column: row,column of the word's first tile"


@pytest.mark.parametrize("language", TRANSLATED)
def test_start_is_translated_once_as_a_button_and_once_as_the_first_tiles_column(client, language):
    """ "Start" is a button (the projector's clock, the host's round) and the solution table's column of the word's
    first tile: each language says each meaning in its own word, and every one of ours needs two."""
    button, column = translate(language, "Start", START_BUTTON), translate(language, "Start", START_COLUMN)
    assert button != column, language
    client.set_cookie(LANGUAGE_COOKIE, language)
    projector = client.get(BOARD + "/projector").get_data(as_text=True)
    assert re.search(
        rf'id="timer-start" data-start-text="{re.escape(button)}"[^>]*>{re.escape(button)}</button>', projector
    )
    client.post(BOARD + "/round", data={"action": "give-up"})
    solution = client.get(BOARD + "/solution").get_data(as_text=True)
    assert f'<th scope="col">{column}</th><th scope="col">' in solution
    assert f">{button}<" not in solution.split('class="word-table"')[1]


def summary_sentence(client, app, language: str, found: int) -> str:
    """The round summary's "found of total" sentence after finding some of BOARD's words, in a language."""
    client.set_cookie(LANGUAGE_COOKIE, language)
    round_with_words(client, app, found)
    client.post(BOARD + "/round", data={"action": "give-up"})
    page = client.get(BOARD).get_data(as_text=True)
    return " ".join(re.search(r'<section class="summary".*?<p>(.*?)</p>', page, re.S).group(1).split())


def test_the_french_summary_counts_one_word_found_of_many_in_good_french(client, app):
    """ "1 mots trouvés sur 54": the plural followed the board's count, not the words found. The plural form now puts
    the board's count before "mots"."""
    total = len(solution_of(app))
    assert summary_sentence(client, app, "en", 1).startswith(f"1 of {total} words found")
    french = summary_sentence(app.test_client(), app, "fr", 1)
    assert french.startswith(f"Tu as trouvé 1 des {total} mots") and "1 mots" not in french


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_found_of_total_plural_agrees_in_both_forms(language):
    """Each form of "%(found)s of %(num)s words found" read with the numbers it serves: no "1 mots", no "parola
    trovate"."""
    translations = Translations.load(str(TRANSLATIONS), [language])
    singular, plural = "%(found)s of %(num)s word found (%(percent)s)", "%(found)s of %(num)s words found (%(percent)s)"
    one_of_one = translations.ungettext(singular, plural, 1) % {"found": 1, "num": 1, "percent": "100%"}
    one_of_many = translations.ungettext(singular, plural, 54) % {"found": 1, "num": 54, "percent": "2%"}
    wrong = {
        "fr": ["1 mots"],
        "it": ["parola trovate"],
        "es": ["palabra encontradas"],
        "pt": ["palavra encontradas"],
        "de": [],
        "nl": [],
    }[language]
    assert not [text for text in wrong if text in one_of_one + one_of_many], (one_of_one, one_of_many)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_board_code_and_the_room_code_read_as_two_things_in_every_language(client, language):
    client.set_cookie(LANGUAGE_COOKIE, language)
    page = client.get("/").get_data(as_text=True)
    seed_label = re.search(r'<label for="seed">([^<]+)<', page).group(1).strip()
    room_label = re.search(r'<label for="room-code">([^<]+)<', page).group(1).strip()
    assert seed_label == translate(language, "Board code") and room_label != seed_label
    assert seed_label.lower() not in room_label.lower() and translate(language, "Seed") == "Seed"  # gone from the code
    seed_example = re.search(r'id="seed"[^>]*placeholder="([^"]+)"', page).group(1)
    room_example = re.search(r'id="room-code"[^>]*placeholder="([^"]+)"', page).group(1)
    assert "K7M2QX" in room_example and "K7M2QX" not in seed_example and seed_example != room_example


MATCH_WORDS = {"it": "partit", "es": "partida", "pt": "partida"}  # translations/glossary.md: a round is never a match


@pytest.mark.parametrize("language", sorted(MATCH_WORDS))
def test_a_round_is_never_called_a_match(language):
    """Italian said "partita" (a match) for a round, Spanish once "partida" for a room's last round: a message about
    rounds and not about matches uses the glossary's word for a round."""
    wrong = []
    for message in entries(language):
        english = " ".join(message.id) if isinstance(message.id, tuple) else message.id
        forms = " ".join(message.string) if isinstance(message.string, tuple) else message.string
        if (
            re.search(r"\b(round|rounds|game)\b", english, re.I)
            and not re.search(r"\bmatch\b", english, re.I)
            and MATCH_WORDS[language] in forms.lower()
        ):
            wrong.append((english, forms))
    assert wrong == []


# translations/glossary.md: the clicker's word in each language, and the presenting person's word it once was
CLICKER_WORDS = {"es": ("mando de presentaciones", "presentador"), "pt": ("comando de apresentações", "apresentador")}


@pytest.mark.parametrize("language", sorted(CLICKER_WORDS))
def test_a_clicker_is_the_device_and_never_a_presenting_person(language):
    """Spanish and Portuguese called the teacher's clicker "presentador/apresentador", a TV host: every message
    about a clicker names the device with the glossary's word, and no message names a presenting person."""
    device, person = CLICKER_WORDS[language]
    about_clickers = [message.string for message in entries(language) if "clicker" in str(message.id)]
    every_form = " ".join(str(message.string) for message in entries(language)).lower()
    assert about_clickers and all(device in text for text in about_clickers)
    assert person not in every_form


def test_a_french_round_of_a_room_or_a_match_is_a_manche():
    """French says "manche" for a round of a room or of a match (glossary), "partie" only for a player's own round."""
    wrong = []
    for message in entries("fr"):
        english = re.sub(r"%\(\w+\)[sd]", "", " ".join(message.id) if isinstance(message.id, tuple) else message.id)
        forms = " ".join(message.string) if isinstance(message.string, tuple) else message.string
        if (
            re.search(r"\brounds?\b", english, re.I)
            and re.search(r"\b(match|room|host|teacher)\b", english, re.I)
            and ("manche" not in forms.lower() or re.search(r"\bparties?\b", forms))
        ):
            wrong.append((english, forms))
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_solve_pages_paste_hint_names_the_badges_the_page_shows(client, language):
    client.set_cookie(LANGUAGE_COOKIE, language)
    page = client.get("/solve").get_data(as_text=True)
    hint = re.search(r'<label for="board-text">([^<]+)</label>', page).group(1)
    badges = re.findall(r'<option value="(?:dl|tl|dw|tw)"[^>]*>([^<]+)</option>', page)[:4]
    assert len(badges) == 4 and all(badge in hint for badge in badges), (badges, hint)
    assert "dl" in hint and "tw" in hint  # what the pasted text is written with


# --- every page, fragment and refusal, in every language, with no English left -----------------------------------


def round_with_words(client, app, count=2):
    """A round on BOARD with the board's best words found."""
    client.get(BOARD)
    for found in solution_of(app)[:count]:
        client.post(BOARD + "/words", data={"word": found.word}, headers=HTMX)


def word_refused(word: str):
    return lambda client, app: client.post(BOARD + "/words", data={"word": word}, headers=HTMX)


def path_refused(path: str):
    return lambda client, app: client.post(BOARD + "/words", data={"path": path}, headers=HTMX)


def a_word_on_the_dictionary_but_not_the_board(app) -> str:
    from ruzzle import Lexicon

    words = {found.word for found in solution_of(app)}
    return next(
        word for word in ("HOUSE", "GARDEN", "PLANET", "WINDOW") if word in Lexicon.builtin("en") and word not in words
    )


def already_found(client, app):
    round_with_words(client, app, 1)
    return client.post(BOARD + "/words", data={"word": solution_of(app)[0].word}, headers=HTMX)


def found_by_form(client, app):
    client.post(BOARD + "/words", data={"word": solution_of(app)[0].word})
    return client.get(BOARD)


def refused_by_form(client, app):
    client.post(BOARD + "/words", data={"word": "QQQQ"})
    return client.get(BOARD)


def time_up(client, app):
    client.get(BOARD)
    app.config["CLOCK"].advance(200)
    return client.post(BOARD + "/words", data={"word": solution_of(app)[0].word}, headers=HTMX)


def summary(client, app):
    round_with_words(client, app, 3)
    client.post(BOARD + "/round", data={"action": "give-up"})
    return client.get(BOARD + "?challenge=99999")


def summary_won(client, app):
    round_with_words(client, app, 3)
    client.post(BOARD + "/round", data={"action": "give-up"})
    return client.get(BOARD + "?challenge=1")


def my_rounds(client, app):
    round_with_words(client, app, 2)
    return client.get("/me")


def locked(url):
    def ask(client, app):
        client.get(BOARD)
        return client.get(url)

    return ask


def after_the_round(url, headers=None):
    def ask(client, app):
        client.get(BOARD)
        client.post(BOARD + "/round", data={"action": "give-up"})
        return client.get(url, headers=headers or {})

    return ask


def get(url, **headers):
    return lambda client, app: client.get(url, headers=headers)


def post(url, data=None, **headers):
    return lambda client, app: client.post(url, data=data, headers=headers)


NEW_BOARDS = itertools.count()


def too_many_new_boards(client, app):
    """A client whose solving budget is spent asks for a board never solved before: a 429."""
    services(app).solving_budget.charge("10.9.9.9", 1000)
    return client.get(f"/play/en/SPENT{next(NEW_BOARDS)}", environ_base={"REMOTE_ADDR": "10.9.9.9"})


def unreadable_cookie(client, app):
    client.set_cookie("session", "not.a.valid.cookie")
    return client.get(BOARD)


PAGES = {
    "start": get("/"),
    "board": get(BOARD),
    "board with a challenge": get(BOARD + "?challenge=1234"),
    "board, untimed, filter off": get(BOARD + "?time=0&safe=0"),
    "word found (htmx)": lambda client, app: client.post(
        BOARD + "/words", data={"word": solution_of(app)[0].word}, headers=HTMX
    ),
    "word found (form)": found_by_form,
    "word refused (form)": refused_by_form,
    "refused: empty": word_refused(""),
    "refused: letters": word_refused("A1"),
    "refused: too short": word_refused("A"),
    "refused: too long": word_refused("A" * 17),
    "refused: not a word": word_refused("QQQQ"),
    "refused: not on the board": lambda client, app: word_refused(a_word_on_the_dictionary_but_not_the_board(app))(
        client, app
    ),
    "refused: already found": already_found,
    "refused: time up": time_up,
    "refused path: reused tile": path_refused("0,0 0,1 0,0"),
    "refused path: not neighbours": path_refused("0,0 3,3"),
    "refused path: off the board": path_refused("0,0 9,9"),
    "refused path: too short": path_refused("0,0"),
    "refused path: too long": path_refused("0,0 " * 17),
    "refused path: garbage": path_refused("x y"),
    "word page (403 during the round)": locked(BOARD + "/words/" + "QQQQ"),
    "word page (404)": after_the_round(BOARD + "/words/QQQQ"),
    "summary, lost a challenge": summary,
    "summary, won a challenge": summary_won,
    "word page after the round": lambda client, app: after_the_round(BOARD + "/words/" + solution_of(app)[0].word)(
        client, app
    ),
    "solution locked": locked(BOARD + "/solution"),
    "solution": after_the_round(BOARD + "/solution"),
    "solution filtered": after_the_round(BOARD + "/solution?cell=1,1&prefix=a&sort=length&theme=dark"),
    "solution word (htmx)": lambda client, app: after_the_round(
        BOARD + f"/solution?word={solution_of(app)[0].word}", {**HTMX, "HX-Target": "solution_word"}
    )(client, app),
    "projector": get(BOARD + "/projector"),
    "projector step 1": get(BOARD + "/projector?step=1&order=length"),
    "projector step 2, no scores, dark": get(BOARD + "/projector?step=2&scores=0&theme=dark"),
    "projector walk (htmx)": get(BOARD + "/projector?step=1", **HTMX),
    "projector locked": locked(BOARD + "/projector?step=3"),
    "typed board's solution": get(TYPED),
    "typed board's projector": get(TYPED + "/projector?step=1"),
    "solve form": get("/solve?size=5x5&language=fr"),
    "solve form with problems": get("/solve?size=2x2&l0_0=A&m0_0=xx&l0_1=1&l1_0=&l1_1=B"),
    "solve form, pasted text refused": get("/solve?text=" + "A+B%0AC"),
    "solve form, pasted tile refused": get("/solve?text=" + "A+B%0AC+9"),
    "solve form, pasted board too big": get("/solve?text=" + "%0A".join(["A+" * 13] * 13)),
    "typed board code refused": get("/solve/en/AB-C"),
    "typed board too long": get("/solve/en/" + "A" * 500),
    "my rounds": my_rounds,
    "my rounds, none yet": get("/me"),
    "unreadable cookie": unreadable_cookie,
    "unknown language": get("/play/xx/A"),
    "no page at this address": get("/nowhere"),
    "wrong method": lambda client, app: client.delete(BOARD),
    "bad size": get(BOARD + "?size=99"),
    "bad size written": get(BOARD + "?size=big"),
    "bad time": get(BOARD + "?time=abc"),
    "bad time range": get(BOARD + "?time=3"),
    "bad safe": get(BOARD + "?safe=maybe"),
    "seed with a slash": get("/new?seed=a/b"),
    "seed of dots": get("/play/en/.."),
    "seed too long": get("/play/en/" + "A" * 65),
    "bad sort": after_the_round(BOARD + "/solution?sort=random"),
    "bad cell": after_the_round(BOARD + "/solution?cell=9,9"),
    "bad page": after_the_round(BOARD + "/solution?page=x"),
    "page past the end": after_the_round(BOARD + "/solution?page=9"),
    "bad prefix": after_the_round(BOARD + "/solution?prefix=1"),
    "word not on the board (solution)": after_the_round(BOARD + "/solution?word=QQQQ"),
    "bad order": get(BOARD + "/projector?order=random"),
    "bad step": get(BOARD + "/projector?step=x"),
    "bad round action": post(BOARD + "/round", {"action": "cheat"}),
    "cross-site post": post(BOARD + "/words", {"word": "CAT"}, Origin="https://evil.example"),
    "too much sent": post(BOARD + "/words", {"word": "A" * 70_000}),
    "host too long": get("/", Host="a" * 400),
    "bad size (htmx)": get(BOARD + "?size=99", **HTMX),
    "too many new boards": too_many_new_boards,
}


# --- live rooms: the host opens a room on BOARD's seed, players (upper-case nicknames) join ------------------------


def player_like(app, client):
    """Another browser with the same interface language."""
    other = app.test_client()
    other.set_cookie(LANGUAGE_COOKIE, client.get_cookie(LANGUAGE_COOKIE).value)
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = client.environ_base["HTTP_ACCEPT_LANGUAGE"]
    return other


def open_room(client, **form) -> str:
    answer = client.post("/rooms", data={"language": "en", "time": "60", "seed": "TESTS2", **form})
    return answer.headers["Location"].split("/")[2]


def room_words(app, code: str) -> list:
    """The words of a room's current board, best first."""
    from views.rooms import room_board

    with app.test_request_context():
        return list(room_board(app.extensions["ruzzle.store"].rooms.get(code)).solution())


def room_with_players(client, app, started=False, over=False, **form):
    """A room (this client hosts), two players; started (3-2-1 passed) and over when asked. The code and players."""
    code = open_room(client, **form)
    players = []
    for name in ("ADA", "BRUNO"):
        player = player_like(app, client)
        player.post(f"/rooms/{code}/players", data={"nickname": name})
        players.append(player)
    if started or over:
        client.post(f"/rooms/{code}/start")
        app.config["CLOCK"].advance(5)
        words = room_words(app, code)
        for player, found in zip(players, words, strict=False):
            player.post(f"/rooms/{code}/words", data={"word": found.word}, headers=HTMX)
        players[0].post(f"/rooms/{code}/words", data={"word": words[5].word}, headers=HTMX)
    if over:
        app.config["CLOCK"].advance(100)
    return code, players


def in_room(url, as_player=True, started=False, over=False, headers=None, method="get", data=None, **form):
    """A room page, asked by a player (or the host) once the room is as described."""

    def ask(client, app):
        code, players = room_with_players(client, app, started, over, **form)
        asker = players[0] if as_player else client
        return getattr(asker, method)(url.format(code=code), headers=headers or {}, data=data)

    return ask


def joining(nickname, taken=False, full=False):
    def ask(client, app):
        code = open_room(client)
        if taken:
            player_like(app, client).post(f"/rooms/{code}/players", data={"nickname": "ADA"})
        app.config["ROOM_PLAYERS"] = 1 if full else 150
        if full:
            player_like(app, client).post(f"/rooms/{code}/players", data={"nickname": "ADA"})
        try:
            return player_like(app, client).post(f"/rooms/{code}/players", data={"nickname": nickname})
        finally:
            app.config["ROOM_PLAYERS"] = 150

    return ask


def countdown(client, app):
    code, players = room_with_players(client, app)
    client.post(f"/rooms/{code}/start")
    return players[0].get(f"/rooms/{code}/play")


def word_in_countdown(client, app):
    code, players = room_with_players(client, app)
    client.post(f"/rooms/{code}/start")
    return players[0].post(f"/rooms/{code}/words", data={"word": "CAT"}, headers=HTMX)


def closed_room(client, app):
    code = open_room(client)
    app.config["CLOCK"].advance(2 * 86400)
    return client.get(f"/rooms/{code}")


def join_page(client, app):
    return player_like(app, client).get(f"/rooms/{open_room(client, preset='match')}")


def after_host(
    *actions, url="/rooms/{code}/host", as_player=False, started=True, over=False, method="get", data=None, headers=None
):
    """A room page once the host did some actions (POST path, form) in a started room."""

    def ask(client, app):
        code, players = room_with_players(client, app, started, over)
        for path, form in actions:
            client.post(path.format(code=code, player=_player_id(app, code)), data=form)
        asker = players[0] if as_player else client
        return getattr(asker, method)(
            url.format(code=code, player=_player_id(app, code)), headers=headers or {}, data=data
        )

    return ask


def _player_id(app, code: str) -> int:
    rooms = app.extensions["ruzzle.store"].rooms
    return rooms.players(rooms.get(code).id)[0].id


def remote_page(started=False, over=False, walk=False):
    def ask(client, app):
        code, _ = room_with_players(client, app, started, over)
        if walk:
            client.post(f"/rooms/{code}/walk", data={"step": "next"})
        return client.get(f"/rooms/{code}/remote")

    return ask


def rejoining(code_typed):
    def ask(client, app):
        code, _ = room_with_players(client, app)
        return player_like(app, client).post(f"/rooms/{code}/players", data={"nickname": "ADA", "code": code_typed})

    return ask


ROOM_PAGES = {
    "room: paused (player)": after_host(("/rooms/{code}/pause", {}), url="/rooms/{code}/play", as_player=True),
    "room: word while paused": after_host(
        ("/rooms/{code}/pause", {}),
        url="/rooms/{code}/words",
        as_player=True,
        method="post",
        data={"word": "QQQQ"},
        headers=HTMX,
    ),
    "room: host paused": after_host(("/rooms/{code}/pause", {})),
    "room: host with extra time playing": after_host(
        ("/rooms/{code}/players/{player}/time", {"seconds": "600"}), over=True
    ),
    "room: host, names hidden": after_host(("/rooms/{code}/settings", {"names": "none"}), over=True),
    "room: pause before the start": after_host(url="/rooms/{code}/pause", started=False, method="post"),
    "room: time out of bounds": after_host(url="/rooms/{code}/time", method="post", data={"seconds": "9999"}),
    "room: rename refused": after_host(
        url="/rooms/{code}/players/{player}/name", method="post", data={"nickname": "fuck"}
    ),
    "room: remote lobby": remote_page(),
    "room: remote playing": remote_page(started=True),
    "room: remote walk-through": remote_page(over=True, walk=True),
    "room: remote link wrong": in_room("/rooms/{code}/remote/not-the-key"),
    "room: locked": after_host(("/rooms/{code}/lock", {}), url="/rooms/{code}", as_player=False, started=False),
    "room: removed": after_host(
        ("/rooms/{code}/players/{player}/remove", {}), url="/rooms/{code}", as_player=True, started=False
    ),
    "room: wrong rejoin code": rejoining("ZZZZ"),
    "room: join page": join_page,
    "room: nickname refused": joining("xXcrapXx"),
    "room: nickname empty": joining(""),
    "room: nickname too long": joining("A" * 25),
    "room: nickname invisible": joining("A\u200bB"),
    "room: nickname taken": joining("ada", taken=True),
    "room: full": joining("BRUNO", full=True),
    "room: waiting": in_room("/rooms/{code}/play"),
    "room: waiting (htmx)": in_room("/rooms/{code}/play", headers=HTMX),
    "room: countdown": countdown,
    "room: word in the 3-2-1": word_in_countdown,
    "room: word before the start": in_room("/rooms/{code}/words", method="post", data={"word": "CAT"}, headers=HTMX),
    "room: board": in_room("/rooms/{code}/play", started=True),
    "room: word (htmx)": in_room(
        "/rooms/{code}/words", started=True, method="post", data={"word": "QQQQ"}, headers=HTMX
    ),
    "room: word after the end": in_room(
        "/rooms/{code}/words", over=True, method="post", data={"word": "QQQQ"}, headers=HTMX
    ),
    "room: results": in_room("/rooms/{code}/play", over=True),
    "room: results of a match": in_room("/rooms/{code}/play", over=True, preset="match"),
    "room: host lobby": in_room("/rooms/{code}/host", as_player=False),
    "room: host lobby of a match": in_room("/rooms/{code}/host", as_player=False, preset="match"),
    "room: host during the round": in_room("/rooms/{code}/host", as_player=False, started=True),
    "room: host podium": in_room("/rooms/{code}/host", as_player=False, over=True),
    "room: leaderboard (htmx)": in_room("/rooms/{code}/leaderboard", started=True, headers=HTMX),
    "room: walk-through": in_room("/rooms/{code}/projector?step=1", as_player=False, over=True),
    "room: walk-through too early": in_room("/rooms/{code}/projector?step=1", as_player=False, started=True),
    "room: host only": in_room("/rooms/{code}/host"),
    "room: not joined": lambda client, app: client.post(f"/rooms/{open_room(client)}/words", data={"word": "CAT"}),
    "room: unknown": get("/rooms/ZZZZZZ"),
    "room: closed": closed_room,
    "room: no time limit": post("/rooms", {"language": "en", "time": "0"}),
    "room: bad preset": post("/rooms", {"language": "en", "time": "60", "preset": "marathon"}),
    "room: code field empty": get("/rooms?code="),
    "room: its code typed as a board code": lambda client, app: client.get(
        f"/new?language=en&seed={open_room(client)}"
    ),
    "room: another round too early": in_room("/rooms/{code}/rounds", as_player=False, started=True, method="post"),
}
PAGES.update(ROOM_PAGES)


class Segments(HTMLParser):
    """The texts of a page a person reads or hears: text, and the attributes that are spoken or shown. Texts inside an
    element with its own `lang` (the words, the language names), code, seeds and links are left out."""

    SPOKEN = {"aria-label", "title", "placeholder", "alt"}
    SKIPPED_CLASSES = {"seed", "join-url", "share-url", "join-seed"}
    VOID = {"meta", "link", "input", "br", "img", "wbr", "hr", "source", "col", "area", "base", "embed"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []
        self.texts: list[str] = []

    def skipping(self) -> bool:
        return any(self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        skip = (
            (tag != "html" and "lang" in attrs)
            or tag in ("code", "script", "style", "textarea")
            or bool(classes & self.SKIPPED_CLASSES)
        )
        if not self.skipping() and not skip:
            for name, value in attrs.items():
                if value and (name in self.SPOKEN or (name.startswith("data-") and name.endswith(("-text", "-label")))):
                    self.texts.append(value)
        if tag not in self.VOID:
            self.stack.append(skip)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not self.skipping() and data.strip():
            self.texts.append(" ".join(data.split()))


def segments(html: str) -> list[str]:
    parser = Segments()
    parser.feed(html)
    parser.close()
    return parser.texts


def as_pattern(text: str) -> re.Pattern:
    """An English message with its placeholders as wildcards (a placeholder set in its own element splits the
    message's text: "%(num)s points" shows as "points" beside a <strong>)."""
    parts = [part.strip() for part in PLACEHOLDER.split(text)[::2]]
    return re.compile(".*?".join(re.escape(part) for part in parts if part))


def same_in_english(language: str) -> list[re.Pattern]:
    """The messages whose translation is the English itself (Total, Pause, DL, ...): not English left over."""
    patterns = []
    for message in entries(language):
        originals = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        patterns += [as_pattern(original) for original, form in zip(originals, forms, strict=False) if original == form]
    return sorted(patterns, key=lambda pattern: -len(pattern.pattern))


def english_left(text: str, allowed: list[re.Pattern]) -> str | None:
    """The English words a text still has, once the brand, upper-case words and letters, numbers and the messages
    that are the same in both languages are set aside; None when there are none."""
    for pattern in allowed:
        text = pattern.sub(" ", text)
    words = [word for word in re.findall(r"[^\W\d_]{2,}", text.replace("Ruzzle", " ")) if not word.isupper()]
    return " ".join(words) or None


def render(app, language: str, ask) -> tuple[int, str]:
    """A page as a new player who chose this language sees it (a new client: a new player; a clock of its own)."""
    app.config["CLOCK"] = Clock()
    client = app.test_client()
    client.set_cookie(LANGUAGE_COOKIE, language)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language  # also where the cookie is not sent (another Host)
    response = ask(client, app)
    return response.status_code, response.get_data(as_text=True)


@pytest.fixture(scope="module")
def pages_app(tmp_path_factory):
    """One app for every page in every language (each page is asked by a new player)."""
    from app import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "CLOCK": Clock(),
            "DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('pages') / 'store.sqlite3'}",
            "RATELIMIT_ENABLED": False,
        }
    )  # dozens of rooms from one address (as the `app` fixture)
    yield app
    app.extensions["ruzzle.store"].dispose()


@pytest.fixture(scope="module")
def pages_in_english(pages_app):
    """Each page rendered in English once."""
    return {name: render(pages_app, "en", ask) for name, ask in PAGES.items()}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_page_fragment_and_refusal_is_in_the_language_with_no_english_left(language, pages_app, pages_in_english):
    allowed = same_in_english(language)
    problems = []
    for name, ask in PAGES.items():
        status, page = render(pages_app, language, ask)
        english_status, english_page = pages_in_english[name]
        assert status == english_status, f"{name}: {status} in {language}, {english_status} in English"
        if "<html" in page:
            assert html_lang(page) == language, name
        english_texts = set(segments(english_page))
        assert english_texts, f"{name}: nothing to read"
        for text in segments(page):
            if text in english_texts and (left := english_left(text, allowed)):
                problems.append(f"{name}: {text!r} ({left})")
    assert not problems, f"English left in {language}:\n" + "\n".join(problems)


def test_the_english_detector_finds_a_text_left_in_english():
    """The check above can fail: an English sentence, or a word of one, is caught; a translated one is not."""
    allowed = same_in_english("fr")
    assert english_left("Round over", allowed) == "Round over"
    assert english_left("Tap again to end the round", allowed)
    page_en, page_fr = "<p>Round over</p><p>Total</p>", "<p>Round over</p><p>Total</p>"
    left = [text for text in segments(page_fr) if text in set(segments(page_en)) and english_left(text, allowed)]
    assert left == ["Round over"]  # "Total" is French too
    assert segments('<p lang="en">WORD word</p><button aria-label="Seed">x</button><code>Ttl R</code>') == ["Seed", "x"]


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{{ _('Score') }}", "Score"),
        ("{{ _('%(a)s and %(b)s', a='<i>', b=2) }}", "&lt;i&gt; and 2"),  # values escaped, the message kept
        ("{{ _('100%%') }}", "100%"),  # always a format string
        ("{{ ngettext('%(num)s word', '%(num)s words', 3) }}", "3 words"),
        ("{{ ngettext('%(num)s word', '%(num)s words', 1) }}", "1 word"),
        ("{{ ngettext('%(num)s word', '%(num)s words', 1234, num='1,234') }}", "1,234 words"),  # a keyword num wins
        ("{{ pgettext('tiles', 'Start') }}", "Start"),
        ("{{ npgettext('tiles', '%(num)s x', '%(num)s xs', 2) }}", "2 xs"),
    ],
)
def test_templates_messages_are_jinjas_new_style_gettext(app, template, expected):
    """The templates' `_`, `gettext`, `ngettext`, `pgettext`, `npgettext` (views.translations.TEMPLATE_MESSAGES) behave
    as jinja2.ext.i18n's new-style ones: Markup with escaped values, always formatted, `num` given or a keyword."""
    with app.test_request_context():
        assert render_template_string(template) == expected
