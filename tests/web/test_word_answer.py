"""A word is answered with the regions it changes (issue 37), on every kind of board page: the result (the word, its
path for the board's script to draw, its breakdown), the score, and the word's item for the list of words found,
with the word it goes before; never the board's table, the whole list or the share box."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

import pytest

from .conftest import HTMX, START, path_text, result_path, solution_of
from .helpers import SECONDS, homework_words_of, iso, join, open_room, start, words_of

BOARD = "/play/en/TESTS2"


class Player(NamedTuple):
    """A player of one kind of board page: how a word is sent, the board's words (best first), the page as loaded."""

    send: Callable[[dict], object]
    words: list
    page: Callable[[], str]


def solo(app, client, clock) -> Player:
    client.get(BOARD)
    return Player(
        lambda form: client.post(BOARD + "/words", data=form, headers=HTMX),
        list(solution_of(app)),
        lambda: client.get(BOARD).get_data(as_text=True),
    )


def room(app, client, clock) -> Player:
    code = open_room(client)
    phone = join(app, code, "Zoë")
    start(client, clock, code)
    phone.get(f"/rooms/{code}/play")
    return Player(
        lambda form: phone.post(f"/rooms/{code}/words", data=form, headers=HTMX),
        words_of(app, code),
        lambda: phone.get(f"/rooms/{code}/play").get_data(as_text=True),
    )


def homework(app, client, clock) -> Player:
    values = {"language": "en", "size": "4x4", "time": str(SECONDS), "count": "1", "due": iso(START + 7200)}
    code = re.match(r"/a/([A-Z0-9]{6})/", client.post("/assignments", data=values).headers["Location"]).group(1)
    pupil = app.test_client()
    assert pupil.post(f"/a/{code}/pupils", data={"nickname": "Zoë"}).status_code == 303
    pupil.post(f"/a/{code}/boards/1/start")
    return Player(
        lambda form: pupil.post(f"/a/{code}/boards/1/words", data=form, headers=HTMX),
        homework_words_of(app, code, 1),
        lambda: pupil.get(f"/a/{code}/boards/1").get_data(as_text=True),
    )


KINDS = {"solo": solo, "room": room, "homework": homework}


@pytest.fixture(params=KINDS)
def player(request, app, client, clock) -> Player:
    return KINDS[request.param](app, client, clock)


def carried_items(answer: str) -> list[tuple[str, str]]:
    """The list items an answer brings: (the word, the word it goes before)."""
    items = re.findall(r'<template class="found-item" data-before="([A-Z]*)"><li><a [^>]*>([A-Z]+)</a>', answer)
    return [(word, before) for before, word in items]


def listed(page: str) -> list[str]:
    """The words of a page's list of words found, in its order."""
    found = re.search(r'<ol id="found-words" class="word-list">(.*?)</ol>', page, re.S)
    assert found is not None, "no list of words found"
    return re.findall(r">([A-Z]+)</a>", found.group(1))


def test_a_words_answer_has_no_board_no_list_and_no_share_box(player):
    word = player.words[1]
    answer = player.send({"path": path_text(word.path)}).get_data(as_text=True)
    assert result_path(answer) == list(word.path)
    assert f'<span class="breakdown-word" lang="en">{word.word}</span>' in answer
    assert f'<strong class="score">{word.score:,}</strong> <span class="count">1 word</span>' in answer
    assert carried_items(answer) == [(word.word, "")]
    for region in ('<table id="board"', 'id="found"', 'id="found-words"', 'id="share"', 'id="game"'):
        assert region not in answer


def test_each_new_item_goes_where_the_pages_list_has_it(player):
    """Put each answer's item before the word it names (or at the end), as the page's script does: the list is the
    one the page draws, best first, with no word twice."""
    played = [player.words[i] for i in (5, 1, 8, 0, 3, 1)]  # the second 1: found again
    shown: list[str] = []
    for word in played:
        for item, before in carried_items(player.send({"word": word.word}).get_data(as_text=True)):
            if item not in shown:
                shown.insert(shown.index(before) if before in shown else len(shown), item)
    best_first = [word.word for word in player.words if word in played]
    assert shown == best_first == listed(player.page())


@pytest.mark.parametrize("refused", ["ZZXQ", "A", "QQ"])
def test_a_refused_word_brings_only_its_result(player, refused):
    player.send({"word": player.words[0].word})
    answer = player.send({"word": refused}).get_data(as_text=True)
    assert 'class="result result-refused"' in answer and 'data-path=""' in answer
    assert carried_items(answer) == [] and 'id="score"' not in answer and "<li" not in answer


def test_a_word_found_again_brings_its_item_again_for_a_list_that_missed_it(player):
    """The answer that found it may have been lost on the way: the phone sends the word again, and the list gets it."""
    first, second = player.words[0], player.words[2]
    player.send({"word": second.word})
    player.send({"word": first.word})
    again = player.send({"word": first.word}).get_data(as_text=True)
    assert "is already found" in again
    assert carried_items(again) == [(first.word, second.word)]
    assert f'<strong class="score">{first.score + second.score:,}</strong>' in again


def test_an_empty_list_is_there_for_the_first_item(player):
    page = player.page()
    assert listed(page) == [] and '<p class="empty">' in page
