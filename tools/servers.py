"""Real servers for tests and benchmarks: gunicorn started as the README starts it, on a free port."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]
# gunicorn's sync workers (one request at a time per process) in place of gunicorn.conf.py's threads, for a server
# behind a buffering proxy: the command line's settings win over the file's, and more than one thread would make
# gunicorn take gthread again.
SYNC_WORKERS = {"GUNICORN_CMD_ARGS": "--worker-class sync", "RUZZLE_THREADS": "1"}


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class Server:
    """A running gunicorn: its base URL, its master process and the file of its log (its workers' stderr)."""

    url: str
    process: subprocess.Popen
    log: IO[bytes] | None = None

    def worker_pids(self) -> list[int]:
        """The process ids of the master's workers (its children), in order."""
        return children(self.process.pid)

    def log_text(self) -> str:
        """What the server has logged so far."""
        if self.log is None:
            return ""
        # read at an offset, never moving the file's position: the workers write at it (their stderr is this file)
        size = os.fstat(self.log.fileno()).st_size
        return os.pread(self.log.fileno(), size, 0).decode("utf-8", errors="replace")


@contextlib.contextmanager
def gunicorn_server(
    secret_key: str | None = "test key shared by the servers",
    workers: int | None = None,
    app: str = "app:app",
    health: str = "/healthz",
    port: int | None = None,
    solving_budget: bool = False,
    rate_limits: bool = False,
    access_log: Path | None = None,
    **env: str,
) -> Iterator[Server]:
    """Run `gunicorn --config gunicorn.conf.py app:app` and yield it once `health` answers 200.

    `workers` None keeps gunicorn.conf.py's own number, as the README's run command does; `secret_key` None
    leaves the key to the app (the instance folder's), as `tools/run.sh` does; `port` None picks a free one.
    `solving_budget` False turns the per-client limit on solving new boards off (RUZZLE_SOLVING_RATE=0):
    tests and benchmarks send everything from one address, and only a test of the limit wants it. `rate_limits`
    False turns the per-client limits off (RUZZLE_RATELIMIT_ENABLED=0) for the same reason: a browser test opens
    rooms and plays words at a machine's speed; a benchmark of a class behind one address turns them on.
    `access_log` a file: gunicorn's access log (its stdout, a line a request as it answers) goes there; None drops it.
    """
    port = port or free_port()
    budget = {} if solving_budget else {"RUZZLE_SOLVING_RATE": "0"}
    limits = {} if rate_limits else {"RUZZLE_RATELIMIT_ENABLED": "0"}
    environment = {**os.environ, "RUZZLE_BIND": f"127.0.0.1:{port}", **budget, **limits, **env}
    environment.pop("RUZZLE_SECRET_KEY", None)
    if secret_key is not None:
        environment["RUZZLE_SECRET_KEY"] = secret_key
    if workers is not None:
        environment["RUZZLE_WORKERS"] = str(workers)
    # a file, not a pipe: a full pipe would stall gunicorn; RUZZLE_SERVER_LOG keeps it for a look afterwards
    log = (
        open(os.environ["RUZZLE_SERVER_LOG"], "w+b")
        if os.environ.get("RUZZLE_SERVER_LOG")
        else tempfile.TemporaryFile()
    )
    requests = open(access_log, "wb") if access_log is not None else subprocess.DEVNULL
    process = subprocess.Popen(
        [*GUNICORN, app], cwd=ROOT, env=environment, stdout=requests, stderr=log, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_healthy(url + health, process, log)
        yield Server(url, process, log)
    finally:
        with contextlib.suppress(ProcessLookupError):  # a test may have killed it already
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()
        if access_log is not None:
            requests.close()


@contextlib.contextmanager
def gunicorn(
    secret_key: str | None = "test key shared by the servers",
    workers: int | None = None,
    app: str = "app:app",
    health: str = "/healthz",
    **env: str,
) -> Iterator[str]:
    """`gunicorn_server`, yielding only the base URL."""
    with gunicorn_server(secret_key, workers, app, health, **env) as server:
        yield server.url


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended while we looked
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return sorted(found)


def _wait_until_healthy(url: str, process: subprocess.Popen, log, timeout: float = 30) -> None:
    """Poll /healthz until it answers 200; fail with gunicorn's own words if it died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"gunicorn exited with {process.returncode}: {log.read().decode()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer on {url} within {timeout} s")
