"""Homework (issue 25): assignments (a few boards a class plays by a deadline), their boards and their pupils. A
pupil's round on a board is an ordinary row of `rounds` (board_key `homework|<id>|<number>`).

Revision ID: 0920
Revises: 0910
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0920"
down_revision = "0910"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "assignments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(8), nullable=False, unique=True),
        sa.Column("teacher_key", sa.String(32), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("rows", sa.Integer, nullable=False),
        sa.Column("cols", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Integer, nullable=False),
        sa.Column("safe", sa.Boolean, nullable=False),
        sa.Column("generator", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("due_offset", sa.Integer, nullable=False),
    )
    op.create_index("assignments_due", "assignments", ["due"])
    op.create_table(
        "assignment_boards",
        sa.Column("assignment_id", sa.Integer, sa.ForeignKey("assignments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("assignment_id", "number", name="assignment_boards_pkey"),
    )
    op.create_table(
        "assignment_pupils",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("assignment_id", sa.Integer, sa.ForeignKey("assignments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player", sa.String(32), nullable=False),
        sa.Column("nickname", sa.String(80), nullable=False),
        sa.Column("nickname_key", sa.String(160), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("rejoin_code", sa.String(8), nullable=False),
        sa.UniqueConstraint("assignment_id", "player", name="assignment_pupils_player"),
        sa.UniqueConstraint("assignment_id", "nickname_key", name="assignment_pupils_nickname"),
    )


def downgrade() -> None:
    op.drop_table("assignment_pupils")
    op.drop_table("assignment_boards")
    op.drop_index("assignments_due", "assignments")
    op.drop_table("assignments")
