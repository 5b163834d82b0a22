"""Dictionaries: normalization, loading, compiling, and the built-in English list."""

import os
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT

from ruzzle import DictionaryError, Lexicon, normalize_word
from ruzzle.lexicon import load_once


@pytest.mark.parametrize(
    "entry, word",
    [
        ("café", "CAFE"),
        ("Straße", "STRASSE"),
        ("GROẞE", "GROSSE"),
        ("encyclopædia", "ENCYCLOPAEDIA"),
        ("Œuvre", "OEUVRE"),
        ("smørrebrød", "SMORREBROD"),
        ("Łódź", "LODZ"),
        ("perché", "PERCHE"),
        ("  été \n", "ETE"),
        ("niño", "NINO"),
    ],
)
def test_entries_are_normalized_to_board_letters(entry, word):
    assert normalize_word(entry) == word


@pytest.mark.parametrize("entry", ["dell'", "can't", "x-ray", "mp3", "two words", "", "日本", "Þorn"])
def test_entries_that_are_not_letters_a_to_z_are_dropped_not_mangled(entry):
    assert normalize_word(entry) is None


def test_plain_text_lists_are_normalized_and_deduplicated(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("\ufeffcafé\nCafe\ncan't\n\nStraße\nx-ray\n", encoding="utf-8")
    lexicon = Lexicon.load(path)
    assert list(lexicon) == ["CAFE", "STRASSE"]
    assert "CAFE" in lexicon and lexicon.has_prefix("STR") and not lexicon.has_prefix("STX")


def test_compiled_lexicons_round_trip_with_their_node_table(tmp_path, tiny):
    tiny.save(tmp_path / "tiny.marisa")
    assert (tmp_path / "tiny.nodes").exists()
    loaded = Lexicon.load(tmp_path / "tiny.marisa")
    assert list(loaded) == list(tiny)
    assert loaded._nodes is not None, "the saved node table is memory-mapped, not rebuilt"


def test_a_node_table_of_another_dictionary_is_ignored(tmp_path, tiny):
    tiny.save(tmp_path / "a.marisa")
    Lexicon.from_words(["other", "words", "here"]).save(tmp_path / "b.marisa")
    os.replace(tmp_path / "b.nodes", tmp_path / "a.nodes")
    loaded = Lexicon.load(tmp_path / "a.marisa")
    assert loaded._nodes is None
    assert len(loaded.nodes) > 1


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "dictionary file not found"),
        (b"", "holds no words"),
        (b"1234\n----\n", "holds no words"),
        (b"\xff\xfe\x00bad", "neither a .marisa file nor UTF-8 text"),
        (b"We love Marisa.garbage", "not a valid .marisa file"),
    ],
)
def test_unusable_dictionaries_are_refused_clearly(tmp_path, content, message):
    path = tmp_path / "dictionary.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(DictionaryError, match=message):
        Lexicon.load(path)


ORDINARY = (
    "cohesive achieve achieved echo chore chores heroic nacho ocher ochre quiz jazz boxes running ran run "
    "wolves children geese mice taught eaten ox oxen the and ad".split()
)
NOT_WORDS = "cohen venice thc nasa usa london mrs etc ok km mph cs ls lm kb tv dna jan".split()


def test_the_english_dictionary_has_ordinary_words_and_their_forms(english):
    missing = [word for word in ORDINARY if normalize_word(word) not in english]
    assert missing == []


def test_the_english_dictionary_has_no_proper_nouns_or_abbreviations(english):
    present = [word for word in NOT_WORDS if normalize_word(word) in english]
    assert present == []


def test_the_english_dictionary_is_real_sized(english):
    assert 100_000 < len(english) < 150_000
    assert all(word.isascii() and word.isalpha() and word.isupper() for word in english)


def test_the_built_in_dictionary_is_memory_mapped_in_a_fresh_process():
    code = "from ruzzle import Lexicon; l = Lexicon.builtin('en'); print(type(l.nodes.masks).__name__, len(l))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["memoryview", str(len(Lexicon.builtin("en")))]  # every word, mapped


def test_node_tables_of_dictionaries_with_other_suffixes_do_not_collide(tmp_path, tiny):
    tiny.save(tmp_path / "words.v1")
    Lexicon.from_words(["other"]).save(tmp_path / "words.v2")
    assert list(Lexicon.load(tmp_path / "words.v1")) == list(tiny)
    assert Lexicon.load(tmp_path / "words.v1")._nodes is not None


def test_words_with_prefix_lists_every_word_that_starts_with_it_sorted(tiny):
    assert tiny.words_with_prefix("EA") == ["EAST", "EAT", "EATS"]
    assert tiny.words_with_prefix("SE") == ["SEAT", "SET"]
    assert tiny.words_with_prefix("Q") == []


def test_shipped_data_asked_by_many_threads_at_once_is_loaded_once():
    loads = []

    @load_once
    def slow_list(name: str) -> frozenset[str]:
        loads.append(name)
        time.sleep(0.2)  # long enough that every thread asks while the first one loads
        return frozenset({name.upper()})

    barrier = threading.Barrier(20)
    answers: list[frozenset[str]] = []

    def ask(name: str) -> None:
        barrier.wait()
        answers.append(slow_list(name))

    threads = [threading.Thread(target=ask, args=("en" if i % 2 else "fr",)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(loads) == ["en", "fr"]
    assert sorted(next(iter(answer)) for answer in answers) == ["EN"] * 10 + ["FR"] * 10
