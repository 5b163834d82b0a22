"""`GET /healthz`: whether this worker can serve (its dictionaries loaded, its store answering and taking writes)."""

from __future__ import annotations

import time

from flask import Blueprint, current_app

from store import describe_outage

from .services import services

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> tuple[dict[str, object], int]:
    """200 with each loaded dictionary's word count; 503 when no dictionary could be opened, or the store does
    not answer, or it answers but cannot write (a full disk): the status says which, in words."""
    lexicons = services().lexicons
    body = {code: len(lexicon) for code, lexicon in lexicons.items()}
    if not lexicons:
        return {"status": "no dictionary"}, 503
    store = services().store
    for problem, check in (
        ("the store does not answer", store.ping),
        ("the store does not take writes", lambda: store.heartbeat(time.time())),
    ):
        try:
            check()
        except Exception as error:  # any driver error: the store is out, which is what this answer says
            current_app.logger.error("%s: %s", problem, describe_outage(error))
            return {"status": problem, "dictionaries": body, "store": store.dialect}, 503
    return {"status": "ok", "dictionaries": body, "store": store.dialect}, 200
