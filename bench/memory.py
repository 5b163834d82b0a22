"""Worker memory after many distinct 12x12 boards (issue 11): gunicorn as the README runs it, 2,000 distinct
12x12 seeds (every loaded language in turn), each seen as a class sees it (the board page, the solution
page, the projector's first step: 6,000 requests), each worker's RSS along the way.

    python3 bench/memory.py                          # 2000 seeds, 4 clients at once (~5 minutes)
    python3 bench/memory.py -n 500
    RUZZLE_MAX_REQUESTS=0 python3 bench/memory.py    # workers never recycled, for comparison

Each worker keeps caches of solved and rendered boards (bounded) and whatever Python's allocator holds
on to; gunicorn.conf.py recycles a worker after max_requests (+ jitter) requests. Target: no worker above
250 MB RSS at any sample, and the last sample's total no higher than twice the first warm one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app  # noqa: E402
from tools.servers import gunicorn_server  # noqa: E402

TARGET_MB = 250
PAGES = ["?size=12x12", "/solution?size=12x12", "/projector?size=12x12&step=1"]


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (0 if it has ended)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def fetch(url: str) -> int:
    with urllib.request.urlopen(url, timeout=60) as response:
        response.read()
        return response.status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--seeds", type=int, default=2000)
    parser.add_argument("-c", "--clients", type=int, default=4, help="requests at once (default 4)")
    parser.add_argument("--every", type=int, default=250, help="seeds between samples (default 250)")
    args = parser.parse_args()
    languages = sorted(create_app({"SECRET_KEY": "languages"}).extensions["ruzzle.lexicons"])
    samples, seen_workers, errors = [], set(), 0
    started = time.monotonic()
    with gunicorn_server() as server, ThreadPoolExecutor(args.clients) as pool:

        def sample(done: int) -> None:
            workers = server.worker_pids()
            seen_workers.update(workers)
            sizes = [rss_mb(pid) for pid in workers]
            samples.append((done, len(seen_workers), sizes))
            print(
                f"{done:6d} seeds  workers so far {len(seen_workers):3d}  RSS MB "
                + " ".join(f"{size:6.1f}" for size in sizes),
                flush=True,
            )

        sample(0)
        for start in range(0, args.seeds, args.every):
            urls = [
                f"{server.url}/play/{languages[n % len(languages)]}/MEM{n:05d}{page}"
                for n in range(start, min(start + args.every, args.seeds))
                for page in PAGES
            ]
            for status in pool.map(lambda url: _status(url), urls):
                errors += status != 200
            sample(min(start + args.every, args.seeds))
    elapsed = time.monotonic() - started
    first_warm = sum(samples[1][2])
    last = sum(samples[-1][2])
    biggest = max(max(sizes) for _, _, sizes in samples)
    print(
        f"\n{args.seeds} distinct 12x12 boards, {len(PAGES) * args.seeds} pages ({', '.join(languages)}) "
        f"in {elapsed:.0f} s, {errors} errors; "
        f"max_requests {os.environ.get('RUZZLE_MAX_REQUESTS', 'as in gunicorn.conf.py')}; "
        f"{len(seen_workers)} worker processes in all ({len(seen_workers) - len(samples[0][2])} recycled)"
    )
    print(
        f"largest worker RSS {biggest:.1f} MB; all workers {first_warm:.0f} MB after {samples[1][0]} seeds, "
        f"{last:.0f} MB at the end"
    )
    ok = biggest < TARGET_MB and last <= 2 * first_warm and errors == 0
    print(
        f"target: every worker under {TARGET_MB} MB, the total at most twice the first warm sample, no errors "
        f"{'PASS' if ok else 'FAIL'}"
    )
    return 0 if ok else 1


def _status(url: str) -> int:
    try:
        return fetch(url)
    except OSError as error:
        print(f"{url}: {error}", file=sys.stderr)
        return 0


if __name__ == "__main__":
    sys.exit(main())
