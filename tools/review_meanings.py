"""Write 100 random common words' classroom panels of a language for a native reviewer to judge.

    python3 tools/review_meanings.py LANG [LANG ...]                 # seed 33: review/<lang>-sample.tsv
    python3 tools/review_meanings.py --seed 3301 --name sample-2 LANG  # another sample: review/<lang>-sample-2.tsv

Writes `dictionaries/meanings/review/<lang>-sample.tsv`: the words (from `ruzzle.frequency.common_words`, drawn with
a fixed seed, so the sample is the same until the data changes), what a class's panel shows of each (the lemma,
the form, the first and second sense, as `Meanings.define(word, classroom=True)` gives them), and two empty columns
for the reviewer: `verdict` (ok / wrong: a wrong or unhelpful first sense / offensive: an offensive sense shown)
and `note`. A file already reviewed keeps its verdicts and notes for the words it still samples.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle.frequency import common_words  # noqa: E402
from ruzzle.meanings import MEANINGS_DIR, Meanings  # noqa: E402

SAMPLE = 100
SEED = 33  # issue 33: the same words each time
REVIEW = MEANINGS_DIR / "review"
COLUMNS = ["word", "lemma", "form", "sense 1", "sense 2", "verdict", "note"]
VERDICTS = ("ok", "wrong", "offensive")  # wrong: a wrong or unhelpful first sense; offensive: an offensive sense shown


def sample_words(language: str, seed: int = SEED) -> list[str]:
    """SAMPLE common words of the language, drawn with a seed from the sorted list."""
    return sorted(random.Random(seed).sample(sorted(common_words(language)), SAMPLE))


def panel_row(meanings: Meanings, word: str) -> dict[str, str]:
    """What a class's panel shows of a word, as a row (empty senses where it shows no meaning)."""
    meaning = meanings.define(word, classroom=True)
    if meaning is None:
        return {"word": word, "lemma": "", "form": "", "sense 1": "(no meaning)", "sense 2": ""}
    senses = [f"{sense.pos}: {sense.gloss}" if sense.pos else sense.gloss for sense in meaning.senses]
    return {
        "word": word,
        "lemma": meaning.lemma,
        "form": meaning.form or (f"also {meaning.also[0]} of {meaning.also[1]}" if meaning.also else ""),
        "sense 1": senses[0],
        "sense 2": senses[1] if len(senses) > 1 else "",
    }


def previous_verdicts(path: Path) -> dict[str, tuple[str, str]]:
    """The verdicts and notes a reviewer already wrote, per word."""
    if not path.exists():
        return {}
    with path.open(encoding="utf-8", newline="") as file:
        return {row["word"]: (row["verdict"], row["note"]) for row in csv.DictReader(file, delimiter="\t")}


def write_sample(language: str, seed: int = SEED, name: str = "sample") -> Path:
    """Write (or refresh, keeping verdicts) a language's review sample, `review/<lang>-<name>.tsv`; returns its
    path."""
    meanings = Meanings.builtin(language)
    path = REVIEW / f"{language}-{name}.tsv"
    verdicts = previous_verdicts(path)
    REVIEW.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, COLUMNS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        for word in sample_words(language, seed):
            verdict, note = verdicts.get(word, ("", ""))
            writer.writerow({**panel_row(meanings, word), "verdict": verdict, "note": note})
    return path


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("languages", nargs="+", choices=["en", "fr", "de", "it", "pt"])
    parser.add_argument("--seed", type=int, default=SEED, help=f"draws the sample (default {SEED}, issue 33's)")
    parser.add_argument("--name", default="sample", help="the file's name after the language (default: sample)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    for language in args.languages:
        print(write_sample(language, args.seed, args.name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
