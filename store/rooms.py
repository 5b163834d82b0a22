"""Live rooms in the store: a room, its rounds (one board each) and its players, and what the pages poll.

A player's round in a room is an ordinary round of the `rounds` table, on the board key `room|<id>|<number>`, so
words are recorded by the store's one atomic step (`store.rounds.Rounds.record_word`) and a room needs no word
table of its own.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from .room_clock import RoomClock
from .room_records import (
    CODE_ALPHABET,
    CODE_LENGTH,
    EXPIRY_SECONDS,
    HAS_SEAT,
    LIVE_ROOM,
    ONE_ROUND_BY_CODE,
    REJOIN_CODE_LENGTH,
    REMOTE_KEY_BYTES,
    ROOM_BY_CODE,
    ROUNDS_WORDS_FOUND,
    SCORES,
    WORD_COUNTS,
    WORD_FINDERS,
    WORDS_FOUND,
    AlreadySeated,
    Ban,
    Banned,
    FoundWord,
    NicknameTaken,
    PlayerScore,
    Room,
    RoomFull,
    RoomLocked,
    RoomPlayer,
    RoomRound,
    escape_like,
    new_rejoin_code,
    new_room_code,
    parse_round_key,
    round_key,
)
from .room_seats import ExtraTimeSet, RoomSeats
from .schema import room_bans, room_hosts, room_players, room_rounds, room_teams, rooms, words
from .schema import rounds as player_rounds

# The values, codes and refusals of a room, read from here by the views and the store (store/room_records.py).
__all__ = [
    "AlreadySeated",
    "Ban",
    "Banned",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "EXPIRY_SECONDS",
    "ExtraTimeSet",
    "FoundWord",
    "LIVE_ROOM",
    "NicknameTaken",
    "PlayerScore",
    "REJOIN_CODE_LENGTH",
    "REMOTE_KEY_BYTES",
    "Room",
    "RoomFull",
    "RoomLocked",
    "RoomPlayer",
    "RoomRound",
    "Rooms",
    "escape_like",
    "new_rejoin_code",
    "new_room_code",
    "parse_round_key",
    "round_key",
]


# A pupil's clock as its poll reads it, in one statement: the room's current round, the pupil's seat (not removed) and
# their own round on that board (its key as store/rounds.py shared_board_key writes it); each by its unique index.
CLOCK_POLL = """
SELECT rooms.active_until, seat.nickname, current.number,
       mine.started, mine.seconds, mine.shift, mine.paused_at, mine.ended
FROM rooms
JOIN room_rounds AS current ON current.room_id = rooms.id
JOIN room_players AS seat ON seat.room_id = rooms.id AND seat.player = :player
JOIN rounds AS mine ON mine.player = :player AND mine.board_key = 'room|' || rooms.id || '|' || current.number
WHERE rooms.code = :code
  AND current.number = (SELECT max(number) FROM room_rounds WHERE room_id = rooms.id)
  AND NOT EXISTS (SELECT 1 FROM room_bans WHERE room_bans.room_id = rooms.id AND room_bans.player = :player)
ORDER BY mine.number DESC
LIMIT 1
"""


@dataclass(frozen=True)
class ClockPoll:
    """What a pupil's clock poll depends on: the room's opening, the pupil's name, the round and its clock."""

    active_until: float
    nickname: str
    number: int
    started: float
    seconds: int
    shift: float
    paused_at: float | None
    ended: float | None


class Rooms(RoomSeats, RoomClock):
    """The rooms of the site, kept in the store's database (any worker on any host answers)."""

    def clock_poll(self, code: str, player: str) -> ClockPoll | None:
        """The clock of this browser's round in the room of `code` (upper case), or None when it has no seat there,
        was removed, or has no round on the current board."""
        row = self.store.read_row(CLOCK_POLL, {"code": code, "player": player})
        return None if row is None else ClockPoll(*row)

    def create(
        self,
        host: str,
        language: str,
        rows: int,
        cols: int,
        seconds: int,
        safe: bool,
        preset: str,
        seed: str,
        generator: int,
        match_round: int | None,
        now: float,
        code: str | None = None,
        names: str = "all",
        class_id: int | None = None,
        hints: bool = False,
        targets: tuple[str, ...] = (),
        mode: str = "solo",
        teams: int | None = None,
    ) -> Room:
        """A new room with its first round (not started), under a fresh code (or `code`, for tests and demos); with
        `class_id`, for a class list's pupils only."""
        values = {
            "host": host,
            "language": language,
            "rows": rows,
            "cols": cols,
            "seconds": seconds,
            "safe": safe,
            "preset": preset,
            "created": now,
            "active_until": now + EXPIRY_SECONDS,
            "names": names,
            "remote_key": secrets.token_urlsafe(REMOTE_KEY_BYTES),
            "class_id": class_id,
            "hints": hints,
            "targets": " ".join(targets),
            "mode": mode,
            "teams": teams,
        }
        for _ in range(20):
            code = code or new_room_code()
            try:
                with self.store.writing() as connection:
                    room_id = connection.execute(
                        rooms.insert().values(code=code, **values).returning(rooms.c.id)
                    ).scalar_one()
                    connection.execute(
                        room_rounds.insert().values(
                            room_id=room_id, number=1, seed=seed, generator=generator, match_round=match_round
                        )
                    )
            except IntegrityError:
                code = None
                continue  # the code is taken (one in 887 million per room open): draw another
            room = self.get(code)
            assert room is not None  # (this transaction made it)
            return room
        raise RuntimeError("no free room code after 20 draws")

    def get(self, code: str, player: str | None = None, number: int | None = None) -> Room | None:
        """The room with this code (any case), or None; with `player`, that browser's place in it (`member`), and
        whether it hosts the room or was removed from it; with `number`, with that round only (None without it)."""
        values = {"code": code.upper(), "player": player or ""}
        rows = self.store.read(
            ROOM_BY_CODE if number is None else ONE_ROUND_BY_CODE,
            values if number is None else {**values, "number": number},
        )
        if not rows:
            return None
        first = rows[0]
        return Room(
            first.id,
            first.code,
            first.host,
            first.language,
            first.rows,
            first.cols,
            first.seconds,
            first.safe,
            first.preset,
            first.created,
            first.active_until,
            tuple(
                RoomRound(
                    row.number,
                    row.seed,
                    row.generator,
                    row.match_round,
                    row.started,
                    row.shift,
                    row.paused_at,
                    row.ended,
                )
                for row in rows
            ),
            RoomPlayer(
                first.member_id,
                player or "",
                first.member_nickname,
                first.member_joined,
                first.member_extra,
                first.member_code,
                first.member_team,
            )
            if first.member_id is not None
            else None,
            bool(first.locked),
            first.remote_key or "",
            first.names,
            first.walk_step,
            bool(player) and (player == first.host or first.extra_host is not None),
            first.banned_player is not None,
            first.player_count,
            first.class_id,
            bool(first.hints),
            tuple(first.targets.split()),
            first.mode,
            first.teams,
        )

    def live_room(self, player: str, since: float, now: float) -> str | None:
        """The code of the open room this browser has a seat in and that was busy after `since` (it joined, or a
        round started), the latest it joined; None when there is none. One indexed query: every page asks it."""
        rows = self.store.read(LIVE_ROOM, {"player": player, "since": since, "now": now})
        return rows[0].code if rows else None

    def has_seat(self, player: str) -> bool:
        """Whether this browser has a seat in any room still in the store."""
        rows = self.store.read(HAS_SEAT, {"player": player})
        return bool(rows)

    def room_playing(self, room_id: int, number: int, player: str) -> str | None:
        """The code of room `room_id` when round `number` is its current round and this browser has a seat in it
        (its round there is the room's round now); None otherwise."""
        later = select(room_rounds.c.number).where(room_rounds.c.room_id == room_id, room_rounds.c.number > number)
        query = (
            select(rooms.c.code)
            .select_from(
                rooms.join(room_players, (room_players.c.room_id == rooms.c.id) & (room_players.c.player == player))
            )
            .where(
                rooms.c.id == room_id,
                select(room_rounds.c.number)
                .where(room_rounds.c.room_id == room_id, room_rounds.c.number == number)
                .exists(),
                ~later.exists(),
            )
        )
        with self.store.reader.connect() as connection:
            return connection.execute(query).scalar()

    def codes(self, room_ids: set[int]) -> dict[int, str]:
        """The codes of the rooms still in the store among these ids (an expired room is gone)."""
        if not room_ids:
            return {}
        with self.store.reader.connect() as connection:
            return dict(connection.execute(select(rooms.c.id, rooms.c.code).where(rooms.c.id.in_(room_ids))).all())

    def set_room(self, room_id: int, **values: object) -> None:
        """Change the room's settings: `locked`, `names`, `walk_step`."""
        with self.store.writing() as connection:
            connection.execute(update(rooms).where(rooms.c.id == room_id).values(**values))

    def scores(self, room: Room, numbers: Iterable[int] | None = None) -> list[PlayerScore]:
        """Every player's result in the rounds `numbers` of the room, every round by default (a player with no round
        among them: one row with None)."""
        numbers = [r.number for r in room.rounds] if numbers is None else numbers
        keys = {round_key(room.id, number): number for number in numbers}
        with self.store.reader.connect() as connection:
            rows = connection.execute(SCORES, {"room_id": room.id, "keys": list(keys)}).all()
        return [
            PlayerScore(
                row.id, row.nickname, row.joined, keys.get(row.board_key), row.score or 0, row.found or 0, row.scored_at
            )
            for row in rows
        ]

    def words_found(self, room: Room, number: int, word: str | None = None) -> list[FoundWord]:
        """Every word every player of the room found in a round (with `word`: who found that word)."""
        query, values = WORDS_FOUND, {"room_id": room.id, "key": round_key(room.id, number)}
        if word is not None:
            query, values = WORD_FINDERS, {**values, "word": word}
        with self.store.reader.connect() as connection:
            return [FoundWord(*row) for row in connection.execute(query, values)]

    def words_found_in(self, room: Room, numbers: Iterable[int]) -> dict[int, list[FoundWord]]:
        """Every word every player of the room found in the rounds `numbers`, by round (a round nobody played: [])."""
        keys = {round_key(room.id, number): number for number in numbers}
        found: dict[int, list[FoundWord]] = {number: [] for number in keys.values()}
        with self.store.reader.connect() as connection:
            for *row, key in connection.execute(ROUNDS_WORDS_FOUND, {"room_id": room.id, "keys": list(keys)}):
                found[keys[key]].append(FoundWord(*row))
        return found

    def word_counts(self, room_id: int, number: int) -> dict[str, int]:
        """How many players found each word found in a round of the room."""
        with self.store.reader.connect() as connection:
            return dict(connection.execute(WORD_COUNTS, {"room_id": room_id, "key": round_key(room_id, number)}).all())

    def delete(self, room_id: int) -> None:
        """Delete a room now with its rounds, players, and their rounds and words (its class was deleted)."""
        with self.store.writing() as connection:
            keys = self._keys(connection, room_id)
            if keys:
                old = select(player_rounds.c.id).where(player_rounds.c.board_key.in_(keys))
                connection.execute(delete(words).where(words.c.round_id.in_(old)))
                connection.execute(delete(player_rounds).where(player_rounds.c.board_key.in_(keys)))
            for table in (room_players, room_teams, room_rounds, room_hosts, room_bans):
                connection.execute(delete(table).where(table.c.room_id == room_id))
            connection.execute(delete(rooms).where(rooms.c.id == room_id))

    def delete_expired(self, moment: float) -> int:
        """Delete the rooms inactive since before a moment (their players' rounds go with the rounds' retention)."""
        old = select(rooms.c.id).where(rooms.c.active_until < moment)
        with self.store.writing() as connection:
            for table in (room_players, room_teams, room_rounds, room_hosts, room_bans):
                connection.execute(delete(table).where(table.c.room_id.in_(old)))
            return connection.execute(delete(rooms).where(rooms.c.active_until < moment)).rowcount
