"""Text forms of engine results that several front ends print the same way.

The UCI layer and the command line both show perft like Stockfish does, so that tools
written for Stockfish's output (perft scripts, divide comparers) work on ours, and both
print search progress as UCI ``info`` lines.
"""
from __future__ import annotations


def perft_lines(divide: list[tuple[str, int]]) -> list[str]:
    """Stockfish's ``go perft`` report: ``move: count`` per root move, a blank line,
    ``Nodes searched: N`` and a closing blank line."""
    lines = [f"{move}: {count}" for move, count in divide]
    lines += ["", f"Nodes searched: {sum(count for _, count in divide)}", ""]
    return lines


def score_text(info) -> str:
    """``cp N`` or ``mate N`` (negative: being mated) for a SearchInfo."""
    mate = info.mate_in
    return f"mate {mate}" if mate is not None else f"cp {info.score}"


def info_line(info) -> str:
    """A SearchInfo as a UCI ``info`` line (``info string`` when it carries text)."""
    if info.string:
        return f"info string {info.string}"
    if info.depth == 0:
        return f"info depth 0 score {score_text(info)}"
    # `multipv` always, as Stockfish does: the spec wants `multipv 1` on the best line in
    # MultiPV mode, and a line cannot tell whether that mode is on.
    parts = [f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv}",
             f"score {score_text(info)}"]
    if info.bound:
        parts.append(info.bound)
    parts.append(f"nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} "
                 f"time {info.time_ms}")
    if info.pv:
        parts.append("pv " + " ".join(info.pv))
    return " ".join(parts)


def bestmove_line(best) -> str:
    """``bestmove X [ponder Y]``; ``bestmove (none)`` when the game is over."""
    if best.move is None:
        return "bestmove (none)"
    return f"bestmove {best.move}" + (f" ponder {best.ponder}" if best.ponder else "")
