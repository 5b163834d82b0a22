"""Server-side time of the heaviest pages: the solution page of 12x12 boards, cold (the board generated and
solved in the request) and warm (the solution cached), and the projector.

    python3 bench/pages.py            # 20 seeds of 12x12, English
    python3 bench/pages.py -n 50 -l en

Target (issue 5): a 12x12 solution page renders in under 150 ms at the server.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app  # noqa: E402

TARGET_MS = 150


def timed(client, url: str) -> float:
    """Milliseconds to answer one request (in the process, as the server spends them), checked to be a 200."""
    start = time.perf_counter()
    response = client.get(url)
    elapsed = (time.perf_counter() - start) * 1000
    if response.status_code != 200:
        raise SystemExit(f"{url}: {response.status_code}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=20, help="seeds (default 20)")
    parser.add_argument("-l", "--language", default="en")
    args = parser.parse_args()
    app = create_app({"SECRET_KEY": "bench"})
    client = app.test_client()
    client.get(f"/play/{args.language}/WARMUP/solution?size=12x12")
    rows = {"solution, cold": [], "solution, warm": [], "solution, sorted by end": [], "projector, step 1": []}
    words = []
    for n in range(1, args.count + 1):
        base = f"/play/{args.language}/BENCH{n}"
        rows["solution, cold"].append(timed(client, f"{base}/solution?size=12x12"))
        rows["solution, warm"].append(timed(client, f"{base}/solution?size=12x12"))
        rows["solution, sorted by end"].append(timed(client, f"{base}/solution?size=12x12&sort=end"))
        rows["projector, step 1"].append(timed(client, f"{base}/projector?size=12x12&step=1"))
        with app.test_request_context():
            from views.boards import BoardRequest
            words.append(len(BoardRequest.from_url(args.language, f"BENCH{n}", {"size": "12x12"}).solution()))
    print(f"12x12 {args.language} boards, {args.count} seeds: {min(words)} to {max(words)} words "
          f"(median {statistics.median(words):.0f})")
    print(f"{'ms at the server':26}{'median':>9}{'slowest':>9}")
    for name, times in rows.items():
        print(f"{name:26}{statistics.median(times):9.1f}{max(times):9.1f}")
    ok = max(rows["solution, cold"]) < TARGET_MS
    print(f"target: slowest 12x12 solution page (cold) < {TARGET_MS} ms {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
