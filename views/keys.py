"""The teachers' private links (a room's remote link, a homework's and a class's teacher link): a new link on a
confirmed request, the keys kept out of the access log and of Referer headers, and the private pages kept out of
every cache (`Cache-Control: no-store`)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from flask import Flask, Response, request
from werkzeug.exceptions import BadRequest

from .translations import gettext

# The parts of a URL that are a teacher's key: the remote link's last segment, and a `key` or `class_key` argument
# (in a query string alone too: gunicorn's %(q)s).
_KEY_PARTS = re.compile(r"(/remote/)(?!new(?:[/?#\s\"]|$))[^/?#\s\"]+|((?:^|[?&])(?:class_)?key=)[^&#\s\"]*")
REDACTED = "…"
# The blueprints whose pages are a member's or a teacher's own (a room's seats and host views, homework, class lists,
# results): no copy of them is kept by a browser or a proxy, and they name no address to another page.
PRIVATE_BLUEPRINTS = frozenset({"rooms", "live", "assignments", "classes", "exports"})


def redact_keys(text: str) -> str:
    """A request line, a URL or a Referer with every teacher's key in it replaced by REDACTED."""
    return _KEY_PARTS.sub(lambda found: (found.group(1) or found.group(2)) + REDACTED, text)


def require_confirmed(form: Mapping[str, str]) -> None:
    """400 unless the form's `confirm` box was ticked: a new link makes the old one useless, so a slip cannot."""
    if form.get("confirm") != "yes":
        raise BadRequest(gettext("Tick the box to confirm: the old link will stop working."))


def keep_private_pages_private(app: Flask) -> None:
    """`Cache-Control: no-store` on the private blueprints' pages, beside the `Referrer-Policy: same-origin` of every
    page (views/security.py): no address (and no key in it) goes to another site, and this site's own access log
    redacts keys. Not `no-referrer`: under it Chromium sends `Origin: null` with every form of the page, which the
    cross-site check refuses (a pupil could not join, a host not start). A poll answered with an ETag stays
    revalidated (`private, no-cache`): the phones' 304s are what makes a big room's polls cheap, and no shared cache
    may keep it."""

    @app.after_request
    def private(response: Response) -> Response:
        if request.blueprint not in PRIVATE_BLUEPRINTS:
            return response
        polled = response.get_etag()[0] is not None and request.headers.get("HX-Request") == "true"
        response.headers["Cache-Control"] = "private, no-cache" if polled else "no-store"
        return response


__all__ = ["REDACTED", "keep_private_pages_private", "redact_keys", "require_confirmed"]
