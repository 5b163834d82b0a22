"""Server-side time and size of the heaviest pages: the solution page of 12x12 boards, cold (the board
generated and solved in the request) and warm (the solution cached), and the projector.

    python3 bench/pages.py            # 20 seeds of 12x12, English
    python3 bench/pages.py -n 50 -l es

Targets: a 12x12 solution page renders in under 150 ms at the server (issue 5) and is under 300 KB of HTML
(issue 11). Pages are asked for as a browser asks (Accept-Encoding: gzip, deflate, br, zstd), so the times
include the compression; the sizes are the page's HTML and what goes on the wire with each encoding.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import brotli  # noqa: E402
from backports import zstd  # noqa: E402

from app import create_app  # noqa: E402

TARGET_MS = 150
TARGET_KB = 300
BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}
DECODE = {"zstd": zstd.decompress, "br": brotli.decompress, "gzip": gzip.decompress}


def timed(client, url: str) -> float:
    """Milliseconds to answer one request (in the process, as the server spends them), checked to be a 200."""
    start = time.perf_counter()
    response = client.get(url, headers=BROWSER)
    elapsed = (time.perf_counter() - start) * 1000
    if response.status_code != 200:
        raise SystemExit(f"{url}: {response.status_code}")
    return elapsed


def sizes(client, url: str) -> dict[str, int]:
    """Bytes of the page's HTML, and of the body sent with each encoding (checked to decode to the HTML)."""
    html = client.get(url).get_data()
    found = {"html": len(html)}
    for encoding, decode in DECODE.items():
        body = client.get(url, headers={"Accept-Encoding": encoding}).get_data()
        if decode(body) != html:
            raise SystemExit(f"{url}: the {encoding} body does not decode to the page")
        found[encoding] = len(body)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=20, help="seeds (default 20)")
    parser.add_argument("-l", "--language", default="en")
    args = parser.parse_args()
    app = create_app({"SECRET_KEY": "bench", "SOLVING_RATE": 0})  # every board new, from one client: no limit
    client = app.test_client()
    client.get(f"/play/{args.language}/WARMUP/solution?size=12x12")
    rows = {"solution, cold": [], "solution, warm": [], "solution, sorted by end": [], "projector, step 1": []}
    words, page_sizes = [], []
    for n in range(1, args.count + 1):
        base = f"/play/{args.language}/BENCH{n}"
        rows["solution, cold"].append(timed(client, f"{base}/solution?size=12x12"))
        rows["solution, warm"].append(timed(client, f"{base}/solution?size=12x12"))
        rows["solution, sorted by end"].append(timed(client, f"{base}/solution?size=12x12&sort=end"))
        rows["projector, step 1"].append(timed(client, f"{base}/projector?size=12x12&step=1"))
        page_sizes.append(sizes(client, f"{base}/solution?size=12x12"))
        with app.test_request_context():
            from views.boards import BoardRequest

            words.append(len(BoardRequest.from_url(args.language, f"BENCH{n}", {"size": "12x12"}).solution()))
    print(
        f"12x12 {args.language} boards, {args.count} seeds: {min(words)} to {max(words)} words "
        f"(median {statistics.median(words):.0f})"
    )
    print(f"{'ms at the server':26}{'median':>9}{'slowest':>9}")
    for name, times in rows.items():
        print(f"{name:26}{statistics.median(times):9.1f}{max(times):9.1f}")
    print(f"{'solution page, KB':26}{'median':>9}{'largest':>9}")
    for encoding in ("html", *DECODE):
        values = [found[encoding] / 1000 for found in page_sizes]
        print(f"{encoding if encoding != 'html' else 'HTML':26}{statistics.median(values):9.1f}{max(values):9.1f}")
    ok = max(rows["solution, cold"]) < TARGET_MS
    print(f"target: slowest 12x12 solution page (cold) < {TARGET_MS} ms {'PASS' if ok else 'FAIL'}")
    small = max(found["html"] for found in page_sizes) < TARGET_KB * 1000
    print(f"target: largest 12x12 solution page < {TARGET_KB} KB of HTML {'PASS' if small else 'FAIL'}")
    return 0 if ok and small else 1


if __name__ == "__main__":
    sys.exit(main())
