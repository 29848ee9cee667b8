"""Gliński hexagonal chess: scenario tests, each citing docs/rules/hexagonal.md.

Positions are written as ``{cell: letter}`` and turned into hex FEN by ``testkit.hex_fen``
(ranks 11 down to 1, cells of a rank from file a to file l).
"""
from __future__ import annotations

import pytest

from engine.board import Board
from engine.geometry import hexagon
from testkit import hex_fen, mirror_move, mirror_placement, placement_of, read_tsv, refdata

G = hexagon()
START = "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1"
WHITE_START_CELLS = ["b1", "c2", "d3", "e4", "f5", "g4", "h3", "i2", "k1"]
BLACK_START_CELLS = ["b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "k7"]
WHITE_PROMO = ["a6", "b7", "c8", "d9", "e10", "f11", "g10", "h9", "i8", "k7", "l6"]
BLACK_PROMO = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "k1", "l1"]
POSITIONS = {r["name"]: r["fen"] for r in read_tsv(refdata("positions_hexagonal.tsv"))}


def board(placement: dict, side="w", ep="-", halfmove=0, fullmove=1) -> Board:
    return Board("hexagonal", hex_fen(placement, side, ep, halfmove, fullmove))


def moves_from(b: Board, cell: str) -> set[str]:
    """Legal moves of the piece on ``cell`` (careful with f1 vs f10/f11 prefixes)."""
    n = len(cell)
    return {m for m in b.legal_moves() if m.startswith(cell) and not m[n].isdigit()}


def step(cell: str, vec) -> str | None:
    c = G.step(G.cell(cell), vec)
    return None if c < 0 else G.names[c]


def test_start_position_has_51_moves():
    """hexagonal.md, Set-up: "White has 51 legal first moves"; the FEN is the one given."""
    b = Board("hexagonal")
    assert b.fen() == START
    assert len(b.legal_moves()) == 51
    assert len(set(b.legal_moves())) == 51
    for alias in ("glinski", "hex"):
        assert Board(alias).fen() == START


def test_set_up_matches_the_table():
    """hexagonal.md, Set-up table: K g1, Q e1, R c1 i1, N d1 h1, B f1 f2 f3, pawns b1 c2 d3
    e4 f5 g4 h3 i2 k1; Black K g10, Q e10, R c8 i8, N d9 h9, B f9 f10 f11, pawns on rank 7.
    The three bishops of a side stand on the three colours."""
    b = Board("hexagonal")
    want = {"g1": "K", "e1": "Q", "c1": "R", "i1": "R", "d1": "N", "h1": "N",
            "f1": "B", "f2": "B", "f3": "B", "g10": "k", "e10": "q", "c8": "r", "i8": "r",
            "d9": "n", "h9": "n", "f9": "b", "f10": "b", "f11": "b"}
    want.update({c: "P" for c in WHITE_START_CELLS})
    want.update({c: "p" for c in BLACK_START_CELLS})
    got = {n: b.piece_at(n) for n in G.names if b.piece_at(n)}
    assert got == want
    assert {G.colours[G.cell(c)] for c in ("f1", "f2", "f3")} == {0, 1, 2}
    assert {G.colours[G.cell(c)] for c in ("f9", "f10", "f11")} == {0, 1, 2}


# --- pawns ---------------------------------------------------------------------------------

def test_pawn_captures_on_the_two_forward_edge_neighbours():
    """hexagonal.md, Pawn: captures on the two edge neighbours 60 degrees left and right of
    straight ahead (b5 captures on a5 or c6) -- never straight ahead, never backwards."""
    b = board({"b5": "P", "a5": "r", "c6": "n", "b6": "b", "a4": "n", "c5": "r",
               "g1": "K", "f11": "k"})
    assert not b.is_check()
    assert moves_from(b, "b5") == {"b5a5", "b5c6"}


def test_pawn_f5_captures_e5_and_g5():
    """hexagonal.md, Pawn: "f5 on e5 or g5"; the straight push is still possible."""
    b = board({"f5": "P", "e5": "n", "g5": "n", "e4": "n", "g4": "n",
               "a1": "K", "f11": "k"})
    assert moves_from(b, "f5") == {"f5e5", "f5g5", "f5f6", "f5f7"}


def test_black_pawn_captures_mirrored():
    """hexagonal.md, Pawn (Black mirrored): f7 captures on e6 or g6, not f6 or backwards."""
    b = board({"f7": "p", "e6": "N", "g6": "N", "f6": "B", "e7": "N", "g7": "N",
               "a1": "K", "f11": "k"}, side="b")
    assert moves_from(b, "f7") == {"f7e6", "f7g6"}


def test_pawn_blocked_straight_ahead_has_no_move():
    """hexagonal.md, Pawn: moves one cell straight up its file only if that cell is empty."""
    b = board({"c4": "P", "c5": "p", "a1": "K", "f11": "k"})
    assert moves_from(b, "c4") == set()


@pytest.mark.parametrize("cell", WHITE_START_CELLS)
def test_white_double_step_from_each_start_cell(cell):
    """hexagonal.md, Pawn: from any of its side's nine start cells a pawn may advance two
    cells if both are empty."""
    one, two = step(cell, (0, 2)), step(cell, (0, 4))
    b = board({cell: "P", "l1": "K", "a6": "k"})
    assert moves_from(b, cell) == {cell + one, cell + two}
    b.push(cell + two)
    assert b.piece_at(two) == "P" and b.piece_at(cell) is None
    # both cells must be empty
    blocked = board({cell: "P", two: "N", "l1": "K", "a6": "k"})
    assert moves_from(blocked, cell) == {cell + one}


@pytest.mark.parametrize("cell", BLACK_START_CELLS)
def test_black_double_step_from_each_start_cell(cell):
    """hexagonal.md, Pawn (Black mirrored): the nine black start cells are b7 ... k7."""
    one, two = step(cell, (0, -2)), step(cell, (0, -4))
    b = board({cell: "p", "l1": "K", "a6": "k"}, side="b")
    assert moves_from(b, cell) == {cell + one, cell + two}


def test_no_double_step_off_the_start_cells():
    """hexagonal.md, Pawn: the double step is only from a start cell (f4, g5: single)."""
    b = board({"f4": "P", "g5": "P", "a1": "K", "f11": "k"})
    assert moves_from(b, "f4") == {"f4f5"}
    assert moves_from(b, "g5") == {"g5g6"}


def test_no_double_step_from_the_other_sides_start_cells():
    """hexagonal.md, Pawn: only "its side's nine start cells" -- a white pawn on e7 (a black
    start cell) and a black pawn on e4 (a white one) step once."""
    b = board({"e7": "P", "e4": "p", "a1": "K", "l6": "k"})
    assert moves_from(b, "e7") == {"e7e8"}
    b = board({"e7": "P", "e4": "p", "a1": "K", "l6": "k"}, side="b")
    assert moves_from(b, "e4") == {"e4e3"}


def test_double_step_again_after_capturing_onto_a_start_cell():
    """hexagonal.md, Pawn: "a pawn that captures onto a start cell of its own side may
    double-step from there again" (f4xe4, then e4-e6)."""
    b = board({"f4": "P", "e4": "n", "a1": "K", "f11": "k"})
    b.push("f4e4")
    b.push("f11e10" if "f11e10" in b.legal_moves() else b.legal_moves()[0])
    assert {"e4e5", "e4e6"} <= moves_from(b, "e4")


def test_black_double_step_again_after_capturing_onto_a_start_cell():
    """hexagonal.md, Pawn (Black mirrored): f8xe7, then e7-e5."""
    b = board({"f8": "p", "e7": "N", "a1": "K", "l6": "k"}, side="b")
    b.push("f8e7")
    b.push("a1a2")
    assert {"e7e6", "e7e5"} <= moves_from(b, "e7")


def test_en_passant_after_double_step():
    """hexagonal.md, Pawn: a pawn that double-steps past a cell an enemy pawn could capture
    on may be captured there on the very next move, as if it had moved one cell."""
    b = board({"f6": "P", "e7": "p", "a1": "K", "l6": "k"}, side="b")
    b.push("e7e5")
    assert b.fen().split()[2] == "e6"
    assert "f6e6" in b.legal_moves()
    b.push("f6e6")
    assert b.piece_at("e6") == "P" and b.piece_at("e5") is None and b.piece_at("f6") is None
    assert b.halfmove_clock == 0


def test_en_passant_only_on_the_very_next_move():
    """hexagonal.md, Pawn: "on the very next move" -- a move later the right is gone."""
    b = board({"f6": "P", "e7": "p", "a1": "K", "l6": "k"}, side="b")
    b.push("e7e5")
    b.push("a1a2")
    b.push("l6l5")
    assert "f6e6" not in b.legal_moves()
    assert b.fen().split()[2] == "-"


def test_en_passant_on_the_b_file():
    """hexagonal.md, Pawn: en passant "includes the b- and k-files" (positions_hexagonal.tsv
    craft_ep_bfile: b1-b3 allows ...c3xb2 e.p.)."""
    b = Board("hexagonal", POSITIONS["craft_ep_bfile"])
    b.push("b1b3")
    assert b.fen().split()[2] == "b2"
    assert "c3b2" in b.legal_moves()
    b.push("c3b2")
    assert b.piece_at("b2") == "p" and b.piece_at("b3") is None and b.piece_at("c3") is None


def test_en_passant_on_the_k_file():
    """hexagonal.md, Pawn: k1-k3 allows ...l2xk2 e.p. (craft_ep_bfile)."""
    b = Board("hexagonal", POSITIONS["craft_ep_bfile"])
    b.push("k1k3")
    assert b.fen().split()[2] == "k2"
    assert "l2k2" in b.legal_moves()
    b.push("l2k2")
    assert b.piece_at("k2") == "p" and b.piece_at("k3") is None and b.piece_at("l2") is None


def test_en_passant_that_exposes_the_king_is_illegal():
    """positions_hexagonal.tsv craft_ep_pin: after ...e7-e5, d5xe6 e.p. is illegal (it opens
    rank 5 from the black rook g4 to the white king b5), f6xe6 e.p. is legal."""
    b = Board("hexagonal", POSITIONS["craft_ep_pin"])
    assert b.fen().split()[2] == "e6"
    assert "f6e6" in b.legal_moves()
    assert "d5e6" not in b.legal_moves()


@pytest.mark.parametrize("cell", WHITE_PROMO)
def test_white_promotion_on_each_edge_cell(cell):
    """hexagonal.md, Pawn: promotion on reaching the far edge (White on a6 b7 c8 d9 e10 f11
    g10 h9 i8 k7 l6) to queen, rook, bishop or knight; staying a pawn is not possible."""
    below = step(cell, (0, -2))
    b = board({below: "P", "a1": "K", "l1": "k"})
    assert moves_from(b, below) == {f"{below}{cell}{p}" for p in "qrbn"}
    b.push(f"{below}{cell}n")
    assert b.piece_at(cell) == "N"


@pytest.mark.parametrize("cell", BLACK_PROMO)
def test_black_promotion_on_each_edge_cell(cell):
    """hexagonal.md, Pawn: Black promotes on a1 b1 c1 d1 e1 f1 g1 h1 i1 k1 l1."""
    above = step(cell, (0, 2))
    b = board({above: "p", "a6": "K", "l6": "k"}, side="b")
    assert moves_from(b, above) == {f"{above}{cell}{p}" for p in "qrbn"}
    b.push(f"{above}{cell}q")
    assert b.piece_at(cell) == "q"


def test_f10f11n_and_capture_promotions():
    """hexagonal.md, Notation: `f10f11n`; a pawn on f10 also promotes by capturing on e10
    or g10 (both edge cells)."""
    b = board({"f10": "P", "e10": "r", "g10": "n", "a1": "K", "l1": "k"})
    want = {f"f10{t}{p}" for t in ("f11", "e10", "g10") for p in "qrbn"}
    assert moves_from(b, "f10") == want
    b.push("f10f11n")
    assert b.piece_at("f11") == "N" and b.piece_at("f10") is None
    assert b.move_stack == ["f10f11n"]


# --- pieces --------------------------------------------------------------------------------

def test_no_castling():
    """hexagonal.md, King: "No castling"; the hex FEN has no castling field."""
    b = board({"g1": "K", "c1": "R", "i1": "R", "g10": "k"})
    king_steps = {f"g1{step('g1', v)}" for cls in ("W", "F") for v in G.vector_classes[cls]
                  if step("g1", v)}
    assert moves_from(b, "g1") == king_steps - {"g1i1"}   # i1 holds its own rook
    assert len(b.fen().split()) == 5


def test_bishops_stay_on_their_colour_and_knights_change_it():
    """hexagonal.md, Pieces: a bishop stays on its colour; a knight changes colour every move."""
    b = board({"f6": "B", "d3": "N", "a1": "K", "l6": "k"})
    colour = lambda cell: G.colours[G.cell(cell)]       # noqa: E731
    for m in moves_from(b, "f6"):
        assert colour(m[2:]) == colour("f6")
    for m in moves_from(b, "d3"):
        assert colour(m[2:]) != colour("d3")


# --- end of the game ----------------------------------------------------------------------

def _after(fen: str, move: str) -> Board:
    b = Board("hexagonal", fen)
    b.push(move)
    return b


MATES = ["e8i1", "e8e2", "e8e1"]
STALEMATES = ["d5g7", "d5g4", "e8g8", "e8g5", "e8g9", "e8g7"]


def test_mate_and_stalemate_counts_of_the_crafted_position():
    """positions_hexagonal.tsv craft_mate_stale: K+Q+R v K, 67 white moves, 3 of them mate
    in one and 6 stalemate in one."""
    fen = POSITIONS["craft_mate_stale"]
    b = Board("hexagonal", fen)
    assert len(b.legal_moves()) == 67
    ends = {}
    for m in b.legal_moves():
        b.push(m)
        o = b.outcome()
        if o is not None:
            ends.setdefault(o.termination, set()).add(m)
        b.pop()
    assert ends == {"checkmate": set(MATES), "stalemate": set(STALEMATES)}


@pytest.mark.parametrize("move", MATES)
def test_checkmate_wins(move):
    """hexagonal.md, End of the game: checkmate wins (1-0)."""
    o = _after(POSITIONS["craft_mate_stale"], move).outcome()
    assert (o.termination, o.white_score, o.result, o.winner) == ("checkmate", 1.0, "1-0", 0)


@pytest.mark.parametrize("move", STALEMATES)
def test_white_stalemating_black_scores_three_quarters(move):
    """hexagonal.md, End of the game: stalemate is NOT a draw; the stalemating side scores
    3/4, the stalemated side 1/4 (Result token `3/4-1/4`)."""
    b = _after(POSITIONS["craft_mate_stale"], move)
    assert not b.is_check() and b.legal_moves() == []
    o = b.outcome()
    assert (o.termination, o.white_score, o.result, o.winner) == ("stalemate", 0.75, "3/4-1/4", 0)


@pytest.mark.parametrize("move", STALEMATES)
def test_black_stalemating_white_scores_three_quarters(move):
    """hexagonal.md, End of the game: the same with colours swapped -> `1/4-3/4`."""
    b = Board("hexagonal", POSITIONS["craft_mate_stale"])
    black = board(mirror_placement(G, placement_of(b)), side="b")
    black.push(mirror_move(G, move))
    assert black.turn == "w" and black.legal_moves() == [] and not black.is_check()
    o = black.outcome()
    assert (o.termination, o.white_score, o.result, o.winner) == ("stalemate", 0.25, "1/4-3/4", 1)


def test_bare_kings_are_a_draw():
    """hexagonal.md, Draws: "only the two kings left"."""
    o = board({"a1": "K", "l6": "k"}).outcome()
    assert (o.termination, o.white_score, o.result) == ("insufficient material", 0.5, "1/2-1/2")


@pytest.mark.parametrize("extra", [{"c4": "N"}, {"c4": "B"}, {"c4": "n"}, {"c4": "B", "h8": "b"},
                                   {"c4": "B", "d3": "B"}, {"c4": "P"}])
def test_no_other_dead_material_draw(extra):
    """hexagonal.md, Draws: "No other automatic insufficient-material draw" -- K+N v K,
    K+B v K, bishops on one colour are all played on."""
    b = board({"a1": "K", "l6": "k", **extra})
    assert b.outcome() is None


def test_fifty_move_rule():
    """hexagonal.md, Draws: 50 moves by each side without capture or pawn move."""
    fen = hex_fen({"a1": "K", "l6": "k", "c4": "N"}, halfmove=99, fullmove=90)
    b = Board("hexagonal", fen)
    assert b.outcome() is None
    b.push("a1a2")
    o = b.outcome()
    assert (o.termination, o.white_score) == ("fifty-move rule", 0.5)
    b.pop()
    b.push("c4" + next(m[2:] for m in b.legal_moves() if m.startswith("c4")))
    assert b.outcome().termination == "fifty-move rule"


def test_threefold_repetition():
    """hexagonal.md, Draws: threefold repetition (knights out and back twice)."""
    b = Board("hexagonal")
    cycle = ["d1c3", "d9c6", "c3d1", "c6d9"]
    for m in cycle:
        b.push(m)
    assert b.repetitions() == 1 and b.outcome() is None
    for m in cycle:
        b.push(m)
    assert b.repetitions() == 2
    o = b.outcome()
    assert (o.termination, o.white_score) == ("threefold repetition", 0.5)
