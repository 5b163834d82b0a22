"""A homework's boards are not solvable elsewhere before the deadline: each board keeps its letters (the board by its
letters, as `rounds.letters_key`), indexed, so that the solution, typed-board and projector pages ask in one indexed
query whether a homework still running has these letters. Boards set before this revision keep none (the store
imports no game code to compute them): their homework is not locked this way.

Revision ID: 0924
Revises: 0923
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0924"
down_revision = "0923"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("assignment_boards") as batch:
        batch.add_column(sa.Column("letters_key", sa.String(200), nullable=True))
    op.create_index("assignment_boards_letters", "assignment_boards", ["letters_key"])


def downgrade() -> None:
    op.drop_index("assignment_boards_letters", "assignment_boards")
    with op.batch_alter_table("assignment_boards") as batch:
        batch.drop_column("letters_key")
