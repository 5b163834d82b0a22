"""Rebuild the built-in dictionaries (`dictionaries/<lang>.marisa` + `.nodes`) from Debian's word lists.

    apt-get install -y scowl                                  # en: SCOWL 2020.12.07
    apt-get install -y hunspell-it                            # it: Dizionario italiano 5.1 (LibreOffice 7.5)
    apt-get install -y aspell aspell-es                       # es: aspell-es 1.11
    apt-get install -y hunspell-fr-comprehensive              # fr: Dicollecte 7.0, all spellings
    apt-get install -y aspell aspell-de hunspell-de-de scowl hunspell-fr-comprehensive hunspell-it wdutch iso-codes
                                                              # de: igerman98 20161207, names from the others
    apt-get install -y wdutch hunspell-nl                     # nl: OpenTaal 2.20.19 (its Hunspell flags for the review)
    apt-get install -y wportuguese                            # pt: Natura/Portuguese 20220621
    python3 tools/build_dictionaries.py LANG [-o OUT.marisa] [--spellings [OUT.marisa]]

Prints the counts that `dictionaries/README.md` records (entries read, kept, dropped and why). With `--spellings`
it also writes each word's everyday spelling (`dictionaries/spellings/<lang>.marisa`, see its README), the same
build's words: the dictionary it writes is the same either way.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import gettext
import json
import os
import re
import subprocess
import sys
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from affixes import Affixes, Entry, Rule, expand, read_affixes, read_entries  # noqa: E402

from ruzzle.lexicon import Lexicon, normalize_word  # noqa: E402
from ruzzle.spellings import SPELLINGS_DIR, Spellings  # noqa: E402

SCOWL_DIR = Path("/usr/share/dict/scowl")
SCOWL_SIZES = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
# SCOWL's "words" category holds no proper names, abbreviations or upper-case words (those have their
# own files); "english" is spelling common to all variants, plus the American and British spellings.
SCOWL_SPELLINGS = ("english", "american", "british")
# Words without a vowel are almost all abbreviations or letter names (km, mph, ls, cs); these are not.
VOWELLESS_WORDS = {"brr", "crwth", "crwths", "cwm", "cwms", "hmm", "nth", "psst", "shh", "tsk", "tsks", "pst"}
VOWELS = set("aeiouy")
HUNSPELL = Path("/usr/share/hunspell")
ASPELL = Path("/usr/lib/aspell")
DICT = Path("/usr/share/dict")
# Letters that are neither A-Z nor an accented A-Z but still fold to A-Z (normalize_word handles them).
FOLDED_LETTERS = set("ßæœøłÆŒØŁ")
# Roman numerals (xii, mcd, cm) are not words; these look like numerals but are words in one of our languages.
ROMAN_NUMERAL = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
ROMAN_LOOKING_WORDS = {"ci", "di", "dix", "li", "mi", "mil", "mix", "vi", "xi"}
EXAMPLES = 12  # dropped entries printed per reason
RULES_DIR = ROOT / "dictionaries" / "rules"  # per-language build rules and reviewed words, with reasons
SHORT_DIR = ROOT / "dictionaries" / "short"  # every word of 2 and 3 letters, reviewed: allowed or denied
SHORT_LENGTHS = (2, 3)


@dataclass
class Build:
    """The words of a language and the count of source entries dropped per reason."""

    words: set[str] = field(default_factory=set)
    considered: int = 0
    dropped: collections.Counter = field(default_factory=collections.Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    added: collections.Counter = field(default_factory=collections.Counter)
    unreviewed: list[str] = field(default_factory=list)
    spellings: dict[str, set[str]] = field(default_factory=dict)  # a kept word -> the source's spellings of it
    # a German compound the build adds -> (first noun, linking letters, head form): TURKLINGEL -> TUR, "", KLINGEL
    compounds: dict[str, tuple[str, str, str]] = field(default_factory=dict)

    def offer(self, entry: str, reason: str | None) -> None:
        """Count one source entry: keep its normalized word (and the entry's spelling), or record why it is dropped."""
        word = None if reason else normalize_word(entry)
        if word is None:
            self.drop(reason or "not A-Z after normalizing", 1, entry)
        else:
            self.considered += 1
            self.words.add(word)
            self.spellings.setdefault(word, set()).add(entry)

    def take_out(self, word: str, reason: str) -> None:
        """A word already counted as kept is counted as dropped instead (a reviewed list takes it out)."""
        self.words.discard(word)
        self.drop(reason, 1, word)
        self.considered -= 1

    def drop(self, reason: str, count: int = 1, example: str | None = None) -> None:
        """Count source entries dropped, `count` at once for the forms of a whole root (with one example)."""
        self.considered += count
        self.dropped[reason] += count
        examples = self.examples.setdefault(reason, [])
        if example and len(examples) < EXAMPLES and count:
            examples.append(example)


def plain_letters(entry: str) -> str:
    """The entry with accents removed (canonical decomposition only, so ᵉ or ² stay what they are)."""
    return "".join(ch for ch in unicodedata.normalize("NFD", entry) if not unicodedata.combining(ch))


def reason_to_drop(entry: str, capitals_allowed: bool = False) -> str | None:
    """Why an entry of a non-English list is not a board word, or None to keep it."""
    plain = plain_letters(entry)
    if "'" in plain or "’" in plain:
        return "apostrophe (elision or contraction)"
    if not all(("a" <= ch.lower() <= "z") or ch in FOLDED_LETTERS for ch in plain):
        return "hyphen, digit, space or other non-letter"
    if plain.isupper() and len(plain) > 1:
        return "all capitals (abbreviation)"
    if not plain.islower() and not capitals_allowed:
        return "capital letter (proper noun or abbreviation)"
    if len(plain) < 2:
        return "single letter"
    if not VOWELS & set(plain.lower()):
        return "no vowel (abbreviation or unit)"
    if ROMAN_NUMERAL.fullmatch(plain.lower()) and plain.lower() not in ROMAN_LOOKING_WORDS:
        return "Roman numeral"
    return None


# English ------------------------------------------------------------------------------------------------


def scowl_entries(size: int) -> list[str]:
    """Every entry of SCOWL's word lists for the English spellings up to this size."""
    require(SCOWL_DIR, "scowl")
    entries = []
    for spelling in SCOWL_SPELLINGS:
        for level in (s for s in SCOWL_SIZES if s <= size):
            path = SCOWL_DIR / f"{spelling}-words.{level}"
            if path.exists():
                entries.extend(path.read_text(encoding="utf-8").split())
    return entries


def english_reason_to_drop(entry: str) -> str | None:
    """Why a SCOWL entry is not a board word, or None to keep it."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", entry) if not unicodedata.combining(ch))
    if "'" in plain:
        return "apostrophe (possessive or contraction)"
    if not plain.isascii() or not plain.isalpha():
        return "hyphen, digit or other non-letter"
    if not plain.islower():
        return "capital letter (proper noun or abbreviation)"
    if len(plain) < 2:
        return "single letter"
    if not VOWELS & set(plain) and plain not in VOWELLESS_WORDS:
        return "no vowel (abbreviation or letter name)"
    return None


def build_english(size: int = 70) -> Build:
    """The English board words from SCOWL up to `size` (default 70, SCOWL's "large")."""
    build = Build()
    for entry in scowl_entries(size):
        build.offer(entry, english_reason_to_drop(entry))
    build.notes.append(f"SCOWL size {size}")
    return build


# Plain word lists: Dutch, Portuguese --------------------------------------------------------------------


def build_word_list(path: Path, package: str) -> Build:
    """The board words of a Debian `w*` word list (one entry per line; proper nouns are capitalised)."""
    require(path, package)
    build = Build()
    for entry in path.read_text(encoding="utf-8").splitlines():
        if entry:
            build.offer(entry, reason_to_drop(entry))
    return build


# Affix-compressed dictionaries: Italian, Spanish, French, German -----------------------------------------


def expand_entries(
    build: Build,
    entries: Iterable[Entry],
    affixes: Affixes,
    keep_rule: Callable[[Entry, Rule], bool] = lambda entry, rule: True,
) -> None:
    """Offer every form of every entry (through the kept affix rules) to the build."""
    for entry in entries:
        for form in expand(entry, affixes, keep_rule):
            build.offer(form, reason_to_drop(form))


def aspell_master(language: str) -> Iterator[Entry]:
    """The roots of an aspell dictionary with their affix flags (`aspell dump master`)."""
    try:
        dump = subprocess.run(
            ["aspell", "-d", language, "dump", "master"], capture_output=True, text=True, check=True, encoding="utf-8"
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        sys.exit(f"aspell or its {language} dictionary is missing: apt-get install -y aspell aspell-{language}")
    for line in dump.splitlines():
        root, _, flags = line.strip().partition("/")
        if root:
            yield Entry(root, frozenset(flags), "")


# Italian: verb forms with enclitic pronouns (amarlo, dandogliene, appressatoleci) make up 5 of every 6 forms
# of hunspell-it and are seldom what a player traces: the affix rules that make them are left out (pronoun forms
# listed as roots of their own, dammi, fallo, stay), and so are its elisions (l', dell') and Roman numerals.
# A rule adds a pronoun when what it adds ends in a clitic of `dictionaries/rules/it.toml` (amar-lo,
# zappata-vi, vieni-mi), unless it is a tense that only looks like one: such a tense has a sister rule in the
# same flag, with the same strip, that differs in the last vowel and is no clitic form (amavi: amava;
# venne: venni; feci: fece; credetti: credette; amassi: amasse; vinci: vince). Superlatives that the rules
# make of verbs' participles (cagatissima, traditissimi) and superlative adverbs of adjectives that have no
# superlative (semplicisticissimamente) are machine-made: left out too.
ITALIAN_ELISION_FLAGS = set("TUXqrsi^")  # l'amico, un'ora, dell'arte: never a board word, never expanded
# Rules left out, with the reason printed for the forms that only they make.
ITALIAN_SKIPPED_FLAGS = {
    "£": "Roman numeral",
    "$": "Roman numeral",
    '"': "number above a thousand in one word (duemilacinquecentosessantatré)",
}
ITALIAN_NOUN_FLAGS = set("OQRSYWNnopugy@&()=|!c")  # plurals, adverbs, superlatives, numbers: no pronouns
ITALIAN_PRONOUN_FLAGS = set("DIKLhlMb")  # every rule adds a pronoun (amandolo, amarti, amiamoci)
ITALIAN_PARTICIPLE_FLAG = "E"  # past participles (amato/Ey): amata, amati, amate, and with pronouns amatolo
ITALIAN_SUPERLATIVE_FLAG = "y"  # amatissimo
ITALIAN_ADVERB_FLAG = "Y"  # -mente, and -issimamente for adjectives with a superlative


@dataclass(frozen=True)
class ItalianClitics:
    """The clitic endings of Italian verb forms (rules/it.toml), and how a tense that ends like one is told."""

    clitics: tuple[str, ...]  # longest first: glielo, melo, ... mi, ti, ne
    sister_vowels: str  # a tense has a sister rule ending in another of these vowels
    doubled: str  # a one-syllable imperative doubles the clitic's consonant: fa'+ne fanne, dammi

    def ends_in_clitic(self, text: str) -> bool:
        return text.endswith(self.clitics)

    def adds_pronoun(self, rule: Rule, flag_rules: set[tuple[str, str]]) -> bool:
        """Whether a verb rule adds an enclitic pronoun; `flag_rules` are the (strip, add) of its flag."""
        if not self.ends_in_clitic(rule.add):
            return False
        if len(rule.add) > 2 and rule.add[0] == rule.add[1] in self.doubled and rule.add[1:] in self.clitics:
            return True
        sisters = {rule.add[:-1] + vowel for vowel in self.sister_vowels} - {rule.add}
        return not any((rule.strip, sister) in flag_rules and not self.ends_in_clitic(sister) for sister in sisters)


def italian_clitics() -> ItalianClitics:
    data = language_rules("it")["clitics"]
    clitics = sorted(
        set(data["single"]) | {a + b for a in data["first"] for b in data["second"]} | set(data["clusters"]),
        key=len,
        reverse=True,
    )
    return ItalianClitics(tuple(clitics), data["sister_vowels"], data["doubled"])


def italian_pronoun_rules(affixes: Affixes, clitics: ItalianClitics) -> set[Rule]:
    """Every rule of the affix file that adds an enclitic pronoun to a verb form."""
    pronoun = set()
    for flag, rules in affixes.rules.items():
        if flag in ITALIAN_NOUN_FLAGS:
            continue
        flag_rules = {(rule.strip, rule.add) for rule in rules}
        pronoun.update(
            rule
            for rule in rules
            if rule.kind == "SFX" and (flag in ITALIAN_PRONOUN_FLAGS or clitics.adds_pronoun(rule, flag_rules))
        )
    return pronoun


def italian_machine_superlative(entry: Entry, rule: Rule) -> bool:
    """Whether a rule makes a superlative no Italian uses: of a verb (traditissimi) or of a participle
    (cagatissima), or an -issimamente adverb of an adjective that has no superlative."""
    if "issim" not in rule.add:
        return False
    participle = ITALIAN_PARTICIPLE_FLAG in entry.flags
    if rule.flag == ITALIAN_SUPERLATIVE_FLAG:
        return participle
    if rule.flag == ITALIAN_ADVERB_FLAG:
        return participle or ITALIAN_SUPERLATIVE_FLAG not in entry.flags
    return rule.flag not in ITALIAN_NOUN_FLAGS  # a verb flag's participle superlatives


def build_italian() -> Build:
    """Italian from hunspell-it (it_IT), without enclitic pronoun forms, elisions, big numbers or proper nouns."""
    affixes = read_affixes(require(HUNSPELL / "it_IT.aff", "hunspell-it"))
    pronoun_rules = italian_pronoun_rules(affixes, italian_clitics())
    entries = list(read_entries(HUNSPELL / "it_IT.dic", affixes))
    build = Build()
    entries = without_reviewed_flagless_roots(build, entries)
    applied: Callable[[Entry, Rule], bool] = lambda entry, rule: rule.flag not in ITALIAN_ELISION_FLAGS  # noqa: E731
    for flag, reason in ITALIAN_SKIPPED_FLAGS.items():
        drop_forms_only_made_by(build, reason, entries, affixes, applied, lambda rule, flag=flag: rule.flag == flag)
        applied = without(applied, lambda rule, flag=flag: rule.flag == flag)
    pronoun = lambda rule: rule in pronoun_rules  # noqa: E731
    drop_forms_only_made_by(
        build, "verb form with enclitic pronoun(s) (amarlo, dandogliene, zappatavi)", entries, affixes, applied, pronoun
    )
    applied = without(applied, pronoun)
    irregular = italian_irregular_verbs()
    for entry in entries:
        kept = expand(entry, affixes, lambda e, rule: applied(e, rule) and not italian_machine_superlative(e, rule))
        machine = expand(entry, affixes, applied) - kept
        if machine:
            build.drop(
                "superlative of a verb, a participle or an adjective without one (cagatissima)",
                len(machine),
                min(machine),
            )
        wrong = kept & irregular(entry.root)
        if wrong:
            build.drop(
                "regular form of an irregular verb (teno, astena, vederò: rules/it.toml)", len(wrong), min(wrong)
            )
            kept -= wrong
        for form in kept:
            build.offer(form, reason_to_drop(form))
    build.notes.append(f"{len(entries)} roots in it_IT.dic; its elided forms (l'amico, dell'arte) not expanded")
    add_italian_first_person_past(build)
    return build


# Issue 23: hunspell-it lists the irregular past (passato remoto) of a verb as roots of its own, and for some verbs
# only the third persons: RIMASE, RIMASERO but not RIMASI; EMISE, EMISERO but not EMISI; APPARVE, APPARVERO but
# not APPARVI. Where the dictionary has a third person singular and plural of an irregular past (a stem ending as
# such a past does: -s, -ss, -rv, -vv, -bb, -pp, -qu, -dd, -ll, -nn, -tt; not the conditional's -rebb), the first
# person singular is that stem + i. What the review of the forms it makes found no verb is in rules/it.toml.
ITALIAN_PAST_STEMS = ("S", "RV", "VV", "BB", "PP", "QU", "DD", "LL", "NN", "TT")


def add_italian_first_person_past(build: Build) -> None:
    """Add the first person of an irregular past whose third persons the dictionary has (RIMASE, RIMASERO: RIMASI)."""
    not_verbs = set(language_rules("it").get("past_not_verbs", {}))
    for word in sorted(build.words):
        stem = word[: -len("ERO")]
        if (
            word.endswith("ERO")
            and len(word) >= 6
            and stem + "E" in build.words
            and stem + "I" not in build.words
            and stem.endswith(ITALIAN_PAST_STEMS)
            and not stem.endswith("REBB")
            and stem + "I" not in not_verbs
        ):
            build.words.add(stem + "I")
            build.added["first person of an irregular past whose third persons are in (rimase, rimasero: rimasi)"] += 1


def italian_irregular_verbs() -> Callable[[str], set[str]]:
    """For a root, the forms that hunspell-it's regular -ere rules make and the verb does not have (rules/it.toml:
    tenere gives TENO, TENA, TENERÒ, but the verb has tengo, tenga, terrò)."""
    data = language_rules("it")["irregular_verbs"]
    endings, verbs, regular, words = data["endings"], data["verbs"], set(data["regular"]), set(data["words"])

    def wrong_forms(root: str) -> set[str]:
        verb = next((verb for verb in verbs if root.endswith(verb)), None)
        if verb is None or root in regular:
            return set()
        stem = root[: -len("ere")]
        forms = {stem + ending for group in verbs[verb] for ending in endings[group]}
        return {form for form in forms if normalize_word(form) not in words}

    return wrong_forms


ITALIAN_FLAGLESS_REVIEW = ROOT / "dictionaries" / "review" / "it-flagless.tsv"


def italian_flagless_review() -> dict[str, tuple[str, str]]:
    """The review of hunspell-it's lower-case roots without affix flags: root -> (verdict, reason)."""
    lines = ITALIAN_FLAGLESS_REVIEW.read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if line and not line.startswith(("#", "root\t"))]
    return {row[0]: (row[2], row[3]) for row in rows}


def without_reviewed_flagless_roots(build: Build, entries: list[Entry]) -> list[Entry]:
    """The roots, less the lower-case roots without flags that the review (review/it-flagless.tsv) found junk:
    hunspell-it lists some 15,000 such roots, among them names (tanabe, impellitteri) and typing errors
    (supplememto). A flagless root nobody reviewed yet stays, and is printed to be reviewed."""
    review = italian_flagless_review()
    kept, unreviewed = [], []
    for entry in entries:
        verdict = review.get(entry.root, ("", ""))[0] if not entry.flags and entry.root.islower() else "ok"
        if verdict == "junk":
            build.drop(f"flagless root reviewed junk (review/it-flagless.tsv): {review[entry.root][1]}", 1, entry.root)
            continue
        if verdict == "" and entry.root.isalpha():
            unreviewed.append(entry.root)
        kept.append(entry)
    if unreviewed:
        build.notes.append(
            f"{len(unreviewed)} flagless roots not in review/it-flagless.tsv (those whose word is "
            f"dropped anyway are not listed there): {' '.join(unreviewed[:12])} ..."
        )
    return kept


def without(keep: Callable[[Entry, Rule], bool], leave_out: Callable[[Rule], bool]) -> Callable[[Entry, Rule], bool]:
    """A rule filter that also leaves out some rules."""
    return lambda entry, rule: keep(entry, rule) and not leave_out(rule)


def drop_forms_only_made_by(
    build: Build,
    reason: str,
    entries: Iterable[Entry],
    affixes: Affixes,
    keep: Callable[[Entry, Rule], bool],
    leave_out: Callable[[Rule], bool],
) -> None:
    """Count as dropped the forms that only the rules left out make."""
    fewer = without(keep, leave_out)
    for entry in entries:
        forms = expand(entry, affixes, keep) - expand(entry, affixes, fewer)
        if forms:
            build.drop(reason, len(forms), min(forms))


# Spanish: aspell-es keeps its enclitic forms in flags of their own, and as roots that are an imperative with
# a pronoun (acábame/AC, obcécalo/BDPS). The flags A-F are the rules for such roots (A C E F for roots in
# -me: acábate, acábanos, dígame, acábamelo ...; B D for roots in -lo: acábala, acábelo, hágalo ...), but the
# dictionary gives the same B and D to words in -lo that are no pronoun forms (pueblo/BDPS, lo/BDMPS, ello/BDPS),
# where their first five rules make the plural and the forms of the verb in -lar (pueblos; puebla, pueblas, pueble,
# puebles; los, la, las, le, les). So a root is a pronoun form by what it is, not by its flags (SPANISH_RULES), and
# the other roots keep only those five rules of B and D.
# Issue 23: an imperative with its pronouns is what a player types (dígame, hazlo, ponte, dámelo, sentaos,
# hagámoslo): such roots keep all their forms, and of the pronoun flags of verbs the rules that make the
# vosotros and nosotros imperatives (sentaos, decidme, comedlo; sentémonos, hagámoslo). Infinitives and gerunds
# with pronouns (comerlo, diciéndoselo) stay out, as in Italian: they are seldom what a player traces.
SPANISH_PRONOUN_FLAGS = set("RrtuoqzTUOQZ")  # infinitive, gerund, imperative + me/te/se/nos/os/lo/la/le...


def spanish_imperative_rule(rule: Rule) -> bool:
    """Whether a rule of a pronoun flag makes an imperative with pronouns (sentaos, decidme, sentémonos,
    hagámoslo), not an infinitive (sentaros, dármelo) or a gerund (sentándome) with them."""
    add = plain_letters(rule.add)
    if "ndo" in add:
        return False
    if "mos" in add:  # nosotros: sent-émonos, hag-ámoslo, hag-ámonoslo
        return True
    # vosotros: sentar -> senta-d-me, senta-os; partir -> part-íos
    return rule.strip.endswith("r") and (add.startswith("d") or add in ("os", "ios"))


@dataclass(frozen=True)
class SpanishRules:
    """Which aspell-es roots are an imperative with an enclitic pronoun, and which rules the others keep."""

    clitic_root_flags: frozenset[str]  # flags only an imperative + pronoun root (or a word in -lo/-me) carries
    clitic_endings: tuple[str, ...]  # the pronoun it ends in (-lo, -me)
    unaccented_endings: tuple[str, ...]  # imperatives of one syllable in a compound: compónlo is written componlo
    unaccented_roots: frozenset[str]  # one-syllable imperatives + pronoun: dalo, dime, veme
    word_flags_kept: frozenset[str]  # of those flags, the ones a word in -lo keeps (plural, verb in -lar)
    word_rules_kept: frozenset[tuple[str, str]]  # (strip, add) of the rules it keeps: lo -> los, la, las, le, les

    def is_clitic_root(self, entry: Entry) -> bool:
        """Whether an aspell-es root is an imperative with a pronoun (abandónalo, dame, ponlo), not a word."""
        if not entry.flags & self.clitic_root_flags or not entry.root.endswith(self.clitic_endings):
            return False
        accented = plain_letters(entry.root) != entry.root
        return accented or entry.root.endswith(self.unaccented_endings) or entry.root in self.unaccented_roots

    def keeps(self, entry: Entry, rule: Rule) -> bool:
        """Whether a rule applies to a root that is a word (not a pronoun form)."""
        if rule.flag in SPANISH_PRONOUN_FLAGS:
            return spanish_imperative_rule(rule)
        if rule.flag not in self.clitic_root_flags:
            return True
        return rule.flag in self.word_flags_kept and (rule.strip, rule.add) in self.word_rules_kept


def spanish_rules() -> SpanishRules:
    """The Spanish build rules of `dictionaries/rules/es.toml`."""
    data = language_rules("es")["clitic_roots"]
    return SpanishRules(
        frozenset(data["flags"]),
        tuple(data["endings"]),
        tuple(data["unaccented_endings"]),
        frozenset(data["unaccented_roots"]),
        frozenset(data["word_flags_kept"]),
        frozenset((strip, add) for strip, add in data["word_rules_kept"]),
    )


def build_spanish() -> Build:
    """Spanish from aspell-es: imperatives with their pronouns in, infinitives and gerunds with pronouns out,
    and the English words that are no Spanish words (rules/es.toml [foreign_roots]) out."""
    affixes = read_affixes(require(ASPELL / "es_affix.dat", "aspell-es"))
    rules = spanish_rules()
    foreign = language_rules("es").get("foreign_roots", {})
    reason = "infinitive or gerund with enclitic pronoun(s) (comerlo, diciéndoselo)"
    build = Build()
    words, imperatives = [], []
    for entry in aspell_master("es"):
        if entry.root in foreign:
            build.drop(
                "English word, no Spanish one (rules/es.toml [foreign_roots])", len(expand(entry, affixes)), entry.root
            )
        elif rules.is_clitic_root(entry):
            imperatives.append(entry)
        else:
            words.append(entry)
    drop_forms_only_made_by(
        build, reason, words, affixes, lambda entry, rule: True, lambda rule: not rules.keeps(None, rule)
    )
    expand_entries(build, words, affixes, rules.keeps)
    expand_entries(build, imperatives, affixes)
    return build


# French: Dicollecte tags every root with its part of speech; proper nouns, first names, family names,
# titles (Mme), Roman numerals, prefixes and misspellings kept for the grammar checker are left out.
FRENCH_DROPPED_TAGS = {
    "npr": "proper noun (po:npr)",
    "prn": "first name (po:prn)",
    "patr": "family name (po:patr)",
    "titr": "title abbreviation (po:titr)",
    "nbro": "Roman numeral (po:nbro)",
    "pfx": "prefix (po:pfx)",
    "sfx": "suffix (po:sfx)",
    "err": "common error (po:err)",
}


# Dicollecte marks units and symbols with flags: "U." takes the SI prefixes (kat: akat, nkat, Mkat; mol: kmol),
# "||" and "--" mark a symbol (oz, yd, ua, ha for hectare). Such a root and every form it makes are no words;
# the same spelling stays when another root is a word (ha, the interjection).
FRENCH_SYMBOL_FLAGS = {"U.", "||", "--"}


def build_french() -> Build:
    """French from hunspell-fr (Dicollecte, comprehensive: classic and 1990 reformed spellings)."""
    affixes = read_affixes(require(HUNSPELL / "fr.aff", "hunspell-fr-comprehensive"))
    build = Build()
    kept = []
    for entry in read_entries(HUNSPELL / "fr.dic", affixes):
        tags = set(re.findall(r"po:(\w+)", entry.morph))
        dropped = sorted(tags & set(FRENCH_DROPPED_TAGS))
        if dropped:
            build.drop(FRENCH_DROPPED_TAGS[dropped[0]], len(expand(entry, affixes)), entry.root)
        elif entry.flags & FRENCH_SYMBOL_FLAGS:
            build.drop(
                "unit or symbol (Dicollecte's flags U. || --: kat, akat, kmol, oz, yd)",
                len(expand(entry, affixes)),
                entry.root,
            )
        elif not VOWELS & set(plain_letters(entry.root).lower()):
            build.drop("no vowel (abbreviation or unit)", len(expand(entry, affixes)), entry.root)
        else:
            kept.append(entry)
    expand_entries(build, kept, affixes)
    return build


# German: nouns are capitalised, so a capital letter cannot tell a proper noun. A capitalised root of
# igerman98 is taken for a proper noun when a list of names has it and nothing shows it to be a noun.
GERMAN_NOUN_FLAGS = set("NEPRpFTJ")  # aspell-de: plural endings (-n -e -en -er, umlauts), female -in, genitive -es
GERMAN_COMPOUND_START_FLAGS = {"i", "j"}  # hunspell-de-de: may start a compound (Handschuh)
# Compounds whose first part only says where or when (Ostberlin, Nachkriegsdeutschland) show no common noun.
PLACE_QUALIFIER = re.compile(
    r"(ost|west|nord|süd|mittel|gesamt|groß|alt|neu|ober|unter|nieder|inner|außer|rest"
    r"|zentral|klein|vorder|hinter|nachkriegs|vorkriegs|national|trans)-?"
)
LINKING_ENDINGS = ("s", "es", "n", "en", "er", "e")
# Corrections by hand, where the tests above go wrong on words a player meets (dictionaries/README.md gives the
# samples they come from): names no list has, that inflect like nouns (continents, seas, rivers, regions, cities,
# first names, planets), and common nouns that a names list has and that show no plural or compound.
GERMAN_NAMES_BY_HAND = frozenset(
    """
    Europa Afrika Amerika Asien Arktis Ozeanien Alpen Schwarzwald Nordsee Ostsee Mittelmeer Atlantik Pazifik
    Rhein Donau Elbe Isar Neckar Spree Stuttgart London Prag Bern Rostock Trier
    Peter Johann Jesu Christus Saturn Merkur""".split()
)
GERMAN_NOUNS_BY_HAND = frozenset(
    """
    Cognac Podcast Eichhorn Eskimo Filius Puma Nacken Pest Magie Gips Wucher Karo""".split()
)
INHABITANT_ENDINGS = ("er", "ern", "ers")  # a name by hand keeps its people: London: Londoner, Londonern


@dataclass
class GermanNames:
    """Names from other packages, and the evidence in the German list that a capitalised word is a noun."""

    names: set[str]
    places: set[str]
    hunspell_flags: dict[str, frozenset[str]]
    reversed_words: list[str]
    capitalised: set[str]
    lower: set[str]

    def is_proper_noun(self, root: str, flags: frozenset[str]) -> bool:
        """Whether a capitalised root is a name: listed as one, and neither inflected nor compounded as a noun."""
        if root in GERMAN_NAMES_BY_HAND or root in GERMAN_NOUNS_BY_HAND:
            return root in GERMAN_NAMES_BY_HAND
        place = root in self.places
        if not (place or root in self.names) or flags & GERMAN_NOUN_FLAGS:
            return False
        if self.compounds_ending_in(root):
            return False
        # places start compounds too (Deutschlandreise), so this shows a noun only for other names
        return place or not self.hunspell_flags.get(root, frozenset()) & GERMAN_COMPOUND_START_FLAGS

    def compounds_ending_in(self, root: str) -> int:
        """How many words end in this one after a first part that is itself a word (Großstadt, Rotkohl)."""
        tail = root.lower()[::-1]
        count = 0
        index = bisect.bisect_left(self.reversed_words, tail)
        while index < len(self.reversed_words) and self.reversed_words[index].startswith(tail):
            first = self.reversed_words[index][len(tail) :][::-1]
            if len(first) >= 4 and not PLACE_QUALIFIER.fullmatch(first) and self.is_compound_part(first, len(root)):
                count += 1
            index += 1
        return count

    def is_compound_part(self, first: str, head_length: int) -> bool:
        """Whether a word's first part is a word (with a linking -s-, -en- ...) that is not a name."""
        stems = [first] + [first[: -len(end)] for end in LINKING_ENDINGS if first.endswith(end)]
        # a short head hides in verb forms (Sendest|rom): it needs a noun before it
        known = self.capitalised if head_length < 4 else self.capitalised | self.lower
        return any(stem in known and stem.capitalize() not in self.names for stem in stems)


def towns_with_inhabitants(roots: dict[str, frozenset[str]]) -> set[str]:
    """Uninflected capitalised roots whose inhabitants the list names (Köln: Kölner, München: Münchner).

    Nouns in -ik name their people too (Physik: Physiker), and so do verbs (Trab: Traber, from traben):
    those are left out.
    """
    verbs = {root for root in roots if root.islower() and root.endswith("en")}
    towns = set()
    for root, flags in roots.items():
        if not (root[:1].isupper() and root[1:].islower()) or flags - {"S"} or root.endswith(("ik", "ika")):
            continue
        stems = [root] + [root[: -len(end)] for end in ("e", "a", "en") if root.endswith(end)]
        for stem in stems:
            person = stem + ("ner" if stem != root and root.endswith("en") else "er")
            lower = stem.lower()
            from_verb = any(lower[i:] + "en" in verbs or lower[i:] + "n" in verbs for i in range(len(lower) - 2))
            if "F" in roots.get(person, frozenset()) and not from_verb:
                towns.add(root)
    return towns


def german_names(forms: Iterable[str], roots: dict[str, frozenset[str]]) -> GermanNames:
    """The name lists and the German list's own evidence, for telling names from nouns."""
    names = scowl_proper_names(70) | french_names() | italian_names() | dutch_names()
    hunspell = read_affixes(require(HUNSPELL / "de_DE.aff", "hunspell-de-de"))
    flags: dict[str, frozenset[str]] = {}
    for entry in read_entries(HUNSPELL / "de_DE.dic", hunspell):
        flags[entry.root] = flags.get(entry.root, frozenset()) | entry.flags
    forms = set(forms)
    return GermanNames(
        names,
        iso_country_names("de") | towns_with_inhabitants(roots),
        flags,
        sorted({f.lower()[::-1] for f in forms}),
        {f.lower() for f in forms if f[:1].isupper() and f[1:].islower()},
        {f for f in forms if f.islower()},
    )


def scowl_proper_names(size: int) -> set[str]:
    """SCOWL's proper names up to a size (larger sizes also hold foreign common nouns: Sehnsucht, Bratwurst)."""
    require(SCOWL_DIR, "scowl")
    return {
        name
        for path in SCOWL_DIR.glob("*-proper-names.*")
        if int(path.suffix[1:]) <= size
        for name in path.read_text(encoding="latin-1").split()
    }


def french_names() -> set[str]:
    """Dicollecte's proper nouns, first names and family names."""
    affixes = read_affixes(require(HUNSPELL / "fr.aff", "hunspell-fr-comprehensive"))
    return {
        entry.root
        for entry in read_entries(HUNSPELL / "fr.dic", affixes)
        if re.search(r"po:(npr|prn|patr)\b", entry.morph)
    }


def italian_names() -> set[str]:
    """The capitalised roots of the Italian dictionary (places, people: Abano, Abbado)."""
    affixes = read_affixes(require(HUNSPELL / "it_IT.aff", "hunspell-it"))
    return {entry.root for entry in read_entries(HUNSPELL / "it_IT.dic", affixes) if entry.root[:1].isupper()}


# Dutch: OpenTaal's list has, among its words, entries of a single form that its own Hunspell dictionary (same
# release, `hunspell-nl`) gives no affix flag or does not make at all: parts of foreign phrases (pocus, capita,
# aequo), names and places in lower case (belg, robert, ceylon), abbreviations (febr, heao), old case forms used
# only in a fixed phrase (ter kerke, te berde: KERKE, BERDE) and entries no reader knows (geling, bandel). Those of
# 4 to 6 letters, the words a player traces most, were read one by one (review/nl-flagless.tsv): the junk is out.
# Its roots with affix flags that take part in no compound and whose forms wordfreq does not know hold the dialect
# words no reader knows (djak, fattig, herig): read one by one too (review/nl-rare-roots.tsv), the junk goes with all
# its forms.
DUTCH_FLAGLESS_REVIEW = ROOT / "dictionaries" / "review" / "nl-flagless.tsv"
DUTCH_ROOTS_REVIEW = ROOT / "dictionaries" / "review" / "nl-rare-roots.tsv"
DUTCH_REVIEWED_LENGTHS = range(4, 7)


def build_dutch() -> Build:
    """The Dutch board words from OpenTaal's list, less the single-form words and the roots reviewed junk."""
    build = build_word_list(DICT / "dutch", "wdutch")
    roots_of = dutch_hunspell_roots()
    words_review = read_review(DUTCH_FLAGLESS_REVIEW)
    junk = dutch_reviewed_junk(build.words, roots_of, words_review, read_review(DUTCH_ROOTS_REVIEW))
    for word, reason in sorted(junk.items()):
        build.take_out(word, reason)
    by_hand = set(language_rules("nl").get("remove", {}))  # reviewed there, each with its reason
    single_form = {
        word
        for word in build.words
        if len(word) in DUTCH_REVIEWED_LENGTHS and not any(flagged for _, flagged in roots_of.get(word, ()))
    }
    unreviewed = sorted(single_form - words_review.keys() - by_hand)
    if unreviewed:
        build.notes.append(
            f"{len(unreviewed)} single-form words of 4-6 letters not in review/nl-flagless.tsv: "
            f"{' '.join(unreviewed[:12])} ..."
        )
    return build


def dutch_reviewed_junk(
    words: set[str],
    roots_of: dict[str, set[tuple[str, bool]]],
    words_review: dict[str, tuple[str, str]],
    roots_review: dict[str, tuple[str, str]],
) -> dict[str, str]:
    """The words the two Dutch reviews leave out, with why: a single-form word reviewed junk, and a form whose every
    root (root/flags: beier the noun and beier the verb are two) was reviewed junk; a form a kept root makes stays."""
    junk = {
        word: f"single-form entry reviewed junk (review/nl-flagless.tsv): {reason}"
        for word, (verdict, reason) in words_review.items()
        if verdict == "junk" and word in words
    }
    junk_roots = {root for root, (verdict, _) in roots_review.items() if verdict == "junk"}
    for word in words - junk.keys():
        roots = {root for root, _ in roots_of.get(word, ())}
        if roots and roots <= junk_roots:
            junk[word] = f"form of a root reviewed junk (review/nl-rare-roots.tsv): {roots_review[min(roots)][1]}"
    return junk


def read_review(path: Path) -> dict[str, tuple[str, str]]:
    """A review table (first column the word or root, then its verdict and reason): key -> (verdict, reason)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if line and not line.startswith("#")).split("\t")
    verdict, reason = header.index("verdict"), header.index("reason")
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")][1:]
    return {row[0]: (row[verdict], row[reason]) for row in rows}


def dutch_hunspell_roots() -> dict[str, set[tuple[str, bool]]]:
    """Which lower-case roots of hunspell-nl (OpenTaal's Hunspell dictionary) make each word through their affix
    rules (compounding left out): word -> {(root/flags as review/nl-rare-roots.tsv writes it, whether it has flags)}."""
    affixes = read_affixes(require(HUNSPELL / "nl.aff", "hunspell-nl"))
    roots_of: dict[str, set[tuple[str, bool]]] = collections.defaultdict(set)
    for entry in read_entries(HUNSPELL / "nl.dic", affixes):
        if entry.root[:1].islower():
            for form in expand(entry, affixes):
                word = normalize_word(form)
                if word:
                    key = f"{entry.root}/{''.join(sorted(entry.flags))}" if entry.flags else entry.root
                    roots_of[word].add((key, bool(entry.flags)))
    return roots_of


def dutch_names() -> set[str]:
    """Entries of the Dutch list that only appear capitalised (its nouns are lower case: München, Donau)."""
    entries = set(require(DICT / "dutch", "wdutch").read_text(encoding="utf-8").splitlines())
    lower = {entry for entry in entries if entry[:1].islower()}
    return {
        entry
        for entry in entries
        if entry[:1].isupper() and entry[1:].islower() and entry.isalpha() and entry.lower() not in lower
    }


def iso_country_names(language: str) -> set[str]:
    """Country and region names (ISO 3166-1 and -2) in a language, from the iso-codes package."""
    names = set()
    for domain in ("iso_3166-1", "iso_3166-2"):
        data = json.loads(require(Path(f"/usr/share/iso-codes/json/{domain}.json"), "iso-codes").read_text())
        translation = gettext.translation(domain, "/usr/share/locale", [language], fallback=True)
        for item in next(iter(data.values())):
            names.update(translation.gettext(item[key]) for key in ("name", "common_name") if key in item)
    return names


def german_reason_to_drop(form: str) -> str | None:
    """Why a German form is not a board word (capitalised nouns are fine; LehrerIn, StarOffice are not)."""
    reason = reason_to_drop(form, capitals_allowed=True)
    if reason is None and any(ch.isupper() for ch in form[1:]):
        return "capital inside the word (gender form LehrerIn, brand)"
    return reason


def build_german() -> Build:
    """German from aspell-de (igerman98), without proper nouns, abbreviations and gender forms."""
    affixes = read_affixes(require(ASPELL / "de_affix.dat", "aspell-de"))
    entries = list(aspell_master("de"))
    forms = {entry: expand(entry, affixes) for entry in entries}
    names = german_names(
        (form for expanded in forms.values() for form in expanded), {entry.root: entry.flags for entry in entries}
    )
    build = Build()
    reviewed = german_reviewed_names()
    nouns: dict[str, set[str]] = {}  # a noun's word -> its forms (Tür: TUR, TUREN)
    for entry, expanded in forms.items():
        capitalised = entry.root[:1].isupper() and entry.root[1:].islower()
        if reviewed.get(entry.root) == "junk":
            build.drop("name read in the review (review/de-names.tsv)", len(expanded), entry.root)
            continue
        if capitalised and names.is_proper_noun(entry.root, entry.flags):
            inhabitants = (
                [form for form in expanded if form[len(entry.root) :] in INHABITANT_ENDINGS]
                if entry.root in GERMAN_NAMES_BY_HAND
                else []
            )
            build.drop(
                "proper noun (in a names list, not inflected or compounded as a noun)",
                len(expanded) - len(inhabitants),
                entry.root,
            )
            expanded = inhabitants  # a name's people are common nouns (Londoner from London, Prager from Prag)
        for form in expanded:
            build.offer(form, german_reason_to_drop(form))
        noun = normalize_word(entry.root)
        if capitalised and noun in build.words:  # a noun the name tests kept (Haus, Zimmer: also family names)
            nouns[noun] = {w for w in map(normalize_word, expanded) if w in build.words}
    for singular, plural in german_reviewed_compounds():
        if singular not in build.words:
            build.words.add(singular)
            build.added["compound singular, reviewed (review/de-compounds.tsv)"] += 1
            # the plural's spelling less its ending (Hausaufgaben: Hausaufgabe; Blutgefäße: Blutgefäß)
            build.spellings[singular] = {
                spelling[:end]
                for spelling in build.spellings.get(plural, ())
                for end in range(len(spelling), 0, -1)
                if normalize_word(spelling[:end]) == singular
            }
    add_frequent_compounds(
        build,
        nouns,
        {normalize_word(name) for name in names.names if normalize_word(name)},
        {
            normalize_word(form)
            for entry, expanded in forms.items()
            if entry.root[:1].islower()
            for form in expanded
            if normalize_word(form)
        },
    )
    return build


# Issue 23: compounds of two frequent nouns (Türklingel, Handtuch, Schulhof). German writes any two nouns as one
# word; igerman98 lists the common ones but not all that a player tries. A compound is added, with every form of
# its last noun (Türklingel, Türklingeln), when both nouns are dictionary nouns that are common (wordfreq Zipf
# >= COMMON_NOUN_ZIPF, as in ruzzle/data/frequency) and wordfreq knows the compound itself (Zipf >=
# COMPOUND_ZIPF): a compound people write, not one the rule invents. Names that split into two nouns (Mannheim,
# Wolfsburg, Bergmann) are left out when a names list has them, and so is what the review found junk
# (rules/de.toml [compound_junk]). Every compound added is listed in review/de-frequent-compounds.tsv.
COMMON_NOUN_ZIPF = 3.0
COMPOUND_ZIPF = 2.0
GERMAN_LINKS = ("", "S", "ES", "N", "EN", "ER", "E")
# the inflections of a head noun that a compound takes (Land: Landes, Länder, Ländern; not Landung, a word of its own)
GERMAN_NOUN_ENDINGS = ("", "S", "ES", "E", "EN", "N", "ER", "ERN", "NEN", "SE", "SEN")
FREQUENT_COMPOUNDS = ROOT / "dictionaries" / "review" / "de-frequent-compounds.tsv"


def add_frequent_compounds(build: Build, nouns: dict[str, set[str]], names: set[str], other_words: set[str]) -> None:
    """Add the compounds of two common nouns that wordfreq knows (see COMPOUND_ZIPF), with the forms of the head;
    `other_words` are the forms of the roots that are no nouns (verbs, adjectives)."""
    zipf = wordfreq_zipf("de")
    common = {noun for noun in nouns if zipf.get(noun, 0) >= COMMON_NOUN_ZIPF}
    head_of = collections.defaultdict(set)  # a form of a common noun -> the nouns that have it
    for noun in common:
        for form in nouns[noun]:
            head_of[form].add(noun)
    junk = set(language_rules("de").get("compound_junk", {}))
    rows = []
    for word, frequency in sorted(zipf.items()):
        if frequency < COMPOUND_ZIPF or len(word) < 7 or word in build.words or word in names or word in junk:
            continue
        split = german_compound_split(word, common, head_of, other_words)
        if split is None:
            continue
        first, head = split
        forms = {word[: len(first)] + form for form in nouns[head] if form[len(head) :] in GERMAN_NOUN_ENDINGS} | {word}
        new = sorted(form for form in forms if form not in build.words and form not in junk)
        build.words.update(new)
        noun, link = german_first_noun(first, common) or (first, "")
        build.compounds.update((form, (noun, link, form[len(first) :])) for form in new)
        build.added["compound of two common nouns that wordfreq knows (review/de-frequent-compounds.tsv)"] += len(new)
        rows.append(f"{word}\t{first}\t{head}\t{frequency:.2f}\t{' '.join(new)}")
    FREQUENT_COMPOUNDS.write_text(
        "# Compounds of two common nouns that wordfreq 3.1.1 knows, added by tools/build_dictionaries.py de "
        "(issue 23)\n"
        "compound\tfirst part\thead noun\tzipf\tforms added\n" + "".join(row + "\n" for row in rows),
        encoding="utf-8",
    )


# Heads that make place names more often than words (Hasenberg, Wachendorf, Lippetal, Wolfsburg, Obernheim): a
# compound on them is left out (the common ones, Weinberg, Regenwald, are in igerman98 already).
GERMAN_PLACE_HEADS = {
    "BERG",
    "DORF",
    "TAL",
    "BURG",
    "HEIM",
    "FELD",
    "BACH",
    "STEIN",
    "WALD",
    "HAUSEN",
    "BRUNN",
    "AU",
    "WIND",
    "STRASSE",
    "WERK",
    "HOF",
    "HOFEN",
    "KIRCHEN",
    "WEILER",
    "MUHLE",
    "BRUCK",
    "SEE",
    "FELS",
    "HALL",
    "DEUTSCHLAND",
}


def german_compound_split(
    word: str, common: set[str], head_of: dict[str, set[str]], other_words: set[str]
) -> tuple[str, str] | None:
    """(first part as written, head noun) when the word is a common noun (plus a linking -s-, -en-, ...) and a form
    of another common noun; the longest head wins (Haus|tür, not Hau|stür). A head form that is also a verb or an
    adjective form and not the noun's own nominative (fest|hängen, hirn|losen, rum|gefahren) shows no compound, and
    nor does a head that is an infinitive used as a noun (Garde|legen, Witz|leben, rum|springen: places and
    verbs)."""
    for cut in range(3, len(word) - 2):
        first, rest = word[:cut], word[cut:]
        heads = head_of.get(rest)
        if not heads:
            continue
        if german_first_noun(first, common):
            head = (
                rest if rest in heads else max(heads, key=lambda noun: (len(os.path.commonprefix([noun, rest])), noun))
            )
            nominalised_verb = head.endswith("EN") and head in other_words  # das Legen, das Leben
            if GERMAN_PLACE_HEADS & {head, rest} or nominalised_verb or (rest != head and rest in other_words):
                return None
            return first, head
    return None


def german_first_noun(first: str, common: set[str]) -> tuple[str, str] | None:
    """(noun, linking letters) when a compound's first part is a common noun, with a linking -s-, -en- ... or none."""
    for link in GERMAN_LINKS:
        noun = first[: len(first) - len(link)]
        if first.endswith(link) and noun in common:
            return noun, link
    return None


def wordfreq_zipf(code: str) -> dict[str, float]:
    """wordfreq's large list of a language, folded to board words (frequencies of one word's spellings added), as
    Zipf values; needs wordfreq (tools/build_frequencies.py installs it in its own virtual environment)."""
    from build_frequencies import WORDFREQ_VERSION, ensure_wordfreq

    ensure_wordfreq()
    import math
    from importlib.metadata import version

    import wordfreq

    if version("wordfreq") != WORDFREQ_VERSION:
        sys.exit(f"wordfreq {WORDFREQ_VERSION} is needed, not {version('wordfreq')}")
    folded: dict[str, float] = collections.defaultdict(float)
    for entry, frequency in wordfreq.get_frequency_dict(code, wordlist="large").items():
        word = normalize_word(entry)
        if word:
            folded[word] += frequency
    return {word: math.log10(frequency * 1e9) for word, frequency in folded.items()}


GERMAN_COMPOUND_REVIEW = ROOT / "dictionaries" / "review" / "de-compounds.tsv"
GERMAN_NAMES_REVIEW = ROOT / "dictionaries" / "review" / "de-names.tsv"


def german_reviewed_names() -> dict[str, str]:
    """Capitalised roots that inflect like a name, read one by one (review/de-names.tsv): root -> ok or junk."""
    lines = GERMAN_NAMES_REVIEW.read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if line and not line.startswith(("#", "root\t"))]
    return {row[0]: row[1] for row in rows}


def german_reviewed_compounds() -> list[tuple[str, str]]:
    """The singulars of compound plurals that a reviewer marked ok, with their plural (HAUSAUFGABE, HAUSAUFGABEN)."""
    lines = GERMAN_COMPOUND_REVIEW.read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines if line and not line.startswith(("#", "singular\t"))]
    return [(row[0], row[1]) for row in rows if row[3:4] == ["ok"]]


# --------------------------------------------------------------------------------------------------------


def language_rules(language: str) -> dict:
    """A language's build rules and reviewed words (`dictionaries/rules/<lang>.toml`; empty if none)."""
    path = RULES_DIR / f"{language}.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def short_words_review(language: str) -> tuple[set[str], dict[str, str]]:
    """The reviewed words of 2 and 3 letters (`dictionaries/short/<lang>.toml`): allowed, and denied with why."""
    path = SHORT_DIR / f"{language}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    allowed = {word for line in data.get("allow", []) for word in line.split()}
    return allowed, dict(data.get("deny", {}))


def apply_reviews(build: Build, language: str) -> None:
    """The reviewed lists, after the source's own rules: words added and removed by hand (each with its
    reason, rules/<lang>.toml), and the review of every word of 2 and 3 letters (short/<lang>.toml): a denied
    word goes, and a short word nobody reviewed goes too (the build lists them, to be reviewed)."""
    rules = language_rules(language)
    take_out = build.take_out
    for word, reason in rules.get("add", {}).items():
        if word in build.words:
            build.notes.append(f"rules/{language}.toml adds {word}, which the source already has (remove it)")
            continue
        build.words.add(word)
        build.spellings[word] = spellings_named(reason, word)
        build.added[f"added by hand (rules/{language}.toml)"] += 1
    for word, reason in rules.get("modern", {}).items():  # issue 23: everyday modern words, each with its source
        if word in build.words:
            build.notes.append(f"rules/{language}.toml [modern] has {word}, which the source already has (remove it)")
            continue
        build.words.add(word)
        build.spellings[word] = spellings_named(reason, word)
        build.added[f"modern word, from the language's reference dictionary (rules/{language}.toml [modern])"] += 1
    for word, _reason in rules.get("remove", {}).items():
        if word not in build.words:
            build.notes.append(f"rules/{language}.toml removes {word}, which the build does not have (remove it)")
            continue
        take_out(word, f"removed by hand (rules/{language}.toml)")
    allowed, denied = short_words_review(language)
    stale = sorted(allowed & set(denied))
    if stale:
        sys.exit(f"short/{language}.toml both allows and denies {stale}")
    for word in sorted(w for w in build.words if len(w) in SHORT_LENGTHS):
        if word in denied:
            take_out(word, "short word denied in the review (short/<lang>.toml)")
        elif word not in allowed:
            build.unreviewed.append(word)
            take_out(word, "short word not reviewed yet (short/<lang>.toml)")


def spellings_named(reason: str, word: str) -> set[str]:
    """The spellings of a word added by hand that its reason names (VAMONOS: "vámonos: the imperative of irse"), or
    else the longest named spelling of its beginning, the rest in lower case (HASHTAGS: "Hashtag, der": Hashtags)."""
    tokens = re.findall(r"[^\W\d_]+", reason)
    named = {token for token in tokens if normalize_word(token) == word}
    starts = [token for token in tokens if len(token) >= 4 and word.startswith(normalize_word(token) or "-")]
    if named or not starts:
        return named
    start = max(starts, key=len)
    return {start + word[len(normalize_word(start) or "") :].lower()}


# Everyday spellings (issue 33) ---------------------------------------------------------------------------------
# A board word folds its spellings together (año and ano are ANO); a link to the word's page needs the one the
# language writes: the most frequent of the source's spellings (wordfreq). wordfreq case-folds (ß to ss too), so
# German's Essen and essen, Straße and Strasse tie: the capitalised noun's page wins (no frequency can tell them
# apart, and German Wiktionary's noun page points to the lower-case one), then the spelling with the letters the board
# lost (dictionaries/spellings/README.md).


def choose_spelling(word: str, spellings: Iterable[str], frequency: Callable[[str], float]) -> str:
    """The everyday spelling of a word among the source's: the most frequent, then a capitalised noun, then one with
    the accents or letters the board lost, then the first in code-point order; the word in lower case if none."""
    plain = word.lower()
    ranked = sorted(spellings, key=lambda s: (-frequency(s), not s[:1].isupper(), s.lower() == plain, s))
    return unicodedata.normalize("NFC", ranked[0]) if ranked else plain


def everyday_spellings(build: Build, language: str) -> dict[str, str]:
    """Each kept word's everyday spelling where it is not the word in lower case (ANO: año, MADCHEN: Mädchen); a
    compound the build adds is spelled from its parts (TURKLINGELN: Tür + klingeln)."""
    frequency = wordfreq_frequency(language)
    chosen = {
        word: choose_spelling(word, spellings, frequency if len(spellings) > 1 else lambda s: 0.0)
        for word, spellings in build.spellings.items()
    }
    for compound, (noun, link, head) in build.compounds.items():
        if not build.spellings.get(compound):
            joined = chosen.get(noun, noun.lower()) + link.lower() + chosen.get(head, head).lower()
            chosen[compound] = joined[:1].upper() + joined[1:]
    wrong = sorted(word for word, spelling in chosen.items() if normalize_word(spelling) != word)
    if wrong:
        sys.exit(f"spellings that do not fold back to their word: {wrong[:12]}")
    return {word: chosen[word] for word in sorted(build.words) if chosen.get(word, word.lower()) != word.lower()}


def wordfreq_frequency(code: str) -> Callable[[str], float]:
    """How often wordfreq's large list of a language has a spelling (0.0 where it does not know it)."""
    from build_frequencies import WORDFREQ_VERSION, ensure_wordfreq

    ensure_wordfreq()
    from importlib.metadata import version

    import wordfreq

    if version("wordfreq") != WORDFREQ_VERSION:
        sys.exit(f"wordfreq {WORDFREQ_VERSION} is needed, not {version('wordfreq')}")
    return lambda spelling: wordfreq.word_frequency(spelling, code, wordlist="large")


def require(path: Path, package: str) -> Path:
    """The path, or exit with the package that provides it."""
    if not path.exists():
        sys.exit(f"{path} is missing: apt-get install -y {package}")
    return path


BUILDERS: dict[str, Callable[[], Build]] = {
    "en": build_english,
    "it": build_italian,
    "es": build_spanish,
    "fr": build_french,
    "de": build_german,
    "nl": build_dutch,
    "pt": lambda: build_word_list(DICT / "portuguese", "wportuguese"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", choices=sorted(BUILDERS))
    parser.add_argument("-o", "--output", type=Path, help="default: dictionaries/<lang>.marisa")
    parser.add_argument(
        "--spellings",
        type=Path,
        nargs="?",
        const=SPELLINGS_DIR,
        help="also write the words' everyday spellings (default: dictionaries/spellings/<lang>.marisa)",
    )
    args = parser.parse_args(argv)
    if args.language == "de" or args.spellings:  # these read wordfreq: run in the tool's environment from the start
        from build_frequencies import ensure_wordfreq

        ensure_wordfreq()
    build = BUILDERS[args.language]()
    apply_reviews(build, args.language)
    output = args.output or ROOT / "dictionaries" / f"{args.language}.marisa"
    Lexicon.from_words(build.words).save(output)
    duplicates = build.considered - sum(build.dropped.values()) - len(build.words) + sum(build.added.values())
    print(f"{args.language}: {build.considered} entries read, {len(build.words)} distinct words kept")
    for note in build.notes:
        print(f"  {note}")
    for reason, count in build.dropped.most_common():
        print(f"  dropped {count:8d}: {reason}: {' '.join(build.examples.get(reason, []))}")
    print(f"  same word {duplicates:6d}: once normalized (café and cafe, or from two roots)")
    for reason, count in build.added.most_common():
        print(f"  added   {count:8d}: {reason}")
    if build.unreviewed:
        print(f"  not reviewed (add to short/{args.language}.toml): {' '.join(build.unreviewed)}")
    nodes = output.with_suffix(".nodes")
    print(f"wrote {output} ({output.stat().st_size} bytes) and {nodes.name} ({nodes.stat().st_size} bytes)")
    if args.spellings:
        write_spellings(build, args.language, args.spellings)
    return 0


def write_spellings(build: Build, language: str, where: Path) -> None:
    """Write the everyday spellings of the build's words (to a folder: as <lang>.marisa in it) and print counts."""
    spellings = everyday_spellings(build, language)
    path = where / f"{language}.marisa" if where.is_dir() else where
    Spellings.from_mapping(spellings).save(path)
    frequency = wordfreq_frequency(language)
    several = [found for word, found in build.spellings.items() if word in build.words and len(found) > 1]
    top_two = [sorted(map(frequency, found), reverse=True)[:2] for found in several]
    ties = [first for first, second in top_two if first == second]
    compounds = sum(word in build.words and not build.spellings.get(word) for word in build.compounds)
    unspelled = sorted(word for word in build.words if not build.spellings.get(word) and word not in build.compounds)
    print(
        f"{language} spellings: {len(spellings)} words spelled otherwise than in lower case; {len(several)} words with "
        f"several spellings in the source, {len(ties)} of them decided at equal frequency ({ties.count(0.0)} unknown "
        f"to wordfreq); {compounds} compounds spelled from their parts; {len(unspelled)} words the source does not "
        f"spell (added by rule: their lower case): {' '.join(unspelled[:EXAMPLES])}"
    )
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    sys.exit(main())
