"""The SQL statements one join runs, in a room of N seats: how many, each with its query plan on SQLite (a SCAN of a
table is a statement whose cost grows with the room).

    python3 bench/join_statements.py                    # rooms of 20 and 2,000 seats, solo and in teams, SQLite
    python3 bench/join_statements.py --seats 5 300 --store postgresql

The room is filled through the store (as joins would, a seat each), then one more phone joins through the app and
its statements are counted (not SQLite's BEGIN and COMMIT: they ask nothing of the room). Counts, not times: the same
on a busy machine and a quiet one.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/: its limits.py would hide the package of that name


from app import create_app  # noqa: E402
from bench.load import store_environment  # noqa: E402
from ruzzle.nicknames import nickname_key  # noqa: E402
from tools.statements import statements  # noqa: E402

START = 1_790_000_000.0


def room_of(app, seats: int, **form: str) -> str:
    """A room opened by a host, with `seats` players seated through the store; its code."""
    host = app.test_client()
    reply = host.post("/rooms", data={"language": "en", "size": "4x4", "time": "120", "seed": "JOINS2", **form})
    code = reply.headers["Location"].rstrip("/").split("/")[-2]
    rooms = app.extensions["ruzzle.store"].rooms
    room = rooms.get(code)
    for number in range(seats):
        name = f"Seated{number:05d}"
        rooms.join(room.id, f"seated-{number}", name, nickname_key(name), START, seats + 10)
    return code


def traced_join(app, code: str, nickname: str = "Newcomer") -> list[tuple[str, object]]:
    """The statements of one more phone's join (its POST, answered 303)."""
    with statements(app.extensions["ruzzle.store"].engine) as seen:
        reply = app.test_client().post(f"/rooms/{code}/players", data={"nickname": nickname})
    assert reply.status_code == 303, reply.get_data(as_text=True)[:300]
    return seen


def plan(app, statement: str, parameters) -> str:
    """SQLite's query plan of a statement, its steps joined by ' | '."""
    with app.extensions["ruzzle.store"].engine.connect() as connection:
        cursor = connection.connection.driver_connection.cursor()
        rows = cursor.execute("EXPLAIN QUERY PLAN " + statement, parameters).fetchall()
    return " | ".join(row[-1] for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[20, 2000])
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        url = stack.enter_context(store_environment(args.store))["RUZZLE_DATABASE_URL"]
        app = create_app(
            {"SECRET_KEY": "bench", "CLOCK": lambda: START, "DATABASE_URL": url, "RATELIMIT_ENABLED": False}
        )
        app.config["ROOM_PLAYERS"] = max(args.seats) + 10
        app.instance_path = str(folder / "instance")
        for mode in ({}, {"mode": "teams", "teams": "4"}):
            for seats in args.seats:
                seen = traced_join(app, room_of(app, seats, **mode))
                print(f"\n{'teams' if mode else 'solo'}, a room of {seats} seats: {len(seen)} statements")
                for statement, parameters in seen:
                    line = " ".join(statement.split())
                    print(f"  {line[:150]}")
                    if args.store == "sqlite":
                        print(f"      plan: {plan(app, statement, parameters)}")
        app.extensions["ruzzle.store"].dispose()


if __name__ == "__main__":
    main()
