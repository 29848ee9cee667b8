"""Helpers shared by the test modules: where the reference data lives, TSV reading and
FEN construction from a ``{cell: letter}`` placement for every geometry.

The FEN builders use only the geometry's ``fen_rows`` (the cells of each FEN row, top row
first), so a position written as a dict means the same thing on 8x8, 10x10 and the hexagon
(docs/rules/hexagonal.md: ranks 11 down to 1, cells of a rank from file a to file l).
"""
from __future__ import annotations

import csv
import os
from pathlib import Path

from engine.geometry import hexagon, square
from engine.variant import load_variant

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent

# Variant of each perft table in the reference data.
PERFT_FILES = {
    "chess": "perft_standard.tsv",
    "grand": "perft_grand.tsv",
    "hexagonal": "perft_hexagonal.tsv",
    "fogofwar": "perft_fogofwar.tsv",
}


def refdata_dir() -> Path:
    """``$QUANTUM_REFDATA`` if set, else ``tests/data`` (a copy of shared/refdata)."""
    env = os.environ.get("QUANTUM_REFDATA")
    return Path(env) if env else REPO_ROOT / "tests" / "data"


def refdata(name: str) -> Path:
    return refdata_dir() / name


def read_tsv(path: Path) -> list[dict]:
    """Rows of a tab-separated file with a header line; ``#`` lines are comments.

    A missing file is an error: a reference test must never pass by reading nothing."""
    if not path.exists():
        raise FileNotFoundError(path)
    with open(path, newline="") as fh:
        lines = [ln for ln in fh if ln.strip() and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def geometry_of(variant: str):
    v = load_variant(variant)
    return v.geometry


def placement_fen(geometry, placement: dict) -> str:
    """The placement field for ``{cell name: FEN letter}`` on ``geometry``."""
    index = {geometry.cell(name): letter for name, letter in placement.items()}
    if len(index) != len(placement):
        raise ValueError("duplicate cell in placement")
    rows = []
    for cells in geometry.fen_rows:
        out, empty = [], 0
        for c in cells:
            if c in index:
                if empty:
                    out.append(str(empty))
                    empty = 0
                out.append(index[c])
            else:
                empty += 1
        if empty:
            out.append(str(empty))
        rows.append("".join(out))
    return "/".join(rows)


def square_fen(placement: dict, side: str = "w", castling: str = "-", ep: str = "-",
               halfmove: int = 0, fullmove: int = 1, size: int = 8) -> str:
    """A FEN for a size x size board (8: chess, 10: grand; both have a castling field)."""
    return (f"{placement_fen(square(size, size), placement)} {side} {castling} {ep} "
            f"{halfmove} {fullmove}")


def chess_fen(placement: dict, side="w", castling="-", ep="-", halfmove=0, fullmove=1) -> str:
    return square_fen(placement, side, castling, ep, halfmove, fullmove, 8)


def grand_fen(placement: dict, side="w", ep="-", halfmove=0, fullmove=1) -> str:
    # Grand FEN keeps the castling field (always "-"), as Fairy-Stockfish writes it.
    return square_fen(placement, side, "-", ep, halfmove, fullmove, 10)


def hex_fen(placement: dict, side: str = "w", ep: str = "-", halfmove: int = 0,
            fullmove: int = 1) -> str:
    """A hex FEN (no castling field) for ``{cell: letter}`` on Glinski's board."""
    return f"{placement_fen(hexagon(), placement)} {side} {ep} {halfmove} {fullmove}"


def mirror_placement(geometry, placement: dict) -> dict:
    """Colours swapped and the board seen from the other side (ranks reversed, files kept)."""
    out = {}
    for name, letter in placement.items():
        c = geometry.mirror(geometry.cell(name))
        out[geometry.names[c]] = letter.swapcase()
    return out


def placement_of(board) -> dict:
    """``{cell name: letter}`` of a Board's pieces."""
    names = board.variant.geometry.names
    return {n: board.piece_at(n) for n in names if board.piece_at(n)}


def mirror_fen(board) -> str:
    """FEN of ``board`` with colours swapped and ranks reversed: side to move, castling
    rights and en passant cell mirrored too, clocks kept."""
    v = board.variant
    g = v.geometry
    fields = board.fen().split()
    place = placement_fen(g, mirror_placement(g, placement_of(board)))
    side = "b" if fields[1] == "w" else "w"
    if v.spec.fen_castling_field:
        castling = fields[2]
        castling = "".join(sorted(castling.swapcase(), key="KQkq".find)) if castling != "-" else "-"
        ep = fields[3]
        rest = fields[4:]
        head = [place, side, castling]
    else:
        ep = fields[2]
        rest = fields[3:]
        head = [place, side]
    if ep != "-":
        ep = g.names[g.mirror(g.cell(ep))]
    return " ".join(head + [ep] + rest)


def mirror_move(geometry, uci: str) -> str:
    """The UCI move seen from the other side."""
    # split into cell names (a file letter and its digits, twice), then a promotion suffix
    cells, i = [], 0
    while len(cells) < 2:
        j = i + 1
        while j < len(uci) and uci[j].isdigit():
            j += 1
        cells.append(uci[i:j])
        i = j
    suffix = uci[i:]
    out = [geometry.names[geometry.mirror(geometry.cell(c))] for c in cells]
    return "".join(out) + suffix


def alea_random_step(state, rng):
    """One random Alea action (the dice rolled first where needed; jokers, castles,
    rerolls and promotions with a random piece all possible): the state after it and its
    one-word token, or None when the game is over."""
    from engine import alea
    from engine.notation import alea_token
    if alea.outcome(state) is not None:
        return None
    if alea.needs_roll(state):
        state = state.with_dice(alea.roll(state, rng))
    action = rng.choice(alea.legal_actions(state))
    promo = rng.choice("nbrq") if action.kind != alea.REROLL and \
        alea.is_promotion(state, action.move) else None
    return alea.apply(state, action, promo), alea_token(action) + (promo or "")


def random_board(variant: str, rng, plies: int):
    """The position after up to ``plies`` random legal moves from the variant's start
    (fewer when the game ends first): varied positions for fits and checks."""
    from engine.board import Board
    board = Board(variant)
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
    return board
