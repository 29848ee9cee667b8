"""`bench` (engine/bench.py): a fixed set of positions searched to a fixed depth with fresh
tables, so the node count is a deterministic signature of the search."""
from __future__ import annotations

from engine import bench


def quiet(_line):
    pass


def test_bench_is_deterministic_and_deeper_costs_more():
    nodes5, ms5 = bench.run(depth=5, report=quiet)
    again, _ = bench.run(depth=5, report=quiet)
    nodes6, _ = bench.run(depth=6, report=quiet)
    assert nodes5 > 0 and ms5 >= 1
    assert again == nodes5
    assert nodes6 > nodes5


def test_bench_reports_every_position_and_the_total():
    lines = []
    nodes, _ = bench.run(depth=3, report=lines.append)
    positions = [ln for ln in lines if ln.startswith("Position: ")]
    assert len(positions) == len(bench.POSITIONS)
    assert {v for v, _ in bench.POSITIONS} == {"chess", "grand", "hexagonal"}
    moves = [ln for ln in lines if ln.startswith("bestmove ")]
    assert len(moves) == len(bench.POSITIONS)
    assert all(ln.split()[1] != "None" for ln in moves)
    assert f"Nodes searched  : {nodes}" in lines
    per_position = sum(int(ln.split()[-1]) for ln in moves)
    assert per_position == nodes
