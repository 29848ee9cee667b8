"""Playing strength: the `Level` presets and `UCI_Elo`, as limits on the search and a
chance to choose a weaker move.

A weakened level searches several lines (MultiPV) and picks among them at random, the
worse a line the less likely (softmax over the score gap with a temperature), so it
plays plausible moves and sometimes a mistake rather than nonsense.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

LEVEL_NAMES = ("beginner", "easy", "normal", "hard", "adaptive")
ELO_MIN, ELO_MAX = 800, 2800


@dataclass(frozen=True)
class Strength:
    name: str
    max_depth: int | None       # iteration limit; None: unlimited
    max_nodes: int | None       # node limit per move
    lines: int                  # MultiPV lines to choose from (1: always the best)
    temperature: float          # centipawns: larger picks worse moves more often
    max_think: float | None     # seconds per move when no clock or movetime is given
    blunder: float = 0.0        # chance to choose uniformly among the lines
    net: bool = False           # weakened, yet calibrated with the learnt evaluation

    @property
    def weakened(self) -> bool:
        """Whether this strength holds the search back (a node budget, a depth cap, a
        choice among lines): the levels below hard and UCI_Elo."""
        return self.max_nodes is not None or self.max_depth is not None or self.lines > 1

    @property
    def hand_written(self) -> bool:
        """Whether this strength searches with the hand-written evaluation whatever net is
        loaded (Engine.evaluation): a weakened one whose settings were measured against
        Stockfish with that evaluation, so a stronger net does not change what it means.
        The top `UCI_Elo` anchors were measured with the shipped net instead (``net``)."""
        return self.weakened and not self.net


LEVELS = {
    "beginner": Strength("beginner", 2, 2000, 8, 180.0, 0.5, blunder=0.15),
    "easy": Strength("easy", 3, 8000, 5, 70.0, 0.5, blunder=0.05),
    "normal": Strength("normal", 6, 150000, 3, 20.0, 1.0),
    "hard": Strength("hard", None, None, 1, 0.0, 1.5),
    # Plays like hard, on evaluation weights scaled by the opponent's profile
    # (engine/adaptive.py; the Engine facade picks the tables).
    "adaptive": Strength("adaptive", None, None, 1, 0.0, 1.5),
}
FULL = Strength("full", None, None, 1, 0.0, None)


# UCI_Elo anchors: (elo, node budget, MultiPV lines, temperature cp, depth cap, blunder,
# learnt evaluation). Between anchors the node budget is interpolated on a log scale,
# temperature and blunder linearly; lines and depth cap come from the anchor below. Above
# about 1900 the engine only searches less (one line, fewer nodes): choosing among lines
# costs depth there. The hand-written evaluation at full strength plays about 2000 on
# Stockfish's scale, so the anchors above that search with the net; between an anchor of
# one evaluation and one of the other the lower anchor's settings hold (a step, not a
# blend of two evaluations' node budgets). Each anchor's Elo is what its settings measured
# against Stockfish 15.1's UCI_Elo with scripts/calibrate-elo (docs/strength.md: 1350,
# 1525 and 1900 with the hand-written evaluation, 140 games each; the net's two anchors
# with chess-6, chess-8 and, in session 38, chess-13, 100 games each: 12,000 nodes
# measured 1979, 1899 and 1963, so its anchor stays 1980; 60,000 nodes 2096, 2167 and
# 2247, so with the stronger net that anchor is 2245, no longer 2100);
# 800 and 1200 are below Stockfish's range and extend the curve unmeasured, and 2800 is
# beyond what the net reaches at blitz (about 2400 at 10+0.1: the clock limits the
# settings above that, not their node budget).
ELO_ANCHORS = (
    (800, 400, 6, 250.0, 2, 0.20, False),
    (1200, 3000, 5, 130.0, 4, 0.08, False),
    (1350, 8000, 4, 75.0, 6, 0.03, False),
    (1525, 12000, 4, 55.0, 7, 0.02, False),
    (1900, 25000, 1, 0.0, None, 0.0, False),
    (1980, 12000, 1, 0.0, None, 0.0, True),
    (2245, 60000, 1, 0.0, None, 0.0, True),
    (2800, 20_000_000, 1, 0.0, None, 0.0, True),
)


def for_elo(elo: int) -> Strength:
    """A strength for `UCI_Elo`, interpolated between the measured anchors."""
    elo = max(ELO_MIN, min(ELO_MAX, elo))
    for lo, hi in zip(ELO_ANCHORS, ELO_ANCHORS[1:]):
        if elo <= hi[0]:
            break
    x = (elo - lo[0]) / (hi[0] - lo[0])
    if lo[6] != hi[6] and x < 1:
        x = 0.0
    nodes = int(math.exp(math.log(lo[1]) + x * (math.log(hi[1]) - math.log(lo[1]))))
    temperature = lo[3] + x * (hi[3] - lo[3])
    blunder = lo[5] + x * (hi[5] - lo[5])
    step = hi if x == 1 else lo         # lines, depth cap and evaluation: the anchor below
    return Strength(f"elo{elo}", step[4], nodes, step[2], temperature, None, blunder=blunder,
                    net=step[6])


def choose(lines: list, strength: Strength, rng: random.Random):
    """Pick a line [(score_cp, pv)] for a weakened strength (the first is the best)."""
    if len(lines) <= 1 or strength.lines <= 1:
        return lines[0]
    if rng.random() < strength.blunder:
        return rng.choice(lines)
    best = lines[0][0]
    t = max(strength.temperature, 1e-6)
    weights = [math.exp(-(best - score) / t) for score, _ in lines]
    return rng.choices(lines, weights=weights)[0]
