"""Rebuild the classroom-safe blocklists (`ruzzle/data/blocklist/<lang>.txt`) from the npm package naughty-words.

    python3 tools/build_blocklist.py                     # npm pack naughty-words@1.2.0, write all seven lists
    python3 tools/build_blocklist.py --tarball FILE.tgz  # the same from a tarball already at hand
    python3 tools/build_blocklist.py --suggest fr -d dictionaries/fr.marisa   # forms to review, writes nothing

Each list is the package's `<lang>.json`, normalized as the dictionaries are (`normalize_word`), without the
entries that are not one word A-Z (phrases, emoji, hyphens), minus the reviewed `allow` entries and plus the
reviewed `add` entries of `ruzzle/data/blocklist/adjustments.toml`. Prints the counts that
`ruzzle/data/blocklist/README.md` records. `--suggest` lists the dictionary's words that look like forms of
listed words (inflections, compounds) and are not on the list yet: a reviewer copies the offensive ones into
`add` and rebuilds.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruzzle.lexicon import Lexicon, normalize_word  # noqa: E402

PACKAGE = "naughty-words"
VERSION = "1.2.0"
# sha256 of `npm pack naughty-words@1.2.0` (npm's own sha1: 255f60bad94b430fb1216d05a3f4eec3e1061d64).
TARBALL_SHA256 = "c34b05e10a97ec7b9e0c3dd91d09888187c0f08d0812eaea79679795585b217e"
LANGUAGES = ("de", "en", "es", "fr", "it", "nl", "pt")
OUTPUT = ROOT / "ruzzle" / "data" / "blocklist"
ADJUSTMENTS = OUTPUT / "adjustments.toml"
# Endings that make a word's inflections and derivations, for --suggest only (a reviewer decides).
ENDINGS = {
    "de": ("E", "EN", "ER", "ERN", "ES", "S", "N", "T", "ST", "TE", "TEN", "EST", "ET", "IN", "INNEN", "CHEN"),
    "en": ("S", "ES", "ED", "D", "ER", "ERS", "ING", "INGS", "Y", "IER", "IEST", "IES"),
    "es": ("S", "ES", "A", "AS", "O", "OS", "E", "AR", "ADA", "ADO", "ON", "ONA", "ONES", "ITO", "ITA", "AZO"),
    "fr": (
        "S",
        "E",
        "ES",
        "X",
        "ER",
        "EE",
        "EES",
        "EZ",
        "ENT",
        "AIT",
        "EUR",
        "EURS",
        "EUSE",
        "EUSES",
        "ASSE",
        "ARD",
        "ARDS",
    ),
    "it": ("A", "E", "I", "O", "ONE", "ONI", "ATA", "ATE", "ATO", "ATI", "ARE", "ONA", "ETTA"),
    "nl": ("EN", "S", "N", "E", "T", "TE", "TEN", "DE", "DEN", "JE", "JES", "ER", "ERS", "ERIG"),
    "pt": ("S", "A", "AS", "O", "OS", "ES", "AO", "OES", "AR", "ADO", "ADA", "INHO", "INHA", "UDO", "UDA", "ONA"),
}
PARTICIPLE_PREFIXES = {"de": ("GE",), "nl": ("GE",)}
MIN_STEM = 3
MIN_COMPOUND_PART = 4


def fetch_tarball(version: str, folder: Path) -> Path:
    """Download the package tarball with `npm pack` into the folder."""
    try:
        subprocess.run(
            ["npm", "pack", f"{PACKAGE}@{version}", "--pack-destination", str(folder)],
            check=True,
            capture_output=True,
            text=True,
        )
    except FileNotFoundError:
        sys.exit("npm is missing: apt-get install -y npm (or pass --tarball)")
    except subprocess.CalledProcessError as error:
        sys.exit(f"npm pack {PACKAGE}@{version} failed: {error.stderr.strip()}")
    return folder / f"{PACKAGE}-{version}.tgz"


def read_package(tarball: Path, version: str) -> dict[str, list[str]]:
    """The raw entries of each language in the tarball, after checking its version and checksum."""
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if version == VERSION and digest != TARBALL_SHA256:
        sys.exit(f"{tarball}: sha256 {digest} is not the pinned {TARBALL_SHA256}")
    with tarfile.open(tarball) as archive:
        manifest = json.load(archive.extractfile("package/package.json"))
        if (manifest["name"], manifest["version"]) != (PACKAGE, version):
            sys.exit(f"{tarball} holds {manifest['name']} {manifest['version']}, not {PACKAGE} {version}")
        return {code: json.load(archive.extractfile(f"package/{code}.json")) for code in LANGUAGES}


def reason_to_drop(entry: str) -> str | None:
    """Why a package entry is not a board word, or None to keep it."""
    if len(entry.split()) > 1:
        return "phrase of several words"
    if normalize_word(entry) is None:
        return "not letters A-Z after normalizing (hyphen, digit, symbol, emoji)"
    return None


def load_adjustments(path: Path = ADJUSTMENTS) -> dict[str, dict]:
    """The reviewed changes per language: `allow` (word -> why it stays playable), `add` (words), `words`
    (word -> why it is blocked: the same as `add`, with the reason beside it), `roots`
    (stem -> why every dictionary word starting with it is blocked), `curse_roots` (a disease or an ethnic slur ->
    why every compound the dictionary has of it is blocked, whatever its second part: kankerhoer, kankerzooi) and
    `keep` (word -> why a root's word or a listed word stays playable)."""
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    return {
        code: {
            key: table.get(code, {}).get(key, [] if key == "add" else {})
            for key in ("allow", "add", "roots", "curse_roots", "words", "keep")
        }
        for code in LANGUAGES
    }


def root_forms(roots: dict[str, str], lexicon: Lexicon | None) -> set[str]:
    """Every word of the dictionary that starts with one of the reviewed roots: all the forms the dictionary
    generated from an offensive root (ENCUL: ENCULE, ENCULA, ENCULERAIENT ...), not a hand-typed few."""
    if lexicon is None:
        return set()
    return {word for root in roots for word in lexicon.words_with_prefix(root)}


def curse_compounds(roots: dict[str, str], lexicon: Lexicon | None) -> set[str]:
    """Every compound of the dictionary on a curse root (issue 23): the root, then a dictionary word of 3 letters or
    more, with or without a linking -s- (KANKER|HOER, KANKER|ZOOI, TERING|LIJDER). The root itself (kanker: cancer)
    is no curse, and neither are the words that only start like it (KLEREN: clothes); the disease's own medical
    compounds (KANKERCEL) are kept by name in `keep`."""
    if lexicon is None:
        return set()
    found = set()
    for root in roots:
        for word in lexicon.words_with_prefix(root):
            rest = word[len(root) :]
            if len(rest) >= 3 and (rest in lexicon or (rest[0] == "S" and len(rest) > 3 and rest[1:] in lexicon)):
                found.add(word)
    return found


def build_list(
    entries: list[str], adjustments: dict, lexicon: Lexicon | None = None
) -> tuple[set[str], collections.Counter]:
    """The blocklist of one language and the count of entries per outcome."""
    counts: collections.Counter = collections.Counter(read=len(entries))
    source: set[str] = set()
    for entry in entries:
        reason = reason_to_drop(entry)
        if reason:
            counts[f"dropped: {reason}"] += 1
            continue
        word = normalize_word(entry)
        if word in source:
            counts["dropped: duplicate after normalizing"] += 1
        source.add(word)
    counts["single words"] = len(source)
    allow, add = set(adjustments["allow"]), set(adjustments["add"]) | set(adjustments.get("words", {}))
    problems = [f"allow {w}: not in the package list" for w in sorted(allow - source)]
    problems += [f"add {w}: already in the package list" for w in sorted(add & source)]
    problems += [f"add {w}: not a normalized word A-Z" for w in sorted(add) if normalize_word(w) != w]
    if problems:
        sys.exit("adjustments.toml is out of date:\n  " + "\n  ".join(problems))
    counts["allowed after review"] = len(allow)
    counts["added after review"] = len(add)
    roots = adjustments.get("roots", {})
    forms = root_forms(roots, lexicon)
    counts["forms of reviewed roots"] = len(forms - ((source - allow) | add))
    curses = curse_compounds(adjustments.get("curse_roots", {}), lexicon) - forms - (source - allow) - add
    counts["compounds on curse roots"] = len(curses)
    forms |= curses
    blocked = (source - allow) | add | forms
    keep = set()  # a keep entry ending in * keeps every word that starts with it (HOERA*: hooray, not whore)
    for entry in adjustments.get("keep", {}):
        keep |= {w for w in blocked if w.startswith(entry[:-1])} if entry.endswith("*") else {entry}
    if lexicon is not None:
        stale = [f"roots {r}: no dictionary word starts with it" for r in sorted(roots) if not lexicon.has_prefix(r)]
        stale += [
            f"curse_roots {r}: no compound of it in the dictionary"
            for r in sorted(adjustments["curse_roots"])
            if not curse_compounds({r: ""}, lexicon)
        ]
        stale += [f"keep {w}: would not be blocked anyway" for w in sorted(keep - blocked)]
        stale += [
            f"keep {w}: no blocked word starts with it"
            for w in sorted(adjustments.get("keep", {}))
            if w.endswith("*") and not any(b.startswith(w[:-1]) for b in blocked)
        ]
        if stale:
            sys.exit("adjustments.toml is out of date:\n  " + "\n  ".join(stale))
    counts["kept after review"] = len(keep & blocked)
    words = blocked - keep
    counts["written"] = len(words)
    return words, counts


REVIEW = OUTPUT / "review"


def review_rows(entries: list[str], adjustments: dict, lexicon: Lexicon, written: set[str]) -> list[str]:
    """Every word the review decided on, with the decision and the rule that makes it (issue 23's second pass):
    each blocked word, each package entry allowed and each word kept, one tab-separated line each."""
    source = {normalize_word(e) for e in entries if reason_to_drop(e) is None}
    keep_reason = {}
    for entry, why in adjustments["keep"].items():
        prefix = entry[:-1]  # an entry ending in * keeps the words that start with it, and only those
        for word in (
            {w for w in source | set(lexicon.words_with_prefix(prefix)) if w.startswith(prefix)}
            if entry.endswith("*")
            else {entry}
        ):
            keep_reason.setdefault(word, why)
    words = {**{w: "" for w in adjustments["add"]}, **adjustments["words"]}
    rows = []
    for word in sorted(written | set(adjustments["allow"]) | (set(keep_reason) & (source | set(lexicon)))):
        if word in written:
            root = next((r for r in adjustments["roots"] if word.startswith(r)), None)
            curse = next((r for r in adjustments["curse_roots"] if word.startswith(r)), None)
            if word in words:
                rule = "add"
                why = words[word] or "a form or compound of a listed word, read (tools/build_blocklist.py --suggest)"
            elif word in source:
                rule, why = "package", f"{PACKAGE} {VERSION} lists it; read again: offensive"
            elif root:
                rule, why = f"root {root}", adjustments["roots"][root]
            else:
                rule, why = f"curse root {curse}", adjustments["curse_roots"][curse]
            rows.append(f"{word}\tblocked\t{rule}\t{why}")
        elif word in adjustments["allow"]:
            rows.append(f"{word}\tplayable\tallow\t{adjustments['allow'][word]}")
        elif word in keep_reason:
            rows.append(f"{word}\tplayable\tkeep\t{keep_reason[word]}")
    return rows


def related_forms(word: str, endings: tuple[str, ...], prefixes: tuple[str, ...]) -> set[str]:
    """Spellings that could be inflections of the word: its stems with each ending, and participles."""
    stems = {word} | {word[: -len(e)] for e in endings if word.endswith(e) and len(word) - len(e) >= MIN_STEM}
    forms = {stem + ending for stem in stems for ending in ("",) + endings}
    return forms | {prefix + form for prefix in prefixes for form in forms}


def suggest(code: str, blocked: set[str], allowed: set[str], lexicon: Lexicon) -> list[tuple[str, str, str]]:
    """Dictionary words that look like forms or compounds of blocked words: (word, kind, listed word)."""
    endings, prefixes = ENDINGS[code], PARTICIPLE_PREFIXES.get(code, ())
    suggestions: dict[str, tuple[str, str]] = {}
    for word in sorted(blocked):
        for form in sorted(related_forms(word, endings, prefixes)):
            if form in lexicon:
                suggestions.setdefault(form, ("form", word))
    long_words = [word for word in sorted(blocked) if len(word) >= MIN_COMPOUND_PART]
    for candidate in lexicon:
        for word in long_words:
            if candidate != word and (candidate.startswith(word) or candidate.endswith(word)):
                suggestions.setdefault(candidate, ("compound", word))
                break
    done = blocked | allowed
    return sorted((form, kind, word) for form, (kind, word) in suggestions.items() if form not in done)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default=VERSION, help=f"package version (default {VERSION})")
    parser.add_argument("--tarball", type=Path, help="use this tarball instead of running npm pack")
    parser.add_argument("--suggest", choices=LANGUAGES, help="list forms to review for this language; write nothing")
    parser.add_argument("-d", "--dictionary", type=Path, help="with --suggest: the dictionary (default: built-in)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        tarball = args.tarball or fetch_tarball(args.version, Path(folder))
        package = read_package(tarball, args.version)
    adjustments = load_adjustments()
    if args.suggest:
        code = args.suggest
        lexicon = Lexicon.load(args.dictionary) if args.dictionary else Lexicon.builtin(code)
        words, _ = build_list(package[code], adjustments[code], lexicon)
        for form, kind, word in suggest(code, words, set(adjustments[code]["allow"]), lexicon):
            print(f"{form}\t{kind} of {word}")
        return 0
    print(f"{PACKAGE} {args.version}")
    for code in LANGUAGES:
        words, counts = build_list(package[code], adjustments[code], Lexicon.builtin(code))
        (OUTPUT / f"{code}.txt").write_text("".join(w + "\n" for w in sorted(words)), encoding="utf-8")
        REVIEW.mkdir(exist_ok=True)
        rows = review_rows(package[code], adjustments[code], Lexicon.builtin(code), words)
        (REVIEW / f"{code}.tsv").write_text(
            "# The classroom filter's decisions for this language (README.md, issue 23), "
            "written by tools/build_blocklist.py\n"
            "word\tdecision\trule\treason\n" + "".join(row + "\n" for row in rows),
            encoding="utf-8",
        )
        print(f"{code}: " + ", ".join(f"{count} {what}" for what, count in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
