"""An ordinary page while slow clients hold connections open (issue 11): gunicorn as the README runs it,
then 20 sockets that send nothing and 20 that send their headers a byte every 0.25 s.

    python3 bench/slow_clients.py              # 40 page loads without slow clients, 40 with them (~30 s)
    python3 bench/slow_clients.py --idle 40 --trickle 40
    RUZZLE_THREADS=1 python3 bench/slow_clients.py   # one request per worker, as before (pages wait)
    python3 bench/slow_clients.py --front --sync     # sync workers behind nginx (deploy/nginx.conf), which the
                                                     # slow clients talk to

Target: every page load under 1 s with the slow clients connected.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.nginx import nginx_front  # noqa: E402
from tools.servers import SYNC_WORKERS, gunicorn_server  # noqa: E402
from tools.slow_clients import slow_clients  # noqa: E402

PAGE = "/play/en/SLOWWIFI"
TARGET_S = 1.0


def load(url: str) -> float:
    """Milliseconds to load the page, read to the end; a client timeout of 10 s counts as 10 000 ms."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            response.read()
    except OSError:
        return 10_000.0
    return (time.monotonic() - start) * 1000


def loads(url: str, count: int, pause: float) -> list[float]:
    times = []
    for _ in range(count):
        times.append(load(url))
        time.sleep(pause)
    return times


def row(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"| {name} | {len(times)} | {statistics.median(times):.1f} | {p95:.1f} | {max(times):.1f} |"


@contextlib.contextmanager
def server_under_test(front: bool, sync: bool) -> Iterator[tuple[str, int]]:
    """gunicorn as the README runs it (its sync workers with `sync`), with nginx in front when `front`: the URL the
    clients talk to, and the number of workers."""
    with gunicorn_server(**(SYNC_WORKERS if sync else {})) as server:
        workers = len(server.worker_pids())
        if not front:
            yield server.url, workers
            return
        with (
            tempfile.TemporaryDirectory() as static,
            nginx_front(urllib.parse.urlsplit(server.url).netloc, Path(static)) as nginx,
        ):
            yield nginx.url, workers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=int, default=20)
    parser.add_argument("--trickle", type=int, default=20)
    parser.add_argument("-n", "--count", type=int, default=40, help="page loads each way (default 40)")
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between page loads (default 0.3)")
    parser.add_argument("--front", action="store_true", help="nginx in front (deploy/nginx.conf)")
    parser.add_argument("--sync", action="store_true", help="gunicorn's sync workers, one request each")
    args = parser.parse_args()
    with server_under_test(args.front, args.sync) as (base, workers):
        url = base + PAGE
        load(url)
        quiet = loads(url, args.count, args.pause)
        with slow_clients(base, idle=args.idle, trickle=args.trickle) as clients:
            time.sleep(1)
            slowed = loads(url, args.count, args.pause)
            trickled, reopened = sum(clients.sent), clients.reopened
    threads = "1 (sync)" if args.sync else os.environ.get("RUZZLE_THREADS", "as set there")
    print(
        f"gunicorn.conf.py: {workers} workers, RUZZLE_THREADS={threads}{', nginx in front' if args.front else ''}; "
        f"page {PAGE}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print("| board page | loads | p50 ms | p95 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(row("alone", quiet))
    print(row(f"with {args.idle} silent + {args.trickle} trickling connections", slowed))
    print(
        f"the slow clients sent {trickled} bytes; the server closed {reopened} of their connections (each opened again)"
    )
    ok = max(slowed) < TARGET_S * 1000
    print(f"target: every load under {TARGET_S:.0f} s with the slow clients {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
