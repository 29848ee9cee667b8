#!/usr/bin/env python3
"""What `scripts/run` shows: each variant's start board, its perft counts and speed, a
short search in each variant, and the bench signature."""
import usevenv  # noqa: F401  (first: re-runs this script with the .venv Python)
import time

from engine import bench
from engine.board import Board
from engine.deepening import GoLimits
from engine.engine import Engine
from engine.variant import variant_names

DEPTHS = {"chess": 5, "grand": 4, "hexagonal": 4}


def main() -> None:
    for name in variant_names():
        board = Board(name)
        print(f"== {name} ==")
        print(board.draw())
        print(f"FEN: {board.fen()}")
        for depth in range(1, DEPTHS.get(name, 3) + 1):
            start = time.perf_counter()
            nodes = board.perft(depth)
            secs = time.perf_counter() - start
            print(f"  perft {depth}: {nodes:>12,}   {nodes / max(secs, 1e-9):>14,.0f} nodes/s")
        best, infos = Engine(name).search_sync(GoLimits(depth=8))
        last = infos[-1]
        print(f"  search depth 8: best {best.move}, score {last.score} cp, "
              f"{last.nodes:,} nodes, pv {' '.join(last.pv[:6])}")
        print()
    print("== bench ==")
    bench.run(report=lambda line: print(line) if not line.startswith(("Position", "bestmove")) else None)


if __name__ == "__main__":
    main()
