"""What the store forgets, and when: the rounds past the retention period (with their words), the rooms a day without
a join or a round, the live rounds the day's ranking no longer needs, and the assignments (homework) a month past their
deadline. Indexed deletes, run when the app starts and then at most once per `every` seconds per process (from the
request that starts a round)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import delete, select

from .engine import Database
from .schema import round_hints, rounds, words

if TYPE_CHECKING:
    from . import Store

DAY = 86400


@dataclass(frozen=True)
class Retention:
    """How long the store keeps what: rounds (RETENTION_DAYS), live rounds (LIVE_KEEP_SECONDS); and how often a
    process cleans up."""

    round_days: float = 30
    live_seconds: float = 25 * 3600
    assignment_days: float = 30  # homework: an assignment, its pupils and their rounds, this long after its deadline
    every: float = 3600


def delete_rounds_before(database: Database, moment: float) -> int:
    """Delete the rounds started before a moment, with their words; how many rounds went."""
    old = select(rounds.c.id).where(rounds.c.started < moment)
    with database.writing() as connection:
        connection.execute(delete(words).where(words.c.round_id.in_(old)))
        connection.execute(delete(round_hints).where(round_hints.c.round_id.in_(old)))
        return connection.execute(delete(rounds).where(rounds.c.started < moment)).rowcount


class Cleanup:
    """A process's clean-up of one store: `run` deletes what is past its time, `run_if_due` does it at most once
    per `retention.every` seconds."""

    def __init__(self, store: Store, retention: Retention):
        self.store = store
        self.retention = retention
        self._last: float | None = None
        self._lock = threading.Lock()

    def run(self, now: float) -> None:
        """Delete every round, room and live round past its time as of `now`."""
        with self._lock:
            self._last = now
        delete_rounds_before(self.store, now - self.retention.round_days * DAY)
        self.store.rooms.delete_expired(now)  # rooms a day without a join or a round
        self.store.live.delete_before(now - self.retention.live_seconds)
        self.store.assignments.delete_due_before(now - self.retention.assignment_days * DAY)
        self.store.classes.delete_inactive(now)  # class lists 180 days after their last use

    def run_if_due(self, now: float) -> bool:
        """Clean up when the last clean-up of this process is `every` seconds old (or there was none); whether it
        did."""
        with self._lock:
            if self._last is not None and now - self._last < self.retention.every:
                return False
            self._last = now
        self.run(now)
        return True
