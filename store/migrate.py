"""Schema migrations (Alembic, scripts in store/migrations/), applied in one transaction under a lock.

Several gunicorn workers start at once and each may upgrade: on PostgreSQL an advisory lock held by the
transaction lets one of them migrate while the others wait and then find nothing to do; on SQLite the
transaction's BEGIN IMMEDIATE is the lock (and SQLite's DDL is transactional too).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

if TYPE_CHECKING:
    from .engine import Database

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
ADVISORY_LOCK = 0x52555A5A4C45  # "RUZZLE": the key of the PostgreSQL advisory lock held while migrating


def alembic_config() -> Config:
    """Alembic's settings without an alembic.ini: where the scripts are."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def head_revision() -> str | None:
    """The newest migration's revision, read from the scripts once per process."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def upgrade(store: Database, revision: str = "head") -> None:
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


def current(store: Database) -> str | None:
    """The schema's revision in the database (None before the first migration)."""
    with store.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
