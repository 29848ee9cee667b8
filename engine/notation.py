"""Text forms of engine results that several front ends print the same way.

The UCI layer and the command line both show perft like Stockfish does, so that tools
written for Stockfish's output (perft scripts, divide comparers) work on ours, and both
print search progress as UCI ``info`` lines.
"""
from __future__ import annotations

import re


_MOVE = re.compile(r"([a-z]+[0-9]+)([a-z]+[0-9]+)([a-z]?)")


def move_cells(move: str) -> tuple[str, str]:
    """(from cell, to cell) of a UCI move; ranks may have two digits (Grand, hexagonal).
    ValueError when ``move`` is not cell, cell and an optional promotion letter."""
    match = _MOVE.fullmatch(move)
    if match is None:
        raise ValueError(f"not a move: {move!r}")
    return match.group(1), match.group(2)


def perft_lines(divide: list[tuple[str, int]], roots: int | None = None) -> list[str]:
    """Stockfish's ``go perft`` report: ``move: count`` per root move, a blank line,
    ``Nodes searched: N`` and a closing blank line. A count that was stopped (``roots``,
    the number of root moves, above the moves in ``divide``) gives the lines of the moves
    counted in full and an ``info string`` saying so, never a total."""
    lines = [f"{move}: {count}" for move, count in divide]
    if roots is not None and len(divide) < roots:
        return lines + [f"info string perft stopped after {len(divide)} of {roots} root "
                        "moves: no total"]
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


# -- Alea actions as one protocol word (docs/protocol.md, "Alea games") ---------------------
_ALEA_TOKEN = re.compile(r"(?:(joker|castle):)?([a-h][1-8][a-h][1-8])([nbrq]?)")


def alea_token(action) -> str:
    """An engine.alea.Action as one word: ``e2e4``, ``joker:e2e4``, ``castle:e1g1`` or
    ``reroll`` (a promotion without its piece: the promotion die decides it)."""
    if action.kind == "reroll":
        return "reroll"
    return action.move if action.kind == "move" else f"{action.kind}:{action.move}"


def parse_alea_token(token: str):
    """(Action, promotion piece or None) for one word: ``e2e4``, ``e7e8r`` (a promotion
    with the piece the die gave), ``joker:e2e4``, ``castle:e1g1``, ``reroll``.
    ValueError naming the word otherwise; whether it is legal is the rules' question."""
    from engine.alea import Action, CASTLE, MOVE, REROLL

    if token == REROLL:
        return Action(REROLL), None
    match = _ALEA_TOKEN.fullmatch(token)
    if not match or (match.group(1) == CASTLE and match.group(3)):
        raise ValueError(f"not an Alea action: {token[:60]!r} (e2e4, e7e8q, joker:e2e4, "
                         "castle:e1g1 or reroll)")
    kind, move, piece = match.groups()
    return Action(kind or MOVE, move), piece or None
