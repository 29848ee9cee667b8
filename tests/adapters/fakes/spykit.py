"""What the spying UCI engines of the arbiter tests (fog_spy.py, alea_spy.py) share: a
loop that writes every line received to a log file (the test reads it) and answers
``uci``, ``isready`` and ``quit`` itself; the spy handles the rest.

Importing this module puts the repository root on ``sys.path``, so that the spies can
import ``engine`` and ``adapters``.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def serve(log_path: str, name: str, variants: tuple[str, ...],
          handle: Callable[[list[str], str], None]) -> int:
    """Read stdin up to ``quit`` or its end, logging each line (without its newline) to
    ``log_path`` as it comes. ``uci`` is answered as the engine ``name`` offering
    ``variants`` (the first is the default), ``isready`` with ``readyok``; every other
    non-empty line goes to ``handle(words, line)``. Returns the exit status (0)."""
    with open(log_path, "a") as log:
        for raw in sys.stdin:
            line = raw.rstrip("\r\n")
            log.write(line + "\n")
            log.flush()
            words = line.split()
            if not words:
                continue
            if words[0] == "uci":
                say(f"id name {name}")
                say(f"option name UCI_Variant type combo default {variants[0]} "
                    + " ".join(f"var {v}" for v in variants))
                say("uciok")
            elif words[0] == "isready":
                say("readyok")
            elif words[0] == "quit":
                break
            else:
                handle(words, line)
    return 0
