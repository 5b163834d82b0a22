"""One room word followed call by call, from the POST to the response: how many of the project's modules and functions
it goes through, how often control hops from one module to another, and how often it asks the same thing again (the
board's solution, the room's phase, the clock).

    python3 bench/word_trace.py            # a warm room (every cache filled by an earlier word), SQLite
    python3 bench/word_trace.py --calls    # also every project function called, with its count

The room: a host and three phones, the round started, each phone sends one word (the warm-up), then one phone's next
word is traced with `sys.setprofile`. Only the project's own code counts (app.py, ruzzle/, store/, views/, and the
templates' compiled code): Flask, Jinja, SQLAlchemy and the standard library are inside the calls they were made
from. The figures are counts, not
times, so they are the same on a busy machine and a quiet one, and they compare across commits.
"""

from __future__ import annotations

import argparse
import collections
import inspect
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/: its limits.py would hide the package of that name

from app import create_app  # noqa: E402
from views.boards import BoardRequest  # noqa: E402

HTMX = {"HX-Request": "true"}
START = 1_790_000_000.0
GENERATOR_FLAGS = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
PROJECT = ("app.py", "ruzzle/", "store/", "views/", "templates/")
# What a request should ask once: (the label printed, the function names that ask it).
ASKED = {
    "the board's solution": {"solve", "solutions", "typed_solutions"},
    "the room's phase": {"phase_of", "phase"},
    "the clock": {"now", "rough_now"},
}


class Clock:
    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now


def project_module(filename: str) -> str | None:
    """The project file a code object comes from (`views/play.py`), or None for library code."""
    try:
        relative = Path(filename).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    return relative if relative.startswith(PROJECT) else None


class Trace:
    """The project's calls seen by `sys.setprofile` while one request runs."""

    def __init__(self) -> None:
        self.calls: collections.Counter[tuple[str, str]] = collections.Counter()
        self.asks: collections.Counter[str] = collections.Counter()  # by short name, not counting one inside another
        self.hops = 0
        self.stack: list[tuple[str | None, str]] = []
        self.generators: dict[int, object] = {}  # generator frames seen (kept alive, so no id is reused meanwhile)

    def __call__(self, frame, event: str, _arg) -> None:
        if event == "call":
            module = project_module(frame.f_code.co_filename)
            name = frame.f_code.co_qualname.rpartition(".")[2]
            caller, caller_name = next(((found, named) for found, named in reversed(self.stack) if found), (None, ""))
            resumed = frame.f_code.co_flags & GENERATOR_FLAGS and id(frame) in self.generators
            if frame.f_code.co_flags & GENERATOR_FLAGS:
                self.generators[id(frame)] = frame
            if module and not resumed:  # a generator going on (a template yielding its text) is not a new call
                self.calls[module, frame.f_code.co_qualname] += 1
                if caller_name != name:  # RoomBoard.solve asking BoardRequest.solve is one ask, not two
                    self.asks[name] += 1
                if caller and caller != module:
                    self.hops += 1
            self.stack.append((module, name))
        elif event == "return" and self.stack:
            self.stack.pop()

    def asked(self, names: set[str]) -> int:
        return sum(self.asks[name] for name in names)


def room_with_a_word_played(app, clock: Clock):
    """A started room whose phones have each played a word: (a phone, the room's code, a word's path not yet sent)."""
    host = app.test_client()
    reply = host.post("/rooms", data={"language": "en", "size": "4x4", "time": "120", "seed": "TRACE2"})
    code = reply.headers["Location"].rstrip("/").split("/")[-2]
    phones = [app.test_client() for _ in range(3)]
    for number, phone in enumerate(phones):
        assert phone.post(f"/rooms/{code}/players", data={"nickname": f"Pupil {number}"}).status_code == 303
    host.post(f"/rooms/{code}/start", data={})
    clock.now += 3.5
    with app.test_request_context():
        words = list(BoardRequest.from_url("en", "TRACE2", {"size": "4x4", "gen": "2"}).solution())
    paths = [" ".join(f"{r},{c}" for r, c in found.path) for found in words[:4]]
    for phone, path in zip(phones, paths, strict=False):
        phone.get(f"/rooms/{code}/play")
        assert phone.post(f"/rooms/{code}/words", data={"path": path}, headers=HTMX).status_code == 200
    return phones[0], code, paths[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", action="store_true", help="print every project function called, with its count")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        clock = Clock()
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "CLOCK": clock,
                "DATABASE_URL": f"sqlite:///{Path(folder) / 'store.sqlite3'}",
                "RATELIMIT_ENABLED": False,
                "INSTANCE_PATH": str(Path(folder) / "instance"),
            }
        )
        phone, code, path = room_with_a_word_played(app, clock)
        trace = Trace()
        sys.setprofile(trace)
        try:
            reply = phone.post(f"/rooms/{code}/words", data={"path": path}, headers=HTMX)
        finally:
            sys.setprofile(None)
        assert reply.status_code == 200, reply.get_data(as_text=True)[:300]
        modules = {module for module, _name in trace.calls if not module.startswith("templates/")}
        templates = {module for module, _name in trace.calls} - modules
        print(f"one room word (POST /rooms/{code}/words, htmx, a warm worker)")
        print(f"{'project modules':28}{len(modules):6}")
        print(f"{'templates':28}{len(templates):6}")
        print(f"{'project function calls':28}{sum(trace.calls.values()):6}")
        print(f"{'hops between modules':28}{trace.hops:6}")
        for label, names in ASKED.items():
            print(f"{'asked for ' + label:28}{trace.asked(names):6}")
        print("modules: " + ", ".join(sorted(modules)))
        print("templates: " + ", ".join(sorted(templates)))
        if args.calls:
            for (module, name), count in trace.calls.most_common():
                print(f"{count:6}  {module}:{name}")
        app.extensions["ruzzle"].store.dispose()


if __name__ == "__main__":
    main()
