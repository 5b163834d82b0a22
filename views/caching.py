"""Solving a board once when many ask for it at the same moment: a class opening a new board together."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class SingleFlight(Generic[T]):
    """Calls of a cached function with the same arguments at the same time run it once: the first caller
    computes, the others wait for it and then read the cache. (An LRU cache alone lets 30 threads that
    miss together solve the same board 30 times.) Calls with other arguments never wait."""

    def __init__(self, cached: Callable[..., T]):
        self.cached = cached
        self._guard = threading.Lock()
        # arguments: [their lock, callers holding or awaiting it] (a list of the two, changed in place)
        self._in_flight: dict[tuple[Hashable, ...], list[Any]] = {}

    def __call__(self, *args: Hashable) -> T:
        with self._guard:
            entry = self._in_flight.setdefault(args, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                return self.cached(*args)
        finally:
            with self._guard:
                entry[1] -= 1
                if entry[1] == 0:
                    del self._in_flight[args]
