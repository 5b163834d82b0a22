"""What a word means: `GET /define/<language>/<word>` (a panel, a page, or JSON) and the sources' attribution page.

The panel is one macro (`_meaning.html`, `meaning_panel`) that the solution page, a round's opened word and the
projector's walk-through draw too, so a meaning looks the same wherever a word is opened. A panel drawn from a board
follows that board's classroom filter (`safe`); `/define` is in class unless its URL says `safe=0`.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, make_response, render_template, request
from flask_babel import lazy_gettext
from werkzeug.exceptions import BadRequest
from werkzeug.wrappers import Response

from ruzzle import LANGUAGES, get_language, normalize_word
from ruzzle.errors import UnknownLanguage
from ruzzle.meanings import SOURCES, Meaning, Source, wiktionary_url

from .boards import parse_safe
from .i18n import elide, translate_error
from .pages import render, render_error, wants_json
from .services import services
from .translations import gettext

bp = Blueprint("meanings", __name__)
MAX_WORD = 64  # letters: longer than any word of any dictionary, and than a 12x12 board's cells
# What form of its lemma a word is (tools/build_meanings.py writes these kinds), said before the lemma.
FORMS = {
    "plural": lazy_gettext("plural of %(lemma)s"),
    "third person": lazy_gettext("present tense of %(lemma)s"),
    "present": lazy_gettext("present tense of %(lemma)s"),
    "past": lazy_gettext("past of %(lemma)s"),
    "present participle": lazy_gettext("present participle of %(lemma)s"),
    "past participle": lazy_gettext("past participle of %(lemma)s"),
    "comparative": lazy_gettext("comparative of %(lemma)s"),
    "superlative": lazy_gettext("superlative of %(lemma)s"),
    "form": lazy_gettext("a form of %(lemma)s"),
}
PARTS_OF_SPEECH = {
    "noun": lazy_gettext("noun"),
    "verb": lazy_gettext("verb"),
    "adjective": lazy_gettext("adjective"),
    "adverb": lazy_gettext("adverb"),
}


@dataclass(frozen=True)
class Definition:
    """A word's meaning as a page shows it: the board word, its meaning (None where there is none), the source, the
    word's Wiktionary page, and whether it is shown in class (the classroom filter on)."""

    language: str
    word: str
    meaning: Meaning | None
    source: Source | None
    link: str
    classroom: bool = True

    @property
    def form(self) -> str | None:
        """'past of run', in the interface language; None when the word is its own lemma."""
        if self.meaning is None or self.meaning.form is None:
            return None
        return form_of(self.meaning.form, self.meaning.lemma)

    @property
    def also(self) -> str | None:
        """'also past of see', for a word that is a lemma and a form of another; None otherwise."""
        if self.meaning is None or self.meaning.also is None:
            return None
        form, lemma = self.meaning.also
        return gettext("also %(form)s", form=form_of(form, lemma))

    def as_json(self) -> dict[str, object]:
        """The JSON answer: word, lemma, form, also, senses, source, licence, link."""
        meaning = self.meaning
        return {
            "word": self.word,
            "lemma": meaning.lemma if meaning else None,
            "form": self.form,
            "also": self.also,
            "senses": [{"pos": sense.pos, "gloss": sense.gloss} for sense in meaning.senses] if meaning else [],
            "source": self.source.name if meaning and self.source else None,
            "licence": self.source.licence if meaning and self.source else None,
            "link": self.link,
        }


def form_of(form: str, lemma: str) -> str:
    """What form of its lemma a word is, in the interface language ('past of run', 'pluriel d'arbre')."""
    return elide(str(FORMS.get(form, FORMS["form"])) % {"lemma": lemma}, lemma)


def define(language: str, word: str, classroom: bool = True) -> Definition:
    """The definition of a board word (A-Z upper case) in a known language code; in class (the senses a class must
    not see dropped) unless `classroom` is False, as a board with the filter off (safe=0) asks."""
    library = services().meanings
    meanings = library.of(language)
    meaning = meanings.define(word, classroom) if meanings else None
    return Definition(language, word, meaning, SOURCES.get(language), wiktionary_url(language, word), classroom)


def part_of_speech(pos: str) -> str:
    """A part of speech in the interface language ('' where the source gives none)."""
    return str(PARTS_OF_SPEECH.get(pos, pos))


TEMPLATE_HELPERS = {"define_word": define, "part_of_speech": part_of_speech}


@bp.get("/define/<language>/<word>")
def define_word(language: str, word: str) -> Response:
    """A word's meaning: the panel for htmx, a page, or JSON; 404 (with the Wiktionary link) where there is none. In
    class unless the URL says `safe=0`, as a board's does."""
    json = wants_json()
    try:
        classroom = parse_safe(request.args.get("safe"))
    except BadRequest as error:
        return _refuse(400, str(error.description), json)
    try:
        code = get_language(language).code
    except UnknownLanguage as error:
        return _refuse(404, translate_error(error), json)
    board_word = normalize_word(word) if len(word) <= MAX_WORD else None
    if board_word is None:
        return _refuse(
            400,
            gettext(
                "%(word)s is not a word a board can hold: only letters, at most %(num)d.", word=word[:40], num=MAX_WORD
            ),
            json,
        )
    definition = define(code, board_word, classroom)
    status = 200 if definition.meaning else 404
    if json:
        body = definition.as_json()
        if definition.meaning is None:  # a 404 says why in a sentence, as every refusal of the JSON API does
            body["error"] = gettext("No meaning of this word here yet.")
        response = make_response(body, status)
    else:
        response = make_response(render("meaning.html", ["meaning"], status, definition=definition, title=board_word))
    response.vary.add("Accept")  # the same address answers JSON or HTML
    return response


@bp.get("/about/meanings")
def about_meanings() -> str:
    """Where the meanings come from, with their licences (the attribution CC BY-SA and WordNet ask for)."""
    library = services().meanings
    sources = {code: SOURCES.get(code) if library.of(code) else None for code in LANGUAGES}
    return render_template("about_meanings.html", sources=sources)


def _refuse(status: int, message: str, wants_json: bool) -> Response:
    """Bad input, said in a sentence: as JSON, or as the error page or fragment every view gives."""
    if wants_json:
        response = make_response({"error": message}, status)
    else:
        # the error page or fragment, without the header that tells a round's page a word was refused (no word was)
        body, status, headers = render_error(
            status, gettext("That does not work"), message, list_languages=status == 404
        )
        response = make_response(body, status, {name: value for name, value in headers.items() if name != "HX-Trigger"})
    response.vary.add("Accept")
    return response
