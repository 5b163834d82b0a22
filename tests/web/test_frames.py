"""The solo board page is drawn from a frame kept per board, language and state, with each player's own regions drawn
per request (views/frames.py); the tests' apps check every framed page against the page drawn whole (FRAMES_CHECKED),
so every test that opens a board page checks it too. Here: the frame is kept and reused, two players on one frame
each see their own round, what is one player's keeps a page out of frames, and the check catches a key that misses
something."""

from __future__ import annotations

import pytest

from views import pages
from views.frames import FrameMismatch
from views.game import GamePage
from views.services import services
from views.translations import LANGUAGE_COOKIE

from .conftest import HTMX, solution_of

BOARD = "/play/en/TESTS2"


def test_the_second_player_s_board_page_comes_from_the_first_one_s_frame(app):
    first, second = app.test_client(), app.test_client()
    assert first.get(BOARD).status_code == 200
    frames = dict(services(app).frames)
    assert len(frames) == 1
    assert second.get(BOARD).status_code == 200  # (checked against the whole page: FRAMES_CHECKED)
    assert services(app).frames == frames


def test_two_players_on_one_frame_each_see_their_own_words_and_score(app):
    words = solution_of(app, seed="TESTS2")
    first, second = app.test_client(), app.test_client()
    first.get(BOARD)
    second.get(BOARD)
    first.post(f"{BOARD}/words", data={"word": words[0].word}, headers=HTMX)
    one, other = first.get(BOARD).get_data(as_text=True), second.get(BOARD).get_data(as_text=True)
    assert f'data-word="{words[0].word}"' in one or f">{words[0].word}<" in one
    assert words[0].word not in other.split('id="found-words"', 1)[1].split("</ol>", 1)[0]
    assert f'<strong class="score">{words[0].score}</strong>' in one
    assert '<strong class="score">0</strong>' in other


@pytest.mark.parametrize(
    "query",
    [pytest.param("?challenge=120", id="a challenge"), pytest.param("?size=5x5", id="another board")],
)
def test_a_page_with_something_of_its_own_is_drawn_whole_or_framed_apart(app, client, query):
    client.get(BOARD)
    before = len(services(app).frames)
    assert client.get(BOARD + query).status_code == 200
    # a challenge is the player's own: no frame; another size is another board: a frame of its own
    assert len(services(app).frames) == before + (0 if "challenge" in query else 1)


def test_the_check_catches_a_frame_key_that_misses_the_language(app, monkeypatch, caplog):
    monkeypatch.setattr(GamePage, "frame_key", lambda self, context: ("one key for every language",))
    app.test_client().get(BOARD)
    french = app.test_client()
    french.set_cookie(LANGUAGE_COOKIE, "fr")
    assert french.get(BOARD).status_code == 500  # (a test that opens the page expects a 200: it fails)
    mismatches = [record for record in caplog.records if record.exc_info and record.exc_info[0] is FrameMismatch]
    assert mismatches and "differs from the whole page" in str(mismatches[0].exc_info[1])


def test_a_score_region_is_drawn_once_per_score_and_the_check_catches_a_key_that_misses_it(app, monkeypatch, caplog):
    words = solution_of(app, seed="TESTS2")
    player = app.test_client()
    player.get(BOARD)
    answers = [player.post(f"{BOARD}/words", data={"word": found.word}, headers=HTMX) for found in words[:2]]
    scores = [f'<strong class="score">{sum(found.score for found in words[: n + 1])}</strong>' for n in range(2)]
    assert all(score in answer.get_data(as_text=True) for score, answer in zip(scores, answers, strict=True))
    assert {key[1] for key in services(app).blocks} >= {"score", "challenge"}
    monkeypatch.setitem(pages.MEMO_BLOCKS["play.html"], "score", lambda context: "one key for every score")
    services(app).blocks.clear()
    player.get(BOARD)
    assert app.test_client().get(BOARD).status_code == 500  # another player, another score, the same key
    assert any(record.exc_info and record.exc_info[0] is FrameMismatch for record in caplog.records)


def test_templates_see_globals_added_after_they_were_loaded_and_keep_their_own_to_themselves(app):
    """A template's globals are the environment's own (views.pages.PageEnvironment: no ChainMap to copy through at
    every render), still every global added later; a template given globals of its own keeps them to itself."""
    environment = app.jinja_env
    loaded = environment.from_string("{{ added_later | default('missing') }}")
    assert loaded.render() == "missing"
    environment.globals["added_later"] = "seen"
    try:
        assert loaded.render() == "seen"
        own = environment.from_string("{{ mine }}/{{ added_later }}", globals={"mine": "its own"})
        assert own.render() == "its own/seen"
        assert "mine" not in environment.globals and environment.from_string("{{ mine }}").render() == ""
    finally:
        del environment.globals["added_later"]


def test_a_templates_blocks_come_with_its_parents_nearest_first_kept_unless_templates_reload(app):
    """room_play.html extends play.html, which extends _layout.html: a block drawn alone finds the whole chain, the
    room's own version first and the board's after it (for super()), as a whole render does."""
    environment = app.jinja_env
    room, board = environment.get_template("room_play.html"), environment.get_template("play.html")
    chains = pages.block_chains(room)
    assert chains["score"] == (room.blocks["score"], board.blocks["score"])
    assert chains["found_words"] == (board.blocks["found_words"],)  # a block only the parent has
    assert set(environment.get_template("_layout.html").blocks) <= set(chains)
    assert pages.BLOCK_CHAINS[room] is chains and pages.block_chains(room) is chains
    environment.auto_reload = True
    try:
        assert pages.block_chains(room) == chains and pages.block_chains(room) is not chains  # found again each time
    finally:
        environment.auto_reload = False
