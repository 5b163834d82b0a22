"""Whole numbers from a URL or a form, read in one place: what `int()` reads the same way, or a sentence (a 400)."""

from __future__ import annotations

from collections.abc import Callable

from werkzeug.exceptions import BadRequest


def read_whole_number(text: str | None, digits: int) -> int | None:
    """The whole number `text` writes in 1 to `digits` decimal digits (white space around it allowed), else None.

    isdecimal, not isdigit: isdigit also takes superscripts such as ² that int() refuses; the bound on the digits keeps
    int() away from its own limit on long numbers (a ValueError past 4,300 digits)."""
    value = (text or "").strip()
    return int(value) if value.isdecimal() and len(value) <= digits else None


def parse_whole_number(text: str | None, digits: int, refusal: Callable[[], str]) -> int:
    """The whole number `text` writes in 1 to `digits` decimal digits; a 400 saying `refusal()` for anything else (a
    function: the sentence is translated only when it is said, and a board URL is also read outside a request)."""
    number = read_whole_number(text, digits)
    if number is None:
        raise BadRequest(refusal())
    return number
