"""Colour-mirror symmetry (style.md, tests/property/): a position and the same position
with colours swapped and the board turned (ranks reversed, files kept) have mirrored legal
moves, the same check status and the mirrored outcome -- in every variant. For Grand and
hex chess, where no outside move generator is at hand, this checks that Black's rules
(double-step cells, promotion cells, pawn directions, en passant) really mirror White's.
"""
from __future__ import annotations

import random

import pytest

from engine.board import Board
from testkit import PERFT_FILES, mirror_fen, mirror_move, read_tsv, refdata

WALKS = 8
PLIES = 60


def _compare(board: Board) -> None:
    g = board.variant.geometry
    twin = Board(board.variant.name, mirror_fen(board))
    assert twin.turn != board.turn
    assert set(twin.legal_moves()) == {mirror_move(g, m) for m in board.legal_moves()}, \
        board.fen()
    assert twin.is_check() == board.is_check()
    a, b = board.outcome(), twin.outcome()
    if a is None:
        assert b is None, board.fen()
    else:
        assert b is not None and b.termination == a.termination, board.fen()
        # repetition is history, which the mirrored board (set from a FEN) does not have
        assert b.white_score == 1.0 - a.white_score
    assert Board(board.variant.name, mirror_fen(twin)).fen() == board.fen()


@pytest.mark.parametrize("variant", ["chess", "grand", "hexagonal"])
def test_mirror_along_random_walks(variant):
    rng = random.Random(f"mirror-{variant}")
    fens = [Board(variant).fen()] + sorted({r["fen"] for r in read_tsv(refdata(PERFT_FILES[variant]))})
    for walk in range(WALKS * 2):
        board = Board(variant, fens[walk % len(fens)])
        for _ in range(PLIES):
            # a FEN carries no history: compare only while no repetition can be claimed
            if board.repetitions() == 0:
                _compare(board)
            moves = board.legal_moves()
            if not moves:
                break
            specials = [m for m in moves if m[-1].isalpha()]
            board.push(rng.choice(specials) if specials and rng.random() < 0.7 else rng.choice(moves))
