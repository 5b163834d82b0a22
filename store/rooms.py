"""Live rooms in the store: a room, its rounds (one board each) and its players, and what the pages poll.

A player's round in a room is an ordinary round of the `rounds` table, on the board key `room|<id>|<number>`, so
words are recorded by the store's one atomic step (`store.rounds.Rounds.record_word`) and a room needs no word
table of its own.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, bindparam, delete, func, select, text, update
from sqlalchemy.exc import IntegrityError

from .engine import Database, insert_ignoring_duplicates
from .rounds import RoundBoard, parse_shared_board_key, shared_board_key
from .schema import IN_PLAY, room_bans, room_hosts, room_players, room_rounds, rooms, words
from .schema import rounds as player_rounds

# A copy of ruzzle.room's CODE_ALPHABET, CODE_LENGTH and REJOIN_CODE_LENGTH (the store imports no game code;
# tests/test_room.py pins the copy): the seeds' alphabet, no 0/O, 1/I/L to mix up.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
EXPIRY_SECONDS = 86400  # a room expires a day after its last join or round
REMOTE_KEY_BYTES = 16  # the teacher's remote link: 22 characters of URL-safe base64, not guessable


def new_room_code() -> str:
    """A fresh room code: 6 characters that are easy to read aloud and type."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def round_key(room_id: int, number: int) -> str:
    """The board key of a room's round in the `rounds` table."""
    return shared_board_key("room", room_id, number)


def parse_round_key(board_key: str) -> tuple[int, int] | None:
    """The room id and round number of a room round's board key; None for a solo board's key."""
    return parse_shared_board_key(board_key, "room")


@dataclass(frozen=True)
class RoomRound:
    """One round of a room: its board's seed, the match round whose bonus tiles it has, and the class's timeline
    (start, time moved, a running pause, an early end: the fields of ruzzle.timeline.Timeline with the room's
    length)."""

    number: int
    seed: str
    generator: int
    match_round: int | None
    started: float | None
    shift: float = 0.0
    paused_at: float | None = None
    ended: float | None = None


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
    locked: bool = False
    remote_key: str = ""
    names: str = "all"  # who the projector names: "all", "top3" or "none"
    walk_step: int | None = None
    asker_hosts: bool = False  # the asking browser hosts the room (it opened it, or the teacher's remote link)
    asker_banned: bool = False  # the host removed the asking browser
    player_count: int = 0  # how many players have a seat (what the pages' poll intervals and lists adapt to)
    class_id: int | None = None  # the class list whose pupils only may join (by name and class code)
    hints: bool = False  # the host lets the pupils open the hints
    targets: tuple[str, ...] = ()  # the words every board of the room is built around (issue 24)

    @property
    def current(self) -> RoomRound:
        """The room's latest round (started or not)."""
        return self.rounds[-1]

    def round(self, number: int | None = None) -> RoomRound:
        """The room's round `number` among those read (the current one for None): a live room reads only its
        current round, numbered by its slot (store/live.py)."""
        if number is None:
            return self.current
        return next(played for played in self.rounds if played.number == number)


@dataclass(frozen=True)
class RoomPlayer:
    """A player of a room: their id in the room, nickname, and browser (player id)."""

    id: int
    player: str
    nickname: str
    joined: float
    extra: int = 0  # extra seconds in every round (an accommodation)
    rejoin_code: str | None = None
    open_until: float | None = None  # the host let them back in: their name takes the seat without the code


@dataclass(frozen=True)
class Ban:
    """A browser the host removed from the room (their seat's id and name, to give back)."""

    player_id: int
    nickname: str
    banned: float


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
SEATS = room_players.alias("seats")  # (counted apart from the asker's own seat)
ROOM_BY_CODE = (
    select(
        rooms,
        room_rounds.c.number,
        room_rounds.c.seed,
        room_rounds.c.generator,
        room_rounds.c.match_round,
        room_rounds.c.started,
        room_rounds.c.shift,
        room_rounds.c.paused_at,
        room_rounds.c.ended,
        room_players.c.id.label("member_id"),
        room_players.c.nickname.label("member_nickname"),
        room_players.c.joined.label("member_joined"),
        room_players.c.extra.label("member_extra"),
        room_players.c.rejoin_code.label("member_code"),
        room_hosts.c.player.label("extra_host"),
        room_bans.c.player.label("banned_player"),
        select(func.count())
        .where(SEATS.c.room_id == rooms.c.id)
        .correlate(rooms)
        .scalar_subquery()
        .label("player_count"),
    )
    .select_from(
        rooms.join(room_rounds, room_rounds.c.room_id == rooms.c.id)
        .outerjoin(
            room_players, (room_players.c.room_id == rooms.c.id) & (room_players.c.player == bindparam("player"))
        )
        .outerjoin(room_hosts, (room_hosts.c.room_id == rooms.c.id) & (room_hosts.c.player == bindparam("player")))
        .outerjoin(room_bans, (room_bans.c.room_id == rooms.c.id) & (room_bans.c.player == bindparam("player")))
    )
    .where(rooms.c.code == bindparam("code"))
    .order_by(room_rounds.c.number)
)
# The same with one round only (a live room: its slot's round, of the many a day has).
ONE_ROUND_BY_CODE = ROOM_BY_CODE.where(room_rounds.c.number == bindparam("number"))
PLAYER_COLUMNS = (
    room_players.c.id,
    room_players.c.player,
    room_players.c.nickname,
    room_players.c.joined,
    room_players.c.extra,
    room_players.c.rejoin_code,
    room_players.c.open_until,
)
PLAYERS = (
    select(*PLAYER_COLUMNS)
    .where(room_players.c.room_id == bindparam("room_id"))
    .order_by(room_players.c.joined, room_players.c.id)
)
SCORES = (
    select(
        room_players.c.id,
        room_players.c.nickname,
        room_players.c.joined,
        player_rounds.c.board_key,
        player_rounds.c.score,
        player_rounds.c.found,
        player_rounds.c.scored_at,
    )
    .select_from(
        room_players.outerjoin(
            player_rounds,
            (player_rounds.c.player == room_players.c.player)
            & player_rounds.c.board_key.in_(bindparam("keys", expanding=True)),
        )
    )
    .where(room_players.c.room_id == bindparam("room_id"))
)
# The room a browser plays in, for the banner on every page: its seats (room_players_by_player), each room by its key,
# and whether a round started since the moment asked (room_rounds' key starts with room_id).
LIVE_ROOM = (
    select(rooms.c.code)
    .select_from(room_players.join(rooms, rooms.c.id == room_players.c.room_id))
    .where(
        room_players.c.player == bindparam("player"),
        rooms.c.active_until > bindparam("now"),
        rooms.c.preset != "live",  # a live room is not a lesson to go back to (its rounds never stop)
        (room_players.c.joined > bindparam("since"))
        | select(room_rounds.c.number)
        .where(room_rounds.c.room_id == rooms.c.id, room_rounds.c.started > bindparam("since"))
        .exists(),
    )
    .order_by(room_players.c.joined.desc(), rooms.c.id.desc())
    .limit(1)
)
RECENT_PLAYERS = (
    PLAYERS.order_by(None).order_by(room_players.c.joined.desc(), room_players.c.id.desc()).limit(bindparam("limit"))
)
FINDING_PLAYERS = PLAYERS.where(room_players.c.nickname_key.like(bindparam("pattern"), escape="/")).limit(
    bindparam("limit")
)
# How many of the room's players found each word of a round (the class's view: a few hundred rows, not every word
# every player found).
WORD_COUNTS = (
    select(words.c.word, func.count())
    .select_from(
        words.join(player_rounds, player_rounds.c.id == words.c.round_id).join(
            room_players,
            (room_players.c.player == player_rounds.c.player) & (room_players.c.room_id == bindparam("room_id")),
        )
    )
    .where(player_rounds.c.board_key == bindparam("key"))
    .group_by(words.c.word)
)
WORDS_FOUND = (
    select(room_players.c.id, room_players.c.nickname, words.c.word, words.c.score)
    .select_from(
        words.join(player_rounds, player_rounds.c.id == words.c.round_id).join(
            room_players,
            (room_players.c.player == player_rounds.c.player) & (room_players.c.room_id == bindparam("room_id")),
        )
    )
    .where(player_rounds.c.board_key == bindparam("key"))
)

WORD_FINDERS = WORDS_FOUND.where(words.c.word == bindparam("word"))


class NicknameTaken(Exception):
    """Another player of the room has this nickname (as ruzzle.nicknames.nickname_key reads names); its argument is
    the name as that player has it, to show who has it."""


class RoomFull(Exception):
    """The room has as many players as it takes."""


class RoomLocked(Exception):
    """The host locked the room: nobody new joins."""


class Banned(Exception):
    """The host removed this browser from the room."""


class AlreadySeated(Exception):
    """This browser already has another seat in the room (under another name)."""


REJOIN_CODE_LENGTH = 4


def new_rejoin_code() -> str:
    """A pupil's short personal code, to take their seat back on another device (the room codes' alphabet)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(REJOIN_CODE_LENGTH))


class Rooms:
    """The rooms of the site, kept in the store's database (any worker on any host answers)."""

    def __init__(self, store: Database):
        self.store = store

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
        with self.store.reader.connect() as connection:
            rows = connection.execute(
                ROOM_BY_CODE if number is None else ONE_ROUND_BY_CODE,
                values if number is None else {**values, "number": number},
            ).all()
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
        )

    def live_room(self, player: str, since: float, now: float) -> str | None:
        """The code of the open room this browser has a seat in and that was busy after `since` (it joined, or a
        round started), the latest it joined; None when there is none. One indexed query: every page asks it."""
        with self.store.reader.connect() as connection:
            return connection.execute(LIVE_ROOM, {"player": player, "since": since, "now": now}).scalar()

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
        """Seat a browser: the one already in the room keeps its place and name; a taken name's seat moves to this
        browser with its rejoin code (or when the host let them back in). Banned, AlreadySeated, NicknameTaken,
        RoomLocked, RoomFull. A class list's pupil (`class_pupil_id`) has their class code as their rejoin code."""
        with self.store.writing() as connection:
            locked = self._lock_room(connection, room_id)
            if connection.execute(
                select(room_bans.c.player).where(room_bans.c.room_id == room_id, room_bans.c.player == player)
            ).first():
                raise Banned(nickname)
            existing = _seat(
                connection.execute(
                    select(*PLAYER_COLUMNS).where(room_players.c.room_id == room_id, room_players.c.player == player)
                ).first()
            )
            taken = _seat(
                connection.execute(
                    select(*PLAYER_COLUMNS).where(
                        room_players.c.room_id == room_id, room_players.c.nickname_key == nickname_key
                    )
                ).first()
            )
            if existing is not None:
                if taken is not None and taken.id != existing.id and _may_take(taken, code, now):
                    raise AlreadySeated(existing.nickname)
                return existing
            if taken is not None:
                if not _may_take(taken, code, now):
                    raise NicknameTaken(taken.nickname)
                return self._move_seat(connection, room_id, taken, player)
            if locked:
                raise RoomLocked(nickname)
            count = connection.execute(
                select(func.count()).select_from(room_players).where(room_players.c.room_id == room_id)
            ).scalar_one()
            if count >= limit:
                raise RoomFull(limit)
            rejoin = code.strip().upper() if class_pupil_id is not None and code else new_rejoin_code()
            player_id = connection.execute(
                room_players.insert()
                .values(
                    room_id=room_id,
                    player=player,
                    nickname=nickname,
                    nickname_key=nickname_key,
                    joined=now,
                    rejoin_code=rejoin,
                    class_pupil_id=class_pupil_id,
                )
                .returning(room_players.c.id)
            ).scalar_one()
            connection.execute(
                update(rooms)
                .where(rooms.c.id == room_id, rooms.c.active_until < now + EXPIRY_SECONDS)
                .values(active_until=now + EXPIRY_SECONDS)
            )
        return RoomPlayer(player_id, player, nickname, now, 0, rejoin)

    def _move_seat(self, connection: Connection, room_id: int, seat: RoomPlayer, player: str) -> RoomPlayer:
        """Give a seat (its name, score and words: its rounds) to another browser."""
        connection.execute(
            update(player_rounds)
            .where(
                player_rounds.c.player == seat.player, player_rounds.c.board_key.in_(self._keys(connection, room_id))
            )
            .values(player=player)
        )
        connection.execute(
            update(room_players).where(room_players.c.id == seat.id).values(player=player, open_until=None)
        )
        return RoomPlayer(seat.id, player, seat.nickname, seat.joined, seat.extra, seat.rejoin_code)

    def remove(self, room_id: int, player_id: int, now: float) -> bool:
        """Remove a player from the room and ban their browser (their name is free again; their rounds stay, for
        the host's undo); whether there was such a player."""
        with self.store.writing() as connection:
            seat = connection.execute(
                select(*PLAYER_COLUMNS).where(room_players.c.room_id == room_id, room_players.c.id == player_id)
            ).first()
            if seat is None:
                return False
            connection.execute(
                insert_ignoring_duplicates(connection.dialect.name, room_bans).values(
                    room_id=room_id, player=seat.player, player_id=seat.id, nickname=seat.nickname, banned=now
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
            connection.execute(
                room_players.insert().values(
                    id=ban.player_id,
                    room_id=room_id,
                    player=ban.player,
                    nickname=ban.nickname,
                    nickname_key=nickname_key,
                    joined=ban.banned,
                    rejoin_code=new_rejoin_code(),
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

    def let_in(self, room_id: int, player_id: int, until: float) -> bool:
        """Until `until`, the player's name takes their seat on any device without the code."""
        with self.store.writing() as connection:
            return (
                connection.execute(
                    update(room_players)
                    .where(room_players.c.room_id == room_id, room_players.c.id == player_id)
                    .values(open_until=until)
                ).rowcount
                == 1
            )

    def set_extra(self, room_id: int, player_id: int, seconds: int, number: int) -> bool:
        """A player's extra time in every round; their round `number`, if they have it, moves by the difference."""
        with self.store.writing() as connection:
            seat = connection.execute(
                select(room_players.c.player, room_players.c.extra).where(
                    room_players.c.room_id == room_id, room_players.c.id == player_id
                )
            ).first()
            if seat is None:
                return False
            connection.execute(update(room_players).where(room_players.c.id == player_id).values(extra=seconds))
            connection.execute(
                update(player_rounds)
                .where(
                    player_rounds.c.player == seat.player,
                    player_rounds.c.board_key == round_key(room_id, number),
                    player_rounds.c.ended.is_(None),
                )
                .values(shift=player_rounds.c.shift + (seconds - seat.extra))
            )
        return True

    def set_room(self, room_id: int, **values: object) -> None:
        """Change the room's settings: `locked`, `names`, `walk_step`."""
        with self.store.writing() as connection:
            connection.execute(update(rooms).where(rooms.c.id == room_id).values(**values))

    def add_host(self, room_id: int, player: str) -> None:
        """Make a browser a host of the room (it opened the teacher's remote link)."""
        with self.store.writing() as connection:
            connection.execute(
                insert_ignoring_duplicates(connection.dialect.name, room_hosts).values(room_id=room_id, player=player)
            )

    # --- the round's timeline ----------------------------------------------------------------------------------

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
                    select(room_players.c.player, room_players.c.extra).where(room_players.c.room_id == room_id)
                ).all()
                if members:
                    values = {**board.values(), "number": 1, "started": moment}
                    connection.execute(
                        insert_ignoring_duplicates(connection.dialect.name, player_rounds),
                        [{**values, "player": player, "shift": extra} for player, extra in members],
                    )
        return bool(started)

    def player_round(self, room_id: int, number: int, player: str, board: RoundBoard) -> None:
        """Make a player's round of a started room round (a late joiner, a seat moved): the class's timeline as it
        is now, plus the player's extra time (nothing when it exists already)."""
        with self.store.writing() as connection:
            timeline = self._lock_round(connection, room_id, number)
            extra = (
                connection.execute(
                    select(room_players.c.extra).where(
                        room_players.c.room_id == room_id, room_players.c.player == player
                    )
                ).scalar()
                or 0
            )
            values = {
                **board.values(),
                "number": 1,
                "player": player,
                "started": timeline.started,
                "shift": timeline.shift + extra,
                "paused_at": timeline.paused_at,
                "ended": timeline.ended,
            }
            connection.execute(insert_ignoring_duplicates(connection.dialect.name, player_rounds).values(**values))

    def pause(self, room_id: int, number: int, now: float) -> None:
        """Stop the class's clock and every player's round still in play (ruzzle.timeline.Timeline.pause)."""
        key = round_key(room_id, number)
        with self.store.writing() as connection:
            self._lock_round(connection, room_id, number)
            connection.execute(
                update(room_rounds)
                .where(*_room_round(room_id, number), room_rounds.c.ended.is_(None), room_rounds.c.paused_at.is_(None))
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
                (room_rounds, _room_round(room_id, number)),
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
                update(room_rounds).where(*_room_round(room_id, number)).values(shift=room_rounds.c.shift + seconds)
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
            connection.execute(
                update(room_rounds)
                .where(*_room_round(room_id, number), room_rounds.c.ended.is_(None))
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

    def _lock_room(self, connection: Connection, room_id: int) -> bool:
        """Lock the room's row until the transaction ends (PostgreSQL; on SQLite the write lock is held); whether the
        host locked the room."""
        query = select(rooms.c.locked).where(rooms.c.id == room_id)
        if connection.dialect.name == "postgresql":
            query = query.with_for_update()
        return bool(connection.execute(query).scalar_one())

    def _lock_round(self, connection: Connection, room_id: int, number: int) -> RoomRound:
        """A room round's timeline, its row locked until the transaction ends: the class's clock changes one at a
        time, and a player's round made meanwhile copies it whole."""
        query = select(room_rounds).where(*_room_round(room_id, number))
        if connection.dialect.name == "postgresql":
            query = query.with_for_update()
        row = connection.execute(query).one()
        return RoomRound(
            row.number, row.seed, row.generator, row.match_round, row.started, row.shift, row.paused_at, row.ended
        )

    @staticmethod
    def _keys(connection: Connection, room_id: int) -> list[str]:
        """The board keys of the room's rounds in the `rounds` table."""
        numbers = connection.execute(select(room_rounds.c.number).where(room_rounds.c.room_id == room_id)).scalars()
        return [round_key(room_id, number) for number in numbers]

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
            for table in (room_players, room_rounds, room_hosts, room_bans):
                connection.execute(delete(table).where(table.c.room_id == room_id))
            connection.execute(delete(rooms).where(rooms.c.id == room_id))

    def delete_expired(self, moment: float) -> int:
        """Delete the rooms inactive since before a moment (their players' rounds go with the rounds' retention)."""
        old = select(rooms.c.id).where(rooms.c.active_until < moment)
        with self.store.writing() as connection:
            for table in (room_players, room_rounds, room_hosts, room_bans):
                connection.execute(delete(table).where(table.c.room_id.in_(old)))
            return connection.execute(delete(rooms).where(rooms.c.active_until < moment)).rowcount


def _room_round(room_id: int, number: int) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    """The WHERE clause of one room round's row."""
    return room_rounds.c.room_id == room_id, room_rounds.c.number == number


def _seat(row: Row[Any, Any, Any, Any, Any, Any, Any] | None) -> RoomPlayer | None:
    """A row of PLAYER_COLUMNS as a player of the room (None for no row)."""
    return None if row is None else RoomPlayer(*row)


def _may_take(seat: RoomPlayer, code: str | None, now: float) -> bool:
    """Whether a join may take this seat: the pupil's rejoin code, or the host let them back in."""
    if code and seat.rejoin_code and secrets.compare_digest(code.strip().upper().encode(), seat.rejoin_code.encode()):
        return True
    return seat.open_until is not None and seat.open_until > now


def escape_like(text: str) -> str:
    """`text` matched as itself in a LIKE pattern escaped with '/'."""
    return text.replace("/", "//").replace("%", "/%").replace("_", "/_")
