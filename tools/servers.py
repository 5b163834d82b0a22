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
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py"]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def gunicorn(secret_key: str = "test key shared by the servers", workers: int | None = None, app: str = "app:app",
             health: str = "/healthz", **env: str) -> Iterator[str]:
    """Run `gunicorn --config gunicorn.conf.py app:app` and yield its base URL once `health` answers 200.

    `workers` None keeps gunicorn.conf.py's own number, as the README's run command does.
    """
    port = free_port()
    environment = {**os.environ, "RUZZLE_BIND": f"127.0.0.1:{port}", "RUZZLE_SECRET_KEY": secret_key, **env}
    if workers is not None:
        environment["RUZZLE_WORKERS"] = str(workers)
    log = tempfile.TemporaryFile()  # a file, not a pipe: a full pipe would stall gunicorn
    process = subprocess.Popen([*GUNICORN, app], cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=log,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_healthy(url + health, process, log)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()


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
