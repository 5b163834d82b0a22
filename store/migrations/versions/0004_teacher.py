"""The teacher in control: a round's timeline (pauses, time added, an early end), a pupil's extra time, a room's
lock, bans, more hosts (the teacher's remote), rejoin codes, and who the projector names.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("shift", sa.Float, nullable=False, server_default="0"))
        batch.add_column(sa.Column("paused_at", sa.Float, nullable=True))
    with op.batch_alter_table("room_rounds") as batch:
        batch.add_column(sa.Column("shift", sa.Float, nullable=False, server_default="0"))
        batch.add_column(sa.Column("paused_at", sa.Float, nullable=True))
        batch.add_column(sa.Column("ended", sa.Float, nullable=True))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("locked", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("remote_key", sa.String(32), nullable=True))
        batch.add_column(sa.Column("names", sa.String(8), nullable=False, server_default="all"))
        batch.add_column(sa.Column("walk_step", sa.Integer, nullable=True))
    with op.batch_alter_table("room_players") as batch:
        batch.add_column(sa.Column("extra", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("rejoin_code", sa.String(8), nullable=True))
        batch.add_column(sa.Column("open_until", sa.Float, nullable=True))
    op.create_table(
        "room_hosts",
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("room_id", "player", name="room_hosts_pkey"),
    )
    op.create_table(
        "room_bans",
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player", sa.String(32), nullable=False),
        sa.Column("player_id", sa.Integer, nullable=False),
        sa.Column("nickname", sa.String(80), nullable=False),
        sa.Column("banned", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("room_id", "player", name="room_bans_pkey"),
    )


def downgrade() -> None:
    op.drop_table("room_bans")
    op.drop_table("room_hosts")
    with op.batch_alter_table("room_players") as batch:
        for column in ("open_until", "rejoin_code", "extra"):
            batch.drop_column(column)
    with op.batch_alter_table("rooms") as batch:
        for column in ("walk_step", "names", "remote_key", "locked"):
            batch.drop_column(column)
    with op.batch_alter_table("room_rounds") as batch:
        for column in ("ended", "paused_at", "shift"):
            batch.drop_column(column)
    with op.batch_alter_table("rounds") as batch:
        for column in ("paused_at", "shift"):
            batch.drop_column(column)
