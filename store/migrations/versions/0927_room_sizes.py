"""A room's size kept beside it (issue 37: joins that do not scan the room): `rooms.player_count`, the seats of the
room, and `room_teams`, the seats of each of its teams, are kept by triggers on `room_players` on both stores, so a
join, a poll or a page asks the room's row (or a row per team) instead of counting every seat, and stays as cheap in a
room of 2,000 as in one of 20. Triggers, not the store's code, because seats go by several ways (a join, the host's
removal and undo, a class list's pupil deleted, a live room's cleanup, a class's ON DELETE CASCADE): every one of them
counts. The rows of rooms open at this revision are counted once here.

A later migration that rebuilds `room_players` on SQLite (alembic's batch mode copies the table) drops its triggers
with it: it must create them again (`create_triggers`).

Revision ID: 0927
Revises: 0926
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0927"
down_revision = "0926"
branch_labels = None
depends_on = None

TRIGGERS = ("room_players_seated", "room_players_left", "room_players_moved")
FUNCTION = "room_players_counted"

# SQLite: one trigger per kind of change. A team's row is made at its first pupil (INSERT OR IGNORE); outside team
# mode `team` is NULL and `team = NULL` matches no row.
SQLITE_TRIGGERS = (
    "CREATE TRIGGER room_players_seated AFTER INSERT ON room_players BEGIN "
    "UPDATE rooms SET player_count = player_count + 1 WHERE id = NEW.room_id; "
    "INSERT OR IGNORE INTO room_teams (room_id, team, players) SELECT NEW.room_id, NEW.team, 0 "
    "WHERE NEW.team IS NOT NULL; "
    "UPDATE room_teams SET players = players + 1 WHERE room_id = NEW.room_id AND team = NEW.team; END",
    "CREATE TRIGGER room_players_left AFTER DELETE ON room_players BEGIN "
    "UPDATE rooms SET player_count = player_count - 1 WHERE id = OLD.room_id; "
    "UPDATE room_teams SET players = players - 1 WHERE room_id = OLD.room_id AND team = OLD.team; END",
    "CREATE TRIGGER room_players_moved AFTER UPDATE OF team ON room_players WHEN OLD.team IS NOT NEW.team BEGIN "
    "UPDATE room_teams SET players = players - 1 WHERE room_id = OLD.room_id AND team = OLD.team; "
    "INSERT OR IGNORE INTO room_teams (room_id, team, players) SELECT NEW.room_id, NEW.team, 0 "
    "WHERE NEW.team IS NOT NULL; "
    "UPDATE room_teams SET players = players + 1 WHERE room_id = NEW.room_id AND team = NEW.team; END",
)
# PostgreSQL: one function for the three, as a row trigger.
POSTGRESQL_FUNCTION = f"""
CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE rooms SET player_count = player_count + 1 WHERE id = NEW.room_id;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE rooms SET player_count = player_count - 1 WHERE id = OLD.room_id;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.team IS NOT NULL THEN
        UPDATE room_teams SET players = players - 1 WHERE room_id = OLD.room_id AND team = OLD.team;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.team IS NOT NULL THEN
        INSERT INTO room_teams (room_id, team, players) VALUES (NEW.room_id, NEW.team, 1)
        ON CONFLICT (room_id, team) DO UPDATE SET players = room_teams.players + 1;
    END IF;
    RETURN NULL;
END $$
"""
POSTGRESQL_TRIGGERS = (
    f"CREATE TRIGGER room_players_seated AFTER INSERT OR DELETE ON room_players "
    f"FOR EACH ROW EXECUTE FUNCTION {FUNCTION}()",
    f"CREATE TRIGGER room_players_moved AFTER UPDATE OF team ON room_players "
    f"FOR EACH ROW WHEN (OLD.team IS DISTINCT FROM NEW.team) EXECUTE FUNCTION {FUNCTION}()",
)


def create_triggers() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(POSTGRESQL_FUNCTION)
        for trigger in POSTGRESQL_TRIGGERS:
            op.execute(trigger)
    else:
        for trigger in SQLITE_TRIGGERS:
            op.execute(trigger)


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("player_count", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "room_teams",
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("team", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("room_id", "team", name="room_teams_pkey"),
    )
    op.execute(
        "UPDATE rooms SET player_count = (SELECT count(*) FROM room_players WHERE room_players.room_id = rooms.id)"
    )
    op.execute(
        "INSERT INTO room_teams (room_id, team, players) SELECT room_id, team, count(*) FROM room_players "
        "WHERE team IS NOT NULL GROUP BY room_id, team"
    )
    create_triggers()


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for trigger in ("room_players_seated", "room_players_moved"):
            op.execute(f"DROP TRIGGER IF EXISTS {trigger} ON room_players")
        op.execute(f"DROP FUNCTION IF EXISTS {FUNCTION}()")
    else:
        for trigger in TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    op.drop_table("room_teams")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("player_count")
