"""Grand Chess: scenario tests, each citing docs/rules/grand.md.

Positions are written as ``{square: letter}`` and turned into FEN (10x10, castling field
always "-") by ``testkit.grand_fen``.
"""
from __future__ import annotations

import pytest

from engine.board import Board
from testkit import grand_fen

START = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
# White's full set of pieces (grand.md, Set-up), pawns not included.
WHITE_PIECES = {"a1": "R", "j1": "R", "b2": "N", "c2": "B", "d2": "Q", "e2": "K", "f2": "C",
                "g2": "A", "h2": "B", "i2": "N"}
ALL_TYPES = "qcarbn"


def board(placement: dict, side="w", ep="-", halfmove=0, fullmove=1) -> Board:
    return Board("grand", grand_fen(placement, side, ep, halfmove, fullmove))


def moves_from(b: Board, square: str) -> set[str]:
    n = len(square)
    return {m for m in b.legal_moves() if m.startswith(square) and not m[n].isdigit()}


def test_start_position():
    """grand.md, Set-up: the FEN; 65 first moves (cutechess / Fairy-Stockfish perft)."""
    b = Board("grand")
    assert b.fen() == START
    assert len(b.legal_moves()) == 65
    assert b.piece_at("f2") == "C" and b.piece_at("g2") == "A" and b.piece_at("e2") == "K"
    assert b.piece_at("a2") is None and b.piece_at("j2") is None


# --- pieces --------------------------------------------------------------------------------

def _rays(x, y, dirs, occupied):
    out = set()
    for dx, dy in dirs:
        cx, cy = x + dx, y + dy
        while 0 <= cx < 10 and 0 <= cy < 10 and (cx, cy) not in occupied:
            out.add((cx, cy))
            cx, cy = cx + dx, cy + dy
    return out


def _leaps(x, y, jumps, occupied):
    return {(x + dx, y + dy) for dx, dy in jumps
            if 0 <= x + dx < 10 and 0 <= y + dy < 10 and (x + dx, y + dy) not in occupied}


KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
ROOK = [(0, 1), (1, 0), (0, -1), (-1, 0)]
BISHOP = [(1, 1), (1, -1), (-1, -1), (-1, 1)]


def _sq(x, y):
    return "abcdefghij"[x] + str(y + 1)


@pytest.mark.parametrize("letter,dirs", [("A", BISHOP), ("C", ROOK)])
@pytest.mark.parametrize("square", ["e5", "a1", "j10", "b9", "f6"])
def test_archbishop_and_chancellor_moves(letter, dirs, square):
    """grand.md, Pieces: archbishop moves as bishop or as knight; chancellor as rook or as
    knight (an independent 10x10 generator here; kings placed off every line and leap)."""
    x, y = "abcdefghij".index(square[0]), int(square[1:]) - 1
    lines = _rays(x, y, dirs, set()) | _leaps(x, y, KNIGHT, set()) | {(x, y)}
    free = [(i, j) for j in range(10) for i in range(10) if (i, j) not in lines]
    wk = free[0]
    bk = next(c for c in reversed(free) if max(abs(c[0] - wk[0]), abs(c[1] - wk[1])) > 1)
    b = board({square: letter, _sq(*wk): "K", _sq(*bk): "k"})
    want = {square + _sq(*t) for t in lines - {(x, y)}}
    assert moves_from(b, square) == want
    assert len(want) == len(_rays(x, y, dirs, set())) + len(_leaps(x, y, KNIGHT, set()))


def test_archbishop_and_chancellor_counts_from_e5():
    """On an empty 10x10 board from e5: archbishop 17 + 8 = 25, chancellor 18 + 8 = 26."""
    for letter, n in (("A", 25), ("C", 26)):
        b = board({"e5": letter, "j1": "K", "j8": "k"})
        assert len(moves_from(b, "e5")) == n


def test_archbishop_and_chancellor_give_check_as_knights():
    """grand.md, Pieces: the knight part of A and C attacks (and checks) too."""
    for letter in "AC":
        b = board({"d4": letter, "e6": "k", "a1": "K"}, side="b")
        assert b.is_check()


def test_no_castling():
    """grand.md, Rules that differ: no castling (king and rooks in castling places)."""
    b = board({"e1": "K", "a1": "R", "j1": "R", "e10": "k"})
    assert moves_from(b, "e1") == {"e1d1", "e1f1", "e1d2", "e1e2", "e1f2"}
    assert b.fen().split()[2] == "-"


# --- pawns ---------------------------------------------------------------------------------

def test_double_step_from_rank_three():
    """grand.md: pawns may double-step from their start rank (rank 3 White, rank 8 Black)."""
    b = Board("grand")
    assert {"e3e4", "e3e5"} <= set(b.legal_moves())
    b.push("e3e4")
    assert {"d8d7", "d8d6"} <= set(b.legal_moves())
    b.push("d8d7")
    assert moves_from(b, "e4") == {"e4e5"}
    b.push("e4e5")
    assert moves_from(b, "d7") == {"d7d6"}


def test_no_double_step_from_rank_two():
    b = board({"a2": "P", "e1": "K", "e10": "k"})
    assert moves_from(b, "a2") == {"a2a3"}


def test_en_passant_white_captures():
    """grand.md: en passant as usual -- d8-d6 past d7 can be taken by the pawn on e6."""
    b = board({"e6": "P", "d8": "p", "a1": "K", "j10": "k"}, side="b")
    b.push("d8d6")
    assert b.fen().split()[3] == "d7"
    assert "e6d7" in b.legal_moves()
    b.push("e6d7")
    assert b.piece_at("d7") == "P" and b.piece_at("d6") is None


def test_en_passant_black_captures():
    b = board({"e3": "P", "d5": "p", "a1": "K", "j10": "k"})
    b.push("e3e5")
    assert b.fen().split()[3] == "e4"
    assert "d5e4" in b.legal_moves()
    b.push("d5e4")
    assert b.piece_at("e4") == "p" and b.piece_at("e5") is None


def test_en_passant_only_immediately():
    b = board({"e6": "P", "d8": "p", "a1": "K", "j10": "k"}, side="b")
    b.push("d8d6")
    b.push("a1a2")
    b.push("j10j9")
    assert "e6d7" not in b.legal_moves()


# --- promotion -----------------------------------------------------------------------------

def test_promotion_optional_on_ranks_8_and_9():
    """grand.md, Promotion: a pawn reaching rank 8 or 9 MAY promote or stay a pawn (both
    the promoting and the non-promoting move exist; no suffix when staying a pawn)."""
    b = board({"c7": "P", "g8": "P", "d8": "n", "a1": "K", "j10": "k"})   # White lost all
    assert moves_from(b, "c7") == {f"c7{t}{p}" for t in ("c8", "d8") for p in ("",) + tuple(ALL_TYPES)}
    assert moves_from(b, "g8") == {"g8g9"} | {f"g8g9{p}" for p in ALL_TYPES}
    b.push("c7c8")
    assert b.piece_at("c8") == "P"
    b.pop()
    b.push("c7c8a")
    assert b.piece_at("c8") == "A"


def test_promotion_mandatory_on_rank_10():
    """grand.md, Promotion: on rank 10 (Black: 1) it MUST promote."""
    b = board({"d9": "P", "c10": "n", "a1": "K", "j10": "k"})
    want = {f"d9{t}{p}" for t in ("d10", "c10") for p in ALL_TYPES}
    assert moves_from(b, "d9") == want
    with pytest.raises(ValueError):
        b.push("d9d10")


def test_black_promotion_zone_is_mirrored():
    """grand.md, Promotion: ranks 3 or 2 optional for Black, rank 1 mandatory."""
    b = board({"c4": "p", "f3": "p", "h2": "p", "j10": "K", "a10": "k"}, side="b")
    assert moves_from(b, "c4") == {"c4c3"} | {f"c4c3{p}" for p in ALL_TYPES}
    assert moves_from(b, "f3") == {"f3f2"} | {f"f3f2{p}" for p in ALL_TYPES}
    assert moves_from(b, "h2") == {f"h2h1{p}" for p in ALL_TYPES}


def test_promotion_only_to_lost_types():
    """grand.md, Promotion: only to a piece type of which the side has fewer than at the
    start (Q 1, C 1, A 1, R 2, B 2, N 2): with one rook and one knight lost, R or N only."""
    pieces = {k: v for k, v in WHITE_PIECES.items() if k not in ("j1", "i2")}
    b = board({**pieces, "e9": "P", "j10": "k"})
    assert moves_from(b, "e9") == {"e9e10r", "e9e10n"}
    b = board({**pieces, "e7": "P", "j10": "k"})
    assert moves_from(b, "e7") == {"e7e8", "e7e8r", "e7e8n"}


def test_promotion_limit_counts_promoted_pieces():
    """grand.md, Promotion: "currently has fewer than at the start" -- after promoting to
    the lost rook, a second pawn can no longer choose a rook."""
    pieces = {k: v for k, v in WHITE_PIECES.items() if k != "j1"}
    b = board({**pieces, "b9": "P", "h9": "P", "i6": "k", "j9": "n"})
    assert moves_from(b, "b9") == {"b9b10r"}
    b.push("b9b10r")
    b.push("j9i7")
    assert moves_from(b, "h9") == set()


def test_no_lost_type_means_no_move_to_rank_10():
    """grand.md, Promotion: if no type qualifies, the pawn cannot move to the last rank at
    all (neither by push nor by capture)."""
    pawns = {f"{f}3": "P" for f in "abcdefghj"}          # nine pawns + the one on i9
    b = board({**WHITE_PIECES, **pawns, "i9": "P", "g10": "k", "h10": "r", "j10": "n"})
    assert moves_from(b, "i9") == set()
    assert not any(m.startswith("i9") for m in b.legal_moves())


def test_pawn_that_cannot_promote_still_gives_check():
    """grand.md, Promotion: the pawn "still attacks the squares there and can give check
    from rank 9": black king j10 is in check from the i9 pawn."""
    pawns = {f"{f}3": "P" for f in "abcdefghj"}
    b = board({**WHITE_PIECES, **pawns, "i9": "P", "j10": "k"}, side="b")
    assert b.is_check()
    assert set(b.legal_moves()) == {"j10i9", "j10j9", "j10i10"}
    assert b.outcome() is None


def test_pawn_that_cannot_promote_still_guards_rank_10():
    """grand.md, Promotion: the pawn on i9 still attacks h10, so the king may not go there."""
    pawns = {f"{f}3": "P" for f in "abcdefghj"}
    b = board({**WHITE_PIECES, **pawns, "i9": "P", "g10": "k"}, side="b")
    assert not b.is_check()
    assert "g10h10" not in b.legal_moves()
    assert "g10f10" in b.legal_moves()


def test_unpromotable_pawn_in_reference_position():
    """perft_grand.tsv 'r8r/1nbqkcabP1/...': White has every piece, so the i9 pawn has no
    move at all (neither i9-i10 nor i9xj10); 69 moves in all, as the reference says."""
    b = Board("grand", "r8r/1nbqkcabP1/pppppppppp/10/10/10/10/1PPPPPPPPP/1NBQKCABN1/R8R w - - 0 1")
    assert moves_from(b, "i9") == set()
    assert len(b.legal_moves()) == 69


# --- end of game ---------------------------------------------------------------------------

@pytest.mark.parametrize("extra,dead", [
    ({}, True),                       # K v K
    ({"c4": "N"}, True),              # K+N v K
    ({"c4": "b"}, True),              # K+B v K
    ({"c4": "A"}, False),             # the archbishop can force mate with its king
    ({"c4": "C"}, False),             # so can the chancellor
    ({"c4": "P"}, False),
])
def test_insufficient_material(extra, dead):
    """grand.md, Draws: insufficient material (at least K v K, K+N v K, K+B v K; archbishop
    and chancellor can each force mate alone with their king)."""
    o = board({"a1": "K", "j10": "k", **extra}).outcome()
    if dead:
        assert (o.termination, o.white_score) == ("insufficient material", 0.5)
    else:
        assert o is None


def test_checkmate_and_stalemate():
    """grand.md: win by checkmate; stalemate is a draw (as in standard chess)."""
    mate = board({"j10": "k", "i8": "K", "a10": "C"}, side="b")   # C on rank 10, K guards
    assert mate.is_check() and mate.legal_moves() == []
    o = mate.outcome()
    assert (o.termination, o.white_score, o.result) == ("checkmate", 1.0, "1-0")
    stale = board({"j10": "k", "a1": "K", "i8": "Q"}, side="b")
    assert not stale.is_check()
    o = stale.outcome()
    assert (o.termination, o.white_score, o.result) == ("stalemate", 0.5, "1/2-1/2")


def test_fifty_move_rule_and_repetition():
    """grand.md, Draws as in standard chess: fifty-move rule and threefold repetition."""
    b = board({"a1": "K", "j10": "k", "e5": "C"}, halfmove=99, fullmove=70)
    b.push("a1a2")
    assert b.outcome().termination == "fifty-move rule"
    b = Board("grand")
    for _ in range(2):
        for m in "b2c4 b9c7 c4b2 c7b9".split():
            b.push(m)
    assert b.outcome().termination == "threefold repetition"
