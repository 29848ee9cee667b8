"""Material on a board in pawns, as the measuring scripts count it (scripts/conversion,
scripts/make-match-openings): 1/3/3/5/9, Grand's archbishop 8 and chancellor 9
(engine/params/grand.toml's values, rounded to pawns); kings count nothing."""
from __future__ import annotations

VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "a": 8, "c": 9}


def lead_of(board) -> int:
    """White's material minus Black's, in pawns."""
    return sum(VALUES.get(ch.lower(), 0) * (1 if ch.isupper() else -1)
               for ch in board.fen().split()[0])


def pieces_of(board) -> int:
    """The pieces on the board besides kings and pawns, both sides together."""
    return sum(ch.lower() in VALUES and ch.lower() != "p" for ch in board.fen().split()[0])
