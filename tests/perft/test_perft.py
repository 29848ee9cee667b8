"""Perft against the reference tables in shared/refdata (see its README for who produced
each count): perft_standard.tsv (Stockfish + Fairy-Stockfish), perft_grand.tsv
(Fairy-Stockfish, pyffish), perft_hexagonal.tsv (three independent Glinski generators).

CI runs every row whose node count is at most ``NODE_CAP``; every distinct position is
covered by at least one such row (if a position had none, its shallowest row runs anyway).
Deeper rows are marked ``slow`` and run with ``--runslow`` or ``QUANTUM_SLOW=1``.
The data are ``tests/data`` (a copy of shared/refdata) unless ``QUANTUM_REFDATA`` points elsewhere.
"""
from __future__ import annotations

import pytest

from engine.board import Board
from testkit import PERFT_FILES, read_tsv, refdata

NODE_CAP = 2_000_000


def _load_rows() -> list[tuple[str, str, int, int]]:
    rows = []
    for variant, name in PERFT_FILES.items():
        for r in read_tsv(refdata(name)):
            rows.append((variant, r["fen"], int(r["depth"]), int(r["nodes"])))
    return rows


ROWS = _load_rows()


def _ci_rows(rows) -> set[int]:
    """Indices of the rows CI runs: all under the cap, plus the shallowest row of any
    position that has no row under the cap."""
    chosen = {i for i, r in enumerate(rows) if r[3] <= NODE_CAP}
    positions = {(r[0], r[1]) for r in rows}
    for pos in positions:
        mine = [i for i, r in enumerate(rows) if (r[0], r[1]) == pos]
        if not chosen.intersection(mine):
            chosen.add(min(mine, key=lambda i: rows[i][2]))
    return chosen


CI_ROWS = _ci_rows(ROWS)


def _position_numbers(rows) -> dict:
    """(variant, fen) -> 1, 2, ... in file order, for readable test ids."""
    numbers: dict = {}
    for variant, fen, _, _ in rows:
        if (variant, fen) not in numbers:
            numbers[(variant, fen)] = 1 + sum(1 for v, _ in numbers if v == variant)
    return numbers


def _params():
    numbers = _position_numbers(ROWS)
    out = []
    for i, (variant, fen, depth, nodes) in enumerate(ROWS):
        marks = () if i in CI_ROWS else (pytest.mark.slow,)
        pid = f"{variant}-pos{numbers[(variant, fen)]}-d{depth}-{nodes}"
        out.append(pytest.param(variant, fen, depth, nodes, marks=marks, id=pid))
    return out


def test_reference_tables_present():
    """The reference data must be found; an empty parameter set would hide every row."""
    for variant, name in PERFT_FILES.items():
        path = refdata(name)
        assert path.exists(), f"missing {path}"
        assert any(r[0] == variant for r in ROWS), f"no rows read from {path}"


def test_every_position_covered_in_ci():
    """Each distinct FEN of each table has at least one row that runs without --runslow."""
    positions = {(r[0], r[1]) for r in ROWS}
    covered = {(ROWS[i][0], ROWS[i][1]) for i in CI_ROWS}
    assert positions == covered


@pytest.mark.parametrize("variant,fen,depth,nodes", _params())
def test_perft(variant, fen, depth, nodes):
    board = Board(variant, fen)
    before = (board.fen(), board.key)
    assert board.perft(depth) == nodes
    assert (board.fen(), board.key) == before, "perft must leave the position unchanged"


@pytest.mark.parametrize("variant", sorted(PERFT_FILES))
def test_perft_divide_sums_to_perft(variant):
    """perft_divide splits the shallowest CI row of depth >= 2 of every position."""
    for i in sorted(CI_ROWS):
        v, fen, depth, nodes = ROWS[i]
        if v != variant or depth < 2 or nodes > NODE_CAP // 4:
            continue
        board = Board(variant, fen)
        divide = board.perft_divide(depth)
        moves = [m for m, _ in divide]
        assert sorted(moves) == sorted(board.legal_moves())
        assert len(set(moves)) == len(moves)
        assert sum(n for _, n in divide) == nodes


# --- positions_hexagonal.tsv: the move sequences that produced the reference positions ---

HEX_POSITIONS = read_tsv(refdata("positions_hexagonal.tsv"))


def _fen_fields(fen: str) -> dict:
    placement, side, ep, halfmove, fullmove = fen.split()
    return {"placement": placement, "side": side, "ep": ep,
            "halfmove": int(halfmove), "fullmove": int(fullmove)}


def test_hex_positions_present():
    assert HEX_POSITIONS, f"missing {refdata('positions_hexagonal.tsv')}"


@pytest.mark.parametrize("row", HEX_POSITIONS, ids=[r["name"] for r in HEX_POSITIONS])
def test_hex_position_replay(row):
    """Replaying ``moves_from_start`` with push() reaches the listed position.

    Placement and side to move must be identical. The en passant field needs care: we
    write a cell only when an enemy pawn stands where it could capture there (Board.fen),
    while some hex tools write it after every double step. The file lists a cell only in
    rand_ep (h6 after ...h7-h5, and the white pawn on i5 can take there), and no replayed
    row ends with an uncapturable double step, so under either convention the field must
    be equal here. The clocks must match too: the moves are ordinary plies from the start.
    Rows without moves are crafted positions: they must load and write back unchanged.
    """
    want = _fen_fields(row["fen"])
    moves = row["moves_from_start"].split()
    if moves:
        board = Board("hexagonal")
        for m in moves:
            board.push(m)
    else:
        board = Board("hexagonal", row["fen"])
    got = _fen_fields(board.fen())
    assert got["placement"] == want["placement"]
    assert got["side"] == want["side"]
    assert got["ep"] == want["ep"]
    assert (got["halfmove"], got["fullmove"]) == (want["halfmove"], want["fullmove"])
    # the position reached by moves and the one set from the listed FEN are the same
    assert Board("hexagonal", row["fen"]).key == board.key
