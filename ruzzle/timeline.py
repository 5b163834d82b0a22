"""A round's timeline: when it starts, how long it lasts, its pauses, the time added, and an early end.

One value answers every question about a round's clock ("which phase is it in", "how long is left", "does it take
a word now"): the board page, a room's phones and projector, and the store's statement that records a word all ask
it (the store's SQL text of `takes_word` is `store.TAKES_WORD`, pinned to this one by a property test).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from .errors import N_, RuzzleError


class Phase(enum.Enum):
    """Where a round stands at a moment."""

    WAITING = "waiting"  # not started (a room's round before the host's Start)
    COUNTDOWN = "countdown"  # started in the future: the 3-2-1
    PLAYING = "playing"
    PAUSED = "paused"
    OVER = "over"


class TimelineError(RuzzleError):
    """A change the round's clock cannot take now (pausing a round that is over, resuming one that runs)."""


@dataclass(frozen=True)
class Reading:
    """A round's clock read at one moment, as the pages, the phones' clocks and the JSON show it."""

    phase: Phase
    seconds_left: float | None  # of play: frozen while paused, the whole length before the start; None when untimed
    starts_in: float  # seconds until the start (the 3-2-1)
    ends_at: float | None  # when it ends as things stand (None while paused or before the start)
    now: float  # the moment it was read at (the pages' clocks follow the server's, not the phone's own)

    @property
    def name(self) -> str:
        """The phase's name, as the pages and the JSON say it ("waiting", "countdown", "playing", …)."""
        return self.phase.value

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def remaining(self) -> int | None:
        """Whole seconds left, rounded up (the clock shows 0:01 until the last moment); None when untimed."""
        return None if self.seconds_left is None else int(self.seconds_left + 0.999)


@dataclass(frozen=True)
class Timeline:
    """A round's clock, in seconds since the epoch.

    `seconds` is the round's length (0: untimed); `shift` the seconds its deadline moved since (time added or taken
    by the host, pauses that ended, a pupil's extra time); `paused_at` the moment a running pause began; `ended` the
    moment the round was ended early (the player gave up, the host ended it).
    """

    started: float | None
    seconds: int
    shift: float = 0.0
    paused_at: float | None = None
    ended: float | None = None

    @property
    def deadline(self) -> float | None:
        """When the round ends if nothing changes and it is not paused; None when untimed or not started."""
        if self.started is None or not self.seconds:
            return None
        return self.started + self.seconds + self.shift

    def phase(self, now: float) -> Phase:
        """Where the round stands at `now`."""
        if self.ended is not None:
            return Phase.OVER
        if self.started is None:
            return Phase.WAITING
        if self.paused_at is not None:
            return Phase.PAUSED
        deadline = self.deadline
        if deadline is not None and now >= deadline:
            return Phase.OVER  # (time taken away during the 3-2-1 can end a round before it starts)
        if now < self.started:
            return Phase.COUNTDOWN
        return Phase.PLAYING

    def is_over(self, now: float) -> bool:
        """Whether the round has ended (by time, or early)."""
        return self.phase(now) is Phase.OVER

    def in_play(self, now: float, grace: float = 0) -> bool:
        """Whether the round is not over (counting down, playing or paused), its time having run out less than
        `grace` seconds ago at most: its solution stays hidden. The store's `IN_PLAY` is this rule in SQL."""
        return not self.is_over(now - grace)

    def takes_word(self, now: float, grace: float = 0) -> bool:
        """Whether a word arriving at `now` counts: the round runs (not paused, not ended), or its time ran out less
        than `grace` seconds ago (a word on its way). The store's `TAKES_WORD` is this rule in SQL."""
        if self.ended is not None or self.paused_at is not None or self.started is None or now < self.started:
            return False
        return not self.seconds or now < self.started + self.seconds + self.shift + grace

    def seconds_left(self, now: float) -> float | None:
        """Seconds of play left (frozen while paused, the whole length before the start, 0 once over); None when
        untimed."""
        return self._seconds_left(now, self.phase(now))

    def ends_at(self, now: float) -> float | None:
        """The moment the round ends as things stand: None while paused, when untimed, or before the start."""
        return self._ends_at(self.phase(now))

    def read(self, now: float) -> Reading:
        """Every question a page asks of the clock at `now`, answered at once (its phase worked out once)."""
        phase = self.phase(now)
        started = self.started if self.started is not None else now
        return Reading(phase, self._seconds_left(now, phase), max(0.0, started - now), self._ends_at(phase), now)

    def _seconds_left(self, now: float, phase: Phase) -> float | None:
        if not self.seconds:
            return 0.0 if self.ended is not None else None
        deadline = self.deadline
        if self.started is None or deadline is None:  # not started (a timed round has a deadline once it has)
            return float(self.seconds + self.shift)
        if phase is Phase.OVER:
            return 0.0
        moment = self.paused_at if self.paused_at is not None else max(now, self.started)  # paused, or playing
        return max(0.0, deadline - moment)

    def _ends_at(self, phase: Phase) -> float | None:
        if phase in (Phase.WAITING, Phase.PAUSED) or self.deadline is None:
            return None
        return self.ended if self.ended is not None and self.ended < self.deadline else self.deadline

    # --- changes (each returns the new timeline; TimelineError when it cannot happen now) ---------------------

    def start(self, moment: float) -> Timeline:
        """Start the round at `moment` (in the future for a 3-2-1)."""
        if self.started is not None:
            raise TimelineError(N_("The round has started already."))
        return replace(self, started=moment)

    def pause(self, now: float) -> Timeline:
        """Stop the clock; only a running round pauses."""
        if self.phase(now) is not Phase.PLAYING or not self.seconds:
            raise TimelineError(N_("Only a running round can be paused."))
        return replace(self, paused_at=now)

    def resume(self, now: float) -> Timeline:
        """Start the clock again: the deadline moves by the time the pause lasted."""
        if self.paused_at is None or self.phase(now) is not Phase.PAUSED:
            raise TimelineError(N_("The round is not paused."))
        return replace(self, shift=self.shift + (now - self.paused_at), paused_at=None)

    def add_time(self, seconds: float, now: float) -> Timeline:
        """Move the deadline by `seconds` (negative: earlier; past `now`, the round is over)."""
        if self.phase(now) not in (Phase.COUNTDOWN, Phase.PLAYING, Phase.PAUSED) or not self.seconds:
            raise TimelineError(N_("Time can be added only to a timed round that is not over."))
        return replace(self, shift=self.shift + seconds)

    def end(self, now: float) -> Timeline:
        """End the round now (a round already over keeps its end)."""
        if self.phase(now) is Phase.OVER:
            return self
        return replace(self, ended=now, paused_at=None)

    def with_extra(self, seconds: float) -> Timeline:
        """The same round with `seconds` more for one player (an accommodation)."""
        return replace(self, shift=self.shift + seconds)
