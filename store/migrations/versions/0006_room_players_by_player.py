"""A browser's rooms by its player id: every page asks whether its pupil has a live room to go back to.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("room_players_by_player", "room_players", ["player"])


def downgrade() -> None:
    op.drop_index("room_players_by_player", table_name="room_players")
