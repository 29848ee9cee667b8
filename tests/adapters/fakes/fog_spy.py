#!/usr/bin/env python3
"""A spying UCI engine for the Fog of War arbiter tests: writes every line it receives to
a log file, and plays a random move among those its last view allows.

    python3 fog_spy.py LOGFILE [SEED]

The move comes from the last ``view <fen>`` of a ``position fog`` line, through
engine.fog.view_moves alone (the spy reads nothing else of the message: the test reads
the log). Any other ``position`` line is logged too -- the test then fails on it -- and
answered from the true position it gives, so that the game still goes on.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.board import Board  # noqa: E402
from engine.fog import view_moves  # noqa: E402


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    log = open(argv[1], "a")
    rng = random.Random(int(argv[2]) if len(argv) > 2 else None)
    moves: list[str] = []
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        log.write(line + "\n")
        log.flush()
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            say("id name FogSpy")
            say("option name UCI_Variant type combo default chess var chess var fogofwar")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "position" and words[1:2] == ["fog"]:
            moves = view_moves(line.rsplit(" view ", 1)[1].split(" lost ")[0])
        elif words[0] == "position":
            k = words.index("moves") if "moves" in words else len(words)
            board = Board("fogofwar", " ".join(words[2:k])) if words[1] == "fen" \
                else Board("fogofwar")
            for m in words[k + 1:]:
                board.push(m)
            moves = board.legal_moves()
        elif words[0] == "go":
            say(f"bestmove {rng.choice(moves) if moves else '(none)'}")
        elif words[0] == "quit":
            break
    log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
