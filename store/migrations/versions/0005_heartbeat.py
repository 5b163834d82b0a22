"""The heartbeat: one row that /healthz writes and commits, so a store that reads but cannot write (a full disk, a
read-only database) is found out by the load balancer's poll, not by a player's lost word.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    heartbeat = op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("beat", sa.Float, nullable=False),
        sa.Column("probe", sa.LargeBinary, nullable=True),
    )
    op.bulk_insert(heartbeat, [{"id": 1, "beat": 0.0, "probe": None}])


def downgrade() -> None:
    op.drop_table("heartbeat")
