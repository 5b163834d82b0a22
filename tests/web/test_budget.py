"""One client cannot take the server from the others: solving new boards costs each client from a budget of
CPU seconds (per worker), refilled with time; boards already solved cost nothing."""

from __future__ import annotations

import pytest
from flask import Flask
from flask_babel import Babel
from werkzeug.exceptions import TooManyRequests

from app import create_app
from views.budget import SolvingBudget
from views.translations import LANGUAGE_COOKIE


class Ticking:
    """A clock the test moves."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clocks():
    return Ticking(), Ticking()


def budget_with(clocks, rate=0.5, burst=1.0, clients=10_000) -> SolvingBudget:
    wall, cpu = clocks
    return SolvingBudget(rate, burst, clock=wall, cpu_clock=cpu, clients=clients)


def solver_costing(cpu: Ticking, seconds: float):
    def solve(*args):
        cpu.now += seconds
        return args

    return solve


def call_as(client: str, function, *args):
    bare = Flask(__name__)
    Babel(bare)  # the refusal speaks the request's language
    with bare.test_request_context(environ_base={"REMOTE_ADDR": client}):
        return function(*args)


def test_a_client_that_spent_its_budget_waits_until_it_refills(clocks):
    wall, cpu = clocks
    budget = budget_with(clocks)
    solve = budget.guard(solver_costing(cpu, 0.6))
    assert call_as("10.0.0.1", solve, 1) == (1,)
    assert call_as("10.0.0.1", solve, 2) == (2,)  # 0.4 left: it may start, and owes 0.2 after
    with pytest.raises(TooManyRequests) as refused:
        call_as("10.0.0.1", solve, 3)
    assert refused.value.retry_after == 1 and "Wait 1 second," in refused.value.description
    wall.now += 0.5  # refilled by 0.25: above zero again
    assert call_as("10.0.0.1", solve, 3) == (3,)


def test_clients_have_budgets_of_their_own(clocks):
    _, cpu = clocks
    budget = budget_with(clocks)
    solve = budget.guard(solver_costing(cpu, 2.0))
    call_as("10.0.0.1", solve, 1)
    with pytest.raises(TooManyRequests):
        call_as("10.0.0.1", solve, 2)
    assert call_as("10.0.0.2", solve, 2) == (2,)


def test_a_bucket_never_holds_more_than_the_burst(clocks):
    wall, _ = clocks
    budget = budget_with(clocks, rate=0.5, burst=1.0)
    budget.charge("10.0.0.1", 0.1)
    wall.now += 3600
    assert budget.level("10.0.0.1") == 1.0


def test_clients_heard_from_longest_ago_are_forgotten(clocks):
    budget = budget_with(clocks, clients=2)
    for client in ("a", "b", "c"):
        budget.charge(client, 5)
    assert budget.level("a") == budget.burst  # forgotten: a full bucket again
    assert budget.level("c") < 0


def test_rate_zero_turns_the_budget_off(clocks):
    def solve():
        return "solved"

    assert SolvingBudget(0, 1).guard(solve) is solve


# --- through the app ----------------------------------------------------------------------------------------


@pytest.fixture
def tight_app(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SOLVING_RATE": 0.001, "SOLVING_BURST": 0.000001})
    app.instance_path = str(tmp_path / "instance")
    return app


def test_new_boards_past_the_budget_are_a_429_in_words(tight_app):
    client = tight_app.test_client()
    client.set_cookie(LANGUAGE_COOKIE, "en")  # a player who chose English, on Spanish boards
    assert client.get("/play/es/NEWONE/solution?size=12x12").status_code == 200
    refused = client.get("/play/es/NEWTWO/solution?size=12x12")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    page = refused.get_data(as_text=True)
    assert "Slow down" in page and "You opened many new boards in a short time" in page
    fragment = client.get("/play/es/NEWTWO?size=12x12", headers={"HX-Request": "true"})
    assert fragment.status_code == 429 and "<html" not in fragment.get_data(as_text=True)


def test_a_board_already_solved_still_opens_with_the_budget_spent(tight_app):
    client = tight_app.test_client()
    assert client.get("/play/es/NEWONE/solution?size=12x12").status_code == 200
    assert client.get("/play/es/NEWTWO/solution?size=12x12").status_code == 429
    again = client.get("/play/es/NEWONE/projector?size=12x12&step=1")
    assert again.status_code == 200
    other = tight_app.test_client()  # another phone, at another address
    assert other.get("/play/es/NEWTWO/solution?size=12x12", environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 200
