"""Tactics the full-strength search must find at a fixed depth: mates in 1, 2 and 3
(reported as ``mate_in == N`` in the last info), being mated (negative ``mate_in``), and
winning material (a hanging queen, a fork) in chess, grand and hexagonal chess.

The chess positions are classics, and the claims made about them (the key is the unique
mating move, there is no shorter mate) are checked with python-chess by brute force. The
grand and hexagonal positions were constructed for these tests; their claims are checked
with the engine's own ``Board`` (``outcome()`` after the move says checkmate, and no other
move mates).
"""
from __future__ import annotations

import pytest

from searchkit import (MATE_BOUND, Board, after, final, material, mating_moves, outcome_after,
                       pc_is_mated_within, pc_mate_keys, search)
from testkit import grand_fen, hex_fen

# -- chess mates (fen, key, N) ---------------------------------------------------------------
SCHOLAR = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
# Legal's mate: 1.e4 e5 2.Nf3 d6 3.Bc4 Bg4 4.Nc3 g6 5.Nxe5 Bxd1; now 6.Bxf7+ Ke7 7.Nd5#.
LEGAL = "rn1qkbnr/ppp2p1p/3p2p1/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6"
# Philidor's legacy (smothered mate): 1.Nh6+ (double check) Kh8 2.Qg8+ Rxg8 3.Nf7#.
PHILIDOR = "r5k1/5Npp/8/8/8/1Q6/6PP/6K1 w - - 0 1"

CHESS_MATES = [
    pytest.param(SCHOLAR, "h5f7", 1, id="scholar-m1"),
    pytest.param(BACK_RANK, "d1d8", 1, id="back-rank-m1"),
    pytest.param(LEGAL, "c4f7", 2, id="legal-m2"),
    pytest.param(PHILIDOR, "f7h6", 3, id="philidor-m3"),
]

# Being mated: (fen, only sensible defence, N)
LEGAL_DEFENDER = "rn1qkbnr/ppp2B1p/3p2p1/4N3/4P3/2N5/PPPP1PPP/R1BbK2R b KQkq - 0 6"
PHILIDOR_DEFENDER = "r5k1/6pp/7N/8/8/1Q6/6PP/6K1 b - - 1 1"
CHESS_MATED = [
    pytest.param(LEGAL_DEFENDER, 1, id="legal-after-Bxf7+"),
    pytest.param(PHILIDOR_DEFENDER, 2, id="philidor-after-Nh6+"),
]

# -- constructed mates in grand and hexagonal chess -----------------------------------------
# Grand: a back-rank mate by the chancellor (h1-h10; i10 is covered along rank 10).
GRAND_CHANCELLOR = grand_fen({"j10": "k", "i9": "p", "j9": "p", "a7": "p",
                              "h1": "C", "a1": "K"})
# Grand: a smothered mate by the archbishop's knight leap f8-h9 (the king is walled in by
# its own rook and pawns; nothing reaches h9).
GRAND_ARCHBISHOP = grand_fen({"j10": "k", "i10": "r", "i9": "p", "j9": "p", "a7": "p",
                              "f8": "A", "a1": "K"})
# Hexagonal: a lone queen mates the king in the f11 corner from two cells away (Qe7-f9
# covers f10, e10, g10, e9 and g9 and checks along the file); impossible on a square board.
HEX_QUEEN = hex_fen({"f11": "k", "b7": "p", "k7": "p", "e7": "Q", "g1": "K"})

VARIANT_MATES = [
    pytest.param("grand", GRAND_CHANCELLOR, "h1h10", id="grand-chancellor"),
    pytest.param("grand", GRAND_ARCHBISHOP, "f8h9", id="grand-archbishop"),
    pytest.param("hexagonal", HEX_QUEEN, "e7f9", id="hex-queen"),
]

# -- winning material: (variant, fen, best move, minimum gain in pawns after the PV) ------
MATERIAL = [
    # 1.e4 e5 2.Nf3 Qh4?? : the queen hangs to the knight.
    pytest.param("chess", "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                 "f3h4", 8, id="chess-hanging-queen"),
    # Knight fork of king and rook: Nc7+ and Nxa8. The knight is then trapped (Kc8, Kb8;
    # Nb6+ axb6 in Stockfish's line), so what a deep enough PV keeps is rook for knight.
    pytest.param("chess", "r3k3/pp3ppp/8/1N6/8/8/PPP2PPP/4K3 w - - 0 1", "b5c7", 2,
                 id="chess-fork"),
    pytest.param("grand", grand_fen({"e2": "K", "c3": "P", "d3": "P", "e3": "P", "f3": "P",
                                     "g3": "P", "e4": "N", "c2": "B", "e9": "k", "c7": "p",
                                     "d7": "p", "h7": "p", "f6": "q", "c9": "n"}),
                 "e4f6", 8, id="grand-hanging-queen"),
    # Nc8+ forks the king on e9 and the queen on a9.
    pytest.param("grand", grand_fen({"e2": "K", "c3": "P", "d3": "P", "e3": "P", "f3": "P",
                                     "b6": "N", "e1": "B", "e9": "k", "d7": "p", "e7": "p",
                                     "f7": "p", "a9": "q", "h10": "n"}),
                 "b6c8", 8, id="grand-fork"),
    # The pawn f5 takes on g5 (docs/rules/hexagonal.md: f5 captures on e5 or g5).
    pytest.param("hexagonal", hex_fen({"g1": "K", "f5": "P", "e4": "P", "g4": "P", "d3": "P",
                                       "h3": "P", "f1": "B", "h1": "N", "g10": "k", "g5": "q",
                                       "e7": "p", "f7": "p", "g7": "p", "f10": "b",
                                       "h9": "n"}),
                 "f5g5", 8, id="hex-hanging-queen"),
    # Hex knight fork: Nc6-f8+ attacks the king on g10 and the queen on h5.
    pytest.param("hexagonal", hex_fen({"g1": "K", "e4": "P", "f5": "P", "g4": "P", "d3": "P",
                                       "h3": "P", "f1": "B", "g10": "k", "e7": "p", "f7": "p",
                                       "g7": "p", "f10": "b", "h5": "q", "c6": "N"}),
                 "c6f8", 8, id="hex-fork"),
]


# -- the claims about the positions ---------------------------------------------------------
@pytest.mark.parametrize("fen, key, n", CHESS_MATES)
def test_chess_mate_claims_hold_in_python_chess(fen, key, n):
    """The key forces mate in ``n`` and is the only move that does; no shorter mate."""
    pytest.importorskip("chess")
    assert pc_mate_keys(fen, n) == [key]
    if n > 1:
        assert pc_mate_keys(fen, n - 1) == []


@pytest.mark.parametrize("fen, n", CHESS_MATED)
def test_chess_mated_claims_hold_in_python_chess(fen, n):
    pytest.importorskip("chess")
    assert pc_is_mated_within(fen, n)
    assert not pc_is_mated_within(fen, n - 1)


@pytest.mark.parametrize("variant, fen, key", VARIANT_MATES)
def test_variant_mate_claims_hold_on_the_board(variant, fen, key):
    """Board.outcome() after the key is checkmate, and it is the only mating move."""
    b = Board(variant, fen)
    assert b.outcome() is None and not b.is_check()
    assert outcome_after(b, key).termination == "checkmate"
    assert outcome_after(b, key).result == "1-0"
    assert mating_moves(b) == [key]


# -- the engine -----------------------------------------------------------------------------
@pytest.mark.parametrize("fen, key, n", CHESS_MATES)
def test_chess_mate_in_n(fen, key, n):
    # 2n + 3 plies: low-depth SEE pruning drops a queen sacrifice (Philidor's Qg8+) at a
    # node off the principal line, so the depth a sacrifice is found at depends on the
    # ordering the evaluation gives; with the shipped net the mate in 3 shows at depth 9
    best, infos, _ = search("chess", fen, depth=2 * n + 3)
    last = final(infos)
    assert best.move == key
    assert last.pv[0] == key
    assert last.mate_in == n, (last.score, last.pv)
    assert len(last.pv) == 2 * n - 1


@pytest.mark.parametrize("fen, n", CHESS_MATED)
def test_being_mated_reports_negative_mate(fen, n):
    best, infos, _ = search("chess", fen, depth=2 * n + 2)
    last = final(infos)
    assert best.move is not None
    assert last.mate_in == -n, (last.score, last.pv)
    assert last.score < -MATE_BOUND


@pytest.mark.parametrize("variant, fen, key", VARIANT_MATES)
def test_variant_mate_in_1(variant, fen, key):
    best, infos, e = search(variant, fen, depth=4)
    last = final(infos)
    assert best.move == key
    assert last.mate_in == 1, (last.score, last.pv)
    assert after(e.board, [best.move]).outcome().termination == "checkmate"


def test_hex_being_mated_in_1():
    """Black to move in the hex queen position, with a White knight on h6 added (found by
    trying every cell for a knight or bishop) that covers the corner king's escapes: every
    Black move allows a mate in 1, so the search reports ``mate_in == -1``."""
    fen = hex_fen({"f11": "k", "b7": "p", "k7": "p", "e7": "Q", "h6": "N", "g1": "K"},
                  side="b")
    b = Board("hexagonal", fen)
    assert not b.is_check()
    for m in b.legal_moves():
        assert mating_moves(after(b, [m])), m
    best, infos, _ = search("hexagonal", fen, depth=5)
    last = final(infos)
    assert best.move in b.legal_moves()
    assert last.mate_in == -1, (last.score, last.pv)


@pytest.mark.parametrize("variant, fen, move, gain", MATERIAL)
def test_wins_material(variant, fen, move, gain):
    best, infos, e = search(variant, fen, depth=6)
    last = final(infos)
    assert best.move == move, last.pv
    start = material(e.board)
    end = material(after(e.board, last.pv))
    assert end - start >= gain, (last.pv, start, end)
    assert 100 < last.score < MATE_BOUND        # clearly better, and no mate claimed
