"""Meanings (issue 24): per language, how many of the words a player meets have a meaning, the data's size on disk,
and what loading it costs a worker.

    python3 bench/meanings.py                 # every language, boards of seeds 1..100 (~1 minute)
    python3 bench/meanings.py -l en fr -n 50

- **common**: the dictionary's common words (wordfreq Zipf >= 3, `ruzzle/data/frequency/<lang>.txt`) that
  `/define` answers with a meaning (their own senses, or their lemma's).
- **board words**: a random 200 (seeded) of the distinct words on the language's generated boards (generator 2,
  4x4, seeds 1..N, solved).
- **disk**: `dictionaries/meanings/<lang>.marisa`.
- **RSS growth**: this process's resident memory before opening the language's meanings and after defining 1,000 of
  its words (the board words, then common ones): what a worker grows by, as its own memory (anonymous pages) and as
  the file's pages it maps. The file is memory-mapped: its pages are shared by every worker through the page cache,
  so all workers together hold one copy at most.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruzzle import LANGUAGES, Lexicon, generate, solve  # noqa: E402
from ruzzle.frequency import common_words  # noqa: E402
from ruzzle.meanings import MEANINGS_DIR, MeaningsLibrary  # noqa: E402

SAMPLE = 200
DEFINED = 1_000


def memory_mb() -> tuple[float, float]:
    """This process's resident memory in MB: its own (anonymous) pages, and the file pages it maps (clean: shared
    with every process that maps the same file)."""
    fields = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":")
        fields[name] = int(value.split()[0]) / 1024
    return fields["Anonymous"], fields["Rss"] - fields["Anonymous"]


def board_words(language: str, boards: int) -> list[str]:
    """The distinct words of the language's generated boards, sorted."""
    lexicon = Lexicon.builtin(language)
    words: set[str] = set()
    for seed in range(1, boards + 1):
        words.update(found.word for found in solve(generate(language, str(seed), 4, 4, version=2), lexicon))
    return sorted(words)


def measure(language: str, boards: int) -> dict[str, str]:
    """One line of the table."""
    words = board_words(language, boards)
    sample = random.Random(f"meanings-{language}").sample(words, min(SAMPLE, len(words)))
    common = sorted(common_words(language))
    path = MEANINGS_DIR / f"{language}.marisa"
    asked = (words + common)[:DEFINED]
    own_before, mapped_before = memory_mb()
    library = MeaningsLibrary()
    defined = sum(library.define(language, word) is not None for word in asked)
    own_after, mapped_after = memory_mb()
    with_meaning = sum(library.define(language, word) is not None for word in common)
    sample_meaning = sum(library.define(language, word) is not None for word in sample)
    return {
        "language": language,
        "common": f"{with_meaning:,} of {len(common):,} ({with_meaning / len(common):.1%})",
        "board words": f"{sample_meaning} of {len(sample)} ({sample_meaning / len(sample):.1%})",
        "disk": f"{path.stat().st_size / 1e6:.1f} MB" if path.exists() else "none",
        "RSS growth: own / file pages": f"{own_after - own_before:+.1f} / {mapped_after - mapped_before:+.1f} MB",
        "defined": f"{defined} of {len(asked)}",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-l", "--languages", nargs="+", default=sorted(LANGUAGES), choices=sorted(LANGUAGES))
    parser.add_argument("-n", "--boards", type=int, default=100, help="boards per language (seeds 1..N)")
    args = parser.parse_args(argv)
    rows = [measure(language, args.boards) for language in args.languages]
    print("| " + " | ".join(rows[0]) + " |")
    print("| --- |" + " ---: |" * (len(rows[0]) - 1))
    for row in rows:
        print("| " + " | ".join(row.values()) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
