"""Every refusal as a page (or an htmx fragment) with a message a person understands, never a trace: HTTP errors, the
game's errors, an unknown language, a store outage (a 503 that says to wait), and a bug (a 500, logged)."""

from __future__ import annotations

from flask import Flask, make_response, request
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext
from werkzeug.exceptions import HTTPException

from ruzzle.errors import RuzzleError, UnknownLanguage
from store import STORE_OUTAGES, describe_outage, is_outage

from .i18n import translate_error
from .pages import render_error
from .translations import gettext, ngettext

# HTTP errors in plain words: a title, and the message when the code raising it gave none of its own.
PLAIN_ERRORS = {
    400: (lazy_gettext("That does not work"), lazy_gettext("Something in this address or form is not right.")),
    403: (lazy_gettext("Not allowed"), lazy_gettext("This page is not open to you.")),
    404: (
        lazy_gettext("Not found"),
        lazy_gettext("There is no page at this address. Check the link, or start again from the start page."),
    ),
    405: (
        lazy_gettext("Not that way"),
        lazy_gettext("This address does not take that kind of request; use the buttons and links on the pages."),
    ),
    413: (lazy_gettext("Too much sent"), lazy_gettext("That request is far bigger than anything this game needs.")),
    422: (lazy_gettext("That does not work"), lazy_gettext("The request could not be understood.")),
    429: (lazy_gettext("Slow down"), lazy_gettext("Too many requests in a short time. Wait a little, then try again.")),
}
UNKNOWN_ERROR = (lazy_gettext("That does not work"), lazy_gettext("This request could not be answered."))


def add_error_pages(app: Flask) -> None:
    """Every refusal as a page (or an htmx fragment) with a message a person understands, never a trace."""

    @app.errorhandler(UnknownLanguage)
    def unknown_language(error: UnknownLanguage) -> ResponseReturnValue:
        return render_error(
            404,
            gettext("Unknown language"),
            gettext("There is no language %(code)s here.", code=repr(error.code[:20])),
            list_languages=True,
        )

    @app.errorhandler(RuzzleError)
    def bad_game_input(error: RuzzleError) -> ResponseReturnValue:
        return render_error(400, gettext("That does not work"), translate_error(error))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if error.code and error.code < 400:
            return error
        code = error.code or 500  # (an HTTPException of no code is answered as a 500)
        title, default = PLAIN_ERRORS.get(code, UNKNOWN_ERROR)
        # werkzeug's own English description is replaced by ours; a message the code gave is already translated
        message = default if error.description == type(error).description else error.description or default
        response = make_response(render_error(code, title, message))
        retry_after = getattr(error, "retry_after", None)  # werkzeug's 429 and 503 have it
        if retry_after:
            response.headers["Retry-After"] = str(retry_after)
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> ResponseReturnValue:
        app.logger.exception("unexpected error")
        return render_error(
            500, gettext("Something broke"), gettext("Sorry, the server failed on this request. Try again.")
        )

    def store_outage(error: Exception) -> ResponseReturnValue:
        """The store does not answer or cannot write: a 503 that says to wait (logged in a line, no trace)."""
        if not is_outage(error):
            return unexpected(error)
        app.logger.error("the store failed on %s %s: %s", request.method, request.path, describe_outage(error))
        seconds = int(app.config["STORE_RETRY_SECONDS"])
        response = make_response(
            render_error(
                503,
                gettext("The game's storage is not answering"),
                ngettext(
                    "Words you played wait on the board page, which sends them again by itself. Try again in "
                    "%(num)d second.",
                    "Words you played wait on the board page, which sends them again by itself. Try again in %(num)d "
                    "seconds.",
                    seconds,
                ),
            )
        )
        response.headers["Retry-After"] = str(seconds)
        return response

    for outage in STORE_OUTAGES:
        app.register_error_handler(outage, store_outage)
