"""A throwaway Redis for tests and benchmarks: Debian's `redis-server` on a free port of 127.0.0.1, in a temporary
folder of its own, keeping nothing on disk (no snapshots, no append-only file); stopped and deleted at the end.

redis-server runs as root without complaint (unlike PostgreSQL), so it runs as whoever starts it."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tools.servers import free_port

DEBIAN_BINARY = Path("/usr/bin/redis-server")
MISSING = "Redis is not installed: apt-get install -y redis-server (tools/test.sh does it)"


def binary() -> Path:
    """Where redis-server is: Debian's /usr/bin/redis-server, else wherever PATH has it."""
    found = DEBIAN_BINARY if DEBIAN_BINARY.exists() else shutil.which("redis-server")
    if found is None:
        raise RuntimeError(MISSING)
    return Path(found)


@dataclass
class Redis:
    """A Redis server: where it listens, its folder (its log), and its process while it runs."""

    port: int
    folder: Path
    server: Path
    process: subprocess.Popen | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        """The storage URI the app's limits take (RUZZLE_RATELIMIT_STORAGE_URI)."""
        return f"redis://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10) -> None:
        """Start the server (again) on its port, and wait until it answers PING."""
        command = [
            str(self.server),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.folder),
            "--save", "",  # no snapshots: the counts of a test or a bench are thrown away with it
            "--appendonly", "no",
            "--daemonize", "no",
            "--logfile", str(self.folder / "log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while not self.answers():
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}: {self.log()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout} s")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server (its clients' connections break); a start again begins with no counts."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def answers(self) -> bool:
        """Whether it answers PING now."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def log(self) -> str:
        """What the server wrote to its log."""
        path = self.folder / "log"
        return path.read_text(errors="replace") if path.exists() else ""


@contextlib.contextmanager
def redis_server() -> Iterator[Redis]:
    """Start a fresh Redis in a temporary folder and yield it; stopped and deleted at the end."""
    server = binary()
    folder = Path(tempfile.mkdtemp(prefix="ruzzle-redis-"))
    redis = Redis(free_port(), folder, server)
    try:
        redis.start()
        yield redis
    finally:
        redis.stop()
        shutil.rmtree(folder, ignore_errors=True)
