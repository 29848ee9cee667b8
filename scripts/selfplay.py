"""Training positions from Quantum's own games, and reference scores for them.

Shared by scripts/tune.py (Texel tuning of the hand-written weights) and scripts/nnue
(the learnt evaluation): ``play_games`` plays node-limited self-play games from random
exits and yields the quiet positions of each game with its result; ``Labeller`` scores
positions with a reference UCI engine (Stockfish for chess, Fairy-Stockfish with
``UCI_Variant`` for Grand) at a fixed depth, in centipawns from White's view.
"""
from __future__ import annotations

import random
from collections.abc import Iterator

from engine.board import Board
from engine.deepening import GoLimits
from engine.engine import Engine

RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "3/4-1/4": 0.75, "1/4-3/4": 0.25}
MATE_CP = 10000          # a reference engine's mate score, as centipawns


def play_games(variant: str, nodes: int, seed: int, keep: float = 0.5,
               max_plies: int = 300) -> Iterator[tuple[list[tuple[str, int]], str, int]]:
    """Self-play games for ever: per game (positions, result, plies), where positions are
    (FEN, Quantum's score from White's view) of the quiet positions after the opening
    (not in check, no capture chosen, |score| < 2000), each kept with probability ``keep``."""
    rng = random.Random(seed)
    engine = Engine(variant)
    while True:
        engine.new_game()
        board = Board(variant)
        for _ in range(rng.randint(2, 8)):          # random exits from the start
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
        positions = []
        while board.outcome() is None and len(board.move_stack) < max_plies:
            engine.set_position(board.fen(), [])
            best, infos = engine.search_sync(GoLimits(nodes=nodes))
            if best.move is None:
                break
            score = infos[-1].score if infos else 0
            if len(board.move_stack) >= 8 and not board.is_check() and abs(score) < 2000 \
                    and not _captures(board, best.move) and rng.random() < keep:
                positions.append((board.fen(), score if board.turn == "w" else -score))
            board.push(best.move)
        outcome = board.outcome()
        yield positions, outcome.result if outcome else "1/2-1/2", len(board.move_stack)


def _captures(board: Board, move: str) -> bool:
    """Whether ``move`` takes something or promotes (the position is then not quiet):
    cell names end in a digit, so a move that ends in a letter promotes."""
    if move[-1].isalpha():
        return True
    before = _count(board.fen())
    board.push(move)
    after = _count(board.fen())
    board.pop()
    return after < before


def _count(fen: str) -> int:
    return sum(ch.isalpha() for ch in fen.split()[0])


class Labeller:
    """A reference engine that scores positions at a fixed depth (White's view)."""

    def __init__(self, variant: str, command: str, depth: int):
        from adapters.uci_engine import UciEngine
        opts = {"UCI_Variant": variant} if variant != "chess" else {}
        opts.update({"Threads": 1, "Hash": 16})
        self.engine = UciEngine(command, options=opts)
        self.depth = depth
        self.count = 0

    def score(self, fen: str) -> int | None:
        if self.count % 500 == 0:
            self.engine.new_game()
        self.count += 1
        _, _, _, info = self.engine.go(f"position fen {fen}", f"depth {self.depth}", 60)
        words = info.split()
        if "score" not in words:
            return None
        kind, val = words[words.index("score") + 1], int(words[words.index("score") + 2])
        cp = val if kind == "cp" else (MATE_CP if val > 0 else -MATE_CP)
        return -cp if fen.split()[1] == "b" else cp

    def quit(self) -> None:
        self.engine.quit()
