"""The store's database: which one the app uses, its engine (SQLite in WAL mode, or PostgreSQL through psycopg 3), its
write transactions, its clock, a heartbeat that proves it can write, and an outage told from a bug.

`Database` is what every part of the store is built on: `writing()` for a write transaction (taken in turn on
SQLite), `reader` for a read (one statement, no transaction around it on PostgreSQL), `insert_ignoring_duplicates`
for the one `INSERT ... ON CONFLICT DO NOTHING` of every dialect.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import math
import os
import re
import sqlite3
import threading
import time
import weakref
from collections import namedtuple
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Dialect, Engine, Select, Table, bindparam, create_engine, event, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import InterfaceError, InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.sql.dml import Insert

from .schema import heartbeat

DATABASE_URL_VARIABLE = "RUZZLE_DATABASE_URL"  # the app's setting DATABASE_URL, from the environment
DATABASE_FILE = "ruzzle.sqlite3"  # the default store, in the app's instance folder
CODE_FOLDER = Path(__file__).resolve().parents[1]  # where app.py is: a working copy, or site-packages once installed
CHECKPOINT_EVERY = 200  # SQLite: write transactions of a process between two checkpoints of its write-ahead log
# The heartbeat's page of bytes: more than a page of SQLite's (4 KiB, the default, which the store keeps) holds, so
# storing it needs a page of its own.
HEARTBEAT_PROBE = bytes(4096)
CLOCK_ASKED_EVERY = 10.0  # seconds between two readings of PostgreSQL's clock (database_time)
CLOCK_READINGS = 3  # round trips to it at most a reading, while they are slow (Database._clock_difference)
CLOCK_GOOD_TRIP = 0.004  # seconds: a round trip this short puts the guess within 2 ms
CLOCK_KEPT_FOR = 300.0  # seconds a better guess of the difference is kept over worse ones


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


def default_instance(code: Path = CODE_FOLDER) -> Path:
    """The app's instance folder when no setting names one: instance/ beside app.py in a working copy; once installed
    (app.py in site-packages, no place for data) `<prefix>/var/app-instance`, where Flask puts an installed app's. The
    app and `python -m store` both ask this, so the command migrates the database the app opens."""
    if code.name.lower() not in ("site-packages", "dist-packages"):
        return code / "instance"
    lib = code.parent if code.parent.name.lower() == "lib" else code.parent.parent  # <prefix>/lib[/pythonX.Y]/site-…
    return lib.parent / "var" / "app-instance"


APP_INSTANCE = default_instance()


def database_url(configured: str | None, instance: Path = APP_INSTANCE) -> str:
    """Which database the app uses: the configured URL (RUZZLE_DATABASE_URL) when there is one, else the SQLite file
    in the app's instance folder (made if missing). The app and `python -m store` both ask this."""
    return configured or sqlite_url(instance)


def sqlite_url(instance: Path) -> str:
    """The default store: a SQLite file in the instance folder (made if missing)."""
    instance.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{instance / DATABASE_FILE}"


def insert_ignoring_duplicates(dialect: str, table: Table) -> Insert:
    """INSERT ... ON CONFLICT DO NOTHING in a dialect (`connection.dialect.name`): the one statement of the store that
    SQLAlchemy writes differently for each database."""
    module: Any = postgresql if dialect == "postgresql" else sqlite
    insert: Insert = module.insert(table).on_conflict_do_nothing()
    return insert


BEAT = update(heartbeat).where(heartbeat.c.id == 1).values(beat=bindparam("now"), probe=bindparam("probe"))
CLEAR_PROBE = update(heartbeat).where(heartbeat.c.id == 1).values(probe=None)


class Database:
    """One database that every worker and every host shares: its engine, transactions, schema and clock."""

    def __init__(self, url: str):
        self.url = url
        self.engine = _make_engine(url)
        # Writes on SQLite take the database's write lock at BEGIN (IMMEDIATE), so two writers queue instead of
        # failing on a lock upgrade; on PostgreSQL the round's row lock does the same job.
        self.writer = self.engine.execution_options(ruzzle_write=True)
        # A read is one statement: on PostgreSQL it needs no BEGIN and ROLLBACK around it (two round trips less).
        self.reader = (
            self.engine.execution_options(isolation_level="AUTOCOMMIT") if self.dialect == "postgresql" else self.engine
        )
        # SQLite's own wait for its write lock polls with sleeps of up to 100 ms; on a busy machine a writer that
        # loses the CPU while holding it made others sleep far longer than it held it (word p99 ~1 s with 5
        # workers). Writers of this app queue on a file lock first, which wakes the next one at once.
        path = _sqlite_path(self.engine)
        self._write_lock_path = path and f"{path}.write-lock"
        self._thread_lock = threading.Lock()
        self._lock_files: dict[int, int] = {}
        self._writes = 0
        self._clock_offset = (0.0, -math.inf)  # the database's clock minus this host's, and when it was asked
        self._clock_best: tuple[tuple[float, float] | None, float] = (None, -math.inf)  # the best guess, and when
        self._compiled_reads: dict[int, CompiledRead] = {}
        self._readers = threading.local()  # each thread's SQLite connection for reads (_thread_reader)
        self._reader_connections: list[sqlite3.Connection] = []
        # A pool must not cross a fork (gunicorn forks workers): the child drops the parent's connections.
        reference = weakref.ref(self)
        os.register_at_fork(after_in_child=lambda: _drop_pool(reference()))

    @contextlib.contextmanager
    def writing(self) -> Iterator[Connection]:
        """A write transaction (on SQLite: taken in turn by every process and thread of the app)."""
        if self._write_lock_path is None:
            with self.writer.begin() as connection:
                yield connection
            return
        with self._write_turn(), self.writer.begin() as connection:
            yield connection

    def write_statement(self, statement: str, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        """SQLite: one statement that is its own transaction (with what its triggers do), in this process's and thread's
        turn to write, and its rows. The turn is held for one call into the driver, not across a transaction's several
        statements, between which a thread of a busy worker may wait for Python's lock while every writer waits."""
        with self._write_turn(), self.engine.connect() as connection:
            driver = connection.connection.dbapi_connection
            try:
                return list(driver.execute(statement, values).fetchall())  # type: ignore[union-attr]
            except sqlite3.Error as error:  # as SQLAlchemy raises it, so that an outage is told from a bug
                raise OperationalError(statement, values, error) from error

    def read(self, statement: Select[Any], values: dict[str, Any]) -> list[Any]:
        """The rows of one of the hot reads (a Core select built once at import), compiled once for this database and
        sent straight to the driver: SQLAlchemy's execution machinery (a connection object, an execution context, a
        result) cost more than the query itself on SQLite. Rows are named tuples of the select's column keys, each
        value as SQLAlchemy's type gives it (a Boolean as a bool on SQLite)."""
        compiled = self._compiled(statement)
        rows, description = self._driver_rows(compiled.sql, compiled.parameters(values))
        processors = compiled.processors(self.engine.dialect, description)
        return [compiled.row(row, processors) for row in rows]

    def _compiled(self, statement: Select[Any]) -> CompiledRead:
        found = self._compiled_reads.get(id(statement))
        if found is None or found.statement is not statement:
            found = self._compiled_reads[id(statement)] = CompiledRead.of(statement, self.engine.dialect)
        return found

    def _driver_rows(self, sql: str, parameters: Any) -> tuple[list[Any], Any]:
        """One statement on a driver's connection, outside any transaction (as `reader` reads): its rows and the
        cursor's description of its columns. SQLite: on this thread's own connection, kept for its next reads (a
        pool's checkout and return cost as much as the query; a thread answers one request at a time, so this is one
        connection per request). PostgreSQL: a pooled one (a connection per thread would be 48 per worker)."""
        for listener in self.engine.dispatch.before_cursor_execute:  # (tests count statements through it)
            listener(None, None, sql, parameters, None, False)
        if self.dialect != "postgresql":
            try:
                cursor = self._thread_reader().execute(sql, parameters)
                try:
                    return cursor.fetchall(), cursor.description
                finally:
                    cursor.close()  # (a statement left open would hold its snapshot for the thread's next reads)
            except sqlite3.Error as error:  # as SQLAlchemy raises it, so that an outage is told from a bug
                self._forget_thread_reader()
                raise OperationalError(sql, parameters, error) from error
        raw = None
        try:
            raw = self.engine.raw_connection()  # (the pool does not wrap the driver's errors as a Connection does)
            driver: Any = raw.driver_connection
            driver.autocommit = True
            try:
                cursor = driver.execute(sql, parameters)
                return cursor.fetchall(), cursor.description
            finally:
                with contextlib.suppress(Exception):  # (a lost connection is invalidated below)
                    driver.autocommit = False
        except Exception as error:
            if not type(error).__module__.startswith("psycopg"):
                raise
            if raw is not None:
                raw.invalidate()  # a connection the server dropped is not given to the next request
            raise OperationalError(sql, parameters, error) from error
        finally:
            if raw is not None:
                raw.close()

    def _thread_reader(self) -> sqlite3.Connection:
        """This thread's SQLite connection for reads, made by the engine (its settings) and taken out of its pool."""
        connection: sqlite3.Connection | None = getattr(self._readers, "connection", None)
        if connection is None:
            raw = self.engine.raw_connection()  # (an error opening it: sqlite3's, which the caller wraps)
            made: sqlite3.Connection = raw.driver_connection  # type: ignore[assignment]  # (a SQLite engine's)
            raw.detach()
            with self._thread_lock:
                self._reader_connections.append(made)
            self._readers.connection = connection = made
        return connection

    def _forget_thread_reader(self) -> None:
        """After an error: this thread's next read opens a new connection (the database may have been replaced)."""
        connection = getattr(self._readers, "connection", None)
        self._readers.connection = None
        if connection is not None:
            with contextlib.suppress(sqlite3.Error):
                connection.close()

    def read_row(self, statement: str, values: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row of one read written in SQL (`:name` parameters), sent straight to the driver, as `read`."""
        sql = statement if self.dialect != "postgresql" else _pyformat(statement)
        rows = self._driver_rows(sql, values)[0]
        return tuple(rows[0]) if rows else None

    @contextlib.contextmanager
    def _write_turn(self) -> Iterator[None]:
        """This thread's turn to write on SQLite: one thread of the process at a time, one process at a time (a file
        lock), then a passive checkpoint now and then once the turn is over."""
        assert self._write_lock_path is not None
        with self._thread_lock:
            lock_file = self._lock_file(self._write_lock_path)
            fcntl.flock(lock_file, fcntl.LOCK_EX)
            try:
                yield
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
            raw.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")  # type: ignore[union-attr]
        finally:
            raw.close()

    def _lock_file(self, path: str) -> int:
        """This process's own descriptor of the lock file (a forked child must not share its parent's)."""
        pid = os.getpid()
        if pid not in self._lock_files:
            try:
                self._lock_files[pid] = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as error:  # a read-only or missing folder: the database beside it cannot be written either
                raise StoreUnavailable(f"the lock file {path} cannot be opened: {error.strerror}") from error
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
            return bool(connection.execute(text("SELECT 1")).scalar() == 1)

    def heartbeat(self, now: float) -> None:
        """Write and commit the heartbeat row: raises, as a new word's write would, when the store cannot write.

        The row takes a page of bytes and gives it back in the same transaction: a full SQLite database still takes
        a change that fits in place, so only a write that needs room finds out there is none.
        """
        with self.writing() as connection:
            if connection.execute(BEAT, {"now": now, "probe": HEARTBEAT_PROBE}).rowcount != 1:
                raise StoreUnavailable("the heartbeat row is missing: the store's migrations did not run")
            connection.execute(CLEAR_PROBE)

    def database_time(self) -> float:
        """The database's clock (seconds since the epoch): with several hosts on one PostgreSQL, the one clock.

        On PostgreSQL it is asked every CLOCK_ASKED_EVERY seconds at most, and in between this host's clock is moved
        by the difference it had then: asking on every request was a round trip each (a quarter of a room's word, and
        every poll's), and a host's clock does not drift a millisecond in that time."""
        if self.dialect != "postgresql":
            return time.time()  # SQLite serves one host: its clock is the one
        offset, asked_at = self._clock_offset
        if time.monotonic() - asked_at > CLOCK_ASKED_EVERY:
            offset = self._clock_difference()
            self._clock_offset = (offset, time.monotonic())
        return time.time() + offset

    def _clock_difference(self) -> float:
        """The database's clock minus this host's. The database read its clock somewhere within the round trip, so
        the guess (its middle) is off by up to half the trip: the trip is asked again while it is slow (a busy
        machine made one of 0.2 s, and the pages' clocks 0.1 s off), the shortest kept, and a better guess made
        within CLOCK_KEPT_FOR is kept over a worse new one (a host's clock drifts far less in that time)."""
        best: tuple[float, float] | None = None  # (round trip, difference)
        with self.reader.connect() as connection:
            for _ in range(CLOCK_READINGS):
                before = time.time()
                database = float(connection.execute(text("SELECT extract(epoch FROM clock_timestamp())")).scalar_one())
                after = time.time()
                reading = (after - before, database - (before + after) / 2)
                best = reading if best is None or reading[0] < best[0] else best
                if best[0] <= CLOCK_GOOD_TRIP:
                    break
        assert best is not None  # (CLOCK_READINGS >= 1)
        kept, kept_at = self._clock_best
        if kept is None or best[0] <= kept[0] or time.monotonic() - kept_at > CLOCK_KEPT_FOR:
            self._clock_best = (best, time.monotonic())
            return best[1]
        return kept[1]

    def dispose(self) -> None:
        """Close the pool's connections, the threads' reading connections (and the lock file)."""
        self.engine.dispose()
        with self._thread_lock:
            for connection in self._reader_connections:
                with contextlib.suppress(sqlite3.Error):
                    connection.close()
            self._reader_connections.clear()
        self._readers = threading.local()
        for lock_file in self._lock_files.values():
            os.close(lock_file)
        self._lock_files.clear()


@dataclass
class CompiledRead:
    """A select compiled for one database: its SQL in the driver's style, its parameters' order and fixed values, and
    how each column's value comes out (SQLAlchemy's own result processors, found at the first answer: on PostgreSQL
    they depend on the column's type as the server names it)."""

    statement: Select[Any]
    sql: str
    order: tuple[str, ...] | None  # the parameters' names in order, for a driver that takes them by position
    fixed: dict[str, Any]  # the values the statement itself binds (a LIMIT, a constant)
    row_type: type[tuple[Any, ...]]
    _processors: tuple[Callable[[Any], Any] | None, ...] | None = None

    @classmethod
    def of(cls, statement: Select[Any], dialect: Dialect) -> CompiledRead:
        compiled = statement.compile(dialect=dialect)
        keys = [str(column.key) for column in statement.selected_columns]
        assert len(set(keys)) == len(keys), f"two columns named alike in {keys}"
        order = tuple(compiled.positiontup) if compiled.positional and compiled.positiontup else None
        row_type = namedtuple("Row", keys)  # type: ignore[misc]  # (a row type per statement, made at run time)
        return cls(statement, compiled.string, order, dict(compiled.params), row_type)

    def parameters(self, values: dict[str, Any]) -> Any:
        merged = {**self.fixed, **values}
        return merged if self.order is None else tuple(merged[name] for name in self.order)

    def processors(self, dialect: Dialect, description: Any) -> tuple[Callable[[Any], Any] | None, ...]:
        if self._processors is None:
            self._processors = tuple(
                column.type.dialect_impl(dialect).result_processor(dialect, field[1])
                for column, field in zip(self.statement.selected_columns, description, strict=True)
            )
        return self._processors

    def row(self, values: tuple[Any, ...], processors: tuple[Callable[[Any], Any] | None, ...]) -> tuple[Any, ...]:
        if not any(processors):  # (the usual case on SQLite: the driver's values are the types' own)
            return self.row_type._make(values)  # type: ignore[attr-defined,no-any-return]
        pairs = zip(values, processors, strict=True)
        return self.row_type(*(value if process is None else process(value) for value, process in pairs))


@functools.cache
def _pyformat(statement: str) -> str:
    """A statement's `:name` parameters as psycopg's `%(name)s` (its `%` doubled), converted once per statement."""
    return re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", statement.replace("%", "%%"))


def _drop_pool(database: Database | None) -> None:
    """In a forked child: forget the parent's connections without closing them (they are the parent's)."""
    if database is not None:
        database.engine.dispose(close=False)
        database._readers = threading.local()  # (the parent's: not this process's to use or close)
        database._reader_connections = []


def _sqlite_path(engine: Engine) -> str | None:
    """The database file of a SQLite engine; None for another database (or SQLite in memory)."""
    if engine.dialect.name != "sqlite" or engine.url.database in (None, "", ":memory:"):
        return None
    return engine.url.database


def _make_engine(url: str) -> Engine:
    """An engine for the URL; `postgresql://` goes through psycopg 3, SQLite gets WAL and a busy timeout."""
    # hide_parameters: a failed query's values (a teacher's key, a pupil's name) stay out of the error log
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    if not url.startswith("sqlite"):
        # No pre-ping (a round trip per checkout, two per word): connections are recycled after 30 minutes, and
        # one that a restart of PostgreSQL broke is dropped with the whole pool on its first error.
        return create_engine(url, pool_recycle=1800, hide_parameters=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, hide_parameters=True)

    @event.listens_for(engine, "connect")
    def configure(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.isolation_level = None  # the begin event below says how each transaction starts
        # synchronous NORMAL in WAL mode: a commit is in the log before the answer, so it survives any crash of
        # the app (kill -9); only a crash of the machine itself may lose the last commits. Checkpoints: above.
        for pragma in (
            "busy_timeout = 30000",
            "journal_mode = WAL",
            "synchronous = NORMAL",
            "foreign_keys = ON",
            "wal_autocheckpoint = 0",
            "journal_size_limit = 8388608",
        ):
            dbapi_connection.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        # Straight to the driver's connection: through exec_driver_sql, SQLAlchemy's machinery for one statement
        # (events, result, cursor) was a twentieth of a room's word (py-spy on gunicorn), for a statement that
        # returns nothing.
        statement = "BEGIN IMMEDIATE" if connection.get_execution_options().get("ruzzle_write") else "BEGIN"
        try:
            connection.connection.dbapi_connection.execute(statement)  # type: ignore[union-attr]
        except sqlite3.Error as error:  # (a lock held past the busy timeout): as SQLAlchemy would have raised it
            raise OperationalError(statement, None, error) from error

    return engine
