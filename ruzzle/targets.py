"""Boards built around a teacher's own words: up to 8 target words, each on the board as a path.

A random board almost never holds eight given words, so the words are placed: the board of the seed is drawn as
always (its letters and bonus tiles), then the words are laid on it as paths, sharing tiles where their letters
agree, by a depth-first search with a budget of steps (a step is a tile tried), never of time: every worker must
build the same board. A search that runs out of steps gives way to another, whose tiles are tried in another order;
every ATTEMPTS_PER_SEED searches the next seed in order is drawn (`SEED`, `SEED.2`, `SEED.3`, ...), until ATTEMPTS
searches were made. The same words, seed, language and size always give the same board. Words that cannot be on any
board are refused before the search, each with its reason (letters, dictionary, length, copies of a letter, more
tiles than the board has); when the search fails, the words missing from its fullest try are named.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Set
from dataclasses import dataclass

from .board import Board, Tile
from .errors import N_, RuzzleError
from .generator import LATEST_VERSION, Stream, generate, most_copies, normalize_seed
from .lexicon import Lexicon, normalize_word
from .rules import MIN_WORD_LENGTH

MAX_TARGETS = 8
ATTEMPTS = 24  # searches before giving up: short searches, each from another order, find more than a long one
ATTEMPTS_PER_SEED = 8  # then the next seed in order: another drawn board (drawing one costs as much as a few searches)
STEPS_PER_ATTEMPT = 3_000  # tiles tried per search
PATHS_SEEN = 200  # a word's paths looked at, at each turn of the search, to choose those that share the most tiles
PATHS_KEPT = 4  # ... and the paths tried (the best sharing first) before going back to the word before
Grid = list[str | None]  # the target words' letters laid so far, by tile index (None: the drawn board's letter)


class TooManyTargets(RuzzleError):
    """More target words than a board is built around."""


@dataclass(frozen=True)
class Refusal:
    """A target word that cannot be on the board, and why: `reason` is a code a test can check, `message` a sentence
    (a template with `word` and `num`, for gettext)."""

    word: str
    reason: str
    message: str
    num: int = 0


class TargetsRefused(RuzzleError):
    """Some target words cannot be on a board of this size; `refusals` says which and why."""

    def __init__(self, refusals: tuple[Refusal, ...]):
        super().__init__(N_("%(words)s cannot be on the board"), words=", ".join(r.word for r in refusals))
        self.refusals = refusals


@dataclass(frozen=True)
class TargetBoard:
    """A board with every target word on it, and the seed of the attempt that built it."""

    board: Board
    targets: tuple[str, ...]
    seed: str


def parse_targets(text: str) -> tuple[str, ...]:
    """The target words of a form field (separated by commas, spaces or lines), as typed, at most MAX_TARGETS."""
    words = tuple(dict.fromkeys(part for part in text.replace(",", " ").replace(";", " ").split() if part))
    if len(words) > MAX_TARGETS:
        raise TooManyTargets(
            N_("A board is built around at most %(most)d words, not %(num)d."), most=MAX_TARGETS, num=len(words)
        )
    return words


def check_targets(
    typed: Iterable[str], lexicon: Lexicon, cells: int, blocked: Set[str] = frozenset()
) -> tuple[tuple[str, ...], tuple[Refusal, ...]]:
    """The words as a board spells them (sorted, each once) and the refusals of those that cannot be on any board."""
    words: list[str] = []
    refusals: list[Refusal] = []
    for text in typed:
        word = normalize_word(text)
        if word is None:
            refusals.append(Refusal(text, "letters", N_("%(word)s: a word is made of letters only (A to Z).")))
        elif len(word) < MIN_WORD_LENGTH:
            refusals.append(
                Refusal(word, "too-short", N_("%(word)s: a word has at least %(num)d letters."), MIN_WORD_LENGTH)
            )
        elif len(word) > cells:
            refusals.append(
                Refusal(word, "too-long", N_("%(word)s is longer than the board has tiles (%(num)d)."), cells)
            )
        elif word not in lexicon:
            refusals.append(Refusal(word, "not-a-word", N_("%(word)s is not in this language's dictionary.")))
        elif word in blocked:
            refusals.append(Refusal(word, "blocked", N_("%(word)s is not allowed on a classroom board.")))
        elif max(Counter(word).values()) > most_copies(cells):
            refusals.append(
                Refusal(
                    word,
                    "copies",
                    N_("%(word)s needs a letter more than %(num)d times, as no board this size has it."),
                    most_copies(cells),
                )
            )
        else:
            words.append(word)
    return tuple(sorted(set(words))), tuple(refusals)


def build_target_board(
    language: str,
    seed: str,
    rows: int,
    cols: int,
    typed: Iterable[str],
    lexicon: Lexicon,
    blocked: Set[str] = frozenset(),
    attempts: int = ATTEMPTS,
) -> TargetBoard:
    """A board of the seed's language and size with every target word on it; TargetsRefused naming the words that
    cannot be (and why), or TooManyTargets."""
    typed = tuple(typed)
    if len(typed) > MAX_TARGETS:
        raise TooManyTargets(
            N_("A board is built around at most %(most)d words, not %(num)d."), most=MAX_TARGETS, num=len(typed)
        )
    cells = rows * cols
    words, refusals = check_targets(typed, lexicon, cells, blocked)
    if refusals:
        raise TargetsRefused(refusals)
    needed = _tiles_needed(words)
    if needed > cells:
        raise TargetsRefused(
            (
                Refusal(
                    ", ".join(words),
                    "tiles",
                    N_("%(word)s: together these words need at least %(num)d tiles, more than the board has."),
                    needed,
                ),
            )
        )
    seed = normalize_seed(seed)
    most_placed: tuple[str, ...] = ()
    base = generate(language, seed, rows, cols, LATEST_VERSION)
    attempt_seed = seed
    for attempt in range(attempts):
        if attempt and attempt % ATTEMPTS_PER_SEED == 0:  # the next seed in order: another drawn board
            attempt_seed = f"{seed[:60]}.{attempt // ATTEMPTS_PER_SEED + 1}"
            base = generate(language, attempt_seed, rows, cols, LATEST_VERSION)
        stream = Stream(f"ruzzle-targets|{attempt_seed}|{attempt}|{'|'.join(words)}")
        placement = place_words(base, words, stream)
        if placement.grid is not None:
            return TargetBoard(with_letters(base, placement.grid), words, attempt_seed)
        if len(placement.placed) > len(most_placed):
            most_placed = placement.placed
    raise TargetsRefused(
        tuple(
            Refusal(
                word,
                "no-room",
                N_(
                    "%(word)s does not fit on the board together with the other words (tried %(num)d boards); try "
                    "a bigger board or fewer words."
                ),
                -(-attempts // ATTEMPTS_PER_SEED),
            )
            for word in words
            if word not in most_placed
        )
    )


def with_letters(board: Board, grid: Grid) -> Board:
    """The board with the laid letters on their tiles (each tile keeps its bonus)."""
    tiles = tuple(Tile(letter or tile.letter, tile.multiplier) for tile, letter in zip(board.tiles, grid, strict=True))
    return Board(board.rows, board.cols, tiles, board.language)


@dataclass(frozen=True)
class Placement:
    """What a search laid: the letters by tile when every word is on the board (else None), and the most words it
    laid together (all of them when it succeeded)."""

    grid: Grid | None
    placed: tuple[str, ...]


def place_words(base: Board, words: tuple[str, ...], stream: Stream, steps: int = STEPS_PER_ATTEMPT) -> Placement:
    """Letters laid on the board's tiles so that each word is a path, tiles shared where letters agree; a depth-first
    search of at most `steps` tiles tried. The next word is the one with the most letters already on the board (the
    longest first); for each letter a tile already holding it is tried first (words share tiles, so more of them
    fit), then a tile whose drawn letter it is (the drawn board changes less), then the others, in an order drawn
    from the stream once per search."""
    cells = len(base.tiles)
    if _tiles_needed(words) > cells:
        return Placement(None, ())
    grid: Grid = [None] * cells
    drawn = [tile.letter for tile in base.tiles]
    adjacency = base.adjacency
    rank = [0] * cells
    for position, j in enumerate(stream.shuffled(list(range(cells)))):
        rank[j] = position
    budget = [steps]
    most: list[tuple[str, ...]] = [()]

    def next_word(left: tuple[str, ...], placed: tuple[str, ...]) -> bool:
        if len(placed) > len(most[0]):
            most[0] = placed
        if not left:
            return True
        laid: Counter[str] = Counter(letter for letter in grid if letter)
        word = max(left, key=lambda w: (_letters_laid(w, laid), len(w), w))
        rest = tuple(w for w in left if w != word)
        for path in best_paths(word):
            new = [j for j in path if grid[j] is None]
            for j, letter in zip(path, word, strict=True):
                grid[j] = letter
            if next_word(rest, placed + (word,)):
                return True
            for j in new:
                grid[j] = None
            if budget[0] < 0:
                return False
        return False

    def best_paths(word: str) -> list[list[int]]:
        """Up to PATHS_KEPT of the word's paths on the grid as it is, those that share the most tiles first."""
        paths: list[list[int]] = []

        def walk(path: list[int]) -> None:
            if len(path) == len(word):
                paths.append(list(path))
                return
            letter = word[len(path)]
            around = range(cells) if not path else adjacency[path[-1]]
            candidates = [j for j in around if grid[j] in (None, letter) and j not in path]
            candidates.sort(key=lambda j: (0 if grid[j] == letter else 1 if drawn[j] == letter else 2, rank[j]))
            for j in candidates:
                budget[0] -= 1
                if budget[0] < 0 or len(paths) >= PATHS_SEEN:
                    return
                path.append(j)
                walk(path)
                path.pop()

        walk([])
        paths.sort(key=lambda path: -shared(path))  # (a stable sort: equally shared paths in the walk's order)
        return paths[:PATHS_KEPT]

    def shared(path: list[int]) -> int:
        """How many of the path's tiles already hold their letter."""
        return sum(grid[j] is not None for j in path)

    if next_word(words, ()):
        return Placement(grid, words)
    return Placement(None, most[0])


def _letters_laid(word: str, laid: Counter[str]) -> int:
    """How many of the word's letters are on the board already (each as many times as it is laid)."""
    return sum(min(count, laid[letter]) for letter, count in Counter(word).items())


def _tiles_needed(words: Iterable[str]) -> int:
    """The fewest tiles that can hold all the words: each letter as many times as the word that uses it most."""
    most: Counter[str] = Counter()
    for word in words:
        most |= Counter(word)
    return sum(most.values())
