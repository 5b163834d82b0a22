"""Nicknames in a room: short, visible, and nothing of any language's classroom blocklist in them, even inside."""

from __future__ import annotations

import pytest

from ruzzle.nicknames import (MAX_NICKNAME, NicknameRefused, check_nickname, classroom_words, friendly_name,
                              nickname_key, offensive_part)

BLOCKED = frozenset({"CRAP", "ASS", "CUL", "MERDA"})


@pytest.mark.parametrize("name, hidden", [
    ("crap", "CRAP"), ("xXcrapXx", "CRAP"), ("C.R.A.P", "CRAP"), ("cr4p", "CRAP"), ("Mérda", "MERDA"),
    ("big ass", "ASS"), ("cul", "CUL"),
])
def test_a_blocked_word_is_found_inside_a_name(name, hidden):
    assert offensive_part(name, BLOCKED) == hidden


@pytest.mark.parametrize("name", ["Classe 3B", "Culture", "Passion", "Bassano", "Écureuil", "Anna"])
def test_a_short_blocked_word_counts_only_as_a_whole_part_of_the_name(name):
    assert offensive_part(name, BLOCKED) is None


def test_every_language_blocklist_is_checked():
    assert {"FUCK", "BICOT", "NEGER", "JODER", "FOTTUTO"} <= classroom_words()


@pytest.mark.parametrize("typed, kept", [("  Ada  ", "Ada"), ("Ada   Lovelace", "Ada Lovelace"), ("x" * MAX_NICKNAME, "x" * MAX_NICKNAME)])
def test_a_nickname_is_trimmed_and_kept(typed, kept):
    assert check_nickname(typed) == kept


@pytest.mark.parametrize("typed", ["", "  ", "x" * (MAX_NICKNAME + 1), "a\u200bb", "sh1t", "Fottuto"])
def test_a_bad_nickname_is_refused(typed):
    with pytest.raises(NicknameRefused):
        check_nickname(typed)


def test_two_names_are_the_same_whatever_their_case_and_accents():
    assert nickname_key("ZOË") == nickname_key("zoe") != nickname_key("zoey")


def test_a_friendly_name_is_clean_short_and_not_taken():
    taken = [friendly_name() for _ in range(30)]
    name = friendly_name(taken)
    assert nickname_key(name) not in {nickname_key(t) for t in taken}
    assert check_nickname(name) == name and len(name) <= MAX_NICKNAME
