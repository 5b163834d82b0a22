"""A class over weeks (issue 25): a teacher's named list of pupils (nickname and code), homework set for a class, and
each homework seat tied to its pupil on the list.

Revision ID: 0921
Revises: 0920
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0921"
down_revision = "0920"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(8), nullable=False, unique=True),
        sa.Column("teacher_key", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("active_until", sa.Float, nullable=False),
    )
    op.create_index("classes_active_until", "classes", ["active_until"])
    op.create_table(
        "class_pupils",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("nickname", sa.String(80), nullable=False),
        sa.Column("nickname_key", sa.String(160), nullable=False),
        sa.Column("code", sa.String(8), nullable=False),
        sa.UniqueConstraint("class_id", "nickname_key", name="class_pupils_nickname"),
    )
    with op.batch_alter_table("assignments") as batch:
        batch.add_column(sa.Column("class_id", sa.Integer, nullable=True))
        batch.create_foreign_key("assignments_class_id_fkey", "classes", ["class_id"], ["id"], ondelete="CASCADE")
    with op.batch_alter_table("assignment_pupils") as batch:
        batch.add_column(sa.Column("class_pupil_id", sa.Integer, nullable=True))
        batch.create_foreign_key(
            "assignment_pupils_class_pupil_id_fkey", "class_pupils", ["class_pupil_id"], ["id"], ondelete="CASCADE"
        )


def downgrade() -> None:
    with op.batch_alter_table("assignment_pupils") as batch:
        batch.drop_constraint("assignment_pupils_class_pupil_id_fkey", type_="foreignkey")
        batch.drop_column("class_pupil_id")
    with op.batch_alter_table("assignments") as batch:
        batch.drop_constraint("assignments_class_id_fkey", type_="foreignkey")
        batch.drop_column("class_id")
    op.drop_table("class_pupils")
    op.drop_index("classes_active_until", "classes")
    op.drop_table("classes")
