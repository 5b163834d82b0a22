"""Rebuild the built-in dictionaries (`dictionaries/<lang>.marisa` + `.nodes`) from Debian's word lists.

    apt-get install -y scowl          # English: SCOWL 2020.12.07, split by category and size
    python3 tools/build_dictionaries.py en [--size 70]

Prints the counts that `dictionaries/README.md` records (entries read, kept, dropped and why).
"""

from __future__ import annotations

import argparse
import collections
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle.lexicon import Lexicon, normalize_word  # noqa: E402

SCOWL_DIR = Path("/usr/share/dict/scowl")
SCOWL_SIZES = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
# SCOWL's "words" category holds no proper names, abbreviations or upper-case words (those have their
# own files); "english" is spelling common to all variants, plus the American and British spellings.
SCOWL_SPELLINGS = ("english", "american", "british")
# Words without a vowel are almost all abbreviations or letter names (km, mph, ls, cs); these are not.
VOWELLESS_WORDS = {"brr", "crwth", "crwths", "cwm", "cwms", "hmm", "nth", "psst", "shh", "tsk", "tsks", "pst"}
VOWELS = set("aeiouy")


def scowl_entries(size: int) -> list[str]:
    """Every entry of SCOWL's word lists for the English spellings up to this size."""
    if not SCOWL_DIR.is_dir():
        sys.exit(f"{SCOWL_DIR} is missing: apt-get install -y scowl")
    entries = []
    for spelling in SCOWL_SPELLINGS:
        for level in (s for s in SCOWL_SIZES if s <= size):
            path = SCOWL_DIR / f"{spelling}-words.{level}"
            if path.exists():
                entries.extend(path.read_text(encoding="utf-8").split())
    return entries


def english_reason_to_drop(entry: str) -> str | None:
    """Why a SCOWL entry is not a board word, or None to keep it."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", entry) if not unicodedata.combining(ch))
    if "'" in plain:
        return "apostrophe (possessive or contraction)"
    if not plain.isascii() or not plain.isalpha():
        return "hyphen, digit or other non-letter"
    if not plain.islower():
        return "capital letter (proper noun or abbreviation)"
    if len(plain) < 2:
        return "single letter"
    if not VOWELS & set(plain) and plain not in VOWELLESS_WORDS:
        return "no vowel (abbreviation or letter name)"
    return None


def build_english(size: int) -> tuple[set[str], collections.Counter]:
    """The English board words from SCOWL up to `size`, and the count of entries dropped per reason."""
    dropped: collections.Counter = collections.Counter()
    words = set()
    for entry in scowl_entries(size):
        reason = english_reason_to_drop(entry)
        if reason:
            dropped[reason] += 1
            continue
        word = normalize_word(entry)
        if word is None:
            dropped["not A-Z after normalizing"] += 1
        else:
            words.add(word)
    return words, dropped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("language", choices=["en"])
    parser.add_argument("--size", type=int, default=70, choices=SCOWL_SIZES, help="SCOWL size (default 70)")
    parser.add_argument("-o", "--output", type=Path, help="default: dictionaries/<lang>.marisa")
    args = parser.parse_args(argv)
    words, dropped = build_english(args.size)
    output = args.output or ROOT / "dictionaries" / f"{args.language}.marisa"
    Lexicon.from_words(words).save(output)
    read = sum(dropped.values()) + len(words)
    print(f"{args.language}: SCOWL size {args.size}: {read} entries read, {len(words)} distinct words kept")
    for reason, count in dropped.most_common():
        print(f"  dropped {count:6d}: {reason}")
    print(f"wrote {output} ({output.stat().st_size} bytes) and {output.with_suffix('.nodes').name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
