"""Boards and the board text format."""

import pytest
from conftest import DEMO, LANGUAGE_CODES
from hypothesis import given
from hypothesis import strategies as st

from ruzzle import Board, BoardFormatError, Multiplier, Tile, generate
from ruzzle.languages import ALPHABET


@pytest.mark.parametrize("code", LANGUAGE_CODES)
def test_demo_boards_round_trip_through_text(code):
    board = Board.parse((DEMO / f"{code}.board").read_text(), language=code)
    assert (board.rows, board.cols) == (4, 4)
    assert Board.parse(str(board), language=code) == board


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 5), (3, 2), (7, 7), (12, 12)])
def test_generated_boards_of_any_size_round_trip(rows, cols):
    board = generate("en", "ROUND1", rows, cols)
    assert Board.parse(str(board)) == board
    assert eval(repr(board), {"Board": Board}) == board


def test_parse_is_lenient_on_case_tabs_crlf_bom_and_spaces(en_demo):
    messy = "\ufeff  ttl r\tS NDL  \r\nOdw Htw e I\r\n\r\nCdw I N V\r\nEtl a D E   \r\n\r\n"
    assert Board.parse(messy) == en_demo


def test_tiles_read_letter_and_multiplier(en_demo):
    assert en_demo[0, 0].letter == "T" and en_demo[0, 0].multiplier is Multiplier.TL
    assert en_demo[0, 1].multiplier is None
    assert en_demo[1, 1].multiplier is Multiplier.TW
    assert en_demo.letters == "TRSNOHEICINVEADE"


def test_accented_letters_typed_on_a_board_fold_to_plain_letters():
    assert Board.parse("É Ñdw", language="es").letters == "EN"


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("A B C\nD Ex F", 2, 3, "'Ex' is not a tile"),
        ("A B C\nD Eqq F", 2, 3, "'Eqq' is not a tile"),
        ("A1 B", 1, 1, "'A1' is not a tile"),
        ("A B C\n\nD E", 3, None, "this row has 2 tiles but line 1 has 3"),
        ("A B\nC D\nE F G", 3, None, "every row needs the same number of tiles"),
    ],
)
def test_bad_boards_are_refused_with_line_and_column(text, line, column, words):
    with pytest.raises(BoardFormatError) as error:
        Board.parse(text)
    assert (error.value.line, error.value.column) == (line, column)
    assert words in str(error.value)
    assert str(error.value).startswith(f"line {line}")


@pytest.mark.parametrize("text", ["", "\n\n", "  \t \r\n", "\ufeff"])
def test_an_empty_board_is_refused(text):
    with pytest.raises(BoardFormatError, match="the board is empty"):
        Board.parse(text)


def test_neighbours_include_diagonals_and_stay_on_the_board():
    board = generate("en", "NEIGH1", 3, 3)
    assert board.neighbours((0, 0)) == [(0, 1), (1, 0), (1, 1)]
    assert len(board.neighbours((1, 1))) == 8
    assert board.neighbours((2, 1)) == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 2)]


def test_a_board_shows_as_a_styled_table_in_a_notebook(en_demo):
    markup = en_demo._repr_html_()
    assert markup.startswith("<table") and markup.count("<tr>") == 4 and markup.count("<td") == 16
    assert "TW" in markup and ">T<sub" in markup


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_board_code_reads_back_the_same_board(rows, cols, data):
    tiles = data.draw(
        st.lists(
            st.builds(Tile, st.sampled_from(ALPHABET), st.sampled_from([None, *Multiplier])),
            min_size=rows * cols,
            max_size=rows * cols,
        )
    )
    board = Board(rows, cols, tuple(tiles), "en")
    assert Board.from_code(board.to_code(), "en") == board
    assert board.to_code().replace("-", "").isalnum()  # it stands in a URL path as it is


@pytest.mark.parametrize(
    "code, where",
    [
        ("TtlRS-AB", "line 2"),
        ("T1R", "line 1, column 2"),
        ("", "line 1"),
        ("Ttx", "line 1, column 2"),
        ("AB--CD", "line 2"),
    ],
)
def test_a_bad_board_code_points_at_the_row_and_tile(code, where):
    with pytest.raises(BoardFormatError, match=where):
        Board.from_code(code, "en")
