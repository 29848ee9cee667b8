#!/usr/bin/env python3
"""Fog of War baseline: a uniformly random move among those the last view allows.

    scripts/match --variant fogofwar --engine1 "python3 scripts/fog_greedy.py" \\
        --engine2 "python3 scripts/fog_random.py" --games 20 --tc 5+0.05

A standalone UCI engine speaking the fog protocol (docs/protocol.md, ``position fog``);
the commands are those of scripts/foglib.py (``setoption name Seed value N`` makes it
repeatable). The floor every fog player must beat.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from foglib import FogPlayer  # noqa: E402


class RandomPlayer(FogPlayer):
    name = "Fog random"

    def choose(self, view, moves, go):
        return self.rng.choice(moves)


if __name__ == "__main__":
    sys.exit(RandomPlayer().run())
