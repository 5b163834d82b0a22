"""Limits of the web app, measured: the solver's time and memory on the largest web board (12x12), and the cookie.

    python3 bench/limits.py              # 100 generated 12x12 seeds, 20 hostile typed 12x12 boards
    python3 bench/limits.py -n 300

- Solver: each board is generated and solved as the web app does it (`Solution.of` with the classroom filter);
  time without tracemalloc (the best of 3 runs per board), then the peak of Python allocations with tracemalloc in a second pass. Generated
  boards come from seeds; typed boards can be anything a person types, so hostile ones are measured too:
  the demo board tiled to 12x12, and boards drawn from the ten letters that make the most words.
- Cookie: the four richest generated 12x12 boards kept at once (ROUNDS_IN_COOKIE=4), their words found (all,
  every other, a random half: the last compresses worst), the last word submitted through the Flask app and
  the size of its Set-Cookie header measured (browsers keep 4096 bytes of a cookie).
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
from ruzzle.game import Round, Solution  # noqa: E402
from views.boards import MAX_CODE_LENGTH, MAX_SIDE, BoardRequest  # noqa: E402

SIDE = MAX_SIDE
COOKIE_LIMIT = 4096
TARGET_SOLVE_MS = 150  # the budget of a whole cold 12x12 page (issue 5), so the solver alone stays well inside it
TARGET_PEAK_MB = 16
RICH_LETTERS = "ESAIRNTOLC"


def hostile_boards(count: int) -> list[tuple[str, Board]]:
    """Typed 12x12 boards meant to be expensive: the demo board tiled, and boards of the richest letters."""
    demo = Board.parse((ROOT / "ruzzle/data/demo/en.board").read_text(), language="en")
    tiled = "\n".join(" ".join(str(demo[(r % demo.rows, c % demo.cols)]) for c in range(SIDE)) for r in range(SIDE))
    boards = [("demo board tiled", Board.parse(tiled, language="en"))]
    rng = random.Random(12)
    for n in range(count - 1):
        text = "\n".join(" ".join(rng.choice(RICH_LETTERS) for _ in range(SIDE)) for _ in range(SIDE))
        boards.append((f"rich letters {n + 1}", Board.parse(text, language="en")))
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


def solver_table(seeds: int, hostile: int) -> tuple[list[str], list[tuple[str, int]], bool]:
    lexicon, blocked = Lexicon.builtin("en"), blocked_words("en")
    Solution.of(generate("en", "WARMUP", SIDE, SIDE), lexicon, blocked)  # node table paged in, code warmed
    groups = {
        f"generated 12x12 ({seeds} seeds)": [(f"LIMIT{n}", lambda n=n: generate("en", f"LIMIT{n}", SIDE, SIDE))
                                              for n in range(seeds)],
        f"typed 12x12, hostile ({hostile})": [(name, lambda board=board: board)
                                              for name, board in hostile_boards(hostile)],
    }
    lines = [f"{'ms, MB':30}{'make worst':>11}{'solve median':>14}{'solve worst':>13}{'peak MB worst':>15}"
             f"{'words max':>11}"]
    rich: list[tuple[str, int]] = []
    worst_solve = worst_peak = 0.0
    for title, boards in groups.items():
        rows = [(name, *measure(make, lexicon, blocked)) for name, make in boards]
        solve_times = [row[2] for row in rows]
        worst = max(rows, key=lambda row: row[2])
        lines.append(f"{title:30}{max(row[1] for row in rows):11.1f}{statistics.median(solve_times):14.1f}"
                     f"{worst[2]:13.1f}{max(row[3] for row in rows):15.1f}{max(row[4] for row in rows):11d}")
        lines.append(f"{'':30}slowest: {worst[0]} ({worst[4]} words)")
        worst_solve, worst_peak = max(worst_solve, worst[2]), max(worst_peak, max(row[3] for row in rows))
        if title.startswith("generated"):
            rich = sorted(((row[0], row[4]) for row in rows), key=lambda seed_words: -seed_words[1])
    ok = worst_solve < TARGET_SOLVE_MS and worst_peak < TARGET_PEAK_MB
    lines.append(f"targets: worst solve < {TARGET_SOLVE_MS} ms, peak < {TARGET_PEAK_MB} MB: {'PASS' if ok else 'FAIL'}")
    return lines, rich, ok


def cookie_table(richest: list[str]) -> tuple[list[str], bool]:
    """The Set-Cookie size with four rounds of the richest boards kept, for three ways of finding their words."""
    app = create_app({"SECRET_KEY": "bench", "TESTING": True})
    rounds_kept = app.config["ROUNDS_IN_COOKIE"]
    seeds = richest[:rounds_kept]
    with app.test_request_context():
        boards = [BoardRequest.from_url("en", seed, {"size": f"{SIDE}x{SIDE}", "time": "0"}) for seed in seeds]
        solutions = [board.solution() for board in boards]
    patterns = {
        "every word": lambda count: set(range(count)),
        "every other word": lambda count: set(range(0, count, 2)),
        "a random half": lambda count: set(random.Random(count).sample(range(count), count // 2)),
    }
    lines = [f"{rounds_kept} rounds kept, boards {', '.join(f'{s} ({len(x)} words)' for s, x in zip(seeds, solutions))}",
             f"{'found':22}{'Set-Cookie bytes':>18}{'of 4096':>9}"]
    worst = 0
    for name, pattern in patterns.items():
        client = app.test_client()
        with client.session_transaction() as session:
            rounds = {}
            for board, solution in zip(boards, solutions):
                found = pattern(len(solution))
                if board is boards[-1]:
                    found.discard(max(found))
                rounds[board.round_key] = Round(int(time.time()), 0, frozenset(found)).to_token()
            session["rounds"] = rounds
        last = solutions[-1][max(pattern(len(solutions[-1])))].word
        response = client.post(f"/play/en/{seeds[-1]}/words?size={SIDE}x{SIDE}&time=0", data={"word": last},
                               headers={"HX-Request": "true"})
        header = next(v for v in response.headers.getlist("Set-Cookie") if v.startswith("session="))
        worst = max(worst, len(header))
        lines.append(f"{name:22}{len(header):18d}{len(header) / COOKIE_LIMIT:9.0%}")
    ok = worst < COOKIE_LIMIT
    lines.append(f"target: every Set-Cookie < {COOKIE_LIMIT} bytes: {'PASS' if ok else 'FAIL'}")
    return lines, ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--seeds", type=int, default=100, help="generated 12x12 boards (default 100)")
    parser.add_argument("--hostile", type=int, default=20, help="hostile typed 12x12 boards (default 20)")
    args = parser.parse_args()
    print(f"limits: boards up to {MAX_SIDE}x{MAX_SIDE}, typed codes up to {MAX_CODE_LENGTH} characters, "
          f"request bodies up to {create_app({'SECRET_KEY': 'x'}).config['MAX_CONTENT_LENGTH']} bytes, "
          "a round holds at most its board's words")
    print("\n## solver on the largest web board (English)")
    lines, rich, solver_ok = solver_table(args.seeds, args.hostile)
    print("\n".join(lines))
    print("\n## the cookie with the richest boards")
    lines, cookie_ok = cookie_table([seed for seed, _ in rich])
    print("\n".join(lines))
    return 0 if solver_ok and cookie_ok else 1


if __name__ == "__main__":
    sys.exit(main())
