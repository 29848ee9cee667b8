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

LEVEL_NAMES = ("beginner", "easy", "normal", "hard")
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


LEVELS = {
    "beginner": Strength("beginner", 2, 2000, 8, 180.0, 0.5, blunder=0.15),
    "easy": Strength("easy", 3, 8000, 5, 70.0, 0.5, blunder=0.05),
    "normal": Strength("normal", 6, 150000, 3, 20.0, 1.0),
    "hard": Strength("hard", None, None, 1, 0.0, 1.5),
}
FULL = Strength("full", None, None, 1, 0.0, None)


def for_elo(elo: int) -> Strength:
    """A strength for `UCI_Elo`: node budget and temperature interpolated on a log scale.

    The anchor points are provisional until the calibration match against Stockfish's own
    `UCI_Elo` (scripts/calibrate-elo) replaces them with measured values.
    """
    elo = max(ELO_MIN, min(ELO_MAX, elo))
    x = (elo - ELO_MIN) / (ELO_MAX - ELO_MIN)
    nodes = int(math.exp(math.log(500) + x * (math.log(2_000_000) - math.log(500))))
    temperature = 200.0 * (1 - x) ** 2
    lines = 1 if temperature < 2 else 4
    depth = None if x > 0.5 else 2 + int(x * 12)
    return Strength(f"elo{elo}", depth, nodes, lines, temperature, None,
                    blunder=0.1 * (1 - x) ** 3)


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
