"""`pip install .` in a fresh virtual environment gives a working package: its dependencies, the `ruzzle` command with
the built-in dictionaries, and the web app's WSGI entry point (`app:app`) with its templates, static files and
catalogues. The checkout is copied first, so the build writes nothing into the working copy; the commands run
outside it, so nothing is imported from it. Needs PyPI (or pip's cache); `-m "not packaging"` leaves it out."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import venv
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from markupsafe import escape

from ruzzle import Board, Lexicon, solve

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parent.parent
DEMO_BOARD = ROOT / "ruzzle" / "data" / "demo" / "en.board"
# what is not part of the checkout: version control, environments, what runs and builds leave behind
NOT_THE_CHECKOUT = shutil.ignore_patterns(
    ".git",
    ".venv*",
    "instance",
    "build",
    "dist",
    "test-artifacts",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".mypy_cache",
    ".ruff_cache",
    "*.egg-info",
    "*.mo",
)
# The installed web app serves its home page in English and German (run by the installed Python).
WEB_CHECK = """
import json, re, sys
from app import app
client = app.test_client()
pages = {lang: client.get("/", headers={"Accept-Language": lang}) for lang in ("en", "de")}
stylesheet = re.search(r'<link rel="stylesheet" href="([^"]+)"', pages["en"].get_data(as_text=True)).group(1)
shown = {lang: [page.status_code, page.get_data(as_text=True)] for lang, page in pages.items()}
json.dump({"instance": app.instance_path, "stylesheet": client.get(stylesheet).status_code, "pages": shown}, sys.stdout)
"""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment (no system packages) with the checkout installed by pip: its bin folder."""
    work = tmp_path_factory.mktemp("packaging")
    checkout = work / "checkout"
    shutil.copytree(ROOT, checkout, ignore=NOT_THE_CHECKOUT, symlinks=True)
    environment = work / "venv"
    venv.create(environment, with_pip=True, system_site_packages=False)
    bin_folder = environment / "bin"
    # requirements.txt as constraints: the versions the suite runs with, and no package the pyproject does not ask
    pip = [
        bin_folder / "python",
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--quiet",
        "-c",
        ROOT / "requirements.txt",
        checkout,
    ]
    subprocess.run(pip, check=True, cwd=work, env=outside_env())
    return bin_folder


def outside_env() -> dict[str, str]:
    """The environment for the installed commands: nothing points back at the working copy."""
    return {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "RUZZLE_", "VIRTUAL_ENV"))}


def run(bin_folder: Path, *command: str | Path) -> str:
    """Run an installed command from outside the checkout; its stdout (it must succeed)."""
    done = subprocess.run(
        [bin_folder / command[0], *command[1:]],
        capture_output=True,
        text=True,
        cwd=bin_folder.parent,
        env=outside_env(),
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_ruzzle_command_finds_the_words_the_checkout_finds(installed):
    solution = json.loads(run(installed, "ruzzle", "solve", "-b", DEMO_BOARD, "-l", "en", "--format", "json"))
    board = Board.parse(DEMO_BOARD.read_text(encoding="utf-8"), language="en")
    expected = [(found.word, found.score) for found in solve(board, Lexicon.builtin("en"))]
    assert [(found["word"], found["score"]) for found in solution["words"]] == expected
    assert expected


def test_the_package_imports_from_the_environment_not_the_checkout(installed):
    location = Path(run(installed, "python", "-c", "import ruzzle; print(ruzzle.__file__)").strip())
    assert location.is_relative_to(installed.parent)
    assert not location.is_relative_to(ROOT)


def test_the_wsgi_entry_point_serves_translated_pages_with_their_static_files(installed):
    report = json.loads(run(installed, "python", "-c", WEB_CHECK))
    (en_status, english), (de_status, german) = report["pages"]["en"], report["pages"]["de"]
    assert (en_status, de_status, report["stylesheet"]) == (200, 200, 200)
    assert Path(report["instance"]).is_relative_to(installed.parent)  # the store and the key, not in the checkout
    with (ROOT / "translations" / "de" / "LC_MESSAGES" / "messages.po").open("rb") as po_file:
        catalogue = read_po(po_file)
    # the catalogue's plain messages that the English page shows as a whole element's text
    shown = {
        message.id: str(escape(message.string))
        for message in catalogue
        if isinstance(message.id, str)
        and message.id
        and message.string
        and message.id != message.string
        and re.search(rf">\s*{re.escape(str(escape(message.id)))}\s*<", english)
    }
    assert shown, "the English home page shows none of the catalogue's messages"
    assert [english_text for english_text, german_text in shown.items() if german_text not in german] == []


def test_the_installed_app_elides_french_de_with_its_list_of_aspirated_h(installed):
    check = (
        "import json, sys\nfrom app import app\nclient = app.test_client()\nclient.set_cookie('ruzzle_lang', 'fr')\n"
        "forms = [client.get(f'/define/fr/{word}', headers={'Accept': 'application/json'}).get_json()['form']"
        " for word in ('ETAIT', 'HIBOUX')]\njson.dump(forms, sys.stdout)"
    )
    assert json.loads(run(installed, "python", "-c", check)) == ["une forme d'être", "une forme de hibou"]


def test_the_store_command_migrates_the_database_the_installed_app_opens(installed):
    # `python -m store upgrade` is how a deployment migrates before starting its servers (RUZZLE_MIGRATE_ON_START=0)
    said = run(installed, "python", "-m", "store", "upgrade")
    migrated = said.rsplit(": schema revision", 1)[0]
    opened = run(installed, "python", "-c", "from app import app; print(app.extensions['ruzzle.store'].address)")
    assert migrated == opened.strip()
    assert Path(migrated.removeprefix("sqlite:///")).is_relative_to(installed.parent)
