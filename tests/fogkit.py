"""Fog of War games for the engine-side tests: seeded random true games, and the
``position fog ...`` message each side receives at each of its turns, built exactly as
docs/protocol.md says from the views and lost cells ``engine.fog`` computes (the arbiter's
side of the protocol, written here from the spec so the tests do not trust the engine's
own parser to build what it then parses)."""
from __future__ import annotations

import random
from dataclasses import dataclass

from engine.board import Board
from engine.fog import lost_cells, view


@dataclass
class Turn:
    board: Board            # the true position, ``side`` to move
    command: str            # the whole ``position fog ...`` line for it


def random_game(seed: int, plies: int, variant: str = "fogofwar") -> tuple[list[Board], list[str]]:
    """Boards before every ply and the moves played, uniformly at random, stopping at a
    king capture or other end."""
    rng = random.Random(seed)
    board = Board(variant)
    boards, moves = [board.copy()], []
    for _ in range(plies):
        if board.outcome() is not None:
            break
        move = rng.choice(board.legal_moves())
        board.push(move)
        boards.append(board.copy())
        moves.append(move)
    return boards, moves


def fog_turns(boards: list[Board], moves: list[str], side: str) -> list[Turn]:
    """The turns of ``side`` in a game: its true board and its ``position fog`` line
    (every view from its first turn, each with its lost cells, and its moves between)."""
    out, groups = [], []
    for i, board in enumerate(boards):
        if board.outcome() is not None:
            break
        if board.turn != side:
            continue
        lost = lost_cells(boards[i - 1], board, side) if i else frozenset()
        group = "view " + view(board, side).fen
        if lost:
            group += " lost " + " ".join(sorted(lost))
        groups.append(group)
        out.append(Turn(board, "position fog " + " ".join(groups)))
        if i < len(moves):
            groups.append("move " + moves[i])
    return out
