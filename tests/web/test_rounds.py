"""Rounds in the store, through the Flask client, on SQLite and on PostgreSQL: words sent at once, two tabs, an
old cookie replayed, the solution locked by the board's letters, words after the end, and "My rounds"."""

from __future__ import annotations

import html
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from ruzzle.game import Solution
from views.boards import BoardRequest
from views.services import services

from .conftest import HTMX, solution_of

BOARD = "/play/en/TESTS2"
OTHER = "/play/en/OTHER7"
TRIALS = 20


@pytest.fixture
def store_url(migrated_database_url) -> str:
    """Every test here runs on both stores."""
    return migrated_database_url


def score_on(page: str) -> int:
    return int(re.search(r'<strong class="score">([\d,]+)</strong>', page).group(1).replace(",", ""))


def found_on(page: str) -> list[str]:
    return sorted(re.findall(r'<li><a href="[^"]*/words/([A-Z]+)"', page))


def session_cookie(client) -> str:
    return client.get_cookie("session").value


def clients_with(app, cookie: str, count: int) -> list:
    """Browser tabs (or retries) of one player: clients sending the same cookie."""
    clients = [app.test_client() for _ in range(count)]
    for client in clients:
        client.set_cookie("session", cookie)
    return clients


def test_words_sent_at_once_with_one_cookie_are_all_kept(app, client):
    """20 trials: 6 words at a barrier from 6 clients with one cookie, on a fresh round each time."""
    words = [found.word for found in solution_of(app)][:6]
    client.get(BOARD)
    tabs = clients_with(app, session_cookie(client), len(words))
    for trial in range(TRIALS):
        client.post(BOARD + "/round", data={"action": "again"})
        barrier = threading.Barrier(len(words))

        def send(i: int) -> int:
            barrier.wait()
            return tabs[i].post(BOARD + "/words", data={"word": words[i]}, headers=HTMX).status_code

        with ThreadPoolExecutor(len(words)) as pool:
            assert list(pool.map(send, range(len(words)))) == [200] * len(words)
        assert found_on(client.get(BOARD).get_data(as_text=True)) == sorted(words), trial


def test_the_same_word_sent_at_once_counts_once(app, client):
    found = solution_of(app)[0]
    client.get(BOARD)
    tabs = clients_with(app, session_cookie(client), 6)
    barrier = threading.Barrier(len(tabs))

    def send(tab) -> str:
        barrier.wait()
        return tab.post(BOARD + "/words", data={"word": found.word}, headers=HTMX).get_data(as_text=True)

    with ThreadPoolExecutor(len(tabs)) as pool:
        answers = list(pool.map(send, tabs))
    assert sum("is already found" in answer for answer in answers) == len(tabs) - 1
    assert score_on(client.get(BOARD).get_data(as_text=True)) == found.score


def test_two_boards_in_two_tabs_keep_every_word(app, client):
    """Play alternates between two boards sent at once from two tabs: neither board's words go."""
    client.get(BOARD)
    first, second = clients_with(app, session_cookie(client), 2)
    second.get(OTHER)
    words = {
        BOARD: [f.word for f in solution_of(app)][:8],
        OTHER: [f.word for f in solution_of(app, seed="OTHER7")][:8],
    }
    for i in range(8):
        barrier = threading.Barrier(2)

        def send(tab, board):
            barrier.wait()
            return tab.post(board + "/words", data={"word": words[board][i]}, headers=HTMX).status_code

        with ThreadPoolExecutor(2) as pool:
            assert list(pool.map(send, (first, second), (BOARD, OTHER))) == [200, 200]
    for board in (BOARD, OTHER):
        assert found_on(client.get(board).get_data(as_text=True)) == sorted(words[board])


def test_a_replayed_old_cookie_rolls_nothing_back(app, client, clock):
    solution = solution_of(app)
    client.get(BOARD)
    old = session_cookie(client)
    for found in list(solution)[:3]:
        client.post(BOARD + "/words", data={"word": found.word})
    clock.advance(30)
    replay = clients_with(app, old, 1)[0]
    page = replay.get(BOARD).get_data(as_text=True)
    assert found_on(page) == sorted(found.word for found in list(solution)[:3])
    assert 'data-remaining="90.000"' in page  # the deadline did not move


def test_a_word_after_the_end_is_refused_whatever_cookie_it_comes_with(app, client):
    solution = solution_of(app)
    client.get(BOARD)
    before_the_end = session_cookie(client)
    client.post(BOARD + "/words", data={"word": solution[1].word})
    client.post(BOARD + "/round", data={"action": "give-up"})
    for tab in (client, clients_with(app, before_the_end, 1)[0]):
        answer = tab.post(BOARD + "/words", data={"word": solution[0].word}, headers=HTMX).get_data(as_text=True)
        assert "Time is up: this round is over." in answer
    page = client.get(BOARD).get_data(as_text=True)
    assert f'<p class="summary-score"><strong>{solution[1].score}</strong> points</p>' in page
    assert f"<p>1 of {len(solution)} words found" in page


def test_a_word_after_the_deadline_and_its_grace_is_refused(app, client, clock):
    solution = solution_of(app)
    client.get(BOARD)
    clock.advance(120 + app.config["ROUND_GRACE_SECONDS"])
    answer = client.post(BOARD + "/words", data={"word": solution[0].word}, headers=HTMX).get_data(as_text=True)
    assert "Time is up: this round is over." in answer
    assert '<p class="summary-score"><strong>0</strong> points</p>' in client.get(BOARD).get_data(as_text=True)


LOCKED_VARIANTS = [
    "/solution",
    "/solution?time=299",
    "/solution?time=0",
    "/solution?time=5&sort=length",
    "/solution?safe=0",
    "/solution?time=3600&safe=0&prefix=A",
    "/projector?step=1",
    "/projector?step=1&time=0",
    "/projector?step=2&time=299&order=length",
]


@pytest.mark.parametrize("variant", LOCKED_VARIANTS)
def test_the_solution_stays_locked_while_a_round_runs_on_the_letters(app, client, clock, variant):
    client.get(BOARD)
    locked = client.get(BOARD + variant)
    assert locked.status_code == 403 and "still running" in locked.get_data(as_text=True)
    # the locked page's buttons lead to the round that runs (the default length), not to the URL's
    assert f'action="{BOARD}/round"' in locked.get_data(as_text=True)
    clock.advance(60)
    assert client.get(BOARD + variant).status_code == 403
    clock.advance(60 + app.config["ROUND_GRACE_SECONDS"])  # the round has finished
    assert client.get(BOARD + variant).status_code == 200


def test_the_typed_in_letters_of_a_board_in_play_stay_locked(app, client):
    client.get(BOARD)
    code = solution_of(app).board.to_code()
    assert client.get(f"/solve/en/{code}").status_code == 403
    assert client.get(f"/solve/en/{code}/projector?step=1").status_code == 403
    assert client.get(f"/solve/en/{code}/projector").status_code == 200  # the board alone shows no words
    client.post(BOARD + "/round", data={"action": "give-up"})
    assert client.get(f"/solve/en/{code}").status_code == 200


@pytest.mark.parametrize("variant", ["/solution?time=299", "/projector?step=1&time=0"])
def test_ending_the_round_opens_the_solution(app, client, variant):
    client.get(BOARD)
    assert client.get(BOARD + variant).status_code == 403
    client.post(BOARD + "/round", data={"action": "give-up"})
    assert client.get(BOARD + variant).status_code == 200


def test_another_players_round_does_not_lock_the_solution(app, client):
    client.get(BOARD)
    assert app.test_client().get(BOARD + "/solution?time=299").status_code == 200


# --- My rounds -----------------------------------------------------------------------------------------------------


def test_my_rounds_lists_results_best_words_links_and_personal_bests(app, client):
    solution = solution_of(app)
    client.get(BOARD)
    for found in (solution[2], solution[0]):
        client.post(BOARD + "/words", data={"word": found.word})
    client.post(BOARD + "/round", data={"action": "give-up"})
    client.get(BOARD + "?size=5x5")
    five = solution_of(app, size="5x5")
    client.post(BOARD + "/words?size=5x5", data={"word": five[3].word})
    page = client.get("/me").get_data(as_text=True)
    rows = re.findall(r"<tr>\s*<th scope=\"row\"><a href=\"([^\"]+)\">.*?</tr>", page, re.S)
    assert rows == [BOARD + "?size=5x5", BOARD]  # newest first, each linking back to its board
    percent = round(100 * 2 / len(solution))
    assert f"2 of {len(solution)} ({percent}%)" in page
    assert f"{solution[0].word}</span> +{solution[0].score}" in page
    assert f"{five[3].word}</span> +{five[3].score}" in page
    assert f'href="{BOARD}/solution"' in page and f'href="{BOARD}/solution?size=5x5"' in page
    bests = re.search(r'<table class="word-table bests-table">.*?</table>', page, re.S).group()
    assert f"<td>4 × 4</td><td>{solution[0].score + solution[2].score:,}</td>" in bests
    assert f"<td>5 × 5</td><td>{five[3].score:,}</td>" in bests


def test_my_rounds_is_another_players_own(app, client):
    client.get(BOARD)
    client.post(BOARD + "/words", data={"word": solution_of(app)[0].word})
    assert BOARD in client.get("/me").get_data(as_text=True)
    stranger = app.test_client().get("/me")
    assert stranger.status_code == 200 and "No rounds with a word found yet" in stranger.get_data(as_text=True)
    assert stranger.headers["Cache-Control"] == "no-store"


def test_every_page_links_to_my_rounds(client):
    for url in ("/", BOARD, "/solve"):
        assert 'href="/me">My rounds</a>' in client.get(url).get_data(as_text=True)


def test_rounds_past_the_retention_period_are_deleted(app, client, clock):
    client.get(BOARD)
    client.post(BOARD + "/words", data={"word": solution_of(app)[0].word})
    assert BOARD in client.get("/me").get_data(as_text=True)
    clock.advance(app.config["RETENTION_DAYS"] * 86400 + 1)
    client.get(OTHER)  # starting a round cleans up (at most once an hour per process)
    client.post(OTHER + "/words", data={"word": solution_of(app, seed="OTHER7")[0].word})
    page = client.get("/me").get_data(as_text=True)
    assert f'href="{OTHER}"' in page and f'href="{BOARD}"' not in page
    assert "/words/" not in client.get(BOARD).get_data(as_text=True)  # the old round's words went with it


@pytest.mark.parametrize("ahead, kept", [(5, True), (299, True), (3600, False)])
def test_a_cookie_signed_by_a_host_whose_clock_runs_ahead_is_read(app, client, monkeypatch, ahead, kept):
    """Several hosts: one whose clock runs a few seconds (up to 5 minutes) ahead signs cookies "in the future"; the
    other hosts read them (a pupil keeps their seat), while a date far ahead is still refused."""
    import time as clock_module

    real = clock_module.time
    monkeypatch.setattr(clock_module, "time", lambda: real() + ahead)  # the other host's clock
    client.get(BOARD)
    cookie = session_cookie(client)
    monkeypatch.setattr(clock_module, "time", real)
    other_host = clients_with(app, cookie, 1)[0]
    page = other_host.get(BOARD).get_data(as_text=True)
    assert ("could not be read" not in page) is kept


# --- a solo match round (`?gen=2&match=1`): the board with round 1's bonus tiles, the whole board's letters ---------

MATCH = "/play/en/TESTS2?gen=2&match=1"
WHOLE = "/play/en/TESTS2?gen=2"  # the same letters with every bonus tile (match round 3)


def link_of(page: str, pattern: str) -> str:
    """The first URL a page's markup gives for a pattern with one group (an href or an action), unescaped."""
    return html.unescape(re.search(pattern, page).group(1))


def test_the_locked_page_of_a_match_round_gives_up_and_goes_back_to_that_round(app, client):
    """The match round runs; the solution of its letters is locked (on the whole board's URL too), and the locked
    page's buttons are about the match round: "Back to my round" leads to it, "Give up" ends it (and no other)."""
    client.get(MATCH)
    for url in (MATCH.replace("?", "/solution?"), WHOLE.replace("?", "/solution?")):
        locked = client.get(url)
        assert locked.status_code == 403, url
        page = locked.get_data(as_text=True)
        assert link_of(page, r'<a class="button" href="([^"]+)">Back to my round</a>') == MATCH, url
        assert link_of(page, r'<form action="([^"]+)" method="post">') == MATCH.replace("?", "/round?"), url
    answer = client.post(
        link_of(page, r'<form action="([^"]+)" method="post">'), data={"action": "give-up", "next": "solution"}
    )
    assert client.get(answer.location).status_code == 200  # the solution the player gave up for
    assert client.get(MATCH.replace("?", "/solution?")).status_code == 200  # the match round is over
    assert "summary-score" in client.get(MATCH).get_data(as_text=True)


def test_my_rounds_links_a_match_round_to_its_own_board(app, client):
    with app.test_request_context():
        found = BoardRequest.from_url("en", "TESTS2", {"gen": "2", "match": "1"}).solution()[0]
    client.get(MATCH)
    client.post(MATCH.replace("?", "/words?"), data={"word": found.word})
    page = client.get("/me").get_data(as_text=True)
    assert link_of(page, r'<tr>\s*<th scope="row"><a href="([^"]+)">') == MATCH
    assert link_of(page, r'href="([^"]*/solution[^"]*)"') == MATCH.replace("?", "/solution?")
    assert f"{found.word}</span> +{found.score}" in page  # the match board's score of it, on the row that names it


# --- a round's score: the store's, the points each word was worth when the store took it ---------------------------


def test_a_rounds_score_after_a_dictionary_rebuild_is_the_stored_one_on_every_page(app, client):
    """A word found counts for what it was worth when it was taken. A rebuilt dictionary that no longer has it (the
    app's solution of the board, per process, then lacks it) changes neither the board page's score nor My rounds':
    both read the store's."""
    solution = solution_of(app)
    kept, dropped = solution[1], solution[0]
    client.get(BOARD)
    for found in (kept, dropped):
        client.post(BOARD + "/words", data={"word": found.word})
    words = tuple(found for found in solution if found.word != dropped.word)
    rebuilt = Solution(solution.board, words, solution.blocked, {found.word: i for i, found in enumerate(words)})
    services(app).solutions = lambda *board: rebuilt
    points = kept.score + dropped.score
    assert score_on(client.get(BOARD).get_data(as_text=True)) == points
    client.post(BOARD + "/round", data={"action": "give-up"})
    summary = f'<p class="summary-score"><strong>{points:,}</strong> points</p>'
    assert summary in client.get(BOARD).get_data(as_text=True)
    assert f"<td>{points:,}</td>" in client.get("/me").get_data(as_text=True)
