"""Seeded boards: pinned forever, short readable seeds, real-board multipliers, rich letters."""

import hashlib
import statistics

import pytest
from conftest import DEMO

from ruzzle import (
    LANGUAGES,
    Board,
    InvalidSeed,
    InvalidSize,
    Lexicon,
    Multiplier,
    UnknownLanguage,
    generate,
    new_seed,
    normalize_seed,
    solve,
)
from ruzzle.generator import SEED_ALPHABET, Stream, _vowel_range, multiplier_counts

# Golden boards: if one of these changes, every shared URL of that board changes. Never edit them;
# a generator change is a new generator version, and version 1 must keep giving these.
GOLDEN = {
    ("ABC234", 4, 4): "T   R   Bdw E\nO   I   Edw Stl\nA   D   Stw I\nDtl B   A   Tdl",
    ("hello world", 4, 4): "S   N   Pdl I\nT   O   Itl Edw\nO   E   R   A\nS   Gtw Ltl Pdw",
    ("K7M2QX", 5, 5): "R   D   U   Ndw G\nI   Ptl I   Sdl E\nH   E   T   Ctl Idl\nM   L   R   S   Otw\n"
    "Qtw Edw Atl Edw P",
    ("K7M2QX", 2, 3): "S   Etl D\nAdw P   U",
    ("Z", 1, 1): "S",
}


# One golden board per other language (seed ABC234, 4x4): pins its frozen letter weights, short words and,
# for French, its refining changes.
GOLDEN_LANGUAGES = {
    "de": "I   Ndl Edw Etl\nI   Ntw S   T\nA   A   T   Ltl\nR   R   Gdw C",
    "es": "Stw O   N   Stl\nI   E   Rdw I\nE   Ftl A   C\nL   Ndl D   Tdw",
    "fr": "T   E   S   Otw\nP   Itl A   Udl\nAtl T   N   L\nB   N   Edw Sdw",
    "it": "N   E   I   Ztl\nT   T   L   I\nA   Ndl Atl Edw\nCtw F   Odw R",
    "nl": "M   T   N   Atl\nRtw E   Odw G\nTtl M   R   L\nE   O   Sdw Adl",
    "pt": "L   R   E   Ltl\nM   Otl R   Sdw\nOdw E   I   A\nTdl N   T   Atw",
}


@pytest.mark.parametrize("seed, rows, cols", sorted(GOLDEN))
def test_golden_boards_never_change(seed, rows, cols):
    assert str(generate("en", seed, rows, cols)) == GOLDEN[seed, rows, cols]


@pytest.mark.parametrize("language", sorted(GOLDEN_LANGUAGES))
def test_golden_boards_of_every_language_never_change(language):
    assert str(generate(language, "ABC234")) == GOLDEN_LANGUAGES[language]


def test_the_random_stream_is_sha256_in_counter_mode():
    blocks = b"".join(hashlib.sha256(b"golden" + n.to_bytes(8, "big")).digest() for n in range(2))
    expected = [int.from_bytes(blocks[i : i + 8], "big") % 1000 for i in range(0, 48, 8)]
    stream = Stream("golden")
    assert [stream.below(1000) for _ in range(6)] == expected == [280, 901, 203, 794, 585, 245]


def test_seeds_are_case_insensitive_and_trimmed():
    assert generate("en", " abc234 ") == generate("en", "ABC234")
    assert normalize_seed("  my   class\t") == "MY CLASS"


def test_new_seeds_are_short_and_unambiguous():
    seeds = {new_seed() for _ in range(200)}
    assert len(seeds) > 190
    assert all(len(seed) == 6 and set(seed) <= set(SEED_ALPHABET) for seed in seeds)
    assert not set("01OIL") & set(SEED_ALPHABET)


@pytest.mark.parametrize(
    "text, message",
    [("", "at least one"), ("   ", "at least one"), ("x" * 65, "at most 64"), ("a\x00b", "control characters")],
)
def test_bad_seeds_are_refused(text, message):
    with pytest.raises(InvalidSeed, match=message):
        generate("en", text)


@pytest.mark.parametrize("rows, cols", [(0, 4), (4, 0), (-1, 4), (1000, 1000)])
def test_bad_sizes_are_refused(rows, cols):
    with pytest.raises(InvalidSize):
        generate("en", "SIZE", rows, cols)


def test_unknown_languages_are_refused():
    with pytest.raises(UnknownLanguage):
        generate("xx", "SEED")


@pytest.mark.parametrize("rows, cols", [(4, 4), (8, 8), (12, 12)])
def test_multipliers_as_on_real_boards(rows, cols):
    board = generate("en", "MULTI", rows, cols)
    counts = {m: sum(tile.multiplier is m for tile in board.tiles) for m in Multiplier}
    assert counts == multiplier_counts(rows * cols)
    if (rows, cols) == (4, 4):
        assert counts == {Multiplier.DL: 1, Multiplier.TL: 2, Multiplier.DW: 2, Multiplier.TW: 1}


def test_generated_boards_are_rich(english):
    # The 1000-seed figures (fewest >= 120, median >= 200) come from bench/generator.py.
    counts = [len(solve(generate("en", f"RICH{i}"), english)) for i in range(60)]
    assert min(counts) >= 120
    assert statistics.median(counts) >= 190


@pytest.mark.parametrize("language", sorted(GOLDEN_LANGUAGES))
def test_generated_boards_of_every_language_are_rich(language):
    # The 1000-seed figures (fewest >= 40%, median >= 70% of the demo board) come from bench/generator.py.
    lexicon = Lexicon.builtin(language)
    demo = len(solve(Board.parse((DEMO / f"{language}.board").read_text(encoding="utf-8"), language), lexicon))
    counts = [len(solve(generate(language, f"RICH{i}"), lexicon)) for i in range(30)]
    assert min(counts) >= 0.4 * demo
    # (Dutch: 69.8% of its demo board since issue 23 took junk such as THE, GLOP and RATO out of its dictionary;
    # the bar is the 1000-seed figure less what 30 seeds may miss)
    assert statistics.median(counts) >= 0.68 * demo


def test_no_q_without_u_and_balanced_vowels():
    for i in range(100):
        letters = generate("en", f"VOWEL{i}").letters
        assert "Q" not in letters or "U" in letters
        assert 6 <= sum(letter in "AEIOU" for letter in letters) <= 8
        assert max(letters.count(letter) for letter in letters) <= 2


# Generator version 2 (boards made from now on carry `gen=2` in their URL): its own golden boards, pinned as
# version 1's are. Never edit them; a change is a version 3.
GOLDEN_V2 = {
    ("ABC234", 4, 4): "Etl Hdl A   P\nN   Ttw S   L\nO   Odw Edw Stl\nU   I   D   M",
    ("hello world", 4, 4): "R   A   U   L\nN   E   T   Dtw\nEdw S   Ldl Itl\nOdw M   Itl A",
    ("K7M2QX", 5, 5): "M   Fdw A   Rdw Tdl\nE   Tdl O   L   E\nN   L   Rtl S   Ltw\nItl A   Etl Atw E\n"
    "Rdw N   P   P   O",
    ("K7M2QX", 2, 3): "N   E   Ttl\nS   Idw R",
    ("Z", 1, 1): "N",
}
GOLDEN_V2_LANGUAGES = {
    "de": "Atl Wdw I   A\nL   Ldl E   T\nC   T   Etl R\nCdw B   Stw N",
    "es": "Sdw R   N   E\nA   Otl T   N\nSdw A   I   E\nOtl Ltw D   Udl",
    "fr": "C   S   Rtl U\nE   A   Sdw E\nRdl I   Tdw D\nPtl Atw M   I",
    "it": "Otw A   Ltl V\nDdl Idw A   M\nV   T   Rdw R\nT   Etl O   C",
    "nl": "T   U   N   Fdl\nR   I   Ltl Edw\nAtl K   E   Ddw\nG   T   R   Itw",
    "pt": "P   S   A   Etl\nT   R   O   O\nE   V   Pdl Cdw\nNtw Mtl Adw H",
}


@pytest.mark.parametrize("seed, rows, cols", sorted(GOLDEN_V2))
def test_golden_boards_of_generator_2_never_change(seed, rows, cols):
    assert str(generate("en", seed, rows, cols, version=2)) == GOLDEN_V2[seed, rows, cols]


@pytest.mark.parametrize("language", sorted(GOLDEN_V2_LANGUAGES))
def test_golden_boards_of_generator_2_in_every_language_never_change(language):
    assert str(generate(language, "ABC234", version=2)) == GOLDEN_V2_LANGUAGES[language]


def test_a_board_without_a_version_is_generator_1s():
    assert generate("en", "ABC234") == generate("en", "ABC234", version=1) != generate("en", "ABC234", version=2)


@pytest.mark.parametrize("version", [0, 3])
def test_unknown_generator_versions_are_refused(version):
    with pytest.raises(ValueError, match="unknown generator version"):
        generate("en", "SEED", version=version)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_generator_2_draws_each_languages_vowel_share(language):
    low, high = _vowel_range(2, language)
    for i in range(12):
        letters = generate(language, f"VOWEL{i}", version=2).letters
        assert low <= sum(letter in "AEIOU" for letter in letters) <= high
        assert "Q" not in letters or "U" in letters
        assert max(letters.count(letter) for letter in letters) <= 2


def test_generator_2_allows_as_many_vowels_as_real_romance_boards():
    # The real Italian, Spanish, French and Portuguese boards have 9 or 10 vowels of 16; version 1 allowed 8.
    assert all(_vowel_range(2, language)[1] >= 10 for language in ("es", "fr", "it", "pt"))


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_generator_2_boards_have_as_many_long_words_as_the_real_board(language):
    # The 1000-seed figures come from bench/generator.py; here the median of 15 seeds: words of 5+ letters at
    # least as many as on the language's real demo board (version 1's English, Dutch and French fell short).
    lexicon = Lexicon.builtin(language)
    demo = solve(Board.parse((DEMO / f"{language}.board").read_text(encoding="utf-8"), language), lexicon)
    real = sum(len(found.word) >= 5 for found in demo)
    long_words = [
        sum(len(found.word) >= 5 for found in solve(generate(language, f"LONG{i}", version=2), lexicon))
        for i in range(15)
    ]
    assert statistics.median(long_words) >= real
