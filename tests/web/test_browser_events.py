"""The board page's scripts are small modules that talk only through `ruzzle:` events on the document
(docs/ARCHITECTURE.md, "The board page's scripts"): each test here speaks to one module in its events, or listens to
what it says, in Debian's Chromium against gunicorn, so that a module that stops listening or saying fails here."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ruzzle import Lexicon, generate
from ruzzle.blocklist import blocked_words
from ruzzle.game import Solution

from .conftest import drag, path_text

SEED = "EVENTS"
# Keeps the detail of every ruzzle: event the page's modules send, in order, as window.heard.
LISTEN = """() => {
    window.heard = [];
    for (const name of ["word-played", "word-queued", "word-answered", "queue", "trace", "announce"]) {
        document.addEventListener("ruzzle:" + name, (event) => {
            const detail = event.detail ? JSON.parse(JSON.stringify(event.detail)) : null;
            window.heard.push({name: name, detail: detail});
        });
    }
}"""


def words(count: int = 2):
    """The board's best words (a word the server accepts, with its path and points)."""
    return list(Solution.of(generate("en", SEED, 4, 4), Lexicon.builtin("en"), blocked_words("en")))[:count]


def heard(page: Page, name: str) -> list[dict]:
    return page.evaluate("(name) => window.heard.filter((e) => e.name === name).map((e) => e.detail)", name)


def send(page: Page, name: str, detail=None) -> None:
    page.evaluate(
        "([name, detail]) => document.dispatchEvent(new CustomEvent('ruzzle:' + name, {detail: detail}))",
        [name, detail],
    )


@pytest.fixture
def board(page, server) -> Page:
    page.goto(f"{server}/play/en/{SEED}")
    page.evaluate(LISTEN)
    return page


def test_a_traced_word_is_played_queued_and_answered_as_events_with_the_servers_outcome(board):
    word = words(1)[0]
    drag(board, word.path)
    expect(board.locator("#found")).to_contain_text(word.word)
    assert heard(board, "word-played") == [{"fields": {"path": path_text(word.path)}, "label": word.word}]
    queued = heard(board, "word-queued")
    assert [entry["label"] for entry in queued] == [word.word]
    answered = heard(board, "word-answered")
    assert len(answered) == 1
    assert answered[0]["id"] == queued[0]["id"] and answered[0]["outcome"] == "found"
    assert answered[0]["points"] == word.score
    tracing = [entry["active"] for entry in heard(board, "trace")]
    assert tracing[0] is True and tracing[-1] is False


def test_a_refused_word_is_answered_with_the_servers_reason(board):
    board.locator("#word").fill("zzxq")
    board.locator("#word").press("Enter")
    expect(board.locator("#result")).to_contain_text("ZZXQ is not in the dictionary")
    (answer,) = heard(board, "word-answered")
    assert answer["outcome"] == "refused" and answer["label"] == "ZZXQ"
    assert answer["message"] == board.locator("#result .result-message").inner_text().strip()
    assert heard(board, "announce") == [{"text": f"ZZXQ: {answer['message']}"}]


def test_the_queue_sends_a_word_played_by_any_module(board):
    """A word-played event alone (no form, no trace) reaches the server and the page shows its answer."""
    first, second = words(2)
    send(board, "word-played", {"fields": {"word": first.word.lower()}, "label": first.word})
    send(board, "word-played", {"fields": {"path": path_text(second.path)}, "label": second.word})
    expect(board.locator("#score .score")).to_have_text(str(first.score + second.score))
    expect(board.locator("#sent .sent-found")).to_have_count(2)
    assert [answer["label"] for answer in heard(board, "word-answered")] == [first.word, second.word]


def test_the_feedback_shows_what_the_answer_events_say(board):
    """The list of words sent, the screen reader's region and the network bar follow the events, not the network."""
    send(board, "word-queued", {"id": "probe", "label": "QUIZ"})
    entry = board.locator("#sent .sent-item", has_text="QUIZ")
    expect(entry).to_have_class("sent-item sent-sending")
    send(board, "queue", {"busy": True, "waiting": 3, "slow": False})
    expect(entry).to_have_class("sent-item sent-sending sent-waiting")
    expect(board.locator("#network")).to_be_visible()
    expect(board.locator("#network .network-text")).to_have_text("3 words waiting for the network")
    send(board, "word-answered", {"id": "probe", "label": "QUIZ", "outcome": "refused", "message": "Not here."})
    expect(entry).to_have_class("sent-item sent-refused")
    expect(entry).to_have_attribute("title", "Not here.")
    expect(board.locator("#announce")).to_have_text("QUIZ: Not here.")
    send(board, "queue", {"busy": False, "waiting": 0, "slow": False})
    expect(board.locator("#network")).to_be_hidden()


def test_keys_on_a_tile_reach_the_trace_as_events(board):
    """keyboard.js turns keys into ruzzle:tile-key; the trace takes the same event from anyone."""
    word = words(1)[0]
    for cell in word.path:
        send(board, "tile-key", {"cell": list(cell), "action": "toggle"})
    expect(board.locator("#trace")).to_have_text(word.word)
    expect(board.locator("#board td.traced")).to_have_count(len(word.path))
    send(board, "tile-key", {"cell": list(word.path[-1]), "action": "send"})
    expect(board.locator("#found")).to_contain_text(word.word)
    assert heard(board, "word-played")[-1]["fields"] == {"path": path_text(word.path)}


def test_the_end_round_button_waits_for_the_words_on_their_way(board):
    """Ruzzle.whenIdle asks through ruzzle:when-idle: the queue holds the callback until its words are answered."""
    waits = board.evaluate(
        """() => new Promise((done) => {
            const order = [];
            const word = {fields: {word: "zzxq"}, label: "ZZXQ"};
            document.dispatchEvent(new CustomEvent("ruzzle:word-played", {detail: word}));
            const waited = window.Ruzzle.whenIdle(() => { order.push("idle"); done({waited: waited, order: order}); });
            order.push(waited ? "waiting" : "at once");
            document.addEventListener("ruzzle:word-answered", () => order.push("answered"));
        })"""
    )
    assert waits == {"waited": True, "order": ["waiting", "answered", "idle"]}
    assert board.evaluate("() => window.Ruzzle.whenIdle(() => {})") is False
