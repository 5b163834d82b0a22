"""Live rooms in the store: a room, its rounds (one board each) and its players, and what the pages poll.

A player's round in a room is an ordinary round of the `rounds` table, on the board key `room|<id>|<number>`, so
words are recorded by the store's one atomic step (`Store.record_word`) and a room needs no word table of its own.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from .schema import room_players, room_rounds, rooms, words
from .schema import rounds as player_rounds

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # the seeds' alphabet: no 0/O, 1/I/L to mix up
CODE_LENGTH = 6
EXPIRY_SECONDS = 86400  # a room expires a day after its last join or round


def new_room_code() -> str:
    """A fresh room code: 6 characters that are easy to read aloud and type."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def round_key(room_id: int, number: int) -> str:
    """The board key of a room's round in the `rounds` table."""
    return f"room|{room_id}|{number}"


@dataclass(frozen=True)
class RoomRound:
    """One round of a room: its board's seed, the match round whose bonus tiles it has, and its start."""

    number: int
    seed: str
    generator: int
    match_round: int | None
    started: float | None


@dataclass(frozen=True)
class Room:
    """A room as the store has it, with its rounds (the last is the current one)."""

    id: int
    code: str
    host: str
    language: str
    rows: int
    cols: int
    seconds: int
    safe: bool
    preset: str
    created: float
    active_until: float
    rounds: tuple[RoomRound, ...]
    member: RoomPlayer | None = None  # the asking browser's place in the room, when `get` was given it

    @property
    def current(self) -> RoomRound:
        """The room's latest round (started or not)."""
        return self.rounds[-1]


@dataclass(frozen=True)
class RoomPlayer:
    """A player of a room: their id in the room, nickname, and browser (player id)."""

    id: int
    player: str
    nickname: str
    joined: float


@dataclass(frozen=True)
class PlayerScore:
    """A player's result in one round of a room."""

    player_id: int
    nickname: str
    joined: float
    number: int | None
    score: int
    found: int
    scored_at: float | None


@dataclass(frozen=True)
class FoundWord:
    """A word a player of a room found in a round."""

    player_id: int
    nickname: str
    word: str
    score: int


# The statements every poll and word runs, built once (building one costs more than running it on SQLite).
# (with the asking browser's place in the room: every request of a player needs both)
ROOM_BY_CODE = (select(rooms, room_rounds.c.number, room_rounds.c.seed, room_rounds.c.generator,
                       room_rounds.c.match_round, room_rounds.c.started, room_players.c.id.label("member_id"),
                       room_players.c.nickname.label("member_nickname"), room_players.c.joined.label("member_joined"))
                .select_from(rooms.join(room_rounds, room_rounds.c.room_id == rooms.c.id)
                             .outerjoin(room_players, (room_players.c.room_id == rooms.c.id)
                                        & (room_players.c.player == bindparam("player"))))
                .where(rooms.c.code == bindparam("code")).order_by(room_rounds.c.number))
PLAYER_COLUMNS = (room_players.c.id, room_players.c.player, room_players.c.nickname, room_players.c.joined)
PLAYERS = (select(*PLAYER_COLUMNS).where(room_players.c.room_id == bindparam("room_id"))
           .order_by(room_players.c.joined, room_players.c.id))
SCORES = (select(room_players.c.id, room_players.c.nickname, room_players.c.joined, player_rounds.c.board_key,
                 player_rounds.c.score, player_rounds.c.found, player_rounds.c.scored_at)
          .select_from(room_players.outerjoin(
              player_rounds, (player_rounds.c.player == room_players.c.player)
              & player_rounds.c.board_key.in_(bindparam("keys", expanding=True))))
          .where(room_players.c.room_id == bindparam("room_id")))
WORDS_FOUND = (select(room_players.c.id, room_players.c.nickname, words.c.word, words.c.score)
               .select_from(words.join(player_rounds, player_rounds.c.id == words.c.round_id)
                            .join(room_players, (room_players.c.player == player_rounds.c.player)
                                  & (room_players.c.room_id == bindparam("room_id"))))
               .where(player_rounds.c.board_key == bindparam("key")))


class NicknameTaken(Exception):
    """Another player of the room has this nickname (case and accents aside)."""


class RoomFull(Exception):
    """The room has as many players as it takes."""


class Rooms:
    """The rooms of the site, kept in the store's database (any worker on any host answers)."""

    def __init__(self, store):
        self.store = store

    def create(self, host: str, language: str, rows: int, cols: int, seconds: int, safe: bool, preset: str,
               seed: str, generator: int, match_round: int | None, now: float, code: str | None = None) -> Room:
        """A new room with its first round (not started), under a fresh code (or `code`, for tests and demos)."""
        values = {"host": host, "language": language, "rows": rows, "cols": cols, "seconds": seconds, "safe": safe,
                  "preset": preset, "created": now, "active_until": now + EXPIRY_SECONDS}
        for _ in range(20):
            code = code or new_room_code()
            try:
                with self.store.writing() as connection:
                    room_id = connection.execute(rooms.insert().values(code=code, **values)
                                                 .returning(rooms.c.id)).scalar_one()
                    connection.execute(room_rounds.insert().values(room_id=room_id, number=1, seed=seed,
                                                                   generator=generator, match_round=match_round))
            except IntegrityError:
                code = None
                continue  # the code is taken (one in 887 million per room open): draw another
            return self.get(code)
        raise RuntimeError("no free room code after 20 draws")

    def get(self, code: str, player: str | None = None) -> Room | None:
        """The room with this code (any case), or None; with `player`, that browser's place in it (`member`)."""
        with self.store.reader.connect() as connection:
            rows = connection.execute(ROOM_BY_CODE, {"code": code.upper(), "player": player or ""}).all()
        if not rows:
            return None
        first = rows[0]
        return Room(first.id, first.code, first.host, first.language, first.rows, first.cols, first.seconds,
                    first.safe, first.preset, first.created, first.active_until,
                    tuple(RoomRound(row.number, row.seed, row.generator, row.match_round, row.started) for row in rows),
                    RoomPlayer(first.member_id, player, first.member_nickname, first.member_joined)
                    if first.member_id is not None else None)

    def players(self, room_id: int) -> list[RoomPlayer]:
        """The room's players in the order they joined."""
        with self.store.reader.connect() as connection:
            return [RoomPlayer(*row) for row in connection.execute(PLAYERS, {"room_id": room_id})]

    def join(self, room_id: int, player: str, nickname: str, nickname_key: str, now: float,
             limit: int) -> RoomPlayer:
        """Add a player (a browser already in the room keeps its place and name); NicknameTaken, RoomFull."""
        with self.store.writing() as connection:
            if connection.dialect.name == "postgresql":  # joins of one room in turn (SQLite: one writer anyway)
                connection.execute(select(rooms.c.id).where(rooms.c.id == room_id).with_for_update())
            existing = connection.execute(select(room_players.c.id, room_players.c.player, room_players.c.nickname,
                                                 room_players.c.joined)
                                          .where(room_players.c.room_id == room_id,
                                                 room_players.c.player == player)).first()
            if existing is not None:
                return RoomPlayer(*existing)
            taken = connection.execute(select(room_players.c.id).where(
                room_players.c.room_id == room_id, room_players.c.nickname_key == nickname_key)).first()
            if taken is not None:
                raise NicknameTaken(nickname)
            count = connection.execute(select(func.count()).select_from(room_players)
                                       .where(room_players.c.room_id == room_id)).scalar_one()
            if count >= limit:
                raise RoomFull(limit)
            player_id = connection.execute(room_players.insert().values(
                room_id=room_id, player=player, nickname=nickname, nickname_key=nickname_key, joined=now)
                .returning(room_players.c.id)).scalar_one()
            connection.execute(update(rooms).where(rooms.c.id == room_id,
                                                   rooms.c.active_until < now + EXPIRY_SECONDS)
                               .values(active_until=now + EXPIRY_SECONDS))
        return RoomPlayer(player_id, player, nickname, now)

    def remove(self, room_id: int, player_id: int) -> bool:
        """Remove a player, their name and their words from the room; whether there was such a player."""
        with self.store.writing() as connection:
            browser = connection.execute(select(room_players.c.player).where(
                room_players.c.room_id == room_id, room_players.c.id == player_id)).scalar()
            if browser is None:
                return False
            keys = select(room_rounds.c.number).where(room_rounds.c.room_id == room_id)
            round_ids = select(player_rounds.c.id).where(
                player_rounds.c.player == browser,
                player_rounds.c.board_key.in_([round_key(room_id, n) for n in connection.execute(keys).scalars()]))
            connection.execute(delete(words).where(words.c.round_id.in_(round_ids)))
            connection.execute(delete(player_rounds).where(player_rounds.c.id.in_(round_ids)))
            connection.execute(delete(room_players).where(room_players.c.id == player_id))
        return True

    def start(self, room_id: int, number: int, moment: float, board) -> bool:
        """Start a round at `moment` for everyone: every player's round on `board` (a RoundBoard) is made now, in
        the same transaction, so the first words of a whole class are one write each, not two. False when it was
        already started (a second press). A player who joins later gets a round of the same start and length."""
        with self.store.writing() as connection:
            started = connection.execute(update(room_rounds).where(
                room_rounds.c.room_id == room_id, room_rounds.c.number == number, room_rounds.c.started.is_(None))
                .values(started=moment)).rowcount
            if started:
                connection.execute(update(rooms).where(rooms.c.id == room_id)
                                   .values(active_until=moment + board.seconds + EXPIRY_SECONDS))
                members = connection.execute(select(room_players.c.player)
                                             .where(room_players.c.room_id == room_id)).scalars().all()
                if members:
                    values = {**board.__dict__, "number": 1, "started": moment}
                    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
                    connection.execute(dialect.insert(player_rounds).on_conflict_do_nothing(),
                                       [{**values, "player": player} for player in members])
        return bool(started)

    def add_round(self, room_id: int, after: int, seed: str, generator: int, match_round: int | None) -> None:
        """Add round `after + 1` (nothing when a second press already added it)."""
        with self.store.writing() as connection:
            exists = connection.execute(select(room_rounds.c.number).where(
                room_rounds.c.room_id == room_id, room_rounds.c.number == after + 1)).first()
            if exists is None:
                connection.execute(room_rounds.insert().values(room_id=room_id, number=after + 1, seed=seed,
                                                               generator=generator, match_round=match_round))

    def scores(self, room: Room) -> list[PlayerScore]:
        """Every player's result in every round of the room (a player with no round yet: one row with None)."""
        keys = {round_key(room.id, r.number): r.number for r in room.rounds}
        with self.store.reader.connect() as connection:
            rows = connection.execute(SCORES, {"room_id": room.id, "keys": list(keys)}).all()
        return [PlayerScore(row.id, row.nickname, row.joined, keys.get(row.board_key), row.score or 0,
                            row.found or 0, row.scored_at) for row in rows]

    def words_found(self, room: Room, number: int) -> list[FoundWord]:
        """Every word every player of the room found in a round."""
        with self.store.reader.connect() as connection:
            return [FoundWord(*row) for row in connection.execute(
                WORDS_FOUND, {"room_id": room.id, "key": round_key(room.id, number)})]

    def delete_expired(self, moment: float) -> int:
        """Delete the rooms inactive since before a moment (their players' rounds go with the rounds' retention)."""
        old = select(rooms.c.id).where(rooms.c.active_until < moment)
        with self.store.writing() as connection:
            connection.execute(delete(room_players).where(room_players.c.room_id.in_(old)))
            connection.execute(delete(room_rounds).where(room_rounds.c.room_id.in_(old)))
            return connection.execute(delete(rooms).where(rooms.c.active_until < moment)).rowcount
