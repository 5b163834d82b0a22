"""SQLite: a word's row adds its points to its round (a trigger), so that recording a word is one statement there as
on PostgreSQL (store/rounds.py `SQLITE_RECORD_WORD`): the writers' turn is then held for one call into the driver,
not across a transaction of four statements between which a busy worker's thread waited for Python's lock while
every other writer waited for it (bench/rooms.py, 500 phones: words p99 2.1 s). PostgreSQL adds the points in its
own statement (`RECORD_WORD`) and gets no trigger.

A later migration that rebuilds the `words` table on SQLite (alembic's batch mode copies the table) drops the trigger
with it: it must create it again (`create_trigger`).

Revision ID: 0901
Revises: 0900
Create Date: 2026-11-27
"""

from alembic import op

revision = "0901"
down_revision = "0900"
branch_labels = None
depends_on = None

TRIGGER = "words_add_to_round"


def create_trigger() -> None:
    op.execute(
        f"CREATE TRIGGER IF NOT EXISTS {TRIGGER} AFTER INSERT ON words BEGIN "
        "UPDATE rounds SET score = score + NEW.score, found = found + 1, scored_at = NEW.found_at "
        "WHERE id = NEW.round_id; END"
    )


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        create_trigger()


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}")
