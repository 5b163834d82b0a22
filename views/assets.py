"""Static files under content-hashed names (`css/ruzzle.css` as `css/ruzzle.3f2a9c1b0d4e.css`), cached by
browsers for a year without asking again: a changed file has a new name, so a page never gets a stale one."""

from __future__ import annotations

import gzip
import hashlib
import re
from pathlib import Path

from flask import Flask, Response, request, send_from_directory

ONE_YEAR = 365 * 24 * 3600
DIGEST_LENGTH = 12
_HASHED = re.compile(rf"(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<suffix>\.[^./]+)")

# The board page's scripts are small modules (static/js/, one concern each, talking through `ruzzle:` events:
# docs/ARCHITECTURE.md); a page loads them as one file, so that a phone on a slow network makes one request for
# them, not twelve. A bundle is the modules joined in this order, made in memory when the app starts.
FOLLOWING = ("net", "never_stuck", "round_clock", "end_round")  # a page that follows a room's round: host, remote
PLAYING = FOLLOWING + (
    "announce",
    "trace",
    "keyboard",
    "word_form",
    "word_queue",
    "found_list",
    "feedback",
    "network_notice",
    "share",
)  # a board page
BUNDLES = {"js/following.js": FOLLOWING, "js/playing.js": PLAYING}
# The kinds of file a front server sends gzipped (deploy/nginx.conf's gzip_static finds the .gz beside each).
COMPRESSED_SUFFIXES = (".css", ".js", ".svg")


def hashed_name(name: str, content: bytes) -> str:
    """`dir/name.ext` with the first hex digits of the content's SHA-256 before the extension."""
    digest = hashlib.sha256(content).hexdigest()[:DIGEST_LENGTH]
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}.{digest}.{suffix}" if dot and "/" not in suffix else f"{name}.{digest}"


class StaticFiles:
    """The hashed name of every file in the static folder, read once when the app starts."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.hashed: dict[str, str] = {}
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.name != "README.md":
                name = path.relative_to(folder).as_posix()
                self.hashed[name] = hashed_name(name, path.read_bytes())
        self.bundles = {name: bundle(folder, modules) for name, modules in BUNDLES.items()}
        for name, content in self.bundles.items():
            self.hashed[name] = hashed_name(name, content)
        self.real = {hashed: name for name, hashed in self.hashed.items()}

    def name(self, filename: str) -> str:
        """The name to link a static file by: hashed when the file is known, else as it is."""
        return self.hashed.get(filename, filename)

    def write(self, destination: Path) -> list[Path]:
        """Write every file (the bundles too) under its plain and its hashed name into `destination`, for a front
        server to send as they are (deploy/nginx.conf), with a gzipped copy of each text file beside it; the files
        written. Nothing already there is removed: a page still open from the version before links its files by their
        old hashed names, and gets them."""
        written = []
        for name, hashed in self.hashed.items():
            content = self.bundles[name] if name in self.bundles else (self.folder / name).read_bytes()
            for each in (name, hashed):
                written += _write_file(destination / each, content)
        return written


def bundle(folder: Path, modules: tuple[str, ...]) -> bytes:
    """The modules' files joined in order, each after a comment naming it (each module is a whole statement)."""
    return b"".join(
        f"/* js/{module}.js */\n".encode() + (folder / "js" / f"{module}.js").read_bytes().rstrip() + b"\n"
        for module in modules
    )


def _write_file(path: Path, content: bytes) -> list[Path]:
    """Write a file, and its gzipped copy (`.gz`) beside it when it is text and the copy is smaller; the paths."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    if path.suffix not in COMPRESSED_SUFFIXES:
        return [path]
    # mtime 0: the same file gives the same bytes on every deploy
    packed = gzip.compress(content, compresslevel=9, mtime=0)
    if len(packed) >= len(content):
        return [path]
    packed_path = path.with_name(path.name + ".gz")
    packed_path.write_bytes(packed)
    return [path, packed_path]


def serve_static_files(app: Flask, files: StaticFiles) -> None:
    """Replace Flask's static view: hashed names are immutable for a year; plain names (and a hashed name
    from an older version of a file, asked by a page still open) are revalidated on each use."""

    def static(filename: str) -> Response:
        real = files.real.get(filename)
        if (real or filename) in files.bundles:
            return _send_bundle(files.bundles[real or filename], immutable=real is not None)
        if real is None:
            older = _HASHED.fullmatch(filename)
            if older and f"{older['stem']}{older['suffix']}" in files.hashed:
                return app.send_static_file(f"{older['stem']}{older['suffix']}")
            return app.send_static_file(filename)
        assert app.static_folder is not None  # the app has its static folder (the files named in `files`)
        response = send_from_directory(app.static_folder, real, max_age=ONE_YEAR)
        response.cache_control.public = True
        response.cache_control.immutable = True
        return response

    app.view_functions["static"] = static


def _send_bundle(content: bytes, immutable: bool) -> Response:
    """A bundle of scripts, as the static view sends a file: for a year under its hashed name, else revalidated."""
    response = Response(content, mimetype="text/javascript")
    if immutable:
        response.cache_control.max_age = ONE_YEAR
        response.cache_control.public = True
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
        response.set_etag(hashlib.sha256(content).hexdigest()[:DIGEST_LENGTH])
        response.make_conditional(request)
    return response
