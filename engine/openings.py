"""Opening names of standard chess games: ECO code and name by the longest matching line.

``books/openings.tsv`` (made by scripts/make-openings; engine/books/README.md) names
5,765 positions, by their EPD (placement, side to move, castling, en passant): lichess's
names (CC0) where the OCN-1 catalogue marks its line as lichess's, else OCN-1's (Club
d'Escacs Figueres, CC BY 4.0). A game is named by the last of its positions that the
table names, so a transposition into a known line is named too, and a game keeps the
name of the deepest known position it went through once it leaves the known lines.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import chess

OPENINGS_PATH = Path(__file__).with_name("books") / "openings.tsv"


@dataclass(frozen=True)
class Opening:
    eco: str
    name: str
    source: str                 # "lichess" or "ocn"
    ply: int                    # the ply (from the start) of the position that names it


@lru_cache(maxsize=1)
def table() -> dict[str, tuple[str, str, str]]:
    """{EPD: (ECO, name, source)}."""
    with open(OPENINGS_PATH, encoding="utf-8", newline="") as fh:
        rows = csv.DictReader((line for line in fh if not line.startswith("#")),
                              delimiter="\t")
        return {row["epd"]: (row["eco"], row["name"], row["source"]) for row in rows}


class Namer:
    """A game's opening named as it goes: ``push`` each move (UCI); ``found`` is the
    Opening of the deepest named position so far. A move that is not legal chess ends
    the naming (the name stands as far as the game is legal)."""

    def __init__(self, fen: str | None = None, chess960: bool = False):
        self.board = chess.Board(fen, chess960=chess960) if fen else chess.Board(chess960=chess960)
        self.plies = 0
        self.legal = True
        self.found: Opening | None = self._named()

    def _named(self) -> Opening | None:
        named = table().get(self.board.epd())
        return None if named is None else Opening(*named, self.plies)

    def push(self, move: str) -> None:
        if not self.legal:
            return
        try:
            self.board.push_uci(move)
        except ValueError:
            self.legal = False
            return
        self.plies += 1
        self.found = self._named() or self.found


def name_of(moves, fen: str | None = None, chess960: bool = False) -> Opening | None:
    """The opening of a game of standard chess: ``moves`` (UCI) from ``fen`` (None: the
    start position); None when no position of it is named (or a move is illegal from
    there on: the name stands as far as the game is legal)."""
    namer = Namer(fen, chess960)
    for move in moves:
        namer.push(move)
    return namer.found
