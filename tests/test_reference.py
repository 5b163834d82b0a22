"""Cross-check with an independent solver: elzzur's answers on the seven demo boards, same dictionaries."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DEMO, LANGUAGE_CODES, ROOT

REFERENCE = Path(__file__).parent / "data" / "elzzur"
SCORED_AS_ELZZUR = {"en", "it", "es", "nl"}  # de, fr, pt: our letter values differ (languages.toml)


def elzzur_dictionary(code: str) -> Path:
    """elzzur's own built-in dictionary, from the installed elzzur package (requirements-dev.txt)."""
    spec = importlib.util.find_spec("elzzur")
    assert spec is not None, "elzzur is not installed: pip install -r requirements-dev.txt"
    return Path(spec.origin).parent / "res" / f"{code}.marisa"


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
        str(elzzur_dictionary(code)),
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
