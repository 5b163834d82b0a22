"""A pupil the host removed cannot come back under the same name from another browser (a private tab, a classmate's
phone): a removal keeps the seat's name key (`room_bans.nickname_key`, indexed with the room), and a join under that
name is refused like the browser's until the host undoes the removal. Removals made before this revision keep no key
(the store computes no name keys: the seat it would read is gone), so they ban the browser alone, as they did.

Revision ID: 0926
Revises: 0925
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0926"
down_revision = "0925"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("room_bans") as batch:
        batch.add_column(sa.Column("nickname_key", sa.String(160), nullable=True))
    op.create_index("room_bans_nickname", "room_bans", ["room_id", "nickname_key"])


def downgrade() -> None:
    op.drop_index("room_bans_nickname", "room_bans")
    with op.batch_alter_table("room_bans") as batch:
        batch.drop_column("nickname_key")
