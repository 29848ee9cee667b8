#!/usr/bin/env python3
"""What `scripts/run demo` shows: each variant's start board, its perft counts and speed, a
short search in each variant, an Alea turn (dice, jokers, the action Quantum picks), and
the bench signature."""
import usevenv  # noqa: F401  (first: re-runs this script with the .venv Python)
import random
import time

from engine import alea, bench
from engine.board import Board
from engine.deepening import GoLimits
from engine.engine import Engine
from engine.variant import variant_names

DEPTHS = {"chess": 5, "grand": 4, "hexagonal": 4}
# Alea's free opening (A5: eight moves a side without dice), then the dice decide.
ALEA_OPENING = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 b1c3 d7d6 c1g5 h7h6 g5h4 c8g4 h2h3 g4h5"


def show_variants() -> None:
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


def show_alea() -> None:
    """One Alea turn after the free opening: the dice a seeded roll shows, what they
    allow, and Quantum's choice among moves and jokers."""
    state = alea.AleaState.start()
    tokens = ALEA_OPENING.split()
    for token in tokens:
        state = alea.apply(state, alea.Action.parse(token))
    dice = alea.roll(state, random.Random(7))
    state = state.with_dice(dice)
    engine = Engine("alea")
    engine.set_alea_position(None, tokens, dice)
    print("== alea ==")
    print(state.board.draw())
    print(f"Alea FEN: {state.fen()}")
    print(f"  dice {dice[0]} {dice[1]}: {len(alea.ordinary_moves(state))} moves, "
          f"{len(alea.legal_actions(state))} actions with the jokers")
    best, infos = engine.search_sync(GoLimits(movetime=1000))
    print(f"  search 1 s: best {best.move}, value {infos[-1].score} cp, "
          f"{infos[-1].nodes:,} nodes")
    print()


def main() -> None:
    show_variants()
    show_alea()
    print("== bench ==")
    bench.run(report=lambda line: print(line) if not line.startswith(("Position", "bestmove")) else None)


if __name__ == "__main__":
    main()
