"""The store's tables, written with SQLAlchemy Core (the migrations in migrations/versions/ create them)."""

from __future__ import annotations

from sqlalchemy import (Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, PrimaryKeyConstraint, String,
                        Table)

metadata = MetaData()

# One row per round a player starts. The board is named twice: by its URL (board_key, one current round per
# board URL) and by its letters (letters_key: language, size and letters, whatever seed or round length made it),
# which is what the solution lock is about. Score and count are kept up to date with each word, for "My rounds".
rounds = Table(
    "rounds", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(32), nullable=False),
    Column("board_key", String(64), nullable=False),
    Column("number", Integer, nullable=False),  # 1, 2, ... per player and board URL: "play again" makes the next
    Column("letters_key", String(200), nullable=False),
    Column("language", String(8), nullable=False),
    Column("seed", String(64), nullable=False),
    Column("rows", Integer, nullable=False),
    Column("cols", Integer, nullable=False),
    Column("seconds", Integer, nullable=False),
    Column("safe", Boolean, nullable=False),
    Column("started", Float, nullable=False),
    Column("ended", Float, nullable=True),  # when the player ended it (give up); a timed round also ends by time
    Column("score", Integer, nullable=False, server_default="0"),
    Column("found", Integer, nullable=False, server_default="0"),
    Column("total_words", Integer, nullable=False),
    Column("max_score", Integer, nullable=False),
    # the board generator's version the URL names (1: a URL without one; migration 0002)
    Column("generator", Integer, nullable=False, server_default="1"),
)
Index("rounds_player_board", rounds.c.player, rounds.c.board_key, rounds.c.number, unique=True)
Index("rounds_player_letters", rounds.c.player, rounds.c.letters_key)
Index("rounds_started", rounds.c.started)

# A word found in a round: the primary key (round, word) is what makes recording a word one atomic step.
words = Table(
    "words", metadata,
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
    Column("word", String(160), nullable=False),
    Column("score", Integer, nullable=False),
    Column("found_at", Float, nullable=False),
    PrimaryKeyConstraint("round_id", "word", name="words_pkey"),
)
