"""Text forms of engine results that several front ends print the same way.

The UCI layer and the command line both show perft like Stockfish does, so that tools
written for Stockfish's output (perft scripts, divide comparers) work on ours, and both
print search progress as UCI ``info`` lines.

User input in messages goes through ``quote`` (every ``ValueError`` that names a word of
the input, in engine/ and protocol/ alike), and a message is made one printable line of
at most LINE_LIMIT characters by ``one_line``, so that no input can flood a GUI's log.
"""
from __future__ import annotations

import re

# Echoed user input is cut to this many characters.
ECHO_LIMIT = 60
# A message (an error reason, a report) is cut to this many characters: the backstop for
# text a message quotes whole (a FEN field, a file path).
LINE_LIMIT = 256
# No FEN of a shipped variant comes near this (hexagonal's longest is about 160); a longer
# one is refused before it is parsed, so that no FEN field can be huge.
MAX_FEN_CHARS = 512


def quote(text: str) -> str:
    """``text`` quoted for a message: repr escapes control characters, and input longer
    than ECHO_LIMIT is cut there (``...`` after the quote)."""
    if len(text) > ECHO_LIMIT:
        return repr(text[:ECHO_LIMIT]) + "..."
    return repr(text)


def one_line(text: str) -> str:
    """``text`` as one printable line: whitespace runs become one space, other unprintable
    characters are escaped, and it is cut after LINE_LIMIT characters (``...``)."""
    if len(text) > 4 * LINE_LIMIT:          # escaping cannot shrink text: cut early
        text = text[:4 * LINE_LIMIT]
    text = " ".join(text.split())
    text = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)
    return text if len(text) <= LINE_LIMIT else text[:LINE_LIMIT] + "..."


def check_fen_length(fen: str) -> str:
    """``fen``, or ValueError when it is longer than any FEN can be (MAX_FEN_CHARS)."""
    if len(fen) > MAX_FEN_CHARS:
        raise ValueError(f"FEN of {len(fen)} characters is too long (at most {MAX_FEN_CHARS}): "
                         f"{quote(fen)}")
    return fen


_MOVE = re.compile(r"([a-z]+[0-9]+)([a-z]+[0-9]+)([a-z]?)")


def move_cells(move: str) -> tuple[str, str]:
    """(from cell, to cell) of a UCI move; ranks may have two digits (Grand, hexagonal).
    ValueError when ``move`` is not cell, cell and an optional promotion letter."""
    match = _MOVE.fullmatch(move)
    if match is None:
        raise ValueError(f"not a move: {quote(move)}")
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
        raise ValueError(f"not an Alea action: {quote(token)} (e2e4, e7e8q, joker:e2e4, "
                         "castle:e1g1 or reroll)")
    kind, move, piece = match.groups()
    return Action(kind or MOVE, move), piece or None
