"""Schema migrations (Alembic, scripts in store/migrations/), applied in one transaction under a lock.

Several gunicorn workers start at once and each may upgrade: on PostgreSQL an advisory lock held by the
transaction lets one of them migrate while the others wait and then find nothing to do; on SQLite the
transaction's BEGIN IMMEDIATE is the lock (and SQLite's DDL is transactional too).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path
from typing import Protocol

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
ADVISORY_LOCK = 0x52555A5A4C45  # "RUZZLE": the key of the PostgreSQL advisory lock held while migrating


class Migratable(Protocol):
    """What migrating needs of a store (`store.engine.Database` is one): its dialect, its engine, a write
    transaction. Named here so that this module needs nothing from the engine's (which calls it)."""

    @property
    def dialect(self) -> str: ...

    @property
    def engine(self) -> Engine: ...

    def writing(self) -> AbstractContextManager[Connection]: ...


def alembic_config() -> Config:
    """Alembic's settings without an alembic.ini: where the scripts are."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def head_revision() -> str | None:
    """The newest migration's revision, read from the scripts once per process."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def upgrade(store: Migratable, revision: str = "head") -> None:
    """Upgrade the store's schema to `revision`, one process at a time. A store already at the newest revision (every
    worker's start but the first after a release, and a worker starts again every few thousand requests) is told by
    one read under the lock (1 ms), without Alembic reading every migration's script (12 ms)."""
    config = alembic_config()
    with store.writing() as connection:
        if store.dialect == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
        if revision == "head" and MigrationContext.configure(connection).get_current_revision() == head_revision():
            return
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def current(store: Migratable) -> str | None:
    """The schema's revision in the database (None before the first migration)."""
    with store.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
