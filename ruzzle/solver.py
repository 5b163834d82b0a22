"""Find every word on a board, each once, with its best path and score."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from operator import itemgetter
from typing import Any, NamedTuple

from .board import Board, Path
from .languages import get_language
from .lexicon import Lexicon
from .nodes import LETTER_BITS, WORD_BIT
from .rules import length_bonus

# Below this many paths sharing one prefix, following each path on its own is cheaper than grouping.
GROUP_THRESHOLD = 3
Partial = tuple[int, int, tuple[int, ...]]  # a path being grown: its letters' sum, its word factor, its cells


class Found(NamedTuple):
    """A word on the board with its best score and *the* path that scores it."""

    word: str
    score: int
    path: Path

    def to_json(self) -> dict[str, object]:
        """The word as elzzur's JSON writes it."""
        return {"word": self.word, "score": self.score, "path": [list(cell) for cell in self.path]}


# Sort orders (elzzur's, plus alphabetical); ties go to the higher score, then the alphabet.
SORT_KEYS: dict[str, Callable[[Found], tuple[Any, ...]]] = {
    "score": lambda f: (-f[1], f[0]),
    "length": lambda f: (-len(f[0]), -f[1], f[0]),
    "start": lambda f: (f[2][0], -f[1], f[0]),
    "end": lambda f: (f[2][-1], -f[1], f[0]),
    "alpha": lambda f: (f[0],),
}


def sort_found(found: Iterable[Found], order: str = "score", reverse: bool = False) -> list[Found]:
    """Words sorted by score, length, start cell, end cell or alphabet (ties: score, then word)."""
    if order == "score" and not reverse:
        # The default order, after every solve: two stable C-level sorts beat one with a Python key.
        return sorted(sorted(found, key=itemgetter(0)), key=itemgetter(1), reverse=True)
    return sorted(found, key=SORT_KEYS[order], reverse=reverse)


def solve(board: Board, lexicon: Lexicon, order: str = "score", exclude: Collection[str] = frozenset()) -> list[Found]:
    """Every word of the lexicon on the board but those in `exclude`, each with its best path (ties: smallest)."""
    cells = list(board.cells())
    letters = board.letters
    new = tuple.__new__  # Found(...) goes through a Python-level __new__; this is the same, faster
    found = []
    for score, path in _search(board, lexicon):
        spell = itemgetter(*path)  # paths have two tiles or more, so this returns a tuple
        found.append(new(Found, ("".join(spell(letters)), score, spell(cells))))
    if exclude:  # after the search, so that the hot loop stays as it is and the filter costs one set lookup a word
        found = [f for f in found if f[0] not in exclude]
    return sort_found(found, order)


def count_words(board: Board, lexicon: Lexicon) -> int:
    """How many words of the lexicon are on the board: the trie nodes of words reached, walking the board depth first
    with the tiles used as one bit mask, and no score, path or sort (the generator counts the words of thousands of
    candidate boards; this is some 40% faster than the search `solve` makes)."""
    codes = [ord(tile.letter) - 65 for tile in board.tiles]
    below = [(1 << code) - 1 for code in range(26)]
    adjacency = board.adjacency
    # Per tile: neighbours as (index, letter bit, mask of the letters before it, tile bit), and the letters around it.
    neighbours = [tuple((j, 1 << codes[j], below[codes[j]], 1 << j) for j in around) for around in adjacency]
    letters_around = [sum({1 << codes[j] for j in around}) for around in adjacency]
    masks, firsts = lexicon.nodes.masks, lexicon.nodes.firsts
    words: set[int] = set()
    reached = words.add

    def follow(node: int, last: int, used: int) -> None:
        mask = masks[node]
        first = firsts[node]
        for j, bit, lower, tile in neighbours[last]:
            if mask & bit and not used & tile:
                child = first + (mask & lower).bit_count()
                child_mask = masks[child]
                if child_mask & WORD_BIT:
                    reached(child)
                if child_mask & letters_around[j]:
                    follow(child, j, used | tile)

    root_mask, root_first = masks[0], firsts[0]
    for i, code in enumerate(codes):
        if root_mask >> code & 1:
            follow(root_first + (root_mask & below[code]).bit_count(), i, 1 << i)
    return len(words)


def _search(board: Board, lexicon: Lexicon) -> list[tuple[int, tuple[int, ...]]]:
    """(best score, smallest best path of tile indices) of each word, walking the board and the node table.

    Paths grow one letter at a time. All paths that spell the same prefix are kept in one list and grown
    together: on a large board a common prefix such as TH stands in hundreds of places, and the trie
    step, the word check and the bookkeeping are then done once for all of them. A prefix with a single
    path is followed on its own, depth first, which is cheaper on small boards. Paths are tuples of tile
    indices (row * cols + col), so comparing two paths compares their (row, col) pairs. Each word ends
    at its own trie node, so words are kept by node: no word is spelled until the search is over.
    """
    values = get_language(board.language).letter_values
    tiles = board.tiles
    codes = [ord(tile.letter) - 65 for tile in tiles]
    points = [values[tile.letter] * tile.letter_factor for tile in tiles]
    factors = [tile.word_factor for tile in tiles]
    below = [(1 << code) - 1 for code in range(26)]
    adjacency = board.adjacency
    # Per tile: neighbours as (index, letter bit, mask of the letters before it), the letters around it
    # as one mask, and the neighbours grouped by letter code.
    neighbours = [tuple((j, 1 << codes[j], below[codes[j]]) for j in around) for around in adjacency]
    letters_around = [sum({1 << codes[j] for j in around}) for around in adjacency]
    by_letter = []
    for around in adjacency:
        groups: list[tuple[int, ...]] = [()] * 26
        for j in around:
            groups[codes[j]] += (j,)
        by_letter.append(groups)
    bonuses = [length_bonus(n) for n in range(len(tiles) + 2)]
    masks, firsts = lexicon.nodes.masks, lexicon.nodes.firsts
    best: dict[int, tuple[int, tuple[int, ...]]] = {}  # word's trie node -> (score, path)
    best_get = best.get

    def keep(node: int, score: int, path: tuple[int, ...]) -> None:
        previous = best.get(node)
        if previous is None or score > previous[0] or (score == previous[0] and path < previous[1]):
            best[node] = (score, path)

    def follow(node: int, letter_sum: int, factor: int, path: tuple[int, ...]) -> None:
        mask = masks[node]
        first = firsts[node]
        bonus = bonuses[len(path) + 1]
        for j, bit, lower in neighbours[path[-1]]:
            if mask & bit and j not in path:
                child = first + (mask & lower).bit_count()
                child_mask = masks[child]
                s = letter_sum + points[j]
                f = factor * factors[j]
                grown = path + (j,)
                if child_mask & WORD_BIT:  # keep() inlined: this is the hot loop
                    score = s * f + bonus
                    previous = best_get(child)
                    if previous is None or score > previous[0] or (score == previous[0] and grown < previous[1]):
                        best[child] = (score, grown)
                if child_mask & letters_around[j]:
                    follow(child, s, f, grown)

    def grow(node: int, paths: list[Partial]) -> None:
        if len(paths) < GROUP_THRESHOLD:
            for letter_sum, factor, path in paths:
                follow(node, letter_sum, factor, path)
            return
        mask = masks[node]
        reach = 0
        for _, _, path in paths:
            reach |= letters_around[path[-1]]
        todo = mask & reach
        bonus = bonuses[len(paths[0][2]) + 1]
        while todo:
            bit = todo & -todo
            todo ^= bit
            code = bit.bit_length() - 1
            grown = [
                (s + points[j], f * factors[j], path + (j,))
                for s, f, path in paths
                for j in by_letter[path[-1]][code]
                if j not in path
            ]
            if not grown:
                continue
            child = firsts[node] + (mask & below[code]).bit_count()
            child_mask = masks[child]
            if child_mask & WORD_BIT:
                top = max(s * f for s, f, _ in grown)
                keep(child, top + bonus, min(p for s, f, p in grown if s * f == top))
            if child_mask & LETTER_BITS:
                grow(child, grown)

    starts: dict[int, list[Partial]] = {}
    for i, code in enumerate(codes):
        starts.setdefault(code, []).append((points[i], factors[i], (i,)))
    root_mask, root_first = masks[0], firsts[0]
    for code, paths in sorted(starts.items()):
        if root_mask >> code & 1:
            grow(root_first + (root_mask & below[code]).bit_count(), paths)
    return list(best.values())
