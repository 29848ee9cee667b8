"""Helpers for the search tests: run the Engine facade to a fixed depth or node count
(never a clock), read the final info, count material, and solve small mate problems with
python-chess to check the claims the tests make about their positions."""
from __future__ import annotations

from engine.board import Board
from engine.deepening import MATE, MATE_BOUND, GoLimits
from engine.engine import Engine

# Material in pawns, by FEN letter (lower case); the king counts nothing.
VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "a": 7, "c": 8, "q": 9, "k": 0}

__all__ = ["MATE", "MATE_BOUND", "GoLimits", "Engine", "Board", "VALUES", "search", "final",
           "material", "after", "mating_moves", "outcome_after", "pc_mate_keys",
           "pc_is_mated_within"]


def search(variant: str, fen: str | None, moves=(), engine: Engine | None = None, **limits):
    """Search ``fen`` + ``moves`` with a fresh full-strength engine (or ``engine``).

    Returns (best, infos, engine)."""
    e = engine or Engine(variant)
    e.set_position(fen, list(moves))
    best, infos = e.search_sync(GoLimits(**limits))
    return best, infos, e


def final(infos):
    """The last exact (not aspiration-bound) info of the principal line."""
    exact = [i for i in infos if not i.bound and i.multipv == 1]
    assert exact, infos
    return exact[-1]


def material(board: Board) -> int:
    """White's material minus Black's, in pawns."""
    total = 0
    for name in board.variant.geometry.names:
        letter = board.piece_at(name)
        if letter:
            total += VALUES[letter.lower()] * (1 if letter.isupper() else -1)
    return total


def after(board: Board, moves) -> Board:
    """A copy of ``board`` with ``moves`` played."""
    b = board.copy()
    for m in moves:
        b.push(m)
    return b


def outcome_after(board: Board, move: str):
    b = after(board, [move])
    return b.outcome()


def mating_moves(board: Board) -> list[str]:
    """The moves after which Board.outcome() says checkmate."""
    out = []
    for m in board.legal_moves():
        o = outcome_after(board, m)
        if o is not None and o.termination == "checkmate":
            out.append(m)
    return out


# -- python-chess mate solver (small positions only) -----------------------------------------
def pc_mate_keys(fen: str, n: int) -> list[str]:
    """First moves that force mate in at most ``n`` moves (python-chess, brute force)."""
    import chess
    b = chess.Board(fen)
    keys = []
    for m in list(b.legal_moves):
        b.push(m)
        if _pc_forced(b, n - 1):
            keys.append(m.uci())
        b.pop()
    return keys


def pc_is_mated_within(fen: str, n: int) -> bool:
    """Whether the side to move in ``fen`` is mated within ``n`` moves of the opponent,
    whatever it plays."""
    import chess
    return _pc_forced(chess.Board(fen), n)


def _pc_forced(b, k) -> bool:
    """The defender is to move: does the attacker mate within ``k`` more moves anyway?"""
    if b.is_checkmate():
        return True
    if k <= 0 or b.is_game_over():
        return False
    for reply in list(b.legal_moves):
        b.push(reply)
        ok = _pc_mates(b, k)
        b.pop()
        if not ok:
            return False
    return True


def _pc_mates(b, k) -> bool:
    """The attacker is to move: is there a mate within ``k`` moves?"""
    for m in list(b.legal_moves):
        b.push(m)
        ok = _pc_forced(b, k - 1)
        b.pop()
        if ok:
            return True
    return False
