"""Limits of the web app, measured: the solver's time and memory on the largest web board (12x12).

    python3 bench/limits.py              # per language: 50 generated 12x12 seeds, 10 hostile typed 12x12 boards
    python3 bench/limits.py -n 300 -l en

- Solver: each board is generated and solved as the web app does it (`Solution.of` with the classroom filter),
  in every language with a dictionary; time without tracemalloc (the best of 3 runs per board), then the peak
  of Python allocations with tracemalloc in a pass of its own. Generated boards come from seeds; typed boards
  can be anything a person types, so hostile ones are measured too: the language's demo board tiled to
  12x12, and boards drawn at random from its letters.

(The cookie no longer holds rounds, only an anonymous player id; rounds live in the store, issue 11.)
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from ruzzle import Board, Lexicon, blocked_words, generate  # noqa: E402
from ruzzle.game import Solution  # noqa: E402
from views.boards import MAX_CODE_LENGTH, MAX_SIDE  # noqa: E402

SIDE = MAX_SIDE
TARGET_SOLVE_MS = 150  # the budget of a whole cold 12x12 page (issue 5), so the solver alone stays well inside it
TARGET_PEAK_MB = 16


def hostile_boards(language: str, count: int) -> list[tuple[str, Board]]:
    """Typed 12x12 boards meant to be expensive: the language's demo board tiled, and boards drawn at random
    from the demo board's letters (a real board's letters, the common ones as often as they are there)."""
    demo = Board.parse((ROOT / f"ruzzle/data/demo/{language}.board").read_text(), language=language)
    tiled = "\n".join(" ".join(str(demo[(r % demo.rows, c % demo.cols)]) for c in range(SIDE)) for r in range(SIDE))
    boards = [("demo board tiled", Board.parse(tiled, language=language))]
    letters = [tile.letter for tile in demo.tiles]
    rng = random.Random(12)
    for n in range(count - 1):
        text = "\n".join(" ".join(rng.choice(letters) for _ in range(SIDE)) for _ in range(SIDE))
        boards.append((f"demo letters {n + 1}", Board.parse(text, language=language)))
    return boards


def measure(make_board, lexicon: Lexicon, blocked, runs: int = 3) -> tuple[float, float, float, int]:
    """Milliseconds to make and to solve a board (the best of `runs`: other work on the machine only adds time);
    then, in a pass of its own, the tracemalloc peak (MB); and the word count."""
    make_times, solve_times = [], []
    for _ in range(runs):
        start = time.perf_counter()
        board = make_board()
        made = time.perf_counter()
        solution = Solution.of(board, lexicon, blocked)
        make_times.append(made - start)
        solve_times.append(time.perf_counter() - made)
    tracemalloc.start()
    tracemalloc.reset_peak()
    Solution.of(make_board(), lexicon, blocked)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return min(make_times) * 1000, min(solve_times) * 1000, peak, len(solution)


def solver_table(languages: list[str], seeds: int, hostile: int) -> tuple[list[str], list[tuple[str, str, int]], bool]:
    """Per language, generated and hostile typed 12x12 boards: make and solve times, allocation peak, words."""
    lines = [
        f"{'ms, MB':34}{'make worst':>11}{'solve median':>14}{'solve worst':>13}{'peak MB worst':>15}{'words max':>11}"
    ]
    rich: list[tuple[str, str, int]] = []
    worst_solve = worst_peak = 0.0
    for language in languages:
        lexicon, blocked = Lexicon.builtin(language), blocked_words(language)
        Solution.of(generate(language, "WARMUP", SIDE, SIDE), lexicon, blocked)  # node table paged in, code warmed
        groups = {
            f"{language} generated ({seeds} seeds)": [
                (f"LIMIT{n}", lambda n=n, language=language: generate(language, f"LIMIT{n}", SIDE, SIDE))
                for n in range(seeds)
            ],
            f"{language} typed, hostile ({hostile})": [
                (name, lambda board=board: board) for name, board in hostile_boards(language, hostile)
            ],
        }
        for title, boards in groups.items():
            rows = [(name, *measure(make, lexicon, blocked)) for name, make in boards]
            worst = max(rows, key=lambda row: row[2])
            lines.append(
                f"{title:34}{max(row[1] for row in rows):11.1f}"
                f"{statistics.median(row[2] for row in rows):14.1f}{worst[2]:13.1f}"
                f"{max(row[3] for row in rows):15.1f}{max(row[4] for row in rows):11d}"
                f"   slowest: {worst[0]} ({worst[4]} words)"
            )
            worst_solve, worst_peak = max(worst_solve, worst[2]), max(worst_peak, max(row[3] for row in rows))
            if "generated" in title:
                rich += [(language, row[0], row[4]) for row in rows]
    ok = worst_solve < TARGET_SOLVE_MS and worst_peak < TARGET_PEAK_MB
    lines.append(
        f"worst solve {worst_solve:.1f} ms (target under {TARGET_SOLVE_MS} ms), peak {worst_peak:.1f} MB "
        f"(target under {TARGET_PEAK_MB} MB): {'PASS' if ok else 'FAIL'}"
    )
    return lines, sorted(rich, key=lambda entry: -entry[2]), ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--seeds", type=int, default=50, help="generated 12x12 boards per language (default 50)")
    parser.add_argument("--hostile", type=int, default=10, help="hostile typed 12x12 boards per language (default 10)")
    parser.add_argument("-l", "--language", action="append", help="a language (default: every one with a dictionary)")
    args = parser.parse_args()
    languages = args.language or sorted(create_app({"SECRET_KEY": "x"}).extensions["ruzzle.lexicons"])
    print(
        f"limits: boards up to {MAX_SIDE}x{MAX_SIDE}, typed codes up to {MAX_CODE_LENGTH} characters, "
        f"request bodies up to {create_app({'SECRET_KEY': 'x'}).config['MAX_CONTENT_LENGTH']} bytes, "
        "a round holds at most its board's words"
    )
    print(f"\n## solver on the largest web board, {SIDE}x{SIDE}")
    lines, rich, solver_ok = solver_table(languages, args.seeds, args.hostile)
    print("\n".join(lines))
    return 0 if solver_ok else 1


if __name__ == "__main__":
    sys.exit(main())
