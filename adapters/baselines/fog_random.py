"""Fog of War baseline: a uniformly random move among those the last view allows.

    scripts/match --variant fogofwar --engine1 "python -m adapters.baselines.fog_greedy" \\
        --engine2 "python -m adapters.baselines.fog_random" --games 20 --tc 5+0.05

A standalone UCI engine speaking the fog protocol (docs/protocol.md, ``position fog``);
the commands are those of adapters/baselines/fogplayer.py (``setoption name Seed value N`` makes it
repeatable). The floor every fog player must beat.
"""
from __future__ import annotations

import sys

from adapters.baselines.fogplayer import FogPlayer


class RandomPlayer(FogPlayer):
    name = "Fog random"

    def choose(self, view, moves, go):
        return self.rng.choice(moves)


if __name__ == "__main__":
    sys.exit(RandomPlayer().run())
