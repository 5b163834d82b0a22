"""Doing a thing once when many ask for it at the same moment: a class opening a new board together, a room's phones
asking for its results as the round ends."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Flights:
    """One at a time per key: threads that enter with the same key at the same moment run one after another (the
    first does the work and keeps it; the others, let in after it, find it kept), threads with other keys never wait.
    An LRU cache or a dict alone lets the 48 threads of a worker that miss together do the same work 48 times."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        # key: [its lock, threads holding or awaiting it] (a list of the two, changed in place)
        self._in_flight: dict[Hashable, list[Any]] = {}

    def one_at_a_time(self, key: Hashable) -> Turn:
        """Hold the key's turn for the block (a class, not a generator: every board page and word takes one)."""
        return Turn(self, key)

    def enter(self, key: Hashable) -> threading.Lock:
        """Count this thread in for the key; the key's lock, to hold for its turn (then `leave`)."""
        with self._guard:
            entry = self._in_flight.get(key)
            if entry is None:
                entry = self._in_flight[key] = [threading.Lock(), 0]
            entry[1] += 1
        lock: threading.Lock = entry[0]
        return lock

    def leave(self, key: Hashable) -> None:
        """Count this thread out for the key (the last one out forgets it)."""
        with self._guard:
            entry = self._in_flight[key]
            entry[1] -= 1
            if entry[1] == 0:
                del self._in_flight[key]


class Turn:
    """A thread's turn for a key of its Flights, held for a `with` block."""

    __slots__ = ("flights", "key", "lock")

    def __init__(self, flights: Flights, key: Hashable):
        self.flights, self.key = flights, key

    def __enter__(self) -> None:
        self.lock = self.flights.enter(self.key)
        try:
            self.lock.acquire()
        except BaseException:
            self.flights.leave(self.key)
            raise

    def __exit__(self, *exception: object) -> None:
        self.lock.release()
        self.flights.leave(self.key)


class SingleFlight(Generic[T]):
    """Calls of a cached function with the same arguments at the same time run it once: the first caller
    computes, the others wait for it and then read the cache. (An LRU cache alone lets 30 threads that
    miss together solve the same board 30 times.) Calls with other arguments never wait."""

    def __init__(self, cached: Callable[..., T]):
        self.cached = cached
        self._flights = Flights()

    def __call__(self, *args: Hashable) -> T:
        with self._flights.one_at_a_time(args):
            return self.cached(*args)
