"""A room's rules (ruzzle/room.py): the shape of its codes, how much of its ranking a page names, the stage of a
round, the ranking over the rounds that count, and "better than N %", the one rule a class room and a live room now
share."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

import store.rooms
from ruzzle.generator import SEED_ALPHABET
from ruzzle.room import (
    CODE_ALPHABET,
    CODE_LENGTH,
    PODIUM,
    REJOIN_CODE_LENGTH,
    TOP_SHOWN,
    is_room_code,
    percentile,
    rank,
    ranking_shown,
    stage_of,
    words_to_learn,
)


def test_room_codes_are_read_aloud_like_seeds_without_characters_to_mix_up():
    assert CODE_ALPHABET == SEED_ALPHABET
    assert not set("01OIL") & set(CODE_ALPHABET)


def test_the_stores_copy_of_the_code_rules_is_the_games():
    """The store draws codes (retrying a taken one) but imports no game code: its copy must not drift."""
    assert (store.rooms.CODE_ALPHABET, store.rooms.CODE_LENGTH, store.rooms.REJOIN_CODE_LENGTH) == (
        CODE_ALPHABET,
        CODE_LENGTH,
        REJOIN_CODE_LENGTH,
    )
    assert all(is_room_code(store.rooms.new_room_code()) for _ in range(50))
    assert all(
        len(code) == REJOIN_CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
        for code in (store.rooms.new_rejoin_code() for _ in range(50))
    )


@pytest.mark.parametrize(
    "text, shaped",
    [
        ("K7M2QX", True),
        ("234567", True),
        ("K7M2Q", False),
        ("K7M2QXX", False),
        ("K7M2Q0", False),
        ("K7M2QI", False),
        ("k7m2qx", False),
        ("", False),
        ("LIVEEN", False),
    ],
)
def test_a_room_code_has_six_characters_of_the_alphabet(text, shaped):
    assert is_room_code(text) is shaped


@pytest.mark.parametrize(
    "names, top, shown",
    [
        ("all", TOP_SHOWN, TOP_SHOWN),
        ("none", TOP_SHOWN, TOP_SHOWN),
        ("top3", TOP_SHOWN, PODIUM),
        ("all", 40, 40),
        ("top3", 40, PODIUM),
        ("top3", 2, 2),
    ],
)
def test_a_room_that_names_its_top_3_names_at_most_the_podium(names, top, shown):
    assert ranking_shown(names, top) == shown


def test_a_ranking_names_ten_lines_by_default():
    assert ranking_shown("all") == TOP_SHOWN == 10


@dataclass(frozen=True)
class Row:
    player_id: int
    nickname: str
    joined: float
    number: int | None
    score: int
    found: int
    scored_at: float | None


def test_a_room_of_single_rounds_counts_every_round_and_a_match_its_own():
    assert stage_of("single", 4, [1, 2, 3, 4]).counted == (1, 2, 3, 4)
    assert not stage_of("single", 1, [1]).totals and stage_of("single", 2, [1, 2]).totals
    fifth = stage_of("match", 5, [1, 2, 3, 4, 5])
    assert fifth.counted == (4, 5) and fifth.match.match == 2 and not fifth.match_ends
    assert stage_of("match", 6, range(1, 7)).match_ends


def test_the_ranking_adds_the_counted_rounds_and_breaks_ties_by_who_reached_the_score_first():
    stage = stage_of("match", 5, range(1, 6))
    rows = [
        Row(1, "Ada", 0.0, 3, 99, 9, 5.0),  # round 3 belongs to the first match: not counted in the second
        Row(1, "Ada", 0.0, 4, 10, 2, 40.0),
        Row(1, "Ada", 0.0, 5, 5, 1, 50.0),
        Row(2, "Bruno", 1.0, 4, 15, 3, 45.0),
        Row(3, "Chiara", 2.0, None, 0, 0, None),
    ]  # joined, played nothing
    table = rank(stage, rows)
    assert [(line.nickname, line.score, line.round_scores) for line in table.lines] == [
        ("Bruno", 15, (15, 0)),
        ("Ada", 15, (10, 5)),
        ("Chiara", 0, (0, 0)),
    ]  # Bruno reached 15 at 45 s, Ada at 50
    assert [line.rank for line in table.lines] == [1, 2, 3] and table.of(3).words == 0


def test_a_tie_beats_nobody_in_a_class_room_as_in_a_live_room():
    """The class's results said "better than" by rank (a tie reached first beat the other), live rooms by strictly
    lower scores: one rule now, the ranking's percentile is the live rule's."""
    stage = stage_of("single", 1, [1])
    table = rank(
        stage,
        [Row(1, "Ada", 0.0, 1, 20, 2, 10.0), Row(2, "Bruno", 1.0, 1, 20, 2, 20.0), Row(3, "Chiara", 2.0, 1, 5, 1, 5.0)],
    )
    assert [line.nickname for line in table.lines] == ["Ada", "Bruno", "Chiara"]
    assert table.percentile(1) == table.percentile(2) == 50  # each beats Chiara only, not the other
    assert table.percentile(3) == 0 and table.percentile(99) is None
    assert rank(stage, [Row(1, "Ada", 0.0, 1, 20, 2, 10.0)]).percentile(1) is None  # alone: no sentence


@given(st.integers(0, 500), st.lists(st.integers(0, 500), max_size=40))
def test_the_percentile_is_never_more_than_the_share_strictly_below(mine, others):
    share = percentile(mine, others)
    if not others:
        assert share is None
    else:
        below = sum(score < mine for score in others)
        assert share * len(others) <= 100 * below < (share + 1) * len(others)


# --- the words to learn ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    word: str
    score: int


def test_the_words_to_learn_are_the_teachers_words_then_the_rare_finds():
    solution = [Word("ZEBRA", 40), Word("CAT", 5), Word("DOG", 9), Word("EMU", 9), Word("ANT", 3), Word("OWL", 7)]
    counts = {"CAT": 3, "DOG": 1, "EMU": 1, "ANT": 1, "ZEBRA": 2}
    chosen = words_to_learn(solution, counts, targets=("CAT", "OWL", "NOPE"))
    # the teacher's words first, the one nobody found before the other (NOPE is not on the board)
    assert [(w.word, w.finders, w.target) for w in chosen[:2]] == [("OWL", 0, True), ("CAT", 3, True)]
    # then every word one player alone found, best first, ties by the alphabet; ZEBRA (two players) is no rare find
    assert [(w.word, w.score, w.target) for w in chosen[2:]] == [
        ("DOG", 9, False),
        ("EMU", 9, False),
        ("ANT", 3, False),
    ]
    assert words_to_learn(solution, {}, ()) == []
