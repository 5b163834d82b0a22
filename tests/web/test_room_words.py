"""The words to learn at the end of a room: each round's teacher's words and rare finds (words one player alone
found), with their meanings, on a page and in a CSV for the room's host only."""

from __future__ import annotations

import codecs
import csv
import io
import re

from ruzzle.room import words_to_learn

from .helpers import SECONDS, join, open_room, send, start, words_of

TARGETS = ("river", "water", "rain")


def test_the_host_gets_each_rounds_words_to_learn_with_their_meanings(app, client, clock):
    code = open_room(client, size="5x5", words=" ".join(TARGETS))
    zoe, ana = join(app, code, "Zoë"), join(app, code, "Ana")
    start(client, clock, code)
    words = [found for found in words_of(app, code) if found.word not in {"RIVER", "WATER", "RAIN"}]
    both, zoe_alone, ana_alone = words[0].word, words[1].word, words[2].word
    for phone, sent in ((zoe, (both, zoe_alone, "RIVER")), (ana, (both, ana_alone, "RIVER", "WATER"))):
        for word in sent:
            assert "result-found" in send(phone, code, word).get_data(as_text=True), word
    clock.advance(SECONDS + 10)

    answer = client.get(f"/rooms/{code}/words-to-learn.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    body = answer.get_data()[len(codecs.BOM_UTF8) :].decode("utf-8")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == ["round", "word", "points", "why", "players", "meaning"]
    listed = [(row[1], row[3], int(row[4])) for row in rows[1:]]
    # the teacher's words first, the one nobody found first; then the rare finds, best first
    assert listed[:3] == [
        ("RAIN", "one of your words", 0),
        ("RIVER", "one of your words", 2),
        ("WATER", "one of your words", 1),
    ]
    rare = [(word, finders) for word, why, finders in listed[3:]]
    assert sorted(rare) == sorted([(zoe_alone, 1), (ana_alone, 1)]) and (both, 2) not in rare
    by_word = {found.word: found for found in words_of(app, code)}
    expected = words_to_learn(
        by_word.values(), {both: 2, zoe_alone: 1, ana_alone: 1, "RIVER": 2, "WATER": 1}, ["RAIN", "RIVER", "WATER"]
    )
    assert [row[1] for row in rows[1:]] == [item.word for item in expected]
    assert all(row[0] == "1" and int(row[2]) == by_word[row[1]].score for row in rows[1:])
    river = next(row for row in rows if row[1] == "RIVER")
    assert "stream" in river[5].lower() or "water" in river[5].lower(), river  # WordNet's first sense of river

    page = client.get(f"/rooms/{code}/words-to-learn").get_data(as_text=True)
    assert page.index(">RAIN<") < page.index(">RIVER<") and zoe_alone in page and 'class="meaning' in page


def test_only_the_host_sees_the_words_to_learn(app, client, clock):
    code = open_room(client)
    zoe = join(app, code, "Zoë")
    start(client, clock, code)
    for url in (f"/rooms/{code}/words-to-learn", f"/rooms/{code}/words-to-learn.csv"):
        refused = zoe.get(url)
        assert refused.status_code == 403 and "host" in refused.get_data(as_text=True).lower(), url
        assert app.test_client().get(url).status_code == 403
    assert client.get("/rooms/NOROOM/words-to-learn").status_code == 404


def test_each_word_of_the_class_view_opens_its_meaning_beside_the_projector(app, client, clock):
    code = open_room(client)
    zoe = join(app, code, "Zoë")
    start(client, clock, code)
    words = words_of(app, code)
    assert "result-found" in send(zoe, code, words[0].word).get_data(as_text=True)
    clock.advance(SECONDS + 10)
    page = client.get(f"/rooms/{code}/host").get_data(as_text=True)
    for word in (words[0].word, words[1].word):  # one the class found, one nobody found
        link = f'href="/define/en/{word}" target="_blank"'
        assert link in page, word
    opened = client.get(f"/define/en/{words[0].word}").get_data(as_text=True)
    assert f'aria-label="Meaning of {words[0].word}"' in opened  # its meaning, or its Wiktionary link


def targets_shown(page: str) -> list[tuple[str, bool]]:
    """The words to find a pupil's page lists, each with whether it is ticked as found."""
    line = re.search(r'<p [^>]*class="targets-to-find"[^>]*>(.*?)</p>', page, re.S)
    if line is None:
        return []
    return [
        (word, tick == " target-found")
        for tick, word in re.findall(r'<span class="target-word( target-found)?" lang="en">([A-Z]+)', line.group(1))
    ]


def test_a_pupil_sees_the_teachers_words_to_find_and_ticks_them_as_they_find_them(app, client, clock):
    code = open_room(client, size="5x5", words=" ".join(TARGETS))
    zoe = join(app, code, "Zoë")
    waiting = zoe.get(f"/rooms/{code}/play").get_data(as_text=True)
    assert targets_shown(waiting) == [("RAIN", False), ("RIVER", False), ("WATER", False)]
    assert "Words to find: " in waiting
    start(client, clock, code)
    playing = zoe.get(f"/rooms/{code}/play").get_data(as_text=True)
    assert targets_shown(playing) == [("RAIN", False), ("RIVER", False), ("WATER", False)]
    answer = send(zoe, code, "RIVER").get_data(as_text=True)  # the word's answer brings the list again, ticked
    assert targets_shown(answer) == [("RAIN", False), ("RIVER", True), ("WATER", False)]


def test_a_room_without_the_teachers_words_lists_none_to_find(app, client, clock):
    code = open_room(client)
    zoe = join(app, code, "Zoë")
    assert "targets-to-find" not in zoe.get(f"/rooms/{code}/play").get_data(as_text=True)
    start(client, clock, code)
    assert "targets-to-find" not in zoe.get(f"/rooms/{code}/play").get_data(as_text=True)
