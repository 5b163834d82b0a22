"""The command line `python -m ruzzle`: outputs, orders, round trips, and one clear line for every error."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruzzle import LANGUAGES, Board, Lexicon, generate
from ruzzle.cli import main
from ruzzle.generator import FIRST_VERSION, LATEST_VERSION, VERSIONS

ROOT = Path(__file__).resolve().parent.parent
DEMO_BOARD = ROOT / "ruzzle" / "data" / "demo" / "en.board"
EN_DICTIONARY = ROOT / "dictionaries" / "en.marisa"
COHESIVE_PATH = [[2, 0], [1, 0], [1, 1], [1, 2], [0, 2], [1, 3], [2, 3], [3, 3]]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the command line in this process: exit status, stdout, stderr."""
    status = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def solve_json(capsys, *options: str) -> dict:
    """The JSON solution of the English demo board."""
    status, out, _ = run(capsys, "solve", "-b", DEMO_BOARD, "--format", "json", *options)
    assert status == 0
    return json.loads(out)


def test_text_report_is_board_words_then_stats(capsys):
    status, out, err = run(capsys, "solve", "-b", DEMO_BOARD)
    assert (status, err) == (0, "")
    board = Board.parse(DEMO_BOARD.read_text(encoding="utf-8"))
    head, words, stats = out.split("\n\n")
    assert head == "\n" + str(board)
    lines = words.splitlines()
    assert lines[0] == "COHESIVE    224    (2,0) (1,0) (1,1) (1,2) (0,2) (1,3) (2,3) (3,3)"
    total = sum(int(line.split()[1]) for line in lines)
    assert stats.splitlines() == [
        f"Number of words:            {len(lines)}",
        "Length of the longest word: 8",
        f"Maximum total score:        {total}",
    ]


def test_text_and_json_list_the_same_words_in_the_same_order(capsys):
    _, out, _ = run(capsys, "solve", "-b", DEMO_BOARD, "-q", "-s", "end")
    words = [(f["word"], f["score"]) for f in solve_json(capsys, "-s", "end")["words"]]
    assert [(line.split()[0], int(line.split()[1])) for line in out.splitlines()] == words


def test_quiet_prints_only_the_word_lines(capsys):
    _, out, _ = run(capsys, "solve", "-b", DEMO_BOARD, "-q")
    lines = out.splitlines()
    assert lines[0].startswith("COHESIVE ")
    assert all(line.split()[0].isalpha() and line.endswith(")") for line in lines)


def test_json_totals_agree_with_its_words(capsys):
    solution = solve_json(capsys)
    assert (solution["language"], solution["rows"], solution["cols"]) == ("en", 4, 4)
    assert solution["word_count"] == len(solution["words"]) > 200
    assert solution["total_score"] == sum(word["score"] for word in solution["words"])
    assert solution["words"][0] == {"word": "COHESIVE", "score": 224, "path": COHESIVE_PATH}


# Each order's main key, as elzzur documents it: ties may fall either way, the main key may not.
ORDER_KEYS = {
    "score": lambda w: -w["score"],
    "length": lambda w: -len(w["word"]),
    "start": lambda w: w["path"][0],
    "end": lambda w: w["path"][-1],
    "alpha": lambda w: w["word"],
}


@pytest.mark.parametrize(
    "order",
    ["score", "length", "start", "end", "alpha"],
    ids=["score_highest_first", "length_longest_first", "start_by_first_cell", "end_by_last_cell", "alpha_by_alphabet"],
)
@pytest.mark.parametrize("reverse", [False, True], ids=["as_given", "reversed_with_R"])
def test_words_follow_the_sort_order(capsys, order, reverse):
    words = solve_json(capsys, "-s", order, *(["-R"] if reverse else []))["words"]
    keys = [ORDER_KEYS[order](word) for word in words]
    assert keys == sorted(keys, reverse=reverse)


def test_reverse_is_the_exact_reverse(capsys):
    forward = solve_json(capsys, "-s", "length")["words"]
    assert solve_json(capsys, "-s", "length", "-R")["words"] == forward[::-1]


def test_a_plain_text_dictionary_limits_the_words(capsys, tmp_path):
    words = tmp_path / "tiny.txt"
    words.write_text("cohesive\nEcho\nzebra\n", encoding="utf-8")
    solution = solve_json(capsys, "-d", words)
    assert [(w["word"], w["score"]) for w in solution["words"]] == [("COHESIVE", 224), ("ECHO", 144)]


def test_board_can_come_from_stdin(capsys, monkeypatch, tmp_path):
    words = tmp_path / "tiny.txt"
    words.write_text("chi\nhoi\noh\nzoo\n", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeffOdw Htw\r\nCdw I \r\n"))
    status, out, _ = run(capsys, "solve", "-b", "-", "-d", words, "-q", "-s", "alpha")
    assert status == 0
    assert out == "CHI    54    (1,0) (0,1) (1,1)\nHOI    36    (0,1) (0,0) (1,1)\nOH     30    (0,0) (0,1)\n"


def test_demo_solves_the_demo_board(capsys):
    assert run(capsys, "demo", "-l", "EN") == run(capsys, "solve", "-b", DEMO_BOARD)


def test_generate_is_deterministic_for_a_seed(capsys):
    first = run(capsys, "generate", "--seed", "ABC234")
    assert first == run(capsys, "generate", "--seed", " abc234 ")
    status, out, err = first
    assert (status, err) == (0, "")
    assert Board.parse(out).rows == 4 and len(out.splitlines()) == 4


def test_generate_makes_the_boards_the_web_makes_new_and_an_older_generators_on_request(capsys):
    """One rule for new boards (ruzzle.generator.LATEST_VERSION): the command line made version 1's boards while the
    web's new boards were version 2's."""
    latest, first = generate("en", "ABC234", version=LATEST_VERSION), generate("en", "ABC234", version=FIRST_VERSION)
    assert latest != first
    assert run(capsys, "generate", "--seed", "ABC234") == (0, f"{latest}\n", "")
    assert run(capsys, "generate", "--seed", "ABC234", "--generator", str(FIRST_VERSION)) == (0, f"{first}\n", "")
    status, _, err = run(capsys, "generate", "--generator", max(VERSIONS) + 1)
    assert status == 2 and "invalid choice" in err


def test_generate_without_seed_prints_one_that_reproduces_the_board(capsys):
    status, out, err = run(capsys, "generate", "-r", "3", "-c", "5")
    assert status == 0
    assert err.startswith("seed: ") and len(err.split()[1]) == 6
    assert run(capsys, "generate", "-r", "3", "-c", "5", "--seed", err.split()[1])[1] == out
    assert (Board.parse(out).rows, Board.parse(out).cols) == (3, 5)


def test_generated_board_round_trips_through_solve(capsys, tmp_path):
    target = tmp_path / "seeded.board"
    status, out, err = run(capsys, "generate", "--seed", "K7Q2M9", "-o", target)
    assert (status, out, err) == (0, "", f"wrote {target}\n")
    generated = Board.parse(target.read_text(encoding="utf-8"))
    status, out, _ = run(capsys, "solve", "-b", target, "--format", "json")
    solution = json.loads(out)
    assert status == 0
    assert solution["board"] == generated.to_json()
    assert solution["word_count"] == len(solution["words"]) > 20


def test_compile_then_cat_gives_the_sorted_words(capsys, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("zebra\nÉtude\ncat\ncat\nnot a word\n", encoding="utf-8")
    compiled = tmp_path / "words.marisa"
    status, out, _ = run(capsys, "compile", "-d", words, "-o", compiled)
    assert status == 0 and out.startswith("3 words")
    assert compiled.with_suffix(".nodes").is_file()
    assert run(capsys, "cat", "-d", compiled) == (0, "CAT\nETUDE\nZEBRA\n", "")
    assert run(capsys, "cat", "-d", words) == (0, "CAT\nETUDE\nZEBRA\n", "")


def test_a_compiled_dictionary_solves_like_its_word_list(capsys, tmp_path):
    words = tmp_path / "tiny.txt"
    words.write_text("cohesive\necho\nhero\n", encoding="utf-8")
    run(capsys, "compile", "-d", words, "-o", tmp_path / "tiny.marisa")
    assert solve_json(capsys, "-d", tmp_path / "tiny.marisa") == solve_json(capsys, "-d", words)


def test_languages_lists_every_code_with_its_dictionary(capsys):
    status, out, _ = run(capsys, "languages")
    lines = out.splitlines()
    assert status == 0
    assert [line.split()[0] for line in lines] == ["de", "en", "es", "fr", "it", "nl", "pt"] == list(LANGUAGES)
    english = next(line for line in lines if line.startswith("en "))
    assert english.endswith(f"  {len(Lexicon.load(EN_DICTIONARY))} words")
    assert all(line.endswith((" words", "no built-in dictionary yet")) for line in lines)


def test_a_language_without_its_dictionary_file_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("ruzzle.lexicon.DICTIONARY_DIR", tmp_path)  # as RUZZLE_DICTIONARIES pointing elsewhere
    status, out, err = run(capsys, "demo", "-l", "it")
    assert (status, out) == (2, "")
    assert err == f"ruzzle: error: no built-in dictionary for 'it' yet (looked for {tmp_path / 'it.marisa'})\n"
    italian = next(line for line in run(capsys, "languages")[1].splitlines() if line.startswith("it "))
    assert italian.endswith("  no built-in dictionary yet")


def bad_board(tmp_path: Path, text: str) -> Path:
    """A board file with this text."""
    path = tmp_path / "bad.board"
    path.write_text(text, encoding="utf-8")
    return path


ERROR_CASES = {
    "missing_board_file": (lambda tmp: ["solve", "-b", tmp / "missing.txt"], "missing.txt: No such file"),
    "board_is_a_directory": (lambda tmp: ["solve", "-b", tmp], "Is a directory"),
    "ragged_rows": (lambda tmp: ["solve", "-b", bad_board(tmp, "A B C\nD E\n")], "line 2: this row has 2"),
    "bad_multiplier": (lambda tmp: ["solve", "-b", bad_board(tmp, "A B\nC Tqq\n")], "line 2, column 3: 'Tqq'"),
    "board_not_utf8": (lambda tmp: ["solve", "-b", tmp / "latin1.board"], "must be UTF-8 text"),
    "unknown_language": (lambda tmp: ["solve", "-b", DEMO_BOARD, "-l", "xx"], "unknown language 'xx'"),
    "empty_dictionary": (lambda tmp: ["solve", "-b", DEMO_BOARD, "-d", tmp / "empty.txt"], "holds no words"),
    "missing_dictionary": (lambda tmp: ["cat", "-d", tmp / "nope.marisa"], "dictionary file not found"),
    "zero_rows": (lambda tmp: ["generate", "-r", "0"], "at least 1 row"),
    "negative_cols": (lambda tmp: ["generate", "-c", "-3"], "at least 1 row and 1 column, not 4x-3"),
    "seed_too_long": (lambda tmp: ["generate", "--seed", "S" * 65], "at most 64 characters"),
    "output_folder_missing": (lambda tmp: ["generate", "-o", tmp / "no" / "x.board"], "No such file"),
    "compile_output_folder_missing": (
        lambda tmp: ["compile", "-d", tmp / "words.txt", "-o", tmp / "no" / "w.marisa"],
        "No such file",
    ),
}


@pytest.fixture
def error_files(tmp_path):
    """The files the error cases read: an empty list, a word list, a Latin-1 board."""
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    (tmp_path / "words.txt").write_text("cat\n", encoding="utf-8")
    (tmp_path / "latin1.board").write_bytes("É B\nC D\n".encode("latin-1"))
    return tmp_path


@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_every_error_is_one_line_and_exit_2(capsys, error_files, case):
    argv, message = ERROR_CASES[case]
    status, out, err = run(capsys, *argv(error_files))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("ruzzle: error: ")
    assert message in err


@pytest.mark.parametrize(
    "argv",
    [[], ["solve"], ["solve", "-b", "x", "-s", "random"], ["generate", "-r", "four"], ["frobnicate"]],
    ids=["no_command", "solve_needs_a_board", "unknown_sort_order", "rows_not_a_number", "unknown_command"],
)
def test_usage_errors_exit_2_with_usage(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("usage: ruzzle") and "error: " in err


def test_help_exits_0(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "solve" in out and "generate" in out


def python_m_ruzzle(*argv: str) -> subprocess.CompletedProcess:
    """Run `python -m ruzzle` in a new process from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "ruzzle", *map(str, argv)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "argv, status",
    [
        (["demo"], 0),
        (["solve", "-b", "missing.txt"], 2),
        (["generate", "-r", "0"], 2),
        (["demo", "-l", "xx"], 2),
        (["solve"], 2),
    ],
    ids=["demo_works", "missing_board_file", "zero_rows", "unknown_language", "usage_error"],
)
def test_python_m_ruzzle_exit_status_and_no_traceback(argv, status):
    result = python_m_ruzzle(*argv)
    assert result.returncode == status
    assert "Traceback" not in result.stderr
    if status == 0:
        assert "Number of words:" in result.stdout
    else:
        assert result.stdout == "" and result.stderr.splitlines()[-1].startswith("ruzzle")


def test_a_closed_pipe_is_not_a_traceback():
    # PYTHONUNBUFFERED makes Python drop what a closed pipe refuses without an error; test the usual case.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        [sys.executable, "-m", "ruzzle", "cat", "-d", EN_DICTIONARY],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout.readline() == b"AAH\n"
    process.stdout.close()  # like `| head -1`
    stderr = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=60) == 1
    assert stderr == ""
