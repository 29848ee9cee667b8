"""Shared helpers for the perft scripts: reference rows and timing our core."""
from __future__ import annotations

import csv
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
FILES = {"chess": "perft_standard.tsv", "grand": "perft_grand.tsv",
         "hexagonal": "perft_hexagonal.tsv", "fogofwar": "perft_fogofwar.tsv"}


def reference_rows(variant: str):
    """(fen, depth, nodes) rows of the reference table for a variant."""
    with open(DATA / FILES[variant]) as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            yield row["fen"], int(row["depth"]), int(row["nodes"])


def time_ours(variant: str, fen: str, depth: int) -> tuple[int, float]:
    """Nodes and seconds for one perft with Quantum's core (in process)."""
    from engine.board import Board
    board = Board(variant, fen)
    start = time.perf_counter()
    nodes = board.perft(depth)
    return nodes, time.perf_counter() - start
