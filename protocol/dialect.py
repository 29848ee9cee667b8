"""Quantum's dialect: everything it speaks beyond the 2006 UCI specification.

* ``UCI_Variant`` (as Fairy-Stockfish names it): a combo over the shipped variants that
  also accepts their aliases (``standard``, ``glinski``, ``hex``); setting it resets the
  position to the variant's start.
* ``go perft N`` (Stockfish): the divide report of ``engine.notation.perft_lines``.
* ``d`` (Stockfish): a drawing of the board and facts about the position.

Everything here is pure (engine in, lines out), so ``protocol.uci`` keeps all I/O.
Later extensions (dice input, fog observations) belong here too.
"""
from __future__ import annotations

from engine.engine import DEFAULT_VARIANT, Engine
from engine.notation import perft_lines
from engine.variant import resolve_name, variant_names
from protocol.options import Option

VARIANT_OPTION = "UCI_Variant"


def variant_option() -> Option:
    """The ``UCI_Variant`` combo; its var list comes from the shipped variant files."""
    return Option(name=VARIANT_OPTION, type="combo", default=DEFAULT_VARIANT,
                  vars=tuple(variant_names()), normalize=resolve_name,
                  on_change=lambda engine, name: engine.set_variant(name))


def perft_report(engine: Engine, depth: int) -> list[str]:
    """The lines ``go perft <depth>`` answers with, computed before anything is printed."""
    return perft_lines(engine.perft_divide(depth))


def display_lines(engine: Engine) -> list[str]:
    """What ``d`` prints: the drawing, the FEN, and what a user checks next."""
    board = engine.board
    lines = board.draw().split("\n")
    lines += ["",
              f"Fen: {board.fen()}",
              f"Key: {board.key:016X}",
              f"Variant: {engine.variant}",
              f"Side to move: {'white' if board.turn == 'w' else 'black'}",
              f"Legal moves: {len(board.legal_moves())}"]
    outcome = board.outcome()
    if outcome is not None:
        lines.append(f"Outcome: {outcome.result} ({outcome.termination})")
    return lines
