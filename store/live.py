"""Live rooms in the store (rooms that never close, ruzzle/live.py): each is an ordinary room (`preset` "live", no
host) whose round number is the slot of the wall clock; each player's round is an ordinary row of `rounds` on the
board key `room|<id>|<slot>`, so words, clocks and results go through the rooms' own steps. This module adds what
only a live room needs: making its room and its slot's round on demand (race-safe), the round's and an hour's or a
day's results, and the clean-up of rounds the day's ranking no longer needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, Join, Select, and_, bindparam, delete, func, select, update

from .engine import Database, insert_ignoring_duplicates
from .rooms import EXPIRY_SECONDS, round_key
from .schema import room_players, room_rounds, rooms, words
from .schema import rounds as player_rounds

PRESET = "live"
ROWS = COLS = 4


@dataclass(frozen=True)
class LiveScore:
    """A player's points over some live rounds (one round, an hour's, a day's)."""

    player_id: int
    nickname: str
    score: int
    words: int
    rounds: int
    reached: float | None  # when the last of those points came (ties go to the earlier)


def key_range(room_id: int) -> tuple[str, str]:
    """The board keys of every round of a room lie in [low, high) (`room|<id>|...`; "}" follows "|")."""
    return f"room|{room_id}|", f"room|{room_id}}}"


def _seat_of_round() -> Join:
    """The join of a player's round to their seat in the room (by browser, as the rooms' own ranking does)."""
    return player_rounds.join(
        room_players,
        (room_players.c.player == player_rounds.c.player) & (room_players.c.room_id == bindparam("room_id")),
    )


def _scores(*where: ColumnElement[bool]) -> Select[int, str, int, int, int, float | None]:
    """Each player's points over the rounds of a room that `where` picks, players with a word found only."""
    return (
        select(
            room_players.c.id,
            room_players.c.nickname,
            func.sum(player_rounds.c.score),
            func.sum(player_rounds.c.found),
            func.count(player_rounds.c.id),
            func.max(player_rounds.c.scored_at),
        )
        .select_from(_seat_of_round())
        .where(*where, player_rounds.c.found > 0)
        .group_by(room_players.c.id, room_players.c.nickname)
    )


ROUND_SCORES = _scores(player_rounds.c.board_key == bindparam("key"))
PERIOD_SCORES = _scores(
    player_rounds.c.board_key >= bindparam("low"),
    player_rounds.c.board_key < bindparam("high"),
    player_rounds.c.started >= bindparam("since"),
    player_rounds.c.started < bindparam("until"),
)


class LiveRooms:
    """The live rooms of the site, in the store's database."""

    def __init__(self, store: Database):
        self.store = store

    def open_round(
        self, code: str, language: str, seconds: int, slot: int, seed: str, generator: int, started: float, now: float
    ) -> int:
        """Make the live room `code` and its round for `slot` if either is missing (two workers or two servers doing
        it at once make each once), with the room's length of play set to `seconds`; the room's id."""
        with self.store.writing() as connection:
            connection.execute(
                insert_ignoring_duplicates(connection.dialect.name, rooms).values(
                    code=code,
                    host="",
                    language=language,
                    rows=ROWS,
                    cols=COLS,
                    seconds=seconds,
                    safe=True,
                    preset=PRESET,
                    created=now,
                    active_until=now + EXPIRY_SECONDS,
                    names="all",
                )
            )
            room = connection.execute(select(rooms.c.id, rooms.c.seconds).where(rooms.c.code == code)).one()
            connection.execute(
                insert_ignoring_duplicates(connection.dialect.name, room_rounds).values(
                    room_id=room.id, number=slot, seed=seed, generator=generator, match_round=None, started=started
                )
            )
            # a live room lives while anyone visits it (a class room: a day after its last join or round)
            changes = {"active_until": now + EXPIRY_SECONDS}
            if room.seconds != seconds:
                changes["seconds"] = seconds  # the settings changed (a round under way keeps its players' rounds)
            connection.execute(update(rooms).where(rooms.c.id == room.id).values(**changes))
        room_id: int = room.id
        return room_id

    def has_round(self, room_id: int, slot: int) -> bool:
        """Whether the room has its round for `slot` already."""
        with self.store.reader.connect() as connection:
            return (
                connection.execute(
                    select(room_rounds.c.number).where(room_rounds.c.room_id == room_id, room_rounds.c.number == slot)
                ).first()
                is not None
            )

    def scores(self, room_id: int, since: float, until: float) -> list[LiveScore]:
        """Each player's points over the room's rounds that started in [since, until), players with a word only."""
        low, high = key_range(room_id)
        with self.store.reader.connect() as connection:
            rows = connection.execute(
                PERIOD_SCORES, {"room_id": room_id, "low": low, "high": high, "since": since, "until": until}
            ).all()
        return [LiveScore(*row) for row in rows]

    def round_scores(self, room_id: int, slot: int) -> list[LiveScore]:
        """Each player's points in the room's round of `slot`, players with a word found only."""
        with self.store.reader.connect() as connection:
            rows = connection.execute(ROUND_SCORES, {"room_id": room_id, "key": round_key(room_id, slot)}).all()
        return [LiveScore(*row) for row in rows]

    def delete_before(self, moment: float) -> int:
        """Delete the live rounds that started before `moment` (the room's round, every player's round and its words)
        and the live rooms' players with no round left that joined before it; how many room rounds went."""
        live = select(rooms.c.id).where(rooms.c.preset == PRESET)
        with self.store.writing() as connection:
            old = connection.execute(
                select(room_rounds.c.room_id, room_rounds.c.number).where(
                    room_rounds.c.room_id.in_(live), room_rounds.c.started < moment
                )
            ).all()
            keys = [round_key(room_id, number) for room_id, number in old]
            for start in range(0, len(keys), 500):  # (a bounded IN list)
                some = keys[start : start + 500]
                played = select(player_rounds.c.id).where(player_rounds.c.board_key.in_(some))
                connection.execute(delete(words).where(words.c.round_id.in_(played)))
                connection.execute(delete(player_rounds).where(player_rounds.c.board_key.in_(some)))
            for room_id, number in old:
                connection.execute(
                    delete(room_rounds).where(room_rounds.c.room_id == room_id, room_rounds.c.number == number)
                )
            for (room_id,) in connection.execute(live).all():
                low, high = key_range(room_id)
                still_plays = (
                    select(player_rounds.c.id)
                    .where(
                        player_rounds.c.player == room_players.c.player,
                        player_rounds.c.board_key >= low,
                        player_rounds.c.board_key < high,
                    )
                    .exists()
                )
                connection.execute(
                    delete(room_players).where(
                        and_(room_players.c.room_id == room_id, room_players.c.joined < moment, ~still_plays)
                    )
                )
        return len(old)

    def counts(self) -> dict[str, int]:
        """How many rows the live rooms hold in each table (the bench watches them stay bounded)."""
        live = select(rooms.c.id).where(rooms.c.preset == PRESET)
        low_high = [key_range(room_id) for room_id in self._ids()]
        with self.store.reader.connect() as connection:
            counts = {
                "rooms": len(low_high),
                "room_rounds": connection.execute(
                    select(func.count()).select_from(room_rounds).where(room_rounds.c.room_id.in_(live))
                ).scalar_one(),
                "room_players": connection.execute(
                    select(func.count()).select_from(room_players).where(room_players.c.room_id.in_(live))
                ).scalar_one(),
                "rounds": 0,
                "words": 0,
            }
            for low, high in low_high:
                in_room = (player_rounds.c.board_key >= low) & (player_rounds.c.board_key < high)
                counts["rounds"] += connection.execute(
                    select(func.count()).select_from(player_rounds).where(in_room)
                ).scalar_one()
                counts["words"] += connection.execute(
                    select(func.count())
                    .select_from(words.join(player_rounds, player_rounds.c.id == words.c.round_id))
                    .where(in_room)
                ).scalar_one()
        return counts

    def _ids(self) -> list[int]:
        with self.store.reader.connect() as connection:
            return list(connection.execute(select(rooms.c.id).where(rooms.c.preset == PRESET)).scalars())
