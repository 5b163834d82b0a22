"""The languages the game knows: names and letter values, read from `data/languages.toml`."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

from .errors import UnknownLanguage

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Language:
    """A board language: its code, its own name, and the value of each letter A-Z."""

    code: str
    name: str
    letter_values: Mapping[str, int]
    source: str

    def value(self, letter: str) -> int:
        """Points of one letter (A-Z) in this language."""
        return self.letter_values[letter]


def _load_languages() -> Mapping[str, Language]:
    """Read and check the language table shipped with the package."""
    text = resources.files(__package__).joinpath("data/languages.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text)
    languages = {}
    for code, entry in sorted(table.items()):
        values = entry["values"]
        if sorted(values) != list(ALPHABET):
            raise AssertionError(f"languages.toml: {code} must give a value to every letter A-Z")
        languages[code] = Language(code, entry["name"], MappingProxyType(dict(values)), entry["source"])
    return MappingProxyType(languages)


LANGUAGES: Mapping[str, Language] = _load_languages()


def get_language(code: str) -> Language:
    """The language with this code (case-insensitive), or UnknownLanguage."""
    language = LANGUAGES.get(str(code).strip().lower())
    if language is None:
        raise UnknownLanguage(str(code), list(LANGUAGES))
    return language
