"""Alea baseline: captures the most valuable piece the dice allow -- a mate, taking the
king, above all -- else plays a random move the dice allow. It never spends a joker or a
reroll (its moves are the ordinary ones: pawns, the king's step, the types on the dice).

    scripts/match --variant alea --engine1 "python -m adapters.baselines.alea_greedy" \\
        --engine2 "python -m adapters.baselines.alea_random" --games 4 --tc 5+0.05 --seed 1

A standalone UCI engine speaking the Alea protocol (docs/protocol.md, "Alea games"); the
commands are those of adapters/baselines/aleaplayer.py. Ties between equal captures are broken at
random (``setoption name Seed value N`` makes that repeatable). It never looks at what its
move leaves en prise.
"""
from __future__ import annotations

import sys

from adapters.baselines.aleaplayer import AleaPlayer, capture_value
from engine.alea import MOVE


class GreedyPlayer(AleaPlayer):
    name = "Alea greedy"

    def choose(self, pos, actions):
        ordinary = [a for a in actions if a.kind == MOVE] or actions
        values = {a: capture_value(pos.state, a) for a in ordinary}
        best = max(values.values())
        return self.rng.choice(sorted(a for a, v in values.items() if v == best))


if __name__ == "__main__":
    sys.exit(GreedyPlayer().run())
