#!/usr/bin/env python3
"""Fog of War baseline: captures the most valuable enemy piece in view -- the king above
all, which wins at once -- else plays a random move the last view allows.

    scripts/match --variant fogofwar --engine1 "python3 scripts/fog_greedy.py" \\
        --engine2 "python3 scripts/fog_random.py" --games 20 --tc 5+0.05

A standalone UCI engine speaking the fog protocol (docs/protocol.md, ``position fog``);
the commands are those of scripts/foglib.py. Ties between equal captures are broken at
random (``setoption name Seed value N`` makes that repeatable). It never looks at what
its move leaves en prise.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from foglib import FogPlayer, captures  # noqa: E402


class GreedyPlayer(FogPlayer):
    name = "Fog greedy"

    def choose(self, view, moves, go):
        takes = captures(view, moves)
        if not takes:
            return self.rng.choice(moves)
        best = max(takes.values())
        return self.rng.choice(sorted(m for m, v in takes.items() if v == best))


if __name__ == "__main__":
    sys.exit(GreedyPlayer().run())
