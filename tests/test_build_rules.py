"""The per-language build rules of tools/build_dictionaries.py, read from dictionaries/rules/<lang>.toml, on
hand-made roots (the rules are data; these tests show what each decides, without the Debian packages)."""

import tomllib

import pytest

from tools.affixes import Entry, Rule, _condition
from tools.build_dictionaries import (
    DUTCH_FLAGLESS_REVIEW,
    DUTCH_ROOTS_REVIEW,
    RULES_DIR,
    SHORT_DIR,
    dutch_reviewed_junk,
    italian_clitics,
    language_rules,
    read_review,
    short_words_review,
    spanish_rules,
)

LANGUAGES = ["de", "en", "es", "fr", "it", "nl", "pt"]


def rule(flag: str, strip: str, add: str) -> Rule:
    return Rule(flag, "SFX", True, strip, add, _condition("SFX", "."), frozenset(), "")


@pytest.mark.parametrize(
    "root, flags, clitic",
    [
        ("obcécalo", "BDPS", True),  # obcéca + lo: the accent shows the pronoun
        ("abandóname", "AC", True),
        ("ponlo", "BDPS", True),  # one-syllable imperatives and their compounds
        ("componlo", "BDPS", True),
        ("rehazlo", "BDPS", True),
        ("dame", "AC", True),
        ("pueblo", "BDPS", False),  # words in -lo that share the flags
        ("lo", "BDMPS", False),
        ("ello", "BDPS", False),
        ("tranquilo", "BMPS", False),
        ("come", "ACPS", False),  # a verb form in -me
        ("casa", "PS", False),  # no A-F flag at all
    ],
)
def test_spanish_roots_that_are_imperatives_with_a_pronoun(root, flags, clitic):
    assert spanish_rules().is_clitic_root(Entry(root, frozenset(flags), "")) is clitic


def test_spanish_words_in_lo_keep_only_the_plural_and_verb_rules():
    rules = spanish_rules()
    pueblo = Entry("pueblo", frozenset("BDPS"), "")
    assert rules.keeps(pueblo, rule("B", "", "s")) and rules.keeps(pueblo, rule("D", "o", "es"))
    assert not rules.keeps(pueblo, rule("B", "alo", "elo"))  # abandónalo -> abandónelo
    assert not rules.keeps(pueblo, rule("A", "me", "te"))  # acábame -> acábate: come -> *cote
    assert not rules.keeps(pueblo, rule("R", "r", "rme"))  # the pronoun flags
    assert rules.keeps(pueblo, rule("P", "o", "a"))


# (strip, add) of a flag's rules, as hunspell-it writes them, and whether the one tested adds a pronoun
@pytest.mark.parametrize(
    "strip, add, flag_rules, pronoun",
    [
        ("re", "rlo", {("re", "rlo"), ("re", "rla")}, True),  # amarlo: its sister amarla is a clitic too
        ("re", "ndogliene", {("re", "ndo")}, True),  # dandogliene
        ("o", "avi", {("o", "a"), ("o", "avi")}, True),  # zappatavi: no *zappatava
        ("enire", "ienimi", {("enire", "ieni"), ("enire", "ienimi")}, True),  # vienimi
        ("re", "vi", {("re", "va"), ("re", "vi")}, False),  # amavi / amava: imperfect
        ("rre", "nevi", {("rre", "neva"), ("rre", "nevi")}, False),  # ponevi / poneva
        ("ire", "ne", {("ire", "ni"), ("ire", "ne")}, False),  # venne / venni: past
        ("are", "eci", {("are", "ece"), ("are", "eci")}, False),  # feci / fece
        ("re", "tti", {("re", "tte"), ("re", "tti")}, False),  # credetti / credette
        ("re", "ssi", {("re", "sse"), ("re", "ssi")}, False),  # amassi / amasse
        ("re", "o", {("re", "o")}, False),  # no clitic ending at all
        ("re", "nne", {("re", "nno"), ("re", "nne")}, True),  # fanne (fa' + ne) beside fanno
        ("re", "mmi", {("re", "mmi")}, True),  # dammi
        ("re", "tti", {("re", "tti"), ("re", "tte")}, False),  # credetti: a past, not fa' + ti
    ],
)
def test_italian_rules_that_add_a_pronoun_unless_a_tense(strip, add, flag_rules, pronoun):
    assert italian_clitics().adds_pronoun(rule("A", strip, add), flag_rules) is pronoun


@pytest.mark.parametrize("code", LANGUAGES)
def test_rules_files_give_a_reason_for_every_word_by_hand(code):
    rules = language_rules(code)
    for section in ("add", "remove"):
        for word, reason in rules.get(section, {}).items():
            assert word.isascii() and word.isalpha() and word.isupper(), word
            assert len(reason) >= 10, word


@pytest.mark.parametrize("code", LANGUAGES)
def test_short_word_reviews_are_well_formed(code):
    allowed, denied = short_words_review(code)
    assert allowed and not allowed & set(denied)
    assert all(word.isascii() and word.isalpha() and word.isupper() for word in allowed | set(denied))


def test_every_rules_file_is_valid_toml():
    for path in list(RULES_DIR.glob("*.toml")) + list(SHORT_DIR.glob("*.toml")):
        assert isinstance(tomllib.loads(path.read_text(encoding="utf-8")), dict), path


# Dutch (issue 23): the reviews of OpenTaal's single-form words and rare roots, on hand-made roots and reviews.
DUTCH_ROOTS = {  # word -> the hunspell-nl roots (root/flags) that make it, and whether each has flags
    "BEIER": {("beier/Za", True), ("beier/V3Vp", True)},  # the noun (a Bavarian) and the verb (beieren)
    "BEIERS": {("beier/Za", True)},
    "BEIERT": {("beier/V3Vp", True)},
    "POCUS": {("pocus", False)},
    "HUIS": {("huis/CaCcYbZh", True)},
}
HAND_WORDS_REVIEW = {"POCUS": ("junk", "part of a foreign phrase"), "OOIT": ("ok", "")}
HAND_ROOTS_REVIEW = {"beier/Za": ("junk", "a name"), "beier/V3Vp": ("ok", ""), "huis/CaCcYbZh": ("ok", "")}


def test_dutch_junk_goes_with_the_forms_only_its_root_makes():
    words = {"BEIER", "BEIERS", "BEIERT", "POCUS", "HUIS", "OOIT"}
    junk = dutch_reviewed_junk(words, DUTCH_ROOTS, HAND_WORDS_REVIEW, HAND_ROOTS_REVIEW)
    assert sorted(junk) == ["BEIERS", "POCUS"]
    assert "part of a foreign phrase" in junk["POCUS"] and "a name" in junk["BEIERS"]


def test_dutch_junk_the_list_lacks_is_no_word_to_leave_out():
    assert dutch_reviewed_junk({"HUIS"}, DUTCH_ROOTS, HAND_WORDS_REVIEW, HAND_ROOTS_REVIEW) == {}


@pytest.mark.parametrize("path", [DUTCH_FLAGLESS_REVIEW, DUTCH_ROOTS_REVIEW])
def test_dutch_reviews_give_a_verdict_and_for_junk_a_reason(path):
    review = read_review(path)
    assert len(review) > 1000
    assert all(verdict in ("ok", "junk") for verdict, _ in review.values())
    assert all(reason for verdict, reason in review.values() if verdict == "junk")
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    assert len(lines) - 1 == len(review)  # one row per word or root
