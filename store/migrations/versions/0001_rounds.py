"""Rounds and the words found in them.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(32), nullable=False),
        sa.Column("board_key", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("letters_key", sa.String(200), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("rows", sa.Integer, nullable=False),
        sa.Column("cols", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Integer, nullable=False),
        sa.Column("safe", sa.Boolean, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("ended", sa.Float, nullable=True),
        sa.Column("score", sa.Integer, nullable=False, server_default="0"),
        sa.Column("found", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total_words", sa.Integer, nullable=False),
        sa.Column("max_score", sa.Integer, nullable=False),
    )
    op.create_index("rounds_player_board", "rounds", ["player", "board_key", "number"], unique=True)
    op.create_index("rounds_player_letters", "rounds", ["player", "letters_key"])
    op.create_index("rounds_started", "rounds", ["started"])
    op.create_table(
        "words",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("word", sa.String(160), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("found_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("round_id", "word", name="words_pkey"),
    )


def downgrade() -> None:
    op.drop_table("words")
    op.drop_table("rounds")
