"""Nickname keys read look-alikes and styled letters (issue 33): a name written with a Cyrillic A, a mathematical bold
A or small capitals is the same name as the one in Latin letters (ruzzle.nicknames.nickname_key), and a dotless i
reads as i. The keys already stored are recomputed so that a pupil on a class list, or in a room or a homework, is
still found by the name as they type it; a row whose new key another row of the same room, homework or class already
has keeps its old key (both pupils keep their seats; a new pupil typing either name gets "taken").

Revision ID: 0923
Revises: 0922
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

from ruzzle.nicknames import nickname_key

revision = "0923"
down_revision = "0922"
branch_labels = None
depends_on = None

# table: the column of the room, homework or class in which a key is unique
TABLES = {"room_players": "room_id", "assignment_pupils": "assignment_id", "class_pupils": "class_id"}


def upgrade() -> None:
    connection = op.get_bind()
    for name, parent in TABLES.items():
        table = sa.table(
            name,
            sa.column("id", sa.Integer),
            sa.column(parent, sa.Integer),
            sa.column("nickname", sa.String),
            sa.column("nickname_key", sa.String),
        )
        rows = connection.execute(sa.select(table.c.id, table.c[parent], table.c.nickname, table.c.nickname_key)).all()
        taken = {(row[1], row.nickname_key) for row in rows}
        for row in rows:
            key = nickname_key(row.nickname)
            if key != row.nickname_key and (row[1], key) not in taken:
                taken.add((row[1], key))
                connection.execute(sa.update(table).where(table.c.id == row.id).values(nickname_key=key))


def downgrade() -> None:
    """Keys stay as recomputed: the old code still finds a name typed in Latin letters by them, and a look-alike
    spelling is refused as taken, as in this revision."""
