"""Fog of War baseline, "naive fog": takes every fogged cell for empty and runs Quantum's
normal search (engine.engine.Engine) on that board, playing only moves the last view
allows.

    scripts/match --variant fogofwar --engine1 "python -m adapters.baselines.fog_naive" \\
        --engine2 "python -m adapters.baselines.fog_greedy" --games 20 --tc 10+0.1

The board is ``engine.fog.view_board`` of the last view: when the enemy king is out of
view it is put where this side last saw it (if that cell is fogged now), else on its
start cell, else on some fogged cell -- the search needs a king to hunt. The search is
limited to ``view_moves`` of the view (``searchmoves``) and to a budget scaled to the own
clock: about 1/30 of the time left plus 3/4 of the increment (never more than 1/5 of the
time left), and a node cap of NODES_PER_MS per millisecond of it; ``go movetime`` is
obeyed, and a bare ``go`` searches to ``Depth`` (option, default 4).

A standalone UCI engine speaking the fog protocol (docs/protocol.md, ``position fog``);
the commands are those of adapters/baselines/fogplayer.py.
"""
from __future__ import annotations

import sys

from adapters.baselines.player import SearchingPlayer
from adapters.baselines.fogplayer import VARIANT, FogPlayer

from engine.fog import parse_view_fen, view_board


class NaivePlayer(SearchingPlayer, FogPlayer):
    name = "Fog naive"
    search_variant = VARIANT

    def last_seen_king(self, view) -> tuple[str, ...]:
        """The cell where the enemy king was last in view, latest view first."""
        king = "k" if view.side == "w" else "K"
        for turn in reversed(self.turns):
            for cell, letter in parse_view_fen(turn.view, VARIANT).pieces.items():
                if letter == king:
                    return (cell,)
        return ()

    def choose(self, view, moves, go):
        if len(moves) == 1:
            return moves[0]
        board = view_board(view, king_cells=self.last_seen_king(view))
        self.engine.set_position(board.fen())
        best = self.search_among(go, view.side, moves)
        return best if best in moves else self.rng.choice(moves)


if __name__ == "__main__":
    sys.exit(NaivePlayer().run())
