"""A room's rules that are not storage: its codes, and how much of its ranking a page names.

A room's clock is a `ruzzle.timeline.Timeline`, its matches are `ruzzle.match`'s and its nicknames
`ruzzle.nicknames`'; the store keeps rooms (`store/rooms.py`) and the views ask these rules.
"""

from __future__ import annotations

from .generator import SEED_ALPHABET

# A room's code is read aloud from a projector and typed on phones, as a board's seed is: the same alphabet, without
# 0/O or 1/I/L to mix up. The store draws the codes (it retries one that is taken) with a copy of these three values,
# since it imports no game code; tests/test_room.py pins the copy to them.
CODE_ALPHABET = SEED_ALPHABET
CODE_LENGTH = 6
REJOIN_CODE_LENGTH = 4  # a pupil's personal code to take their seat back on another device

TOP_SHOWN = 10  # lines of a room's ranking a page names (a player's own line besides)
PODIUM = 3  # the lines named when the room names its top 3 only
NAMES_SHOWN = ("all", "top3", "none")  # whom the pages name: everyone, the top 3, nobody (class totals instead)


def is_room_code(text: str) -> bool:
    """Whether a text (upper case, as codes are kept) has the shape of a room code."""
    return len(text) == CODE_LENGTH and set(text) <= set(CODE_ALPHABET)


def ranking_shown(names: str, top: int = TOP_SHOWN) -> int:
    """How many lines of the ranking a page names under the room's setting for names: `top`, or at most the podium
    when the room names its top 3 only."""
    return min(top, PODIUM) if names == "top3" else top
