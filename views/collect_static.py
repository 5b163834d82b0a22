"""`python -m views.collect_static FOLDER`: write the static files as the pages link them (every file and bundle under
its plain and its content-hashed name, with a gzipped copy of each text file) into FOLDER, for a front server such as
nginx to send without asking the app (deploy/nginx.conf). Run it on each deploy, before the new app starts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .assets import StaticFiles

STATIC = Path(__file__).resolve().parents[1] / "static"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m views.collect_static", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where the front server finds /static/ (made when missing)")
    arguments = parser.parse_args(argv)
    written = StaticFiles(STATIC).write(arguments.folder)
    print(f"{arguments.folder}: {len(written)} files written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
