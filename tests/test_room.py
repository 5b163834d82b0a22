"""A room's rules (ruzzle/room.py): the shape of its codes, and how much of its ranking a page names."""

import pytest

import store.rooms
from ruzzle.generator import SEED_ALPHABET
from ruzzle.room import (CODE_ALPHABET, CODE_LENGTH, PODIUM, REJOIN_CODE_LENGTH, TOP_SHOWN, is_room_code,
                         ranking_shown)


def test_room_codes_are_read_aloud_like_seeds_without_characters_to_mix_up():
    assert CODE_ALPHABET == SEED_ALPHABET
    assert not set("01OIL") & set(CODE_ALPHABET)


def test_the_stores_copy_of_the_code_rules_is_the_games():
    """The store draws codes (retrying a taken one) but imports no game code: its copy must not drift."""
    assert (store.rooms.CODE_ALPHABET, store.rooms.CODE_LENGTH, store.rooms.REJOIN_CODE_LENGTH) == (
        CODE_ALPHABET, CODE_LENGTH, REJOIN_CODE_LENGTH)
    assert all(is_room_code(store.rooms.new_room_code()) for _ in range(50))
    assert all(len(code) == REJOIN_CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
               for code in (store.rooms.new_rejoin_code() for _ in range(50)))


@pytest.mark.parametrize("text, shaped", [
    ("K7M2QX", True), ("234567", True), ("K7M2Q", False), ("K7M2QXX", False), ("K7M2Q0", False), ("K7M2QI", False),
    ("k7m2qx", False), ("", False), ("LIVEEN", False),
])
def test_a_room_code_has_six_characters_of_the_alphabet(text, shaped):
    assert is_room_code(text) is shaped


@pytest.mark.parametrize("names, top, shown", [
    ("all", TOP_SHOWN, TOP_SHOWN), ("none", TOP_SHOWN, TOP_SHOWN), ("top3", TOP_SHOWN, PODIUM),
    ("all", 40, 40), ("top3", 40, PODIUM), ("top3", 2, 2),
])
def test_a_room_that_names_its_top_3_names_at_most_the_podium(names, top, shown):
    assert ranking_shown(names, top) == shown


def test_a_ranking_names_ten_lines_by_default():
    assert ranking_shown("all") == TOP_SHOWN == 10
