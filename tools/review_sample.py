"""Draw the reviewed random sample of a built-in dictionary: 150 short and 150 long words (issue 14).

    python3 tools/review_sample.py LANG            # writes dictionaries/review/<lang>-sample.tsv (verdicts empty)
    python3 tools/review_sample.py LANG --draw 2   # a fresh sample, dictionaries/review/<lang>-sample-2.tsv
    python3 tools/review_sample.py LANG --report   # junk rate of every reviewed sample of the language

Short words have 4 to 6 letters (every word of 2 and 3 letters is reviewed in dictionaries/short/), long words 9
or more. The draw is seeded by the language code (and the draw number after the first), so the same dictionary
gives the same sample. A sample used to find junk cannot measure what is left: after a fix, a fresh draw
(`--draw N`, a number not used before) is reviewed and gives the rate. A reviewer
reading the language at a native level fills `verdict` (ok: a player accepts it; junk: not a word of the
language, a name, an abbreviation, a machine-made form) and, for junk, `reason`. Junk found is removed at its
cause (dictionaries/rules/<lang>.toml or the build's rules) and stays listed here with its verdict.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle.lexicon import Lexicon  # noqa: E402

SAMPLE = 150
SHORT = range(4, 7)
LONG_FROM = 9
REVIEW_DIR = ROOT / "dictionaries" / "review"
FIELDS = ("kind", "word", "verdict", "reason")


def draw(words: list[str], count: int, key: str) -> list[str]:
    """`count` words chosen by a hash of the key and the word (stable, no random module)."""
    return sorted(sorted(words, key=lambda w: hashlib.sha256(f"{key}|{w}".encode()).digest())[:count])


def sample(code: str, lexicon: Lexicon, number: int = 1) -> list[tuple[str, str]]:
    """The sample of a draw: 1 is the first (keyed by the language alone), N > 1 a fresh one."""
    words = list(lexicon)
    key = code if number == 1 else f"{code}-{number}"
    short = draw([w for w in words if len(w) in SHORT], SAMPLE, f"{key}-short")
    long = draw([w for w in words if len(w) >= LONG_FROM], SAMPLE, f"{key}-long")
    return [("short", w) for w in short] + [("long", w) for w in long]


def sample_path(code: str, number: int = 1) -> Path:
    """Where a draw's reviewed sample is kept."""
    return REVIEW_DIR / (f"{code}-sample.tsv" if number == 1 else f"{code}-sample-{number}.tsv")


def read_review(code: str, number: int = 1) -> list[dict[str, str]]:
    with sample_path(code, number).open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader((line for line in file if not line.startswith("#")), delimiter="\t"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language")
    parser.add_argument("--draw", type=int, default=1, help="which draw (1: the first; a new number: a fresh sample)")
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args(argv)
    if args.report:
        number = 1
        while sample_path(args.language, number).exists():
            rows = read_review(args.language, number)
            for kind in ("short", "long"):
                part = [row for row in rows if row["kind"] == kind]
                junk = [row["word"] for row in part if row["verdict"] == "junk"]
                print(
                    f"{args.language} draw {number} {kind}: {len(part)} reviewed, {len(junk)} junk "
                    f"({100 * len(junk) / len(part):.1f}%){': ' + ' '.join(junk) if junk else ''}"
                )
            number += 1
        return 0
    path = sample_path(args.language, args.draw)
    REVIEW_DIR.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as file:
        file.write(
            f"# Random sample of dictionaries/{args.language}.marisa "
            f"(tools/review_sample.py, draw {args.draw}), "
            "reviewed by a native-level reader: ok = a player accepts it; junk = removed at its cause\n"
        )
        writer = csv.writer(file, delimiter="\t", lineterminator="\n")
        writer.writerow(FIELDS)
        for kind, word in sample(args.language, Lexicon.builtin(args.language), args.draw):
            writer.writerow((kind, word, "", ""))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
