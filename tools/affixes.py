"""Expand a Hunspell/MySpell dictionary (`.dic` + `.aff`) into its word forms, choosing which affix rules apply.

Spell checkers store a root and the flags of the affix rules it takes ("amare/ALK" -> amo, ami, amarlo, ...).
`unmunch` expands them all, but a game wants some rules and not others (Italian verb forms with enclitic
pronouns, elided articles, Roman numerals), so `tools/build_dictionaries.py` expands them here and passes a
rule filter. Supported: FLAG (char, long, num, UTF-8), AF aliases, SFX/PFX with cross products,
continuation classes (two-level suffixes, prefixes on suffixed forms), NEEDAFFIX, FORBIDDENWORD,
ONLYINCOMPOUND, CIRCUMFIX, FULLSTRIP; compounding is not (compound words a list needs must be listed in it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Rule:
    """One affix rule: on a word matching `condition`, replace `strip` by `add` at the start or the end."""

    flag: str
    kind: str  # "PFX" or "SFX"
    cross: bool
    strip: str
    add: str
    condition: re.Pattern
    continuation: frozenset[str]
    morph: str

    def applies(self, word: str, fullstrip: bool = False) -> bool:
        """Whether the rule can apply to this word (its strip and its condition match; FULLSTRIP lets the
        strip be the whole word, as in French être -> sera)."""
        if len(word) < len(self.strip) + (0 if fullstrip else 1):
            return False
        if self.kind == "SFX":
            return word.endswith(self.strip) and bool(self.condition.search(word))
        return word.startswith(self.strip) and bool(self.condition.match(word))

    def apply(self, word: str) -> str:
        """The affixed form."""
        if self.kind == "SFX":
            return word[: len(word) - len(self.strip)] + self.add
        return self.add + word[len(self.strip) :]


@dataclass(frozen=True)
class Entry:
    """A line of the `.dic` file: a root, its flags and its morphological fields (Hunspell's `po:nom` and the like)."""

    root: str
    flags: frozenset[str]
    morph: str


@dataclass
class Affixes:
    """The rules and options of an `.aff` file."""

    encoding: str = "ISO8859-1"
    flag_type: str = "char"
    aliases: list[frozenset[str]] = field(default_factory=list)
    rules: dict[str, list[Rule]] = field(default_factory=dict)
    needaffix: str | None = None
    forbidden: str | None = None
    onlyincompound: str | None = None
    circumfix: str | None = None
    fullstrip: bool = False

    def split_flags(self, text: str) -> frozenset[str]:
        """The flags of a flag string (or of its AF alias number)."""
        if self.aliases and text.isdigit():
            return self.aliases[int(text) - 1]
        if self.flag_type == "long":
            return frozenset(text[i : i + 2] for i in range(0, len(text) - 1, 2))
        if self.flag_type == "num":
            return frozenset(text.split(","))
        return frozenset(text)


def _condition(kind: str, text: str) -> re.Pattern:
    """The rule's condition as a regular expression anchored at the word's start (PFX) or end (SFX)."""
    if text == ".":
        return re.compile("")
    return re.compile(text + "$" if kind == "SFX" else "^" + text)


def read_affixes(path: Path) -> Affixes:
    """Parse an `.aff` file."""
    raw = path.read_bytes()
    encoding = "ISO8859-1"
    for line in raw.decode("latin-1").splitlines():
        if line.startswith("SET "):
            encoding = line.split()[1]
            break
    affixes = Affixes(encoding=encoding)
    lines = raw.decode(_python_encoding(encoding), errors="replace").lstrip("\ufeff").splitlines()
    headers: dict[str, tuple[str, bool]] = {}
    for line in lines:
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        keyword = parts[0]
        if keyword == "FLAG" and len(parts) > 1:
            affixes.flag_type = {"long": "long", "num": "num", "UTF-8": "char"}.get(parts[1], "char")
        elif keyword == "AF" and len(parts) > 1 and not parts[1].isdigit():
            affixes.aliases.append(affixes.split_flags(parts[1]))
        elif keyword in ("NEEDAFFIX", "PSEUDOROOT") and len(parts) > 1:
            affixes.needaffix = parts[1]
        elif keyword == "FORBIDDENWORD" and len(parts) > 1:
            affixes.forbidden = parts[1]
        elif keyword == "ONLYINCOMPOUND" and len(parts) > 1:
            affixes.onlyincompound = parts[1]
        elif keyword == "CIRCUMFIX" and len(parts) > 1:
            affixes.circumfix = parts[1]
        elif keyword == "FULLSTRIP":
            affixes.fullstrip = True
        elif keyword in ("PFX", "SFX") and len(parts) >= 4:
            flag = parts[1]
            if flag not in headers and parts[2] in ("Y", "N") and parts[3].isdigit():
                headers[flag] = (keyword, parts[2] == "Y")
                affixes.rules.setdefault(flag, [])
                continue
            kind, cross = headers[flag]
            strip = "" if parts[2] == "0" else parts[2]
            add, _, continuation = parts[3].partition("/")
            add = "" if add == "0" else add
            condition = parts[4] if len(parts) > 4 else "."
            morph = " ".join(parts[5:])
            affixes.rules[flag].append(
                Rule(
                    flag,
                    kind,
                    cross,
                    strip,
                    add,
                    _condition(kind, condition),
                    affixes.split_flags(continuation) if continuation else frozenset(),
                    morph,
                )
            )
    return affixes


def _python_encoding(name: str) -> str:
    """Python's name for a Hunspell SET value."""
    return {"ISO8859-1": "latin-1", "ISO8859-15": "iso8859-15", "UTF-8": "utf-8"}.get(name.upper(), name)


def read_entries(path: Path, affixes: Affixes) -> Iterator[Entry]:
    """The entries of a `.dic` file (its first line is the entry count)."""
    with path.open(encoding=_python_encoding(affixes.encoding), errors="replace") as file:
        next(file)
        for line in file:
            line = line.strip().lstrip("\ufeff")
            if not line or line.startswith(("#", "/")) or line[0] in " \t":
                continue
            word_part, _, morph = line.partition("\t") if "\t" in line else line.partition(" ")
            root, flags = _split_root(word_part)
            yield Entry(root, affixes.split_flags(flags) if flags else frozenset(), morph.strip())


def _split_root(text: str) -> tuple[str, str]:
    """A `.dic` word and its flag string ("a\\/b/XY": slashes inside the word are escaped)."""
    index = 0
    while True:
        slash = text.find("/", index)
        if slash <= 0:
            return text.replace("\\/", "/"), ""
        if text[slash - 1] != "\\":
            return text[:slash].replace("\\/", "/"), text[slash + 1 :]
        index = slash + 1


RuleFilter = Callable[[Entry, Rule], bool]


def expand(entry: Entry, affixes: Affixes, keep: RuleFilter = lambda entry, rule: True) -> set[str]:
    """Every form of an entry: itself (unless it needs an affix) and its affixed forms through the kept rules."""
    special = {affixes.forbidden, affixes.onlyincompound}
    if special & entry.flags:
        return set()
    forms: set[str] = set()
    if affixes.needaffix not in entry.flags:
        forms.add(entry.root)
    suffixed = []  # (form, rule, its continuation flags) of each suffix applied to the root
    for flag in entry.flags:
        for rule in affixes.rules.get(flag, ()):
            if rule.kind == "SFX" and keep(entry, rule) and rule.applies(entry.root, affixes.fullstrip):
                form = rule.apply(entry.root)
                suffixed.append((form, rule, rule.continuation))
                for second_flag in rule.continuation:
                    for second in affixes.rules.get(second_flag, ()):
                        if second.kind == "SFX" and keep(entry, second) and second.applies(form, affixes.fullstrip):
                            suffixed.append((second.apply(form), rule, second.continuation))
    for form, _rule, continuation in suffixed:
        if not ({affixes.needaffix, affixes.circumfix} & continuation) and not special & continuation:
            forms.add(form)
    for flag in entry.flags:
        for rule in affixes.rules.get(flag, ()):
            if rule.kind != "PFX" or not keep(entry, rule):
                continue
            if rule.applies(entry.root, affixes.fullstrip) and affixes.circumfix not in rule.continuation:
                if affixes.needaffix not in rule.continuation:
                    forms.add(rule.apply(entry.root))
            if rule.cross:
                for form, suffix, continuation in suffixed:
                    if suffix.cross and rule.applies(form, affixes.fullstrip) and not special & continuation:
                        forms.add(rule.apply(form))
    for form, _suffix, continuation in suffixed:
        for flag in continuation:
            for rule in affixes.rules.get(flag, ()):
                if rule.kind == "PFX" and keep(entry, rule) and rule.applies(form, affixes.fullstrip):
                    forms.add(rule.apply(form))
    return forms
