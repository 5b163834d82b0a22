"""A class list reused for live rooms (issue 25): a room opened for a class takes its pupils only (by name and class
code), and each seat is tied to its pupil on the list, so the class page counts the class's rounds in rooms too.

Revision ID: 0922
Revises: 0921
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0922"
down_revision = "0921"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("class_id", sa.Integer, nullable=True))
        batch.create_foreign_key("rooms_class_id_fkey", "classes", ["class_id"], ["id"], ondelete="CASCADE")
    with op.batch_alter_table("room_players") as batch:
        batch.add_column(sa.Column("class_pupil_id", sa.Integer, nullable=True))
        batch.create_foreign_key(
            "room_players_class_pupil_id_fkey", "class_pupils", ["class_pupil_id"], ["id"], ondelete="CASCADE"
        )


def downgrade() -> None:
    with op.batch_alter_table("room_players") as batch:
        batch.drop_constraint("room_players_class_pupil_id_fkey", type_="foreignkey")
        batch.drop_column("class_pupil_id")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_constraint("rooms_class_id_fkey", type_="foreignkey")
        batch.drop_column("class_id")
