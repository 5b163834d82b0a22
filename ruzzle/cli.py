"""The command line `python -m ruzzle`: solve, generate, demo, languages, compile, cat (a superset of elzzur's)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from .blocklist import blocked_words
from .board import Board
from .errors import BoardFormatError, DictionaryError, RuzzleError
from .generator import LATEST_VERSION, VERSIONS, generate, new_seed
from .languages import LANGUAGES, get_language
from .lexicon import Lexicon, builtin_dictionary_path
from .solver import SORT_KEYS, Found, solve, sort_found

PROG = "ruzzle"
STATS_LABEL_WIDTH = 28  # elzzur lines its three statistics up in one column
COLUMN_GAP = 4


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is 0 when it worked, 2 on a usage error or bad input."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # argparse exits on --help (0) and on a usage error (2)
        return int(stop.code or 0)
    try:
        args.command(args)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except (RuzzleError, OSError) as error:
        print(f"{PROG}: error: {describe(error)}", file=sys.stderr)
        return 2
    return 0


def describe(error: Exception) -> str:
    """One line a person can act on: a file error names its file, as Unix tools do."""
    if isinstance(error, OSError) and error.strerror:
        return f"{error.filename}: {error.strerror}" if error.filename else error.strerror
    return str(error)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush into a closed pipe stays quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subcommand per action."""
    parser = argparse.ArgumentParser(prog=PROG, description="Ruzzle, the word game: solve and generate boards.")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    output = _output_options()
    solve_parser = commands.add_parser("solve", parents=[output], help="find every word on a board")
    solve_parser.add_argument("-b", "--board", required=True, help="board text file, or - for stdin")
    solve_parser.set_defaults(command=run_solve)
    demo = commands.add_parser("demo", parents=[output], help="solve a language's demo board")
    demo.set_defaults(command=run_demo)
    _add_generate(commands)
    commands.add_parser("languages", help="list the languages").set_defaults(command=run_languages)
    _add_dictionary_tools(commands)
    return parser


def _output_options() -> argparse.ArgumentParser:
    """The options that solve and demo share: language, dictionary, order, format and the safe filter."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument("-l", "--language", default="en", help="language code (default: en)")
    options.add_argument("-d", "--dictionary", help=".marisa file or word list (default: the built-in one)")
    options.add_argument("-s", "--sort", default="score", choices=list(SORT_KEYS), help="order of the words")
    options.add_argument("-R", "--reverse", action="store_true", help="reverse the order of the words")
    options.add_argument("-q", "--quiet", action="store_true", help="print the words only (text format)")
    options.add_argument("--format", default="text", choices=["text", "json"], help="output format")
    options.add_argument(
        "--safe",
        action="store_true",
        help="classroom-safe: leave out the language's offensive words (the web app's default)",
    )
    return options


def _add_generate(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The generate subcommand and its options."""
    parser = commands.add_parser("generate", help="generate a board from a seed")
    parser.add_argument("-l", "--language", default="en", help="language code (default: en)")
    parser.add_argument("-r", "--rows", type=int, default=4, help="number of rows (default: 4)")
    parser.add_argument("-c", "--cols", type=int, default=4, help="number of columns (default: 4)")
    parser.add_argument("--seed", help="seed of the board (default: a new one, printed to stderr)")
    parser.add_argument(
        "--generator",
        type=int,
        choices=VERSIONS,
        default=LATEST_VERSION,
        help=f"generator version (default: {LATEST_VERSION}, the web's new boards; 1: a board URL without gen=)",
    )
    parser.add_argument("-o", "--output", help="write the board to this file instead of stdout")
    parser.set_defaults(command=run_generate)


def _add_dictionary_tools(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The compile and cat subcommands."""
    compile_parser = commands.add_parser("compile", help="compile a word list into a .marisa dictionary")
    compile_parser.add_argument("-d", "--dictionary", required=True, help="word list, one word per line")
    compile_parser.add_argument("-o", "--output", required=True, help="the .marisa file to write (and .nodes)")
    compile_parser.set_defaults(command=run_compile)
    cat = commands.add_parser("cat", help="print every word of a dictionary, sorted")
    cat.add_argument("-d", "--dictionary", required=True, help=".marisa file or word list")
    cat.set_defaults(command=run_cat)


def run_solve(args: argparse.Namespace) -> None:
    """Solve a board read from a file or stdin."""
    language = get_language(args.language).code
    board = read_board(args.board, language)
    print_solution(board, load_lexicon(args.dictionary, language), args)


def run_demo(args: argparse.Namespace) -> None:
    """Solve the language's demo board."""
    language = get_language(args.language).code
    text = resources.files(__package__).joinpath(f"data/demo/{language}.board").read_text(encoding="utf-8")
    board = Board.parse(text, language)
    print_solution(board, load_lexicon(args.dictionary, language), args)


def run_generate(args: argparse.Namespace) -> None:
    """Generate a board; a new seed goes to stderr so that the board can be made again."""
    seed = new_seed() if args.seed is None else args.seed
    text = str(generate(args.language, seed, args.rows, args.cols, version=args.generator)) + "\n"
    if args.output is None:
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}", file=sys.stderr)
    if args.seed is None:  # only once the board is out, so that an error stays the one line on stderr
        print(f"seed: {seed}", file=sys.stderr)


def run_languages(args: argparse.Namespace) -> None:
    """List every language with the size of its built-in dictionary."""
    width = max(len(language.name) for language in LANGUAGES.values())
    for code, language in LANGUAGES.items():
        print(f"{code}  {language.name.ljust(width)}  {builtin_summary(code)}")


def builtin_summary(code: str) -> str:
    """The word count of a language's built-in dictionary, or that it has none yet."""
    try:
        path = builtin_dictionary_path(code)
    except DictionaryError:
        return "no built-in dictionary yet"
    return f"{len(Lexicon.load(path))} words"


def run_compile(args: argparse.Namespace) -> None:
    """Compile a word list into a .marisa file (with its .nodes table beside it)."""
    lexicon = Lexicon.load(args.dictionary)
    lexicon.save(args.output)
    print(f"{len(lexicon)} words written to {args.output}")


def run_cat(args: argparse.Namespace) -> None:
    """Print every word of a dictionary, one per line, sorted."""
    lexicon = Lexicon.load(args.dictionary)
    sys.stdout.write("".join(word + "\n" for word in lexicon))


def read_board(source: str, language: str) -> Board:
    """The board in a text file, or on stdin for `-`; errors name where the board came from."""
    name = "<stdin>" if source == "-" else source
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BoardFormatError(f"{name}: a board file must be UTF-8 text") from None
    try:
        return Board.parse(text, language)
    except BoardFormatError as error:
        raise BoardFormatError(f"{name}: {error}") from None


def load_lexicon(path: str | None, language: str) -> Lexicon:
    """The dictionary at this path, or the language's built-in one."""
    return Lexicon.builtin(language) if path is None else Lexicon.load(path)


def print_solution(board: Board, lexicon: Lexicon, args: argparse.Namespace) -> None:
    """Solve the board and print the words in the chosen order and format."""
    exclude = blocked_words(board.language) if args.safe else frozenset()
    found = sort_found(solve(board, lexicon, exclude=exclude), args.sort, args.reverse)
    if args.format == "json":
        text = json.dumps(solution_json(board, found)) + "\n"
    elif args.quiet:
        text = word_lines(found)
    else:
        text = solution_text(board, found)
    sys.stdout.write(text)


def solution_json(board: Board, found: list[Found]) -> dict[str, object]:
    """The solution as one JSON object (elzzur's fields, plus the board size and totals)."""
    return {
        "language": board.language,
        "rows": board.rows,
        "cols": board.cols,
        "board": board.to_json(),
        "words": [f.to_json() for f in found],
        "total_score": sum(f.score for f in found),
        "word_count": len(found),
    }


def solution_text(board: Board, found: list[Found]) -> str:
    """elzzur's report: the board, one line per word, then three statistics."""
    words = word_lines(found)
    stats = [
        ("Number of words:", len(found)),
        ("Length of the longest word:", max((len(f.word) for f in found), default=0)),
        ("Maximum total score:", sum(f.score for f in found)),
    ]
    stats_text = "".join(f"{label.ljust(STATS_LABEL_WIDTH)}{value}\n" for label, value in stats)
    return f"\n{board}\n\n" + (words + "\n" if words else "") + stats_text


def word_lines(found: list[Found]) -> str:
    """One line per word: the word and its score in aligned columns, then its path as (r,c) pairs."""
    if not found:
        return ""
    word_width = max(len(f.word) for f in found) + COLUMN_GAP
    score_width = max(len(str(f.score)) for f in found) + COLUMN_GAP
    return "".join(f"{f.word.ljust(word_width)}{str(f.score).ljust(score_width)}{format_path(f.path)}\n" for f in found)


def format_path(path: Sequence[tuple[int, int]]) -> str:
    """A path as elzzur writes it: `(r,c) (r,c) ...`."""
    return " ".join(f"({row},{col})" for row, col in path)
