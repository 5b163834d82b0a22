"""Hints and the teacher's own words (issue 24): whether a room's pupils may open the hints (`rooms.hints`, off for
every older room), the target words its boards are built around (`rooms.targets`, space-separated; empty for none),
and the reveal hints taken in a round (`round_hints`: the word revealed and the points it cost, once per word).

Revision ID: 0910
Revises: 0901
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0910"
down_revision = "0901"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("targets", sa.String(200), nullable=False, server_default=""))
    op.create_table(
        "round_hints",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
        sa.Column("word", sa.String(160), nullable=False),
        sa.Column("cost", sa.Integer, nullable=False),
        sa.Column("taken", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("round_id", "word", name="round_hints_pkey"),
    )


def downgrade() -> None:
    op.drop_table("round_hints")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("targets")
        batch.drop_column("hints")
