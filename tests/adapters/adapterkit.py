"""Helpers for the adapter tests: command lines for the fake engines of ``fakes/`` and
the baseline players (``adapters.baselines``), what an engine answers up to ``readyok``,
stopping an engine for sure, running scripts/match, and replaying a game record through
engine.board.Board.
(Imported as ``adapterkit``; the ``spawn`` fixture lives in this folder's conftest.py.)
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from adapters import baselines
from adapters.uci_engine import UciEngine
from engine.board import Board

FAKE = Path(__file__).resolve().parent / "fakes" / "random_mover.py"
REPO_ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = REPO_ROOT / "scripts"
MATCH = SCRIPTS / "match"
STARTUP_TIMEOUT = 30.0          # a fresh Python that imports engine.board, on a busy box


def fake_argv(mode: str = "good", seed: int | None = None) -> list[str]:
    return [sys.executable, str(FAKE), mode] + ([str(seed)] if seed is not None else [])


def fake_command(mode: str = "good", seed: int | None = None) -> str:
    """The fake as one shell-quoted command line (what scripts/match takes)."""
    return shlex.join(fake_argv(mode, seed))


def baseline_argv(name: str) -> list[str]:
    """A baseline player (``adapters.baselines``: ``fog_greedy``, ``alea_random``, ...) as
    argv, launched as a module the way ``baseline:NAME`` launches it in scripts/match."""
    return shlex.split(baselines.command(name))


def run_match_script(*args: str, timeout: float = 300) -> tuple[str, float]:
    """Run scripts/match with ``args`` (under ``nice``: it plays whole games) and check
    that it exits 0 with no illegal move and no crash; return its output and engine 1's
    score."""
    nice = [shutil.which("nice"), "-n", "10"] if shutil.which("nice") else []
    proc = subprocess.run(nice + [sys.executable, str(MATCH), *args], capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=timeout, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    score = re.search(r"^score (\d+(?:\.\d)?)/\d+", proc.stdout, re.M)
    assert score, proc.stdout
    assert "illegal: 0/0" in proc.stdout and "crashes: 0/0" in proc.stdout, proc.stdout
    return proc.stdout, float(score[1])


def answers(eng: UciEngine, *lines: str, timeout: float = 10) -> list[str]:
    """Send ``lines``, then ``isready`` (the barrier); return what the engine said up to
    its ``readyok``."""
    for line in lines:
        eng.send(line)
    eng.send("isready")
    return list(eng.until(lambda s: s == "readyok", timeout))


def close(eng: UciEngine) -> None:
    """Quit an engine, killing it when it does not go within a moment."""
    eng.quit()


def replay(rec, initial_fen: str | None = None) -> Board:
    """Play the record's moves from its initial position, checking each is legal and that
    the game was not already over; return the final board."""
    board = Board(rec.variant, initial_fen) if initial_fen else Board(rec.variant)
    for i, move in enumerate(rec.moves):
        assert board.outcome() is None, f"ply {i + 1} {move} played after the game ended"
        assert move in board.legal_moves(), f"ply {i + 1} {move} illegal in {board.fen()}"
        board.push(move)
    return board
