"""Time management: how long to think about one move.

``allocate`` turns the clock situation into a soft budget (do not start another iteration
past it) and a hard one (the search stops there, whatever it is doing). Both leave the
``Move Overhead`` and a safety margin on the clock, so Quantum does not lose on time.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Budget:
    soft: float | None      # seconds; None: no clock (depth, nodes or infinite)
    hard: float | None
    fixed: bool = False     # `go movetime`: the whole budget is the user's, spend it all


SAFETY = 0.005              # seconds kept back besides the move overhead
DEFAULT_MOVES_TO_GO = 18    # a sudden-death game is assumed to last this many more moves,
SLOW_MOVES_TO_GO = 24       # or this many when the increment cannot pay the overhead: then
                            # nothing refills the clock, and a long game must still end in time


def allocate(limits, side: int, overhead_ms: int, max_think: float | None = None) -> Budget:
    """Budget for ``limits`` (a GoLimits-like object) when ``side`` (0 White) is to move.

    ``max_think`` caps both budgets (levels that play fast without a clock use it).
    """
    overhead = max(overhead_ms, 0) / 1000.0
    if limits.movetime:
        t = max(limits.movetime / 1000.0 - overhead, 0.001)
        return _cap(Budget(t, t, fixed=True), max_think)
    clock = limits.wtime if side == 0 else limits.btime
    if clock is None:
        return _cap(Budget(None, None), max_think)
    inc = ((limits.winc if side == 0 else limits.binc) or 0) / 1000.0
    mtg = limits.movestogo or (DEFAULT_MOVES_TO_GO if 0 < inc and overhead <= inc
                                else SLOW_MOVES_TO_GO)
    mtg = max(min(mtg, 60), 1)
    # What the next mtg moves may use together: the clock plus the increments still to
    # come, less the overhead every one of those moves will cost (Stockfish's formula).
    # When the increment cannot pay the overhead, this shrinks to nothing and the engine
    # plays at once until the increments have rebuilt the clock.
    pool = max(clock / 1000.0 + inc * (mtg - 1) - overhead * (2 + mtg) - SAFETY, 0.001)
    left = max(clock / 1000.0 - overhead - SAFETY, 0.001)    # what this move can reach
    soft = pool / mtg
    hard = min(left * (0.9 if mtg == 1 else 0.35), max(soft, 0.001) * 4.0)
    hard = max(min(hard, left), 0.001)
    soft = min(soft, hard)
    return _cap(Budget(soft, hard), max_think)


def _cap(b: Budget, max_think: float | None) -> Budget:
    if max_think is None:
        return b
    return Budget(min(b.soft, max_think) if b.soft is not None else max_think,
                  min(b.hard, max_think) if b.hard is not None else max_think,
                  fixed=b.fixed and b.hard is not None and b.hard <= max_think)
