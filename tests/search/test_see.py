"""Static exchange evaluation against an independent swap list written over python-chess.

The engine's SEE keeps each ray's first piece and opens x-rays as pieces leave; the
reference below recomputes every attacker with python-chess after each capture. Both take
the cheapest attacker each time (the royal piece last) and let a side stop when going on
loses. The search's threshold test (``see_below``, with its shortcuts) must agree with the
full value at every threshold.
"""
import random

import chess
import pytest

from engine.board import Board
from engine.eval_tables import build, eval_tables
from engine.search import Searcher
from engine.tt import TranspositionTable
from engine.variant import load_variant

ROYAL_VALUE = 20000


def chess_values() -> dict:
    """Piece values by python-chess piece type, from the engine's chess tables."""
    variant = load_variant("chess")
    value = build(variant)["value"]
    by_letter = {variant.letters[t]: value[t] for t in range(1, len(variant.letters))}
    return {chess.Piece.from_symbol(letter).piece_type: v for letter, v in by_letter.items()}


def reference_see(board: chess.Board, move: chess.Move, values: dict) -> int:
    def worth(piece):
        return ROYAL_VALUE if piece.piece_type == chess.KING else values[piece.piece_type]

    b = board.copy(stack=False)
    to = move.to_square
    mover = b.piece_at(move.from_square)
    if b.is_en_passant(move):
        victim_sq = to + (-8 if b.turn == chess.WHITE else 8)
    else:
        victim_sq = to
    victim = b.piece_at(victim_sq)
    gain = [worth(victim) if victim else 0]
    on_to = mover
    if move.promotion:
        gain[0] += values[move.promotion] - values[chess.PAWN]
        on_to = chess.Piece(move.promotion, mover.color)
    b.remove_piece_at(move.from_square)
    b.remove_piece_at(victim_sq)
    b.set_piece_at(to, on_to)
    side = not board.turn
    while True:
        attackers = sorted(b.attackers(side, to), key=lambda sq: worth(b.piece_at(sq)))
        if not attackers:
            break
        sq = attackers[0]
        gain.append(worth(b.piece_at(to)) - gain[-1])
        b.set_piece_at(to, b.piece_at(sq))
        b.remove_piece_at(sq)
        side = not side
    for d in range(len(gain) - 1, 0, -1):
        gain[d - 1] = -max(-gain[d - 1], gain[d])
    return gain[0]


def positions(n: int, seed: int):
    """Positions from random games, biased to captures so exchanges pile up."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        b = chess.Board()
        for _ in range(rng.randrange(10, 80)):
            moves = list(b.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if b.is_capture(m)]
            b.push(rng.choice(captures if captures and rng.random() < 0.3 else moves))
        if not b.is_game_over():
            out.append(b)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_see_matches_an_independent_swap_list(seed):
    values = chess_values()
    ev, tt = eval_tables("chess", None), TranspositionTable(1)
    checked = exchanges = 0
    for pos in positions(60, seed):
        searcher = Searcher()
        searcher.set_root(Board("chess", pos.fen()), ev, tt)
        for move in pos.legal_moves:
            if pos.is_castling(move):
                continue
            uci = move.uci()
            expected = reference_see(pos, move, values)
            got = searcher.see(uci)
            assert got == expected, (pos.fen(), uci, got, expected)
            for threshold in (expected - 1, expected, expected + 1, -900, -225, -100, -25, 0, 100):
                assert searcher.see_below(uci, threshold) == (expected < threshold), \
                    (pos.fen(), uci, threshold, expected)
            checked += 1
            exchanges += expected != 0
    assert checked > 1000 and exchanges > 100     # the positions hold real exchanges
