"""What the game keeps: players' rounds and live rooms in one database, SQLite in the instance folder by default,
PostgreSQL for several hosts. The store imports neither the game nor Flask.

A `Store` is a `Database` (store/engine.py: engine, transactions, schema, clock, heartbeat) with one part per job,
each a small typed interface of its own module:
- `store.rounds` (store/rounds.py): start, end, record a word (one atomic step), the round in play on some letters;
- `store.records` (store/records.py): a player's recent rounds and personal bests ("My rounds");
- `store.rooms` (store/rooms.py) and `store.live` (store/live.py): the rooms, and the rooms that never close;
- `store.assignments` (store/assignments.py): homework, boards a class plays by a deadline;
- `store.classes` (store/classes.py): a teacher's class list, and each pupil's homework over weeks;
- store/cleanup.py: what the store forgets, and when.
"""

from __future__ import annotations

from .assignments import Assignments
from .classes import Classes
from .engine import (
    APP_INSTANCE,
    CHECKPOINT_EVERY,
    STORE_OUTAGES,
    Database,
    StoreUnavailable,
    database_url,
    describe_outage,
    is_outage,
    sqlite_url,
)
from .live import LiveRooms
from .records import PersonalBest, Records, RoundRecord, is_player_id, new_player_id
from .rooms import Rooms
from .rounds import PlayedBoard, Recorded, RoundBoard, Rounds, StoredRound


class Store(Database):
    """Every player's rounds and every room, in one database that every worker and every host shares."""

    def __init__(self, url: str):
        super().__init__(url)
        self.rounds = Rounds(self)
        self.records = Records(self)
        self.rooms = Rooms(self)
        self.live = LiveRooms(self)  # the rooms that never close (store/live.py)
        self.assignments = Assignments(self)  # homework: boards a class plays by a deadline (store/assignments.py)
        self.classes = Classes(self, self.assignments, self.rooms)  # class lists over weeks (store/classes.py)


__all__ = [
    "APP_INSTANCE",
    "CHECKPOINT_EVERY",
    "STORE_OUTAGES",
    "Database",
    "PersonalBest",
    "PlayedBoard",
    "Recorded",
    "Records",
    "RoundBoard",
    "RoundRecord",
    "Rounds",
    "Store",
    "StoreUnavailable",
    "StoredRound",
    "database_url",
    "describe_outage",
    "is_outage",
    "is_player_id",
    "new_player_id",
    "sqlite_url",
]
