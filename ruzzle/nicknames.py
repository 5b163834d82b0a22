"""Nicknames in a room: the rules a name must follow (short, visible, and no word of it a blocked word of any
language, however disguised, unless it is a real given name) and friendly names, in the room's language, to offer a
player who has none in mind.

The data lives in `data/names/` (its README says where each file comes from): `given-names.txt`, the given names
always accepted; `compounds.toml`, reviewed compound insults refused as one word; `lookalikes.txt`, letters of other
scripts that pass for Latin ones; `friendly.toml`, the adjectives and animals of each language.
"""

from __future__ import annotations

import re
import secrets
import tomllib
import unicodedata
from collections.abc import Iterable, Iterator, Set
from functools import cache
from importlib import resources
from typing import Any

from .blocklist import blocked_words
from .errors import N_, RuzzleError
from .languages import LANGUAGES, get_language
from .lexicon import shipped_words

MAX_NICKNAME = 20
Token = str  # one word of a nickname as it is checked: upper-case letters, accents dropped

# Letters written with digits or signs to get past a filter; a run of them counts as letters only next to a letter.
LEET = {"0": "O", "1": "I", "3": "E", "4": "A", "5": "S", "7": "T", "@": "A", "$": "S", "!": "I", "|": "I"}
# Characters that show nothing but are not of Unicode's control or format categories (those are found by category):
# combining grapheme joiner, Mongolian variation selectors, Hangul fillers, braille blank, variation selectors.
SHOW_NOTHING = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)
# Letters that NFKD does not take apart into a Latin letter and accents.
_LETTERS = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "SS",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ø": "o",
        "Ø": "O",
        "ł": "l",
        "Ł": "L",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "TH",
        "ı": "i",
        "ħ": "h",
        "Ħ": "H",
    }
)
# A gamer tag's frame (xXnameXx, xX Anna Xx): the name is read without it, and its runs of X are not words.
_FRAME = re.compile(r"[xX]{2,}(.*?)[xX]{2,}")


class NicknameRefused(RuzzleError):
    """A nickname a room does not take, with the reason a player can act on."""


def check_nickname(text: str) -> str:
    """The nickname as the room keeps it (trimmed, spaces collapsed), or NicknameRefused saying why."""
    name = " ".join(unicodedata.normalize("NFC", str(text)).split())
    if not name:
        raise NicknameRefused(N_("type a nickname (or take any name)"))
    if not visible_text(name).strip():
        raise NicknameRefused(N_("a nickname needs letters or digits that can be seen"))
    if len(name) > MAX_NICKNAME:
        raise NicknameRefused(
            N_("a nickname has at most %(most)d characters; this one has %(length)d"),
            most=MAX_NICKNAME,
            length=len(name),
        )
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise NicknameRefused(N_("a nickname is letters, digits, spaces and signs you can type"))
    if offensive_token(name, refused_words(), given_names()) is not None:
        raise NicknameRefused(N_("that nickname has a word in it that is not allowed in class; try another one"))
    return name


def nickname_key(name: str) -> str:
    """What makes two nicknames the same in a room: case and accents do not count (ANNA, anna, Änna)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(ch))


def offensive_token(name: str, blocked: Set[Token], allowed: Set[Token] = frozenset()) -> Token | None:
    """The blocked word that is a whole word of the name, however it is disguised, or None; a word in `allowed` (a
    given name) is never refused, and a blocked word inside a longer word does not count."""
    for words in readings(name):
        for word in (*words, *spelled_out(words)):
            if word in allowed:
                continue
            for form in squeezed(word):
                if form in blocked and form not in allowed:
                    return form
    return None


def readings(name: str) -> Iterator[list[Token]]:
    """The ways a name can be read as words, after invisible characters, look-alikes and accents are folded: digits
    and signs as separators or as letters, with or without camelCase splits, with or without a gamer tag's frame."""
    text = fold_letters(fold_lookalikes(unicodedata.normalize("NFKC", visible_text(name))))
    frame = _FRAME.fullmatch(text)
    inside = frame.group(1) if frame is not None and frame.group(1).strip("xX ") != "" else None
    for leet in (False, True):
        for camel in (True, False):
            if inside is not None:
                yield words_of(inside, leet=leet, camel=camel)
                yield [word for word in words_of(text, leet=leet, camel=camel) if word.strip("X")]
            else:
                yield words_of(text, leet=leet, camel=camel)


def words_of(text: str, leet: bool, camel: bool) -> list[Token]:
    """The words of a folded text: runs of letters, split at anything else; with `leet`, a run of digits and signs
    next to a letter is read as letters (sh1t, 4ss, but Peter 2012); with `camel`, a change of case splits too."""
    words: list[list[str]] = []
    word: list[str] = []
    last = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isalpha():
            if camel and word and _camel_break(last, ch, text[i + 1 : i + 2]):
                words.append(word)
                word = []
            word.append(ch)
            last = ch
            i += 1
        elif leet and ch in LEET:
            end = i
            while end < len(text) and text[end] in LEET:
                end += 1
            if (i > 0 and text[i - 1].isalpha()) or text[end : end + 1].isalpha():
                word.extend(LEET[sign] for sign in text[i:end])
            elif word:
                words.append(word)
                word, last = [], ""
            i = end
        else:
            if word:
                words.append(word)
            word, last = [], ""
            i += 1
    if word:
        words.append(word)
    return ["".join(letters).upper() for letters in words]


def spelled_out(words: list[Token]) -> list[Token]:
    """The runs of two or more one-letter words joined (f u c k, F.U.C.K, s-h-i-t), each read as one word."""
    runs, run = [], []
    for word in [*words, ""]:
        if len(word) == 1:
            run.append(word)
            continue
        if len(run) >= 2:
            runs.append("".join(run))
        run = []
    return runs


def squeezed(word: Token) -> list[Token]:
    """The word, and when a letter is held three times or more (FUUUUCK, ASSSS), the word with held letters let go:
    runs cut to two (ASS) and every run cut to one (FUCK). A double letter alone is spelling (BAISSE, KONNTEN)."""
    if not re.search(r"(.)\1\1", word):
        return [word]
    return [word, re.sub(r"(.)\1{2,}", r"\1\1", word), re.sub(r"(.)\1+", r"\1", word)]


def visible_text(text: str) -> str:
    """The text without the characters that show nothing (zero-width, joiners, soft hyphen, fillers)."""
    return "".join(ch for ch in text if ch not in SHOW_NOTHING and unicodedata.category(ch) not in ("Cf", "Cc"))


def fold_letters(text: str) -> str:
    """The text with accents dropped and ligatures spelled out (Zoë: Zoe, Łukasz: Lukasz, Straße: Strasse)."""
    folded = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return "".join(ch for ch in folded if not unicodedata.combining(ch))


def fold_lookalikes(text: str) -> str:
    """The text with letters of other scripts that pass for Latin ones written as Latin (Cyrillic а, Greek ο)."""
    return text.translate(_lookalikes())


@cache
def _lookalikes() -> dict[int, str]:
    """The shipped look-alike table: code point (hex), Latin letter, Unicode name, one per line."""
    text = resources.files(__package__).joinpath("data/names/lookalikes.txt").read_text(encoding="utf-8")
    return {int(point, 16): latin for point, latin, *_ in (line.split() for line in text.splitlines() if line)}


def _camel_break(last: str, ch: str, following: str) -> bool:
    """Whether a new word starts at `ch` in a camelCase name (bigFuck, BigFuck, BIGFuck)."""
    if not last:
        return False
    return (last.islower() and ch.isupper()) or (last.isupper() and ch.isupper() and following.islower())


def friendly_name(taken: Iterable[str] = (), language: str = "en") -> str:
    """A random friendly nickname in the language (Brave Otter, Lontra Coraggiosa) that is not taken; an animal
    and a number when every pair is."""
    keys = {nickname_key(name) for name in taken}
    names = friendly_names(get_language(language).code)
    for _ in range(50):
        name = secrets.choice(names)
        if nickname_key(name) not in keys:
            return name
    animals = sorted({animal for animal, _ in _friendly_words(get_language(language).code)[1]})
    while True:
        name = f"{secrets.choice(animals)} {secrets.randbelow(1000)}"
        if nickname_key(name) not in keys:
            return name


@cache
def friendly_names(language: str) -> tuple[str, ...]:
    """Every adjective-and-animal name of a language, the adjective agreeing with the animal's gender."""
    adjectives, animals, adjective_first = _friendly_words(language)
    names = []
    for animal, gender in animals:
        for forms in adjectives:
            adjective = forms[gender]
            names.append(f"{adjective} {animal}" if adjective_first else f"{animal} {adjective}")
    return tuple(names)


@cache
def _friendly_words(language: str) -> tuple[list[dict[str, str]], list[tuple[str, str]], bool]:
    """A language's adjectives (a form per gender), animals (with their gender) and word order, from friendly.toml."""
    table = _friendly_table()[language]
    genders = table["genders"]
    adjectives = [
        dict(zip(genders, forms if isinstance(forms, list) else [forms] * len(genders), strict=True))
        for forms in table["adjectives"]
    ]
    animals = [(animal, gender) for gender in genders for animal in table["animals"].get(gender, [])]
    return adjectives, animals, table["order"] == "adjective animal"


@cache
def _friendly_table() -> dict[str, Any]:
    """The friendly names' word lists of every language."""
    return tomllib.loads(resources.files(__package__).joinpath("data/names/friendly.toml").read_text(encoding="utf-8"))


@cache
def classroom_words() -> frozenset[str]:
    """The blocked words of every language: a class may type a word of any of them."""
    return frozenset().union(*(blocked_words(code) for code in LANGUAGES))


@cache
def compound_words() -> frozenset[str]:
    """The reviewed compound insults (FUCKFACE, TERINGHOER), refused as a whole word like a blocked word."""
    text = resources.files(__package__).joinpath("data/names/compounds.toml").read_text(encoding="utf-8")
    return frozenset(word for table in tomllib.loads(text).values() for word in table)


@cache
def refused_words() -> frozenset[str]:
    """What no word of a nickname may be: a blocked word of any language or a reviewed compound insult."""
    return classroom_words() | compound_words()


@cache
def given_names() -> frozenset[str]:
    """The given names always accepted as a word of a nickname (the shipped list, reviewed collisions left out)."""
    return shipped_words("names/given-names.txt")
