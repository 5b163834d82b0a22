"""The layers import in one direction (docs/ARCHITECTURE.md): `ruzzle/` is the game and imports no web code and no
storage; `store/` keeps records and imports neither the game nor the web."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = {"flask", "flask_babel", "flask_compress", "flask_limiter", "jinja2", "markupsafe", "werkzeug", "app", "views"}
FORBIDDEN = {"ruzzle": WEB | {"store", "sqlalchemy", "psycopg"}, "store": WEB | {"ruzzle"}}


def imported_packages(path: Path) -> set[str]:
    """The top-level names of the modules a Python file imports (relative imports stay inside its package)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_from_the_layers_above_it(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    crossings = {str(path.relative_to(ROOT)): sorted(imported_packages(path) & FORBIDDEN[package]) for path in files}
    assert {name: found for name, found in crossings.items() if found} == {}


def test_the_import_reader_sees_every_form_of_import(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text(
        "import flask.json\nfrom werkzeug.utils import redirect\nfrom . import board\n"
        "def late():\n    from store.rooms import Room\n"
    )
    assert imported_packages(source) == {"flask", "werkzeug", "store"}
