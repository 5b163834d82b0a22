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


PACKAGES = ("ruzzle", "store", "views")


def module_name(path: Path) -> str:
    """The dotted name of a project file (`views/rooms/__init__.py`: views.rooms)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_imports(path: Path, modules: set[str]) -> set[str]:
    """The project modules a file imports, wherever the import stands (a function's body, `if TYPE_CHECKING`)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            stem = ".".join([*base, *([node.module] if node.module else [])])
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target:
                found.add(target)
    return found - {module_name(path)}


def import_graph() -> dict[str, set[str]]:
    """Every project module (app.py and the three packages) and the project modules it imports."""
    files = [ROOT / "app.py", *(path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py")))]
    files = [path for path in files if "migrations" not in path.parts]
    modules = {module_name(path) for path in files}
    return {module_name(path): project_imports(path, modules) for path in files}


def import_circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that import each other, directly or through others (strongly connected, more than one)."""
    reach = {module: set(graph[module]) for module in graph}
    changed = True
    while changed:
        changed = False
        for reached in reach.values():
            more = set().union(*(reach[other] for other in reached)) - reached
            if more:
                reached |= more
                changed = True
    circles = {frozenset(other for other in reach[module] if module in reach[other]) | {module} for module in graph}
    return [set(circle) for circle in circles if len(circle) > 1]


def test_no_two_modules_import_each_other_even_through_others():
    graph = import_graph()
    assert {"views.game", "views.play", "store.engine", "ruzzle.game"} <= graph.keys()
    assert import_circles(graph) == []


def test_the_circle_finder_sees_a_circle_through_a_third_module():
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_import_graph_counts_an_import_inside_a_function_and_a_relative_one():
    graph = import_graph()
    assert "views.rooms" in graph["views.play"]  # `from .rooms import find_room`, inside open_room_named
    assert "store.migrate" in graph["store.engine"]  # `from .migrate import upgrade`, inside Database.migrate
    assert "views.game" in graph["views.rooms.pupil"]  # `from ..game import ...`


TESTS = ROOT / "tests"


def imported_test_modules(path: Path) -> set[str]:
    """The test modules (a file named `test_*`) a file imports, wherever the import stands, relative or absolute."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            dotted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            stem = [node.module] if node.module else []
            dotted = [".".join([*stem, alias.name]) for alias in node.names]
        else:
            continue
        found.update(part for name in dotted for part in name.split(".") if part.startswith("test_"))
    return found


def test_no_test_module_imports_another_test_module():
    files = sorted(TESTS.rglob("*.py"))
    assert TESTS / "web" / "test_rooms.py" in files
    crossings = {str(path.relative_to(ROOT)): sorted(imported_test_modules(path)) for path in files}
    assert {name: found for name, found in crossings.items() if found} == {}


def test_the_test_import_reader_sees_every_form_of_import(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text(
        "from .test_rooms import join\nimport tests.web.test_solution\nfrom tests.web import test_homework\n"
        "from .helpers import open_room\nfrom . import helpers\ndef late():\n    from .test_classes import make_class\n"
    )
    assert imported_test_modules(source) == {"test_rooms", "test_solution", "test_homework", "test_classes"}
