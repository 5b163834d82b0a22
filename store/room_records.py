"""A room's records in the store: the values a room is read into (Room, RoomRound, RoomPlayer ...), the room codes,
the statements the pages poll, the refusals, and `RoomTable`, what the store's parts of a room share (its database,
the room's and a round's locks, the keys of its rounds).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, ColumnElement, Connection, Row, bindparam, func, select

from .engine import Database
from .rounds import parse_shared_board_key, shared_board_key
from .schema import room_bans, room_hosts, room_players, room_rounds, room_teams, rooms, words
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
    mode: str = "solo"  # how the room is played: "solo", "teams" or "class" (issue 36: ruzzle.teams.MODES)
    teams: int | None = None  # its number of teams, in team mode

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
    team: int | None = None  # the pupil's team (1, 2, ...) in a room played in teams


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
    found_at: float = 0.0
    team: int | None = None  # the team the player played the round for (in team mode)


# The statements every poll and word runs, built once (building one costs more than running it on SQLite).
# (with the asking browser's place in the room: every request of a player needs both; the room's size is its row's
# player_count, kept by triggers: migration 0927)
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
        room_players.c.team.label("member_team"),
        room_hosts.c.player.label("extra_host"),
        room_bans.c.player.label("banned_player"),
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
    room_players.c.team,
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
HAS_SEAT = select(room_players.c.id).where(room_players.c.player == bindparam("player")).limit(1)
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
ROOM_WORDS = select(
    room_players.c.id,
    room_players.c.nickname,
    words.c.word,
    words.c.score,
    words.c.found_at,
    player_rounds.c.team,
).select_from(
    words.join(player_rounds, player_rounds.c.id == words.c.round_id).join(
        room_players,
        (room_players.c.player == player_rounds.c.player) & (room_players.c.room_id == bindparam("room_id")),
    )
)
WORDS_FOUND = ROOM_WORDS.where(player_rounds.c.board_key == bindparam("key"))

WORD_FINDERS = WORDS_FOUND.where(words.c.word == bindparam("word"))
# Every word found in several rounds of the room, with its round's key (a match's team totals, an export).
ROUNDS_WORDS_FOUND = ROOM_WORDS.add_columns(player_rounds.c.board_key).where(
    player_rounds.c.board_key.in_(bindparam("keys", expanding=True))
)


# A room's players per team, kept by triggers (migration 0927): a row per team that has had a pupil.
TEAM_SIZES = select(room_teams.c.team, room_teams.c.players).where(room_teams.c.room_id == bindparam("room_id"))


def smallest_team(sizes: dict[int, int], teams: int) -> int:
    """The team (1 … `teams`) a pupil joining goes to: the smallest, the first of them on a tie (a copy of
    ruzzle.teams.place_newcomer: the store imports no game code; tests/test_teams_web.py pins it)."""
    return min(range(1, teams + 1), key=lambda team: (sizes.get(team, 0), team))


def team_of_newcomer(connection: Connection, room_id: int, teams: int | None) -> int | None:
    """The team a new seat of the room gets now (None outside team mode), read in the joining transaction."""
    if teams is None:
        return None
    sizes = {team: count for team, count in connection.execute(TEAM_SIZES, {"room_id": room_id}).all()}
    return smallest_team(sizes, teams)


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


def seat_rejoin_code(code: str | None, class_pupil_id: int | None) -> str:
    """A new seat's rejoin code, in a room or a homework: a class list's pupil keeps the code they typed (their class
    code), anyone else gets a new one."""
    return code.strip().upper() if class_pupil_id is not None and code else new_rejoin_code()


class RoomTable:
    """The rooms' tables in the store's database, and the locks and keys every part of a room uses."""

    def __init__(self, store: Database):
        self.store = store

    def _lock_room(self, connection: Connection, room_id: int) -> bool:
        """Lock the room's row until the transaction ends (PostgreSQL; on SQLite the write lock is held); whether the
        host locked the room."""
        return bool(self._locked_row(connection, room_id, rooms.c.locked).locked)

    @staticmethod
    def _locked_row(connection: Connection, room_id: int, *columns: Column[Any]) -> Row[Any]:
        """These columns of the room's row, the row locked until the transaction ends (PostgreSQL; on SQLite the write
        lock is held): what a step under the room's lock needs of it, read by the lock itself."""
        query = select(*columns).where(rooms.c.id == room_id)
        if connection.dialect.name == "postgresql":
            query = query.with_for_update()
        return connection.execute(query).one()

    def _lock_round(self, connection: Connection, room_id: int, number: int) -> RoomRound:
        """A room round's timeline, its row locked until the transaction ends: the class's clock changes one at a
        time, and a player's round made meanwhile copies it whole."""
        query = select(room_rounds).where(*room_round_where(room_id, number))
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


def room_round_where(room_id: int, number: int) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    """The WHERE clause of one room round's row."""
    return room_rounds.c.room_id == room_id, room_rounds.c.number == number


def escape_like(text: str) -> str:
    """`text` matched as itself in a LIKE pattern escaped with '/'."""
    return text.replace("/", "//").replace("%", "/%").replace("_", "/_")
