"""The Fog of War baseline players (fog_random, fog_greedy, fog_naive):
each is a standalone UCI engine that plays ``fogofwar`` from what docs/protocol.md's
``position fog`` message tells it, and chooses among the moves its last view allows
(``engine.fog.view_moves``, which are exactly the moves the arbiter accepts).

The commands are those of ``adapters.baselines.player``'s loop: ``UCI_Variant`` accepts
``fogofwar`` and its alias ``darkchess`` only; ``position fog ...``, or ``position
startpos|fen ... [moves ...]`` (a true position, for analysis: the player then moves from
the view of the side to move); ``go`` reads only the side's own clock.
"""
from __future__ import annotations

from adapters.baselines.player import VALUES, BaselinePlayer

from adapters.fog_referee import FogTurn, parse_fog_position
from engine.board import Board
from engine.fog import View, parse_view_fen, view_fen, view_moves
from engine.notation import move_cells
from engine.variant import resolve_name

VARIANT = "fogofwar"


class FogPlayer(BaselinePlayer):
    """One Fog of War baseline: ``choose`` picks a move among those the view allows."""

    name = "fog player"
    variant = VARIANT

    def __init__(self):
        super().__init__()
        self.turns: list[FogTurn] = []
        self.view: View | None = None

    def choose(self, view: View, moves: list[str], go: list[str]) -> str:
        raise NotImplementedError

    def is_own_variant(self, value: str) -> bool:
        return resolve_name(value) == VARIANT      # ValueError for an unknown name

    def new_game(self) -> None:
        self.turns, self.view = [], None

    def set_position(self, line: str) -> None:
        words = line.split()
        if words[1:2] == ["fog"]:
            turns = parse_fog_position(line)
            views = [parse_view_fen(t.view, VARIANT) for t in turns]
            self.turns, self.view = turns, views[-1]
            return
        k = words.index("moves") if "moves" in words else len(words)
        if words[1:2] == ["startpos"]:
            board = Board(VARIANT)
        elif words[1:2] == ["fen"]:
            board = Board(VARIANT, " ".join(words[2:k]))
        else:
            raise ValueError("position wants fog, startpos or fen")
        for move in words[k + 1:]:
            board.push(move)
        fen = view_fen(board, board.turn)
        self.turns, self.view = [FogTurn(fen)], parse_view_fen(fen, VARIANT)

    def best_move(self, go: list[str]) -> str:
        if self.view is None:
            self.set_position("position startpos")
        moves = view_moves(self.view)
        return self.choose(self.view, moves, go) if moves else "(none)"


def captures(view: View, moves: list[str]) -> dict[str, int]:
    """``{move: value of the enemy piece it takes}`` for the captures among ``moves``
    (a capture en passant takes a pawn)."""
    ep = view.fen.split()[3]
    out = {}
    for move in moves:
        origin, target = move_cells(move)
        letter = view.pieces.get(target)
        if letter is not None and letter.isupper() != (view.side == "w"):
            out[move] = VALUES.get(letter.lower(), 3)
        elif target == ep and view.pieces.get(origin, "").lower() == "p":
            out[move] = VALUES["p"]
    return out


