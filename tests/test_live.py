"""The live rooms' rules (ruzzle/live.py): slots of the wall clock, the live codes, the slot's seed, the percentile,
and the UTC hours and days the rankings add up."""

from __future__ import annotations

import datetime

import pytest

from ruzzle.generator import SEED_ALPHABET, SEED_LENGTH
from ruzzle.live import Schedule, day_start, hour_start, language_of, live_code, live_seed
from ruzzle.room import CODE_LENGTH, is_room_code, percentile


def utc(text: str) -> float:
    return datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC).timestamp()


@pytest.mark.parametrize(
    "moment, slot",
    [
        (0, 0),
        (179.999, 0),
        (180, 1),
        (utc("2026-11-27 14:03:00"), int(utc("2026-11-27 14:03:00")) // 180),
    ],
)
def test_slot_n_starts_n_times_three_minutes_after_the_epoch(moment, slot):
    plan = Schedule()
    assert plan.slot_at(moment) == slot
    assert plan.starts(slot) <= moment < plan.starts(slot + 1)


def test_a_slot_has_its_play_then_its_results():
    plan = Schedule(120, 60)
    assert (plan.starts(10), plan.play_ends(10), plan.starts(11)) == (1800, 1920, 1980)
    assert plan.next_starts(1800) == plan.next_starts(1979.5) == 1980


def test_short_slots_for_tests_follow_the_same_rule():
    plan = Schedule(20, 10)
    assert plan.slot_seconds == 30 and plan.slot_at(59) == 1 and plan.starts(2) == 60


@pytest.mark.parametrize("play, results", [(0, 60), (120, 0)])
def test_a_slot_needs_play_and_results(play, results):
    with pytest.raises(ValueError):
        Schedule(play, results)


def test_a_live_code_names_its_language_and_no_class_room_can_draw_it():
    assert live_code("en") == "LIVEEN" and language_of("LIVEEN") == "en" and language_of("LIVEPT") == "pt"
    assert len(live_code("en")) == CODE_LENGTH and not is_room_code(live_code("en"))
    assert language_of("K7M2QX") is None and language_of("LIVE") is None and language_of("LIVE12") is None


def test_a_slots_seed_is_the_same_everywhere_the_secret_is_and_differs_by_slot_language_and_secret():
    seed = live_seed(b"site secret", "en", 9_944_444)
    assert seed == live_seed(b"site secret", "en", 9_944_444)
    assert len(seed) == SEED_LENGTH and set(seed) <= set(SEED_ALPHABET)
    others = {
        live_seed(b"site secret", "en", 9_944_445),
        live_seed(b"site secret", "it", 9_944_444),
        live_seed(b"another secret", "en", 9_944_444),
    }
    assert seed not in others and len(others) == 3


@pytest.mark.parametrize(
    "mine, others, share",
    [
        (50, [10, 20, 30, 40], 100),  # better than everyone else
        (10, [10, 20, 30, 40], 0),  # a tie is not "better"
        (30, [10, 30, 30, 40], 25),  # one of four strictly lower
        (30, [10, 20, 40], 66),  # two of three: 66.7 rounded down, never more than the truth
        (7, [3], 100),
    ],
)
def test_the_percentile_is_the_share_of_the_other_players_strictly_below(mine, others, share):
    assert percentile(mine, others) == share


def test_one_player_alone_has_no_percentile():
    assert percentile(87, []) is None


def test_the_rankings_add_up_utc_hours_and_days():
    moment = utc("2026-11-27 14:03:30")
    assert hour_start(moment) == utc("2026-11-27 14:00:00")
    assert day_start(moment) == utc("2026-11-27 00:00:00")
