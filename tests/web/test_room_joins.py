"""A join costs the same in a room of 5 as in a room of 300 (issue 37): the same statements, none of them a scan of the
room's seats, the room's size and its teams' read from rows kept by the store's triggers (migration 0927), and the
rules as before (a look-alike of a name in the room is taken, a full room is full), on SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib

import pytest
from sqlalchemy import text

from ruzzle.nicknames import nickname_key
from tools.statements import statements as recorded

from .conftest import START
from .helpers import open_room


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores (but the query plans: SQLite's)."""
    return migrated_database_url


@contextlib.contextmanager
def statements(app):
    """The SQL statements the store runs meanwhile, with their parameters (not the transaction's own)."""
    with recorded(app.extensions["ruzzle.store"].engine) as seen:
        yield seen


def room_of(app, client, seats: int, **form: str) -> str:
    """A room with `seats` players seated through the store (as their joins would); its code."""
    code = open_room(client, **form)
    rooms = app.extensions["ruzzle.store"].rooms
    room_id = rooms.get(code).id
    for number in range(seats):
        name = f"Seated{number:04d}"
        rooms.join(room_id, f"seated-{number}", name, nickname_key(name), START, 1000)
    return code


def join_form(app, code: str, nickname: str):
    """A new phone posts the join form; its answer."""
    return app.test_client().post(f"/rooms/{code}/players", data={"nickname": nickname})


def kept_sizes(app, code: str) -> tuple[int, int, dict[int, int], dict[int, int]]:
    """The room's kept size and its seats counted; its teams' kept sizes and their seats counted."""
    with app.extensions["ruzzle.store"].engine.connect() as connection:
        room_id, kept = connection.execute(
            text("SELECT id, player_count FROM rooms WHERE code = :code"), {"code": code}
        ).one()
        where = {"room": room_id}
        counted = connection.execute(text("SELECT count(*) FROM room_players WHERE room_id = :room"), where).scalar()
        teams = dict(
            connection.execute(text("SELECT team, players FROM room_teams WHERE room_id = :room"), where).all()
        )
        seats = dict(
            connection.execute(
                text(
                    "SELECT team, count(*) FROM room_players WHERE room_id = :room AND team IS NOT NULL GROUP BY team"
                ),
                where,
            ).all()
        )
    return kept, counted, {team: size for team, size in teams.items() if size}, seats


MODES = {"solo": {}, "teams": {"mode": "teams", "teams": "3"}}


@pytest.mark.parametrize("mode", MODES)
def test_a_join_runs_the_same_statements_in_a_room_of_5_as_of_300(app, client, mode):
    counted = []
    for seats in (5, 300):
        code = room_of(app, client, seats, **MODES[mode])
        with statements(app) as seen:
            assert join_form(app, code, "Newcomer").status_code == 303
        counted.append([statement for statement, _ in seen])
    assert counted[0] == counted[1]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("nickname", ["Newcomer", "Seated0042"], ids=["a new name", "a taken name"])
def test_no_statement_of_a_join_scans_the_rooms_seats(app, client, mode, nickname):
    """SQLite's plan of each statement: a search of a whole key (the room and the player, or the name), never a scan
    of a table nor a search of every seat of the room (an index searched by the room alone)."""
    code = room_of(app, client, 300, **MODES[mode])
    with statements(app) as seen:
        join_form(app, code, nickname)
    store = app.extensions["ruzzle.store"]
    with store.engine.connect() as connection:
        cursor = connection.connection.driver_connection.cursor()
        steps = [
            row[-1]
            for statement, parameters in seen
            for row in cursor.execute("EXPLAIN QUERY PLAN " + statement, parameters).fetchall()
        ]
    assert steps, "no statement was traced"
    scans = [step for step in steps if step.startswith("SCAN") or "room_players" in step and "(room_id=?)" in step]
    assert scans == []


@pytest.mark.parametrize("room_size", [5, 300])
@pytest.mark.parametrize("look_alike", ["\u0410nna", "ANNA", "\U0001d400nna", "\u00c4nna"])
def test_a_look_alike_of_a_name_in_the_room_is_taken_in_a_room_of_any_size(app, client, room_size, look_alike):
    code = room_of(app, client, room_size)
    assert join_form(app, code, "Anna").status_code == 303
    refused = join_form(app, code, look_alike)
    assert refused.status_code == 409
    assert "already called Anna" in refused.get_data(as_text=True)


def test_a_full_room_is_full_by_its_kept_size_and_a_removed_seat_frees_a_place(app, client):
    app.config["ROOM_PLAYERS"] = 6
    code = room_of(app, client, 5)
    assert join_form(app, code, "Last").status_code == 303
    assert join_form(app, code, "OneTooMany").status_code == 409
    store = app.extensions["ruzzle.store"].rooms
    room = store.get(code)
    store.remove(room.id, store.players(room.id)[0].id, START)
    assert join_form(app, code, "OneTooMany").status_code == 303


@pytest.mark.parametrize("mode", MODES)
def test_the_kept_sizes_follow_every_way_a_seat_comes_and_goes(app, client, mode):
    """Joins, the host's removal and its undo, a move to another team: the room's kept size and its teams' are the
    seats counted, after each."""
    code = room_of(app, client, 7, **MODES[mode])
    rooms = app.extensions["ruzzle.store"].rooms
    room_id = rooms.get(code).id
    players = rooms.players(room_id)
    steps = [
        lambda: join_form(app, code, "Newcomer"),
        lambda: rooms.remove(room_id, players[0].id, START),
        lambda: rooms.remove(room_id, players[1].id, START),
        lambda: rooms.unban(room_id, players[0].id, nickname_key(players[0].nickname)),
        lambda: rooms.move_to_team(room_id, players[2].id, 3, 1, START) if mode == "teams" else None,
    ]
    for step in steps:
        step()
        kept, counted, teams, seats = kept_sizes(app, code)
        assert (kept, teams) == (counted, seats)
    assert kept == 7
