"""How rich and how fast generated boards are: words per board over many seeds, and time per board.

    python3 bench/generator.py                    # English 4x4, 1000 consecutive seeds
    python3 bench/generator.py -l all             # every language, 4x4, 1000 seeds each (about 2 minutes)
    python3 bench/generator.py -l fr -n 200 -r 5 -c 5

Targets, checked on 4x4 boards with each language's built-in dictionary:
- issue 2, English: fewest words >= 120, median >= 200, every board generated in under 20 ms;
- issue 3, every language: fewest words >= 40% and median >= 70% of the words on that language's demo board.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruzzle import LANGUAGES, Board, Lexicon, generate, solve  # noqa: E402

DEMO = Path(__file__).resolve().parent.parent / "ruzzle" / "data" / "demo"
FEWEST_SHARE = 0.40  # of the demo board's word count
MEDIAN_SHARE = 0.70


def measure(language: str, count: int, rows: int, cols: int, lexicon: Lexicon,
            richness: dict | None = None) -> tuple[list[int], list[float]]:
    """Word counts and generation times (ms) of the boards of seeds 1..count; with `richness`, also each
    board's words of 5 letters or more and best score (lists under "long" and "best")."""
    generate(language, "WARMUP", rows, cols)  # loads the generator's frozen data once, as a server does
    words, times = [], []
    for n in range(1, count + 1):
        start = time.perf_counter()
        board = generate(language, str(n), rows, cols)
        times.append((time.perf_counter() - start) * 1000)
        found = solve(board, lexicon)
        words.append(len(found))
        if richness is not None:
            richness.setdefault("long", []).append(sum(len(f.word) >= 5 for f in found))
            richness.setdefault("best", []).append(max((f.score for f in found), default=0))
    return words, times


def checks(language: str, demo: int, words: list[int], times: list[float]) -> list[tuple[str, bool]]:
    """The targets of a 4x4 run, each with whether it holds."""
    median = statistics.median(words)
    result = [(f"fewest >= {FEWEST_SHARE:.0%} of demo ({FEWEST_SHARE * demo:.0f})", min(words) >= FEWEST_SHARE * demo),
              (f"median >= {MEDIAN_SHARE:.0%} of demo ({MEDIAN_SHARE * demo:.0f})", median >= MEDIAN_SHARE * demo)]
    if language == "en":
        result += [("fewest >= 120", min(words) >= 120), ("median >= 200", median >= 200),
                   ("slowest < 20 ms", max(times) < 20)]
    return result


def report(language: str, count: int, rows: int, cols: int) -> bool:
    """Print one language's figures (and its targets on 4x4); whether every target holds."""
    lexicon = Lexicon.builtin(language)
    demo_found = solve(Board.parse((DEMO / f"{language}.board").read_text(encoding="utf-8"), language), lexicon)
    demo = len(demo_found)
    richness: dict = {}
    words, times = measure(language, count, rows, cols, lexicon, richness)
    cuts = statistics.quantiles(words, n=20)
    median = statistics.median(words)
    print(f"generator: {language} {rows}x{cols}, seeds 1..{count}, dictionary {lexicon.source}")
    demo_long = sum(len(f.word) >= 5 for f in demo_found)
    print(f"demo board ({language}): {demo} words, {demo_long} of 5+ letters, best score "
          f"{max(f.score for f in demo_found)}")
    print(f"{'words per board':24} fewest {min(words):5d} ({min(words) / demo:4.0%})   5% {cuts[0]:7.1f}"
          f"   median {median:7.1f} ({median / demo:4.0%})   95% {cuts[-1]:7.1f}   most {max(words):5d}")
    for name, values in (("words of 5+ letters", richness["long"]), ("best score", richness["best"])):
        print(f"{name:24} fewest {min(values):5d}   median {statistics.median(values):7.1f}"
              f"   95% {statistics.quantiles(values, n=20)[-1]:7.1f}   most {max(values):5d}")
    print(f"{'ms per board':24} median {statistics.median(times):7.2f}   95% {statistics.quantiles(times, n=20)[-1]:7.2f}"
          f"   slowest {max(times):7.2f}")
    if (rows, cols) != (4, 4):
        return True
    results = checks(language, demo, words, times)
    print("targets: " + " | ".join(f"{name} {'PASS' if ok else 'FAIL'}" for name, ok in results))
    return all(ok for _, ok in results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-l", "--language", default="en", help="a language code, or all")
    parser.add_argument("-n", "--count", type=int, default=1000, help="number of consecutive seeds (1..N)")
    parser.add_argument("-r", "--rows", type=int, default=4)
    parser.add_argument("-c", "--cols", type=int, default=4)
    args = parser.parse_args()
    languages = list(LANGUAGES) if args.language == "all" else [args.language]
    passed = {}
    for language in languages:
        passed[language] = report(language, args.count, args.rows, args.cols)
        print()
    if len(languages) > 1 and (args.rows, args.cols) == (4, 4):
        print("all targets: " + " ".join(f"{code} {'PASS' if ok else 'FAIL'}" for code, ok in passed.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
