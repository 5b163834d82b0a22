"""Errors of the game package: each is a ValueError whose message a person can act on.

A message is an English template with named values (`%(num)d`), marked with `N_` (or `Nn_` when it has a plural
form chosen by `num`): `str(error)` is the English sentence, and the web layer translates `error.template` with
the same values (pybabel extracts the marked templates into the catalogues). This package never imports a
translation library.
"""

from __future__ import annotations

from collections.abc import Mapping

Template = str | tuple[str, str]  # a message, or its singular and plural forms


def N_(message: str) -> str:
    """Mark a message for the translation catalogues; it stays English here."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a plural form for the catalogues; the value `num` chooses the form."""
    return singular, plural


def english(template: Template, values: Mapping[str, object]) -> str:
    """The English sentence of a message template with its values."""
    if isinstance(template, tuple):
        template = template[0] if values.get("num") == 1 else template[1]
    return template % values if values else template


class RuzzleError(ValueError):
    """Base class of every error the game package raises on bad input; `template` and `values` make its message."""

    def __init__(self, template: Template, **values: object) -> None:
        self.template = template
        self.values = values
        super().__init__(english(template, values))


class BoardFormatError(RuzzleError):
    """A board text that cannot be read; carries the 1-based line and column of the problem."""

    def __init__(
        self, template: Template, line: int | None = None, column: int | None = None, **values: object
    ) -> None:
        self.line = line
        self.column = column
        self.reason = english(template, values)
        super().__init__(template, **values)
        where = ""
        if line is not None:
            where = f"line {line}, column {column}: " if column is not None else f"line {line}: "
        self.args = (where + self.reason,)


class UnknownLanguage(RuzzleError):
    """A language code that the game does not know."""

    def __init__(self, code: str, known: list[str]):
        self.code = code
        self.known = known
        super().__init__(N_("unknown language %(code)r; known languages: %(known)s"), code=code, known=", ".join(known))


class InvalidPath(RuzzleError):
    """A path that is not a word path on the board (out of range, not adjacent, reused cell, too short)."""


class DictionaryError(RuzzleError):
    """A dictionary that cannot be loaded (missing, unreadable, empty)."""


class InvalidSeed(RuzzleError):
    """A seed that cannot be used (empty or too long)."""


class InvalidSize(RuzzleError):
    """A board size that is not a positive R x C."""


class WordRefused(RuzzleError):
    """A word a player submitted that does not count; `reason` names the rule (e.g. "not-on-board")."""

    def __init__(self, reason: str, template: Template, **values: object) -> None:
        self.reason = reason
        super().__init__(template, **values)
