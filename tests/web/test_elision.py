"""French elides "de" before a word that starts with a vowel sound ("une forme d'être", "Définition d'ARBRES"), not
before an aspirated h ("de haïr"); the other languages' sentences stay as their catalogues write them."""

from __future__ import annotations

import html
import re

import pytest
from flask_babel import gettext

from views.i18n import elide, french_elides

JSON = {"Accept": "application/json"}


@pytest.mark.parametrize(
    "word",
    ["être", "arbre", "aimer", "œil", "Ümit", "homme", "hiver", "hier", "humeur", "HOMMES", "ypérite", "yeux", "hour"],
)
def test_french_elides_de_before_a_vowel_sound(word):
    assert french_elides(word)


@pytest.mark.parametrize(
    "word",
    [
        "haïr",
        "hêtre",
        "héros",
        "hibou",
        "hache",
        "HAIS",
        "hurler",
        "hérisson",
        "hocher",
        "onze",
        "oui",
        "yaourt",
        "maison",
        "Zoé",
        "42",
        "",
    ],
)
def test_french_keeps_de_before_an_aspirated_h_or_a_consonant(word):
    assert not french_elides(word)


@pytest.mark.parametrize(
    ("word", "form"),
    [
        ("ETAIT", "une forme d'être"),
        ("ARBRES", "une forme d'arbre"),
        ("HOMMES", "une forme d'homme"),
        ("HIBOUX", "une forme de hibou"),
        ("HETRES", "une forme de hêtre"),
        ("HURLAIT", "une forme de hurler"),
    ],
)
def test_a_french_form_line_elides_before_its_lemma(client, word, form):
    client.set_cookie("ruzzle_lang", "fr")
    assert client.get(f"/define/fr/{word}", headers=JSON).get_json()["form"] == form


@pytest.mark.parametrize(("word", "form"), [("APPLES", "le pluriel d'apple"), ("TREES", "le pluriel de tree")])
def test_a_french_plural_line_elides_before_an_english_lemma(client, word, form):
    client.set_cookie("ruzzle_lang", "fr")
    assert client.get(f"/define/en/{word}", headers=JSON).get_json()["form"] == form


def test_a_french_also_line_elides_too(client):
    client.set_cookie("ruzzle_lang", "fr")
    assert client.get("/define/fr/ETRES", headers=JSON).get_json()["also"] == "aussi une forme d'être"


@pytest.mark.parametrize(("word", "label"), [("ARBRES", "Définition d'ARBRES"), ("HAIS", "Définition de HAIS")])
def test_the_french_panel_is_named_with_the_elision(client, word, label):
    client.set_cookie("ruzzle_lang", "fr")
    page = client.get(f"/define/fr/{word}").get_data(as_text=True)
    assert label in re.findall(r'<section class="meaning[^"]*" aria-label="([^"]*)"', html.unescape(page))


@pytest.mark.parametrize(
    ("language", "board", "word", "form"),
    [
        ("it", "it", "ALBERI", "plurale di albero"),
        ("it", "fr", "ETAIT", "una forma di être"),
        ("es", "fr", "ETAIT", "una forma de être"),
        ("es", "fr", "ARBRES", "una forma de arbre"),
        ("en", "fr", "ETAIT", "a form of être"),
    ],
)
def test_other_languages_keep_their_sentences(client, language, board, word, form):
    client.set_cookie("ruzzle_lang", language)
    assert client.get(f"/define/{board}/{word}", headers=JSON).get_json()["form"] == form


@pytest.mark.parametrize(
    ("language", "name", "title"),
    [
        ("fr", "Alice", "Nouveaux mots d'Alice, séance par séance"),
        ("fr", "Hugo", "Nouveaux mots d'Hugo, séance par séance"),
        ("fr", "Mona", "Nouveaux mots de Mona, séance par séance"),
        ("es", "Alice", "Palabras nuevas de Alice, sesión a sesión"),
        ("it", "Alice", "Parole nuove di Alice, lezione per lezione"),
    ],
)
def test_a_sentence_with_a_name_elides_in_french_only(app, language, name, title):
    with app.test_request_context(headers={"Cookie": f"ruzzle_lang={language}"}):
        assert elide(gettext("New words of %(name)s, lesson by lesson", name=name), name) == title
