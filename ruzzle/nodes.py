"""A flat trie of A-Z words that a solver can step through letter by letter without asking the dictionary.

MARISA answers "is this a prefix?" from the root every time; a search asks that for every step of every
path, so it walks the same prefixes again and again. The node table stores, for each trie node, a 26-bit
mask of the letters that continue it (bit 26: a word ends here) and the index of its first child; children
are stored together in letter order, so the child for letter c is `first + popcount(mask & (2**c - 1))`.

The table is written beside a compiled dictionary (`en.marisa` -> `en.nodes`) and memory-mapped, so that
every worker shares one copy; for a dictionary without one, it is built in memory on first use.
"""

from __future__ import annotations

import mmap
import re
import struct
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

WORD_BIT = 1 << 26
LETTER_BITS = WORD_BIT - 1
MAGIC = b"RUZZLE-NODES-1\n\0"
_HEADER = struct.Struct("<16sIIQ")  # magic, node count, key count and byte size of its .marisa file
_WORD = re.compile(r"[A-Z]+")


class NodeTable:
    """Per node: `masks[n]` (child letters + word bit) and `firsts[n]` (index of the first child)."""

    def __init__(self, masks: Sequence[int], firsts: Sequence[int]):
        self.masks = masks
        self.firsts = firsts

    @classmethod
    def build(cls, words: Iterable[str]) -> NodeTable:
        """The table of these words; anything that is not A-Z is left out (it can never be on a board)."""
        ordered = sorted(word for word in set(words) if _WORD.fullmatch(word))
        root: dict[str, Any] = {}  # letter -> child node; "" -> True where a word ends
        for word in ordered:
            node = root
            for letter in word:
                node = node.setdefault(letter, {})
            node[""] = True
        masks = array("I", [0])
        firsts = array("I", [0])
        queue = [root]  # breadth first, so that each node's children are numbered together
        for index, node in enumerate(queue):
            children = sorted(letter for letter in node if letter)
            mask = WORD_BIT if "" in node else 0
            for letter in children:
                mask |= 1 << (ord(letter) - 65)
            masks[index] = mask
            firsts[index] = len(queue)
            queue.extend(node[letter] for letter in children)
            masks.extend([0] * len(children))
            firsts.extend([0] * len(children))
        return cls(masks, firsts)

    def save(self, path: str | Path, marisa_keys: int, marisa_size: int) -> None:
        """Write the table, tied by key count and byte size to the dictionary file it was built from."""
        with open(path, "wb") as file:
            file.write(_HEADER.pack(MAGIC, len(self.masks), marisa_keys, marisa_size))
            file.write(array("I", self.masks).tobytes())
            file.write(array("I", self.firsts).tobytes())

    @classmethod
    def open(cls, path: Path, marisa_keys: int, marisa_size: int) -> NodeTable | None:
        """Memory-map a saved table, or None if it is missing or belongs to another dictionary."""
        try:
            with open(path, "rb") as file:
                mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return None
        if len(mapped) < _HEADER.size:
            return None
        magic, nodes, keys, size = _HEADER.unpack_from(mapped)
        if (magic, keys, size) != (MAGIC, marisa_keys, marisa_size) or len(mapped) != _HEADER.size + 8 * nodes:
            return None
        view = memoryview(mapped)[_HEADER.size :].cast("I")
        return cls(view[:nodes], view[nodes:])

    def __len__(self) -> int:
        return len(self.masks)
