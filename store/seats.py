"""A seat, in a room or a homework, written once: a browser takes a nickname that is unique in its place (as
ruzzle.nicknames.nickname_key reads names), keeps the seat it has, or takes a taken name's seat (and its rounds) on
another device with the seat's rejoin code; a new seat gets its rejoin code (a class list's pupil: their class code).
store/room_seats.py and store/assignments.py each say where their seats are (`SeatTable`) and add their own rules
(a room's bans, lock and size) around these steps, in their own transaction.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Connection, Row, Table, select, update

from .room_records import AlreadySeated, NicknameTaken, seat_rejoin_code
from .schema import rounds

SeatRow = Row[*tuple[Any, ...]]  # a seat as read: its columns, as many as the kind reads


@dataclass(frozen=True)
class SeatTable:
    """Where a kind of place keeps its seats: the table, the column naming the place (room_id, assignment_id) and the
    columns a seat is read with (its id, player, nickname, joined and rejoin code among them)."""

    table: Table
    place: Column[Any]
    columns: tuple[Column[Any], ...]

    def read(self, connection: Connection, place_id: int, **where: object) -> SeatRow | None:
        """The place's seat whose columns have these values (a player, a nickname key), or None."""
        conditions = [self.table.c[name] == value for name, value in where.items()]
        return connection.execute(select(*self.columns).where(self.place == place_id, *conditions)).first()

    def read_both(self, connection: Connection, place_id: int, player: str, nickname_key: str) -> list[SeatRow]:
        """The place's seats of this browser or under this name (at most two), in one statement; each half of the OR
        names the place, so that each is a search of its own unique index (not a scan of the place's seats)."""
        table = self.table
        return list(
            connection.execute(
                select(*self.columns).where(
                    ((self.place == place_id) & (table.c.player == player))
                    | ((self.place == place_id) & (table.c.nickname_key == nickname_key))
                )
            ).all()
        )


def code_matches(code: str | None, rejoin_code: str | None) -> bool:
    """Whether a typed rejoin code is the seat's (any case, spaces around), compared in constant time."""
    if not code or not rejoin_code:
        return False
    return secrets.compare_digest(code.strip().upper().encode(), rejoin_code.encode())


def seat_held(
    connection: Connection,
    seats: SeatTable,
    place_id: int,
    player: str,
    nickname_key: str,
    code: str | None,
    board_keys: Callable[[], list[str]],
) -> SeatRow | None:
    """The seat a join gives without a new one: the browser's own (it keeps its place and name), or a taken name's,
    moved to this browser with its rounds (on `board_keys()`, asked only then) when the code is the seat's rejoin code;
    None when a new seat is wanted. AlreadySeated: the browser has a seat and the code is another's; NicknameTaken: the
    name is someone's and the code is not theirs (its argument: the name as its holder has it)."""
    found = seats.read_both(connection, place_id, player, nickname_key)
    existing = next((seat for seat in found if seat.player == player), None)
    # another browser's seat found is the name's (the browser's own seat under the name needs no taking)
    taken = next((seat for seat in found if seat.player != player), None)
    may_take = taken is not None and code_matches(code, taken.rejoin_code)
    if existing is not None:
        if may_take:
            raise AlreadySeated(existing.nickname)
        return existing
    if taken is None:
        return None
    if not may_take:
        raise NicknameTaken(taken.nickname)
    keys = board_keys()
    if keys:
        moved = rounds.c.player == taken.player, rounds.c.board_key.in_(keys)
        connection.execute(update(rounds).where(*moved).values(player=player))
    connection.execute(update(seats.table).where(seats.table.c.id == taken.id).values(player=player))
    return seats.read(connection, place_id, player=player)


def insert_seat(
    connection: Connection,
    seats: SeatTable,
    place_id: int,
    player: str,
    nickname: str,
    nickname_key: str,
    now: float,
    code: str | None,
    class_pupil_id: int | None,
    **place_columns: object,
) -> SeatRow:
    """A new seat for the browser under the name, with its rejoin code (a class list's pupil keeps their class code)
    and the place's own columns (a room's team), read back by the insert itself."""
    return connection.execute(
        seats.table.insert()
        .values(
            {
                seats.place.name: place_id,
                "player": player,
                "nickname": nickname,
                "nickname_key": nickname_key,
                "joined": now,
                "rejoin_code": seat_rejoin_code(code, class_pupil_id),
                "class_pupil_id": class_pupil_id,
                **place_columns,
            }
        )
        .returning(*seats.columns)
    ).one()
