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


class OpeningSight:
    """``{"opening", "book"}`` of one game, asked after every move and by every page that
    shows it: the opening's name is followed move by move (as engine.openings.name_of
    names a whole game, but without replaying it each time), and the book of the
    position asked about last is kept."""

    def __init__(self):
        self._start: str | None = None
        self._moves: list[str] = []
        self._namer: openings.Namer | None = None
        self._book_key, self._book = None, None

    def of(self, line: tuple[str, list[str]] | None) -> dict:
        """For a referee's ``opening_line`` (None: nothing is shown)."""
        if line is None:
            return {"opening": None, "book": None}
        start, moves = line
        try:
            named = self._opening(start, moves)
            key = (start, tuple(moves))
            if key != self._book_key:
                self._book_key, self._book = key, book_line(start, moves)
        except ValueError:              # a start position python-chess cannot read as chess
            return {"opening": None, "book": None}
        return {"opening": None if named is None else {"eco": named.eco, "name": named.name},
                "book": self._book}

    def _opening(self, start: str, moves: list[str]) -> openings.Opening | None:
        if start != self._start or moves[:len(self._moves)] != self._moves:
            self._namer = openings.Namer(start)     # a new game, or moves taken back
            self._start, self._moves = start, []
        for move in moves[len(self._moves):]:
            self._moves.append(move)
            self._namer.push(move)
        return self._namer.found
