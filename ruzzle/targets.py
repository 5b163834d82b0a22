"""Boards built around a teacher's own words: up to 8 target words, each on the board as a path.

A random board almost never holds eight given words, so the words are placed: the board of the seed is drawn as
always (its letters and bonus tiles), then the words are laid on it as paths, sharing tiles where their letters
agree, by a depth-first search with a budget of steps. An attempt that runs out of steps moves to the next seed in
order (`SEED`, `SEED.2`, `SEED.3`, ...: another drawn board, another order of trying) until ATTEMPTS were tried. The
same words, seed, language and size always give the same board. Words that cannot be on any board are refused
before the search, each with its reason; when the search fails, the words that do not fit with the others are named.
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
ATTEMPTS = 12  # seeds tried in order before the search gives up
STEPS_PER_ATTEMPT = 20_000  # tiles tried per attempt: a 4x4 board with 8 words that fit takes a few hundred
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
    seed = normalize_seed(seed)
    for attempt in range(1, attempts + 1):
        attempt_seed = seed if attempt == 1 else f"{seed[:60]}.{attempt}"
        base = generate(language, attempt_seed, rows, cols, LATEST_VERSION)
        grid = place_words(base, words, Stream(f"ruzzle-targets|{attempt_seed}|{'|'.join(words)}"))
        if grid is not None:
            return TargetBoard(with_letters(base, grid), words, attempt_seed)
    raise TargetsRefused(_misfits(language, seed, rows, cols, words))


def _misfits(language: str, seed: str, rows: int, cols: int, words: tuple[str, ...]) -> tuple[Refusal, ...]:
    """The words that do not fit beside the others: each word in turn is kept if it fits with those kept before it
    (longest first, the hardest to place), on the seed's board."""
    base = generate(language, seed, rows, cols, LATEST_VERSION)
    kept: list[str] = []
    misfits = []
    for word in sorted(words, key=lambda w: (-len(w), w)):
        if place_words(base, tuple(kept + [word]), Stream(f"ruzzle-targets|{seed}|misfit|{word}")) is None:
            misfits.append(
                Refusal(
                    word,
                    "no-room",
                    N_(
                        "%(word)s does not fit on the board together with the other words "
                        "(tried %(num)d boards); try a bigger board or fewer words."
                    ),
                    ATTEMPTS,
                )
            )
        else:
            kept.append(word)
    return tuple(misfits)


def with_letters(board: Board, grid: Grid) -> Board:
    """The board with the laid letters on their tiles (each tile keeps its bonus)."""
    tiles = tuple(Tile(letter or tile.letter, tile.multiplier) for tile, letter in zip(board.tiles, grid, strict=True))
    return Board(board.rows, board.cols, tiles, board.language)


def place_words(base: Board, words: tuple[str, ...], stream: Stream, steps: int = STEPS_PER_ATTEMPT) -> Grid | None:
    """Letters laid on the board's tiles so that each word is a path (tiles shared where letters agree), or None when
    the search ran out of steps or of ways. Longest words first; at each step a tile already holding the letter is
    tried first (words share tiles, so more of them fit), then a tile whose drawn letter is the one needed (the drawn
    board changes less), then the others, in an order drawn from the stream."""
    cells = len(base.tiles)
    if _tiles_needed(words) > cells:
        return None
    order = sorted(words, key=lambda w: (-len(w), w))
    grid: Grid = [None] * cells
    drawn = [tile.letter for tile in base.tiles]
    adjacency = base.adjacency
    budget = [steps]

    def ranked(candidates: Iterable[int], letter: str) -> list[int]:
        shuffled = stream.shuffled(list(candidates))
        return sorted(shuffled, key=lambda j: 0 if grid[j] == letter else 1 if drawn[j] == letter else 2)

    def extend(index: int, position: int, path: list[int]) -> bool:
        word = order[index]
        if position == len(word):
            return index + 1 == len(order) or extend(index + 1, 0, [])
        letter = word[position]
        around = range(cells) if position == 0 else adjacency[path[-1]]
        for j in ranked((j for j in around if j not in path and grid[j] in (None, letter)), letter):
            budget[0] -= 1
            if budget[0] < 0:
                return False
            laid = grid[j] is None
            grid[j] = letter
            path.append(j)
            if extend(index, position + 1, path):
                return True
            path.pop()
            if laid:
                grid[j] = None
        return False

    return grid if extend(0, 0, []) else None


def _tiles_needed(words: Iterable[str]) -> int:
    """The fewest tiles that can hold all the words: each letter as many times as the word that uses it most."""
    most: Counter[str] = Counter()
    for word in words:
        most |= Counter(word)
    return sum(most.values())
