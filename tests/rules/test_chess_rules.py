"""Standard chess: scenario tests, each citing docs/rules/standard.md (FIDE rules).

Positions are written as ``{square: letter}`` and turned into FEN by ``testkit.chess_fen``
where that reads better than a FEN string.
"""
from __future__ import annotations

import pytest

from engine.board import Board
from testkit import chess_fen

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def play(fen: str, moves: str) -> Board:
    b = Board("chess", fen)
    for m in moves.split():
        b.push(m)
    return b


def castling_field(b: Board) -> str:
    return b.fen().split()[2]


# --- castling ------------------------------------------------------------------------------

def test_start_position_and_aliases():
    """standard.md: variant name `chess`, aliases `standard`, `normal`; the start FEN; 20
    first moves."""
    for name in ("chess", "standard", "normal", "Chess"):
        b = Board(name)
        assert b.fen() == START
        assert len(b.legal_moves()) == 20


def test_castling_both_ways():
    """standard.md, Castling: king and that rook never moved, squares between empty, king not
    in check, not passing through and not landing on an attacked square."""
    b = Board("chess", CASTLE)
    assert {"e1g1", "e1c1"} <= set(b.legal_moves())
    b.push("e1g1")
    assert b.piece_at("g1") == "K" and b.piece_at("f1") == "R" and b.piece_at("h1") is None
    assert castling_field(b) == "kq"
    b.push("e8c8")
    assert b.piece_at("c8") == "k" and b.piece_at("d8") == "r" and b.piece_at("a8") is None
    assert castling_field(b) == "-"
    b.pop()
    b.pop()
    assert b.fen() == CASTLE


@pytest.mark.parametrize("attacker,refused,allowed", [
    ({"f8": "r"}, {"e1g1"}, {"e1c1"}),          # passing through f1
    ({"g8": "r"}, {"e1g1"}, {"e1c1"}),          # landing on g1
    ({"d8": "r"}, {"e1c1"}, {"e1g1"}),          # passing through d1
    ({"c8": "r"}, {"e1c1"}, {"e1g1"}),          # landing on c1
    ({"e8": "r"}, {"e1g1", "e1c1"}, set()),     # in check
    ({"b8": "r", "d6": "k"}, set(), {"e1g1", "e1c1"}),   # b1 attacked: the king does not cross it
    ({"h8": "r"}, set(), {"e1g1", "e1c1"}),     # the rook on h1 is attacked: allowed
    ({"a8": "r"}, set(), {"e1g1", "e1c1"}),     # the rook on a1 is attacked
    ({"h4": "b"}, {"e1g1", "e1c1"}, set()),     # in check from a bishop
    ({"h3": "b"}, {"e1g1"}, {"e1c1"}),          # bishop h3 covers f1
    ({"e3": "n"}, {"e1g1", "e1c1"}, set()),     # knight e3 covers d1 and f1
])
def test_castling_and_attacked_squares(attacker, refused, allowed):
    """standard.md, Castling: "king not in check, not passing through and not landing on an
    attacked square (the rook may be attacked)"."""
    placement = {"e1": "K", "a1": "R", "h1": "R", **attacker}
    if "k" not in attacker.values():
        placement["b6"] = "k"               # off every line that matters here
    b = Board("chess", chess_fen(placement, castling="KQ"))
    assert castling_field(b) == "KQ"
    legal = set(b.legal_moves())
    assert not refused & legal
    assert allowed <= legal


def test_castling_needs_empty_squares_between():
    """standard.md, Castling: squares between king and rook empty -- b1 too, although the
    king does not cross it."""
    b = Board("chess", "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1")
    assert not {"e1g1", "e1c1"} & set(b.legal_moves())
    b = Board("chess", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1")
    assert "e1g1" in b.legal_moves() and "e1c1" not in b.legal_moves()


def test_castling_rights_lost_after_king_move():
    """standard.md, Castling: the king never moved -- moving it and back loses both rights."""
    b = play(CASTLE, "e1d1 a8b8 d1e1 b8a8")
    assert castling_field(b) == "k"
    assert not {"e1g1", "e1c1"} & set(b.legal_moves())


def test_castling_rights_lost_after_rook_move():
    """standard.md, Castling: that rook never moved -- only that side's right is lost."""
    b = play(CASTLE, "h1h2 h8h7 h2h1 h7h8")
    assert castling_field(b) == "Qq"
    assert "e1g1" not in b.legal_moves() and "e1c1" in b.legal_moves()


def test_castling_right_lost_when_rook_is_captured():
    """standard.md, Castling: a captured rook cannot castle (a1xa8 removes q, and Q too)."""
    b = play(CASTLE, "a1a8")
    assert castling_field(b) == "Kk"
    assert "e8c8" not in b.legal_moves()
    b = play("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", "g2h1")
    assert castling_field(b) == "Qkq"
    assert "e1g1" not in b.legal_moves() and "e1c1" in b.legal_moves()


def test_castling_rights_are_not_regained():
    b = play(CASTLE, "e1f1 e8f8 f1e1 f8e8")
    assert castling_field(b) == "-"
    assert b.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3"


# --- en passant ----------------------------------------------------------------------------

def test_en_passant_on_the_next_move():
    """standard.md, En passant: only on the move immediately after the double step."""
    b = play("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4")
    assert b.fen().split()[3] == "e3"
    assert "d4e3" in b.legal_moves()
    b.push("d4e3")
    assert b.piece_at("e3") == "p" and b.piece_at("e4") is None
    assert b.halfmove_clock == 0


def test_en_passant_not_later():
    """standard.md, En passant: a move later the capture is gone."""
    b = play("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4 e8d8 e1d1")
    assert "d4e3" not in b.legal_moves()
    assert b.fen().split()[3] == "-"


def test_en_passant_against_a_single_step_is_not_possible():
    b = play("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e3 e8d8 e3e4")
    assert "d4e3" not in b.legal_moves()


def test_en_passant_that_exposes_the_king_is_illegal():
    """standard.md: a move that leaves the own king in check is illegal -- also e.p. when both
    pawns leave the king's rank."""
    b = play("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", "e2e4")
    assert "d4e3" not in b.legal_moves()
    assert b.fen().split()[3] == "-"      # not shown: no legal capture (FIDE 9.2.3)


# --- promotion -----------------------------------------------------------------------------

def test_promotion_to_four_pieces():
    """standard.md, Promotion: on the last rank to Q, R, B or N (under-promotion allowed)."""
    b = Board("chess", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    pawn = {m for m in b.legal_moves() if m.startswith("a7")}
    assert pawn == {f"a7{t}{p}" for t in ("a8", "b8") for p in "qrbn"}
    for p in "qrbn":
        b.push(f"a7a8{p}")
        assert b.piece_at("a8") == p.upper()
        b.pop()
    with pytest.raises(ValueError):
        b.push("a7a8")
    with pytest.raises(ValueError):
        b.push("a7a8k")


def test_black_promotion_and_several_queens():
    """standard.md, Promotion: "several queens allowed"."""
    b = play("4k2q/8/8/8/8/8/p7/4K3 b - - 0 1", "a2a1q")
    assert [b.piece_at(s) for s in ("a1", "h8")] == ["q", "q"]
    assert b.is_check()


# --- end of game ---------------------------------------------------------------------------

def test_checkmate_black_wins():
    """standard.md: checkmate wins (fool's mate)."""
    b = play(START, "f2f3 e7e5 g2g4 d8h4")
    assert b.is_check() and b.legal_moves() == []
    o = b.outcome()
    assert (o.termination, o.white_score, o.result, o.winner) == ("checkmate", 0.0, "0-1", 1)


def test_checkmate_white_wins():
    """standard.md: checkmate wins (scholar's mate)."""
    b = play(START, "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7")
    o = b.outcome()
    assert (o.termination, o.white_score, o.result, o.winner) == ("checkmate", 1.0, "1-0", 0)


def test_stalemate_is_a_draw():
    """standard.md, Draws: stalemate."""
    b = Board("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert not b.is_check() and b.legal_moves() == []
    o = b.outcome()
    assert (o.termination, o.white_score, o.result, o.winner) == ("stalemate", 0.5, "1/2-1/2", None)


def test_fifty_move_rule():
    """standard.md, Draws: fifty moves (100 plies) without capture or pawn move."""
    b = Board("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert b.outcome() is None
    b.push("a1a2")
    assert b.halfmove_clock == 100
    o = b.outcome()
    assert (o.termination, o.white_score, o.result) == ("fifty-move rule", 0.5, "1/2-1/2")


def test_fifty_move_counter_reset_by_pawn_move_and_capture():
    b = play("4k3/8/8/8/8/8/4P2r/R3K3 w - - 99 80", "e2e3")
    assert b.halfmove_clock == 0 and b.outcome() is None
    b = play("4k3/8/8/8/8/8/4P2r/R3K3 w - - 99 80", "a1a2")
    assert b.outcome().termination == "fifty-move rule"
    b = play("4k3/8/8/8/8/8/4P2r/R3K3 b - - 98 80", "h2e2")
    assert b.halfmove_clock == 0 and b.outcome() is None


def test_checkmate_on_the_hundredth_ply_is_checkmate():
    """standard.md: checkmate wins; a mate on the move that completes the 100 plies stands
    (FIDE Laws 2023, 9.6.2: the checkmate takes precedence)."""
    b = play("k7/8/1K6/8/8/8/8/7R w - - 99 80", "h1h8")
    o = b.outcome()
    assert (o.termination, o.white_score) == ("checkmate", 1.0)


def test_threefold_repetition():
    """standard.md, Draws: threefold repetition (same position, same side to move, same
    rights: the start position after knights go out and back twice)."""
    b = Board("chess")
    cycle = "g1f3 g8f6 f3g1 f6g8".split()
    for m in cycle:
        b.push(m)
    assert b.repetitions() == 1 and b.outcome() is None
    for m in cycle[:3]:
        b.push(m)
    assert b.outcome() is None
    b.push(cycle[3])
    assert b.repetitions() == 2
    o = b.outcome()
    assert (o.termination, o.white_score) == ("threefold repetition", 0.5)


def test_repetition_needs_same_castling_rights():
    """Positions differing in castling rights are not the same position (FIDE 9.2.3)."""
    b = Board("chess", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    for m in "e1d1 e8d8 d1e1 d8e8 e1d1 e8d8 d1e1 d8e8".split():
        b.push(m)
    # the first position (with rights) occurred once; the rights-less one twice
    assert b.repetitions() == 1
    assert b.outcome() is None


def test_repetition_ignores_an_en_passant_right_that_cannot_be_used():
    """standard.md: threefold repetition, ordinary FIDE rules (Laws 2023, 9.2.3: positions
    are the same when the same moves are possible; they differ only if "a pawn could have
    been captured en passant"). After ...c7-c5 the b5 pawn may not take e.p. (the rook h5
    would take the king a5), so the position after c7-c5 and the two after the knight and
    king shuffles are one position occurring three times (python-chess: is_repetition(3))."""
    b = play("4k3/2p5/8/KP5r/8/8/8/6N1 b - - 0 1", "c7c5")
    assert "b5c6" not in b.legal_moves()
    for m in "g1f3 e8d8 f3g1 d8e8 g1f3 e8d8 f3g1 d8e8".split():
        b.push(m)
    assert b.repetitions() == 2
    o = b.outcome()
    assert o is not None and o.termination == "threefold repetition"


@pytest.mark.parametrize("placement", [
    {"e1": "K", "e8": "k"},                                  # K v K
    {"e1": "K", "e8": "k", "c1": "B"},                       # K+B v K
    {"e1": "K", "e8": "k", "g8": "n"},                       # K+N v K
    {"e1": "K", "e8": "k", "c1": "B", "f8": "b"},            # K+B v K+B, both on dark
    {"e1": "K", "e8": "k", "f1": "B", "c8": "b"},            # ... both on light
    {"e1": "K", "e8": "k", "c1": "B", "e3": "B"},            # two bishops, one colour
])
def test_insufficient_material(placement):
    """standard.md, Draws: insufficient material (K v K, K+B v K, K+N v K, K+B v K+B with
    the bishops on the same colour). Bishops that all share one colour are a dead position
    in general (our variant file: same_colour_bishops)."""
    o = Board("chess", chess_fen(placement)).outcome()
    assert (o.termination, o.white_score, o.result) == ("insufficient material", 0.5, "1/2-1/2")


@pytest.mark.parametrize("placement", [
    {"e1": "K", "e8": "k", "c1": "B", "c8": "b"},            # opposite-coloured bishops
    {"e1": "K", "e8": "k", "b1": "N", "g8": "n"},            # K+N v K+N
    {"e1": "K", "e8": "k", "b1": "N", "g1": "N"},            # K+N+N v K
    {"e1": "K", "e8": "k", "c1": "B", "g1": "N"},            # K+B+N v K
    {"e1": "K", "e8": "k", "a2": "P"},                       # a pawn
    {"e1": "K", "e8": "k", "a1": "R"},                       # a rook
])
def test_sufficient_material(placement):
    assert Board("chess", chess_fen(placement)).outcome() is None


def test_check_must_be_answered():
    """standard.md: check must be answered; a move that leaves the own king in check is
    illegal."""
    b = Board("chess", "4k3/8/8/8/8/8/3PPP2/r3K3 w - - 0 1")
    assert b.is_check()
    assert set(b.legal_moves()) == set()
    b = Board("chess", "4k3/8/8/8/8/8/3P1P2/r3K1N1 w - - 0 1")
    assert set(b.legal_moves()) == {"e1e2"}
