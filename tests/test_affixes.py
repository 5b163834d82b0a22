"""The affix expander that builds the dictionaries: Hunspell's rules, on tiny hand-written files."""

from pathlib import Path

import pytest

from tools.affixes import Entry, expand, read_affixes, read_entries

AFFIXES = """SET UTF-8
FLAG long
FULLSTRIP
NEEDAFFIX ()
# a comment
SFX Pl Y 2
SFX Pl 0 s [^s]
SFX Pl 0 es s
SFX Vb Y 3
SFX Vb er e er
SFX Vb er ons/Zz er
SFX Vb être sera être
SFX Zz Y 1
SFX Zz ons ez ons
SFX Fm N 1
SFX Fm 0 e .
PFX Re Y 1
PFX Re 0 re .
"""

DICTIONARY = """4
chat/Pl\tpo:nom
parler/VbRe\tpo:v1
être/Vb()\tpo:v0
gris/PlFmRe
"""


@pytest.fixture
def affixes(tmp_path: Path):
    """A small .aff file with long flags, a cross product, a continuation class and NEEDAFFIX."""
    path = tmp_path / "tiny.aff"
    path.write_text(AFFIXES, encoding="utf-8")
    return read_affixes(path)


@pytest.fixture
def entries(tmp_path: Path, affixes) -> dict[str, Entry]:
    """The entries of the matching .dic file, by root."""
    path = tmp_path / "tiny.dic"
    path.write_text(DICTIONARY, encoding="utf-8")
    return {entry.root: entry for entry in read_entries(path, affixes)}


def test_a_suffix_applies_where_its_condition_matches(affixes, entries):
    assert expand(entries["chat"], affixes) == {"chat", "chats"}


def test_prefixes_and_suffixes_combine_when_both_allow_it(affixes, entries):
    assert {"parler", "parle", "parlons", "reparler", "reparle", "reparlons"} <= expand(entries["parler"], affixes)


def test_a_suffix_that_does_not_cross_takes_no_prefix(affixes, entries):
    assert expand(entries["gris"], affixes) == {"gris", "grises", "grise", "regris", "regrises"}


def test_fullstrip_lets_a_rule_replace_the_whole_word(affixes, entries):
    assert "sera" in expand(entries["être"], affixes)


def test_a_root_that_needs_an_affix_is_not_a_word_itself(affixes, entries):
    assert "être" not in expand(entries["être"], affixes)


def test_continuation_classes_apply_a_second_suffix(affixes, entries):
    # "parlons" carries Zz (-ons -> -ez): a second suffix on the first, and the prefix on both
    assert {"parlez", "reparlez"} <= expand(entries["parler"], affixes)


def test_a_rule_filter_leaves_rules_out(affixes, entries):
    no_prefix = lambda entry, rule: rule.kind != "PFX"  # noqa: E731
    assert expand(entries["parler"], affixes, no_prefix) == {"parler", "parle", "parlons", "parlez"}


def test_the_morphological_fields_are_kept(entries):
    assert entries["chat"].morph == "po:nom"
    assert entries["gris"].flags == frozenset({"Pl", "Fm", "Re"})
