"""This request's interface language and its messages: the language found once per request, with its catalogue.

Flask-Babel finds the locale and the catalogue again for every message and every `get_locale()`, through a dozen
lookups of Flask's context-local objects: the first message of a request cost 25 µs, each later one 4. Here they are
found at the first use and kept in Flask-Babel's own per-request state, so that its functions (`get_locale`,
`force_locale`, the number formats) and these agree. The app's code and templates take their messages from here.
"""

from __future__ import annotations

from functools import cache, cached_property
from types import SimpleNamespace
from typing import Any, NamedTuple

from babel import Locale
from babel.support import NullTranslations, Translations
from flask import current_app, g, request
from flask_babel import Babel, Domain
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

# The interface's languages, English first (the default); each has a catalogue under translations/.
INTERFACE_LANGUAGES = ("en", "it", "es", "fr", "de", "nl", "pt")
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "ruzzle_lang"


def select_language() -> str:
    """The interface language of this request: the player's choice, a board URL's language, Accept-Language."""
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in INTERFACE_LANGUAGES:
        return chosen
    # a board URL names its language; a room's pages note theirs when they look the room up (views/rooms/core.py,
    # find_room)
    board_language = (request.view_args or {}).get("language") or g.get("board_language")
    if isinstance(board_language, str) and board_language.lower() in INTERFACE_LANGUAGES:
        return board_language.lower()
    return request.accept_languages.best_match(INTERFACE_LANGUAGES, default=DEFAULT_LANGUAGE)


@cache
def parsed_locale(code: str) -> Locale:
    """A language code as Babel's Locale, made once per process: Flask-Babel parses the selector's answer on every
    request, and parsing looks for the locale's data file on disk each time (a selector's Locale is taken as is)."""
    return Locale.parse(code)


def request_locale() -> Locale:
    """This request's interface language as Babel's Locale (Flask-Babel's locale selector)."""
    return parsed_locale(select_language())


class RequestLanguage(NamedTuple):
    """A request's interface language as Flask-Babel's locale, its code and its catalogue, found together once."""

    locale: Locale
    code: str
    translations: Translations | NullTranslations


def request_language() -> RequestLanguage | None:
    """This request's interface language, found at its first use and kept in Flask-Babel's per-request state (found
    again for a locale forced for a while, force_locale); None outside any app context. Flask-Babel finds the locale
    and the catalogue again at each use, through a dozen lookups of Flask's context-local objects: the first message
    of a request cost 25 µs, and each later `str(get_locale())` 4."""
    try:
        here = g._get_current_object()  # (one lookup of the context-local object, not one per attribute)
    except RuntimeError:  # (outside any app context)
        return None
    state = here.__dict__.get("_flask_babel")
    if state is None:
        state = here._flask_babel = SimpleNamespace()  # as Flask-Babel makes it
    locale = getattr(state, "babel_locale", None)
    kept: RequestLanguage | None = getattr(state, "ruzzle_language", None)
    if kept is not None and kept.locale is locale:
        return kept
    if locale is None:
        locale = state.babel_locale = request_locale()  # as flask_babel.get_locale would find and keep it
    code = str(locale)
    domain = current_app.extensions["babel"].instance.domain_instance
    translations = domain.cache.get((code, domain.domain[0]))  # (Flask-Babel's own cache of loaded catalogues)
    if translations is None:
        translations = Domain.get_translations(domain)  # loaded into that cache, for this request's locale
    kept = state.ruzzle_language = RequestLanguage(locale, code, translations)
    return kept


def request_translations() -> Translations | NullTranslations:
    """This request's catalogue, for the templates' messages and the code's (CataloguePerRequest)."""
    language = request_language()
    return NullTranslations() if language is None else language.translations


class CataloguePerRequest(Domain):
    """Flask-Babel's message domain, finding a request's catalogue once (request_language)."""

    def get_translations(self) -> Translations | NullTranslations:
        return request_translations()


class BabelPerRequest(Babel):
    """Flask-Babel with its default domain finding a request's catalogue once (CataloguePerRequest)."""

    @cached_property
    def domain_instance(self) -> CataloguePerRequest:
        return CataloguePerRequest(domain=self.domain)


def current_language() -> str:
    """The code of this request's interface language (for `<html lang>`; "en" outside a request)."""
    language = request_language()
    return DEFAULT_LANGUAGE if language is None else language.code


def gettext(string: str, **variables: Any) -> str:
    """A message in this request's language, its `%(name)s` filled from `variables` (as Flask-Babel's gettext)."""
    text: str = request_translations().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """A message with a count, in the form this request's language takes for `num` (also `%(num)s`)."""
    variables.setdefault("num", num)
    text: str = request_translations().ungettext(singular, plural, num)
    return text % variables


def pgettext(context: str, string: str, **variables: Any) -> str:
    """A message of one meaning among several of the same English text (`context` says which)."""
    text: str = request_translations().upgettext(context, string)
    return text % variables if variables else text


# A template's messages, as jinja2.ext.i18n's new-style gettext makes them (an autoescaped message is Markup, and is
# always a format string, its `%(name)s` filled from the call's keywords, `num` and `context` among them: a keyword of
# that name wins, hence the positional-only parameters) on this request's catalogue; called directly rather than
# through Jinja's alias and wrapper, two indirect calls a message.


def formatted(context: Context, text: str, variables: dict[str, Any]) -> str:
    """A template's message as the new style makes it: Markup when the template escapes, always formatted."""
    return (Markup(text) if context.eval_ctx.autoescape else text) % variables


@pass_context
def template_gettext(context: Context, string: str, /, **variables: Any) -> str:
    return formatted(context, request_translations().ugettext(string), variables)


@pass_context
def template_ngettext(context: Context, singular: str, plural: str, num: int, /, **variables: Any) -> str:
    variables.setdefault("num", num)
    return formatted(context, request_translations().ungettext(singular, plural, num), variables)


@pass_context
def template_pgettext(context: Context, message_context: str, string: str, /, **variables: Any) -> str:
    variables.setdefault("context", message_context)
    return formatted(context, request_translations().upgettext(message_context, string), variables)


@pass_context
def template_npgettext(
    context: Context, message_context: str, singular: str, plural: str, num: int, /, **variables: Any
) -> str:
    variables.setdefault("context", message_context)
    variables.setdefault("num", num)
    return formatted(context, request_translations().unpgettext(message_context, singular, plural, num), variables)


TEMPLATE_MESSAGES = {
    "_": template_gettext,
    "gettext": template_gettext,
    "ngettext": template_ngettext,
    "pgettext": template_pgettext,
    "npgettext": template_npgettext,
}
