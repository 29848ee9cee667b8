#!/usr/bin/env python3
"""Alea baseline: a uniformly random legal action for the state and dice told (moves,
free-move jokers, the castle joker, a reroll -- but never two rerolls in one turn).

    scripts/match --variant alea --engine1 "python3 scripts/alea_greedy.py" \\
        --engine2 "python3 scripts/alea_random.py" --games 4 --tc 5+0.05 --seed 1

A standalone UCI engine speaking the Alea protocol (docs/protocol.md, "Alea games"); the
commands are those of scripts/alealib.py (``setoption name Seed value N`` makes it
repeatable). The floor every Alea player must beat.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from alealib import AleaPlayer  # noqa: E402


class RandomPlayer(AleaPlayer):
    name = "Alea random"

    def choose(self, pos, actions):
        return self.rng.choice(actions)


if __name__ == "__main__":
    sys.exit(RandomPlayer().run())
