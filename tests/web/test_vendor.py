"""Vendored files are the ones their README names, byte for byte."""

import hashlib
import re
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor"


def test_vendored_files_match_their_recorded_checksums():
    rows = re.findall(r"^\| `([^`]+)` \|.*\| `([0-9a-f]{64})` \|$", (VENDOR / "README.md").read_text(), re.M)
    assert rows, "static/vendor/README.md lists no file"
    for name, checksum in rows:
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == checksum, name
    assert sorted(name for name, _ in rows) == sorted(p.name for p in VENDOR.iterdir() if p.name != "README.md")
