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


# A Host header with a label over 63 characters cannot be encoded (IDNA): werkzeug refuses it before routing,
# and the error page, which links to the start page, could not build a URL.
@pytest.mark.parametrize("host", ["a" * 64, "a" * 1000, "a" * 64 + ".example"])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_an_unreadable_host_is_a_400_with_a_message(client, host, headers):
    response = client.get(BOARD, headers={"Host": host, **headers})
    assert response.status_code == 400
    assert response.mimetype == "text/plain" and "Bad Request" in response.get_data(as_text=True)
