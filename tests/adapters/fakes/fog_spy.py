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

from spykit import say, serve  # first: puts the repository on sys.path

from engine.board import Board
from engine.fog import view_moves


def main(argv: list[str]) -> int:
    rng = random.Random(int(argv[2]) if len(argv) > 2 else None)
    moves: list[str] = []

    def handle(words: list[str], line: str) -> None:
        nonlocal moves
        if words[0] == "position" and words[1:2] == ["fog"]:
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

    return serve(argv[1], "FogSpy", ("chess", "fogofwar"), handle)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
