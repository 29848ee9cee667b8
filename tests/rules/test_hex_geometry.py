"""Glinski geometry against shared/refdata/geometry_hexagonal.tsv (all 91 cells).

docs/rules/hexagonal.md, "Board": x = file index - 5, h = |x| + 2(rank - 1); edge (rook) steps
(0,+2) (+1,+1) (+1,-1) (0,-2) (-1,-1) (-1,+1); vertex (bishop) steps (+1,+3) (+2,0)
(+1,-3) (-1,-3) (-2,0) (-1,+3); 12 knight leaps; colours light/medium/dark = h mod 3.

Neighbours and mobility are read from what the engine compiled (``tables_data['nxt']``
walked along the vectors each piece's ``slide_mask``/``leap_mask`` names), and the
mobility is checked again through real legal-move generation for every cell.
"""
from __future__ import annotations

import pytest

from engine.board import Board
from engine.geometry import hexagon
from engine.variant import load_variant
from testkit import hex_fen, read_tsv, refdata

ROWS = read_tsv(refdata("geometry_hexagonal.tsv"))
BY_CELL = {r["cell"]: r for r in ROWS}
COLOUR = {"light": 0, "medium": 1, "dark": 2}      # the file header: colour = h mod 3
EDGE = ["N", "NE", "SE", "S", "SW", "NW"]
EDGE_VEC = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)]
VERT = ["NNE", "E", "SSE", "SSW", "W", "NNW"]
VERT_VEC = [(1, 3), (2, 0), (1, -3), (-1, -3), (-2, 0), (-1, 3)]
PIECES = {"rook": "r", "bishop": "b", "queen": "q", "knight": "n", "king": "k"}

V = load_variant("hexagonal")
G = V.geometry
T = V.tables_data


def _vector_of_index() -> list[tuple[int, int]]:
    """The coordinate step each compiled vector index stands for, read back from ``nxt``
    (and checked to be one and the same step from every cell)."""
    out = []
    for v in range(T["nvec"]):
        deltas = set()
        for a in range(T["ncells"]):
            b = T["nxt"][a][v]
            if b >= 0:
                (xa, ha), (xb, hb) = G.coords[a], G.coords[b]
                deltas.add((xb - xa, hb - ha))
        assert len(deltas) == 1, f"vector {v} is not one step: {deltas}"
        out.append(deltas.pop())
    return out


VECTORS = _vector_of_index()
INDEX = {d: v for v, d in enumerate(VECTORS)}


def _name(c: int) -> str:
    return "-" if c < 0 else G.names[c]


def _mask_vectors(mask: int) -> list[int]:
    return [v for v in range(T["nvec"]) if mask >> v & 1]


def table_mobility(cell: int, letter: str) -> set[int]:
    """Targets of a lone piece on an empty board, from the compiled tables."""
    t = V.type_of[letter]
    out = set()
    for v in _mask_vectors(T["leap_mask"][t]):
        b = T["nxt"][cell][v]
        if b >= 0:
            out.add(b)
    for v in _mask_vectors(T["slide_mask"][t]):
        b = T["nxt"][cell][v]
        while b >= 0:
            out.add(b)
            b = T["nxt"][b][v]
    return out


def test_reference_present():
    assert len(ROWS) == 91, f"expected 91 cells in {refdata('geometry_hexagonal.tsv')}"


def test_cells_and_colour_counts():
    """hexagonal.md: 91 cells; 30 light, 31 medium, 30 dark; f1 light, f6 medium, f11 dark;
    cells per file 6 7 8 9 10 11 10 9 8 7 6."""
    assert G.ncells == 91 == T["ncells"]
    assert sorted(G.names) == sorted(BY_CELL)
    counts = [sum(1 for c in G.colours if c == k) for k in range(3)]
    assert counts == [30, 31, 30]
    assert [G.colours[G.cell(n)] for n in ("f1", "f6", "f11")] == [0, 1, 2]
    per_file = [sum(1 for n in G.names if n[0] == f) for f in "abcdefghikl"]
    assert per_file == [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]
    assert list(T["colour"]) == list(G.colours)


def test_compiled_vectors_cover_the_rule_text():
    """Every edge, vertex and knight step of hexagonal.md is a compiled vector."""
    knight = {(sx * a, sy * b) for a, b in ((1, 5), (2, 4), (3, 1))
              for sx in (1, -1) for sy in (1, -1)}
    for d in EDGE_VEC + VERT_VEC + sorted(knight):
        assert d in INDEX, f"step {d} missing from the compiled tables"
    rook, bishop, knight_t = (V.type_of[ch] for ch in "rbn")
    assert {VECTORS[v] for v in _mask_vectors(T["slide_mask"][rook])} == set(EDGE_VEC)
    assert {VECTORS[v] for v in _mask_vectors(T["slide_mask"][bishop])} == set(VERT_VEC)
    assert {VECTORS[v] for v in _mask_vectors(T["leap_mask"][knight_t])} == knight


@pytest.mark.parametrize("name", sorted(BY_CELL))
def test_cell(name):
    """Coordinates, colour, the 6 edge and 6 vertex neighbours and the knight targets."""
    row = BY_CELL[name]
    c = G.cell(name)
    assert G.coords[c] == (int(row["x"]), int(row["h"]))
    assert G.colours[c] == COLOUR[row["colour"]]
    assert G.colours[c] == int(row["h"]) % 3
    for label, d in zip(EDGE, EDGE_VEC, strict=True):
        assert _name(T["nxt"][c][INDEX[d]]) == row[f"edge_{label}"], f"edge {label}"
        assert _name(G.step(c, d)) == row[f"edge_{label}"]
    for label, d in zip(VERT, VERT_VEC, strict=True):
        assert _name(T["nxt"][c][INDEX[d]]) == row[f"vert_{label}"], f"vertex {label}"
    knight = {G.names[b] for b in table_mobility(c, "n")}
    assert knight == set(row["knight_targets"].split())
    # edge neighbours never share a colour (hexagonal.md); vertex neighbours always do
    for d in EDGE_VEC:
        b = G.step(c, d)
        if b >= 0:
            assert G.colours[b] != G.colours[c]
    for d in VERT_VEC:
        b = G.step(c, d)
        if b >= 0:
            assert G.colours[b] == G.colours[c]


@pytest.mark.parametrize("name", sorted(BY_CELL))
def test_empty_board_mobility_from_tables(name):
    row = BY_CELL[name]
    c = G.cell(name)
    for piece, letter in PIECES.items():
        col = "knight_n" if piece == "knight" else "king_n" if piece == "king" else f"{piece}_empty"
        assert len(table_mobility(c, letter)) == int(row[col]), piece


def _harmless_kings(cell: int, letter: str) -> tuple[int, int]:
    """Cells for the white and the black king that lie on no line or target of the piece
    (so they block nothing), are not adjacent to each other, and whose neighbourhoods stay
    clear of the piece's targets when the piece is a king."""
    if letter == "k":
        reach = table_mobility(cell, "k") | {cell}
        danger = lambda k: table_mobility(k, "k") & reach          # noqa: E731
        free = [k for k in range(G.ncells) if k not in reach and not danger(k)]
        return cell, free[0]
    # every cell on a full ray or leap from the piece, occupied or not
    lines = table_mobility(cell, letter) | {cell}
    free = [k for k in range(G.ncells) if k not in lines]
    for wk in free:
        for bk in free:
            if bk != wk and bk not in table_mobility(wk, "k"):
                return wk, bk
    raise AssertionError(f"no harmless king cells for {letter} on {G.names[cell]}")


def legal_mobility(cell: int, letter: str) -> int:
    """Moves of a lone white piece by real move generation (kings placed out of the way)."""
    wk, bk = _harmless_kings(cell, letter)
    placement = {G.names[wk]: "K", G.names[bk]: "k"}
    if letter != "k":
        placement[G.names[cell]] = letter.upper()
    board = Board("hexagonal", hex_fen(placement))
    start = G.names[cell]
    return sum(1 for m in board.legal_moves() if m.startswith(start) and
               not m[len(start)].isdigit())


@pytest.mark.parametrize("name", sorted(BY_CELL))
def test_empty_board_mobility_by_move_generation(name):
    row = BY_CELL[name]
    c = G.cell(name)
    for piece, letter in PIECES.items():
        col = "knight_n" if piece == "knight" else "king_n" if piece == "king" else f"{piece}_empty"
        assert legal_mobility(c, letter) == int(row[col]), piece


def test_centre_mobility_from_rule_text():
    """hexagonal.md: on an empty board from f6: queen 42, rook 30, bishop 12, knight 12,
    king 12 (and at the six corners queen 30, knight 4, king 5, as the reference lists)."""
    f6 = G.cell("f6")
    assert {p: legal_mobility(f6, ch) for p, ch in PIECES.items()} == \
        {"queen": 42, "rook": 30, "bishop": 12, "knight": 12, "king": 12}
    for corner in ("f1", "a1", "a6", "f11", "l1", "l6"):
        c = G.cell(corner)
        assert legal_mobility(c, "q") == 30
        assert legal_mobility(c, "n") == 4
        assert legal_mobility(c, "k") == 5


def test_fen_rows_match_rule_text():
    """hexagonal.md: FEN rows are ranks 11 down to 1, row lengths 1,3,5,7,9,11,11,11,11,11,11,
    cells of a rank from file a to file l."""
    g = hexagon()
    assert [len(r) for r in g.fen_rows] == [1, 3, 5, 7, 9, 11, 11, 11, 11, 11, 11]
    assert [g.names[c] for c in g.fen_rows[0]] == ["f11"]
    assert [g.names[c] for c in g.fen_rows[1]] == ["e10", "f10", "g10"]
    assert [g.names[c] for c in g.fen_rows[4]] == [f"{f}7" for f in "bcdefghik"]
    assert [g.names[c] for c in g.fen_rows[10]] == [f"{f}1" for f in "abcdefghikl"]
