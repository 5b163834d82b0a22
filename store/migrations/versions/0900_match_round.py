"""The match round of a player's round (issue 22): a solo board of Ruzzle's 3-round match (`?match=1`) has the same
letters as the whole board but other bonus tiles, so its round is named by its URL with `match=` in it; the store kept
every other part of the URL and lost this one (the solution's lock and "My rounds" then led to the whole board).
None for every older round and for the whole board (match round 3).

Revision ID: 0900
Revises: 0006
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0900"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("match_round", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("match_round")
