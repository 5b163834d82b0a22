"""Time our solver against elzzur's on the same boards and dictionary; print medians and ratios.

    python3 bench/solver.py             # full run: 21 4x4 boards, the demo board tiled to 24x24 and 50x50
    python3 bench/solver.py --quick     # fewer repetitions, no 50x50
    python3 bench/solver.py --runs 30   # repetitions per 4x4 board (default 15, quick 5)

elzzur 0.0.1.0 (the public solver on PyPI) runs in its own virtual environment, bench/.venv-elzzur,
created on first use. Both solvers read elzzur's own `en.marisa`. Only the solve call is timed:
dictionaries are loaded and boards parsed beforehand. Exit status 1 if the solvers find different words.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle import Board, Lexicon, generate, solve  # noqa: E402

VENV = ROOT / "bench" / ".venv-elzzur"
VENV_PYTHON = VENV / "bin" / "python"
PINNED = {"elzzur": "0.0.1.0", "marisa-trie": "1.4.1"}
REQUIREMENTS = tuple(f"{name}=={version}" for name, version in PINNED.items())
DEMO_BOARD = ROOT / "ruzzle" / "data" / "demo" / "en.board"
SEEDS = tuple(f"BENCH{n:02d}" for n in range(1, 21))
# How many times faster than elzzur the solver must be, per board size (bench/README.md, "solver.py").
TARGETS = {"4x4": 15, "24x24": 50, "50x50": 50}

# Runs inside elzzur's venv: argv = dictionary, board file, runs; prints the solve times and the words.
ELZZUR_DRIVER = """
import json, sys, time
from elzzur.board import Board
from elzzur.mtdictionary import MTDictionary
from elzzur.solver import Solver
dictionary_path, board_path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
dictionary = MTDictionary(dictionary_path)
board = Board("en").read_board_file(board_path)
Solver(board, dictionary).solve()  # one untimed warm-up, as on our side
times = []
for _ in range(runs):
    solver = Solver(board, dictionary)
    start = time.perf_counter()
    found = solver.solve()
    times.append(time.perf_counter() - start)
print(json.dumps({"times": times, "words": sorted(entry[0] for entry in found)}))
"""

# Prints elzzur's version, marisa-trie's version, Python's version and the package folder.
ELZZUR_PROBE = """
import importlib.metadata as m, json, os, platform, elzzur, marisa_trie
print(json.dumps([m.version("elzzur"), m.version("marisa-trie"), platform.python_version(),
                  os.path.dirname(elzzur.__file__)]))
"""


@dataclass(frozen=True)
class Elzzur:
    """elzzur's installation: versions and where its English dictionary lies."""

    version: str
    marisa_version: str
    python_version: str
    dictionary: Path


@dataclass(frozen=True)
class Plan:
    """How many times each solver solves each kind of board, and which large boards to make."""

    small_runs: int
    large_runs_elzzur: int
    large_runs_ours: int
    large_sizes: tuple[int, ...]


@dataclass(frozen=True)
class Case:
    """One board to solve, with its label in the table and the group it counts in."""

    name: str
    group: str
    board: Board


@dataclass(frozen=True)
class Result:
    """Median solve times of both solvers on one board, in seconds, and the number of words."""

    name: str
    group: str
    cells: int
    words: int
    elzzur: float
    ours: float

    @property
    def ratio(self) -> float:
        """How many times faster ours is than elzzur."""
        return self.elzzur / self.ours


class WordSetMismatch(Exception):
    """The two solvers found different words on a board, so their times do not compare equal work."""


def elzzur_installation() -> Elzzur:
    """elzzur in bench/.venv-elzzur, installing it there first if the venv is missing or broken."""
    found = probe_elzzur()
    if found is None or [found.version, found.marisa_version] != list(PINNED.values()):
        progress(f"installing {' '.join(REQUIREMENTS)} into {VENV}")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV_PYTHON), "-m", "pip", "install", "-q", *REQUIREMENTS], check=True)
        found = probe_elzzur()
    if found is None:
        sys.exit(f"error: elzzur does not import in {VENV}; delete that folder and run again")
    return found


def probe_elzzur() -> Elzzur | None:
    """elzzur's versions and dictionary as the venv's Python reports them, or None if it fails."""
    if not VENV_PYTHON.exists():
        return None
    done = subprocess.run([str(VENV_PYTHON), "-c", ELZZUR_PROBE], capture_output=True, text=True)
    if done.returncode != 0:
        return None
    version, marisa_version, python_version, package = json.loads(done.stdout)
    return Elzzur(version, marisa_version, python_version, Path(package) / "res" / "en.marisa")


def run_elzzur(elzzur_dictionary: Path, board_file: Path, runs: int) -> tuple[list[float], set[str]]:
    """elzzur's solve times and words on a board file, measured in a subprocess of its venv."""
    command = [str(VENV_PYTHON), "-c", ELZZUR_DRIVER, str(elzzur_dictionary), str(board_file), str(runs)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: elzzur failed on {board_file}:\n{done.stderr}")
    report = json.loads(done.stdout)
    return report["times"], set(report["words"])


def run_ours(board: Board, lexicon: Lexicon, runs: int) -> tuple[list[float], set[str]]:
    """Our solve times and words on a board, with the lexicon's node table already built."""
    solve(board, lexicon)  # one untimed warm-up, as on elzzur's side
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        found = solve(board, lexicon)
        times.append(time.perf_counter() - start)
    return times, {entry.word for entry in found}


def check_same_words(name: str, theirs: set[str], ours: set[str]) -> None:
    """Raise WordSetMismatch, naming a few differing words, unless both solvers found the same words."""
    if theirs == ours:
        return
    only_theirs = sorted(theirs - ours)
    only_ours = sorted(ours - theirs)
    raise WordSetMismatch(
        f"word sets differ on {name}: elzzur {len(theirs)} words, ours {len(ours)}; "
        f"only elzzur ({len(only_theirs)}): {only_theirs[:10]}; only ours ({len(only_ours)}): {only_ours[:10]}"
    )


def measure(case: Case, runs: tuple[int, int], lexicon: Lexicon, elzzur: Elzzur, folder: Path) -> Result:
    """Solve one board with both solvers, check they agree, and keep the median times."""
    board_file = folder / f"{case.name.replace(' ', '-')}.board"
    board_file.write_text(str(case.board) + "\n", encoding="utf-8")
    progress(f"{case.name}: elzzur x{runs[0]}, ours x{runs[1]}")
    their_times, their_words = run_elzzur(elzzur.dictionary, board_file, runs[0])
    our_times, our_words = run_ours(case.board, lexicon, runs[1])
    check_same_words(case.name, their_words, our_words)
    cells = case.board.rows * case.board.cols
    median = statistics.median
    return Result(case.name, case.group, cells, len(our_words), median(their_times), median(our_times))


def tiled(board: Board, rows: int, cols: int) -> Board:
    """A rows x cols board whose tile (r, c) is the given board's tile (r % its rows, c % its cols)."""
    tiles = tuple(board[r % board.rows, c % board.cols] for r in range(rows) for c in range(cols))
    return Board(rows, cols, tiles, board.language)


def bench_cases(lexicon: Lexicon, plan: Plan) -> tuple[list[Case], str]:
    """The boards to solve, in table order, and where the generated 4x4 boards came from."""
    demo = Board.parse(DEMO_BOARD.read_text(encoding="utf-8"), language="en")
    cases = [Case("en demo", "4x4", demo)]
    cases += [Case(seed, "4x4", generate("en", seed, rows=4, cols=4)) for seed in SEEDS]
    cases += [Case(f"demo tiled {n}x{n}", f"{n}x{n}", tiled(demo, n, n)) for n in plan.large_sizes]
    return cases, "ruzzle.generator.generate"


def small_summary(results: list[Result]) -> Result:
    """The 4x4 line: median over boards of each solver's per-board median (and of the word counts)."""
    small = [r for r in results if r.group == "4x4"]
    median = statistics.median
    return Result(
        f"4x4 median of {len(small)}",
        "4x4",
        16,
        round(median(r.words for r in small)),
        median(r.elzzur for r in small),
        median(r.ours for r in small),
    )


def table(results: list[Result], summary: Result) -> list[str]:
    """The results as aligned text: one line per board, the 4x4 summary after the 4x4 boards."""
    lines = [f"{'board':<22}{'cells':>6}{'words':>7}{'elzzur ms':>12}{'ours ms':>10}{'ratio':>9}"]
    rows = [r for r in results if r.group == "4x4"] + [summary] + [r for r in results if r.group != "4x4"]
    for r in rows:
        if r is summary:
            lines.append("-" * len(lines[0]))
        lines.append(
            f"{r.name:<22}{r.cells:>6}{r.words:>7}{r.elzzur * 1e3:>12.2f}{r.ours * 1e3:>10.3f}{r.ratio:>8.1f}x"
        )
        if r is summary:
            lines.append("-" * len(lines[0]))
    return lines


def targets_line(results: list[Result], summary: Result) -> str:
    """Each target ratio with PASS or FAIL (or 'not run')."""
    by_group = {r.group: r for r in results if r.group != "4x4"} | {"4x4": summary}
    parts = []
    for group, target in TARGETS.items():
        result = by_group.get(group)
        if result is None:
            parts.append(f"{group} >= {target}x not run")
        else:
            verdict = "PASS" if result.ratio >= target else "FAIL"
            parts.append(f"{group} >= {target}x {verdict} ({result.ratio:.1f}x)")
    return "targets: " + " | ".join(parts)


def prepare_lexicon(path: Path) -> tuple[Lexicon, float, float, str]:
    """Our lexicon of elzzur's dictionary, with the time to load it and to make its node table ready."""
    start = time.perf_counter()
    lexicon = Lexicon.load(path)
    loaded = time.perf_counter()
    lexicon.nodes  # noqa: B018 -- the property builds the table on first use; this is the one-off cost
    ready = time.perf_counter()
    how = (
        f"memory-mapped from {path.with_suffix('.nodes').name}"
        if path.with_suffix(".nodes").exists()
        else f"built in memory from the trie (no {path.with_suffix('.nodes').name} beside the dictionary)"
    )
    return lexicon, loaded - start, ready - loaded, how


def git_commit() -> str:
    """The repository's short commit id, with '+changes' if ruzzle/ differs from it (new files count)."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+changes" if git("status", "--porcelain", "--", "ruzzle") else "")


def progress(message: str) -> None:
    """A progress note on stderr, so that stdout holds only the report."""
    print(f"  ... {message}", file=sys.stderr, flush=True)


def make_plan(quick: bool, runs: int | None) -> Plan:
    """The repetitions for a full or a quick run; --runs sets the 4x4 repetitions."""
    if quick:
        return Plan(runs or 5, 1, 3, (24,))
    return Plan(runs or 15, 3, 7, (24, 50))


def parse_args() -> argparse.Namespace:
    """The command line options."""
    parser = argparse.ArgumentParser(description="Time our solver against elzzur's on the same boards.")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, skip the 50x50 board")
    parser.add_argument("--runs", type=int, metavar="N", help="repetitions per 4x4 board (default 15, quick 5)")
    args = parser.parse_args()
    if args.runs is not None and args.runs < 1:
        parser.error("--runs needs a number of 1 or more")
    return args


def main() -> int:
    """Run the benchmark and print the report; 1 if the solvers disagree on a board's words."""
    args = parse_args()
    plan = make_plan(args.quick, args.runs)
    elzzur = elzzur_installation()
    lexicon, load_time, nodes_time, nodes_how = prepare_lexicon(elzzur.dictionary)
    cases, source = bench_cases(lexicon, plan)
    print(f"Solver benchmark: ruzzle (commit {git_commit()}) vs elzzur {elzzur.version}, same boards, same dictionary")
    print(
        f"Python {platform.python_version()} (ours), {elzzur.python_version} (elzzur); "
        f"marisa-trie {importlib.metadata.version('marisa-trie')} (ours), {elzzur.marisa_version} (elzzur)"
    )
    print(f"dictionary: elzzur's {elzzur.dictionary.name} ({len(lexicon)} keys), {elzzur.dictionary}")
    print(f"4x4 boards: the en demo board + {len(SEEDS)} from {source}, seeds {SEEDS[0]}..{SEEDS[-1]}")
    print(
        f"runs: 4x4 {plan.small_runs} per board per solver (median per board, then median over boards); "
        f"large boards elzzur {plan.large_runs_elzzur}, ours {plan.large_runs_ours} (median)"
    )
    print(f"Lexicon.load: {load_time * 1e3:.1f} ms")
    print(f"node table, one-off, not in the solve times below: {nodes_time * 1e3:.1f} ms, {nodes_how}")
    print()
    results = []
    with tempfile.TemporaryDirectory(prefix="ruzzle-bench-") as folder:
        for case in cases:
            small = case.group == "4x4"
            runs = (plan.small_runs,) * 2 if small else (plan.large_runs_elzzur, plan.large_runs_ours)
            try:
                results.append(measure(case, runs, lexicon, elzzur, Path(folder)))
            except WordSetMismatch as error:
                print(f"error: {error}", file=sys.stderr)
                return 1
    summary = small_summary(results)
    print("\n".join(table(results, summary)))
    print()
    print(targets_line(results, summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
