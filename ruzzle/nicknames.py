"""Nicknames in a room: the rules a name must follow (short, visible, and no blocked word of any language in it,
however disguised, unless the word holding it is a real given name), when two names are the same name, and friendly
names, in the room's language, to offer a player who has none in mind.

The data lives in `data/names/` (its README says where each file comes from): `given-names.txt`, the given names
always accepted; `compounds.toml`, reviewed compound insults; the reviewed lists of slurs and insults by kind
(`origin.toml`, `disability.toml`, `sexuality.toml`, `nazi.toml`, `crude.toml`) and `inside.toml`, the blocked words
that do not count inside a longer word; `lookalikes.txt`, letters of other scripts and styled letters that pass for
Latin ones; `friendly.toml`, the adjectives and animals of each language.
"""

from __future__ import annotations

import itertools
import re
import secrets
import tomllib
import unicodedata
from collections.abc import Container, Iterable, Iterator, Set
from importlib import resources
from typing import Any

from .blocklist import blocked_words
from .errors import N_, RuzzleError
from .languages import LANGUAGES, get_language
from .lexicon import Lexicon, load_once, shipped_words

MAX_NICKNAME = 20
Token = str  # one word of a nickname as it is checked: upper-case letters, accents dropped

# Letters written with digits or signs to get past a filter; a run of them counts as letters only next to a letter.
LEET = {"0": "O", "1": "I", "3": "E", "4": "A", "5": "S", "7": "T", "9": "G", "@": "A", "$": "S", "!": "I", "|": "I"}
# Signs that hide one letter each between letters (f*ck, sh#t, c%nt): read as "any letter" there.
MASKS = frozenset("*#%?^~")
ANY = "?"  # a masked letter in a token
# Words of at most this many letters that follow one another are also read glued (fu ck, sh it, ret ard).
FRAGMENT = 3
# A blocked word counts inside a longer word when it has at least this many letters (and inside.toml does not
# exempt it); a shorter one counts only as a part of a compound of known words (bigass, kutwijf).
MIN_INSIDE = 4
# Each part of a compound of known words has at least this many letters.
MIN_PART = 3
REVIEWED_LISTS = ("origin", "disability", "sexuality", "nazi", "crude")
# Endings that make a diminutive or augmentative of a word in one of the seven languages (terroncello, sudakita,
# macaquinho, mongooltje, troione, cornutazzo; the superlatives putisima, stronzissimo; the Spanish and Portuguese
# augmentatives puton, caralhao): an unknown word with one of them is read again as the word it was made from
# (diminutive_of). Longest first; an ending a third letter or more of the word.
DIMINUTIVE_ENDINGS = (
    "ISSIMO", "ISSIMA",
    "ISIMO", "ISIMA", "ZINHO", "ZINHA", "UCCIO", "UCCIA", "ACCIO", "ACCIA",
    "INHO", "INHA", "ELLO", "ELLA", "ETTO", "ETTA", "AZZO", "AZZA", "ILLO", "ILLA", "UCHO", "UCHA", "CHEN", "LEIN",
    "ETJE", "ETTE", "OTTO", "OTTA",
    "INO", "INA", "ONE", "ONA", "ITO", "ITA", "ICO", "ICA", "OTE", "OTA", "AZO", "AZA", "TJE", "PJE", "KJE", "ACO",
    "JE", "ON", "AO",
)  # fmt: skip
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
    if refused_part(name) is not None:
        raise NicknameRefused(N_("that nickname has a word in it that is not allowed in class; try another one"))
    return name


def refused_part(name: str) -> str | None:
    """What makes the shipped rules refuse a name (a blocked word, however disguised, or a number code), or None."""
    return number_code(name) or offensive_token(
        name, refused_words(), given_names(), ordinary=ORDINARY, inside=inside_words(), phrases=phrases()
    )


def nickname_key(name: str) -> str:
    """What makes two nicknames the same in a room: case, accents, invisible characters, styled letters and letters of
    other scripts that pass for Latin ones do not count (ANNA, anna, Änna, 𝐀nna, Аnna with a Cyrillic A)."""
    text = fold_lookalikes(unicodedata.normalize("NFKC", visible_text(name)).casefold())
    return "".join(ch for ch in unicodedata.normalize("NFKD", text).casefold() if not unicodedata.combining(ch))


def offensive_token(
    name: str,
    blocked: Set[Token],
    allowed: Set[Token] = frozenset(),
    *,
    ordinary: Container[Token] = frozenset(),
    inside: Set[Token] | None = None,
    phrases: Set[Token] = frozenset(),
) -> Token | None:
    """The blocked word the name holds, however it is disguised, or None. A word of the name in `allowed` (a given
    name) is never refused; one that is a blocked word is; one in `ordinary` (a dictionary word) holds no blocked
    word; any other holds one when a word of `inside` (by default the blocked words of MIN_INSIDE letters or more)
    sits in it, or when it is a compound of known words and a blocked word (bigass). Words that follow one another
    count glued when the glued word is blocked (dick head), and a phrase of `phrases` counts across words (White
    Power)."""
    inside = frozenset(word for word in blocked if len(word) >= MIN_INSIDE) if inside is None else inside
    for words in readings(name):
        for word in (*words, *glued_runs(words)):
            found = offensive_word(word, blocked, allowed, ordinary, inside)
            if found is not None:
                return found
        for glued in glued_words(words):
            if glued in blocked and glued not in allowed:
                return glued
        joined = "".join(words)
        for phrase in phrases:
            if phrase in joined:
                return phrase
    return None


def glued_words(words: list[Token], most: int = 4) -> Iterator[Token]:
    """Two to `most` words that follow one another, glued: a compound written apart (dick head, sale arabe, fick dich)
    is refused when the glued word is refused as a whole word."""
    for start in range(len(words)):
        for end in range(start + 2, min(start + most, len(words)) + 1):
            yield "".join(words[start:end])


def offensive_word(
    word: Token, blocked: Set[Token], allowed: Set[Token], ordinary: Container[Token], inside: Set[Token]
) -> Token | None:
    """The blocked word one word of a name is or holds (see offensive_token), or None."""
    if word in allowed:
        return None
    if ANY in word:
        return masked_word(word, blocked, inside)
    forms = squeezed(word)
    for form in forms:
        if form in blocked and form not in allowed:
            return form
    if word in ordinary or any(form in allowed for form in forms):
        return None
    for form in forms:
        found = (
            word_inside(form, inside, allowed, ordinary)
            or compound_part(form, blocked, allowed, ordinary)
            or diminutive_of(form, blocked)
        )
        if found is not None:
            return found
    return None


def diminutive_of(word: Token, blocked: Set[Token]) -> Token | None:
    """The blocked word (MIN_INSIDE letters or more) an unknown word is a diminutive or augmentative of (TERRONCELLO:
    TERRONA, SUDAKITA: SUDACA, TROIONE: TROIA), or None: the word without its ending, a last vowel put back and a
    letter the ending changed undone (the C of -cello, QU and K for C)."""
    for ending in DIMINUTIVE_ENDINGS:
        stem = word[: -len(ending)]
        if not word.endswith(ending) or len(stem) < MIN_PART:
            continue
        stems = {stem, stem[:-1] if stem.endswith("C") else stem}
        stems |= {base[:-2] + "C" for base in stems if base.endswith("QU")}
        stems |= {base[:-1] for base in stems if base.endswith("GU")}  # VERGUITA: VERGA
        stems |= {base[:-1] + "C" for base in stems if base.endswith("K")}
        for base in sorted(stems):
            for candidate in (base, *(base + vowel for vowel in "AEIO")):
                if candidate in blocked and len(candidate) >= MIN_INSIDE:
                    return candidate
    return None


def word_inside(
    word: Token, inside: Set[Token], allowed: Set[Token] = frozenset(), ordinary: Container[Token] = frozenset()
) -> Token | None:
    """The longest word of `inside` that sits in the word and not inside a known word of it, or None: the word may be
    a compound of known words (given names, dictionary words, MIN_PART letters or more), and a blocked word inside one
    of them does not count (COMPUTERFREAK, PEACOCKFAN), but one cut across them does (HITLERFAN: not HIT+LER+FAN)."""
    size = len(word)
    known = {
        (start, end)
        for start in range(size)
        for end in range(start + MIN_PART, size + 1)
        if (part := word[start:end]) not in inside and (part in allowed or part in ordinary)
    }
    head = {0} | {end for start, end in sorted(known) if start == 0}
    for start, end in sorted(known):  # ends reachable from the start through known parts
        if start in head:
            head.add(end)
    tail = {size}
    for start, end in sorted(known, key=lambda span: -span[0]):  # starts from which the end is reachable
        if end in tail:
            tail.add(start)
    found = [
        (start, end)
        for start in range(size)
        for end in range(start + MIN_INSIDE, size + 1)
        if word[start:end] in inside and not any(a <= start and end <= b and a in head and b in tail for a, b in known)
    ]
    return word[slice(*max(found, key=lambda span: span[1] - span[0]))] if found else None


def compound_part(word: Token, blocked: Set[Token], allowed: Set[Token], ordinary: Container[Token]) -> Token | None:
    """The blocked part of a word made of known parts (blocked words, given names, dictionary words, each MIN_PART
    letters or more) with a blocked part (BIG+ASS, KUT+WIJF), unless it is also made of known parts without one
    (PEACOCK+FAN is not PEA+COCK+FAN), or None."""
    # clean[i]: word[:i] splits into known parts that are not blocked; dirty[i]: a blocked part of another split
    clean = [True] + [False] * len(word)
    dirty: list[Token | None] = [None] * (len(word) + 1)
    for end in range(MIN_PART, len(word) + 1):
        for start in range(end - MIN_PART + 1):
            part = word[start:end]
            if (start, end) == (0, len(word)) or not (clean[start] or dirty[start]):
                continue
            if part in blocked and part not in allowed:
                dirty[end] = dirty[end] or dirty[start] or part
            elif part in allowed or part in ordinary:
                clean[end] = clean[end] or clean[start]
                dirty[end] = dirty[end] or dirty[start]
    return None if clean[-1] else dirty[-1]


def masked_word(word: Token, blocked: Set[Token], inside: Set[Token]) -> Token | None:
    """The blocked word a word with masked letters can stand for (F?CK: FUCK), whole or inside (at most half of its
    letters masked, and two shown), or None; the longest first."""
    whole, parts = _by_letter(frozenset(blocked | inside)), _by_letter(frozenset(inside))
    for size in range(len(word), 0, -1):
        for start in range(len(word) - size + 1):
            window = word[start : start + size]
            if not 0 < window.count(ANY) <= min(size // 2, size - 2):
                continue
            shown = next(index for index, letter in enumerate(window) if letter != ANY)
            for candidate in (whole if size == len(word) else parts).get((size, shown, window[shown]), ()):
                if all(letter in (wanted, ANY) for letter, wanted in zip(window, candidate, strict=True)):
                    return candidate
    return None


@load_once
def _by_letter(words: frozenset[Token]) -> dict[tuple[int, int, str], tuple[Token, ...]]:
    """The words by their length, a position and the letter there, to find the ones a masked word can stand for."""
    index: dict[tuple[int, int, str], list[Token]] = {}
    for word in sorted(words):
        for position, letter in enumerate(word):
            index.setdefault((len(word), position, letter), []).append(word)
    return {key: tuple(found) for key, found in index.items()}


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
    next to a letter is read as letters (sh1t, 4ss, but Peter 2012) and a masking sign next to a letter as any letter
    (f*ck: F?CK; but Ana%Luz is two words); with `camel`, a change of case splits too."""
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
        elif leet and ch in MASKS and (word or text[i + 1 : i + 2].isalpha()):
            end = i
            while end < len(text) and text[end] in MASKS:
                end += 1
            if (word or text[end : end + 1].isalpha()) and not (last.islower() and text[end : end + 1].isupper()):
                word.extend(ANY * (end - i))
            elif word:  # between two words (Ana%Luz), a separator
                words.append(word)
                word, last = [], ""
            i = end
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


def glued_runs(words: list[Token]) -> list[Token]:
    """The runs of two or more short words (FRAGMENT letters or fewer) joined, each read as one word: letters spelled
    out (f u c k, F.U.C.K, s-h-i-t) and words cut in pieces (fu ck, ret ard)."""
    runs, run = [], []
    for word in [*words, ""]:
        if 0 < len(word) <= FRAGMENT:
            run.append(word)
            continue
        if len(run) >= 2:
            runs.append("".join(run))
        run = []
    return runs


def squeezed(word: Token) -> list[Token]:
    """The word, and when a letter is held three times or more (FUUUUCK, PORRAAA), the word with held letters let go:
    each held run cut to one or two letters (PORRA, ASS), and every run cut to one (FUCKK: FUCK). A double letter
    alone is spelling (BAISSE, KONNTEN)."""
    if not re.search(r"(.)\1\1", word):
        return [word]
    pieces = re.findall(r"((.)\2{2,}|.)", word)
    choices = [[run] if len(run) < 3 else [letter, letter * 2] for run, letter in pieces]
    forms = {"".join(choice) for choice in itertools.islice(itertools.product(*choices), 64)}
    return [word, *sorted(forms), re.sub(r"(.)\1+", r"\1", word)]


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


@load_once
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


@load_once
def friendly_names(language: str) -> tuple[str, ...]:
    """Every adjective-and-animal name of a language, the adjective agreeing with the animal's gender."""
    adjectives, animals, adjective_first = _friendly_words(language)
    names = []
    for animal, gender in animals:
        for forms in adjectives:
            adjective = forms[gender]
            names.append(f"{adjective} {animal}" if adjective_first else f"{animal} {adjective}")
    return tuple(names)


@load_once
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


@load_once
def _friendly_table() -> dict[str, Any]:
    """The friendly names' word lists of every language."""
    return tomllib.loads(resources.files(__package__).joinpath("data/names/friendly.toml").read_text(encoding="utf-8"))


@load_once
def classroom_words() -> frozenset[str]:
    """The blocked words of every language: a class may type a word of any of them."""
    return frozenset().union(*(blocked_words(code) for code in LANGUAGES))


@load_once
def compound_words() -> frozenset[str]:
    """The reviewed compound insults (FUCKFACE, TERINGHOER), refused as a whole word like a blocked word."""
    text = resources.files(__package__).joinpath("data/names/compounds.toml").read_text(encoding="utf-8")
    return frozenset(word for table in tomllib.loads(text).values() for word in table)


@load_once
def reviewed_lists() -> dict[str, dict[str, dict[str, str]]]:
    """The reviewed lists of slurs and insults: kind (origin, disability, ...), language, entry and its reason."""
    return {kind: _read_toml(f"{kind}.toml") for kind in REVIEWED_LISTS}


def _reviewed_entries() -> Iterator[str]:
    """Every entry of the reviewed lists as written (a slogan with its spaces), number codes left out."""
    for tables in reviewed_lists().values():
        for code, table in tables.items():
            if code != "codes":
                yield from table


@load_once
def reviewed_words() -> frozenset[str]:
    """The words of the reviewed lists, a slogan of several words glued (HEILHITLER); number codes left out."""
    return frozenset(entry.replace(" ", "") for entry in _reviewed_entries())


@load_once
def phrases() -> frozenset[str]:
    """The reviewed slogans of several words, glued, refused across a nickname's words (White Power)."""
    return frozenset(entry.replace(" ", "") for entry in _reviewed_entries() if " " in entry)


@load_once
def number_codes() -> tuple[tuple[str, ...], ...]:
    """The reviewed number codes (1488, HH 88), each as its runs of letters and digits."""
    return tuple(tuple(code.split()) for code in reviewed_lists()["nazi"]["codes"])


def number_code(name: str) -> str | None:
    """The number code a name's runs of letters and digits hold in order (Anna1488, 14/88, HH88), or None; a number
    alone (88, an age or a shirt number) is never one."""
    text = fold_letters(fold_lookalikes(unicodedata.normalize("NFKC", visible_text(name)))).upper()
    runs = re.findall(r"[A-Z]+|[0-9]+", text)
    for code in number_codes():
        for read in (runs, digits_glued(runs)):
            if any(tuple(read[start : start + len(code)]) == code for start in range(len(read))):
                return " ".join(code)
    return None


def digits_glued(runs: list[str]) -> list[str]:
    """The runs with digits written one by one apart glued again (1 4 8 8: 1488, 8.8: 88; 14 8 stays two runs)."""
    glued: list[str] = []
    for single, group in itertools.groupby(runs, key=lambda run: len(run) == 1 and run.isdigit()):
        group_runs = list(group)
        glued.extend(["".join(group_runs)] if single else group_runs)
    return glued


@load_once
def refused_words() -> frozenset[str]:
    """What no word of a nickname may be: a blocked word of any language, a reviewed compound insult or a word of
    the reviewed lists of slurs and insults."""
    return classroom_words() | compound_words() | reviewed_words()


@load_once
def inside_words() -> frozenset[str]:
    """The refused words that count inside a longer word: MIN_INSIDE letters or more, not a given name, and not one
    that inside.toml exempts because it sits inside many innocent words (ANAL: canal, Analisa)."""
    exempt = {word for table in _read_toml("inside.toml").values() for word in table}
    return frozenset(
        word for word in refused_words() if len(word) >= MIN_INSIDE and word not in given_names() and word not in exempt
    )


class _Dictionaries:
    """The ordinary words of the seven dictionaries (a word of any of them), read from the built-in lexicons."""

    def __contains__(self, word: object) -> bool:
        return any(word in lexicon for lexicon in _lexicons())


ORDINARY: Container[Token] = _Dictionaries()


@load_once
def _lexicons() -> tuple[Lexicon, ...]:
    """The built-in dictionaries of the seven languages."""
    return tuple(Lexicon.builtin(code) for code in LANGUAGES)


def _read_toml(name: str) -> dict[str, Any]:
    """A TOML file of the shipped name data."""
    return tomllib.loads(resources.files(__package__).joinpath(f"data/names/{name}").read_text(encoding="utf-8"))


@load_once
def given_names() -> frozenset[str]:
    """The given names always accepted as a word of a nickname: the dataset's (reviewed collisions left out) and the
    reviewed supplement of names it lacks."""
    return shipped_words("names/given-names.txt") | frozenset(_read_toml("supplement.toml")["names"])
