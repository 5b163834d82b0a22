"""The rules that are data: letter values, multipliers, length bonus."""

import pytest

from ruzzle import LANGUAGES, Multiplier, UnknownLanguage, get_language, length_bonus
from ruzzle.languages import ALPHABET

PUBLISHED_VALUES = {
    "en": "A1 B4 C4 D2 E1 F4 G3 H4 I1 J10 K5 L1 M3 N1 O1 P4 Q10 R1 S1 T1 U2 V4 W4 X8 Y4 Z10",
    "it": "A1 B5 C2 D5 E1 F5 G8 H8 I1 J10 K5 L3 M3 N3 O1 P5 Q10 R2 S2 T2 U3 V5 W10 X10 Y4 Z8",
    # German Scrabble values (elzzur's German table is a placeholder).
    "de": "A1 B3 C4 D1 E1 F4 G2 H2 I1 J6 K4 L2 M3 N1 O2 P4 Q10 R1 S1 T1 U1 V6 W3 X8 Y10 Z3",
}


@pytest.mark.parametrize("code", sorted(PUBLISHED_VALUES))
def test_letter_values_match_the_published_tables(code):
    expected = {item[0]: int(item[1:]) for item in PUBLISHED_VALUES[code].split()}
    assert dict(get_language(code).letter_values) == expected


def test_seven_languages_each_value_every_letter_and_say_where_from():
    assert sorted(LANGUAGES) == ["de", "en", "es", "fr", "it", "nl", "pt"]
    for language in LANGUAGES.values():
        assert sorted(language.letter_values) == list(ALPHABET)
        assert all(value >= 1 for value in language.letter_values.values())
        assert language.source and language.name


def test_language_codes_are_case_insensitive_and_unknown_ones_are_refused():
    assert get_language(" EN ").code == "en"
    with pytest.raises(UnknownLanguage, match="known languages: de, en, es"):
        get_language("xx")


@pytest.mark.parametrize(
    "length, bonus", [(2, 0), (3, 0), (4, 0), (5, 5), (6, 10), (7, 15), (8, 20), (9, 25), (10, 25), (16, 25)]
)
def test_length_bonus(length, bonus):
    assert length_bonus(length) == bonus


@pytest.mark.parametrize("code, letter, word", [("dl", 2, 1), ("tl", 3, 1), ("dw", 1, 2), ("tw", 1, 3), ("TW", 1, 3)])
def test_multiplier_factors(code, letter, word):
    multiplier = Multiplier.from_code(code)
    assert (multiplier.letter_factor, multiplier.word_factor) == (letter, word)
