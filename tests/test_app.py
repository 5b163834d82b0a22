"""The web application (issue 2: the factory and the health check)."""

import pytest

from app import create_app


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


def test_the_default_store_is_a_sqlite_file_in_the_instance_folder_made_on_first_start(tmp_path):
    from store import Store, sqlite_url
    from store.migrate import current

    url = sqlite_url(tmp_path / "instance")  # what create_app uses when RUZZLE_DATABASE_URL is unset
    assert url == f"sqlite:///{tmp_path / 'instance' / 'ruzzle.sqlite3'}" and (tmp_path / "instance").is_dir()
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": url})
    assert current(app.extensions["ruzzle.store"]) == "0005" and (tmp_path / "instance" / "ruzzle.sqlite3").exists()
    with Store(url).engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
