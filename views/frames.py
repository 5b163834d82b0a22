"""Page frames: a whole page drawn once per board, language and state, and only the player's own regions per request.

A board page is the same for every player of a board in a language (its head, header, board, word form, links to
share) but for a few regions: the clock, the score, the words found, the result, a challenge link, the summary. Those
are template blocks. The first request of a kind draws the page with each such block replaced by a mark, and keeps
the text between the marks, the frame; every request then draws only its blocks, each as htmx's fragments are drawn
(`render_blocks`), and puts them between the frame's texts. On the board page this leaves a sixth of the templates'
work (bench/README.md, issue 37).

A frame is kept under a key that names everything the page's text outside those blocks depends on, which the kind of
page gives (views/game.py `GamePage.frame_key`, None for a page that has something of its own outside them, such as a
message). With FRAMES_CHECKED on (the tests' apps), every framed page is also drawn whole, and a difference is an
error that says where: a key that missed something fails the test that showed it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from flask import current_app, render_template
from jinja2 import Template
from jinja2.runtime import Context

from .pages import BlockDrawer, FrameMismatch
from .services import services

MARK = "\x00frame-block:{}\x00"
MARKS = re.compile("\x00frame-block:([a-z_]+)\x00")
FRAMES_KEPT = 512  # frames per process (a page's frame is 10 to 20 KB)

Frame = tuple[tuple[bytes, ...], tuple[str, ...]]  # the texts (UTF-8), and the block drawn after each but the last


def render_framed(template_name: str, blocks: tuple[str, ...], key: Hashable, context: dict[str, Any]) -> bytes:
    """The whole page of `template_name` in UTF-8, its frame kept under `key` and its `blocks` drawn for this request.

    The frame is kept encoded: a page with one character beyond ASCII (an ellipsis, a language's name) cost 6 µs to
    encode whole, each time; the blocks, a few hundred characters, are encoded one by one."""
    app = current_app
    context.update(oob=frozenset(), fragment=False)
    app.update_template_context(context)
    template = app.jinja_env.get_template(template_name)
    frames = services().frames
    frame = frames.get((template_name, blocks, key))
    if frame is None:
        frame = draw_frame(template, blocks, context)
        if len(frames) >= FRAMES_KEPT:
            frames.pop(next(iter(frames)), None)  # the oldest first
        frames[(template_name, blocks, key)] = frame
    drawer = BlockDrawer(template, context)
    texts, drawn = frame
    parts = [texts[0]]
    for text, name in zip(texts[1:], drawn, strict=True):
        parts.append(drawer.draw(name).encode())
        parts.append(text)
    page = b"".join(parts)
    if app.config["FRAMES_CHECKED"]:
        check_frame(page.decode(), template_name, context, key)
    return page


def draw_frame(template: Template, blocks: tuple[str, ...], context: dict[str, Any]) -> Frame:
    """The page with a mark in place of each of `blocks`, cut at the marks (its texts in UTF-8)."""
    shared = template.new_context(context)
    for name in blocks:
        shared.blocks[name] = [mark_of(name)]
    text = current_app.jinja_env.concat(template.root_render_func(shared))
    pieces = MARKS.split(text)
    return tuple(piece.encode() for piece in pieces[0::2]), tuple(pieces[1::2])


def mark_of(name: str) -> Callable[[Context], Iterator[str]]:
    """A block's function that draws its mark instead of the block."""
    return lambda _context: iter([MARK.format(name)])


def check_frame(page: str, template_name: str, context: dict[str, Any], key: Hashable) -> None:
    """FRAMES_CHECKED: the framed page must be the page drawn whole, to the character."""
    whole = render_template(template_name, **context)
    if page != whole:
        at = next((i for i, (a, b) in enumerate(zip(page, whole, strict=False)) if a != b), min(len(page), len(whole)))
        raise FrameMismatch(
            f"{template_name} framed under {key!r} differs from the whole page at {at}: "
            f"{page[max(0, at - 80) : at + 80]!r} against {whole[max(0, at - 80) : at + 80]!r}"
        )


__all__ = ["FRAMES_KEPT", "FrameMismatch", "render_framed"]
