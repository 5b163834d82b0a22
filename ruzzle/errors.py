"""Errors of the game package: each is a ValueError whose message a person can act on."""

from __future__ import annotations


class RuzzleError(ValueError):
    """Base class of every error the game package raises on bad input."""


class BoardFormatError(RuzzleError):
    """A board text that cannot be read; carries the 1-based line and column of the problem."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.line = line
        self.column = column
        self.reason = message
        where = ""
        if line is not None:
            where = f"line {line}, column {column}: " if column is not None else f"line {line}: "
        super().__init__(where + message)


class UnknownLanguage(RuzzleError):
    """A language code that the game does not know."""

    def __init__(self, code: str, known: list[str]):
        self.code = code
        self.known = known
        super().__init__(f"unknown language {code!r}; known languages: {', '.join(known)}")


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

    def __init__(self, reason: str, message: str):
        self.reason = reason
        super().__init__(message)
