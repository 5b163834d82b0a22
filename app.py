"""The Ruzzle web application: the factory and its views (the game itself lives in `ruzzle/`)."""

from __future__ import annotations

from flask import Flask

from ruzzle import LANGUAGES, Lexicon
from ruzzle.errors import DictionaryError


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: defaults, then `RUZZLE_*` environment variables, then the test config."""
    app = Flask(__name__)
    app.config.from_prefixed_env("RUZZLE")
    if test_config:
        app.config.from_mapping(test_config)
    app.extensions["ruzzle.lexicons"] = _load_lexicons()

    @app.get("/healthz")
    def healthz():
        """200 with each loaded dictionary's word count; 503 when no dictionary could be opened."""
        lexicons = app.extensions["ruzzle.lexicons"]
        body = {code: len(lexicon) for code, lexicon in lexicons.items()}
        return ({"status": "ok", "dictionaries": body}, 200) if lexicons else ({"status": "no dictionary"}, 503)

    return app


def _load_lexicons() -> dict[str, Lexicon]:
    """Open each language's built-in dictionary once per process (memory-mapped, shared by workers)."""
    lexicons = {}
    for code in LANGUAGES:
        try:
            lexicons[code] = Lexicon.builtin(code)
        except DictionaryError:
            continue  # languages without a dictionary yet are simply not playable
    return lexicons


app = create_app()
