"""Opening lines for matches: a small built-in book per variant (varied, sound starting
lines that a match plays twice each, colours reversed), or a file of them
(``read_openings``). Lines are UCI moves from the start position."""
from __future__ import annotations

from pathlib import Path

from engine.board import Board

BOOK = {
    "chess": [
        "e2e4 e7e5 g1f3 b8c6", "e2e4 c7c5 g1f3 d7d6", "e2e4 c7c5 b1c3 b8c6", "e2e4 e7e6 d2d4 d7d5",
        "e2e4 c7c6 d2d4 d7d5", "d2d4 d7d5 c2c4 e7e6", "d2d4 d7d5 c2c4 c7c6", "d2d4 g8f6 c2c4 g7g6",
        "d2d4 g8f6 c2c4 e7e6", "c2c4 e7e5 b1c3 g8f6", "g1f3 d7d5 g2g3 g8f6", "e2e4 d7d6 d2d4 g8f6",
        "e2e4 e7e5 f1c4 g8f6", "d2d4 f7f5 g2g3 g8f6", "e2e4 g7g6 d2d4 f8g7", "c2c4 c7c5 g1f3 b8c6",
        "e2e4 e7e5 g1f3 g8f6", "d2d4 d7d5 g1f3 g8f6", "e2e4 c7c5 c2c3 g8f6", "b2b3 e7e5 c1b2 b8c6",
    ],
    "fogofwar": [
        "e2e4 e7e5", "d2d4 d7d5", "e2e4 c7c5", "d2d4 g8f6", "c2c4 e7e5", "g1f3 d7d5",
    ],
    "grand": [
        "e3e5 e8e6", "f3f5 f8f6", "d3d5 d8d6", "g3g5 g8g6", "e3e4 f8f6", "c3c4 h8h6",
        "h3h5 c8c6", "e3e5 d8d6", "f3f4 e8e6", "b2c4 i9h7", "i2h4 b9c7", "d3d4 g8g7",
    ],
    "hexagonal": [
        "f5f6 e7e6", "e4e5 g7g6", "g4g5 e7e6", "d3d4 h7h6", "h3h4 d7d5", "c2c4 i7i5",
        "e4e6 g7g5", "f3h2 f9h8", "i2i3 c7c6", "g4g6 e7e6", "d1c3 h9i6", "h1i3 d9c6",
    ],
}


def openings_for(variant: str) -> list[tuple[str, ...]]:
    """The book lines for a variant (the bare start position if it has none)."""
    return [tuple(line.split()) for line in BOOK.get(variant, [""])] or [()]


def read_openings(path: str | Path, variant: str) -> list[tuple[str, ...]]:
    """The lines of an openings file: one line of UCI moves from the variant's start
    position per text line; blank lines and ``#`` comments are skipped. Every move is
    checked before any game, so a bad file fails at once with its line number
    (ValueError), not mid-match."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read openings file {path}: {exc}") from None
    lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        moves = raw.split("#", 1)[0].split()
        if not moves:
            continue
        board = Board(variant)
        for move in moves:
            if board.outcome() is not None or move not in board.legal_moves():
                raise ValueError(f"openings file {path}, line {number}: {move} is not a "
                                 f"legal {variant} move there")
            board.push(move)
        lines.append(tuple(moves))
    if not lines:
        raise ValueError(f"openings file {path} holds no line")
    return lines
