"""Meanings (ruzzle.meanings): a word's own senses, an inflected form led to its lemma, and no meaning for what the
data lacks; on a small hand-written file, then on the built English file (WordNet)."""

from __future__ import annotations

import marisa_trie
import pytest

from ruzzle.errors import DictionaryError, UnknownLanguage
from ruzzle.meanings import Meanings, MeaningsLibrary, Sense, parse_record, record_bytes, wiktionary_url

RUN = [Sense("verb", "move fast on foot"), Sense("noun", "a score in baseball")]


@pytest.fixture
def tiny(tmp_path) -> Meanings:
    """Meanings of RUN, of its form RAN, and of a form whose lemma has no senses."""
    records = [
        ("RUN", record_bytes("run", RUN, None)),
        ("RAN", record_bytes("", [], ("past", "RUN"))),
        ("FLEW", record_bytes("", [], ("past", "FLY"))),
        ("SIEGE", record_bytes("siège", [Sense("", "Meuble utilisé pour s’asseoir.")], None)),
        ("SAW", record_bytes("saw", [Sense("noun", "a hand tool")], ("past", "SEE"))),
        ("SEE", record_bytes("see", [Sense("verb", "perceive by sight")], None)),
    ]
    path = tmp_path / "xx.marisa"
    marisa_trie.BytesTrie(records).save(str(path))
    return Meanings.load(path, "en")


def test_a_record_reads_back_as_written():
    written = record_bytes("siège", RUN, ("plural", "SIEGE"))
    record = parse_record(written)
    assert (record.headword, record.senses, record.form_of) == ("siège", tuple(RUN), ("plural", "SIEGE"))


def test_a_lemma_has_its_own_senses(tiny):
    meaning = tiny.define("RUN")
    assert (meaning.word, meaning.lemma, meaning.senses, meaning.form) == ("RUN", "run", tuple(RUN), None)


def test_an_inflected_form_leads_to_its_lemmas_senses(tiny):
    meaning = tiny.define("RAN")
    assert (meaning.word, meaning.lemma, meaning.senses, meaning.form) == ("RAN", "run", tuple(RUN), "past")


def test_a_lemma_that_is_also_a_form_keeps_its_senses_and_says_what_else_it_is(tiny):
    meaning = tiny.define("SAW")
    assert (meaning.lemma, meaning.senses[0].gloss, meaning.form, meaning.also) == (
        "saw",
        "a hand tool",
        None,
        ("past", "see"),
    )


def test_the_headword_keeps_the_sources_spelling(tiny):
    assert tiny.define("SIEGE").lemma == "siège"


@pytest.mark.parametrize("word", ["ZZZ", "FLEW", "", "run"])
def test_no_meaning_for_an_unknown_word_or_a_form_of_one(tiny, word):
    assert tiny.define(word) is None


def test_a_missing_file_is_a_dictionary_error(tmp_path):
    with pytest.raises(DictionaryError):
        Meanings.load(tmp_path / "none.marisa", "en")


def test_the_library_opens_a_language_once_and_has_none_for_a_language_without_a_file(tmp_path, tiny):
    tiny_path = tmp_path / "xx.marisa"
    (tmp_path / "en.marisa").write_bytes(tiny_path.read_bytes())
    library = MeaningsLibrary(tmp_path)
    assert library.of("EN") is library.of("en")
    assert library.define("en", "RAN").lemma == "run"
    assert library.of("fr") is None and library.define("fr", "RUN") is None
    with pytest.raises(UnknownLanguage):
        library.of("xx")


def test_the_wiktionary_link_is_the_languages_page_of_the_word():
    assert wiktionary_url("fr", "MAISON") == "https://fr.wiktionary.org/wiki/maison"


# --- the built English file (WordNet 3.0) ------------------------------------------------------------------


@pytest.fixture(scope="module")
def english() -> Meanings:
    return Meanings.builtin("en")


@pytest.mark.parametrize(
    ("word", "form", "lemma"),
    [
        ("RAN", "past", "run"),  # WordNet's exception list
        ("WENT", "past", "go"),
        ("MICE", "plural", "mouse"),
        ("HOUSES", "plural", "house"),  # the noun, the lemma's most used part of speech, not the verb
        ("WALKED", "past", "walk"),  # detached ending -ed
        ("TAKING", "present participle", "take"),  # -ing -> -e
        ("HAPPIER", "comparative", "happy"),
        ("IS", "present", "be"),
        ("ICHOR", None, "ichor"),
        ("LINTEL", None, "lintel"),
    ],
)
def test_english_words_lead_to_their_lemma(english, word, form, lemma):
    meaning = english.define(word)
    assert (meaning.form, meaning.lemma) == (form, lemma)


@pytest.mark.parametrize("word", ["RUN", "ICHOR", "HOUSE", "COHESIVE", "LINTEL"])
def test_english_words_have_one_or_two_senses_each_with_a_gloss(english, word):
    senses = english.define(word).senses
    assert 1 <= len(senses) <= 2
    assert all(sense.gloss and sense.pos in {"noun", "verb", "adjective", "adverb"} for sense in senses)


def test_an_english_verb_shows_its_verb_sense_first(english):
    assert english.define("RAN").senses[0].pos == "verb"
    assert "foot" in english.define("RAN").senses[0].gloss


def test_a_word_wordnet_lacks_has_no_meaning(english):
    assert english.define("ZZZQX") is None


# --- the built Italian file (MultiWordNet and ItalWordNet glosses, forms from hunspell-it) -------------------------


@pytest.fixture(scope="module")
def italian() -> Meanings:
    return Meanings.builtin("it")


@pytest.mark.parametrize(
    ("word", "form", "lemma"),
    [
        ("CASE", "plural", "casa"),  # a regular plural, not hunspell-it's root caso (its -o -> -e rule)
        ("CANI", "plural", "cane"),  # the common lemma of two that fit (cane, cano)
        ("MANI", "plural", "mano"),
        ("ANDATO", "past participle", "andare"),  # a root of its own in hunspell-it
        ("PARLO", "form", "parlare"),  # the spell checker's root
        ("CITTA", None, "città"),  # the source's spelling, with its accent
        ("CASA", None, "casa"),
    ],
)
def test_italian_words_lead_to_their_lemma(italian, word, form, lemma):
    meaning = italian.define(word)
    assert (meaning.form, meaning.lemma) == (form, lemma)


@pytest.mark.parametrize("word", ["CASA", "GATTO", "ROSSO", "NOTTE"])
def test_italian_words_have_one_or_two_senses_each_with_a_gloss(italian, word):
    senses = italian.define(word).senses
    assert 1 <= len(senses) <= 2
    assert all(sense.gloss and sense.pos in {"noun", "verb", "adjective", "adverb"} for sense in senses)


def test_an_italian_lemma_is_not_a_form_of_its_root_with_another_last_vowel(italian):
    assert italian.define("CASA").also is None  # not "a form of caso"
    assert italian.define("PORTA").also == ("form", "portare")


def test_the_most_used_italian_sense_comes_first(italian):
    assert "abitazione" in italian.define("CASA").senses[0].gloss
    assert "vista" in italian.define("OCCHI").senses[0].gloss


# --- the built Portuguese file (Dicionário Aberto, forms from hunspell-pt-pt) ------------------------------------


@pytest.fixture(scope="module")
def portuguese() -> Meanings:
    return Meanings.builtin("pt")


@pytest.mark.parametrize(
    ("word", "form", "lemma"),
    [
        ("CASAS", "plural", "casa"),  # the noun's plural, not the spell checker's verb casar
        ("HOMENS", "plural", "homem"),
        ("LEOES", "plural", "leão"),
        ("FALAVA", "form", "falar"),  # the spell checker's root
        ("MAO", None, "mão"),
        ("FARMACIA", None, "farmácia"),
    ],
)
def test_portuguese_words_lead_to_their_lemma(portuguese, word, form, lemma):
    meaning = portuguese.define(word)
    assert (meaning.form, meaning.lemma) == (form, lemma)


def test_a_portuguese_definition_leaves_its_example_and_italics_out(portuguese):
    gloss = portuguese.define("CASA").senses[0].gloss
    assert "habitação" in gloss and "_" not in gloss and "moderna" not in gloss


@pytest.mark.parametrize("word", ["CASA", "COMER", "BONITO", "GATO"])
def test_portuguese_words_have_one_or_two_senses_each_with_a_gloss(portuguese, word):
    senses = portuguese.define(word).senses
    assert 1 <= len(senses) <= 2
    assert all(sense.gloss and sense.pos in {"noun", "verb", "adjective", "adverb"} for sense in senses)
