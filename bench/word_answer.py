"""The size of a word's answer on a solo board: a player has found --found words, then sends one more word found,
the same word again (refused: already found) and a word that is not one (refused: not in the dictionary). Printed
per board size: the bytes of each answer's HTML and of the same HTML gzipped (what a phone downloads when the server
or a proxy compresses it).

    python3 bench/word_answer.py                  # 4x4 and 12x12, English, 30 words found first
    python3 bench/word_answer.py --found 100 --sizes 12x12

A word is answered with the regions it changes (issue 37): this says how many bytes that is, board by board.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)

from app import create_app  # noqa: E402
from views.boards import BoardRequest  # noqa: E402

HTMX = {"HX-Request": "true"}
SEED = "BENCHWORDS"


def answer_sizes(app, size: str, found: int) -> dict[str, tuple[int, int]]:
    """Bytes (HTML, gzipped) of the three answers on a board of `size` after `found` words."""
    with app.test_request_context():
        board = BoardRequest.from_url("en", SEED, {"size": size})
        words = list(board.solution())
        url, words_url = board.url(), board.page_url("words")
    if len(words) <= found:
        raise SystemExit(f"{size}: the board has {len(words)} words, not more than {found}")
    client = app.test_client()
    client.get(url)
    for word in words[1 : found + 1]:  # the best word last, so that its item goes first in the list
        client.post(words_url, data={"word": word.word}, headers=HTMX)
    sizes = {}
    for kind, word in (("found", words[0].word), ("already found", words[0].word), ("not a word", "ZZXQ")):
        html = client.post(words_url, data={"word": word}, headers=HTMX).get_data()
        sizes[kind] = (len(html), len(gzip.compress(html)))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--found", type=int, default=30, help="words found before the ones measured")
    parser.add_argument("--sizes", nargs="+", default=["4x4", "12x12"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "DATABASE_URL": f"sqlite:///{Path(folder) / 'store.sqlite3'}",
                "RATELIMIT_ENABLED": False,
                "SOLVING_RATE": 0,
            }
        )
        app.instance_path = str(Path(folder) / "instance")
        print(f"a word's answer after {args.found} words found (bytes of HTML / gzipped)")
        print(f"{'board':8} {'found':>16} {'already found':>16} {'not a word':>16}")
        for size in args.sizes:
            sizes = answer_sizes(app, size, args.found)
            cells = " ".join(f"{html:>8,} / {packed:>5,}" for html, packed in sizes.values())
            print(f"{size:8} {cells}")
        app.extensions["ruzzle.store"].dispose()


if __name__ == "__main__":
    main()
