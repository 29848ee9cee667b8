"""Text drawings of a board for `d` and the terminal: a grid for square boards, a
honeycomb for the hexagon (each cell printed at its doubled coordinates).

``flip=True`` draws the board turned half a circle, as Black sits at it: the terminal
shows each human the board from their own side."""
from __future__ import annotations


def draw(geometry, letter_at, flip: bool = False) -> str:
    """``letter_at(cell)`` returns the piece letter or None."""
    if geometry.kind == "hex":
        return _draw_hex(geometry, letter_at, flip)
    return _draw_square(geometry, letter_at, flip)


def _draw_square(g, letter_at, flip: bool = False) -> str:
    width = len(g.fen_rows[0])
    rows = [row[::-1] for row in reversed(g.fen_rows)] if flip else g.fen_rows
    files = g.files[:width][::-1] if flip else g.files
    sep = "   +" + "---+" * width
    lines = [sep]
    for cells in rows:
        rank = g.ranks[cells[0]]
        row = " | ".join(letter_at(c) or " " for c in cells)
        lines += [f"{rank:>2} | {row} |", sep]
    lines.append("     " + "   ".join(files))
    return "\n".join(lines)


def _draw_hex(g, letter_at, flip: bool = False) -> str:
    """Cells at (4 * x, h): edge neighbours in one file are two text rows apart and the
    neighbouring files sit half a cell lower, which draws the honeycomb. Rank numbers
    stand left of each rank's first cell, file letters under each file's lowest cell.
    Flipped, a cell (x, h) is drawn at (-x, mirror_axis - h), the half turn about the
    centre cell, and the file letters stand above each file's first rank (below they
    would run into the rank numbers of ranks 7 to 11)."""
    xmin0 = min(x for x, _ in g.coords)
    coords = [(-x, g.mirror_axis - h) if flip else (x, h) for x, h in g.coords]
    xmin = min(x for x, _ in coords)
    hmax = max(h for _, h in coords)
    # Text row hmax - h + 1 holds height h; one spare row above and below for letters.
    grid = [[" "] * ((max(x for x, _ in coords) - xmin) * 4 + 6) for _ in range(hmax + 3)]
    first_in_rank, file_end = {}, {}
    for c, (x, h) in enumerate(coords):
        grid[hmax - h + 1][(x - xmin) * 4 + 4] = letter_at(c) or "."
        r = g.ranks[c]
        if r not in first_in_rank or x < coords[first_in_rank[r]][0]:
            first_in_rank[r] = c
        if x not in file_end or (h > coords[file_end[x]][1] if flip
                                 else h < coords[file_end[x]][1]):
            file_end[x] = c
    for r, c in first_in_rank.items():
        x, h = coords[c]
        col = (x - xmin) * 4 + 4
        grid[hmax - h + 1][col - 3:col - 1] = list(f"{r:>2}")
    for x, c in file_end.items():
        h = coords[c][1]
        row = hmax - h + (0 if flip else 2)
        grid[row][(x - xmin) * 4 + 4] = g.files[g.coords[c][0] - xmin0]
    lines = ["".join(row).rstrip() for row in grid]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)
