"""A new board that many ask for at the same moment is solved once per worker, not once per request; a room's results
as its round ends are made once per worker, not once per phone."""

from __future__ import annotations

import threading
import time

from views.caching import SingleFlight
from views.rooms import results

from .helpers import SECONDS, join, open_room, start


def counting(seconds: float):
    """A slow function that counts its calls per argument, behind a plain dict cache."""
    calls: dict = {}
    cache: dict = {}

    def solve(key):
        if key not in cache:
            calls[key] = calls.get(key, 0) + 1
            time.sleep(seconds)  # long enough that every thread arrives while the first one works
            cache[key] = f"solution of {key}"
        return cache[key]

    return solve, calls


def run_together(function, keys) -> list:
    barrier = threading.Barrier(len(keys))
    results = [None] * len(keys)

    def one(i):
        barrier.wait()
        results[i] = function(keys[i])

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(keys))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_thirty_threads_asking_for_one_new_board_solve_it_once():
    solve, calls = counting(0.2)
    results = run_together(SingleFlight(solve), ["ES12"] * 30)
    assert calls == {"ES12": 1}
    assert results == ["solution of ES12"] * 30


def test_without_single_flight_they_would_solve_it_many_times():
    solve, calls = counting(0.2)
    run_together(solve, ["ES12"] * 10)
    assert calls["ES12"] > 1  # what SingleFlight is for


def test_other_boards_are_solved_side_by_side():
    solve, calls = counting(0.2)
    results = run_together(SingleFlight(solve), ["A", "B", "A", "B"])
    assert calls == {"A": 1, "B": 1} and results == ["solution of A", "solution of B"] * 2


def test_nothing_is_left_behind_and_errors_reach_every_caller():
    flight = SingleFlight(lambda key: 1 / key)
    assert flight(2) == 0.5
    try:
        flight(0)
    except ZeroDivisionError:
        pass
    else:
        raise AssertionError("the error was swallowed")
    assert flight._flights._in_flight == {}


def test_a_rooms_phones_asking_for_its_results_together_make_them_once_per_worker(app, client, clock, monkeypatch):
    code = open_room(client)
    join(app, code, "Ada")
    start(client, clock, code)
    clock.advance(SECONDS + 1)  # the round is over: every phone asks for the results
    room = app.extensions["ruzzle.store"].rooms.get(code)
    made = []
    make = results._make_results

    def slow_make(room):
        made.append(room.id)
        time.sleep(0.2)  # long enough that every thread arrives while the first one works
        return make(room)

    monkeypatch.setattr(results, "_make_results", slow_make)

    def ask(_):
        with app.app_context():
            return results.room_results(room).tag

    tags = run_together(ask, [None] * 20)
    assert made == [room.id] and len(set(tags)) == 1
