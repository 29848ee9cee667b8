"""Helpers for the adapter tests: command lines for the fake engines of ``fakes/``,
stopping an engine for sure, and replaying a game record through engine.board.Board.
(Imported as ``adapterkit``; the ``spawn`` fixture lives in this folder's conftest.py.)
"""
from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from adapters.uci_engine import UciEngine
from engine.board import Board

FAKE = Path(__file__).resolve().parent / "fakes" / "random_mover.py"
REPO_ROOT = Path(__file__).resolve().parents[2]
MATCH = REPO_ROOT / "scripts" / "match"
STARTUP_TIMEOUT = 30.0          # a fresh Python that imports engine.board, on a busy box


def fake_argv(mode: str = "good", seed: int | None = None) -> list[str]:
    return [sys.executable, str(FAKE), mode] + ([str(seed)] if seed is not None else [])


def fake_command(mode: str = "good", seed: int | None = None) -> str:
    """The fake as one shell-quoted command line (what scripts/match takes)."""
    return shlex.join(fake_argv(mode, seed))


def close(eng: UciEngine) -> None:
    """Quit an engine, killing it when it does not go within a moment."""
    try:
        eng.send("quit")
    except Exception:
        pass
    try:
        eng.proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        eng.proc.kill()
        eng.proc.wait()


def replay(rec, initial_fen: str | None = None) -> Board:
    """Play the record's moves from its initial position, checking each is legal and that
    the game was not already over; return the final board."""
    board = Board(rec.variant, initial_fen) if initial_fen else Board(rec.variant)
    for i, move in enumerate(rec.moves):
        assert board.outcome() is None, f"ply {i + 1} {move} played after the game ended"
        assert move in board.legal_moves(), f"ply {i + 1} {move} illegal in {board.fen()}"
        board.push(move)
    return board
