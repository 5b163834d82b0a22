"""Nicknames in a room: the rules a name must follow (short, and nothing of the classroom blocklist in it, even
inside a longer name) and friendly names to offer a player who has none in mind."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Iterable, Set
from functools import cache

from .blocklist import blocked_words
from .errors import N_, RuzzleError
from .languages import LANGUAGES

MAX_NICKNAME = 20
# Inside a longer name only blocked words of this many letters or more are looked for; shorter ones (ASS, CUL,
# PIS) hide in too many names (CLASSE, CULTURE, PISA) and count only as a whole part of the name.
MIN_HIDDEN_WORD = 4
# Letters written with digits or signs to get past a filter.
_LOOKALIKES = str.maketrans({"0": "O", "1": "I", "3": "E", "4": "A", "5": "S", "7": "T", "@": "A", "$": "S",
                             "!": "I", "|": "I"})

ADJECTIVES = ("Brave", "Bright", "Calm", "Clever", "Cosy", "Curious", "Eager", "Gentle", "Happy", "Jolly",
              "Kind", "Lucky", "Merry", "Nimble", "Noble", "Plucky", "Quick", "Quiet", "Shiny", "Sunny", "Swift",
              "Witty", "Wise", "Zesty")
ANIMALS = ("Badger", "Beaver", "Bison", "Crane", "Dolphin", "Falcon", "Ferret", "Gecko", "Heron", "Koala",
           "Lemur", "Lynx", "Marten", "Narwhal", "Otter", "Owl", "Panda", "Puffin", "Quokka", "Robin", "Seal",
           "Tiger", "Walrus", "Wombat")


class NicknameRefused(RuzzleError):
    """A nickname a room does not take, with the reason a player can act on."""


def check_nickname(text: str) -> str:
    """The nickname as the room keeps it (trimmed, spaces collapsed), or NicknameRefused saying why."""
    name = " ".join(unicodedata.normalize("NFC", str(text)).split())
    if not name:
        raise NicknameRefused(N_("type a nickname (or take any name)"))
    if len(name) > MAX_NICKNAME:
        raise NicknameRefused(N_("a nickname has at most %(most)d characters; this one has %(length)d"),
                              most=MAX_NICKNAME, length=len(name))
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise NicknameRefused(N_("a nickname is letters, digits, spaces and signs you can type"))
    if offensive_part(name, classroom_words()) is not None:
        raise NicknameRefused(N_("that nickname has a word in it that is not allowed in class; try another one"))
    return name


def nickname_key(name: str) -> str:
    """What makes two nicknames the same in a room: case and accents do not count (ANNA, anna, Änna)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", name.casefold()) if not unicodedata.combining(ch))


def offensive_part(name: str, blocked: Set[str]) -> str | None:
    """The blocked word hidden in a name, or None: a long one anywhere in it (F_U_C_K, xXcrapXx, sh1t), a short one
    as a whole part of the name."""
    letters = _letters(name.translate(_LOOKALIKES).upper())
    for part in _parts(name.upper()):
        if part in blocked:
            return part
    for length in range(MIN_HIDDEN_WORD, len(letters) + 1):
        for start in range(len(letters) - length + 1):
            if letters[start:start + length] in blocked:
                return letters[start:start + length]
    return None


def friendly_name(taken: Iterable[str] = ()) -> str:
    """A random friendly nickname (Brave Otter) that is not taken (a number is added when every pair is)."""
    keys = {nickname_key(name) for name in taken}
    for _ in range(50):
        name = f"{secrets.choice(ADJECTIVES)} {secrets.choice(ANIMALS)}"
        if nickname_key(name) not in keys:
            return name
    while True:
        name = f"{secrets.choice(ANIMALS)} {secrets.randbelow(1000)}"
        if nickname_key(name) not in keys:
            return name


@cache
def classroom_words() -> frozenset[str]:
    """The blocked words of every language: a class may type a word of any of them."""
    return frozenset().union(*(blocked_words(code) for code in LANGUAGES))


def _letters(text: str) -> str:
    """The letters A-Z of a text, accents dropped, everything else left out."""
    folded = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in folded if "A" <= ch <= "Z")


def _parts(text: str) -> list[str]:
    """The runs of letters of a text (accents dropped), the parts of a name a short word has to fill."""
    parts, current = [], []
    for ch in unicodedata.normalize("NFKD", text.translate(_LOOKALIKES)):
        if "A" <= ch <= "Z":
            current.append(ch)
        elif not unicodedata.combining(ch):
            if current:
                parts.append("".join(current))
            current = []
    if current:
        parts.append("".join(current))
    return parts
