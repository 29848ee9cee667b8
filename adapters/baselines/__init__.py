"""Baseline players: small UCI engines to measure Quantum against.

Each module is a standalone UCI engine, launched as ``python -m adapters.baselines.NAME``
(``command(NAME)``; ``scripts/match --engine2 baseline:NAME`` does it for you):

| name | plays | how |
|---|---|---|
| ``material`` | chess, grand, hexagonal | depth-2 material-only alpha-beta |
| ``fog_random`` | fogofwar | a random move the last view allows |
| ``fog_greedy`` | fogofwar | the most valuable capture in view, the king first |
| ``fog_naive`` | fogofwar | Quantum's search with the fog taken for empty |
| ``alea_random`` | alea | a random legal action |
| ``alea_greedy`` | alea | the most valuable capture the dice allow |
| ``alea_diceblind`` | alea | Quantum's chess search over the moves the dice allow |

Their shared UCI loop is ``player``; ``fogplayer`` and ``aleaplayer`` read each game's
positions.
"""
from __future__ import annotations

import shlex
import sys

NAMES = ("material", "fog_random", "fog_greedy", "fog_naive", "alea_random", "alea_greedy",
         "alea_diceblind")
PREFIX = "baseline:"


def command(name: str) -> str:
    """The shell command that starts baseline ``name`` with this Python."""
    if name not in NAMES:
        raise ValueError(f"unknown baseline {name!r} (known: {', '.join(NAMES)})")
    return f"{shlex.quote(sys.executable)} -m adapters.baselines.{name}"


def expand(engine: str) -> str:
    """An engine command with ``baseline:NAME`` written out (other commands unchanged)."""
    return command(engine[len(PREFIX):]) if engine.startswith(PREFIX) else engine
