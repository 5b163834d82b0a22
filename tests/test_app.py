"""The web application (issue 2: the factory and the health check; issue 20: a store that cannot write)."""

import contextlib
import datetime
import functools
import os
import re
import resource
import signal
import subprocess
import sys

import pytest
from conftest import ROOT
from jinja2 import DictLoader, Environment

from app import create_app
from store import StoreUnavailable
from tools.servers import free_port
from views.settings import DEFAULTS
from views.templating import TemplateCache


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'store.sqlite3'}"})


@pytest.fixture
def client(app):
    return app.test_client()


def test_health_check_reports_the_loaded_dictionaries(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json["status"] == "ok"
    assert response.json["dictionaries"]["en"] > 100_000
    assert response.json["store"] == "sqlite"


def test_health_check_is_a_503_when_the_store_does_not_answer(app, client, tmp_path):
    app.extensions["ruzzle.store"].dispose()
    (tmp_path / "store.sqlite3").unlink()
    (tmp_path / "store.sqlite3").mkdir()  # a folder where the database file was: SQLite cannot open it
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json["status"] == "the store does not answer"


def test_health_check_is_a_503_when_the_store_answers_but_takes_no_writes(app, client, full_disk):
    """A full disk: reads still work, and so would a change in place, but nothing new can be kept."""
    disk = full_disk(app.extensions["ruzzle.store"])
    disk.fill(every_write=False)  # the heartbeat's own write is what finds it out
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json["status"] == "the store does not take writes"
    assert response.json["dictionaries"]["en"] > 100_000
    disk.free()
    assert client.get("/healthz").json["status"] == "ok"


def test_a_store_nobody_answers_for_stops_the_start_with_a_sentence_saying_so():
    url = f"postgresql://postgres:hush@127.0.0.1:{free_port()}/ruzzle"
    with pytest.raises(StoreUnavailable) as refused:
        create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": url})
    message = str(refused.value)
    assert message.startswith(
        f"The store at postgresql+psycopg://postgres:***@{url.rsplit('@', 1)[1]} could not be "
        "migrated on start: connection failed: "
    )
    assert "Connection refused" in message and "hush" not in message and "\n" not in message
    assert message.endswith(
        "Check that the database runs and takes writes, and RUZZLE_DATABASE_URL; with "
        "RUZZLE_MIGRATE_ON_START=0 the app starts without it and answers 503 until it answers "
        "(then run python -m store upgrade)."
    )


def test_a_store_path_that_cannot_hold_a_database_stops_the_start_with_a_sentence_saying_so(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    url = f"sqlite:///{tmp_path / 'a-file' / 'store.sqlite3'}"
    with pytest.raises(
        StoreUnavailable,
        match=f"^The store at {url} could not be migrated on start: the lock file "
        f"{tmp_path / 'a-file' / 'store.sqlite3.write-lock'} cannot be opened: "
        "Not a directory. Check that",
    ):
        create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": url})


def test_without_migrating_on_start_the_app_starts_and_answers_503_until_the_store_answers():
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "MIGRATE_ON_START": False,
            "DATABASE_URL": f"postgresql://postgres@127.0.0.1:{free_port()}/ruzzle",
        }
    )
    client = app.test_client()
    assert client.get("/healthz").json["status"] == "the store does not answer"
    page = client.get("/play/en/TESTS2")
    assert page.status_code == 503 and "The game&#39;s storage is not answering" in page.get_data(as_text=True)
    assert page.headers["Retry-After"] == "10"


def test_the_default_store_is_a_sqlite_file_in_the_instance_folder_made_on_first_start(tmp_path):
    from alembic.script import ScriptDirectory

    from store import Store, database_url
    from store.migrate import alembic_config, current

    url = database_url(None, tmp_path / "instance")  # create_app's and python -m store's store without a URL
    assert url == f"sqlite:///{tmp_path / 'instance' / 'ruzzle.sqlite3'}" and (tmp_path / "instance").is_dir()
    assert database_url("postgresql://db/ruzzle", tmp_path / "elsewhere") == "postgresql://db/ruzzle"
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": url})
    assert (
        current(app.extensions["ruzzle.store"]) == ScriptDirectory.from_config(alembic_config()).get_current_head()
        and (tmp_path / "instance" / "ruzzle.sqlite3").exists()
    )
    with Store(url).engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


@contextlib.contextmanager
def files_cannot_grow():
    """Every write that makes a file bigger fails, as on a full disk (RLIMIT_FSIZE: "File too large")."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an error to the writer, not a signal that kills
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


def test_templates_compile_when_their_cache_folder_takes_no_files(tmp_path):
    """A full disk under the instance folder (or its cache folder gone): each worker keeps its compiled templates
    to itself, and the app starts."""
    environment = Environment(
        loader=DictLoader({"page.html": "{{ 6 * 7 }}", "other.html": "{{ 5 * 5 }}"}),
        bytecode_cache=TemplateCache(str(tmp_path)),
    )
    with files_cannot_grow():
        assert environment.get_template("page.html").render() == "42"
    assert not list(tmp_path.iterdir())  # nothing half-written left behind
    environment.bytecode_cache = TemplateCache(str(tmp_path / "gone"))
    assert environment.get_template("other.html").render() == "25"


def test_importing_the_app_module_makes_no_app_until_gunicorn_asks_for_app(tmp_path):
    """`import app` (the tests, the benchmarks) opens no store and writes nothing; `app.app`, which `gunicorn app:app`
    reads, makes the app in the instance folder that RUZZLE_INSTANCE_PATH names."""
    instance = tmp_path / "instance"
    environment = {**os.environ, "RUZZLE_INSTANCE_PATH": str(instance)}
    environment.pop("RUZZLE_DATABASE_URL", None)
    environment.pop("RUZZLE_TEMPLATE_CACHE", None)
    run = functools.partial(subprocess.run, cwd=ROOT, env=environment, check=True, capture_output=True, text=True)
    run([sys.executable, "-c", "import app; print(app.create_app.__name__)"])
    assert not instance.exists()
    shown = run([sys.executable, "-c", "import app; print(app.app.instance_path, app.app is app.app)"]).stdout
    assert shown.split() == [str(instance), "True"]
    assert {path.name for path in instance.iterdir()} >= {"ruzzle.sqlite3", "secret_key", "jinja-cache"}


def readme_settings() -> dict[str, str]:
    """The README's table "Settings": each `RUZZLE_<NAME>` and the default it gives."""
    text = (ROOT / "README.md").read_text(encoding="utf-8").split("### Settings", 1)[1].split("\n### ", 1)[0]
    return dict(re.findall(r"^\| `RUZZLE_([A-Z_]+)` \| `([^`]*)` \|", text, flags=re.M))


def as_typed(value) -> str:
    """A default as a person sets it in the environment: 1 and 0 for yes and no, seconds for a length of time."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, datetime.timedelta):
        return str(int(value.total_seconds()))
    return str(value)


def test_the_readme_lists_every_setting_with_its_default():
    assert readme_settings() == {name: as_typed(value) for name, value in DEFAULTS.items()}


@pytest.mark.parametrize(
    "name, typed, read",
    [("RETENTION_DAYS", "7", 7), ("LIMIT_WORDS", "5 per second", "5 per second"), ("MIGRATE_ON_START", "0", 0)],
)
def test_a_setting_is_read_from_its_environment_variable(monkeypatch, tmp_path, name, typed, read):
    monkeypatch.setenv(f"RUZZLE_{name}", typed)
    app = create_app({"INSTANCE_PATH": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'store.sqlite3'}"})
    assert app.config[name] == read
