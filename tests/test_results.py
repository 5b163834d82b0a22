"""What a class sees after a board (ruzzle/results.py), the one home that rooms, live rooms and homework ask: the order
of a ranking, a board's class view, the rare finds, and the teacher's table of every pupil on the class list."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ruzzle.results import RARE_FINDERS, class_view, in_order, is_rare, roll_call, standing


@dataclass(frozen=True)
class Word:
    word: str
    score: int


SOLUTION = [Word("ZEBRA", 40), Word("CAT", 5), Word("DOG", 9), Word("EMU", 9), Word("ANT", 3), Word("OWL", 7)]


# --- the order of a ranking ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, second",
    [
        ((30, 50.0, 1.0, 2), (20, 10.0, 0.0, 1)),  # the better score first, whenever it came
        ((20, 10.0, 5.0, 9), (20, 11.0, 0.0, 1)),  # a tie: who reached the score first
        ((20, 10.0, 0.0, 9), (20, None, 0.0, 1)),  # a score reached at a known moment before one never reached
        ((20, 10.0, 1.0, 9), (20, 10.0, 2.0, 1)),  # then who joined first
        ((20, 10.0, 1.0, 1), (20, 10.0, 1.0, 2)),  # then the earlier seat
    ],
)
def test_a_tie_goes_to_who_reached_the_score_first_then_joined_first_then_the_earlier_seat(first, second):
    assert [line for _, line in in_order([second, first], lambda line: standing(*line))] == [first, second]


@given(st.lists(st.tuples(st.integers(0, 50), st.none() | st.floats(0, 100), st.integers(0, 999)), max_size=12))
def test_places_run_from_one_never_shared_and_scores_never_rise(lines):
    ordered = in_order(lines, lambda line: standing(line[0], line[1], seat=line[2]))
    assert [place for place, _ in ordered] == list(range(1, len(lines) + 1))
    scores = [line[0] for _, line in ordered]
    assert scores == sorted(scores, reverse=True)


def test_a_score_never_reached_sorts_after_every_moment():
    assert standing(10, None)[1] == math.inf


# --- rare finds and a board's class view --------------------------------------------------------------------------


@pytest.mark.parametrize("finders, rare", [(0, False), (1, True), (RARE_FINDERS, True), (RARE_FINDERS + 1, False)])
def test_a_rare_find_is_a_word_few_players_found_and_nobodys_word_is_no_find(finders, rare):
    assert is_rare(finders) is rare


def test_the_class_view_lists_the_most_found_first_then_the_best_then_the_alphabet():
    view = class_view(SOLUTION, {"CAT": 3, "DOG": 1, "EMU": 1, "ANT": 1, "ZEBRA": 3, "NOT-ON-THE-BOARD": 4})
    assert [(word.word, count) for word, count in view.found_by] == [
        ("ZEBRA", 3),
        ("CAT", 3),
        ("DOG", 1),
        ("EMU", 1),
        ("ANT", 1),
    ]
    assert [word.word for word in view.nobody] == ["OWL"]  # in the solution's order
    assert view.total == len(SOLUTION)
    assert view.best.word == "ZEBRA"
    assert [word.word for word, _ in view.found_by_many()] == ["ZEBRA", "CAT"]


def test_the_rare_finds_are_best_first_ties_in_the_alphabet():
    view = class_view(SOLUTION, {"CAT": 2, "EMU": 1, "DOG": 1, "ANT": 1})
    assert [(word.word, count) for word, count in view.rare()] == [("DOG", 1), ("EMU", 1), ("ANT", 1)]


def test_the_best_find_of_equal_scores_is_the_shorter_word():
    view = class_view([Word("ABCDE", 9), Word("ABC", 9)], {"ABCDE": 2, "ABC": 1})
    assert view.best.word == "ABC"


def test_a_board_nobody_played_has_no_best_and_every_word_is_nobodys():
    view = class_view(SOLUTION, {})
    assert (view.best, view.found_by, len(view.nobody)) == (None, (), len(SOLUTION))


# --- the teacher's table ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    name: str
    pupil: int | None


def test_every_pupil_of_the_list_has_a_row_in_the_lists_order_and_those_who_never_came_have_no_seat():
    listed = [(1, "Zoë"), (2, "Ana"), (3, "Max")]
    seats = [Seat("Max", 3), Seat("Zoë", 1)]
    assert roll_call(listed, seats, lambda seat: seat.pupil, lambda pupil: pupil[0]) == [
        ((1, "Zoë"), Seat("Zoë", 1)),
        ((2, "Ana"), None),
        ((3, "Max"), Seat("Max", 3)),
    ]


def test_seats_of_nobody_on_the_list_follow_in_their_own_order():
    seats = [Seat("Bo", None), Seat("Zoë", 1), Seat("Al", None)]
    rows = roll_call([(1, "Zoë")], seats, lambda seat: seat.pupil, lambda pupil: pupil[0])
    assert rows == [((1, "Zoë"), Seat("Zoë", 1)), (None, Seat("Bo", None)), (None, Seat("Al", None))]


def test_without_a_class_list_the_rows_are_the_seats():
    seats = [Seat("Bo", None), Seat("Al", None)]
    assert roll_call([], seats, lambda seat: seat.pupil, lambda pupil: pupil) == [(None, seat) for seat in seats]
