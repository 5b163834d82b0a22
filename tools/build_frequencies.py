"""Write the common words of each built-in dictionary (`ruzzle/data/frequency/<lang>.txt`) from wordfreq.

    python3 tools/build_frequencies.py [LANG ...]     # default: all seven; installs wordfreq 3.1.1 if missing

A dictionary word is *common* when its frequency in wordfreq's "large" list, summed over the spellings that
fold into it (está and esta -> ESTA), is at least COMMON_ZIPF on the Zipf scale (log10 of occurrences per
billion words: 3.0 is once per million words); every other dictionary word is *rare*. wordfreq is needed only
here, at build time: the files are committed. Prints the counts that `ruzzle/data/frequency/README.md` records.
"""

from __future__ import annotations

import argparse
import collections
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDFREQ_VERSION = "3.1.1"
COMMON_ZIPF = 3.0
LANGUAGES = ("de", "en", "es", "fr", "it", "nl", "pt")
OUTPUT = ROOT / "ruzzle" / "data" / "frequency"
TOOL_VENV = Path(os.environ.get("RUZZLE_TOOL_VENV", "/tmp/ruzzle-wordfreq-venv"))


def ensure_wordfreq() -> None:
    """Run again inside a virtual environment with the pinned wordfreq, unless this one has it."""
    try:
        from importlib.metadata import version

        import wordfreq  # noqa: F401

        if version("wordfreq") == WORDFREQ_VERSION:
            return
    except ImportError:
        pass
    if os.environ.get("RUZZLE_IN_TOOL_VENV"):
        sys.exit(f"wordfreq {WORDFREQ_VERSION} could not be installed in {TOOL_VENV}")
    python = TOOL_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(TOOL_VENV)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", f"wordfreq=={WORDFREQ_VERSION}", "marisa-trie"], check=True
    )
    os.execve(str(python), [str(python), *sys.argv], {**os.environ, "RUZZLE_IN_TOOL_VENV": "1"})


def common_words(code: str, lexicon) -> tuple[list[str], collections.Counter]:
    """The dictionary's words at or above COMMON_ZIPF, and counts for the README."""
    import wordfreq

    from ruzzle.lexicon import normalize_word

    folded: dict[str, float] = collections.defaultdict(float)
    for entry, frequency in wordfreq.get_frequency_dict(code, wordlist="large").items():
        word = normalize_word(entry)
        if word:
            folded[word] += frequency
    common = sorted(
        word for word, frequency in folded.items() if word in lexicon and math.log10(frequency * 1e9) >= COMMON_ZIPF
    )
    counts = collections.Counter(
        dictionary=len(lexicon),
        wordfreq_words=len(folded),
        in_both=sum(word in lexicon for word in folded),
        common=len(common),
    )
    return common, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("languages", nargs="*", metavar="LANG", help=f"default: {' '.join(LANGUAGES)}")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.languages) - set(LANGUAGES))
    if unknown:
        parser.error(f"unknown languages {unknown}; known: {' '.join(LANGUAGES)}")
    ensure_wordfreq()
    from ruzzle.lexicon import Lexicon  # after ensure_wordfreq: the tool's environment has marisa-trie too

    OUTPUT.mkdir(parents=True, exist_ok=True)
    print(f"wordfreq {WORDFREQ_VERSION}, large lists, common at Zipf >= {COMMON_ZIPF}")
    for code in args.languages or LANGUAGES:
        common, counts = common_words(code, Lexicon.builtin(code))
        (OUTPUT / f"{code}.txt").write_text("".join(word + "\n" for word in common), encoding="utf-8")
        print(f"{code}: " + ", ".join(f"{count} {what}" for what, count in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
