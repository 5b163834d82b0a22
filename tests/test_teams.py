"""Teams and the whole class against the board: placing pupils, a word once per team, the class's words together."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from ruzzle.teams import (
    MAX_TEAMS,
    MIN_TEAMS,
    TEAM_STYLES,
    Find,
    TeamsRefused,
    check_mode,
    class_progress,
    contrast,
    match_team_totals,
    missed_first,
    new_to_team,
    place_newcomer,
    team_ink,
    team_ranking,
    team_totals,
)

WORDS = {"CAT": 3, "COAT": 6, "TACO": 6, "ACT": 3, "OAT": 2}


def finds_strategy(teams: int = 3):
    return st.lists(
        st.builds(
            Find,
            player=st.integers(1, 9),
            word=st.sampled_from(sorted(WORDS)),
            points=st.integers(1, 20),
            at=st.floats(0, 100, allow_nan=False),
            team=st.integers(1, teams),
        ),
        max_size=30,
    )


@settings(max_examples=examples(200))
@given(
    st.lists(st.integers(MIN_TEAMS, MAX_TEAMS), min_size=1, max_size=1).flatmap(
        lambda teams: st.tuples(st.just(teams[0]), st.lists(st.integers(0, teams[0] - 1), max_size=40))
    )
)
def test_pupils_joining_keep_the_teams_balanced_whoever_the_host_moves_between(plan):
    """Each newcomer goes to a smallest team, so however many join, no team has two more than another (counting from
    balanced teams: a host's move unbalances them, and the next newcomers go where pupils are missing)."""
    teams, moves_from = plan
    sizes = [0] * teams
    for step, source in enumerate(moves_from):
        sizes[place_newcomer(sizes) - 1] += 1
        assert max(sizes) - min(sizes) <= 1
        if step % 5 == 4 and sizes[source] > 0:  # the host moves a pupil away; the next newcomer fills the gap
            sizes[source] -= 1
            gap = sizes.index(min(sizes))
            assert place_newcomer(sizes) == gap + 1


@settings(max_examples=examples(300))
@given(finds_strategy())
def test_a_word_counts_once_per_team_with_the_first_teammates_points(finds):
    ranking = team_ranking(finds, 3, {1: 2, 2: 2, 3: 2})
    for _place, line in ranking:
        mine = [find for find in finds if find.team == line.team]
        first_of_each = {}
        for find in sorted(mine, key=lambda find: (find.at, find.player)):
            first_of_each.setdefault(find.word, find)
        assert line.words == len({find.word for find in mine})
        assert line.score == sum(find.points for find in first_of_each.values())


@settings(max_examples=examples(300))
@given(finds_strategy(), st.integers(1, 9), st.sampled_from(sorted(WORDS)), st.integers(1, 3))
def test_a_teammate_finding_a_word_again_adds_nothing_and_another_team_keeps_its_own(finds, player, word, team):
    later = max((find.at for find in finds), default=0) + 1
    before = {line.team: line.score for _place, line in team_ranking(finds, 3, {})}
    again = finds + [Find(player, word, 99, later, team)]
    after = {line.team: line.score for _place, line in team_ranking(again, 3, {})}
    already = any(find.word == word and find.team == team for find in finds)
    assert after[team] == before[team] + (0 if already else 99)
    assert all(after[other] == before[other] for other in after if other != team)
    assert ((player, word) in new_to_team(again)) == (not already or (player, word) in new_to_team(finds))


def test_the_teams_rank_by_points_then_by_who_reached_them_first_and_a_team_nobody_joined_is_last_at_0():
    finds = [Find(1, "COAT", 6, 10.0, 1), Find(2, "TACO", 6, 5.0, 2), Find(3, "CAT", 3, 1.0, 3)]
    ranking = team_ranking(finds, 4, {1: 1, 2: 1, 3: 1})
    assert [(place, line.team, line.score) for place, line in ranking] == [(1, 2, 6), (2, 1, 6), (3, 3, 3), (4, 4, 0)]
    assert ranking[-1][1].players == 0


@settings(max_examples=examples(200))
@given(finds_strategy())
def test_the_class_counts_each_word_of_the_board_once_whoever_found_it(finds):
    progress = class_progress(finds + [Find(1, "NOTONBOARD", 5, 1.0)], WORDS)
    found = {find.word for find in finds}
    assert (progress.found, progress.total) == (len(found), len(WORDS))
    assert progress.score == sum(WORDS[word] for word in found)


@settings(max_examples=examples(100))
@given(st.lists(finds_strategy(), max_size=4))
def test_a_matchs_team_totals_add_up_its_rounds(rounds):
    rankings = [team_ranking(finds, 3, {}) for finds in rounds]
    totals = match_team_totals(rankings)
    for team in (1, 2, 3):
        assert totals.get(team, 0) == sum(
            line.score for ranking in rankings for _p, line in ranking if line.team == team
        )


@pytest.mark.parametrize(
    ("mode", "teams", "expected"),
    [("solo", None, None), ("class", 5, None), ("teams", None, 2), ("teams", 2, 2), ("teams", 8, 8)],
)
def test_a_room_is_solo_in_teams_of_2_to_8_or_a_class(mode, teams, expected):
    assert check_mode(mode, teams) == expected


@pytest.mark.parametrize(("mode", "teams"), [("teams", 1), ("teams", 9), ("duel", None), ("", None)])
def test_other_ways_to_play_are_refused_with_the_reason(mode, teams):
    with pytest.raises(TeamsRefused):
        check_mode(mode, teams)


def test_every_team_has_its_own_colour_shape_and_name():
    assert len(TEAM_STYLES) == MAX_TEAMS
    for field in ("name", "colour", "shape"):
        assert len({getattr(style, field) for style in TEAM_STYLES}) == MAX_TEAMS


# --- issue 36's web: totals over rounds, the class's walk, the ink on a team's colour ---------------------------------


def test_team_totals_add_each_round_s_first_finds_and_rank_the_teams():
    rounds = [
        [Find(1, "CAT", 3, 1.0, 1), Find(2, "CAT", 3, 2.0, 1), Find(3, "COAT", 6, 1.5, 2)],
        [Find(1, "TACO", 6, 1.0, 1), Find(3, "TACO", 6, 0.5, 2), Find(4, "OAT", 2, 3.0, 2)],
    ]
    ranked = team_totals(rounds, 3, {1: 2, 2: 2})
    assert [(place, line.team, line.score, line.words, line.players) for place, line in ranked] == [
        (1, 2, 14, 3, 2),
        (2, 1, 9, 2, 2),
        (3, 3, 0, 0, 0),
    ]


@dataclass(frozen=True)
class Word:
    word: str


def test_the_class_walk_puts_the_common_words_it_missed_first_then_its_finds_then_the_rare_ones():
    words = [Word(word) for word in ("ZAX", "CAT", "OAT", "QOPH", "TACO")]
    walk = missed_first(words, {"OAT"}, lambda word: word in {"CAT", "TACO", "OAT"})
    assert [w.word for w in walk] == ["CAT", "TACO", "OAT", "ZAX", "QOPH"]


@pytest.mark.parametrize("team", range(1, MAX_TEAMS + 1))
def test_a_team_s_name_reads_on_its_colour_at_four_and_a_half_to_one(team):
    assert contrast(TEAM_STYLES[team - 1].colour, team_ink(team)) >= 4.5
