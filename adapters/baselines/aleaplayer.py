"""The Alea baseline players (alea_random, alea_greedy, alea_diceblind): each is a
standalone UCI engine that plays ``alea`` from the messages of docs/protocol.md, "Alea
games", and answers one action in one word (``e2e4``, ``e7e8`` for a promotion,
``joker:e2e4``, ``castle:e1g1``, ``reroll``), chosen among ``engine.alea.legal_actions``
for the state and dice told: exactly the answers the arbiter accepts.

The commands are those of ``adapters.baselines.player``'s loop: ``UCI_Variant`` accepts ``alea``
only; ``position alea startpos|fen <alea-fen> [moves <token>...] [dice <pair>|-]``;
``go`` does not read the clocks; and ``draw offer``, always answered ``draw decline``.
"""
from __future__ import annotations

from adapters.baselines.player import VALUES, BaselinePlayer, say

from adapters.alea_referee import AleaPosition, format_token, parse_alea_position
from engine import alea
from engine.alea import REROLL, Action

VARIANT = "alea"


class AleaPlayer(BaselinePlayer):
    """One Alea baseline: ``choose`` picks an action among ``actions``."""

    name = "Alea player"
    variant = VARIANT

    def __init__(self):
        super().__init__()
        self.position: AleaPosition | None = None

    def choose(self, pos: AleaPosition, actions: list[Action]) -> Action:
        raise NotImplementedError

    def actions(self, pos: AleaPosition) -> list[Action]:
        """The legal actions, without a second reroll in one turn (never a reroll loop)."""
        actions = alea.legal_actions(pos.state)
        if pos.tokens and pos.tokens[-1] == REROLL:
            actions = [a for a in actions if a.kind != REROLL]
        return actions

    def new_game(self) -> None:
        self.position = None

    def set_position(self, line: str) -> None:
        if line.split()[1:2] != ["alea"]:
            raise ValueError("position wants 'alea startpos|fen ...'")
        self.position = parse_alea_position(line, self.position)

    def best_move(self, go: list[str]) -> str:
        if self.position is None:
            self.set_position("position alea startpos")
        pos = self.position
        if alea.outcome(pos.state) is not None or alea.needs_roll(pos.state):
            return "(none)"
        actions = self.actions(pos)
        return format_token(self.choose(pos, actions)) if actions else "(none)"

    def command(self, words: list[str]) -> bool:
        if words == ["draw", "offer"]:
            say("draw decline")
            return True
        return False


def capture_value(state: alea.AleaState, action: Action) -> int:
    """What the action's move takes (0: nothing; en passant takes a pawn; a mate 1000)."""
    if action.kind == REROLL:
        return 0
    board = state.board
    move = action.move
    target = board.piece_at(move[2:4])
    mover = board.piece_at(move[:2])
    value = 0
    if target is not None and target.isupper() != mover.isupper():
        value = VALUES[target.lower()]
    elif mover.lower() == "p" and move[0] != move[2]:
        value = VALUES["p"]                         # en passant
    after = board.copy()
    after.push(move + ("q" if alea.is_promotion(state, move) else ""))
    if after.is_check() and not after.legal_moves():
        value = VALUES["k"]
    return value
