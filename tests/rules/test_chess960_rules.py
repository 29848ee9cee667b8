"""Chess960: scenario tests of docs/rules/standard.md, section "Chess960", on
``Board("chess", fen, chess960=True)``: castling with the rooks the FEN names, to the
standard cells, written king-takes-rook; X-FEN and Shredder-FEN read, Shredder-FEN
written; bad castling fields refused. Perft against Stockfish: tests/perft; every move
list of random games against python-chess: tests/property/test_chess960_vs_python_chess.py.
"""
from __future__ import annotations

import chess
import pytest

from engine.board import Board
from engine.variant import load_variant


def b960(fen: str) -> Board:
    return Board("chess", fen, chess960=True)


def first_rank(board: Board) -> str:
    return board.fen().split()[0].split("/")[-1]


def castling_field(board: Board) -> str:
    return board.fen().split()[2]


def castle(fen: str, move: str) -> Board:
    """Play ``move`` and check that the key stays exact and that pop restores all."""
    board = b960(fen)
    before = (board.fen(), board.key)
    board.push(move)
    assert board.key == board.compute_key()
    after = board.copy()
    board.pop()
    assert (board.fen(), board.key) == before
    return after


# --- where king and rook end --------------------------------------------------------------

@pytest.mark.parametrize("fen,move,rank", [
    ("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1", "5RK1"),     # the rook stands on g1
    ("4k3/8/8/8/8/8/8/5K1R w H - 0 1", "f1h1", "5RK1"),     # the rook ends on f1
    ("4k3/8/8/8/8/8/8/R2K4 w A - 0 1", "d1a1", "2KR4"),     # ... and on d1
    ("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "5RK1"),      # the king stays on g1
    ("4k3/8/8/8/8/8/8/1RK5 w B - 0 1", "c1b1", "2KR4"),     # ... and on c1
    ("4k3/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1", "2KR4"),
    ("4k3/8/8/8/8/8/8/KR6 w - - 0 1", None, None),          # no right, no castling
])
def test_king_and_rook_end_on_the_standard_cells(fen, move, rank):
    """Chess960: a-side on c1 and d1, h-side on g1 and f1, whatever the start cells, also
    when the king does not move or a piece ends on the other's start cell."""
    board = b960(fen)
    castles = [m for m in board.legal_moves() if board.piece_at(m[2:4]) == "R"]
    assert castles == ([move] if move else [])
    if move:
        after = castle(fen, move)
        assert first_rank(after) == rank
        assert castling_field(after) == "-"


def test_black_castles_on_the_eighth_rank():
    after = castle("1rk5/8/8/8/8/8/8/4K3 b b - 0 1", "c8b8")
    assert after.fen().split()[0].split("/")[0] == "2kr4"


# --- what must be empty and safe ----------------------------------------------------------

def test_every_cell_of_both_paths_must_be_empty_but_king_and_rook():
    """King b1, rooks a1 and c1: the a-side castle needs c1 (the king's target), where
    the other rook stands; the h-side one needs d1 to g1, which are empty."""
    board = b960("4k3/8/8/8/8/8/8/RKR5 w CA - 0 1")
    assert "b1a1" not in board.legal_moves()
    assert "b1c1" in board.legal_moves()
    assert first_rank(castle("4k3/8/8/8/8/8/8/RKR5 w CA - 0 1", "b1c1")) == "R4RK1"


def test_the_rook_may_pass_attacked_cells():
    """A bishop on f3 attacks d1, the rook's target: castling stays legal."""
    assert "b1a1" in b960("4k3/8/8/8/8/5b2/8/RK6 w A - 0 1").legal_moves()


@pytest.mark.parametrize("fen", [
    "4k3/8/8/8/8/4b3/8/RK6 w A - 0 1",      # e3 bishop attacks c1, the king's target
    "4k3/8/8/8/8/8/8/RK4r1 w A - 0 1",      # the king's start is attacked (check)
    "k7/8/8/8/8/8/6b1/1K2R3 w E - 0 1",    # g2 bishop attacks f1, on the way to g1
])
def test_the_king_may_not_start_cross_or_end_on_an_attacked_cell(fen):
    board = b960(fen)
    assert not any(board.piece_at(m[2:4]) == "R" for m in board.legal_moves())


def test_a_rook_that_shields_the_king_cannot_castle():
    """Queen a1, rook b1, king c1: the a-side castle would leave c1 open to the queen.
    With a knight on a1 instead it is legal."""
    assert "c1b1" not in b960("4k3/8/8/8/8/8/8/qRK5 w B - 0 1").legal_moves()
    assert "c1b1" in b960("4k3/8/8/8/8/8/8/nRK5 w B - 0 1").legal_moves()


# --- rights: lost with the king or the rook -----------------------------------------------

def test_moving_or_losing_a_rook_loses_only_its_right():
    board = b960("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1")
    board.push("g1g2")
    assert castling_field(board) == "Bgb"
    board.push("b8b1")                          # takes the b1 rook
    assert castling_field(board) == "g"
    board = b960("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1")
    board.push("e1d1")
    assert castling_field(board) == "gb"


# --- notation -----------------------------------------------------------------------------

def test_castling_is_written_king_takes_rook_only_in_chess960():
    """Standard mode keeps e1g1; Chess960 mode says e1h1 and e1g1 is no move there."""
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    standard, fischer = Board("chess", fen), b960(fen)
    assert {"e1g1", "e1c1"} <= set(standard.legal_moves())
    assert not {"e1h1", "e1a1"} & set(standard.legal_moves())
    assert {"e1h1", "e1a1"} <= set(fischer.legal_moves())
    assert not {"e1g1", "e1c1"} & set(fischer.legal_moves())
    with pytest.raises(ValueError):
        fischer.push("e1g1")
    fischer.push("e1h1")
    assert fischer.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b ha - 1 1"


def test_a_king_step_and_a_castle_to_the_same_cell_are_two_moves():
    """King f1, rook h1: f1g1 is the king's step, f1h1 the castle; both end with the king
    on g1, only the castle moves the rook."""
    board = b960("4k3/8/8/8/8/8/8/5K1R w H - 0 1")
    assert {"f1g1", "f1h1"} <= set(board.legal_moves())
    board.push("f1g1")
    assert first_rank(board) == "6KR" and castling_field(board) == "-"


# --- FEN ----------------------------------------------------------------------------------

def test_the_standard_start_in_chess960_mode():
    """Shredder-FEN out, as Stockfish prints it; the key is the standard one (a right's
    key belongs to its side and wing)."""
    board = Board("chess", chess960=True)
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    assert board.key == Board("chess").key
    assert b960("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").fen() == board.fen()


def test_every_start_position_reads_as_x_fen_and_as_shredder_fen():
    """python-chess writes each of the 960 in X-FEN (KQkq: the outermost rooks); we read
    it and write its Shredder-FEN, and read that back to the same."""
    for n in range(960):
        pcb = chess.Board.from_chess960_pos(n)
        board = b960(pcb.fen())
        assert board.fen() == pcb.fen(shredder=True), n
        assert b960(board.fen()).fen() == board.fen()


def test_x_fen_means_the_outermost_rook():
    """King b1, rooks e1 and h1: K is the h1 rook (whose path e1 blocks), E the e1 rook."""
    outer = b960("k7/8/8/8/8/8/8/1K2R2R w K - 0 1")
    assert castling_field(outer) == "H"
    assert "b1h1" not in outer.legal_moves()
    inner = b960("k7/8/8/8/8/8/8/1K2R2R w E - 0 1")
    assert "b1e1" in inner.legal_moves()
    assert first_rank(castle("k7/8/8/8/8/8/8/1K2R2R w E - 0 1", "b1e1")) == "5RKR"


@pytest.mark.parametrize("fen,why", [
    ("4k3/8/8/8/8/8/8/4K1NR w G - 0 1", "names no white rook"),       # g1 is a knight
    ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "names no white rook"),        # no rook on the h-side
    ("4k3/8/8/8/8/8/8/R3K3 w h - 0 1", "names no black rook"),
    ("4k3/8/8/8/8/8/4K3/R6R w A - 0 1", "king is not on its first rank"),
    ("4k3/8/8/8/8/8/8/4K1RR w HG - 0 1", "two rights on one wing"),
    ("4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "two rights on one wing"),
    ("4k3/8/8/8/8/8/8/4K2R w X - 0 1", "bad castling field"),
    ("4k3/8/8/8/8/8/8/4K2R w H1 - 0 1", "bad castling field"),
])
def test_bad_castling_fields_are_refused(fen, why):
    """A FEN whose castling letters name no rook (or no possible right) is an error; the
    board keeps its position."""
    board = b960("4k3/8/8/8/8/8/8/4K2R w H - 0 1")
    with pytest.raises(ValueError, match=why):
        board.set_fen(fen)
    assert board.fen() == "4k3/8/8/8/8/8/8/4K2R w H - 0 1"


def test_fog_of_war_has_no_chess960_form():
    with pytest.raises(ValueError, match="no Chess960 form"):
        load_variant("fogofwar", chess960=True)
    with pytest.raises(ValueError, match="no Chess960 form"):
        Board("fogofwar", chess960=True)


def test_only_a_rook_off_the_edge_is_lifted_for_the_safety_test():
    """Standard chess's corner rooks shield nothing: its castling is tested as before
    (``lift_rook`` false); the b1 rook of a Chess960 setup may shield its king."""
    assert not any(r["lift_rook"] for r in load_variant("chess").tables_data["castling"])
    setup = load_variant("chess", chess960=True).castling_tables(
        (None, (2, 1), None, None))
    assert setup.castling[1]["lift_rook"] and setup.castling[1]["rook_from"] == 1
