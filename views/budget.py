"""A budget of solving time per client, so that one client asking for new boards flat out cannot take the
server from everyone else. Only new boards cost anything: the app puts the budget inside its cache of
solutions, so a board already solved comes back without asking, and a class opening the same board never
comes near the limit."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from flask import request
from werkzeug.exceptions import TooManyRequests

from .translations import ngettext

T = TypeVar("T")  # what the guarded solver returns


class SolvingBudget:
    """A token bucket per client address, in seconds of CPU spent solving boards in this process: it fills
    at `rate` seconds per second up to `burst`; a client whose bucket is empty gets a 429 until it refills.
    `rate` 0 turns the budget off."""

    def __init__(
        self,
        rate: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        cpu_clock: Callable[[], float] = time.thread_time,
        clients: int = 10_000,
    ):
        self.rate, self.burst, self.clock, self.cpu_clock, self.clients = rate, burst, clock, cpu_clock, clients
        self._levels: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client: (level, when)
        self._lock = threading.Lock()

    def level(self, client: str) -> float:
        """Seconds of solving the client may still start now (negative: it owes that much)."""
        with self._lock:
            return self._refilled(client)

    def _refilled(self, client: str) -> float:
        level, when = self._levels.get(client, (self.burst, self.clock()))
        return min(self.burst, level + (self.clock() - when) * self.rate)

    def charge(self, client: str, seconds: float) -> None:
        with self._lock:
            self._levels[client] = (self._refilled(client) - seconds, self.clock())
            self._levels.move_to_end(client)
            while len(self._levels) > self.clients:
                self._levels.popitem(last=False)  # the client heard from longest ago: its bucket is full anyway

    def guard(self, solve: Callable[..., T]) -> Callable[..., T]:
        """`solve`, refused with a 429 while the requesting client's budget is spent, and charged its CPU time.
        (A refusal is an exception, so a cache around the guard keeps nothing of it.)"""
        if self.rate <= 0:
            return solve

        @wraps(solve)
        def guarded(*args: object) -> T:
            client = request.remote_addr or ""
            level = self.level(client)
            if level <= 0:
                wait = math.ceil(-level / self.rate) or 1
                raise TooManyRequests(
                    ngettext(
                        "You opened many new boards in a short time. Wait %(num)d second, then try again; boards you "
                        "have already opened still work.",
                        "You opened many new boards in a short time. Wait %(num)d seconds, then try again; boards you "
                        "have already opened still work.",
                        wait,
                    ),
                    retry_after=wait,
                )
            start = self.cpu_clock()
            try:
                return solve(*args)
            finally:
                self.charge(client, self.cpu_clock() - start)

        return guarded
