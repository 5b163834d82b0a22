"""Vendored files are the ones their README names, byte for byte."""

import hashlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENDOR_FOLDERS = [ROOT / "static" / "vendor", ROOT / "tests" / "web" / "vendor"]


@pytest.mark.parametrize("folder", VENDOR_FOLDERS, ids=lambda folder: str(folder.relative_to(ROOT)))
def test_vendored_files_match_their_recorded_checksums(folder):
    rows = re.findall(r"^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$", (folder / "README.md").read_text(), re.M)
    assert rows, f"{folder}/README.md lists no file"
    for name, checksum in rows:
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == checksum, name
    assert sorted(name for name, _ in rows) == sorted(p.name for p in folder.iterdir() if p.name != "README.md")
