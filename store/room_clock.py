"""A room's class clock: a round started for everyone, paused, resumed, given time, ended, and the rounds added
after it; each change in one transaction, the round's row locked (store.schema's timeline columns, pinned to
ruzzle/timeline.py by tests/test_store.py)."""

from __future__ import annotations

from sqlalchemy import func, or_, select, text, update

from .engine import insert_ignoring_duplicates
from .room_records import (
    EXPIRY_SECONDS,
    RoomTable,
    room_round_where,
    round_key,
)
from .rounds import RoundBoard
from .schema import IN_PLAY, room_players, room_rounds, rooms
from .schema import rounds as player_rounds


class RoomClock(RoomTable):
    def start(self, room_id: int, number: int, moment: float, board: RoundBoard) -> bool:
        """Start a round at `moment` for everyone: every player's round on `board` (a RoundBoard) is made now, in
        the same transaction, so the first words of a whole class are one write each, not two. False when it was
        already started (a second press). A player who joins later gets the class's timeline (`player_round`)."""
        with self.store.writing() as connection:
            started = connection.execute(
                update(room_rounds)
                .where(
                    room_rounds.c.room_id == room_id, room_rounds.c.number == number, room_rounds.c.started.is_(None)
                )
                .values(started=moment)
            ).rowcount
            if started:
                connection.execute(
                    update(rooms)
                    .where(rooms.c.id == room_id)
                    .values(active_until=moment + board.board.seconds + EXPIRY_SECONDS)
                )
                members = connection.execute(
                    select(room_players.c.player, room_players.c.extra, room_players.c.team).where(
                        room_players.c.room_id == room_id
                    )
                ).all()
                if members:
                    values = {**board.values(), "number": 1, "started": moment}
                    connection.execute(
                        insert_ignoring_duplicates(connection.dialect.name, player_rounds),
                        [{**values, "player": player, "shift": extra, "team": team} for player, extra, team in members],
                    )
        return bool(started)

    def player_round(self, room_id: int, number: int, player: str, board: RoundBoard) -> None:
        """Make a player's round of a started room round (a late joiner, a seat moved): the class's timeline as it
        is now, plus the player's extra time (nothing when it exists already)."""
        with self.store.writing() as connection:
            timeline = self._lock_round(connection, room_id, number)
            seat = connection.execute(
                select(room_players.c.extra, room_players.c.team).where(
                    room_players.c.room_id == room_id, room_players.c.player == player
                )
            ).first()
            extra, team = (seat.extra, seat.team) if seat is not None else (0, None)
            values = {
                **board.values(),
                "number": 1,
                "player": player,
                "started": timeline.started,
                "shift": timeline.shift + extra,
                "paused_at": timeline.paused_at,
                "ended": timeline.ended,
                "team": team,  # the team the pupil plays this round for
            }
            connection.execute(insert_ignoring_duplicates(connection.dialect.name, player_rounds).values(**values))

    def pause(self, room_id: int, number: int, now: float) -> None:
        """Stop the class's clock and every player's round still in play (ruzzle.timeline.Timeline.pause)."""
        key = round_key(room_id, number)
        with self.store.writing() as connection:
            self._lock_round(connection, room_id, number)
            connection.execute(
                update(room_rounds)
                .where(
                    *room_round_where(room_id, number), room_rounds.c.ended.is_(None), room_rounds.c.paused_at.is_(None)
                )
                .values(paused_at=now)
            )
            connection.execute(
                update(player_rounds)
                .where(player_rounds.c.board_key == key, player_rounds.c.paused_at.is_(None), text(IN_PLAY))
                .values(paused_at=now),
                {"now": now, "grace": 0},
            )

    def resume(self, room_id: int, number: int, now: float) -> None:
        """Start the clocks again: each deadline moves by the time its pause lasted."""
        key = round_key(room_id, number)
        with self.store.writing() as connection:
            self._lock_round(connection, room_id, number)
            for table, where in (
                (room_rounds, room_round_where(room_id, number)),
                (player_rounds, (player_rounds.c.board_key == key,)),
            ):
                connection.execute(
                    update(table)
                    .where(*where, table.c.paused_at.is_not(None))
                    .values(shift=table.c.shift + (now - table.c.paused_at), paused_at=None)
                )

    def add_time(self, room_id: int, number: int, seconds: int, now: float) -> None:
        """Move the class's deadline, and every player's round still in play, by `seconds`."""
        key = round_key(room_id, number)
        with self.store.writing() as connection:
            self._lock_round(connection, room_id, number)
            connection.execute(
                update(room_rounds)
                .where(*room_round_where(room_id, number))
                .values(shift=room_rounds.c.shift + seconds)
            )
            connection.execute(
                update(player_rounds)
                .where(player_rounds.c.board_key == key, text(IN_PLAY))
                .values(shift=player_rounds.c.shift + seconds),
                {"now": now, "grace": 0},
            )

    def end(self, room_id: int, number: int, now: float) -> None:
        """End the round now for the class and every player still playing (words already answered count)."""
        key = round_key(room_id, number)
        with self.store.writing() as connection:
            self._lock_round(connection, room_id, number)
            # the class's round ends unless it is over already (by its end or its time): Timeline.end keeps that end
            seconds = select(rooms.c.seconds).where(rooms.c.id == room_id).scalar_subquery()
            running = or_(
                seconds == 0,
                room_rounds.c.paused_at.is_not(None),
                room_rounds.c.started + seconds + room_rounds.c.shift > now,
            )
            connection.execute(
                update(room_rounds)
                .where(*room_round_where(room_id, number), room_rounds.c.ended.is_(None), running)
                .values(ended=now, paused_at=None)
            )
            connection.execute(
                update(player_rounds)
                .where(player_rounds.c.board_key == key, text(IN_PLAY))
                .values(ended=now, paused_at=None),
                {"now": now, "grace": 0},
            )

    def still_playing(self, room_id: int, number: int, now: float) -> int:
        """How many players' rounds are still in play (a pupil's extra time, a pause)."""
        with self.store.reader.connect() as connection:
            return connection.execute(
                select(func.count())
                .select_from(player_rounds)
                .where(player_rounds.c.board_key == round_key(room_id, number), text(IN_PLAY)),
                {"now": now, "grace": 0},
            ).scalar_one()

    def add_round(self, room_id: int, after: int, seed: str, generator: int, match_round: int | None) -> None:
        """Add round `after + 1` (nothing when a second press already added it)."""
        with self.store.writing() as connection:
            exists = connection.execute(
                select(room_rounds.c.number).where(room_rounds.c.room_id == room_id, room_rounds.c.number == after + 1)
            ).first()
            if exists is None:
                connection.execute(
                    room_rounds.insert().values(
                        room_id=room_id, number=after + 1, seed=seed, generator=generator, match_round=match_round
                    )
                )
                connection.execute(update(rooms).where(rooms.c.id == room_id).values(walk_step=None))
