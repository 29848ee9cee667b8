"""The search in Chess960 (UCI_Chess960): from start positions it answers legal moves and
legal lines, and where a castle is the only mate it castles, written king-takes-rook."""
from __future__ import annotations

import chess
import pytest

from searchkit import Board, Engine, GoLimits, final


def engine960() -> Engine:
    e = Engine("chess")
    e.set_chess960(True)
    return e


@pytest.mark.parametrize("number", [0, 105, 518, 959])
def test_a_search_from_a_start_position_plays_a_legal_line(number):
    fen = chess.Board.from_chess960_pos(number).fen()
    e = engine960()
    e.set_position(fen)
    best, infos = e.search_sync(GoLimits(depth=6))
    board = Board("chess", fen, chess960=True)
    assert best.move in board.legal_moves()
    for move in final(infos).pv:            # every move of the line is legal in turn
        board.push(move)


@pytest.mark.parametrize("fen,castle", [
    ("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1", "b1a1"),   # king b1 to c1, rook a1 to d1
    ("2rkr3/2p1p3/8/8/8/8/8/1RK5 w B - 0 1", "c1b1"),  # the king stays, rook b1 to d1
])
def test_the_castle_that_mates_is_played(fen, castle):
    """The rook lands on d1 and mates along the d-file; python-chess confirms that the
    castle is the only mate in one."""
    pcb = chess.Board(fen, chess960=True)
    mates = [m.uci() for m in pcb.legal_moves if _mates(pcb, m)]
    assert mates == [castle]
    e = engine960()
    e.set_position(fen)
    best, infos = e.search_sync(GoLimits(depth=6))
    assert best.move == castle
    assert final(infos).mate_in == 1


def _mates(pcb: chess.Board, move: chess.Move) -> bool:
    pcb.push(move)
    try:
        return pcb.is_checkmate()
    finally:
        pcb.pop()
