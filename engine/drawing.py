"""Text drawings of a board for `d` and the terminal: a grid for square boards, a
honeycomb for the hexagon (each cell printed at its doubled coordinates)."""
from __future__ import annotations


def draw(geometry, letter_at) -> str:
    """``letter_at(cell)`` returns the piece letter or None."""
    if geometry.kind == "hex":
        return _draw_hex(geometry, letter_at)
    return _draw_square(geometry, letter_at)


def _draw_square(g, letter_at) -> str:
    width = len(g.fen_rows[0])
    sep = "   +" + "---+" * width
    lines = [sep]
    for cells in g.fen_rows:
        rank = g.ranks[cells[0]]
        row = " | ".join(letter_at(c) or " " for c in cells)
        lines += [f"{rank:>2} | {row} |", sep]
    lines.append("     " + "   ".join(g.files))
    return "\n".join(lines)


def _draw_hex(g, letter_at) -> str:
    xs = [x for x, _ in g.coords]
    hs = [h for _, h in g.coords]
    xmin, hmax = min(xs), max(hs)
    grid = [[" "] * ((max(xs) - xmin) * 4 + 8) for _ in range(hmax + 1)]
    for c, (x, h) in enumerate(g.coords):
        col = (x - xmin) * 4 + 4
        text = letter_at(c) or "."
        grid[hmax - h][col] = text
        if g.ranks[c] == max(r for cc, r in enumerate(g.ranks) if g.coords[cc][0] == x):
            label = str(g.ranks[c])
            for i, ch in enumerate(label):
                grid[hmax - h - 1][col - 1 + i] = ch
    lines = ["".join(row).rstrip() for row in grid]
    lines.append("".join(f"{f:^4}" for f in g.files).rstrip().rjust(0))
    lines[-1] = "  " + "   ".join(g.files)
    return "\n".join(lines)
