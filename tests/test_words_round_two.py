"""Issue 23, the words: forms players try, words that are none, and the classroom filter, per language.

The words are in tests/data/words_round_two.toml, written by a native-level reader before the dictionaries and
blocklists were changed. Each kind has at least 20 words per language where the kind applies.
"""

import tomllib
from functools import cache
from pathlib import Path

import pytest

from ruzzle import Lexicon, blocked_words

WORDS = tomllib.loads((Path(__file__).parent / "data" / "words_round_two.toml").read_text(encoding="utf-8"))
ADJUSTMENTS = Path(__file__).resolve().parent.parent / "ruzzle" / "data" / "blocklist" / "adjustments.toml"
MINIMUM = 20


@cache
def lexicon(code: str) -> Lexicon:
    return Lexicon.builtin(code)


def cases(section: str) -> list[tuple[str, str, list[str]]]:
    """(language, kind, words) of a section; a section without kinds has one list per language."""
    found = []
    for code, value in sorted(WORDS[section].items()):
        kinds = value if isinstance(value, dict) else {section: value}
        found += [(code, kind, words.split()) for kind, words in sorted(kinds.items())]
    return found


def ids(section: str) -> list[str]:
    return [f"{code}-{kind}" for code, kind, _ in cases(section)]


def test_every_kind_has_at_least_twenty_words_per_language():
    counts = {
        f"{section}-{code}-{kind}": len(set(words))
        for section in ("accept", "refuse", "blocked", "playable")
        for code, kind, words in cases(section)
    }
    assert {name: count for name, count in counts.items() if count < MINIMUM} == {}
    assert {"es", "it", "de"} <= {code for code, kind, _ in cases("accept") if kind != "modern"}
    assert len({code for code, _, _ in cases("playable")}) == 7 and len({code for code, _, _ in cases("blocked")}) == 7


@pytest.mark.parametrize("code, kind, words", cases("accept"), ids=ids("accept"))
def test_forms_players_try_are_words(code, kind, words):
    assert [word for word in words if word not in lexicon(code)] == []


@pytest.mark.parametrize("code, kind, words", cases("refuse"), ids=ids("refuse"))
def test_abbreviations_prefixes_and_foreign_words_are_not(code, kind, words):
    assert [word for word in words if word in lexicon(code)] == []


@pytest.mark.parametrize("code, kind, words", cases("blocked"), ids=ids("blocked"))
def test_the_classroom_filter_refuses_insults_slurs_and_sexual_terms(code, kind, words):
    blocked = blocked_words(code)
    assert [word for word in words if word in lexicon(code) and word not in blocked] == []


@pytest.mark.parametrize("code, kind, words", cases("playable"), ids=ids("playable"))
def test_ordinary_words_stay_playable_with_the_filter_on(code, kind, words):
    assert [word for word in words if word not in lexicon(code)] == []
    assert [word for word in words if word in blocked_words(code)] == []


# Dutch builds curses on a disease or an ethnic slur with any second part (kankerhoer, kankerzooi,
# teringlijer, tyfushond): the filter must take every such compound of the dictionary, by rule, and leave the
# disease's own compounds (kankercel, kankeronderzoek), kept by name with their reason.
def curse_rule(code: str) -> tuple[dict[str, str], set[str]]:
    table = tomllib.loads(ADJUSTMENTS.read_text(encoding="utf-8")).get(code, {})
    return table.get("curse_roots", {}), set(table.get("keep", {}))


def test_dutch_has_curse_roots_for_its_disease_curses():
    roots, _ = curse_rule("nl")
    assert {"KANKER", "TERING", "TYFUS", "KLERE", "POKKEN", "TAKKE"} <= set(roots)


@pytest.mark.parametrize("code", ["nl"])
def test_every_compound_on_a_curse_root_is_blocked_unless_kept_by_name(code):
    roots, keep = curse_rule(code)
    words, blocked = lexicon(code), blocked_words(code)
    compounds = {
        word
        for root in roots
        for word in words.words_with_prefix(root)
        if len(word) - len(root) >= 3 and word[len(root) :] in words
    }
    assert compounds, f"no {code} compound on a curse root: this test proves nothing"
    assert sorted(compounds - blocked - keep) == []
