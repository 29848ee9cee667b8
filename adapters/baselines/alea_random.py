"""Alea baseline: a uniformly random legal action for the state and dice told (moves,
free-move jokers, the castle joker, a reroll -- but never two rerolls in one turn).

    scripts/match --variant alea --engine1 "python -m adapters.baselines.alea_greedy" \\
        --engine2 "python -m adapters.baselines.alea_random" --games 4 --tc 5+0.05 --seed 1

A standalone UCI engine speaking the Alea protocol (docs/protocol.md, "Alea games"); the
commands are those of adapters/baselines/aleaplayer.py (``setoption name Seed value N`` makes it
repeatable). The floor every Alea player must beat.
"""
from __future__ import annotations

import sys

from adapters.baselines.aleaplayer import AleaPlayer


class RandomPlayer(AleaPlayer):
    name = "Alea random"

    def choose(self, pos, actions):
        return self.rng.choice(actions)


if __name__ == "__main__":
    sys.exit(RandomPlayer().run())
