"""Ruzzle, the word game: rules, boards, dictionaries, solver and board generator (no web code here)."""

from .blocklist import blocked_words
from .board import Board, Cell, Path, Tile
from .errors import (
    BoardFormatError,
    DictionaryError,
    InvalidPath,
    InvalidSeed,
    InvalidSize,
    RuzzleError,
    UnknownLanguage,
)
from .frequency import common_words, is_common
from .generator import generate, new_seed, normalize_seed
from .languages import LANGUAGES, Language, get_language
from .lexicon import Lexicon, normalize_word
from .rules import Multiplier, length_bonus
from .scoring import LetterScore, ScoreBreakdown, score_breakdown, score_path, validate_path
from .solver import Found, solve, sort_found

__all__ = [
    "Board",
    "BoardFormatError",
    "Cell",
    "DictionaryError",
    "Found",
    "InvalidPath",
    "InvalidSeed",
    "InvalidSize",
    "LANGUAGES",
    "Language",
    "LetterScore",
    "Lexicon",
    "Multiplier",
    "Path",
    "RuzzleError",
    "ScoreBreakdown",
    "Tile",
    "UnknownLanguage",
    "blocked_words",
    "common_words",
    "generate",
    "get_language",
    "is_common",
    "length_bonus",
    "new_seed",
    "normalize_seed",
    "normalize_word",
    "score_breakdown",
    "score_path",
    "solve",
    "sort_found",
    "validate_path",
]
