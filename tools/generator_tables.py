"""Freeze a language's data for the board generator, computed from its built-in dictionary.

    python3 tools/generator_tables.py en            # prints the letter weights of `en`
    python3 tools/generator_tables.py en --write    # adds `en` to ruzzle/data/generator-v1/
    python3 tools/generator_tables.py fr --write --refine 30   # and 30 refining changes per 4x4 board
    python3 tools/generator_tables.py en --version 2 --write --vowels 5,8 --refine 28   # generator version 2

Letter weights (`letters.json`): how often each letter occurs in the dictionary's words (version 2: in its
words of 2 to 8 letters, the words a 4x4 board holds), per 100,000 letters. Words (`<lang>.marisa` + `.nodes`):
version 1, the dictionary's words of 2 to 6 letters; version 2, its words of 5 to 7 letters; the generator
counts them on a drawn board to measure how rich it is. Refining changes (`letters.json`, "refine"): how many
exchanges or redrawn letters the generator tries on the best drawn board (see dictionaries/README.md); none by
default. Vowels (version 2, `letters.json`, "vowels"): the fewest and most vowels of a 16-cell board.

Generator data is frozen once boards have been shared: a board URL must show the same board forever.
`--write` refuses to replace a language that the version already has; new data for an existing
language goes into a new generator version.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle.languages import ALPHABET  # noqa: E402
from ruzzle.lexicon import Lexicon, builtin_dictionary_path  # noqa: E402

SCALE = 100_000
# Per version: the lengths of the words whose letters give the weights, and of the words that measure richness.
WEIGHT_LENGTHS = {1: range(1, 1000), 2: range(2, 9)}
WORD_LENGTHS = {1: range(1, 7), 2: range(5, 8)}
V2_CANDIDATES = 10
ABOUT = {
    1: "Frozen data of board generator version 1: letter weights per language (per 100,000 letters of the built-in "
    "dictionary's words), and refining changes per small board for the languages that need them (refine), written "
    "by tools/generator_tables.py. Never edit an entry: shared board URLs depend on it.",
    2: "Frozen data of board generator version 2: letter weights per language (per 100,000 letters of the built-in "
    "dictionary's words of 2 to 8 letters), the fewest and most vowels of a 16-cell board (vowels), the candidates "
    "drawn per small board, and refining changes per small board (refine); <lang>.marisa holds the dictionary's "
    "words of 5 to 7 letters, counted to measure a board. Written by tools/generator_tables.py --version 2 from the "
    "dictionaries of issue 14 (2026-11-23). Never edit an entry: shared board URLs depend on it.",
}


def letter_weights(lexicon: Lexicon, lengths: range = WEIGHT_LENGTHS[1]) -> dict[str, int]:
    """How often each letter occurs in the lexicon's words of these lengths, scaled to integers."""
    letters: collections.Counter = collections.Counter()
    for word in lexicon:
        if len(word) in lengths:
            letters.update(word)
    total = sum(letters.values())
    return {x: round(SCALE * letters[x] / total) for x in ALPHABET}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language")
    parser.add_argument("--write", action="store_true", help="add the entry to ruzzle/data/generator-v<N>/letters.json")
    parser.add_argument("--refine", type=int, default=0, help="refining changes per small board (default 0)")
    parser.add_argument("--version", type=int, default=1, choices=sorted(WORD_LENGTHS), help="generator version")
    parser.add_argument("--vowels", default="5,8", help="version 2: fewest,most vowels of 16 cells (default 5,8)")
    args = parser.parse_args(argv)
    data = ROOT / "ruzzle" / "data" / f"generator-v{args.version}"
    table = data / "letters.json"
    path = builtin_dictionary_path(args.language)
    lexicon = Lexicon.load(path)
    weights = letter_weights(lexicon, WEIGHT_LENGTHS[args.version])
    if not args.write:
        print(json.dumps(weights))
        return 0
    data.mkdir(parents=True, exist_ok=True)
    tables = json.loads(table.read_text()) if table.exists() else {"about": ABOUT[args.version], "languages": {}}
    if args.language in tables["languages"]:
        sys.exit(f"{args.language} is already in {table.relative_to(ROOT)} and frozen: start a new generator version")
    tables["languages"][args.language] = weights
    if args.version >= 2:
        tables["candidates"] = V2_CANDIDATES
        tables.setdefault("vowels", {})[args.language] = [int(n) for n in args.vowels.split(",")]
        tables.setdefault("refine", {})
    if args.refine:
        tables.setdefault("refine", {})[args.language] = args.refine
    short = Lexicon.from_words(word for word in lexicon if len(word) in WORD_LENGTHS[args.version])
    short.save(data / f"{args.language}.marisa")
    table.write_text(json.dumps(tables, indent=1, sort_keys=True) + "\n")
    refine = f", {args.refine} refining changes" if args.refine else ""
    print(f"added {args.language} to {data.relative_to(ROOT)}: letter weights and {len(short)} words{refine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
