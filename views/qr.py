"""QR codes drawn on the server as inline SVG (segno): a room's join link, a teacher's remote, homework's link."""

from __future__ import annotations

import functools

import segno
from markupsafe import Markup

from .translations import gettext


def qr_svg(url: str) -> Markup | None:
    """A QR code of the URL as inline SVG, drawn on the server (segno), scaled by CSS; None when the URL
    is too long for any QR code."""
    return _qr_svg(url, gettext("QR code: %(url)s", url=url))


@functools.lru_cache(maxsize=256)
def _qr_svg(url: str, title: str) -> Markup | None:
    """(Drawn once per link and language: a room's lobby redraws the host's stage at each join, with the same QR.)"""
    try:
        code = segno.make(url, error="m")
    except segno.DataOverflowError:
        return None
    return Markup(
        code.svg_inline(
            omitsize=True, border=4, dark="#000", light="#fff", title=title, svgclass="qr", lineclass="qr-modules"
        )
    )
