"""Text forms of engine results that several front ends print the same way.

The UCI layer and the command line both show perft like Stockfish does, so that tools
written for Stockfish's output (perft scripts, divide comparers) work on ours. Score
formatting (``cp``/``mate``) will join this module with the search.
"""
from __future__ import annotations


def perft_lines(divide: list[tuple[str, int]]) -> list[str]:
    """Stockfish's ``go perft`` report: ``move: count`` per root move, a blank line,
    ``Nodes searched: N`` and a closing blank line."""
    lines = [f"{move}: {count}" for move, count in divide]
    lines += ["", f"Nodes searched: {sum(count for _, count in divide)}", ""]
    return lines
