"""How rich and how fast generated boards are: words per board over many seeds, and time per board.

    python3 bench/generator.py                    # English 4x4, 1000 consecutive seeds
    python3 bench/generator.py -l en -n 200 -r 5 -c 5

Targets (issue 2): English 4x4 over 1000 seeds, with the built-in dictionary: fewest words >= 120,
median >= 200, every board generated in under 20 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruzzle import Board, Lexicon, generate, solve  # noqa: E402

DEMO = Path(__file__).resolve().parent.parent / "ruzzle" / "data" / "demo"


def measure(language: str, count: int, rows: int, cols: int, lexicon: Lexicon) -> tuple[list[int], list[float]]:
    """Word counts and generation times (ms) of the boards of seeds 1..count."""
    generate(language, "WARMUP", rows, cols)  # loads the generator's frozen data once, as a server does
    words, times = [], []
    for n in range(1, count + 1):
        start = time.perf_counter()
        board = generate(language, str(n), rows, cols)
        times.append((time.perf_counter() - start) * 1000)
        words.append(len(solve(board, lexicon)))
    return words, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-l", "--language", default="en")
    parser.add_argument("-n", "--count", type=int, default=1000, help="number of consecutive seeds (1..N)")
    parser.add_argument("-r", "--rows", type=int, default=4)
    parser.add_argument("-c", "--cols", type=int, default=4)
    args = parser.parse_args()
    lexicon = Lexicon.builtin(args.language)
    demo = len(solve(Board.parse((DEMO / f"{args.language}.board").read_text(), args.language), lexicon))
    words, times = measure(args.language, args.count, args.rows, args.cols, lexicon)
    cuts = statistics.quantiles(words, n=20)
    print(f"generator: {args.language} {args.rows}x{args.cols}, seeds 1..{args.count}, dictionary {lexicon.source}")
    print(f"demo board ({args.language}): {demo} words")
    print(f"{'words per board':24} fewest {min(words):5d}   5% {cuts[0]:7.1f}   median {statistics.median(words):7.1f}"
          f"   95% {cuts[-1]:7.1f}   most {max(words):5d}")
    print(f"{'ms per board':24} median {statistics.median(times):7.2f}   95% {statistics.quantiles(times, n=20)[-1]:7.2f}"
          f"   slowest {max(times):7.2f}")
    if (args.language, args.rows, args.cols) == ("en", 4, 4):
        checks = [("fewest >= 120", min(words) >= 120), ("median >= 200", statistics.median(words) >= 200),
                  ("slowest < 20 ms", max(times) < 20)]
        print("targets: " + " | ".join(f"{name} {'PASS' if ok else 'FAIL'}" for name, ok in checks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
