"""Static files under content-hashed names (`css/ruzzle.css` as `css/ruzzle.3f2a9c1b0d4e.css`), cached by
browsers for a year without asking again: a changed file has a new name, so a page never gets a stale one."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from flask import Flask, send_from_directory

from .services import services

ONE_YEAR = 365 * 24 * 3600
DIGEST_LENGTH = 12
_HASHED = re.compile(rf"(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<suffix>\.[^./]+)")


def hashed_name(name: str, content: bytes) -> str:
    """`dir/name.ext` with the first hex digits of the content's SHA-256 before the extension."""
    digest = hashlib.sha256(content).hexdigest()[:DIGEST_LENGTH]
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{digest}.{suffix}" if dot and "/" not in suffix else f"{name}.{digest}"


class StaticFiles:
    """The hashed name of every file in the static folder, read once when the app starts."""

    def __init__(self, folder: Path):
        self.hashed: dict[str, str] = {}
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.name != "README.md":
                name = path.relative_to(folder).as_posix()
                self.hashed[name] = hashed_name(name, path.read_bytes())
        self.real = {hashed: name for name, hashed in self.hashed.items()}

    def name(self, filename: str) -> str:
        """The name to link a static file by: hashed when the file is known, else as it is."""
        return self.hashed.get(filename, filename)


def serve_static_files(app: Flask) -> None:
    """Replace Flask's static view: hashed names are immutable for a year; plain names (and a hashed name
    from an older version of a file, asked by a page still open) are revalidated on each use."""
    files = services(app).static_files

    def static(filename: str):
        real = files.real.get(filename)
        if real is None:
            older = _HASHED.fullmatch(filename)
            if older and f"{older['stem']}{older['suffix']}" in files.hashed:
                return app.send_static_file(f"{older['stem']}{older['suffix']}")
            return app.send_static_file(filename)
        response = send_from_directory(app.static_folder, real, max_age=ONE_YEAR)
        response.cache_control.public = True
        response.cache_control.immutable = True
        return response

    app.view_functions["static"] = static
