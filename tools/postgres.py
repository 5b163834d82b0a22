"""A throwaway PostgreSQL cluster for tests and benchmarks: Debian's `postgresql` binaries, `initdb` and
`pg_ctl` on a free port in a temporary folder; as the `postgres` user (via `runuser`) when run as root."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tools.servers import free_port

DEBIAN_BINARIES = Path("/usr/lib/postgresql")


def binaries() -> Path:
    """The folder of initdb and pg_ctl: Debian's newest /usr/lib/postgresql/N/bin, else wherever PATH has them."""
    versions = sorted(DEBIAN_BINARIES.glob("*/bin/initdb"), key=lambda path: int(path.parts[-3]), reverse=True)
    if versions:
        return versions[0].parent
    found = shutil.which("initdb")
    if found is None:
        raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql (tools/test.sh does it)")
    return Path(found).parent


@dataclass
class Cluster:
    """A running cluster: where it listens, its folder (data and log), its binaries, a counter for fresh databases."""

    port: int
    folder: Path
    bin_dir: Path
    _names = itertools.count(1)

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of one of its databases (trust authentication on 127.0.0.1)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self, prefix: str = "ruzzle") -> str:
        """Create an empty database; its URL."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def start(self) -> None:
        """Start the server (again) on its port, and wait until it takes connections."""
        # fsync off: a test cluster is thrown away, and the tests kill app servers, never this one.
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        subprocess.run(
            _as_postgres(
                [
                    str(self.bin_dir / "pg_ctl"),
                    "-D",
                    str(self.folder / "data"),
                    "-l",
                    str(self.folder / "log"),
                    "-o",
                    options,
                    "-w",
                    "start",
                ]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        """Stop the server at once (its clients' connections break), keeping its data for a start again."""
        subprocess.run(
            _as_postgres(
                [str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop"]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def _as_postgres(command: list[str]) -> list[str]:
    """Run as the postgres user when we are root (PostgreSQL refuses to run as root)."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextlib.contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    """Start a fresh cluster (initdb + pg_ctl start) and yield it; stopped and deleted at the end."""
    bin_dir = binaries()
    folder = Path(tempfile.mkdtemp(prefix="ruzzle-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    subprocess.run(
        _as_postgres(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(folder / "data"),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    cluster = Cluster(free_port(), folder, bin_dir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
