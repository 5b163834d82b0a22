"""`python -m store upgrade`: apply the schema migrations to the store the app would use, then say where.

The store is `RUZZLE_DATABASE_URL` when set, else the SQLite file in the app's instance folder (`RUZZLE_INSTANCE_PATH`
when set, else `store.engine.default_instance`, which the app asks too). The app also upgrades on start (unless
RUZZLE_MIGRATE_ON_START=0); this command is for deployments that migrate first.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import Store
from .engine import DATABASE_URL_VARIABLE, database_url
from .migrate import current


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m store", description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["upgrade", "current"], help="upgrade to the newest schema, or show it")
    arguments = parser.parse_args(argv)
    instance = os.environ.get("RUZZLE_INSTANCE_PATH")
    store = Store(database_url(os.environ.get(DATABASE_URL_VARIABLE), *([Path(instance)] if instance else [])))
    if arguments.action == "upgrade":
        store.migrate()
    print(f"{store.address}: schema revision {current(store)}")
    store.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
