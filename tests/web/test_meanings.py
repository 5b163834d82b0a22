"""`GET /define/<language>/<word>` in the seven languages (a lemma and its senses where the data has them, the
Wiktionary link and a 404 where not), bad input in a sentence, and the panel wherever a word is opened."""

from __future__ import annotations

import re

import pytest

from ruzzle.meanings import SOURCES

from .conftest import HTMX, solution_of
from .helpers import join, open_room, send, start, words_of

JSON = {"Accept": "application/json"}
# Per language an inflected form a player finds, and the lemma it leads to; None: the language has no meanings yet.
FORMS = {
    "en": ("RAN", "run"),
    "fr": ("MAISONS", "maison"),
    "de": ("HUNDE", "Hund"),
    "it": ("CASE", "casa"),
    "es": ("CASAS", None),
    "nl": ("HUIZEN", None),
    "pt": ("CASAS", "casa"),
}
# The Wiktionary page of each word above: its everyday spelling (a German noun keeps its capital).
PAGES = {"en": "ran", "fr": "maisons", "de": "Hunde", "it": "case", "es": "casas", "nl": "huizen", "pt": "casas"}


@pytest.fixture(autouse=True)
def english_interface(client):
    """The texts around the meanings (the form line, the labels) in English: the interface would otherwise follow the
    board's language, whose catalogue translates them (each catalogue's own test checks those)."""
    client.set_cookie("ruzzle_lang", "en")


def test_every_language_is_in_the_table():
    assert sorted(FORMS) == sorted(["en", "fr", "de", "it", "es", "nl", "pt"])
    assert {code for code, (_, lemma) in FORMS.items() if lemma} == set(SOURCES)


@pytest.mark.parametrize("language", sorted(FORMS))
def test_define_answers_json_with_the_lemma_and_its_senses_or_the_wiktionary_link(client, language):
    word, lemma = FORMS[language]
    response = client.get(f"/define/{language}/{word.lower()}", headers=JSON)
    body = response.get_json()
    refused = ["error"] if lemma is None else []  # a 404 says why, as every refusal of the JSON API
    assert sorted(body) == sorted(["also", "form", "lemma", "licence", "link", "senses", "source", "word", *refused])
    assert body["word"] == word
    assert body["link"] == f"https://{language}.wiktionary.org/wiki/{PAGES[language]}"
    if lemma is None:
        assert response.status_code == 404
        assert (body["lemma"], body["senses"], body["source"], body["licence"]) == (None, [], None, None)
    else:
        assert response.status_code == 200
        assert body["lemma"] == lemma and lemma in body["form"]
        assert 1 <= len(body["senses"]) <= 2 and all(sense["gloss"] for sense in body["senses"])
        assert (body["source"], body["licence"]) == (SOURCES[language].name, SOURCES[language].licence)


@pytest.mark.parametrize("language", sorted(FORMS))
def test_define_answers_htmx_with_the_panel_alone(client, language):
    word, lemma = FORMS[language]
    response = client.get(f"/define/{language}/{word}", headers=HTMX)
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="meaning"') and "<html" not in html
    assert f'href="https://{language}.wiktionary.org/wiki/{PAGES[language]}"' in html
    if lemma is None:
        assert response.status_code == 404 and 'class="meaning-none"' in html
    else:
        assert response.status_code == 200 and f"of {lemma}" in html
        assert html.count("<li>") == len(client.get(f"/define/{language}/{word}", headers=JSON).get_json()["senses"])


def test_english_senses_name_their_part_of_speech_and_the_source(client):
    html = client.get("/define/en/ran").get_data(as_text=True)
    assert "<title>RAN · Ruzzle</title>" in html
    assert '<span class="meaning-form">past of run</span>' in html
    assert '<span class="meaning-pos" lang="en">verb</span> move fast' in html
    assert "Source: WordNet 3.0 (Princeton University)" in html and 'href="/about/meanings"' in html


def test_a_lemma_is_its_own_meaning_without_a_form_line(client):
    body = client.get("/define/en/lintel", headers=JSON).get_json()
    assert (body["lemma"], body["form"]) == ("lintel", None)
    assert "horizontal beam" in body["senses"][0]["gloss"]


@pytest.mark.parametrize(
    ("language", "word", "lemma", "also"),
    [("en", "saw", "saw", "also past of see"), ("de", "grune", "Grüne", "also a form of grün")],
)
def test_a_lemma_that_is_also_a_form_says_so(client, language, word, lemma, also):
    body = client.get(f"/define/{language}/{word}", headers=JSON).get_json()
    assert (body["lemma"], body["form"], body["also"]) == (lemma, None, also)
    html = client.get(f"/define/{language}/{word}").get_data(as_text=True)
    assert f'<span class="meaning-also">({also})</span>' in html


def test_a_french_word_keeps_its_accents_in_the_lemma(client):
    body = client.get("/define/fr/etait", headers=JSON).get_json()
    assert body["lemma"] == "être" and body["word"] == "ETAIT"


def test_a_word_with_accents_is_defined_as_the_board_spells_it(client):
    assert client.get("/define/fr/siège", headers=JSON).get_json()["lemma"] == "siège"


def test_an_unknown_word_is_a_404_with_the_link(client):
    response = client.get("/define/en/qzxv", headers=JSON)
    assert response.status_code == 404
    assert response.get_json()["link"] == "https://en.wiktionary.org/wiki/qzxv"


@pytest.mark.parametrize(("word", "page"), [("ANO", "a%C3%B1o"), ("año", "a%C3%B1o"), ("arbol", "%C3%A1rbol")])
def test_a_word_without_a_meaning_links_to_its_everyday_spelling(client, word, page):
    """Spanish has no meanings: AÑO's panel links to año's page (ano is another word: the board folds both)."""
    link = f"https://es.wiktionary.org/wiki/{page}"
    response = client.get(f"/define/es/{word}", headers=JSON)
    assert (response.status_code, response.get_json()["link"]) == (404, link)
    html = client.get(f"/define/es/{word}", headers=HTMX)
    assert html.status_code == 404 and f'href="{link}"' in html.get_data(as_text=True)


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("/define/xx/ran", 404, "unknown language 'xx'; known languages: de, en, es, fr, it, nl, pt"),
        ("/define/en/r4n", 400, "r4n is not a word a board can hold: only letters, at most 64."),
        ("/define/en/two words", 400, "two words is not a word a board can hold"),
        ("/define/en/" + "A" * 65, 400, "only letters, at most 64"),
    ],
)
def test_bad_input_is_refused_in_a_sentence(client, url, status, says):
    response = client.get(url, headers=JSON)
    assert response.status_code == status and says in response.get_json()["error"]
    page = client.get(url)
    assert page.status_code == status and says.lower() in page.get_data(as_text=True).replace("&#39;", "'").lower()


@pytest.mark.parametrize("url", ["/define/en/ran", "/define/en/qzxv", "/define/en/r4n"])
def test_define_varies_by_accept_and_its_refusals_are_no_word_outcome(client, url):
    for headers in (JSON, HTMX, {}):
        response = client.get(url, headers=headers)
        assert "Accept" in response.vary
        assert "HX-Trigger" not in response.headers


def test_an_unknown_language_page_lists_the_languages(client):
    html = client.get("/define/xx/ran").get_data(as_text=True)
    assert 'href="/daily/it" lang="it">Italiano (it)</a>' in html


def test_the_attribution_page_names_each_source_and_its_licence(client):
    html = client.get("/about/meanings").get_data(as_text=True)
    for source in SOURCES.values():
        assert source.name in html and source.licence_url in html and source.notice in html
    assert html.count("No meanings yet") == len(FORMS) - len(SOURCES)


# --- the panel where words are opened ----------------------------------------------------------------------


def meaning_panel(html: str) -> str:
    found = re.search(r'<section class="meaning[^"]*" aria-label="Meaning of [A-Z]+">.*?</section>', html, re.S)
    assert found, "no meaning panel"
    return found.group()


def defined_word(app, language="en", seed="TESTS2"):
    """The best word of a board that has a meaning (the panel is then full, not the fallback)."""
    with app.app_context():
        library = app.extensions["ruzzle"].meanings
        return next(found for found in solution_of(app, language, seed) if library.define(language, found.word))


def test_a_word_opened_on_the_solution_page_shows_its_meaning(client, app):
    word = defined_word(app)
    html = client.get(f"/play/en/TESTS2/solution?word={word.word}", headers=HTMX).get_data(as_text=True)
    panel = meaning_panel(html)
    assert f'aria-label="Meaning of {word.word}"' in panel and "meaning-senses" in panel


def test_a_word_opened_after_the_round_shows_its_meaning_and_a_word_played_does_not(client, app):
    word = defined_word(app)
    client.get("/play/en/TESTS2")
    played = client.post("/play/en/TESTS2/words", data={"word": word.word}, headers=HTMX).get_data(as_text=True)
    assert 'class="meaning' not in played  # the round goes on: the answer stays short
    client.post("/play/en/TESTS2/round", data={"action": "give-up"})
    html = client.get(f"/play/en/TESTS2/words/{word.word}", headers=HTMX).get_data(as_text=True)
    assert f'aria-label="Meaning of {word.word}"' in meaning_panel(html)


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_the_projector_shows_the_shown_words_meaning_large(client, app, language):
    html = client.get(f"/play/{language}/TESTS2/projector?step=1").get_data(as_text=True)
    panel = meaning_panel(html)
    assert 'class="meaning meaning-large"' in panel
    first = re.search(r'<p class="walk-word[^"]*"><span lang="[a-z]+">([A-Z]+)</span>', html).group(1)
    assert f"Meaning of {first}" in panel
    with app.app_context():
        has_meaning = app.extensions["ruzzle"].meanings.define(language, first) is not None
    assert ("meaning-line" in panel) == has_meaning and ("meaning-none" in panel) == (not has_meaning)


def test_a_word_opened_in_a_room_shows_its_meaning(app, client, clock):
    code = open_room(client)
    phone = join(app, code, "Ada")
    start(client, clock, code)
    with app.app_context():
        library = app.extensions["ruzzle"].meanings
        word = next(found for found in words_of(app, code) if library.define("en", found.word))
    send(phone, code, word.word)
    html = phone.get(f"/rooms/{code}/words/{word.word}", headers=HTMX).get_data(as_text=True)
    assert f'aria-label="Meaning of {word.word}"' in meaning_panel(html)


# --- in class: the board's filter decides what a panel shows (issue 33) --------------------------------------------


@pytest.mark.parametrize(
    ("url", "never"),
    [
        ("/define/fr/mettre", "pénis"),
        ("/define/fr/vie", "Pénis"),
        ("/define/de/schwanz", "Penis"),
        ("/define/en/puss", "obscene"),
        ("/define/it/scopare", "sessualmente"),
    ],
)
def test_define_is_in_class_unless_the_url_turns_the_filter_off(client, url, never):
    in_class = client.get(url, headers=JSON).get_json()
    assert never not in " ".join(sense["gloss"] for sense in in_class["senses"])
    full = client.get(f"{url}?safe=0", headers=JSON).get_json()
    assert never in " ".join(sense["gloss"] for sense in full["senses"])


@pytest.mark.parametrize("word", ["he", "at", "me", "us", "it", "an"])
def test_an_english_function_word_has_no_element_state_or_abbreviation_in_class(client, word):
    assert client.get(f"/define/en/{word}", headers=JSON).status_code == 404
    assert client.get(f"/define/en/{word}?safe=0", headers=JSON).status_code == 200


def test_a_word_whose_sense_is_hidden_in_class_falls_back_to_its_lemma_on_the_panel(client):
    html = client.get("/define/de/vogeln", headers=HTMX).get_data(as_text=True)
    assert "a form of Vogel" in meaning_panel(html) and "Geschlechtsakt" not in html


def test_a_bad_filter_value_is_refused_in_a_sentence(client):
    response = client.get("/define/en/run?safe=maybe", headers=JSON)
    assert response.status_code == 400 and "safe" in response.get_json()["error"]


@pytest.mark.parametrize("safe", [True, False])
def test_a_solution_panel_follows_its_boards_filter(client, app, safe):
    with app.app_context():
        library = app.extensions["ruzzle"].meanings
        found = next(
            (seed, found.word)
            for seed in ("TESTS2", "TESTS3", "TESTS4", "A", "B", "C", "D", "E", "F", "G", "H")
            for found in solution_of(app, "en", seed, safe=False)
            if library.define("en", found.word, False) != library.define("en", found.word, True)
        )
        seed, word = found
        expected = library.define("en", word, safe)
    query = "" if safe else "&safe=0"
    html = client.get(f"/play/en/{seed}/solution?word={word}{query}", headers=HTMX).get_data(as_text=True)
    panel = meaning_panel(html)
    shown = expected.senses[0].gloss if expected else None
    assert (shown is None and "meaning-none" in panel) or (shown and shown.replace("'", "&#39;") in panel)
