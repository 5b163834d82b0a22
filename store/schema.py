"""The store's tables, written with SQLAlchemy Core (the migrations in migrations/versions/ create them)."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    UniqueConstraint,
    false,
)

metadata = MetaData()

# The round's timeline rules in SQL, over the columns of `rounds` (ruzzle.timeline.Timeline says the same in Python;
# tests/test_store.py pins the two to each other): a word counts while the round takes words (not paused, not ended,
# started, not past its deadline plus the grace); a round is in play (its solution hidden) until it is over.
TAKES_WORD = (
    "ended IS NULL AND paused_at IS NULL AND started <= :now "
    "AND (seconds = 0 OR started + seconds + shift + :grace > :now)"
)
IN_PLAY = "ended IS NULL AND (seconds = 0 OR paused_at IS NOT NULL OR started + seconds + shift + :grace > :now)"
# The generator version of a board URL that names none (ruzzle.generator.FIRST_VERSION, pinned by tests/test_store.py):
# the rounds stored before versions existed have it.
FIRST_GENERATOR = 1

# One row per round a player starts. The board is named twice: by its URL (board_key, one current round per
# board URL; its parts are the columns language to generator and match_round) and by its letters (letters_key:
# language, size and letters, whatever seed, round length or bonus tiles made it), which is what the solution lock is
# about: a board's words do not depend on its bonus tiles, so a match round's letters lock the whole board's solution
# too. The score is the truth of a round's points: each word adds the points it was worth when the store took it
# (words.score), in the same transaction; "My rounds", the rooms' rankings and the board page all read it.
rounds = Table(
    "rounds",
    metadata,
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
    # the board generator's version the URL names (FIRST_GENERATOR: a URL without one; migration 0002)
    Column("generator", Integer, nullable=False, server_default=str(FIRST_GENERATOR)),
    Column("scored_at", Float, nullable=True),  # when the score last grew: a room's ranking breaks ties by it
    # the rest of the round's timeline (ruzzle.timeline; migration 0004): seconds the deadline moved (time added, pauses
    # that ended, a pupil's extra time) and the start of a running pause; `ended` above is an early end
    Column("shift", Float, nullable=False, server_default="0"),
    Column("paused_at", Float, nullable=True),
    # the round of Ruzzle's 3-round match whose bonus tiles the board URL names (`match=1` or 2; migration 0900)
    Column("match_round", Integer, nullable=True),
    # in a room played in teams, the team the player plays this round for (migration 0925): a pupil moved during the
    # round takes its words along, earlier rounds stay with the team they were played for
    Column("team", Integer, nullable=True),
)
Index("rounds_player_board", rounds.c.player, rounds.c.board_key, rounds.c.number, unique=True)
Index("rounds_player_letters", rounds.c.player, rounds.c.letters_key)
Index("rounds_started", rounds.c.started)
Index("rounds_board", rounds.c.board_key)  # a room's ranking reads every player's round on the room's board

# A word found in a round: the primary key (round, word) is what makes recording a word one atomic step.
words = Table(
    "words",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
    Column("word", String(160), nullable=False),
    Column("score", Integer, nullable=False),
    Column("found_at", Float, nullable=False),
    PrimaryKeyConstraint("round_id", "word", name="words_pkey"),
)

# A reveal hint taken in a round (a word's first letter and length shown): once per word, with the points it cost,
# which the round's page shows as a penalty beside the score (migration 0910).
round_hints = Table(
    "round_hints",
    metadata,
    Column("round_id", Integer, ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
    Column("word", String(160), nullable=False),
    Column("cost", Integer, nullable=False),
    Column("taken", Float, nullable=False),
    PrimaryKeyConstraint("round_id", "word", name="round_hints_pkey"),
)

# A live room: a host (the player id of the browser that made it), a code to join by, and the boards' settings.
# Each player's round in a room is an ordinary row of `rounds` (board_key `room|<id>|<number>`), so a word in a
# room is recorded by the same atomic step as a word on a solo board.
rooms = Table(
    "rooms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(8), nullable=False, unique=True),
    Column("host", String(32), nullable=False),
    Column("language", String(8), nullable=False),
    Column("rows", Integer, nullable=False),
    Column("cols", Integer, nullable=False),
    Column("seconds", Integer, nullable=False),
    Column("safe", Boolean, nullable=False),
    Column("preset", String(16), nullable=False),  # "single" (one board a round) or "match" (Ruzzle's 3 rounds)
    Column("created", Float, nullable=False),
    Column("active_until", Float, nullable=False),  # a day after the last join or round: then it expires
    Column("locked", Boolean, nullable=False, server_default=false()),  # while locked, nobody new joins
    Column("remote_key", String(32), nullable=True),  # the secret of the teacher's remote link (makes a browser a host)
    Column("names", String(8), nullable=False, server_default="all"),  # who the projector names: all, top3, none
    Column("walk_step", Integer, nullable=True),  # the walk-through's step the remote asked for (None: the podium)
    # the class list whose pupils only may join, by name and class code (issue 25, migration 0922)
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=True),
    # issue 24 (migration 0910): whether the pupils may open the hints, and the target words (space-separated) that
    # the room's boards are built around (empty: none)
    Column("hints", Boolean, nullable=False, server_default=false()),
    Column("targets", String(200), nullable=False, server_default=""),
    # issue 36 (migration 0925): how the room is played (solo, teams, class: ruzzle.teams.MODES) and its teams' number
    Column("mode", String(8), nullable=False, server_default="solo"),
    Column("teams", Integer, nullable=True),
    # issue 37 (migration 0927): the room's seats, kept by triggers on room_players (a join asks the row, not a count)
    Column("player_count", Integer, nullable=False, server_default="0"),
)

# The rounds of a room, one board each; `started` stays empty until the host starts it.
room_rounds = Table(
    "room_rounds",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("generator", Integer, nullable=False),  # the board generator's version (the latest when the round was made)
    Column("match_round", Integer, nullable=True),  # the round of the 3-round match whose bonus tiles it has
    Column("started", Float, nullable=True),
    # the class's timeline (ruzzle.timeline): every player's round copies it, plus their own extra time
    Column("shift", Float, nullable=False, server_default="0"),
    Column("paused_at", Float, nullable=True),
    Column("ended", Float, nullable=True),
    PrimaryKeyConstraint("room_id", "number", name="room_rounds_pkey"),
)

# Who plays in a room: a player id (the browser) with a nickname unique in the room (by `nickname_key`).
room_players = Table(
    "room_players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("player", String(32), nullable=False),
    Column("nickname", String(80), nullable=False),
    Column("nickname_key", String(160), nullable=False),
    Column("joined", Float, nullable=False),
    Column("extra", Integer, nullable=False, server_default="0"),  # the pupil's extra time in every round (seconds)
    Column("rejoin_code", String(8), nullable=True),  # the pupil's code to take their seat back on another device
    Column("open_until", Float, nullable=True),  # no longer read: "let back in" gives the seat a fresh rejoin code
    # the pupil of the room's class list this seat is (migration 0922)
    Column("class_pupil_id", Integer, ForeignKey("class_pupils.id", ondelete="CASCADE"), nullable=True),
    Column("team", Integer, nullable=True),  # the pupil's team (1, 2, ...) in a room played in teams (migration 0925)
    UniqueConstraint("room_id", "player", name="room_players_player"),
    UniqueConstraint("room_id", "nickname_key", name="room_players_nickname"),
)
Index("rooms_active_until", rooms.c.active_until)
# A browser's rooms, for the banner that brings a pupil back to theirs from any page (migration 0006).
Index("room_players_by_player", room_players.c.player)

# The seats of each team of a room played in teams, kept by triggers on room_players (migration 0927): the next
# pupil's team is read from these rows, not counted from every seat.
room_teams = Table(
    "room_teams",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("team", Integer, nullable=False),
    Column("players", Integer, nullable=False, server_default="0"),
    PrimaryKeyConstraint("room_id", "team", name="room_teams_pkey"),
)

# The browsers that host a room besides the one that opened it (each opened the teacher's remote link).
room_hosts = Table(
    "room_hosts",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("player", String(32), nullable=False),
    PrimaryKeyConstraint("room_id", "player", name="room_hosts_pkey"),
)

# Browsers the host removed, with the name they had: neither joins the room again (the browser under any name, the
# name from any browser) until the host lets them back.
room_bans = Table(
    "room_bans",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("player", String(32), nullable=False),
    Column("player_id", Integer, nullable=False),  # their seat's id, which the host's undo gives back
    Column("nickname", String(80), nullable=False),
    Column("banned", Float, nullable=False),
    Column("nickname_key", String(160), nullable=True),  # the name removed with it (None: removed before 0926)
    PrimaryKeyConstraint("room_id", "player", name="room_bans_pkey"),
    Index("room_bans_nickname", "room_id", "nickname_key"),
)

# One row, written and committed by each health check (Store.heartbeat): the moment of the last check that could write,
# and a page of bytes each check stores and clears, so the check needs room as a new word does (migration 0005).
heartbeat = Table(
    "heartbeat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("beat", Float, nullable=False),
    Column("probe", LargeBinary, nullable=True),
)

# A class over weeks, without accounts (issue 25): a teacher's named list of pupils, each a nickname with a code, kept
# on the teacher's private link (`teacher_key`); an assignment set for the class takes only its pupils, and a pupil who
# joins with their code is the same pupil every time (migration 0921).
classes = Table(
    "classes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(8), nullable=False, unique=True),
    Column("teacher_key", String(32), nullable=False),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
    Column("active_until", Float, nullable=False),  # a while after its last homework: then the clean-up forgets it
)
Index("classes_active_until", classes.c.active_until)

class_pupils = Table(
    "class_pupils",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("nickname", String(80), nullable=False),
    Column("nickname_key", String(160), nullable=False),
    Column("code", String(8), nullable=False),
    UniqueConstraint("class_id", "nickname_key", name="class_pupils_nickname"),
)

# Homework (issue 25): an assignment is a few boards a class plays by a deadline, each pupil once per board, whenever
# they like. Its code is a room code's kind (the pupils' link /a/<code>); `teacher_key` is the secret of the teacher's
# private link. A pupil's round on a board is an ordinary row of `rounds` (board_key `homework|<id>|<number>`), so
# their words are recorded by the same atomic step as every other word (migration 0920).
assignments = Table(
    "assignments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(8), nullable=False, unique=True),
    Column("teacher_key", String(32), nullable=False),
    Column("language", String(8), nullable=False),
    Column("rows", Integer, nullable=False),
    Column("cols", Integer, nullable=False),
    Column("seconds", Integer, nullable=False),
    Column("safe", Boolean, nullable=False),
    Column("generator", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Column("due", Float, nullable=False),  # no new round after this moment (a round already running finishes)
    Column("due_offset", Integer, nullable=False),  # the teacher's UTC offset (minutes), the deadline is shown in it
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=True),  # (migration 0921)
)
Index("assignments_due", assignments.c.due)

# The boards of an assignment, numbered from 1.
assignment_boards = Table(
    "assignment_boards",
    metadata,
    Column("assignment_id", Integer, ForeignKey("assignments.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("seed", String(64), nullable=False),
    # the board by its letters (as rounds.letters_key): no other page solves it before the deadline (migration 0924)
    Column("letters_key", String(200), nullable=True),
    PrimaryKeyConstraint("assignment_id", "number", name="assignment_boards_pkey"),
)
Index("assignment_boards_letters", assignment_boards.c.letters_key)

# The pupils of an assignment: a browser with a nickname unique in it (by `nickname_key`) and a rejoin code, as in a
# room.
assignment_pupils = Table(
    "assignment_pupils",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("assignment_id", Integer, ForeignKey("assignments.id", ondelete="CASCADE"), nullable=False),
    Column("player", String(32), nullable=False),
    Column("nickname", String(80), nullable=False),
    Column("nickname_key", String(160), nullable=False),
    Column("joined", Float, nullable=False),
    Column("rejoin_code", String(8), nullable=False),
    # the pupil of the teacher's class list this seat is (migration 0921): the same pupil in every assignment
    Column("class_pupil_id", Integer, ForeignKey("class_pupils.id", ondelete="CASCADE"), nullable=True),
    UniqueConstraint("assignment_id", "player", name="assignment_pupils_player"),
    UniqueConstraint("assignment_id", "nickname_key", name="assignment_pupils_nickname"),
)
