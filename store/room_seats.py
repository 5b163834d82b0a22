"""A room's seats: who plays, joining (store/seats.py's steps, with a room's bans, lock and size), the host's
renames, removals, bans, letting a pupil back in (a fresh rejoin code), extra time, and the room's hosts."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from sqlalchemy import Connection, delete, select, text, update

from .engine import insert_ignoring_duplicates
from .room_records import (
    EXPIRY_SECONDS,
    FINDING_PLAYERS,
    PLAYER_COLUMNS,
    PLAYERS,
    RECENT_PLAYERS,
    REMOTE_KEY_BYTES,
    Ban,
    Banned,
    NicknameTaken,
    RoomFull,
    RoomLocked,
    RoomPlayer,
    RoomTable,
    escape_like,
    new_rejoin_code,
    round_key,
    team_of_newcomer,
)
from .schema import IN_PLAY, room_bans, room_hosts, room_players, rooms
from .schema import rounds as player_rounds
from .seats import SeatTable, insert_seat, seat_held

SEATS = SeatTable(room_players, room_players.c.room_id, PLAYER_COLUMNS)


@dataclass(frozen=True)
class ExtraTimeSet:
    """What the host's extra time for a pupil did: their name, the seconds, and whether it moved the round they are
    playing now (False: their round is over or not started, so it starts with their next round)."""

    nickname: str
    seconds: int
    this_round: bool


class RoomSeats(RoomTable):
    def players(self, room_id: int) -> list[RoomPlayer]:
        """The room's players in the order they joined."""
        with self.store.reader.connect() as connection:
            return [RoomPlayer(*row) for row in connection.execute(PLAYERS, {"room_id": room_id})]

    def recent_players(self, room_id: int, limit: int) -> list[RoomPlayer]:
        """The `limit` players who joined last, in the order they joined (a big room's lobby shows these)."""
        with self.store.reader.connect() as connection:
            rows = connection.execute(RECENT_PLAYERS, {"room_id": room_id, "limit": limit}).all()
        return [RoomPlayer(*row) for row in reversed(rows)]

    def find_players(self, room_id: int, key: str, limit: int) -> list[RoomPlayer]:
        """Up to `limit` players whose nickname's key (ruzzle.nicknames.nickname_key) contains `key`."""
        with self.store.reader.connect() as connection:
            rows = connection.execute(
                FINDING_PLAYERS, {"room_id": room_id, "limit": limit, "pattern": "%" + escape_like(key) + "%"}
            ).all()
        return [RoomPlayer(*row) for row in rows]

    def join(
        self,
        room_id: int,
        player: str,
        nickname: str,
        nickname_key: str,
        now: float,
        limit: int,
        code: str | None = None,
        class_pupil_id: int | None = None,
    ) -> RoomPlayer:
        """Seat a browser (store/seats.py: its own seat, a taken name's with its rejoin code, or a new one), unless
        the host removed it (Banned), locked the room (RoomLocked: a rejoin still takes its seat) or the room has
        `limit` players (RoomFull). AlreadySeated, NicknameTaken as in store/seats.py."""
        with self.store.writing() as connection:
            room = self._locked_row(connection, room_id, rooms.c.locked, rooms.c.teams, rooms.c.player_count)
            if connection.execute(
                select(room_bans.c.player).where(  # (each half of the OR a search of its own index)
                    ((room_bans.c.room_id == room_id) & (room_bans.c.player == player))
                    | ((room_bans.c.room_id == room_id) & (room_bans.c.nickname_key == nickname_key))
                )
            ).first():
                raise Banned(nickname)  # this browser, or this name from another browser (a private tab)
            held = seat_held(
                connection, SEATS, room_id, player, nickname_key, code, lambda: self._keys(connection, room_id)
            )
            if held is not None:
                return RoomPlayer(*held)
            if room.locked:
                raise RoomLocked(nickname)
            if room.player_count >= limit:  # (kept by triggers on the seats: migration 0927)
                raise RoomFull(limit)
            team = team_of_newcomer(connection, room_id, room.teams)
            seat = insert_seat(
                connection, SEATS, room_id, player, nickname, nickname_key, now, code, class_pupil_id, team=team
            )
            connection.execute(
                update(rooms)
                .where(rooms.c.id == room_id, rooms.c.active_until < now + EXPIRY_SECONDS)
                .values(active_until=now + EXPIRY_SECONDS)
            )
        return RoomPlayer(*seat)

    def remove(self, room_id: int, player_id: int, now: float) -> bool:
        """Remove a player from the room and ban their browser and their name (from any browser) until the host's
        undo (their rounds stay, for it); whether there was such a player."""
        with self.store.writing() as connection:
            seat = connection.execute(
                select(*PLAYER_COLUMNS, room_players.c.nickname_key).where(
                    room_players.c.room_id == room_id, room_players.c.id == player_id
                )
            ).first()
            if seat is None:
                return False
            connection.execute(
                insert_ignoring_duplicates(connection.dialect.name, room_bans).values(
                    room_id=room_id,
                    player=seat.player,
                    player_id=seat.id,
                    nickname=seat.nickname,
                    nickname_key=seat.nickname_key,
                    banned=now,
                )
            )
            connection.execute(delete(room_players).where(room_players.c.id == player_id))
        return True

    def bans(self, room_id: int) -> list[Ban]:
        """The browsers the host removed, latest first."""
        with self.store.reader.connect() as connection:
            return [
                Ban(*row)
                for row in connection.execute(
                    select(room_bans.c.player_id, room_bans.c.nickname, room_bans.c.banned)
                    .where(room_bans.c.room_id == room_id)
                    .order_by(room_bans.c.banned.desc())
                )
            ]

    def unban(self, room_id: int, player_id: int, nickname_key: str) -> bool | None:
        """Undo a removal: the browser may join again, and gets its seat back under its name when the name is still
        free (True; False when someone took the name). None: no such removal."""
        with self.store.writing() as connection:
            ban = connection.execute(
                select(room_bans).where(room_bans.c.room_id == room_id, room_bans.c.player_id == player_id)
            ).first()
            if ban is None:
                return None
            connection.execute(
                delete(room_bans).where(room_bans.c.room_id == room_id, room_bans.c.player == ban.player)
            )
            clash = connection.execute(
                select(room_players.c.id).where(
                    room_players.c.room_id == room_id,
                    (room_players.c.nickname_key == nickname_key) | (room_players.c.player == ban.player),
                )
            ).first()
            if clash is not None:
                return False
            # the seat's old id, unless a later seat has it (SQLite gives a freed rowid to the next seat)
            id_taken = connection.execute(select(room_players.c.id).where(room_players.c.id == ban.player_id)).first()
            connection.execute(
                room_players.insert().values(
                    **({} if id_taken else {"id": ban.player_id}),
                    room_id=room_id,
                    player=ban.player,
                    nickname=ban.nickname,
                    nickname_key=nickname_key,
                    joined=ban.banned,
                    rejoin_code=new_rejoin_code(),
                    team=team_of_newcomer(connection, room_id, self._teams(connection, room_id)),
                )
            )
        return True

    def rename(self, room_id: int, player_id: int, nickname: str, nickname_key: str) -> bool:
        """Give a player another name (NicknameTaken when someone else has it); whether there was such a player."""
        with self.store.writing() as connection:
            taken = connection.execute(
                select(room_players.c.nickname).where(
                    room_players.c.room_id == room_id,
                    room_players.c.nickname_key == nickname_key,
                    room_players.c.id != player_id,
                )
            ).first()
            if taken is not None:
                raise NicknameTaken(taken.nickname)
            return (
                connection.execute(
                    update(room_players)
                    .where(room_players.c.room_id == room_id, room_players.c.id == player_id)
                    .values(nickname=nickname, nickname_key=nickname_key)
                ).rowcount
                == 1
            )

    def new_rejoin_code(self, room_id: int, player_id: int) -> RoomPlayer | None:
        """The host lets a pupil back in: their seat gets a fresh rejoin code (the old one no longer takes it) for the
        teacher to give that pupil; a class list's pupil keeps their class code. The seat, or None: no such player."""
        with self.store.writing() as connection:
            where = room_players.c.room_id == room_id, room_players.c.id == player_id
            on_a_list = connection.execute(select(room_players.c.class_pupil_id).where(*where)).first()
            if on_a_list is None:
                return None
            if on_a_list.class_pupil_id is None:
                connection.execute(update(room_players).where(*where).values(rejoin_code=new_rejoin_code()))
            return RoomPlayer(*connection.execute(select(*PLAYER_COLUMNS).where(*where)).one())

    def set_extra(self, room_id: int, player_id: int, seconds: int, number: int, now: float) -> ExtraTimeSet | None:
        """A player's extra time, kept for every later round until the host resets it; their round `number` moves by
        the difference only while it is still in play at `now`: a round that is over stays over (its results may be on
        the projector already). None: no such player."""
        with self.store.writing() as connection:
            self._lock_round(connection, room_id, number)  # the class's clock does not change meanwhile
            seat = connection.execute(
                select(room_players.c.player, room_players.c.extra, room_players.c.nickname).where(
                    room_players.c.room_id == room_id, room_players.c.id == player_id
                )
            ).first()
            if seat is None:
                return None
            connection.execute(update(room_players).where(room_players.c.id == player_id).values(extra=seconds))
            moved = connection.execute(
                update(player_rounds)
                .where(
                    player_rounds.c.player == seat.player,
                    player_rounds.c.board_key == round_key(room_id, number),
                    text(IN_PLAY),
                )
                .values(shift=player_rounds.c.shift + (seconds - seat.extra)),
                {"now": now, "grace": 0},
            ).rowcount
        return ExtraTimeSet(seat.nickname, seconds, bool(moved))

    def move_to_team(self, room_id: int, player_id: int, team: int, number: int, now: float) -> RoomPlayer | None:
        """The host moves a pupil to another team: their seat from now on, and their round `number` with its words
        while it is still in play at `now` (it was played for the new team); a round that is over stays with the team
        it was played for. None: no such player."""
        with self.store.writing() as connection:
            self._lock_round(connection, room_id, number)  # the class's clock does not end the round meanwhile
            where = room_players.c.room_id == room_id, room_players.c.id == player_id
            seat = connection.execute(select(room_players.c.player).where(*where)).first()
            if seat is None:
                return None
            connection.execute(update(room_players).where(*where).values(team=team))
            connection.execute(
                update(player_rounds)
                .where(
                    player_rounds.c.player == seat.player,
                    player_rounds.c.board_key == round_key(room_id, number),
                    text(IN_PLAY),
                )
                .values(team=team),
                {"now": now, "grace": 0},
            )
            return RoomPlayer(*connection.execute(select(*PLAYER_COLUMNS).where(*where)).one())

    @staticmethod
    def _teams(connection: Connection, room_id: int) -> int | None:
        """The room's number of teams (None outside team mode)."""
        return connection.execute(select(rooms.c.teams).where(rooms.c.id == room_id)).scalar()

    def add_host(self, room_id: int, player: str, key: str) -> bool:
        """Make a browser a host of the room if `key` is the room's remote key (it opened the teacher's remote link);
        whether it was. Read under the room's lock: a link replaced meanwhile makes no host."""
        with self.store.writing() as connection:
            self._lock_room(connection, room_id)
            current = connection.execute(select(rooms.c.remote_key).where(rooms.c.id == room_id)).scalar_one()
            if not current or not hmac.compare_digest(key.encode(), current.encode()):
                return False
            connection.execute(
                insert_ignoring_duplicates(connection.dialect.name, room_hosts).values(room_id=room_id, player=player)
            )
        return True

    def replace_remote_key(self, room_id: int, keeper: str) -> str:
        """A new secret for the teacher's remote link, returned: the old link makes no host any more, and every
        browser that became a host through a remote link stops being one, but `keeper` (the host that asked)."""
        key = secrets.token_urlsafe(REMOTE_KEY_BYTES)
        with self.store.writing() as connection:
            self._lock_room(connection, room_id)
            connection.execute(update(rooms).where(rooms.c.id == room_id).values(remote_key=key))
            connection.execute(delete(room_hosts).where(room_hosts.c.room_id == room_id, room_hosts.c.player != keeper))
        return key
