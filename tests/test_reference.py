"""Cross-check with an independent solver: elzzur's answers on the seven demo boards, same dictionaries."""

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import DEMO, LANGUAGE_CODES, ROOT

from ruzzle.lexicon import Lexicon, nodes_path

REFERENCE = Path(__file__).parent / "data" / "elzzur"
SCORED_AS_ELZZUR = {"en", "it", "es", "nl"}  # de, fr, pt: our letter values differ (languages.toml)


def elzzur_dictionary(code: str) -> Path:
    """elzzur's own built-in dictionary, from the installed elzzur package (requirements-dev.txt)."""
    spec = importlib.util.find_spec("elzzur")
    assert spec is not None, "elzzur is not installed: pip install -r requirements-dev.txt"
    return Path(spec.origin).parent / "res" / f"{code}.marisa"


# elzzur's dictionaries come without our node table (the flat trie the solver walks), which the command would build in
# Python on every run (5 s for Spanish): it is built once and kept beside a copy, outside the working copy, under the
# dictionary's hash (a new elzzur release is a new folder). The command loads it as it loads a built-in dictionary's.
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ruzzle" / "elzzur"


def compiled(dictionary: Path) -> Path:
    """The dictionary as a .marisa with its .nodes beside it, in the cache (written whole, then renamed)."""
    folder = CACHE / hashlib.sha256(dictionary.read_bytes()).hexdigest()[:16]
    target = folder / dictionary.name
    if not nodes_path(target).exists():
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as scratch:
            built = Path(scratch) / dictionary.name
            Lexicon.load(dictionary).save(built)
            os.replace(built, target)
            os.replace(nodes_path(built), nodes_path(target))
    return target


@pytest.mark.parametrize("code", LANGUAGE_CODES)
def test_the_command_line_finds_what_elzzur_finds(code):
    command = [
        sys.executable,
        "-m",
        "ruzzle",
        "solve",
        "-b",
        str(DEMO / f"{code}.board"),
        "-l",
        code,
        "-d",
        str(compiled(elzzur_dictionary(code))),
        "--format",
        "json",
    ]
    ours = json.loads(subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    theirs = json.loads((REFERENCE / f"{code}.elzzur.json").read_text())
    ours_by_word = {w["word"]: w for w in ours["words"]}
    theirs_by_word = {w["word"]: w for w in theirs["words"]}
    assert set(ours_by_word) == set(theirs_by_word)
    assert ours["word_count"] == len(theirs_by_word)
    if code in SCORED_AS_ELZZUR:
        for word, theirs_word in theirs_by_word.items():
            bonus = 25 if len(word) >= 10 else 0  # elzzur gives words of 10+ letters no length bonus
            assert (ours_by_word[word]["score"], ours_by_word[word]["path"]) == (
                theirs_word["score"] + bonus,
                theirs_word["path"],
            ), word
