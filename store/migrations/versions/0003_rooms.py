"""Live rooms: rooms, their rounds and players; a round's time of its last score; rounds found by board.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("scored_at", sa.Float, nullable=True))
    op.create_index("rounds_board", "rounds", ["board_key"])
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(8), nullable=False, unique=True),
        sa.Column("host", sa.String(32), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("rows", sa.Integer, nullable=False),
        sa.Column("cols", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Integer, nullable=False),
        sa.Column("safe", sa.Boolean, nullable=False),
        sa.Column("preset", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("active_until", sa.Float, nullable=False),
    )
    op.create_index("rooms_active_until", "rooms", ["active_until"])
    op.create_table(
        "room_rounds",
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("generator", sa.Integer, nullable=False),
        sa.Column("match_round", sa.Integer, nullable=True),
        sa.Column("started", sa.Float, nullable=True),
        sa.PrimaryKeyConstraint("room_id", "number", name="room_rounds_pkey"),
    )
    op.create_table(
        "room_players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player", sa.String(32), nullable=False),
        sa.Column("nickname", sa.String(80), nullable=False),
        sa.Column("nickname_key", sa.String(160), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.UniqueConstraint("room_id", "player", name="room_players_player"),
        sa.UniqueConstraint("room_id", "nickname_key", name="room_players_nickname"),
    )


def downgrade() -> None:
    op.drop_table("room_players")
    op.drop_table("room_rounds")
    op.drop_index("rooms_active_until", "rooms")
    op.drop_table("rooms")
    op.drop_index("rounds_board", "rounds")
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("scored_at")
