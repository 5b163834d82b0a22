"""Freeze a language's data for the board generator, computed from its built-in dictionary.

    python3 tools/generator_tables.py en            # prints the letter weights of `en`
    python3 tools/generator_tables.py en --write    # adds `en` to ruzzle/data/generator-v1/
    python3 tools/generator_tables.py fr --write --refine 30   # and 30 refining changes per 4x4 board

Letter weights (`letters.json`): how often each letter occurs in the dictionary's words, per 100,000
letters. Short words (`<lang>.marisa` + `.nodes`): the dictionary's words of 2 to 6 letters, with which
the generator measures how rich a drawn board is. Refining changes (`letters.json`, "refine"): how many
exchanges or redrawn letters the generator tries on the best drawn board, for languages whose boards are
not rich enough without (see dictionaries/README.md); none by default.

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

DATA = ROOT / "ruzzle" / "data" / "generator-v1"
TABLE = DATA / "letters.json"
SCALE = 100_000
SHORT_WORD_LENGTH = 6


def letter_weights(lexicon: Lexicon) -> dict[str, int]:
    """How often each letter occurs in the lexicon's words, scaled to integers."""
    letters: collections.Counter = collections.Counter()
    for word in lexicon:
        letters.update(word)
    total = sum(letters.values())
    return {x: round(SCALE * letters[x] / total) for x in ALPHABET}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language")
    parser.add_argument("--write", action="store_true", help=f"add the entry to {TABLE.relative_to(ROOT)}")
    parser.add_argument("--refine", type=int, default=0, help="refining changes per small board (default 0)")
    args = parser.parse_args(argv)
    path = builtin_dictionary_path(args.language)
    lexicon = Lexicon.load(path)
    weights = letter_weights(lexicon)
    if not args.write:
        print(json.dumps(weights))
        return 0
    tables = json.loads(TABLE.read_text())
    if args.language in tables["languages"]:
        sys.exit(f"{args.language} is already in {TABLE.relative_to(ROOT)} and frozen: start a new generator version")
    tables["languages"][args.language] = weights
    if args.refine:
        tables.setdefault("refine", {})[args.language] = args.refine
    short = Lexicon.from_words(word for word in lexicon if len(word) <= SHORT_WORD_LENGTH)
    short.save(DATA / f"{args.language}.marisa")
    TABLE.write_text(json.dumps(tables, indent=1, sort_keys=True) + "\n")
    refine = f", {args.refine} refining changes" if args.refine else ""
    print(f"added {args.language} to {DATA.relative_to(ROOT)}: letter weights and {len(short)} short words{refine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
