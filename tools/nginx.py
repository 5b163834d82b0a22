"""nginx in front of gunicorn for tests and benchmarks: Debian's nginx with the repository's site file
(deploy/nginx.conf) on a free port, its pid file, logs and buffers in a temporary folder."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tools.servers import ROOT, free_port

SITE = ROOT / "deploy" / "nginx.conf"
NGINX = "/usr/sbin/nginx"

# The main configuration Debian's /etc/nginx/nginx.conf would be, with every path in the temporary folder. One
# worker: a benchmark reads its CPU time as nginx's own.
MAIN = """\
{user}
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""


def site(listen: str, upstream: str, static_root: Path) -> str:
    """deploy/nginx.conf with its three values filled in."""
    text = SITE.read_text()
    for placeholder, value in (("@LISTEN@", listen), ("@UPSTREAM@", upstream), ("@STATIC_ROOT@", str(static_root))):
        text = text.replace(placeholder, value)
    return text


@dataclass(frozen=True)
class Front:
    """A running nginx: its base URL, its master process, its folder (access.log, error.log)."""

    url: str
    process: subprocess.Popen
    folder: Path

    def pids(self) -> list[int]:
        """The master and its worker."""
        from tools.servers import children

        return [self.process.pid, *children(self.process.pid)]


def binary() -> str:
    """Debian's nginx, else whichever PATH has."""
    found = NGINX if Path(NGINX).exists() else shutil.which("nginx")
    if found is None:
        raise RuntimeError("nginx is not installed: apt-get install -y nginx-light (tools/test.sh does it)")
    return found


@contextlib.contextmanager
def nginx_front(upstream: str, static_root: Path) -> Iterator[Front]:
    """Start nginx with deploy/nginx.conf in front of `upstream` (host:port), sending /static/ from `static_root`
    (a folder views.collect_static wrote); yield it once it takes connections; stopped and deleted at the end."""
    folder = Path(tempfile.mkdtemp(prefix="ruzzle-nginx-"))
    port = free_port()
    # As root, nginx's workers would switch to `nobody`, who cannot read the tests' temporary folders.
    user = "user root;" if os.geteuid() == 0 else ""
    (folder / "site.conf").write_text(site(f"127.0.0.1:{port}", upstream, static_root))
    (folder / "nginx.conf").write_text(MAIN.format(user=user, folder=folder))
    process = subprocess.Popen(
        [
            binary(),
            "-p",
            str(folder),
            "-e",
            str(folder / "error.log"),
            "-c",
            str(folder / "nginx.conf"),
            "-g",
            "daemon off;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait_until_listening(port, process, folder / "error.log")
        yield Front(f"http://127.0.0.1:{port}", process, folder)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_until_listening(port: int, process: subprocess.Popen, log: Path, timeout: float = 10) -> None:
    """Wait until nginx takes connections on its port; fail with its error log if it exited."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = log.read_text() if log.exists() else ""
            raise RuntimeError(f"nginx exited with {process.returncode}: {said[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nginx did not listen on port {port} within {timeout} s")
