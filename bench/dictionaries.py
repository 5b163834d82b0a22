"""How fast each built-in dictionary opens in a fresh process, what it shares, and what it weighs on disk.

    python3 bench/dictionaries.py             # every language, 15 fresh processes each
    python3 bench/dictionaries.py --runs 30

Per language: the median time of `Lexicon.builtin(code)` plus one lookup and the node table's first row,
each in a new Python process (imports done before the clock starts); the process's private memory
(`Private_Dirty` of /proc/self/smaps_rollup, memory written by this process) before and after, which stays
small because the `.marisa` and `.nodes` files are memory-mapped read-only and shared through the page
cache, not copied per worker (their pages show as clean, not dirty); and the file
sizes of the dictionary and of the generator's short-word data. Targets (issue 3): every load under
5 ms, and all dictionaries plus generator data together under 60 MB.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle import LANGUAGES  # noqa: E402

DICTIONARIES = ROOT / "dictionaries"
GENERATOR_DATA = ROOT / "ruzzle" / "data" / "generator-v1"
LOAD_TARGET_MS = 5.0
SIZE_TARGET_MB = 60.0

# Run in a fresh interpreter: imports first, then only the load is timed.
PROBE = """
import json, sys, time
from ruzzle import Lexicon

def private_kb():
    with open("/proc/self/smaps_rollup") as smaps:
        for line in smaps:
            name, _, rest = line.partition(":")
            if name == "Private_Dirty":
                return int(rest.split()[0])

before = private_kb()
start = time.perf_counter()
lexicon = Lexicon.builtin(sys.argv[1])
found = "ZZZZ" in lexicon
first = lexicon.nodes.masks[0]
elapsed = (time.perf_counter() - start) * 1000
print(json.dumps({"ms": elapsed, "words": len(lexicon), "private_kb": private_kb() - before}))
"""


def probe(code: str) -> dict:
    """One fresh process's load of a language's dictionary."""
    output = subprocess.run(
        [sys.executable, "-c", PROBE, code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return json.loads(output)


def size(path: Path) -> int:
    """A file's size in bytes (0 if it is missing)."""
    return path.stat().st_size if path.exists() else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per language (default 15)")
    args = parser.parse_args()
    print(
        f"{'lang':4} {'words':>9} {'load ms':>8} {'slowest':>8} {'+dirty kB':>11} {'.marisa':>11} {'.nodes':>11}"
        f" {'generator':>10}"
    )
    total = 0
    slowest_median = 0.0
    for code in LANGUAGES:
        runs = [probe(code) for _ in range(args.runs)]
        times = [run["ms"] for run in runs]
        marisa, nodes = size(DICTIONARIES / f"{code}.marisa"), size(DICTIONARIES / f"{code}.nodes")
        generator = size(GENERATOR_DATA / f"{code}.marisa") + size(GENERATOR_DATA / f"{code}.nodes")
        total += marisa + nodes + generator
        slowest_median = max(slowest_median, statistics.median(times))
        print(
            f"{code:4} {runs[0]['words']:9d} {statistics.median(times):8.2f} {max(times):8.2f}"
            f" {statistics.median(run['private_kb'] for run in runs):11.0f} {marisa:11d} {nodes:11d} {generator:10d}"
        )
    total += size(GENERATOR_DATA / "letters.json")
    print(f"total on disk (dictionaries/ and {GENERATOR_DATA.relative_to(ROOT)}/): {total / 1e6:.1f} MB")
    checks = [
        (f"median load < {LOAD_TARGET_MS:g} ms", slowest_median < LOAD_TARGET_MS),
        (f"total < {SIZE_TARGET_MB:g} MB", total / 1e6 < SIZE_TARGET_MB),
    ]
    print("targets: " + " | ".join(f"{name} {'PASS' if ok else 'FAIL'}" for name, ok in checks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
