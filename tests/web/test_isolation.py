"""Each test has the app to itself: the process's one app (`shared_app`) gives every test its own store, clock,
settings and per-process state, and takes back what a test changed (`one_tests_app` in tests/web/conftest.py)."""

from __future__ import annotations

import shutil

from sqlalchemy import func, select

from store.schema import metadata
from views.services import services

from .conftest import Clock, one_tests_app

SEED = "ALONE1"


def rows(app) -> dict[str, int]:
    """How many rows each table of the app's store holds."""
    with services(app).store.engine.connect() as connection:
        return {
            name: connection.execute(select(func.count()).select_from(table)).scalar_one()
            for name, table in metadata.tables.items()
        }


def test_what_one_test_writes_and_changes_is_gone_for_the_next(shared_app, migrated_store, tmp_path):
    def fresh_store(name: str) -> str:
        path = tmp_path / f"{name}.sqlite3"
        shutil.copyfile(migrated_store, path)
        return f"sqlite:///{path}"

    settings, shared = dict(shared_app.config), services(shared_app)
    with one_tests_app(shared_app, Clock(), fresh_store("first"), tmp_path / "first") as first:
        empty = rows(first)
        host = first.test_client()
        form = {"language": "en", "size": "4x4", "time": "60", "seed": SEED}
        assert host.post("/rooms", data=form).status_code == 303  # a room
        assert host.post(f"/play/en/{SEED}/round", data={"action": "again"}).status_code < 400  # a round of one's own
        first.config["ROOM_PLAYERS"] = 3
        services(first).room_rankings["a room"] = "its ranking"
        services(first).solving_budget.charge("10.9.9.9", 1000)
        written = rows(first)
        assert written["rooms"] == 1 and written["rounds"] == 1, written  # the test can tell a store that kept them

    with one_tests_app(shared_app, Clock(), fresh_store("second"), tmp_path / "second") as second:
        assert second is first  # one app for the process
        assert rows(second) == empty
        assert second.config["ROOM_PLAYERS"] == settings["ROOM_PLAYERS"] != 3
        assert services(second).room_rankings == {}
        assert services(second).solving_budget.level("10.9.9.9") > 0

    assert dict(shared_app.config) == settings and services(shared_app) is shared
