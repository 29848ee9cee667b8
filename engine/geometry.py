"""Board geometries: which cells exist, their names, coordinates, colours and move vectors.

A geometry knows nothing of pieces. It offers vector classes that piece descriptions
refer to: ``W`` (orthogonal / edge steps), ``F`` (diagonal / vertex steps) and ``N``
(knight leaps). Coordinates are integer pairs; a vector is added to a cell's coordinates
and the result is looked up, so no move code ever does ``file * width + rank`` arithmetic.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SQUARE_VECTORS = {
    "W": ((0, 1), (1, 0), (0, -1), (-1, 0)),
    "F": ((1, 1), (1, -1), (-1, -1), (-1, 1)),
    "N": ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)),
}

# Gliński hexagon in doubled coordinates: x = file index - 5, h = |x| + 2 * (rank - 1)
# (docs/rules/hexagonal.md). Edge steps are orthogonal (rook), vertex steps diagonal (bishop).
HEX_VECTORS = {
    "W": ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)),
    "F": ((1, 3), (2, 0), (1, -3), (-1, -3), (-2, 0), (-1, 3)),
    "N": ((1, 5), (2, 4), (3, 1), (3, -1), (2, -4), (1, -5),
          (-1, -5), (-2, -4), (-3, -1), (-3, 1), (-2, 4), (-1, 5)),
}
HEX_FILES = "abcdefghikl"
HEX_RADIUS = 5


@dataclass(frozen=True)
class Geometry:
    """Cells of one board. Cell numbers run 0..ncells-1 over real cells only."""

    kind: str
    coords: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    colours: tuple[int, ...]
    vector_classes: dict[str, tuple[tuple[int, int], ...]]
    forward: tuple[int, int]            # White's pawn step; Black's is mirrored
    pawn_captures: tuple[tuple[int, int], ...]  # White's pawn capture vectors
    fen_rows: tuple[tuple[int, ...], ...]       # cells of each FEN row, top row first
    mirror_axis: int                    # y' = mirror_axis - y turns White's side into Black's
    ranks: tuple[int, ...]              # rank number (1-based) of each cell
    files: str
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        self._index.update({c: i for i, c in enumerate(self.coords)})
        self._index.update({n: i for i, n in enumerate(self.names)})

    @property
    def ncells(self) -> int:
        return len(self.coords)

    def cell_at(self, x: int, y: int) -> int:
        """The cell at coordinates (x, y), or -1 off the board."""
        return self._index.get((x, y), -1)

    def cell(self, name: str) -> int:
        """The cell named ``name`` (e.g. ``e4``, ``j10``, ``f11``); KeyError if none."""
        idx = self._index.get(name)
        if idx is None or not isinstance(name, str):
            raise KeyError(name)
        return idx

    def step(self, cell: int, vec: tuple[int, int]) -> int:
        x, y = self.coords[cell]
        return self.cell_at(x + vec[0], y + vec[1])

    def mirror(self, cell: int) -> int:
        """The cell seen from the other side (ranks reversed, files kept)."""
        x, y = self.coords[cell]
        return self.cell_at(x, self.mirror_axis - y)

    def region(self, items) -> set[int]:
        """Cells named by ``items``: cell names and ``"rank N"`` entries."""
        out = set()
        for item in items:
            if item.startswith("rank "):
                r = int(item.split()[1])
                if r < 1 or r > max(self.ranks):
                    raise ValueError(f"no rank {r} on this board")
                out.update(i for i, rr in enumerate(self.ranks) if rr == r)
            else:
                try:
                    out.add(self.cell(item))
                except KeyError:
                    raise ValueError(f"no cell named {item!r} on this board") from None
        return out


def square(width: int, height: int) -> Geometry:
    """A width x height board; cells numbered a1, b1, ... rank by rank."""
    if not (1 <= width <= 26 and 1 <= height <= 99 and width * height <= 128):
        raise ValueError("unsupported board size")
    files = "abcdefghijklmnopqrstuvwxyz"[:width]
    coords, names, colours, ranks = [], [], [], []
    for y in range(height):
        for x in range(width):
            coords.append((x, y))
            names.append(f"{files[x]}{y + 1}")
            colours.append((x + y) % 2)
            ranks.append(y + 1)
    rows = tuple(tuple(y * width + x for x in range(width)) for y in reversed(range(height)))
    return Geometry("square", tuple(coords), tuple(names), tuple(colours), SQUARE_VECTORS,
                    (0, 1), ((-1, 1), (1, 1)), rows, height - 1, tuple(ranks), files)


def hexagon() -> Geometry:
    """Gliński's 91-cell hexagon; cells numbered file by file (a1..a6, b1..b7, ...)."""
    coords, names, colours, ranks = [], [], [], []
    for fi, f in enumerate(HEX_FILES):
        x = fi - HEX_RADIUS
        for r in range(1, 2 * HEX_RADIUS + 2 - abs(x)):
            h = abs(x) + 2 * (r - 1)
            coords.append((x, h))
            names.append(f"{f}{r}")
            colours.append(h % 3)
            ranks.append(r)
    index = {n: i for i, n in enumerate(names)}
    rows = []
    for r in range(2 * HEX_RADIUS + 1, 0, -1):
        rows.append(tuple(index[f"{f}{r}"] for f in HEX_FILES if f"{f}{r}" in index))
    return Geometry("hex", tuple(coords), tuple(names), tuple(colours), HEX_VECTORS,
                    (0, 2), ((-1, 1), (1, 1)), tuple(rows), 4 * HEX_RADIUS, tuple(ranks),
                    HEX_FILES)


def build(kind: str, width: int = 8, height: int = 8) -> Geometry:
    if kind == "square":
        return square(width, height)
    if kind == "hexagon":
        return hexagon()
    raise ValueError(f"unknown geometry {kind!r} (square, hexagon)")
