"""What every response and request goes through for safety: the strict headers (CSP, nosniff, ...), cross-site POSTs
and overlong Host headers refused, and the proxies believed (only as many as the settings name)."""

from __future__ import annotations

import re
import time
from itertools import chain
from urllib.parse import urlsplit

from flask import Flask, Response, g, request, session
from werkzeug.exceptions import BadRequest, Forbidden
from werkzeug.http import parse_list_header
from werkzeug.middleware.proxy_fix import ProxyFix

from .addresses import MAX_HOST
from .translations import gettext

# Control characters no name, word, code or board has: a NUL is refused by PostgreSQL (a 500 once), the others are
# typing nobody does. A tab, a line feed and a carriage return are a pasted board's or a class list's own.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


# Every answer's own: the same for all pages (a private page's address is kept from other sites by same-origin too:
# views/keys.py says why not no-referrer).
SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
)
# htmx gets fragments; a page's language (views/i18n.py); Flask-Compress adds Accept-Encoding to every answer (named
# here, it finds its name and writes the header no more)
VARY_PAGE = "HX-Request, Cookie, Accept-Language, Accept-Encoding"
VARY_OTHER = "HX-Request, Accept-Encoding"
VARY_SESSION = "HX-Request, Cookie, Accept-Encoding"  # an answer that read the player's cookie


def trust_proxies(app: Flask) -> None:
    """Behind PROXY_FIX proxies: the client's address, scheme and host as the nearest of them reports them
    (werkzeug's ProxyFix), and cookies only over HTTPS. Without it, X-Forwarded-* headers count for nothing."""
    hops = int(app.config["PROXY_FIX"] or 0)
    if hops > 0:
        # Flask wraps its WSGI app by assigning to the method (its documented way for middleware), which mypy refuses
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
        app.config["SESSION_COOKIE_SECURE"] = True


def add_headers(app: Flask) -> None:
    """Strict security headers on every response, and `Vary: HX-Request` since htmx gets fragments."""

    @app.after_request
    def secure(response: Response) -> Response:
        headers = response.headers
        # A page's words depend on the language cookie and Accept-Language: no shared cache may mix them. The header
        # is written once here (each `response.vary.add` parses it and writes it again).
        varies = VARY_PAGE if response.mimetype == "text/html" else VARY_OTHER
        if session.accessed:  # (what Flask's save_session would add, parsing the header and writing it again)
            varies = VARY_PAGE if varies is VARY_PAGE else VARY_SESSION
            session.accessed = False
        sent = headers.get("Vary")
        if sent:
            varies = ", ".join(dict.fromkeys([*parse_list_header(sent), *varies.split(", ")]))
            headers.remove("Vary")
        added = [*SECURITY_HEADERS, ("Vary", varies)]
        here = g._get_current_object()  # (one lookup of the context-local object, not one per attribute)
        if "ruzzle_now" in here:
            # the server's time when it answers: the pages' clocks follow it, not the phone's own clock
            added.append(("X-Ruzzle-Time", f"{here.ruzzle_now + time.perf_counter() - here.ruzzle_read_at:.3f}"))
        headers.extend(added)
        return response


def refuse_cross_site_posts(app: Flask) -> None:
    """A word or a round action sent by another site's page is refused: the SameSite=Lax cookie already keeps
    the round out of such a request; the browser's Origin header makes it a clear 403 (no CSRF token needed)."""

    # behind an HTTPS proxy the scheme is known, so http://this-host (a page of a network attacker) is not this site
    with_scheme = int(app.config["PROXY_FIX"] or 0) > 0

    @app.before_request
    def same_site_only() -> None:
        if request.method != "POST":
            return
        environ = request.environ  # (the two headers as sent: werkzeug's headers walk the environment for each)
        origin = environ.get("HTTP_ORIGIN")
        if (origin is not None and not _is_this_site(origin, with_scheme)) or environ.get(
            "HTTP_SEC_FETCH_SITE"
        ) == "cross-site":
            raise Forbidden(
                gettext("This was sent from another site, so it was not taken. Play on the board's own page.")
            )


def _is_this_site(origin: str, with_scheme: bool) -> bool:
    """Whether a request's Origin is this server: the same host (and port), and the same scheme when it is known."""
    parts = urlsplit(origin)
    return parts.netloc.lower() == request.host.lower() and (not with_scheme or parts.scheme == request.scheme)


def refuse_long_hosts(app: Flask) -> None:
    """A Host header longer than any web address is refused: every link and QR code of a page is built on it."""

    @app.before_request
    def host_of_a_real_address() -> None:
        if len(request.host) > MAX_HOST:
            raise BadRequest(
                gettext(
                    "The Host header is %(length)d characters long; a web address has at most %(most)d.",
                    length=len(request.host),
                    most=MAX_HOST,
                )
            )


def refuse_control_characters(app: Flask) -> None:
    """A request whose path, query or form holds a control character is refused with a 400 before any view reads it:
    every value that reaches the store passes here, whatever route or field it comes by."""

    @app.before_request
    def printable_only() -> None:
        asked = request._get_current_object()  # type: ignore[attr-defined]  # (one lookup, not one per attribute)
        query = asked.environ.get("QUERY_STRING", "")
        texts = [asked.path, query]
        if "%" in query:  # (with no escape, the query's text holds its fields' text: "+" is the only other change)
            texts.extend(chain.from_iterable(asked.args.items(multi=True)))
        if asked.method == "POST":
            texts.extend(chain.from_iterable(asked.form.items(multi=True)))
        if CONTROL_CHARACTERS.search("\n".join(texts)):
            raise BadRequest(
                gettext(
                    "This request holds control characters (such as a NUL byte), which no name, word or code has. "
                    "Type it again."
                )
            )
