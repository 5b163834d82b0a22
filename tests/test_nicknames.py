"""Nicknames in a room: short, visible, no blocked word of any language as a whole word of the name (however
disguised), never a real given name refused, and friendly names in the room's language."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path

import pytest

from ruzzle.languages import LANGUAGES
from ruzzle.nicknames import (
    MAX_NICKNAME,
    NicknameRefused,
    check_nickname,
    classroom_words,
    compound_words,
    fold_letters,
    friendly_name,
    friendly_names,
    given_names,
    nickname_key,
    offensive_token,
    refused_words,
    words_of,
)

DATA = Path(__file__).parent / "data" / "nicknames"
NAMES_DATA = Path(__file__).parent.parent / "ruzzle" / "data" / "names"
BLOCKED = frozenset({"CRAP", "ASS", "CUL", "MERDA", "FUCK", "SHIT", "FUCKFACE", "PETER"})


def read_lines(name: str) -> list[str]:
    """The nicknames of a test data file (comment lines and blank lines left out, \\uXXXX read as the character)."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [
        re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), line.strip())
        for line in lines
        if line.strip() and not line.startswith("#")
    ]


GIVEN = read_lines("given-names.txt")
OFFENSIVE = read_lines("offensive.txt")


# --- the token rule, on a tiny hand-written blocklist ---------------------------------------------------------


@pytest.mark.parametrize(
    "name, token",
    [
        ("crap", "CRAP"),
        ("Big Ass", "ASS"),
        ("cul", "CUL"),
        ("Mérda", "MERDA"),
        ("Ada-Crap", "CRAP"),
        ("Anna2012 crap", "CRAP"),
        ("fuck_you", "FUCK"),
    ],
)
def test_a_blocked_word_counts_as_a_whole_word_of_the_name(name, token):
    assert offensive_token(name, BLOCKED) == token


@pytest.mark.parametrize(
    "name",
    [
        "Classe 3B",
        "Culture",
        "Passion",
        "Bassano",
        "Écureuil",
        "Scrapbook",
        "Shitake",
        "Merdano",
        "Assunta",
        "Cassandra",
    ],
)
def test_a_blocked_word_inside_a_longer_word_does_not_count(name):
    assert offensive_token(name, BLOCKED) is None


@pytest.mark.parametrize(
    "name, token",
    [
        ("f u c k", "FUCK"),
        ("F.U.C.K", "FUCK"),
        ("f_u_c_k", "FUCK"),
        ("s-h-i-t", "SHIT"),
        ("Big C R A P", "CRAP"),
    ],
)
def test_letters_spelled_out_are_read_as_one_word(name, token):
    assert offensive_token(name, BLOCKED) == token


@pytest.mark.parametrize(
    "name, token",
    [
        ("sh1t", "SHIT"),
        ("4ss", "ASS"),
        ("a$$", "ASS"),
        ("m3rd@", "MERDA"),
        ("cr4p", "CRAP"),
        ("$h!t", "SHIT"),
        ("fu|<", None),  # | reads I, < is a separator: FUI
    ],
)
def test_leetspeak_next_to_letters_is_read_as_letters(name, token):
    assert offensive_token(name, BLOCKED) == token


@pytest.mark.parametrize(
    "name, words",
    [
        ("Peter2012", ["PETER"]),
        ("Room 12", ["ROOM"]),
        ("Ana 455", ["ANA"]),
        ("Class 3B", ["CLASS", "EB"]),
        ("sh1t", ["SHIT"]),
        ("4ss", ["ASS"]),
        ("Zoë_7", ["ZOE"]),
    ],
)
def test_a_run_of_digits_away_from_letters_is_a_separator(name, words):
    assert words_of(fold_letters(name), leet=True, camel=True) == words


@pytest.mark.parametrize(
    "name, token",
    [("BigFuck", "FUCK"), ("bigCrap", "CRAP"), ("BIGShit", "SHIT"), ("FuCk", "FUCK"), ("xXcrapXx", "CRAP")],
)
def test_a_change_of_case_splits_words_and_alternating_case_does_not_hide_one(name, token):
    assert offensive_token(name, BLOCKED) == token


@pytest.mark.parametrize("name", ["BigFoot", "McDonald", "DeAndre", "xXPeterXx", "xX Anna Xx", "LaToya"])
def test_a_change_of_case_in_an_innocent_name_finds_nothing(name):
    assert offensive_token(name, BLOCKED - {"PETER"}) is None


@pytest.mark.parametrize(
    "name, token",
    [("fuuuuck", "FUCK"), ("shiiiit", "SHIT"), ("asssss", "ASS"), ("CRAAAP", "CRAP"), ("Fuuuckk", "FUCK")],
)
def test_a_held_letter_does_not_hide_a_word(name, token):
    assert offensive_token(name, BLOCKED) == token


@pytest.mark.parametrize("name", ["Bassa", "Annalisa", "Cullen", "Merdda"])
def test_a_double_letter_is_spelling_not_a_held_letter(name):
    assert offensive_token(name, BLOCKED) is None


@pytest.mark.parametrize(
    "name, token",
    [
        ("ѕhіt", "SHIT"),
        ("fυck", "FUCK"),
        ("сrар", "CRAP"),
        ("ＦＵＣＫ", "FUCK"),
        ("𝐜𝐫𝐚𝐩", "CRAP"),
        ("fu\u200bck", "FUCK"),
        ("sh\u00adit", "SHIT"),
        ("cr\ufe0fap", "CRAP"),
        ("as\u034fs", "ASS"),
    ],
)
def test_look_alikes_full_width_and_invisible_characters_are_folded(name, token):
    assert offensive_token(name, BLOCKED) == token


def test_a_compound_counts_only_as_a_reviewed_whole_word():
    assert offensive_token("fuckface", BLOCKED) == "FUCKFACE"
    assert offensive_token("fuckhat", BLOCKED) is None


def test_an_allowed_given_name_is_never_refused():
    assert offensive_token("Peter", BLOCKED) == "PETER"
    assert offensive_token("Peter", BLOCKED, allowed={"PETER"}) is None
    assert offensive_token("P.e.t.e.r crap", BLOCKED, allowed={"PETER"}) == "CRAP"


# --- the shipped lists ------------------------------------------------------------------------------------------


def test_every_language_blocklist_and_the_compounds_are_checked():
    assert {"FUCK", "BICOT", "NEGER", "JODER", "FOTTUTO"} <= classroom_words() <= refused_words()
    assert {"FUCKFACE", "TERINGHOER", "HIJODEPUTA"} <= compound_words() <= refused_words()


def test_the_compounds_are_reviewed_words_the_blocklists_miss():
    table = tomllib.loads((NAMES_DATA / "compounds.toml").read_text(encoding="utf-8"))
    assert set(table) <= set(LANGUAGES)
    for code, words in table.items():
        for word, reason in words.items():
            assert re.fullmatch(r"[A-Z]+", word) and reason, (code, word)
            assert word not in classroom_words(), f"{word} is already blocked; take it off compounds.toml"


def test_the_given_names_hold_no_refused_collision():
    collisions = tomllib.loads((NAMES_DATA / "collisions.toml").read_text(encoding="utf-8"))
    assert given_names() & refused_words() == set(collisions["allow"])
    assert not given_names() & set(collisions["refuse"])


def test_most_test_names_are_in_the_shipped_dataset():
    words = [word for name in GIVEN for word in words_of(fold_letters(name), leet=False, camel=False)]
    known = [word for word in words if word in given_names()]
    assert len(known) >= 0.8 * len(words)


# --- check_nickname ---------------------------------------------------------------------------------------------


def test_the_test_lists_are_large_enough():
    assert len(set(GIVEN)) >= 400 and len(set(OFFENSIVE)) >= 150


@pytest.mark.parametrize("name", GIVEN)
def test_a_real_given_name_is_accepted(name):
    assert check_nickname(name) == name


@pytest.mark.parametrize("name", OFFENSIVE)
def test_an_offensive_nickname_is_refused(name):
    assert offensive_token(name, refused_words(), given_names()) is not None
    with pytest.raises(NicknameRefused):
        check_nickname(name)


@pytest.mark.parametrize(
    "typed, kept",
    [
        ("  Ada  ", "Ada"),
        ("Ada   Lovelace", "Ada Lovelace"),
        ("a" * MAX_NICKNAME, "a" * MAX_NICKNAME),
        ("Peter2012", "Peter2012"),
        ("Class 3B", "Class 3B"),
    ],
)
def test_a_nickname_is_trimmed_and_kept(typed, kept):
    assert check_nickname(typed) == kept


@pytest.mark.parametrize(
    "typed, message",
    [
        ("", "type a nickname"),
        ("  ", "type a nickname"),
        ("\u200b", "that can be seen"),
        ("\u200b\u200d\ufeff", "that can be seen"),
        ("\u3164", "that can be seen"),
        ("\u3164 \u2800", "that can be seen"),
        ("\u00ad\u2060", "that can be seen"),
        ("\ufe0f", "that can be seen"),
        ("x" * (MAX_NICKNAME + 1), "at most 20 characters"),
        ("a\u200bb", "letters, digits, spaces"),
        ("Fottuto", "not allowed in class"),
    ],
)
def test_a_bad_nickname_is_refused_with_its_reason(typed, message):
    with pytest.raises(NicknameRefused, match=message):
        check_nickname(typed)


def test_two_names_are_the_same_whatever_their_case_and_accents():
    assert nickname_key("ZOË") == nickname_key("zoe") != nickname_key("zoey")


# --- friendly names ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_friendly_name_is_clean_short_and_distinct(language):
    names = friendly_names(language)
    assert len(names) >= 300 and len({nickname_key(name) for name in names}) == len(names)
    for name in names:
        assert len(name) <= MAX_NICKNAME and check_nickname(name) == name, name


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_friendly_name_is_in_the_language_and_not_taken(language):
    taken = [friendly_name(language=language) for _ in range(30)]
    name = friendly_name(taken, language=language)
    assert name in friendly_names(language) and nickname_key(name) not in {nickname_key(t) for t in taken}


def test_when_every_pair_is_taken_an_animal_gets_a_number():
    name = friendly_name(friendly_names("it"), language="it")
    assert re.fullmatch(r"\w+ \d+", name) and check_nickname(name) == name


@pytest.mark.parametrize(
    "language, name",
    [
        ("it", "Lontra Coraggiosa"),
        ("it", "Gufo Coraggioso"),
        ("de", "Mutiger Otter"),
        ("de", "Kluge Eule"),
        ("de", "Flinkes Reh"),
        ("fr", "Loutre Courageuse"),
        ("fr", "Hibou Courageux"),
        ("es", "Nutria Curiosa"),
        ("es", "Búho Sabio"),
        ("pt", "Coruja Sábia"),
        ("pt", "Texugo Corajoso"),
        ("nl", "Dappere Otter"),
        ("en", "Brave Otter"),
    ],
)
def test_the_adjective_agrees_with_the_animal(language, name):
    assert name in friendly_names(language)


@pytest.mark.parametrize(
    "language, wrong",
    [
        ("it", "Lontra Coraggioso"),
        ("de", "Mutige Otter"),
        ("de", "Kluger Eule"),
        ("fr", "Loutre Courageux"),
        ("es", "Búho Sabia"),
        ("pt", "Coruja Sábio"),
    ],
)
def test_an_adjective_of_the_other_gender_is_never_used(language, wrong):
    assert wrong not in friendly_names(language)


def test_friendly_names_are_written_in_nfc():
    assert all(unicodedata.is_normalized("NFC", name) for code in LANGUAGES for name in friendly_names(code))
