"""Ways to play a room (issue 36): a room is played solo, in teams or as a class (`rooms.mode`, with its number of
`teams`); a pupil's seat has a team (`room_players.team`), and a pupil's round carries the team they played it for
(`rounds.team`), so a pupil moved to another team takes this round's words along and leaves earlier rounds' with the
team they were played for. Rooms opened before this revision are solo; every new column is empty outside team mode.

Revision ID: 0925
Revises: 0924
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0925"
down_revision = "0924"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("mode", sa.String(8), nullable=False, server_default="solo"))
        batch.add_column(sa.Column("teams", sa.Integer(), nullable=True))
    with op.batch_alter_table("room_players") as batch:
        batch.add_column(sa.Column("team", sa.Integer(), nullable=True))
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("team", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("team")
    with op.batch_alter_table("room_players") as batch:
        batch.drop_column("team")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("teams")
        batch.drop_column("mode")
