"""Fog of War baseline: captures the most valuable enemy piece in view -- the king above
all, which wins at once -- else plays a random move the last view allows.

    scripts/match --variant fogofwar --engine1 "python -m adapters.baselines.fog_greedy" \\
        --engine2 "python -m adapters.baselines.fog_random" --games 20 --tc 5+0.05

A standalone UCI engine speaking the fog protocol (docs/protocol.md, ``position fog``);
the commands are those of adapters/baselines/fogplayer.py. Ties between equal captures are broken at
random (``setoption name Seed value N`` makes that repeatable). It never looks at what
its move leaves en prise.
"""
from __future__ import annotations

import sys

from adapters.baselines.fogplayer import FogPlayer, captures


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
