"""A worker's memory and the store's live tables over days of live rounds (issue 21, "bounded for a day"): the app in
this process (one worker), its Flask test client, SQLite in a temporary folder, a clock the bench moves slot by slot.

    python3 bench/live.py                     # 500 rounds, one every 3rd slot (75 hours of clock), 4 players
    python3 bench/live.py -n 1000 --gap 1     # every slot: 1,000 rounds, 50 hours
    python3 bench/live.py --players 8 --words 5
    python3 bench/live.py --cache 128         # the rendered boards' caches 128 each: full after some 130 rounds

Each round: every player opens the board (the first one of a new slot makes its round), sends its words, and after the
end opens its results (rank, percentile, the rankings of the round, the hour and the day); then the clock goes to the
next round played. Every 50 rounds: this process's RSS and the rows of the live rooms' tables. Targets: RSS growth
after warm-up (round 50) under ~10 MB; the tables' rows level off once the clock is past a day and an hour (the
clean-up keeps LIVE_KEEP_SECONDS of rounds).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

# the repository instead of bench/ (whose limits.py would stand for the `limits` package flask-limiter imports)
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from app import create_app  # noqa: E402
from ruzzle.live import Schedule  # noqa: E402

TARGET_MB = 10
START = 1_790_000_000


class Clock:
    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def get(client, url: str, **headers) -> tuple[int, str]:
    with client.get(url, headers=headers) as answer:  # closed as a server closes it (the next slot is made then)
        return answer.status_code, answer.get_data(as_text=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--rounds", type=int, default=500)
    parser.add_argument("--gap", type=int, default=3, help="slots from one round played to the next (default 3)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--words", type=int, default=3, help="words each player sends a round")
    parser.add_argument("--every", type=int, default=50, help="rounds between samples")
    parser.add_argument("--language", default="en")
    parser.add_argument(
        "--cache",
        type=int,
        default=None,
        help="BOARDS_RENDERED_CACHED (1024 by default): a smaller one is full sooner, so what is left "
        "of the growth after it is not a cache filling up",
    )
    args = parser.parse_args()
    plan = Schedule()
    clock = Clock(plan.starts(plan.slot_at(START) + 1) + 1)
    folder = tempfile.TemporaryDirectory(prefix="ruzzle-live-bench-")
    app = create_app(
        {
            "SECRET_KEY": "bench",
            "CLOCK": clock,
            "DATABASE_URL": f"sqlite:///{folder.name}/store.sqlite3",
            # the per-client limits off: the clock runs days an hour here, and the solving budget counts
            # seconds of this machine's clock (a real worker solves a live board every 3 minutes)
            "RATELIMIT_ENABLED": False,
            "SOLVING_RATE": 0,
            **({"BOARDS_RENDERED_CACHED": args.cache} if args.cache else {}),
        }
    )
    app.instance_path = f"{folder.name}/instance"
    store = app.extensions["ruzzle.store"]
    code = f"LIVE{args.language.upper()}"
    phones = []
    for n in range(args.players):
        phone = app.test_client()
        get(phone, f"/live/{args.language}")
        assert phone.post(f"/rooms/{code}/players", data={"nickname": f"Player {n + 1}"}).status_code == 303
        phones.append(phone)
    htmx = {"HX-Request": "true"}
    errors = requests = 0
    samples = []
    started = time.monotonic()
    print(
        f"{'rounds':>6} {'clock (h)':>9} {'RSS MB':>7} {'room_rounds':>11} {'room_players':>12} {'rounds':>7} "
        f"{'words':>7}",
        flush=True,
    )

    def sample(done: int) -> None:
        gc.collect()
        counts = store.live.counts()
        samples.append((done, rss_mb(), counts))
        print(
            f"{done:6d} {(clock.now - START) / 3600:9.1f} {samples[-1][1]:7.1f} {counts['room_rounds']:11d} "
            f"{counts['room_players']:12d} {counts['rounds']:7d} {counts['words']:7d}",
            flush=True,
        )

    sample(0)
    for done in range(1, args.rounds + 1):
        for index, phone in enumerate(phones):
            status, _ = get(phone, f"/rooms/{code}/play")
            requests += 1
            errors += status != 200
            for found in _words(app, clock, args.language)[index : index + args.words]:
                answer = phone.post(f"/rooms/{code}/words", data={"word": found}, headers=htmx)
                requests += 1
                errors += answer.status_code != 200
        clock.now += plan.play_seconds + 3
        for phone in phones:
            status, html = get(phone, f"/rooms/{code}/play", **htmx)
            requests += 1
            errors += status != 200 or "Rank <strong>" not in html
        clock.now += plan.slot_seconds * args.gap - plan.play_seconds - 3
        if done % args.every == 0:
            sample(done)
    elapsed = time.monotonic() - started
    warm = samples[1][1] if len(samples) > 1 else samples[0][1]
    growth = samples[-1][1] - warm
    peak = {table: max(counts[table] for _, _, counts in samples) for table in samples[-1][2]}
    print(
        f"\n{args.rounds} live rounds ({args.language}, {args.players} players, {args.words} words each, one every "
        f"{args.gap} slot(s): {(clock.now - START) / 3600:.0f} h of clock), {requests} requests in {elapsed:.0f} s, "
        f"{errors} errors"
    )
    print(
        f"RSS after warm-up (round {samples[1][0] if len(samples) > 1 else 0}) {warm:.1f} MB, at the end "
        f"{samples[-1][1]:.1f} MB: growth {growth:+.1f} MB (target < {TARGET_MB} MB); peak rows {peak}"
    )
    folder.cleanup()
    return 0 if errors == 0 and growth < TARGET_MB else 1


def _words(app, clock, language: str) -> list[str]:
    """The words of the board under way, best first (the bench plays them as a good player would)."""
    from views.live import schedule, slot_board

    with app.test_request_context():
        return [found.word for found in slot_board(language, schedule().slot_at(clock.now)).solution()]


if __name__ == "__main__":
    sys.exit(main())
