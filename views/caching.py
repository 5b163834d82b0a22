"""Doing a thing once when many ask for it at the same moment: a class opening a new board together, a room's phones
asking for its results as the round ends."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
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

    @contextmanager
    def one_at_a_time(self, key: Hashable) -> Iterator[None]:
        """Hold the key's turn for the block."""
        with self._guard:
            entry = self._in_flight.setdefault(key, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._guard:
                entry[1] -= 1
                if entry[1] == 0:
                    del self._in_flight[key]


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
