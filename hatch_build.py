"""Wheel build hook: the interface's catalogues compiled into the wheel (translations/*/LC_MESSAGES/messages.mo).

The .mo files are not committed (translations/README.md); tools/setup.sh compiles them in the working copy, and this
hook compiles them into a temporary folder for the wheel, as `pybabel compile -d translations` does (fuzzy entries
and catalogues left out), so a build writes nothing into the working copy.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

CATALOGUE = Path("LC_MESSAGES") / "messages.po"


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Adds translations/<code>/LC_MESSAGES/messages.mo to the wheel, compiled from its .po."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        self._compiled = tempfile.TemporaryDirectory()
        translations = Path(self.root) / "translations"
        for po_path in sorted(translations.glob(f"*/{CATALOGUE}")):
            with po_path.open("rb") as po_file:
                catalogue = read_po(po_file)
            if catalogue.fuzzy:
                continue
            relative = po_path.relative_to(self.root).with_suffix(".mo")
            mo_path = Path(self._compiled.name) / relative
            mo_path.parent.mkdir(parents=True, exist_ok=True)
            with mo_path.open("wb") as mo_file:
                write_mo(mo_file, catalogue)
            build_data["force_include"][str(mo_path)] = str(relative)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self.target_name == "wheel":
            self._compiled.cleanup()
