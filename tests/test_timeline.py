"""A round's timeline: pauses, time added, an early end, a pupil's extra time, and the rule for taking a word."""

from __future__ import annotations

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from ruzzle.timeline import Phase, Timeline, TimelineError


def test_a_round_is_waiting_then_counts_down_then_plays_then_is_over():
    timeline = Timeline(None, 60).start(103)
    assert Timeline(None, 60).phase(100) is Phase.WAITING
    assert [timeline.phase(t) for t in (100, 103, 162.9, 163)] == [
        Phase.COUNTDOWN,
        Phase.PLAYING,
        Phase.PLAYING,
        Phase.OVER,
    ]


def test_a_pause_stops_the_clock_and_resuming_moves_the_deadline_by_the_pause():
    timeline = Timeline(100, 60).pause(130)
    assert timeline.phase(500) is Phase.PAUSED and timeline.seconds_left(500) == 30 and timeline.ends_at(500) is None
    resumed = timeline.resume(145)
    assert resumed.deadline == 175 and resumed.seconds_left(145) == 30 and resumed.phase(174.9) is Phase.PLAYING


def test_a_paused_round_takes_no_word_even_within_the_grace():
    timeline = Timeline(100, 60).pause(130)
    assert Timeline(100, 60).takes_word(130) and not timeline.takes_word(130, grace=2)


@pytest.mark.parametrize("now, taken", [(99.9, False), (100, True), (161.9, True), (162, False)])
def test_words_count_from_the_start_to_the_deadline_plus_the_grace(now, taken):
    assert Timeline(100, 60).takes_word(now, grace=2) is taken


def test_time_taken_away_can_end_the_round_at_once():
    timeline = Timeline(100, 60).add_time(-60, 150)
    assert timeline.deadline == 100 and timeline.phase(150) is Phase.OVER and timeline.seconds_left(150) == 0


def test_an_early_end_ends_it_for_words_and_the_clock():
    timeline = Timeline(100, 60).end(120)
    assert timeline.phase(121) is Phase.OVER and not timeline.takes_word(120.5, grace=2)
    assert timeline.ends_at(121) == 120 and timeline.end(130) == timeline


def test_a_pupils_extra_time_plays_on_after_the_class():
    class_round = Timeline(100, 60)
    pupil = class_round.with_extra(60)
    assert class_round.phase(170) is Phase.OVER and pupil.phase(170) is Phase.PLAYING and pupil.deadline == 220


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.pause(300),
        lambda t: t.resume(120),
        lambda t: t.add_time(30, 300),
        lambda t: Timeline(100, 0).pause(120),
    ],
)
def test_a_change_the_round_cannot_take_now_is_refused(change):
    with pytest.raises(TimelineError):
        change(Timeline(100, 60))


def test_an_untimed_round_has_no_clock_until_it_ends():
    timeline = Timeline(100, 0)
    assert timeline.seconds_left(10**9) is None and timeline.takes_word(10**9) and timeline.end(5).seconds_left(6) == 0


# --- any order of changes -------------------------------------------------------------------------------------

CHANGES = st.lists(
    st.tuples(
        st.sampled_from(["pause", "resume", "add", "wait", "end"]),
        st.floats(min_value=0, max_value=120, allow_nan=False),
        st.integers(min_value=-60, max_value=600),
    ),
    max_size=25,
)


def play(changes, timeline=None):
    """Apply changes at increasing moments; yield (moment, timeline before, change, timeline after)."""
    timeline = timeline or Timeline(1000.0, 90)
    moment = 1000.0
    for name, wait, seconds in changes:
        moment += wait
        before = timeline
        try:
            if name == "pause":
                timeline = timeline.pause(moment)
            elif name == "resume":
                timeline = timeline.resume(moment)
            elif name == "add":
                timeline = timeline.add_time(seconds, moment)
            elif name == "end":
                timeline = timeline.end(moment)
        except TimelineError:
            pass
        yield moment, before, (name, seconds), timeline


@settings(max_examples=examples(300))
@given(CHANGES)
def test_time_left_is_never_negative_and_never_grows_while_paused(changes):
    for moment, _before, _change, timeline in play(changes):
        left = timeline.seconds_left(moment)
        assert left >= 0
        if timeline.phase(moment) is Phase.PAUSED:
            assert timeline.seconds_left(moment + 1000) == left  # frozen, however long the pause lasts
        if timeline.phase(moment) is Phase.OVER:
            assert left == 0 and not timeline.takes_word(moment, grace=0)


@settings(max_examples=examples(300))
@given(CHANGES)
def test_the_deadline_moves_exactly_by_the_time_added(changes):
    for moment, before, (name, seconds), after in play(changes):
        if name == "add" and after is not before:
            assert after.deadline == pytest.approx(before.deadline + seconds, abs=1e-9)
        if name == "resume" and after is not before:
            # the same sum in another order: floats may differ in the last bit (1114.8828253701731 vs ...733)
            assert after.deadline == pytest.approx(before.deadline + (moment - before.paused_at), abs=1e-9)
        if name in ("pause", "end", "wait"):
            assert after.deadline == before.deadline


@settings(max_examples=examples(300))
@given(CHANGES)
def test_a_word_is_taken_exactly_while_the_round_is_playing(changes):
    for moment, _before, _change, timeline in play(changes):
        assert timeline.takes_word(moment) == (timeline.phase(moment) is Phase.PLAYING)


@settings(max_examples=examples(300))
@given(CHANGES, st.sampled_from([Timeline(None, 90), Timeline(1003.0, 90), Timeline(1000.0, 90), Timeline(1000.0, 0)]))
def test_a_reading_answers_as_each_question_asked_alone(changes, start):
    """A page reads the clock once (Timeline.read); what it reads is what each question asked alone would answer."""
    for moment, _before, _change, timeline in play(changes, start):
        for at in (moment, moment + 0.5):
            reading = timeline.read(at)
            assert reading.phase is timeline.phase(at) and reading.over == timeline.is_over(at)
            assert reading.seconds_left == timeline.seconds_left(at) and reading.ends_at == timeline.ends_at(at)
            assert reading.starts_in == (max(0.0, timeline.started - at) if timeline.started is not None else 0.0)
            left = reading.seconds_left
            # whole seconds, rounded up: the clock shows 0:01 until the last (milli)second
            assert (
                left is None if reading.remaining is None else reading.remaining - 1 < left <= reading.remaining + 1e-3
            )
