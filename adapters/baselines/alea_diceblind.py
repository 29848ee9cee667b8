"""Alea baseline, "dice-blind": Quantum's normal chess search (engine.engine.Engine) on
the chess board of the game, restricted at the root to the moves the dice allow
(``engine.alea.legal_actions``' ordinary moves for the state and dice told), and blind to
chance everywhere below: the tree is plain chess, every reply is assumed possible, a
promotion is taken for a queen. It never spends a joker, a reroll or the castle joker
(unless no ordinary move exists at all, which A13 makes almost impossible).

    scripts/match --variant alea --engine1 "quantum" \\
        --engine2 "python -m adapters.baselines.alea_diceblind" --games 4 --tc 10+0.1 --seed 1

The opponent the issue's proof needs: Quantum's Alea search against it measures what
modelling the dice is worth. The board is the game's chess board (the start position
and every move played, so repetitions are seen); the budget is scaled to the own clock
like fog_naive's (adapters.baselines.player.budget_ms: about 1/30 of the time left plus
3/4 of the increment, at most 1/5 of the time left, and a node cap of NODES_PER_MS per
millisecond); ``go movetime`` is obeyed, and a bare ``go`` searches to ``Depth``
(option, default 4). One legal move is played at once.

A standalone UCI engine speaking the Alea protocol (docs/protocol.md, "Alea games"); the
commands are those of adapters/baselines/aleaplayer.py.
"""
from __future__ import annotations

import sys

from adapters.baselines.aleaplayer import AleaPlayer
from adapters.baselines.player import SearchingPlayer

from adapters.alea_referee import parse_token
from engine import alea
from engine.alea import MOVE, REROLL


def chess_moves(tokens) -> list[str]:
    """The chess moves (UCI, promotions with their piece) of a game's tokens."""
    out = []
    for token in tokens:
        if token == REROLL:
            continue
        action, promotion = parse_token(token)
        out.append(action.move + (promotion or ""))
    return out


class DiceBlindPlayer(SearchingPlayer, AleaPlayer):
    name = "Alea dice-blind"

    def __init__(self):
        super().__init__()
        self.go: list[str] = []

    def best_move(self, go: list[str]) -> str:
        self.go = go
        return super().best_move(go)

    def choose(self, pos, actions):
        moves = [a for a in actions if a.kind == MOVE]
        if not moves:                       # no ordinary move (A13 all but rules it out)
            return actions[0]
        if len(moves) == 1:
            return moves[0]
        state = pos.state
        # The chess search wants promotions with their piece: blind to the die, a queen.
        wanted = {a.move + ("q" if alea.is_promotion(state, a.move) else ""): a for a in moves}
        self.engine.set_position(pos.initial.board.fen(), chess_moves(pos.tokens))
        best = self.search_among(self.go, "wb"[state.side], wanted)
        return wanted.get(best) or self.rng.choice(moves)


if __name__ == "__main__":
    sys.exit(DiceBlindPlayer().run())
