"""How rich and how fast generated boards are: words per board over many seeds, and time per board.

    python3 bench/generator.py                    # English 4x4, 1000 consecutive seeds, the latest generator
    python3 bench/generator.py -l all             # every language, 4x4, 1000 seeds each (about 10 minutes)
    python3 bench/generator.py -l all -g 1        # generator version 1 (the boards of URLs without `gen`)
    python3 bench/generator.py -l fr -n 200 -r 5 -c 5

Targets, checked on 4x4 boards with each language's built-in dictionary:
- issue 2, English: fewest words >= 120, median >= 200, every board generated in under 20 ms;
- issue 3, every language: fewest words >= 40% and median >= 70% of the words on that language's demo board;
- issue 14, every language (generator 2): median words of 5+ letters >= those on that language's demo board.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruzzle import LANGUAGES, Board, Lexicon, generate, solve  # noqa: E402
from ruzzle.generator import LATEST_VERSION  # noqa: E402

DEMO = Path(__file__).resolve().parent.parent / "ruzzle" / "data" / "demo"
FEWEST_SHARE = 0.40  # of the demo board's word count
MEDIAN_SHARE = 0.70


def measure(
    language: str,
    count: int,
    rows: int,
    cols: int,
    lexicon: Lexicon,
    richness: dict | None = None,
    version: int = LATEST_VERSION,
) -> tuple[list[int], list[float]]:
    """Word counts and generation times (ms) of the boards of seeds 1..count; with `richness`, also each
    board's words of 5 letters or more, best score and vowels (lists under "long", "best" and "vowels")."""
    generate(language, "WARMUP", rows, cols, version=version)  # loads the frozen data once, as a server does
    words, times = [], []
    for n in range(1, count + 1):
        start = time.perf_counter()
        board = generate(language, str(n), rows, cols, version=version)
        times.append((time.perf_counter() - start) * 1000)
        found = solve(board, lexicon)
        words.append(len(found))
        if richness is not None:
            richness.setdefault("long", []).append(sum(len(f.word) >= 5 for f in found))
            richness.setdefault("best", []).append(max((f.score for f in found), default=0))
            richness.setdefault("vowels", []).append(sum(letter in "AEIOU" for letter in board.letters))
            richness.setdefault("U", []).append(board.letters.count("U"))
    return words, times


def checks(
    language: str, demo: int, words: list[int], times: list[float], demo_long: int = 0, long: list[int] | None = None
) -> list[tuple[str, bool]]:
    """The targets of a 4x4 run, each with whether it holds."""
    median = statistics.median(words)
    result = [
        (f"fewest >= {FEWEST_SHARE:.0%} of demo ({FEWEST_SHARE * demo:.0f})", min(words) >= FEWEST_SHARE * demo),
        (f"median >= {MEDIAN_SHARE:.0%} of demo ({MEDIAN_SHARE * demo:.0f})", median >= MEDIAN_SHARE * demo),
    ]
    if long is not None:
        result.append((f"median 5+ letters >= demo ({demo_long})", statistics.median(long) >= demo_long))
    if language == "en":
        result += [
            ("fewest >= 120", min(words) >= 120),
            ("median >= 200", median >= 200),
            ("slowest < 20 ms", max(times) < 20),
        ]
    return result


def report(
    language: str, count: int, rows: int, cols: int, version: int = LATEST_VERSION, rows_out: list | None = None
) -> bool:
    """Print one language's figures (and its targets on 4x4); whether every target holds. With `rows_out`, also
    append the language's line of the summary table."""
    lexicon = Lexicon.builtin(language)
    demo_found = solve(Board.parse((DEMO / f"{language}.board").read_text(encoding="utf-8"), language), lexicon)
    demo = len(demo_found)
    richness: dict = {}
    words, times = measure(language, count, rows, cols, lexicon, richness, version)
    cuts = statistics.quantiles(words, n=20)
    median = statistics.median(words)
    print(f"generator v{version}: {language} {rows}x{cols}, seeds 1..{count}, dictionary {lexicon.source}")
    demo_long = sum(len(f.word) >= 5 for f in demo_found)
    print(
        f"demo board ({language}): {demo} words, {demo_long} of 5+ letters, best score "
        f"{max(f.score for f in demo_found)}"
    )
    print(
        f"{'words per board':24} fewest {min(words):5d} ({min(words) / demo:4.0%})   5% {cuts[0]:7.1f}"
        f"   median {median:7.1f} ({median / demo:4.0%})   95% {cuts[-1]:7.1f}   most {max(words):5d}"
    )
    for name, values in (("words of 5+ letters", richness["long"]), ("best score", richness["best"])):
        print(
            f"{name:24} fewest {min(values):5d}   median {statistics.median(values):7.1f}"
            f"   95% {statistics.quantiles(values, n=20)[-1]:7.1f}   most {max(values):5d}"
        )
    print(
        f"{'ms per board':24} median {statistics.median(times):7.2f}"
        f"   95% {statistics.quantiles(times, n=20)[-1]:7.2f}   slowest {max(times):7.2f}"
    )
    cells = rows * cols
    vowels, u = statistics.mean(richness["vowels"]), statistics.mean(richness["U"])
    demo_board = Board.parse((DEMO / f"{language}.board").read_text(encoding="utf-8"), language)
    demo_vowels = sum(letter in "AEIOU" for letter in demo_board.letters)
    print(
        f"{'vowels per board':24} mean {vowels:5.2f} of {cells} (demo board {demo_vowels})"
        f"   U: {100 * u / cells:.1f}% of tiles"
    )
    if rows_out is not None:

        def cut(values: list[int]) -> str:
            return f"{min(values)} / {statistics.median(values):g} / {statistics.quantiles(values, n=20)[-1]:g}"

        rows_out.append(
            f"| {language} | {demo} / {demo_long} / {max(f.score for f in demo_found)} | {cut(words)} | "
            f"{cut(richness['long'])} | {statistics.median(richness['best']):g} | "
            f"{vowels:.1f} ({demo_vowels}) | "
            f"{100 * u / cells:.1f}% | {statistics.median(times):.1f} |"
        )
    if (rows, cols) != (4, 4):
        return True
    results = checks(language, demo, words, times, demo_long, richness["long"] if version >= 2 else None)
    print("targets: " + " | ".join(f"{name} {'PASS' if ok else 'FAIL'}" for name, ok in results))
    return all(ok for _, ok in results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-l", "--language", default="en", help="a language code, or all")
    parser.add_argument("-n", "--count", type=int, default=1000, help="number of consecutive seeds (1..N)")
    parser.add_argument("-r", "--rows", type=int, default=4)
    parser.add_argument("-c", "--cols", type=int, default=4)
    parser.add_argument(
        "-g", "--generator", type=int, default=LATEST_VERSION, help="generator version (default latest)"
    )
    args = parser.parse_args()
    languages = list(LANGUAGES) if args.language == "all" else [args.language]
    passed = {}
    table: list[str] = []
    for language in languages:
        passed[language] = report(language, args.count, args.rows, args.cols, args.generator, table)
        print()
    if len(languages) > 1 and (args.rows, args.cols) == (4, 4):
        print("all targets: " + " ".join(f"{code} {'PASS' if ok else 'FAIL'}" for code, ok in passed.items()))
    print(f"\ngenerator v{args.generator}, {args.rows}x{args.cols}, seeds 1..{args.count}:\n")
    print(
        "| | real (demo) board: words / 5+ letters / best | words: fewest / median / 95% "
        "| 5+ letters: fewest / median / 95% | best score: median | vowels: mean (demo) | U | ms per board, median |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
