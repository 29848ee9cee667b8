"""What the opening shows a player of a chess game (standard chess, Alea): the opening's
name and the Quantum Book's moves (docs/rules/alea.md, "the Quantum Book").

The book is shown for the first ``book.MAX_PLIES`` plies, in a position that at least
``book.MIN_GAMES`` of its games reached: each move with its share of those games, its
game count and its score for the side to move (None where the book holds no results, a
Polyglot book). Once a move leaves the book (the position before it was in the book, the
one after it is not) that move is flagged. The opening is named by the longest line the
name table knows (engine/openings.py). A front end gets both from its game session
(``GameSession.view``) as plain data; a referee that hides the board (Fog of War) gives
no line, so nothing here can show a hidden move.
"""
from __future__ import annotations

import chess

from engine import book, openings


def _san(board: chess.Board, uci: str) -> str:
    return board.san(chess.Move.from_uci(uci))


def _in_book(found: list) -> bool:
    return sum(m.games for m in found) >= book.MIN_GAMES


def opening(start_fen: str, moves: list[str]) -> dict | None:
    """``{"eco", "name"}`` of the game ``moves`` (UCI) from ``start_fen``, or None."""
    named = openings.name_of(moves, None if start_fen == chess.STARTING_FEN else start_fen)
    return None if named is None else {"eco": named.eco, "name": named.name}


def book_line(start_fen: str, moves: list[str], source: book.Book | None = None) -> dict | None:
    """The book for the position after ``moves`` (UCI) from ``start_fen`` (see the module
    docstring): ``{"ply", "games", "moves": [{"move", "text", "share", "games",
    "score"}], "left"}``; None when there is nothing to show: past the book's plies, never
    in the book, or a line that is no longer plain chess (an Alea castle follow-up)."""
    source = source or book.quantum_book()
    board = chess.Board(start_fen)
    first = 2 * (board.fullmove_number - 1) + (board.turn == chess.BLACK)
    if first + len(moves) >= book.MAX_PLIES:
        return None
    found, left = source.lookup(board.fen()), None
    for move in moves:
        was_in, side = _in_book(found), int(board.turn == chess.BLACK)
        try:
            text = _san(board, move)
        except ValueError:
            return None
        board.push_uci(move)
        found = source.lookup(board.fen())
        if _in_book(found):
            left = None
        elif was_in:
            left = {"ply": first + len(board.move_stack), "side": side, "text": text}
    shown = found if _in_book(found) else []
    if not shown and left is None:
        return None
    return {"ply": first + len(board.move_stack), "games": sum(m.games for m in shown),
            "moves": [{"move": m.uci, "text": _san(board, m.uci), "share": round(m.share, 4),
                       "games": m.games,
                       "score": None if m.score is None else round(m.score, 4)}
                      for m in shown],
            "left": left}


def sight(line: tuple[str, list[str]] | None) -> dict:
    """``{"opening", "book"}`` for a referee's ``opening_line`` (None: nothing shown)."""
    if line is None:
        return {"opening": None, "book": None}
    start, moves = line
    try:
        return {"opening": opening(start, moves), "book": book_line(start, moves)}
    except ValueError:                  # a start position python-chess cannot read as chess
        return {"opening": None, "book": None}
