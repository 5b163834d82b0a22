"""The teacher's own words: a board built around up to 8 target words, or a refusal saying which cannot fit and why."""

from __future__ import annotations

import pytest
from conftest import LANGUAGE_CODES

from ruzzle import Lexicon, solve
from ruzzle.targets import MAX_TARGETS, TargetsRefused, TooManyTargets, build_target_board, parse_targets

# Word lists that fit, per language (a week's vocabulary): 8 words on a 5x5 board, 4 short ones on a 4x4.
FITS = {
    "en": [["river", "water", "cloud", "rain", "storm", "wind", "snow", "ice"], ["cat", "dog", "sun", "tea"]],
    "de": [["wasser", "regen", "wind", "schnee", "eis", "sonne", "wolke", "sturm"], ["hund", "katze", "maus", "tee"]],
    "es": [["agua", "lluvia", "nube", "viento", "nieve", "sol", "hielo", "mar"], ["gato", "perro", "sol", "mar"]],
    "fr": [["eau", "pluie", "nuage", "vent", "neige", "soleil", "glace", "mer"], ["chat", "chien", "lait", "mer"]],
    "it": [["acqua", "lago", "nuvola", "vento", "neve", "sole", "mare", "terra"], ["gatto", "cane", "sole", "mare"]],
    "nl": [["water", "regen", "wolk", "wind", "sneeuw", "zon", "ijs", "zee"], ["kat", "hond", "zon", "zee"]],
    "pt": [["agua", "chuva", "nuvem", "vento", "neve", "sol", "gelo", "mar"], ["gato", "cao", "sol", "mar"]],
}


@pytest.fixture(scope="module", params=LANGUAGE_CODES)
def language(request) -> tuple[str, Lexicon]:
    return request.param, Lexicon.builtin(request.param)


@pytest.mark.parametrize("which", [0, 1])
def test_every_word_of_a_fit_list_is_on_the_board_the_solver_says(language, which):
    code, lexicon = language
    words = FITS[code][which]
    size = (5, 5) if len(words) == MAX_TARGETS else (4, 4)
    built = build_target_board(code, "LESSON", *size, words, lexicon)
    on_board = {found.word for found in solve(built.board, lexicon)}
    assert set(built.targets) <= on_board
    assert len(built.targets) == len(words)
    assert (built.board.rows, built.board.cols, built.board.language) == (*size, code)


def test_the_same_words_and_seed_give_the_same_board(language):
    code, lexicon = language
    first = build_target_board(code, "SAME", 5, 5, FITS[code][0], lexicon)
    again = build_target_board(code, "same", 5, 5, list(reversed(FITS[code][0])), lexicon)
    assert first == again


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        ("caté!", "letters"),
        ("zzqxv", "not-a-word"),
        ("a", "too-short"),
        ("internationalization", "too-long"),  # 20 letters, a 4x4 board has 16 tiles
        ("assess", "copies"),  # four S: a 4x4 board has a letter twice at most
    ],
)
def test_impossible_words_are_refused_with_the_reason(word, reason):
    english = Lexicon.from_words(["assess", "internationalization", "cat", "a"])
    with pytest.raises(TargetsRefused) as refused:
        build_target_board("en", "LESSON", 4, 4, ["cat", word], english)
    assert [(r.reason) for r in refused.value.refusals] == [reason]


def test_a_blocked_word_is_refused_on_a_classroom_board():
    lexicon = Lexicon.from_words(["cat", "damn"])
    with pytest.raises(TargetsRefused) as refused:
        build_target_board("en", "LESSON", 4, 4, ["cat", "damn"], lexicon, blocked=frozenset({"DAMN"}))
    assert [(r.word, r.reason) for r in refused.value.refusals] == [("DAMN", "blocked")]


def test_words_that_together_need_more_tiles_than_the_board_has_are_refused_together():
    words = ["planet", "orbit", "comet", "earth", "galaxy", "rocket", "moon", "star"]
    with pytest.raises(TargetsRefused) as refused:
        build_target_board("en", "LESSON", 4, 4, words, Lexicon.builtin("en"))
    assert [(r.reason, r.num) for r in refused.value.refusals] == [("tiles", 20)]  # P L A N E T O R B I C M H G X K
    assert set(refused.value.refusals[0].word.split(", ")) == {word.upper() for word in words}


def test_the_words_that_do_not_fit_beside_the_others_are_named():
    english = Lexicon.builtin("en")
    words = ["planet", "orbit", "moon", "sun", "star", "comet", "earth", "mars"]  # 16 letters, and a 4x4 has 16 tiles
    with pytest.raises(TargetsRefused) as refused:
        build_target_board("en", "LESSON", 4, 4, words, english, attempts=2)
    misfits = refused.value.refusals
    assert misfits and {r.reason for r in misfits} == {"no-room"}
    assert {r.word for r in misfits} < {w.upper() for w in words}  # the others were laid together


def test_more_than_eight_words_are_refused():
    with pytest.raises(TooManyTargets):
        parse_targets("a b c d e f g h i")
    assert parse_targets("cat, dog;sun\ncat") == ("cat", "dog", "sun")
