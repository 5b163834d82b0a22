"""Everyday spellings (ruzzle.spellings): a word's Wiktionary link goes to the page of the spelling the language writes
(AÑO: año, not ano), taken from the dictionary's sources; on a small hand-written file, on the build's choice among a
word's spellings, and on the shipped files of every language."""

from __future__ import annotations

import unicodedata

import pytest
from conftest import LANGUAGE_CODES

from ruzzle import Lexicon, normalize_word
from ruzzle.errors import DictionaryError, UnknownLanguage
from ruzzle.lexicon import DICTIONARY_DIR
from ruzzle.meanings import wiktionary_url
from ruzzle.spellings import SPELLINGS_DIR, Spellings, builtin_spellings, everyday_spelling
from tools.build_dictionaries import choose_spelling, spellings_named

MAX_BYTES = 20_000_000


@pytest.fixture
def tiny(tmp_path) -> Spellings:
    """Spellings of AÑO and MÄDCHEN, written and memory-mapped as the build writes them."""
    path = tmp_path / "xx.marisa"
    Spellings.from_mapping({"ANO": "año", "MADCHEN": "Mädchen"}).save(path)
    return Spellings.load(path)


def test_a_stored_spelling_reads_back_as_written(tiny):
    assert (tiny.spelling("ANO"), tiny.spelling("MADCHEN"), len(tiny)) == ("año", "Mädchen", 2)


def test_a_word_without_a_stored_spelling_is_its_lower_case(tiny):
    assert tiny.spelling("CASA") == "casa"


def test_a_missing_file_is_a_dictionary_error(tmp_path):
    with pytest.raises(DictionaryError, match="cannot be opened"):
        Spellings.load(tmp_path / "missing.marisa")


@pytest.mark.parametrize(
    ("language", "word", "url"),
    [
        ("es", "ANO", "https://es.wiktionary.org/wiki/a%C3%B1o"),
        ("es", "ARBOL", "https://es.wiktionary.org/wiki/%C3%A1rbol"),
        ("es", "NINO", "https://es.wiktionary.org/wiki/ni%C3%B1o"),
        ("es", "CAMION", "https://es.wiktionary.org/wiki/cami%C3%B3n"),
        ("de", "MADCHEN", "https://de.wiktionary.org/wiki/M%C3%A4dchen"),
        ("de", "STRASSE", "https://de.wiktionary.org/wiki/Stra%C3%9Fe"),
        ("de", "ESSEN", "https://de.wiktionary.org/wiki/Essen"),  # the noun, at equal frequency with the verb
        ("de", "TURKLINGEL", "https://de.wiktionary.org/wiki/T%C3%BCrklingel"),  # a compound the build adds
        ("de", "BLUTGEFASS", "https://de.wiktionary.org/wiki/Blutgef%C3%A4%C3%9F"),  # a reviewed singular
        ("de", "HASHTAGS", "https://de.wiktionary.org/wiki/Hashtags"),  # added by hand
        ("fr", "ETE", "https://fr.wiktionary.org/wiki/%C3%A9t%C3%A9"),
        ("pt", "CORACAO", "https://pt.wiktionary.org/wiki/cora%C3%A7%C3%A3o"),
    ],
)
def test_the_wiktionary_link_is_the_page_of_the_everyday_spelling(language, word, url):
    assert wiktionary_url(language, word) == url


@pytest.mark.parametrize(
    ("language", "word", "url"),
    [
        ("fr", "MAISON", "https://fr.wiktionary.org/wiki/maison"),  # no other spelling
        ("en", "RUN", "https://en.wiktionary.org/wiki/run"),
        ("es", "QZXV", "https://es.wiktionary.org/wiki/qzxv"),  # no word of the dictionary
    ],
)
def test_a_word_without_another_spelling_links_to_its_lower_case(language, word, url):
    assert wiktionary_url(language, word) == url


def test_an_unknown_language_has_no_spelling():
    with pytest.raises(UnknownLanguage):
        everyday_spelling("xx", "ANO")


# --- the build's choice among a word's spellings (tools/build_dictionaries.py) -------------------------------------

FREQUENCIES = {"año": 7.6e-4, "ano": 6.8e-6, "essen": 2.1e-4, "strasse": 1.9e-4, "esta": 2.3e-3, "está": 1.7e-3}


def frequency(spelling: str) -> float:
    """A hand-made frequency list that case-folds (Essen and essen, Straße and Strasse are one), as wordfreq does."""
    return FREQUENCIES.get(spelling.casefold(), 0.0)


@pytest.mark.parametrize(
    ("rule", "word", "spellings", "chosen"),
    [
        ("the_most_frequent_wins", "ANO", {"ano", "año"}, "año"),
        ("the_most_frequent_wins_without_accents_too", "ESTA", {"esta", "está"}, "esta"),
        ("at_equal_frequency_the_noun", "ESSEN", {"essen", "Essen"}, "Essen"),
        ("at_equal_frequency_the_letters_the_board_lost", "STRASSE", {"Strasse", "Straße"}, "Straße"),
        ("unknown_to_wordfreq_the_letters_the_board_lost", "ACABE", {"acabe", "acabé"}, "acabé"),
        ("no_spelling_in_the_source_is_the_lower_case", "TUIT", set(), "tuit"),
    ],
)
def test_the_build_chooses_the_everyday_spelling(rule, word, spellings, chosen):
    assert choose_spelling(word, spellings, frequency) == chosen


@pytest.mark.parametrize(
    ("rule", "word", "reason", "spellings"),
    [
        ("the_reason_names_the_spelling", "VAMONOS", "vámonos: the imperative of irse", {"vámonos"}),
        ("else_a_named_beginning_keeps_its_capital", "HASHTAGS", "Hashtag, der: Duden lists it", {"Hashtags"}),
        ("the_longest_beginning_wins", "EMAILS", "E-Mail, also written Email", {"Emails"}),
        ("a_reason_without_it_names_none", "SONNENSCHEINS", "compound, genitive", set()),
    ],
)
def test_a_word_added_by_hand_is_spelled_as_its_reason_names_it(rule, word, reason, spellings):
    assert spellings_named(reason, word) == spellings


# --- the shipped files ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=LANGUAGE_CODES)
def shipped(request) -> tuple[str, Spellings]:
    spellings = builtin_spellings(request.param)
    assert spellings is not None, f"no spellings for {request.param} in {SPELLINGS_DIR}"
    return request.param, spellings


def test_every_spelling_folds_back_to_its_own_word(shipped):
    """So that no link can lead to another word's page."""
    language, spellings = shipped
    wrong = [(word, spelling) for word, spelling in spellings.items() if normalize_word(spelling) != word]
    assert wrong == [], language


def test_every_entry_is_a_dictionary_word_spelled_otherwise_than_in_lower_case(shipped):
    language, spellings = shipped
    lexicon = Lexicon.load(DICTIONARY_DIR / f"{language}.marisa")
    wrong = [
        (word, spelling)
        for word, spelling in spellings.items()
        if word not in lexicon or spelling == word.lower() or spelling != unicodedata.normalize("NFC", spelling)
    ]
    assert wrong == [], language


def test_every_file_is_small(shipped):
    language, _ = shipped
    assert (SPELLINGS_DIR / f"{language}.marisa").stat().st_size < MAX_BYTES
