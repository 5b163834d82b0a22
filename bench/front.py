"""Server CPU per request: a static file through gunicorn and Flask against the same file from nginx in front
(deploy/nginx.conf), and a board page through nginx to gunicorn's gthread workers (as gunicorn.conf.py has them)
against sync workers (one request per process, which only a buffering proxy in front makes safe for slow phones).

    python3 bench/front.py               # 3 s per run, 2 rounds, wrk -t1 -c8
    python3 bench/front.py -d 5 -r 3

The figure is the CPU time (user + system, from /proc) of the server's processes — gunicorn's master and workers,
nginx's master and worker — over a run, divided by the requests wrk had answered: unlike requests per second, it
hardly moves when other work shares the machine. Each setup runs in turns with the others, and keeps its lowest
round, after a second of warm-up for each. Needs Debian's wrk and nginx-light.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.nginx import nginx_front  # noqa: E402
from tools.servers import SYNC_WORKERS, children, gunicorn_server  # noqa: E402
from views.assets import StaticFiles  # noqa: E402
from views.collect_static import STATIC  # noqa: E402

SEED = "BENCH4"
TICKS = os.sysconf("SC_CLK_TCK")
SYNC = {
    "GUNICORN_CMD_ARGS": "--worker-class sync",
    "RUZZLE_THREADS": "1",
}  # threads > 1 would make gunicorn use gthread


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes (every thread of each), in seconds."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of stat(5)
    return total / TICKS


def wrk(url: str, seconds: int, connections: int, headers: dict[str, str]) -> tuple[int, int]:
    """Load a URL with wrk; the requests answered, and how many were not 2xx/3xx or failed."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    errors = (int(non_2xx.group(1)) if non_2xx else 0) + (sum(map(int, socket.groups())) if socket else 0)
    return requests, errors


def measure(url: str, app_pids: Callable[[], list[int]], front_pids: list[int], args, headers) -> dict:
    """One run: requests, errors, and the milliseconds of CPU per request of the app's and the front's processes."""
    app_before, front_before = cpu_seconds(app_pids()), cpu_seconds(front_pids)
    requests, errors = wrk(url, args.seconds, args.connections, headers)
    app_after, front_after = cpu_seconds(app_pids()), cpu_seconds(front_pids)
    return {
        "requests": requests,
        "errors": errors,
        "app": 1000 * (app_after - app_before) / requests,
        "front": 1000 * (front_after - front_before) / requests,
    }


def setup(url: str, app, front, headers: dict[str, str]) -> tuple:
    """What one setup's runs need: the URL, the app's processes (read afresh: a worker may restart), the front's."""
    return url, lambda: [app.process.pid, *children(app.process.pid)], front.pids() if front else [], headers


def session_cookie(url: str) -> str:
    """The cookie a player has after opening the board page once (their round)."""
    with urllib.request.urlopen(url) as response:
        return response.headers["Set-Cookie"].split(";")[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-d", "--seconds", type=int, default=3, help="seconds per run (default 3)")
    parser.add_argument("-c", "--connections", type=int, default=8, help="wrk's open connections (default 8)")
    parser.add_argument("-r", "--rounds", type=int, default=2, help="rounds of taking turns (default 2)")
    parser.add_argument(
        "--sync-workers",
        default="2,5",
        help="sync servers' worker counts, comma-separated (default 2,5: a worker a"
        " core, and gunicorn.conf.py's 2 x cores + 1)",
    )
    args = parser.parse_args()
    for tool in ("wrk", "nginx"):
        if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists():
            sys.exit(f"{tool} is missing: apt-get install -y {'nginx-light' if tool == 'nginx' else tool}")
    folder = Path(tempfile.mkdtemp(prefix="ruzzle-bench-front-"))
    files = StaticFiles(STATIC)
    files.write(folder / "static")
    css = f"/static/{files.name('css/ruzzle.css')}"
    gzip = {"Accept-Encoding": "gzip"}
    with ExitStack() as servers:
        store = {"RUZZLE_DATABASE_URL": f"sqlite:///{folder / 'store.sqlite3'}", "RUZZLE_PROXY_FIX": "1"}
        gthread = servers.enter_context(gunicorn_server(**store))
        apps = {"gthread": gthread}
        for count in map(int, args.sync_workers.split(",")):
            apps[f"sync {count}"] = servers.enter_context(gunicorn_server(workers=count, **store, **SYNC_WORKERS))
        front = {
            name: servers.enter_context(nginx_front(urllib.parse.urlsplit(app.url).netloc, folder / "static"))
            for name, app in apps.items()
        }

        board = f"/play/en/{SEED}"
        player = {**gzip, "Cookie": session_cookie(front["gthread"].url + board)}  # one store: every server has it
        setups = {
            "static file, gunicorn gthread alone (today)": setup(gthread.url + css, gthread, None, gzip),
            "static file, nginx in front of gthread": setup(
                front["gthread"].url + css, gthread, front["gthread"], gzip
            ),
            "board page, gunicorn gthread alone (today)": setup(gthread.url + board, gthread, None, player),
            "board page, nginx -> gthread (48 threads)": setup(
                front["gthread"].url + board, gthread, front["gthread"], player
            ),
        }
        for name, app in apps.items():
            if name != "gthread":
                label = f"board page, nginx -> {name.replace('sync', 'sync,')} workers"
                setups[label] = setup(front[name].url + board, app, front[name], player)
        for url, _, _, headers in setups.values():
            wrk(url, 1, args.connections, headers)  # warm-up: every worker has its caches and templates loaded
        runs: dict[str, list[dict]] = {name: [] for name in setups}
        for _ in range(args.rounds):
            for name, (url, pids, front_pids, headers) in setups.items():
                runs[name].append(measure(url, pids, front_pids, args, headers))
    shutil.rmtree(folder, ignore_errors=True)
    load = os.getloadavg()[0]
    print(
        f"wrk -t1 -c{args.connections}, {args.seconds} s a run, {args.rounds} rounds (lowest kept); "
        f"load average now {load:.1f}"
    )
    print("| setup | requests/s | app CPU ms/req | nginx CPU ms/req | total ms/req | errors |")
    print("|---|---|---|---|---|---|")
    for name, rounds in runs.items():
        best = min(rounds, key=lambda run: run["app"] + run["front"])
        errors = sum(run["errors"] for run in rounds)
        print(
            f"| {name} | {best['requests'] / args.seconds:,.0f} | {best['app']:.3f} | {best['front']:.3f} | "
            f"{best['app'] + best['front']:.3f} | {errors} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
