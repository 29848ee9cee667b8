"""A deliberately simple UCI player for strength baselines: a depth-2 (by default)
material-only alpha-beta over Quantum's rules, ties broken at random.

    scripts/match --engine2 "python -m adapters.baselines.material" --variant hexagonal

It speaks just enough UCI for the arbiter: uci, isready, ucinewgame, setoption
(UCI_Variant, Depth, Seed), position, go (ignores clocks: it is fast), quit.
"""
from __future__ import annotations

import random
import sys

from engine.board import Board
from engine.variant import load_variant, resolve_name

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "a": 8, "c": 9, "k": 0}
MATE = 1000


def material(board: Board) -> int:
    """Material balance from the side to move's view."""
    total = 0
    for cell in board.variant.geometry.names:
        letter = board.piece_at(cell)
        if letter:
            v = VALUES.get(letter.lower(), 3)
            total += v if letter.isupper() else -v
    return total if board.turn == "w" else -total


def negamax(board: Board, depth: int, alpha: int, beta: int) -> int:
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return MATE if (outcome.winner == 0) == (board.turn == "w") else -MATE
    if depth == 0:
        return material(board)
    best = -MATE - 1
    for move in board.legal_moves():
        board.push(move)
        score = -negamax(board, depth - 1, -beta, -alpha)
        board.pop()
        if score > best:
            best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
    return best


def choose(board: Board, depth: int, rng: random.Random) -> str | None:
    moves = board.legal_moves()
    rng.shuffle(moves)
    best, best_score = None, -MATE - 2
    for move in moves:
        board.push(move)
        score = -negamax(board, depth - 1, -MATE - 1, -best_score + 1)
        board.pop()
        if score > best_score:
            best, best_score = move, score
    return best


def main() -> int:
    variant, depth, rng = "chess", 2, random.Random()
    board = Board(variant)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            print("id name Baseline material depth 2\nid author Quantum team")
            print("option name UCI_Variant type string default chess")
            print("option name Depth type spin default 2 min 1 max 4\nuciok", flush=True)
        elif cmd == "isready":
            print("readyok", flush=True)
        elif cmd == "setoption" and "value" in words:
            name = " ".join(words[2:words.index("value")]).lower()
            value = " ".join(words[words.index("value") + 1:])
            if name == "uci_variant":
                variant = resolve_name(value)
                board = Board(variant)
            elif name == "depth":
                depth = int(value)
            elif name == "seed":
                rng = random.Random(int(value))
        elif cmd == "position":
            moves = words[words.index("moves") + 1:] if "moves" in words else []
            if words[1] == "startpos":
                board = Board(variant)
            else:
                end = words.index("moves") if "moves" in words else len(words)
                board = Board(variant, " ".join(words[2:end]))
            for m in moves:
                board.push(m)
        elif cmd == "go":
            move = choose(board, depth, rng)
            print(f"bestmove {move or '(none)'}", flush=True)
        elif cmd == "quit":
            break
    return 0


if __name__ == "__main__":
    load_variant("chess")
    sys.exit(main())
