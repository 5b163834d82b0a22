"""Store outages (issue 20): a full disk, a database locked past the busy timeout, a PostgreSQL that went away.
Each answer that needs the store is a 503 with a sentence a person understands and a Retry-After, as a page or an
htmx fragment, never the 500 page or a trace, logged once; /healthz says so; everything works again once the store
does."""

from __future__ import annotations

import logging
import re
import sqlite3

import psycopg
import pytest
from sqlalchemy import event

from app import create_app
from store import Rounds
from tools.postgres import postgres_cluster

from .conftest import HTMX, solution_of

BOARD = "/play/en/TESTS2?size=4x4"
WORDS = "/play/en/TESTS2/words?size=4x4"
RETRY_SECONDS = "10"
TITLE = "The game&#39;s storage is not answering"
SENTENCE = "Words you played wait on the board page, which sends them again by itself. Try again in 10 seconds."


def assert_outage(answer, fragment: bool) -> None:
    """A 503 in words, with the wait, as a page or (htmx) as the region it was about to replace."""
    page = answer.get_data(as_text=True)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == RETRY_SECONDS, page
    assert TITLE in page and f'<p class="result-message">{SENTENCE}</p>' in page
    assert ("<!doctype html>" in page) is not fragment and ('<section id="result"' in page)
    assert not re.search(r"Traceback|sqlite|psycopg|Something broke|INSERT|SELECT", page)


def outage_records(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if "store" in record.getMessage()]


def open_room(client) -> str:
    answer = client.post("/rooms", data={"language": "en", "size": "4x4", "time": "60", "seed": "ROOMS7"})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return answer.headers["Location"].split("/")[2]


@pytest.fixture
def disk(app, full_disk):
    return full_disk(app.extensions["ruzzle.store"])


def test_a_full_disk_answers_a_word_with_a_503_in_words_and_the_word_counts_once_there_is_room(
    app, client, disk, caplog
):
    client.get(BOARD)
    word = solution_of(app)[0]
    disk.fill()
    caplog.clear()
    assert_outage(client.post(WORDS, data={"word": word.word}, headers=HTMX), fragment=True)
    [record] = outage_records(caplog)
    assert record.levelno == logging.ERROR and record.exc_info is None
    assert record.getMessage() == "the store failed on POST /play/en/TESTS2/words: database or disk is full"
    assert client.get("/healthz").status_code == 503
    disk.free()
    assert client.get("/healthz").status_code == 200
    answer = client.post(WORDS, data={"word": word.word}, headers=HTMX)  # the phone's queue sends it again
    assert answer.status_code == 200
    assert f'<strong class="score">{word.score:,}</strong>' in answer.get_data(as_text=True)


def test_a_full_disk_answers_a_room_join_and_a_room_creation_with_a_503_page_until_there_is_room(app, client, disk):
    code = open_room(client)
    phone = app.test_client()
    disk.fill()
    assert_outage(phone.post(f"/rooms/{code}/players", data={"nickname": "Ada"}), fragment=False)
    assert_outage(phone.post(f"/rooms/{code}/players", data={"nickname": "Ada"}, headers=HTMX), fragment=True)
    assert_outage(client.post("/rooms", data={"language": "en", "size": "4x4", "time": "60"}), fragment=False)
    disk.free()
    assert phone.post(f"/rooms/{code}/players", data={"nickname": "Ada"}).headers["Location"] == f"/rooms/{code}/play"
    open_room(client)


def test_a_database_locked_past_the_busy_timeout_is_a_503(app, client, store_url):
    """Another program holds SQLite's write lock for longer than the store waits for it."""
    store = app.extensions["ruzzle.store"]
    client.get(BOARD)
    event.listen(store.engine, "connect", lambda connection, _: connection.execute("PRAGMA busy_timeout = 50"))
    store.engine.dispose()
    holder = sqlite3.connect(store_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        assert_outage(client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX), fragment=True)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX).status_code == 200


def test_a_statement_sqlite_cannot_run_is_a_bug_not_an_outage(app, client, monkeypatch, caplog):
    """SQLite says "OperationalError" for a typo too: that one is the 500 page, with its trace in the log."""

    def broken(rounds, *_, **__):
        with rounds.database.engine.connect() as connection:
            connection.exec_driver_sql("SELEC 1")

    monkeypatch.setattr(Rounds, "start", broken)
    answer = client.get(BOARD)
    assert answer.status_code == 500 and "Retry-After" not in answer.headers
    [record] = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert record.getMessage() == "unexpected error" and "syntax error" in str(record.exc_info[1])


def test_a_postgresql_that_only_reads_is_a_503_for_a_word_and_for_the_health_check(postgres, clock):
    """A standby after a failover, or a database set read-only: pages still read, words cannot be kept."""
    url = postgres.new_database()
    name = url.rsplit("/", 1)[1]
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "CLOCK": clock, "DATABASE_URL": url})
    store, client = app.extensions["ruzzle.store"], app.test_client()
    client.get(BOARD)
    admin_url = f"host=127.0.0.1 port={postgres.port} user=postgres dbname=postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        store.engine.dispose()  # sessions opened from now on only read
        assert client.get(BOARD).status_code == 200
        assert_outage(client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX), fragment=True)
        assert client.get("/healthz").json["status"] == "the store does not take writes"
        admin.execute(f'ALTER DATABASE "{name}" RESET default_transaction_read_only')
        store.engine.dispose()
    assert client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX).status_code == 200
    assert client.get("/healthz").status_code == 200
    store.dispose()


@pytest.mark.postgres
def test_postgresql_going_away_is_a_503_on_every_page_that_needs_it_and_its_return_a_200(clock):
    """A cluster of this test's own (the session's stays up for the other tests): stopped while the app runs,
    started again."""
    with postgres_cluster() as cluster:
        app = create_app({"TESTING": True, "SECRET_KEY": "x", "CLOCK": clock, "DATABASE_URL": cluster.new_database()})
        client = app.test_client()
        assert client.get(BOARD).status_code == 200
        code = open_room(client)
        cluster.stop()
        assert_outage(client.get(BOARD), fragment=False)
        assert_outage(client.post(WORDS, data={"word": solution_of(app)[0].word}, headers=HTMX), fragment=True)
        assert_outage(client.get(f"/rooms/{code}"), fragment=False)
        assert client.get("/healthz").json["status"] == "the store does not answer"
        cluster.start()
        assert client.get("/healthz").status_code == 200
        assert client.get(BOARD).status_code == 200 and client.get(f"/rooms/{code}/host").status_code == 200
        app.extensions["ruzzle.store"].dispose()
