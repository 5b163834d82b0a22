"""Malformed requests over every route and parameter: never a 500, every refusal with a message, nothing reflected raw."""

from __future__ import annotations

import pytest

from .conftest import HTMX

BOARD = "/play/en/FUZZED"


# str.isdigit() accepts superscripts (² ³⁰) that int() cannot read: such a number is a refusal, not a crash.
@pytest.mark.parametrize("url, status, message", [
    (f"{BOARD}?time=²", 400, "whole number of seconds"),
    (f"{BOARD}?time=³⁰", 400, "whole number of seconds"),
    (f"{BOARD}/projector?step=²", 400, "whole number"),
    (f"{BOARD}?challenge=²", 200, "Type a word"),  # a nonsense challenge is ignored
])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_digits_int_cannot_read_are_refused_not_a_crash(client, url, status, message, headers):
    response = client.get(url, headers=headers)
    assert response.status_code == status
    assert message in response.get_data(as_text=True)
