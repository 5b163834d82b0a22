"""gunicorn's access log without the teachers' keys (gunicorn.conf.py names it): whoever reads the server's log does
not get a link that runs a room or opens a class's results."""

from __future__ import annotations

from gunicorn.glogging import Logger, SafeAtoms

from .keys import redact_keys


class KeylessAtoms(SafeAtoms):
    """gunicorn's atoms of a request (the request line, path, query, Referer, any header or environ value), each one
    the log's format reads redacted as it is read (views.keys.redact_keys). Redacting all of them first (some fifty:
    every header and environ value) cost as much as a bare Flask app's whole answer."""

    def __getitem__(self, name: str) -> object:
        value = super().__getitem__(name)
        return redact_keys(value) if isinstance(value, str) else value


class KeylessLogger(Logger):
    """gunicorn's logger whose access-log fields carry no teacher's key (KeylessAtoms)."""

    atoms_wrapper_class = KeylessAtoms
