"""Chess960 against python-chess (``chess960=True``), on seeded random games from random
start positions among the 960: at every position the legal move set (both write castling
king-takes-rook), the Shredder-FEN, ``is_check`` and the key (incremental against from
scratch), and our FEN read back gives the same position.

A random game seldom castles by chance, so a castling move is played whenever one is
legal in half of the games: the castling rules (empty paths, attacked cells, a rook
shielding its king, lost rights) are then met in all their forms; the test counts the
castles to make sure of it.
"""
from __future__ import annotations

import random

import chess

from engine.board import Board

GAMES = 120
PLIES = 100


def _castles(pcb: chess.Board) -> list[str]:
    return [m.uci() for m in pcb.legal_moves if pcb.is_castling(m)]


def test_random_chess960_games_agree_with_python_chess():
    rng = random.Random(960)
    castled = 0
    for game in range(GAMES):
        pcb = chess.Board.from_chess960_pos(rng.randrange(960))
        ours = Board("chess", pcb.fen(), chess960=True)
        eager = game % 2 == 0
        for _ in range(PLIES):
            fen = pcb.fen(shredder=True)
            theirs = sorted(m.uci() for m in pcb.legal_moves)
            assert sorted(ours.legal_moves()) == theirs, fen
            assert ours.fen() == fen
            assert ours.is_check() == pcb.is_check(), fen
            assert ours.key == ours.compute_key(), fen
            assert Board("chess", fen, chess960=True).key == ours.key, fen
            if not theirs:
                break
            castles = _castles(pcb)
            move = rng.choice(castles) if eager and castles else rng.choice(theirs)
            castled += move in castles
            pcb.push_uci(move)
            ours.push(move)
    assert castled >= GAMES // 2, castled
