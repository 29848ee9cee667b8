"""Chess960 perft against tests/data/perft_chess960.tsv, which Stockfish 15.1 counted
(scripts/perft960-reference; tests/data/README.md): the Chess960 perft list's positions,
start positions and positions made for the castling rules, depths 1 to 5.

As in test_perft.py, CI runs every row of at most ``NODE_CAP`` nodes (depth 4 and below
here); the depth-5 rows are ``slow`` (``--runslow``). A second test asks Stockfish itself,
where it is installed, for the divide of every position: the same moves, written the same
way (castling king-takes-rook), with the same counts.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from engine.board import Board
from testkit import read_tsv, refdata

NODE_CAP = 2_000_000
DIVIDE_LINE = re.compile(r"([a-h][1-8][a-h][1-8][qrbn]?): ([0-9]+)")
ROWS = [(r["name"], r["fen"], int(r["depth"]), int(r["nodes"]))
        for r in read_tsv(refdata("perft_chess960.tsv"))]
STOCKFISH = shutil.which("stockfish") or next(
    (p for p in ["/usr/games/stockfish"] if os.access(p, os.X_OK)), None)


def test_the_reference_file_holds_what_its_readme_says():
    """At least 20 positions of the perft list at depths 4 and 5, and each castling case."""
    listed = {name for name, _, depth, _ in ROWS if name.startswith("fischer-")
              and depth in (4, 5)}
    assert len(listed) >= 20
    names = {name for name, *_ in ROWS}
    assert {"king-stays", "rook-on-king-target", "king-on-rook-target", "attacked-cells",
            "rook-shields-king", "other-rook-in-the-way", "x-fen-outer-rook"} <= names
    assert all(any(n == name and d <= 4 and c <= NODE_CAP for n, _, d, c in ROWS)
               for name in names), "every position has a row CI runs"


@pytest.mark.parametrize("name,fen,depth,nodes", [
    pytest.param(*row, marks=() if row[3] <= NODE_CAP else (pytest.mark.slow,),
                 id=f"{row[0]}-d{row[2]}") for row in ROWS])
def test_perft960(name, fen, depth, nodes):
    board = Board("chess", fen, chess960=True)
    before = (board.fen(), board.key)
    assert board.perft(depth) == nodes
    assert (board.fen(), board.key) == before, "perft must leave the position unchanged"


def _stockfish_divide(fen: str, depth: int) -> dict[str, int]:
    """``go perft`` of Stockfish in Chess960 mode: {move: count}."""
    script = f"setoption name UCI_Chess960 value true\nposition fen {fen}\ngo perft {depth}\nquit\n"
    out = subprocess.run([STOCKFISH], input=script, capture_output=True, text=True,
                         timeout=120, check=True).stdout
    return {m.group(1): int(m.group(2)) for m in map(DIVIDE_LINE.fullmatch, out.splitlines())
            if m}


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_divide_matches_stockfish_live():
    positions = dict((fen, name) for name, fen, _, _ in ROWS)
    for fen, name in positions.items():
        ours = dict(Board("chess", fen, chess960=True).perft_divide(2))
        assert ours == _stockfish_divide(fen, 2), name
