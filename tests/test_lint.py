"""The code passes its linter, its formatter's check and its type checker, as pyproject.toml configures them (ruff:
[tool.ruff]; mypy: [tool.mypy], strict on ruzzle/, store/, app.py and views/). A failure shows the
tool's own report."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Caches outside the working copy (no test writes into it); kept between runs, so mypy checks only what changed.
MYPY_CACHE = Path(tempfile.gettempdir()) / f"ruzzle-mypy-cache-{ROOT.name}"

CHECKS = {
    "ruff check": ["ruff", "check", "--no-cache", "."],
    "ruff format --check": ["ruff", "format", "--check", "--no-cache", "."],
    "mypy": ["mypy", "--cache-dir", str(MYPY_CACHE)],
}


@pytest.mark.parametrize("check", CHECKS)
def test_the_code_passes(check):
    done = subprocess.run([sys.executable, "-m", *CHECKS[check]], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"`{check}` failed (exit {done.returncode}):\n{done.stdout}{done.stderr}", pytrace=False)
