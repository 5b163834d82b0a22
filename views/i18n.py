"""The interface's language: which one a request gets, the switcher that remembers a choice, translated game errors.

The language is, in order: the player's choice (a cookie the switcher sets), the board's language on a board's
own URL (a shared Italian board opened fresh is Italian), the browser's Accept-Language, English.
Catalogues: `translations/<code>/LC_MESSAGES/messages.po` (`tools/translations.sh`, translations/README.md).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import cast

from babel import numbers
from flask import Blueprint, Flask, current_app, redirect, request
from flask_babel import format_percent
from markupsafe import Markup, escape
from werkzeug.exceptions import BadRequest
from werkzeug.wrappers import Response

from ruzzle import get_language, normalize_word
from ruzzle.errors import BoardFormatError, RuzzleError
from ruzzle.rules import Multiplier

from .addresses import same_site_path
from .translations import (
    DEFAULT_LANGUAGE,
    INTERFACE_LANGUAGES,
    LANGUAGE_COOKIE,
    TEMPLATE_MESSAGES,
    BabelPerRequest,
    current_language,
    gettext,
    ngettext,
    pgettext,
    request_locale,
)

LANGUAGE_COOKIE_AGE = 365 * 86400

bp = Blueprint("i18n", __name__)
# French elides "de" before a vowel sound ("une forme d'être", "Définition d'ARBRE") but not before an aspirated h
# ("une forme de haïr"): the words with one, reviewed, in board spelling (tools/build_h_aspire.py writes the file).
FRENCH_H_ASPIRE = Path(__file__).resolve().parent.parent / "translations" / "fr" / "h_aspire.txt"
# Words that start with a vowel letter but take no elision (de onze, de oui), and the one y-word that takes it.
FRENCH_NO_ELISION = frozenset({"ONZE", "ONZIEME", "ONZIEMES", "OUI", "OUIS", "OUISTITI", "OUISTITIS", "UHLAN"})
FRENCH_ELIDING_Y = frozenset({"YEUX"})


def init_app(app: Flask) -> None:
    """Flask-Babel with our selector and catalogues; the switcher's route; `Vary` on what picks the language."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(app.root_path + "/translations"))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    BabelPerRequest(app, locale_selector=request_locale)
    # The templates' messages from this request's catalogue (views/translations.py TEMPLATE_MESSAGES), in place of
    # jinja2.ext.i18n's new-style wrappers, which Flask-Babel's extension installed; `_` is gettext itself
    app.jinja_env.newstyle_gettext = True  # type: ignore[attr-defined]  # (jinja2.ext.i18n's flag, for any {% trans %})
    app.jinja_env.globals.update(TEMPLATE_MESSAGES)
    app.register_blueprint(bp)
    app.jinja_env.globals.update(
        current_language=current_language,
        interface_languages=interface_languages,
        switcher_next=switcher_next,
        multiplier_name=multiplier_name,
        multiplier_label=multiplier_label,
        strong=strong,
        span=span,
        elide=elide,
    )
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["percent"] = percent


def number(value: float) -> str:
    """A number as this request's language writes it (1,234 / 1 234 / 1.234): Flask-Babel's format_decimal, each
    number formatted once per language and process (Babel's formatting cost more than the rest of a score's region)."""
    return _number(current_language(), value)


@lru_cache(maxsize=4096)
def _number(locale: str, value: float) -> str:
    return numbers.format_decimal(value, locale=locale)


def percent(value: float) -> str:
    """A share written out of 100 (45 -> "45%" in English, "45 %" in French)."""
    return format_percent(value / 100)


def interface_languages() -> list[tuple[str, str]]:
    """Each interface language's code and its own name (Italiano, Deutsch, ...), for the switcher."""
    return [(code, get_language(code).name) for code in INTERFACE_LANGUAGES]


def switcher_next() -> str:
    """Where the switcher brings the player back: this page (a GET), or the start page."""
    if request.method != "GET":
        return "/"
    return request.full_path.rstrip("?") if request.query_string else request.path


@bp.post("/language")
def choose_language() -> Response:
    """Remember the language the player chose (a cookie for a year) and go back to the page they were on."""
    code = request.form.get("language", "")
    if code not in INTERFACE_LANGUAGES:
        raise BadRequest(
            gettext(
                "The interface speaks %(languages)s; not %(code)s.",
                languages=", ".join(INTERFACE_LANGUAGES),
                code=repr(code[:20]),
            )
        )
    response = redirect(same_site_path(request.form.get("next")) or "/", 303)
    response.set_cookie(
        LANGUAGE_COOKIE,
        code,
        max_age=LANGUAGE_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure or current_app.config["SESSION_COOKIE_SECURE"],
    )
    return response


def translate_error(error: RuzzleError) -> str:
    """A game error's message in the interface language, with its values."""
    values = dict(error.values)
    if isinstance(error.template, tuple):
        singular, plural = error.template
        message = ngettext(singular, plural, cast(int, values.pop("num")), **values)  # a plural's num is a count
    else:
        message = gettext(error.template, **values)
    if isinstance(error, BoardFormatError) and error.line is not None:
        if error.column is not None:
            return gettext(
                "line %(line)d, column %(column)d: %(problem)s", line=error.line, column=error.column, problem=message
            )
        return gettext("line %(line)d: %(problem)s", line=error.line, problem=message)
    return message


@cache
def french_h_aspire() -> frozenset[str]:
    """The French words whose h is aspirated (HAIR, HETRE), read once from translations/fr/h_aspire.txt."""
    lines = FRENCH_H_ASPIRE.read_text(encoding="utf-8").splitlines()
    return frozenset(line for line in lines if line and not line.startswith("#"))


def french_elides(word: str) -> bool:
    """Whether French writes "d'" rather than "de" before this word: a vowel sound first (être, hiver, ypérite)."""
    first = re.match(r"[^\W\d_]+", word)
    spelling = normalize_word(first[0]) if first else None
    if spelling is None or spelling in FRENCH_NO_ELISION:
        return False
    if spelling.startswith("H"):
        return spelling not in french_h_aspire()
    if spelling.startswith("Y"):  # y before a vowel is a consonant (de yaourt), before a consonant a vowel (d'ypérite)
        return spelling in FRENCH_ELIDING_Y or spelling[1:2] not in ("", "A", "E", "I", "O", "U")
    return spelling[0] in "AEIOU"


def elide(text: str, word: object) -> str:
    """A translated sentence that names a word, with French "de" elided before it where French says so ("une forme
    d'être", but "de haïr"); the sentence as it is in every other language ("di essere", "de árbol")."""
    value = str(word)
    if current_language() != "fr" or not french_elides(value):
        return text
    written = str(escape(value)) if isinstance(text, Markup) else value
    elided = re.sub(r"\b([Dd])e (?=" + re.escape(written) + r"(?!\w))", r"\1'", str(text))
    return Markup(elided) if isinstance(text, Markup) else elided


def multiplier_name(multiplier: Multiplier) -> str:
    """The short name a tile shows for its multiplier (DL, TL, DW, TW in English)."""
    if multiplier is Multiplier.DL:
        return pgettext("tile badge, double letter", "DL")
    if multiplier is Multiplier.TL:
        return pgettext("tile badge, triple letter", "TL")
    if multiplier is Multiplier.DW:
        return pgettext("tile badge, double word", "DW")
    return pgettext("tile badge, triple word", "TW")


def multiplier_label(multiplier: Multiplier) -> str:
    """The multiplier in words, for a tile's accessible name."""
    if multiplier is Multiplier.DL:
        return gettext("double letter")
    if multiplier is Multiplier.TL:
        return gettext("triple letter")
    if multiplier is Multiplier.DW:
        return gettext("double word")
    return gettext("triple word")


def strong(value: object) -> Markup:
    """A value set in bold inside a translated sentence (the sentence's words stay in the catalogue)."""
    return Markup("<strong>%s</strong>") % value


def span(value: object, class_name: str) -> Markup:
    """A value in a `<span class>` inside a translated sentence."""
    return Markup('<span class="%s">%s</span>') % (class_name, value)
