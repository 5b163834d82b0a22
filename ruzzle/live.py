"""Rooms that never close (`/live/<language>`): one board per slot of the wall clock, for anyone, without a host.

Slot n starts n x (play + results) seconds after the epoch (UTC): every worker and every server works out the same
slot from the clock alone, without asking anyone. Its board is a pure function of the language, the slot and the
site's secret (so nobody outside can compute the next board and solve it before it starts). The ranking of an hour
or a day adds the scores of the rounds that started in that UTC hour or day.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from .generator import SEED_ALPHABET, SEED_LENGTH

LIVE_PREFIX = "LIVE"  # a live room's code is LIVE + its language (LIVEEN): L and I are not in the room codes' alphabet,
# so no class room ever draws one, and a live room's code never names a class's room
HOUR = 3600
DAY = 86400


@dataclass(frozen=True)
class Schedule:
    """The live rooms' clock: each slot has `play_seconds` of play, then `results_seconds` of results."""

    play_seconds: int = 120
    results_seconds: int = 60

    def __post_init__(self) -> None:
        if self.play_seconds < 1 or self.results_seconds < 1:
            raise ValueError(
                f"a live slot needs play and results, not {self.play_seconds} s + {self.results_seconds} s"
            )

    @property
    def slot_seconds(self) -> int:
        """How long a slot lasts, play and results."""
        return self.play_seconds + self.results_seconds

    def slot_at(self, moment: float) -> int:
        """The slot under way at `moment` (seconds since the epoch)."""
        return int(moment // self.slot_seconds)

    def starts(self, slot: int) -> int:
        """When a slot's play begins."""
        return slot * self.slot_seconds

    def play_ends(self, slot: int) -> int:
        """When a slot's play ends (its results begin)."""
        return self.starts(slot) + self.play_seconds

    def next_starts(self, moment: float) -> int:
        """When the next slot after the one under way at `moment` begins."""
        return self.starts(self.slot_at(moment) + 1)


def live_code(language: str) -> str:
    """The code of a language's live room (the rooms' pages and polls use it like any room's)."""
    return LIVE_PREFIX + language.upper()


def language_of(code: str) -> str | None:
    """The language a live room's code names (`LIVEEN` -> `en`), None for any other code."""
    if len(code) != len(LIVE_PREFIX) + 2 or not code.startswith(LIVE_PREFIX) or not code[len(LIVE_PREFIX) :].isalpha():
        return None
    return code[len(LIVE_PREFIX) :].lower()


def live_seed(secret: bytes, language: str, slot: int) -> str:
    """The seed of a slot's board: 6 characters of the seeds' alphabet from an HMAC of the language and the slot
    (the same on every server that shares the site's secret key, unknowable without it)."""
    digest = hmac.new(secret, f"live|{language}|{slot}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest, "big")
    characters = []
    for _ in range(SEED_LENGTH):
        number, index = divmod(number, len(SEED_ALPHABET))
        characters.append(SEED_ALPHABET[index])
    return "".join(characters)


def hour_start(moment: float) -> int:
    """The start of the UTC hour of `moment`."""
    return int(moment // HOUR) * HOUR


def day_start(moment: float) -> int:
    """The start of the UTC day of `moment`."""
    return int(moment // DAY) * DAY
