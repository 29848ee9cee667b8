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
    """Cells at (4 * x, h): edge neighbours in one file are two text rows apart and the
    neighbouring files sit half a cell lower, which draws the honeycomb. Rank numbers
    stand left of each rank's first cell, file letters under each file's lowest cell."""
    xmin = min(x for x, _ in g.coords)
    hmax = max(h for _, h in g.coords)
    grid = [[" "] * ((max(x for x, _ in g.coords) - xmin) * 4 + 6) for _ in range(hmax + 2)]
    first_in_rank, lowest_in_file = {}, {}
    for c, (x, h) in enumerate(g.coords):
        grid[hmax - h][(x - xmin) * 4 + 4] = letter_at(c) or "."
        r = g.ranks[c]
        if r not in first_in_rank or x < g.coords[first_in_rank[r]][0]:
            first_in_rank[r] = c
        if x not in lowest_in_file or h < g.coords[lowest_in_file[x]][1]:
            lowest_in_file[x] = c
    for r, c in first_in_rank.items():
        x, h = g.coords[c]
        col = (x - xmin) * 4 + 4
        grid[hmax - h][col - 3:col - 1] = list(f"{r:>2}")
    for x, c in lowest_in_file.items():
        h = g.coords[c][1]
        grid[hmax - h + 1][(x - xmin) * 4 + 4] = g.files[x - xmin]
    return "\n".join("".join(row).rstrip() for row in grid)
