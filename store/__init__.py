"""Players' rounds in a database: SQLite in the instance folder by default, PostgreSQL for several hosts.

The interface is small: start a round (or get the one running), record a word (one atomic step), end a round,
ask whether a board's letters are still being played, and list a player's rounds; a heartbeat proves it can write.
The game's rules stay in `ruzzle/`; this package only keeps what happened, and keeps it safe from races: a word is
a row whose key is (round, word), a round's end and a word's arrival serialize on the round's row.
"""

from __future__ import annotations

import contextlib
import enum
import fcntl
import os
import secrets
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, bindparam, create_engine, delete, event, func, select, text, update
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import InterfaceError, InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from .live import LiveRooms
from .rooms import Rooms, _insert_ignoring_duplicates
from .schema import IN_PLAY, TAKES_WORD, heartbeat, rounds, words

PLAYER_ID_BYTES = 16  # 22 characters of URL-safe base64: anonymous, unguessable
CHECKPOINT_EVERY = 200  # SQLite: write transactions of a process between two checkpoints of its write-ahead log
# The heartbeat's page of bytes: more than a page of SQLite's (4 KiB, the default, which the store keeps) holds, so
# storing it needs a page of its own.
HEARTBEAT_PROBE = bytes(4096)


class StoreUnavailable(RuntimeError):
    """The store cannot be used at all: its files cannot be opened, or it could not be migrated on start."""


# The kinds of error a store outage comes as (it does not answer, or cannot write: a full disk, a lock held past the
# busy timeout, a database that went away or only reads, a pool with no connection free); is_outage tells an outage
# from a bug among them.
STORE_OUTAGES = (OperationalError, InterfaceError, InternalError, PoolTimeout, StoreUnavailable)
READ_ONLY_TRANSACTION = "25006"  # PostgreSQL's SQLSTATE for a write on a standby (a failover) or a read-only database


def is_outage(error: Exception) -> bool:
    """Whether an error is the store being out, not a wrong statement (a bug, whose trace is wanted): SQLite says
    "OperationalError" for a typo or a missing table too (its plain SQLITE_ERROR), and of PostgreSQL's internal
    errors only a read-only transaction is an outage."""
    cause = getattr(error, "orig", None)
    if isinstance(error, InternalError):
        return getattr(cause, "sqlstate", None) == READ_ONLY_TRANSACTION
    code = getattr(cause, "sqlite_errorcode", None)
    return isinstance(error, STORE_OUTAGES) and (code is None or code & 0xFF != sqlite3.SQLITE_ERROR)


def describe_outage(error: Exception) -> str:
    """An outage in the driver's own words: its first line, without the statement or its parameters (a player's
    words, their id)."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return lines[0] if lines else type(cause).__name__


def new_player_id() -> str:
    """A fresh anonymous player id (no account, nothing personal)."""
    return secrets.token_urlsafe(PLAYER_ID_BYTES)


def is_player_id(value: object) -> bool:
    """Whether a value from a cookie has the shape of a player id."""
    return isinstance(value, str) and 16 <= len(value) <= 32 and value.replace("-", "").replace("_", "").isalnum()


@dataclass(frozen=True)
class RoundBoard:
    """What the store keeps of a board: its names (URL and letters) and what a summary needs."""

    board_key: str
    letters_key: str
    language: str
    seed: str
    rows: int
    cols: int
    seconds: int
    safe: bool
    total_words: int
    max_score: int
    generator: int = 1
    match_round: int | None = None


@dataclass(frozen=True)
class PlayedBoard:
    """The board URL a round is played on: language, seed, size, length, classroom filter, generator version."""

    language: str
    seed: str
    rows: int
    cols: int
    seconds: int
    safe: bool
    generator: int = 1
    board_key: str = ""  # a room's round: `room|<id>|<number>` (store.rooms.round_key)
    match_round: int | None = None


@dataclass(frozen=True)
class StoredRound:
    """A round as the store has it: its id, clock, end (if the player ended it) and the words found."""

    id: int
    started: float
    seconds: int
    ended: float | None
    words: frozenset[str]
    shift: float = 0.0  # the rest of its timeline (ruzzle.timeline.Timeline has the same fields)
    paused_at: float | None = None


@dataclass(frozen=True)
class RoundRecord:
    """A line of "My rounds": the board, the result, the best word."""

    id: int
    language: str
    seed: str
    rows: int
    cols: int
    seconds: int
    safe: bool
    started: float
    score: int
    found: int
    total_words: int
    best_word: str | None
    best_score: int | None
    generator: int = 1
    board_key: str = ""  # a room's round: `room|<id>|<number>` (store.rooms.round_key)
    match_round: int | None = None

    @property
    def percent(self) -> int:
        """The share of the board's words found, in whole percent."""
        return round(100 * self.found / self.total_words) if self.total_words else 0


@dataclass(frozen=True)
class PersonalBest:
    """A player's best score on boards of one language and size."""

    language: str
    rows: int
    cols: int
    score: int
    rounds: int


class Recorded(enum.Enum):
    """What recording a word did."""

    ADDED = "added"
    ALREADY_FOUND = "already-found"
    ROUND_OVER = "round-over"


# The hot statements, built once (building a statement costs more than running it on SQLite).
_latest_round = (select(rounds.c.id)
                 .where(rounds.c.player == bindparam("player"), rounds.c.board_key == bindparam("board_key"))
                 .order_by(rounds.c.number.desc()).limit(1).scalar_subquery())
CURRENT_ROUND = (select(rounds.c.id, rounds.c.started, rounds.c.seconds, rounds.c.ended, words.c.word, rounds.c.shift,
                        rounds.c.paused_at)
                 .select_from(rounds.outerjoin(words, words.c.round_id == rounds.c.id))
                 .where(rounds.c.id == _latest_round))
SQLITE_INSERT_WORD = (sqlite.insert(words).on_conflict_do_nothing()
                      .values(round_id=bindparam("round_id"), word=bindparam("word"), score=bindparam("score"),
                              found_at=bindparam("now"))
                      .returning(words.c.word))
SQLITE_SCORE_WORD = (update(rounds)
                     .where(rounds.c.id == bindparam("round_id"), text(TAKES_WORD))
                     .values(score=rounds.c.score + bindparam("score"), found=rounds.c.found + 1,
                             scored_at=bindparam("now")))

# Recording a word on PostgreSQL in one statement. FOR UPDATE makes an end of the round sent at the same moment
# wait, or (if it came first) makes this statement see the round ended.
RECORD_WORD = text(f"""
WITH running AS (
    SELECT id FROM rounds
    WHERE id = :round_id AND {TAKES_WORD}
    FOR UPDATE
), inserted AS (
    INSERT INTO words (round_id, word, score, found_at)
    SELECT id, :word, :score, :now FROM running
    ON CONFLICT DO NOTHING
    RETURNING round_id
), scored AS (
    UPDATE rounds SET score = score + :score, found = found + 1, scored_at = :now
    WHERE id IN (SELECT round_id FROM inserted)
    RETURNING id
)
SELECT (SELECT count(*) FROM running), (SELECT count(*) FROM scored)
""")

BEAT = update(heartbeat).where(heartbeat.c.id == 1).values(beat=bindparam("now"), probe=bindparam("probe"))
CLEAR_PROBE = update(heartbeat).where(heartbeat.c.id == 1).values(probe=None)


class _RoundOver(Exception):
    """Raised inside a transaction to roll back a word that came after its round's end."""


class Store:
    """The rounds of every player, in one database that every worker and every host shares."""

    def __init__(self, url: str):
        self.url = url
        self.engine = _make_engine(url)
        self.rooms = Rooms(self)
        self.live = LiveRooms(self)  # the rooms that never close (store/live.py)
        # Writes on SQLite take the database's write lock at BEGIN (IMMEDIATE), so two writers queue instead of
        # failing on a lock upgrade; on PostgreSQL the round's row lock does the same job.
        self.writer = self.engine.execution_options(ruzzle_write=True)
        # A read is one statement: on PostgreSQL it needs no BEGIN and ROLLBACK around it (two round trips less).
        self.reader = self.engine.execution_options(isolation_level="AUTOCOMMIT") if self.dialect == "postgresql" \
            else self.engine
        # SQLite's own wait for its write lock polls with sleeps of up to 100 ms; on a busy machine a writer that
        # loses the CPU while holding it made others sleep far longer than it held it (word p99 ~1 s with 5
        # workers). Writers of this app queue on a file lock first, which wakes the next one at once.
        self._write_lock_path = _sqlite_path(self.engine) and f"{_sqlite_path(self.engine)}.write-lock"
        self._thread_lock = threading.Lock()
        self._lock_files: dict[int, int] = {}
        self._writes = 0
        # A pool must not cross a fork (gunicorn forks workers): the child drops the parent's connections.
        reference = weakref.ref(self)
        os.register_at_fork(after_in_child=lambda: (store := reference()) and store.engine.dispose(close=False))

    @contextlib.contextmanager
    def writing(self):
        """A write transaction (on SQLite: taken in turn by every process and thread of the app)."""
        if self._write_lock_path is None:
            with self.writer.begin() as connection:
                yield connection
            return
        with self._thread_lock:
            lock_file = self._lock_file()
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                with self.writer.begin() as connection:
                    yield connection
            finally:
                fcntl.flock(lock_file, fcntl.LOCK_UN)
            self._writes += 1
            checkpoint = self._writes % CHECKPOINT_EVERY == 0
        if checkpoint:
            # The write is in once it commits: a checkpoint that fails now (a full disk) is tried again later, and the
            # request is not told its write failed (a phone would send its word again, to hear "already found").
            with contextlib.suppress(*STORE_OUTAGES):
                self._checkpoint()

    def _checkpoint(self) -> None:
        """Copy the write-ahead log into the database, beside the writers rather than in their way.

        SQLite would do it inside a commit (every 1000 pages), with an fsync, while the write lock is held: on
        a machine whose disk is busy that fsync took up to a second and every writer waited (word p99 855 ms).
        A passive checkpoint after the lock is released costs only the request that runs it.
        """
        raw = self.engine.raw_connection()
        try:
            raw.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            raw.close()

    def _lock_file(self) -> int:
        """This process's own descriptor of the lock file (a forked child must not share its parent's)."""
        pid = os.getpid()
        if pid not in self._lock_files:
            try:
                self._lock_files[pid] = os.open(self._write_lock_path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as error:  # a read-only or missing folder: the database beside it cannot be written either
                raise StoreUnavailable(f"the lock file {self._write_lock_path} cannot be opened: {error.strerror}") \
                    from error
        return self._lock_files[pid]

    @property
    def dialect(self) -> str:
        """`sqlite` or `postgresql`."""
        return self.engine.dialect.name

    def migrate(self) -> None:
        """Bring the schema to the newest migration (safe when several workers start at once)."""
        from .migrate import upgrade

        upgrade(self)

    def migrate_to(self, revision: str) -> None:
        """Bring the schema to one revision (tests of a migration start from the one before)."""
        from .migrate import upgrade

        upgrade(self, revision)

    @property
    def address(self) -> str:
        """The database's URL without its password, for messages."""
        return self.engine.url.render_as_string(hide_password=True)

    def ping(self) -> bool:
        """Whether the database answers."""
        with self.engine.connect() as connection:
            return connection.execute(text("SELECT 1")).scalar() == 1

    def heartbeat(self, now: float) -> None:
        """Write and commit the heartbeat row: raises, as a new word's write would, when the store cannot write.

        The row takes a page of bytes and gives it back in the same transaction: a full SQLite database still takes
        a change that fits in place, so only a write that needs room finds out there is none.
        """
        with self.writing() as connection:
            if connection.execute(BEAT, {"now": now, "probe": HEARTBEAT_PROBE}).rowcount != 1:
                raise StoreUnavailable("the heartbeat row is missing: the store's migrations did not run")
            connection.execute(CLEAR_PROBE)

    def dispose(self) -> None:
        """Close the pool's connections (and the lock file)."""
        self.engine.dispose()
        for lock_file in self._lock_files.values():
            os.close(lock_file)
        self._lock_files.clear()

    # --- rounds -------------------------------------------------------------------------------------------

    def current_round(self, player: str, board_key: str) -> StoredRound | None:
        """The player's latest round on this board URL, or None."""
        with self.reader.connect() as connection:
            return self._current(connection, player, board_key)

    def start_round(self, player: str, board: RoundBoard, now: float, again: bool = False) -> StoredRound:
        """The player's round on this board: the running one, or the first; `again` starts the next one.

        Two requests that start the same round at once get the same round (the number is unique per player
        and board), so a word sent with the first request of a new cookie is never recorded in a round that
        is then lost.
        """
        with self.writing() as connection:
            latest = connection.execute(
                select(rounds.c.number).where(rounds.c.player == player, rounds.c.board_key == board.board_key)
                .order_by(rounds.c.number.desc()).limit(1)).scalar()
            if latest is not None and not again:
                return self._current(connection, player, board.board_key)
            # The next number after the round this request saw: of two requests that saw the same, one inserts
            # and the other, finding the number taken, returns that round.
            number = (latest or 0) + 1
            values = {**board.__dict__, "player": player, "number": number, "started": now}
            connection.execute(_insert_ignoring_duplicates(connection, rounds).values(**values))
            return self._current(connection, player, board.board_key)

    def end_round(self, round_id: int, now: float) -> None:
        """End a round now (the player gave up); a round already ended keeps its end."""
        with self.writing() as connection:
            connection.execute(update(rounds).where(rounds.c.id == round_id, rounds.c.ended.is_(None))
                               .values(ended=now, paused_at=None))

    def database_time(self) -> float:
        """The database's clock (seconds since the epoch): with several hosts on one PostgreSQL, the one clock."""
        if self.dialect != "postgresql":
            return time.time()  # SQLite serves one host: its clock is the one
        with self.reader.connect() as connection:
            return float(connection.execute(text("SELECT extract(epoch FROM clock_timestamp())")).scalar_one())

    def record_word(self, round_id: int, word: str, score: int, now: float, grace: float) -> Recorded:
        """Record a found word in one transaction: added once, never twice, never after the round's end.

        The word's row (unique per round) decides "already found"; the update of the round's score, which
        also checks the round is still running, decides "over". Either refusal rolls the whole step back.
        """
        if self.dialect == "postgresql":
            return self._record_word_in_one_statement(round_id, word, score, now, grace)
        try:
            with self.writing() as connection:
                values = {"round_id": round_id, "word": word, "score": score, "now": now, "grace": grace}
                # (rowcount of an INSERT is not reliable on every driver: RETURNING says whether it inserted)
                if connection.execute(SQLITE_INSERT_WORD, values).first() is None:
                    return Recorded.ALREADY_FOUND
                running = connection.execute(SQLITE_SCORE_WORD, values).rowcount
                if running != 1:
                    raise _RoundOver  # leaving the block by an exception rolls the word back
        except _RoundOver:
            return Recorded.ROUND_OVER
        return Recorded.ADDED

    def _record_word_in_one_statement(self, round_id: int, word: str, score: int, now: float,
                                      grace: float) -> Recorded:
        """PostgreSQL: the same step as one statement (one round trip): the running round's row locked, the word
        inserted if new, the score added if it was."""
        with self.reader.connect() as connection:
            running, inserted = connection.execute(RECORD_WORD, {
                "round_id": round_id, "word": word, "score": score, "now": now, "grace": grace}).one()
        if not running:
            return Recorded.ROUND_OVER
        return Recorded.ADDED if inserted else Recorded.ALREADY_FOUND

    def round_in_play(self, player: str, letters_key: str, now: float, grace: float) -> PlayedBoard | None:
        """The board URL of the player's latest round still running on these letters (any seed or length)."""
        query = (select(rounds.c.language, rounds.c.seed, rounds.c.rows, rounds.c.cols, rounds.c.seconds,
                        rounds.c.safe, rounds.c.generator, rounds.c.board_key, rounds.c.match_round)
                 .where(rounds.c.player == player, rounds.c.letters_key == letters_key, text(IN_PLAY))
                 .order_by(rounds.c.id.desc()).limit(1))
        with self.reader.connect() as connection:
            row = connection.execute(query, {"now": now, "grace": grace}).first()
        return None if row is None else PlayedBoard(*row)

    # --- a player's history -------------------------------------------------------------------------------

    def recent_rounds(self, player: str, limit: int = 50) -> list[RoundRecord]:
        """The player's latest rounds with a word found, newest first, each with its best word."""
        best = (select(words.c.word, words.c.score).where(words.c.round_id == rounds.c.id)
                .order_by(words.c.score.desc(), words.c.word).limit(1).correlate(rounds))
        query = (select(rounds.c.id, rounds.c.language, rounds.c.seed, rounds.c.rows, rounds.c.cols,
                        rounds.c.seconds, rounds.c.safe, rounds.c.started, rounds.c.score, rounds.c.found,
                        rounds.c.total_words, best.with_only_columns(words.c.word).scalar_subquery(),
                        best.with_only_columns(words.c.score).scalar_subquery(), rounds.c.generator,
                        rounds.c.board_key, rounds.c.match_round)
                 .where(rounds.c.player == player, rounds.c.found > 0)
                 .order_by(rounds.c.started.desc(), rounds.c.id.desc()).limit(limit))
        with self.reader.connect() as connection:
            return [RoundRecord(*row) for row in connection.execute(query)]

    def personal_bests(self, player: str) -> list[PersonalBest]:
        """The player's best score per language and board size (rounds with a word found)."""
        query = (select(rounds.c.language, rounds.c.rows, rounds.c.cols, func.max(rounds.c.score),
                        func.count(rounds.c.id))
                 .where(rounds.c.player == player, rounds.c.found > 0)
                 .group_by(rounds.c.language, rounds.c.rows, rounds.c.cols)
                 .order_by(rounds.c.language, rounds.c.rows, rounds.c.cols))
        with self.reader.connect() as connection:
            return [PersonalBest(*row) for row in connection.execute(query)]

    def delete_rounds_before(self, moment: float) -> int:
        """Delete the rounds started before a moment, with their words; how many rounds went."""
        old = select(rounds.c.id).where(rounds.c.started < moment)
        with self.writing() as connection:
            connection.execute(delete(words).where(words.c.round_id.in_(old)))
            return connection.execute(delete(rounds).where(rounds.c.started < moment)).rowcount

    # --- helpers ------------------------------------------------------------------------------------------

    def _current(self, connection, player: str, board_key: str) -> StoredRound | None:
        """The latest round and its words, in one query (the board page and every word ask for it)."""
        result = connection.execute(CURRENT_ROUND, {"player": player, "board_key": board_key}).all()
        if not result:
            return None
        first = result[0]
        return StoredRound(first.id, first.started, first.seconds, first.ended,
                           frozenset(row.word for row in result if row.word is not None), first.shift, first.paused_at)


def sqlite_url(instance: Path) -> str:
    """The default store: a SQLite file in the instance folder (made if missing)."""
    instance.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{instance / 'ruzzle.sqlite3'}"


def _sqlite_path(engine: Engine) -> str | None:
    """The database file of a SQLite engine; None for another database (or SQLite in memory)."""
    if engine.dialect.name != "sqlite" or engine.url.database in (None, "", ":memory:"):
        return None
    return engine.url.database


def _make_engine(url: str) -> Engine:
    """An engine for the URL; `postgresql://` goes through psycopg 3, SQLite gets WAL and a busy timeout."""
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    if not url.startswith("sqlite"):
        # No pre-ping (a round trip per checkout, two per word): connections are recycled after 30 minutes, and
        # one that a restart of PostgreSQL broke is dropped with the whole pool on its first error.
        return create_engine(url, pool_recycle=1800)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def configure(dbapi_connection, _record):
        dbapi_connection.isolation_level = None  # the begin event below says how each transaction starts
        # synchronous NORMAL in WAL mode: a commit is in the log before the answer, so it survives any crash of
        # the app (kill -9); only a crash of the machine itself may lose the last commits. Checkpoints: above.
        for pragma in ("busy_timeout = 30000", "journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON",
                       "wal_autocheckpoint = 0", "journal_size_limit = 8388608"):
            dbapi_connection.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def begin(connection):
        connection.exec_driver_sql("BEGIN IMMEDIATE" if connection.get_execution_options().get("ruzzle_write")
                                   else "BEGIN")

    return engine


__all__ = ["STORE_OUTAGES", "PersonalBest", "PlayedBoard", "Recorded", "RoundBoard", "RoundRecord", "Store",
           "StoreUnavailable", "StoredRound", "describe_outage", "is_outage", "is_player_id", "new_player_id",
           "sqlite_url"]
