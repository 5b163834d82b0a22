"""gunicorn's access log without the teachers' keys (gunicorn.conf.py names it): whoever reads the server's log does
not get a link that runs a room or opens a class's results."""

from __future__ import annotations

from datetime import timedelta
from wsgiref.types import WSGIEnvironment

from gunicorn.glogging import Logger

from .keys import redact_keys


class KeylessLogger(Logger):
    """gunicorn's logger whose access-log fields (the request line, path, query, Referer, any header or environ value)
    carry no teacher's key (views.keys.redact_keys)."""

    def atoms(self, resp: object, req: object, environ: WSGIEnvironment, request_time: timedelta) -> dict[str, object]:
        """gunicorn's atoms with every key redacted."""
        atoms = super().atoms(resp, req, environ, request_time)
        return {name: redact_keys(value) if isinstance(value, str) else value for name, value in atoms.items()}
