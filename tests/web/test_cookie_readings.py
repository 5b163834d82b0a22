"""A cookie's reading is kept per worker (views/rounds.py RoundSessionInterface.open_session): a phone sends the same
cookie with every word and poll. Kept readings still age, and only the exact text whose signature was checked is
taken: a changed cookie is read (and refused) as any other."""

from __future__ import annotations

import datetime

from views import rounds

BOARD = "/play/en/TESTS2"


def player_of(client) -> str:
    """The player id the app reads from this client's cookie (it shows the player's rounds page)."""
    with client.session_transaction() as session:
        return session.get(rounds.PLAYER)


def test_the_same_cookie_is_the_same_player_and_is_read_once(app):
    phone = app.test_client()
    phone.get(BOARD)
    player = player_of(phone)
    value = phone.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    kept = app.session_interface._read_cookies
    for _ in range(3):
        assert phone.get(BOARD).status_code == 200
    assert [data[rounds.PLAYER] for (_, text), (data, _) in kept.items() if text == value] == [player]


def test_a_changed_cookie_is_refused_though_the_right_one_was_kept(app):
    phone = app.test_client()
    phone.get(BOARD)
    name = app.config["SESSION_COOKIE_NAME"]
    value = phone.get_cookie(name).value
    forged = app.test_client()
    forged.set_cookie(name, value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB"))
    page = forged.get(BOARD).get_data(as_text=True)
    assert "could not be read" in page


def test_a_kept_reading_still_ages(app, monkeypatch):
    phone = app.test_client()
    phone.get(BOARD)
    phone.get(BOARD)  # (read and kept)
    app.permanent_session_lifetime = datetime.timedelta(seconds=60)
    later = rounds.time.time() + 3600
    monkeypatch.setattr(rounds.time, "time", lambda: later)
    page = phone.get(BOARD).get_data(as_text=True)
    assert "could not be read" in page  # too old: a new player, told so
