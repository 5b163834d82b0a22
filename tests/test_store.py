"""The store of rounds, on SQLite and on a real PostgreSQL: a word is recorded once and never after the end,
whatever runs at the same time; migrations are safe when several processes start at once; old rounds go; the
heartbeat proves a write, and an outage raises errors of its own kind."""

from __future__ import annotations

import importlib
import os
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, select, text
from sqlalchemy.exc import OperationalError

from ruzzle.generator import FIRST_VERSION
from ruzzle.timeline import Timeline, TimelineError
from store import CHECKPOINT_EVERY, STORE_OUTAGES, PlayedBoard, Recorded, RoundBoard, Store, is_player_id, new_player_id
from store.cleanup import delete_rounds_before
from store.engine import CLOCK_READINGS, default_instance
from store.migrate import alembic_config, current
from store.rooms import LIVE_ROOM, parse_round_key, round_key
from store.schema import FIRST_GENERATOR, IN_PLAY, TAKES_WORD, heartbeat
from tools.servers import free_port

BOARD = RoundBoard(PlayedBoard("board-url", "en", "SEED", 4, 4, 120, True), "en|4x4|ABCDEFGHIJKLMNOP", 30, 600)
OTHER_URL = RoundBoard(PlayedBoard("other-url", "en", "SEED", 4, 4, 300, True), BOARD.letters_key, 30, 600)
PLAYER = "P" * 22
GRACE = 2
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()  # the newest migration's revision


@pytest.fixture
def store(migrated_database_url):
    store = Store(migrated_database_url)
    store.migrate()
    yield store
    store.dispose()


def test_the_schema_is_migrated_to_the_newest_revision_and_again_is_a_no_op(database_url, monkeypatch):
    store = Store(database_url)
    assert current(store) is None
    store.migrate()
    assert current(store) == HEAD
    # a store at the newest revision is told by its revision: Alembic is not asked (it reads every script)
    monkeypatch.setattr("store.migrate.command", None)
    store.migrate()
    assert current(store) == HEAD
    store.dispose()


def test_rounds_played_before_rooms_existed_survive_the_rooms_migration(database_url):
    """0002 -> the newest on a store with rounds in it: the rounds and words stay, a word then records its time, and
    the round's timeline (0004) is its start and length as before."""
    store = Store(database_url)
    store.migrate_to("0002")
    with store.writing() as connection:  # a round as the code of 0002 wrote it
        connection.exec_driver_sql(
            "INSERT INTO rounds (player, board_key, number, letters_key, language, seed, rows, cols, seconds, safe, "
            f"started, score, found, total_words, max_score) VALUES ('{PLAYER}', '{BOARD.board.board_key}', 1, "
            f"'{BOARD.letters_key}', 'en', 'SEED', 4, 4, 120, true, 1000, 3, 1, 30, 600)"
        )
        round_id = connection.exec_driver_sql("SELECT id FROM rounds").scalar_one()
        connection.exec_driver_sql(
            f"INSERT INTO words (round_id, word, score, found_at) VALUES ({round_id}, 'OLD', 3, 1001)"
        )
    store.migrate()
    played = store.rounds.current(PLAYER, BOARD.board.board_key)
    assert (played.shift, played.paused_at) == (0, None)
    assert played.words == {"OLD"}
    assert store.rounds.record_word(played.id, "NEW", 5, 1002, GRACE) is Recorded.ADDED
    assert [(r.score, r.found) for r in store.records.recent(PLAYER)] == [(8, 2)]
    store.dispose()


def test_the_nickname_keys_migration_reads_look_alikes_and_keeps_a_clashing_row_s_key(database_url):
    """0922 -> the newest: a class list's keys are recomputed as ruzzle.nicknames.nickname_key reads names (a Cyrillic
    A, a dotless i), so the pupil is found by the name as typed; a row whose new key another row has keeps its own."""
    store = Store(database_url)
    store.migrate_to("0922")
    pupils = [
        ("Anna", "anna"),
        ("\u0410nna", "\u0430nna"),
        ("\u0406\u0440\u043e", "\u0456\u0440\u043e"),
        ("I\u015f\u0131l", "i\u015f\u0131l"),
    ]
    with store.writing() as connection:
        connection.exec_driver_sql(
            "INSERT INTO classes (code, teacher_key, name, created, active_until) VALUES ('C1', 'K', 'c', 1, 2)"
        )
        class_id = connection.exec_driver_sql("SELECT id FROM classes").scalar_one()
        for number, (nickname, key) in enumerate(pupils):
            connection.execute(
                text("INSERT INTO class_pupils (class_id, nickname, nickname_key, code) VALUES (:c, :n, :k, :code)"),
                {"c": class_id, "n": nickname, "k": key, "code": f"P{number}"},
            )
    store.migrate()
    with store.engine.connect() as connection:
        keys = dict(connection.exec_driver_sql("SELECT nickname, nickname_key FROM class_pupils").all())
    assert keys == {"Anna": "anna", "\u0410nna": "\u0430nna", "\u0406\u0440\u043e": "ipo", "I\u015f\u0131l": "isil"}
    store.dispose()


def test_the_room_sizes_migration_counts_the_seats_of_rooms_already_open(database_url):
    """0926 -> the newest: each open room's seats and each of its teams' are counted once into the rows the triggers
    keep from then on (a join reads them instead of counting the room)."""
    store = Store(database_url)
    store.migrate_to("0926")
    teams = {"solo": [None, None, None], "teams": [1, 2, 1, 1, 2]}
    with store.writing() as connection:
        for code, seats in teams.items():
            connection.execute(
                text(
                    "INSERT INTO rooms (code, host, language, rows, cols, seconds, safe, preset, created, "
                    "active_until, mode, teams) VALUES (:code, 'h', 'en', 4, 4, 90, true, 'single', 1, 2, :mode, "
                    ":teams)"
                ),
                {"code": code.upper(), "mode": code, "teams": 2 if code == "teams" else None},
            )
            room_id = connection.execute(text("SELECT id FROM rooms WHERE code = :c"), {"c": code.upper()}).scalar()
            for number, team in enumerate(seats):
                connection.execute(
                    text(
                        "INSERT INTO room_players (room_id, player, nickname, nickname_key, joined, team) "
                        "VALUES (:room, :player, :name, :key, 1, :team)"
                    ),
                    {"room": room_id, "player": f"p{number}", "name": f"P{number}", "key": f"p{number}", "team": team},
                )
    store.migrate()
    with store.engine.connect() as connection:
        counts = dict(connection.exec_driver_sql("SELECT code, player_count FROM rooms").all())
        sizes = sorted(connection.exec_driver_sql("SELECT team, players FROM room_teams").all())
    assert counts == {"SOLO": 3, "TEAMS": 5}
    assert sizes == [(1, 3), (2, 2)]
    store.dispose()


def test_migrations_started_by_several_processes_at_once_all_succeed(database_url):
    """Workers start together: each upgrades, one at a time (advisory lock / BEGIN IMMEDIATE), none fails."""
    stores = [Store(database_url) for _ in range(6)]
    barrier = threading.Barrier(len(stores))

    def upgrade(store: Store) -> str | None:
        barrier.wait()
        store.migrate()
        return current(store)

    with ThreadPoolExecutor(len(stores)) as pool:
        assert list(pool.map(upgrade, stores)) == [HEAD] * len(stores)
    for store in stores:
        store.dispose()


def test_a_player_id_is_random_and_checked_by_shape():
    ids = {new_player_id() for _ in range(100)}
    assert len(ids) == 100 and all(is_player_id(player) for player in ids)
    assert not any(is_player_id(value) for value in (None, 7, "", "short", "x" * 33, "a b" * 8, ["a" * 22]))


def test_a_round_is_started_once_and_again_only_when_asked(store):
    first = store.rounds.start(PLAYER, BOARD, 1000)
    assert store.rounds.start(PLAYER, BOARD, 1050) == first
    again = store.rounds.start(PLAYER, BOARD, 1100, again=True)
    assert again.id != first.id and again.started == 1100
    assert store.rounds.current(PLAYER, BOARD.board.board_key) == again


def test_a_word_counts_once_and_not_after_the_deadline_and_its_grace(store):
    round_ = store.rounds.start(PLAYER, BOARD, 1000)
    assert store.rounds.record_word(round_.id, "CAT", 5, 1001, GRACE) is Recorded.ADDED
    assert store.rounds.record_word(round_.id, "CAT", 5, 1002, GRACE) is Recorded.ALREADY_FOUND
    assert store.rounds.record_word(round_.id, "DOG", 7, 1121.9, GRACE) is Recorded.ADDED  # within the grace
    assert store.rounds.record_word(round_.id, "EEL", 3, 1122, GRACE) is Recorded.ROUND_OVER
    assert store.rounds.current(PLAYER, BOARD.board.board_key).words == {"CAT", "DOG"}
    assert [(r.score, r.found, r.best_word) for r in store.records.recent(PLAYER)] == [(12, 2, "DOG")]


def test_a_round_keeps_the_generator_version_its_board_url_names(store):
    # A board URL with gen=2 is another board than the same seed without it (generator 1): the store gives the
    # version back, so "My rounds" and the solution lock link to the board that was played.
    newer = RoundBoard(
        PlayedBoard("gen2-url", "en", "SEED", 4, 4, 120, True, generator=2), "en|4x4|QRSTUVWXYZABCDEF", 30, 600
    )
    round_ = store.rounds.start(PLAYER, newer, 1000)
    store.rounds.record_word(round_.id, "CAT", 5, 1001, GRACE)
    store.rounds.record_word(store.rounds.start(PLAYER, BOARD, 1000).id, "DOG", 7, 1001, GRACE)
    assert store.rounds.in_play(PLAYER, newer.letters_key, 1050, GRACE).generator == 2
    assert store.rounds.in_play(PLAYER, BOARD.letters_key, 1050, GRACE).generator == 1
    assert sorted((r.best_word, r.board.generator) for r in store.records.recent(PLAYER)) == [("CAT", 2), ("DOG", 1)]


def test_a_word_after_the_player_ended_the_round_is_refused(store):
    round_ = store.rounds.start(PLAYER, BOARD, 1000)
    store.rounds.end(round_.id, 1010)
    store.rounds.end(round_.id, 1020)  # the first end stays
    assert store.rounds.record_word(round_.id, "CAT", 5, 1011, GRACE) is Recorded.ROUND_OVER
    assert store.rounds.current(PLAYER, BOARD.board.board_key).ended == 1010


def test_concurrent_words_from_one_player_are_all_kept_and_none_twice(store):
    """20 trials: 8 threads at a barrier send 8 different words and 8 copies of one word to one round."""
    for trial in range(20):
        round_ = store.rounds.start(PLAYER, BOARD, 1000 + trial, again=True)
        words = [f"WORD{i}" for i in range(8)] + ["SAME"] * 8
        barrier = threading.Barrier(len(words))

        def send(word: str) -> Recorded:
            barrier.wait()
            return store.rounds.record_word(round_.id, word, 1, 1000 + trial + 1, GRACE)

        with ThreadPoolExecutor(len(words)) as pool:
            outcomes = list(pool.map(send, words))
        assert outcomes[:8] == [Recorded.ADDED] * 8, trial
        assert sorted(outcome.value for outcome in outcomes[8:]) == ["added"] + ["already-found"] * 7, trial
        assert store.rounds.current(PLAYER, BOARD.board.board_key).words == {*words}, trial
        assert store.records.recent(PLAYER, limit=1)[0].found == 9, trial


def test_the_first_requests_of_a_new_player_at_once_share_one_round(store):
    barrier = threading.Barrier(8)

    def start(_) -> int:
        barrier.wait()
        return store.rounds.start(PLAYER, BOARD, 1000).id

    with ThreadPoolExecutor(8) as pool:
        assert len(set(pool.map(start, range(8)))) == 1


def test_an_end_racing_words_lets_no_word_in_after_it(store):
    """Words and the end of the round sent at once: every word taken was recorded before the end."""
    for _trial in range(10):
        round_ = store.rounds.start(PLAYER, BOARD, 1000, again=True)
        barrier = threading.Barrier(9)

        def send(i: int):
            barrier.wait()
            if i == 8:
                return store.rounds.end(round_.id, 1001)
            return store.rounds.record_word(round_.id, f"W{i}", 1, 1001, GRACE)

        with ThreadPoolExecutor(9) as pool:
            outcomes = list(pool.map(send, range(9)))[:8]
        stored = store.rounds.current(PLAYER, BOARD.board.board_key)
        assert stored.ended == 1001
        assert stored.words == {f"W{i}" for i, outcome in enumerate(outcomes) if outcome is Recorded.ADDED}
        assert store.rounds.record_word(round_.id, "LATE", 1, 1001, GRACE) is Recorded.ROUND_OVER


def test_the_letters_stay_in_play_while_any_round_on_them_runs(store):
    timed = store.rounds.start(PLAYER, BOARD, 1000)
    assert store.rounds.in_play(PLAYER, BOARD.letters_key, 1050, GRACE).seconds == 120
    assert store.rounds.in_play("Q" * 22, BOARD.letters_key, 1050, GRACE) is None  # another player
    longer = store.rounds.start(PLAYER, OTHER_URL, 1000)  # the same letters under another round length
    assert store.rounds.in_play(PLAYER, BOARD.letters_key, 1200, GRACE).seconds == 300
    store.rounds.end(longer.id, 1201)
    assert store.rounds.in_play(PLAYER, BOARD.letters_key, 1202, GRACE) is None
    store.rounds.end(timed.id, 1300)


def test_rounds_past_the_retention_period_are_deleted_with_their_words(store):
    old = store.rounds.start(PLAYER, BOARD, 1000)
    store.rounds.record_word(old.id, "CAT", 5, 1001, GRACE)
    store.rounds.start(PLAYER, OTHER_URL, 5000)
    assert delete_rounds_before(store, 2000) == 1
    assert store.rounds.current(PLAYER, BOARD.board.board_key) is None
    assert store.rounds.current(PLAYER, OTHER_URL.board.board_key) is not None
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT count(*) FROM words").scalar() == 0


def test_personal_bests_are_per_language_and_size(store):
    for number, (board, score) in enumerate([(BOARD, 5), (BOARD, 9), (OTHER_URL, 4)]):
        round_ = store.rounds.start(PLAYER, board, 1000 + number, again=True)
        store.rounds.record_word(round_.id, "CAT", score, 1001 + number, GRACE)
    bests = store.records.bests(PLAYER)
    assert [(best.language, best.rows, best.cols, best.score, best.rounds) for best in bests] == [("en", 4, 4, 9, 3)]


# --- outages: the heartbeat proves a write, and an outage is an error of its own kind ------------------------------


def beat_of(store: Store) -> float:
    with store.engine.connect() as connection:
        return connection.execute(select(heartbeat.c.beat)).scalar_one()


def test_the_heartbeat_is_a_write_that_commits(store):
    store.heartbeat(1234.5)
    assert beat_of(store) == 1234.5
    store.heartbeat(1240)
    assert beat_of(store) == 1240


def test_the_heartbeat_fails_on_a_full_database_where_a_change_in_place_still_passes(tmp_path, full_disk):
    """A full SQLite database still takes an update that fits in its page (ending a round does), so the heartbeat
    takes a page and gives it back: it fails as a new word does."""
    store = Store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    store.migrate()
    round_ = store.rounds.start(PLAYER, BOARD, 1000)
    disk = full_disk(store)
    disk.fill(every_write=False)
    store.rounds.end(round_.id, 1010)
    assert store.rounds.current(PLAYER, BOARD.board.board_key).ended == 1010
    with pytest.raises(STORE_OUTAGES, match="database or disk is full"):
        store.heartbeat(1011)
    disk.free()
    store.heartbeat(1020)
    assert beat_of(store) == 1020
    store.dispose()


def test_a_checkpoint_that_fails_after_the_commit_does_not_fail_the_write(tmp_path, monkeypatch):
    """The word is in once its transaction commits: a checkpoint after it that fails (a full disk) is tried again
    with a later write, not reported as a failed word (the phone would send it again, to hear "already found")."""
    store = Store(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    store.migrate()
    round_ = store.rounds.start(PLAYER, BOARD, 1000)

    def full(_store):
        raise OperationalError(
            "PRAGMA wal_checkpoint(PASSIVE)", {}, sqlite3.OperationalError("database or disk is full")
        )

    monkeypatch.setattr(Store, "_checkpoint", full)
    store._writes = CHECKPOINT_EVERY - 1  # the next write checkpoints
    assert store.rounds.record_word(round_.id, "CAT", 5, 1001, GRACE) is Recorded.ADDED
    assert store.rounds.current(PLAYER, BOARD.board.board_key).words == {"CAT"}
    store.dispose()


def test_a_database_nobody_answers_for_is_an_outage():
    store = Store(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere")
    with pytest.raises(STORE_OUTAGES, match="Connection refused"):
        store.ping()
    with pytest.raises(STORE_OUTAGES, match="Connection refused"):
        store.heartbeat(1000)
    store.dispose()


# --- a browser's rooms: the banner back to its room, the solution lock, My rounds ------------------------------


def a_room(store, code: str, now: float):
    return store.rooms.create("H" * 22, "en", 4, 4, 60, True, "single", "SEED", 2, None, now, code=code)


def room_board(room_id: int, number: int) -> RoundBoard:
    return RoundBoard(
        PlayedBoard(round_key(room_id, number), "en", "SEED", 4, 4, 60, True, 2), BOARD.letters_key, 30, 600
    )


def test_a_browsers_live_room_is_open_and_has_its_seat_and_a_join_or_a_start_since_the_moment_asked(store):
    rooms = store.rooms
    room = a_room(store, "K7M2QX", 1000)
    assert rooms.live_room(PLAYER, 0, 1000) is None  # no seat
    rooms.join(room.id, PLAYER, "Ada", "ada", 1000, 30)
    assert rooms.live_room(PLAYER, 900, 1000) == "K7M2QX"  # joined since
    assert rooms.live_room(PLAYER, 1000, 1100) is None  # joined before, and no round started since
    rooms.start(room.id, 1, 1500, room_board(room.id, 1))
    assert rooms.live_room(PLAYER, 1400, 1600) == "K7M2QX"  # a round started since
    assert rooms.live_room(PLAYER, 1500, 1600) is None
    assert rooms.live_room("Q" * 22, 0, 1600) is None  # another browser
    assert rooms.live_room(PLAYER, 0, rooms.get("K7M2QX").active_until + 1) is None  # the room has closed
    other = a_room(store, "N8P3RT", 1700)
    rooms.join(other.id, PLAYER, "Ada", "ada", 1700, 30)
    assert rooms.live_room(PLAYER, 1400, 1800) == "N8P3RT"  # the latest joined of two live rooms
    assert rooms.remove(other.id, rooms.players(other.id)[0].id, 1800)
    assert rooms.live_room(PLAYER, 1400, 1800) == "K7M2QX"  # removed from the other: no seat there


def test_the_live_room_query_finds_a_browsers_seats_by_their_index(store):
    """The banner's query asks on every page: it reads the browser's seats by an index, never the whole table (with
    sequential scans turned off, PostgreSQL's plan shows whether an index serves it; SQLite's plan says so)."""
    sql = str(
        LIVE_ROOM.params(player=PLAYER, since=0, now=1).compile(store.engine, compile_kwargs={"literal_binds": True})
    )
    with store.engine.connect() as connection:
        if store.dialect == "postgresql":
            connection.exec_driver_sql("SET enable_seqscan = off")
            plan = connection.exec_driver_sql("EXPLAIN " + sql).scalars().all()
        else:
            plan = [row[-1] for row in connection.exec_driver_sql("EXPLAIN QUERY PLAN " + sql)]
    assert any("room_players_by_player" in line for line in plan), plan


def test_a_room_round_in_play_leads_to_its_room_while_it_is_the_rooms_current_round(store):
    rooms = store.rooms
    room = a_room(store, "K7M2QX", 1000)
    rooms.join(room.id, PLAYER, "Ada", "ada", 1000, 30)
    assert parse_round_key(round_key(room.id, 1)) == (room.id, 1) and parse_round_key(BOARD.board.board_key) is None
    assert parse_round_key("room|1|x") is None and parse_round_key("room|1|2|3") is None
    rooms.start(room.id, 1, 1003, room_board(room.id, 1))
    played = store.rounds.in_play(PLAYER, BOARD.letters_key, 1010, GRACE)
    assert parse_round_key(played.board_key) == (room.id, 1)
    assert rooms.room_playing(room.id, 1, PLAYER) == "K7M2QX"
    assert rooms.room_playing(room.id, 1, "Q" * 22) is None  # no seat
    assert rooms.room_playing(room.id, 2, PLAYER) is None  # no such round
    rooms.add_round(room.id, 1, "NEXT", 2, None)
    assert rooms.room_playing(room.id, 1, PLAYER) is None and rooms.room_playing(room.id, 2, PLAYER) == "K7M2QX"
    assert rooms.codes({room.id, room.id + 100}) == {room.id: "K7M2QX"} and rooms.codes(set()) == {}


def test_one_command_migrates_the_store_the_app_would_use(database_url):
    """`python -m store upgrade` (the README's command) reads RUZZLE_DATABASE_URL and upgrades; `current` shows it."""
    environment = {**os.environ, "RUZZLE_DATABASE_URL": database_url}
    root = Path(__file__).resolve().parents[1]
    before = subprocess.run(
        [sys.executable, "-m", "store", "current"],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    upgraded = subprocess.run(
        [sys.executable, "-m", "store", "upgrade"],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert before.strip().endswith("schema revision None") and upgraded.strip().endswith(f"schema revision {HEAD}")
    assert "password" not in upgraded and database_url.rsplit("/", 1)[1] in upgraded


@pytest.mark.parametrize(
    ("code", "instance"),
    [
        ("/home/ada/ruzzle", "/home/ada/ruzzle/instance"),  # a working copy: beside app.py
        ("/srv/venv/lib/python3.11/site-packages", "/srv/venv/var/app-instance"),  # a virtual environment
        ("/usr/lib/python3/dist-packages", "/usr/var/app-instance"),  # Debian's Python
        ("/home/ada/.local/lib/python3.11/site-packages", "/home/ada/.local/var/app-instance"),  # pip install --user
        ("C:/Python311/Lib/site-packages", "C:/Python311/var/app-instance"),  # Windows: <prefix>/Lib/site-packages
    ],
)
def test_an_installed_app_keeps_its_instance_under_its_prefix_not_in_site_packages(code, instance):
    assert default_instance(Path(code)) == Path(instance)


def test_the_stores_first_generator_is_the_games():
    assert FIRST_GENERATOR == FIRST_VERSION
    assert PlayedBoard("url", "en", "SEED", 4, 4, 120, True).generator == FIRST_VERSION


# --- the timeline's rules in SQL are the game's ------------------------------------------------------------------

MOMENTS = st.floats(min_value=900, max_value=1300, allow_nan=False)


@st.composite
def timelines(draw) -> Timeline:
    started = draw(MOMENTS)
    return Timeline(
        started,
        draw(st.sampled_from([0, 30, 120])),
        draw(st.floats(min_value=-120, max_value=600)),
        draw(st.none() | st.floats(min_value=started, max_value=1300)),
        draw(st.none() | st.floats(min_value=started, max_value=1300)),
    )


@settings(max_examples=examples(500))
@given(timelines(), MOMENTS, st.sampled_from([0, 2]))
def test_the_stores_sql_rules_say_what_the_rounds_timeline_says(timeline, moment, grace):
    """TAKES_WORD and IN_PLAY (the statements that record a word and keep a solution hidden) against
    ruzzle.timeline.Timeline, on any timeline and moment."""
    database = sqlite3.connect(":memory:")
    database.execute("CREATE TABLE rounds (started REAL, seconds INTEGER, shift REAL, paused_at REAL, ended REAL)")
    database.execute(
        "INSERT INTO rounds VALUES (?, ?, ?, ?, ?)",
        (timeline.started, timeline.seconds, timeline.shift, timeline.paused_at, timeline.ended),
    )
    values = {"now": moment, "grace": grace}
    takes = database.execute(f"SELECT count(*) FROM rounds WHERE {TAKES_WORD}", values).fetchone()[0]
    in_play = database.execute(f"SELECT count(*) FROM rounds WHERE {IN_PLAY}", values).fetchone()[0]
    assert (bool(takes), bool(in_play)) == (timeline.takes_word(moment, grace), timeline.in_play(moment, grace))


def test_a_rounds_board_comes_back_whole_from_every_reading(store):
    """The board a round starts on (every part of its URL, a match round's bonus tiles among them) is the board the
    round in play on its letters and My rounds give back: no field is dropped on the way."""
    match = RoundBoard(
        PlayedBoard("match-url", "en", "SEED", 4, 4, 90, False, generator=2, match_round=1), BOARD.letters_key, 30, 600
    )
    round_ = store.rounds.start(PLAYER, match, 1000)
    store.rounds.record_word(round_.id, "CAT", 5, 1001, GRACE)
    assert store.rounds.in_play(PLAYER, BOARD.letters_key, 1002, GRACE) == match.board
    assert [record.board for record in store.records.recent(PLAYER)] == [match.board]
    assert store.rounds.current(PLAYER, match.board.board_key).score == 5


def test_the_database_clock_is_asked_once_in_a_while_not_on_every_request(store):
    """On PostgreSQL the clock of every host is the database's; asking it was a round trip per request. It is asked
    again only after store.engine.CLOCK_ASKED_EVERY seconds, and this host's clock carries the difference between."""
    statements = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    first = store.database_time()
    asked = len(statements)
    again = [store.database_time() for _ in range(20)]
    assert len(statements) == asked  # no statement for the next readings
    assert first <= again[0] <= again[-1] < first + 1
    if store.dialect == "postgresql":
        assert 1 <= asked <= CLOCK_READINGS  # (a slow round trip is asked again: the shortest makes the best guess)
        with store.reader.connect() as connection:
            before = store.database_time()
            database = float(connection.execute(text("SELECT extract(epoch FROM clock_timestamp())")).scalar_one())
            after = store.database_time()
        # the difference carried, to within the round trip: the database's reading lies between this host's guesses
        # taken just before and just after it (a busy machine may pause the test anywhere outside those two)
        assert before - 0.05 < database < after + 0.05
    else:
        assert asked == 0 and abs(first - time.time()) < 1  # SQLite serves one host: its own clock


@pytest.mark.parametrize(
    "name",
    [
        "Anna",
        "\u0410nna",  # a Cyrillic A
        "\U0001d400nna",  # a mathematical bold A
        "\u1d00\u0274\u0274\u1d00",  # small capitals
        "I\u015f\u0131l",  # a dotless i
        "Zo\u00eb",
        "\u0141ukasz",
        "Stra\u00dfe",
        "An\u200bna",  # a zero-width space
        "\U0001f175\U0001f184\U0001f172\U0001f17a",  # negative squared letters
        "Jos\u00e9 Mar\u00eda",
        "\u674e\u534e",
        "xXAnnaXx",
    ],
)
def test_the_nickname_keys_migration_computes_the_games_key(name):
    """Migration 0923 carries a frozen copy of ruzzle.nicknames.nickname_key (the store imports no game code): on the
    day it was written, the copy and the rule give every kind of name the same key."""
    from ruzzle.nicknames import nickname_key

    migration = importlib.import_module("store.migrations.versions.0923_nickname_keys")
    assert migration.nickname_key(name) == nickname_key(name)


# --- a room's class clock in SQL is the game's timeline ---------------------------------------------------------

CLOCK_CHANGES = st.lists(
    st.tuples(st.sampled_from(["pause", "resume", "add_time", "end"]), st.integers(0, 40), st.integers(-60, 90)),
    max_size=8,
)
room_codes = iter(f"K{number:05d}" for number in range(10**5))  # a fresh room for each example, in one store


def timeline_of(round_) -> tuple:
    """The clock fields a stored round (a room's or a player's) carries."""
    return round_.started, round_.shift, round_.paused_at, round_.ended


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(CLOCK_CHANGES)
def test_the_class_clocks_changes_in_the_store_are_the_timelines(store, changes):
    """Pause, resume, time added and the end, as the store writes them in SQL for a room's round and for every
    player's round in it (store/room_clock.py), leave both with the timeline ruzzle.timeline.Timeline computes, for
    every sequence of changes the timeline accepts (the host's page asks it first: views.rooms.host.change_clock)."""
    rooms = store.rooms
    room = a_room(store, next(room_codes), 1000)
    rooms.join(room.id, PLAYER, "Ada", "ada", 1000, 30)
    rooms.start(room.id, 1, 1000, room_board(room.id, 1))
    timeline, moment = Timeline(1000, room.seconds), 1000.0
    for change, wait, seconds in changes:
        moment += wait
        try:
            if change == "add_time":
                timeline = timeline.add_time(seconds, moment)
                rooms.add_time(room.id, 1, seconds, moment)
            else:
                timeline = getattr(timeline, change)(moment)
                getattr(rooms, change)(room.id, 1, moment)
        except TimelineError:
            continue  # the host's page refuses it: the store is never asked
        expected = (timeline.started, timeline.shift, timeline.paused_at, timeline.ended)
        assert timeline_of(rooms.get(room.code).current) == expected
        assert timeline_of(store.rounds.current(PLAYER, round_key(room.id, 1))) == expected
