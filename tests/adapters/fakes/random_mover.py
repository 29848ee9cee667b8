#!/usr/bin/env python3
"""A tiny UCI engine for the adapter tests: plays a uniformly random legal move, chosen
with engine.board.Board, for any variant Quantum knows.

    python3 random_mover.py [MODE] [SEED]

MODE is ``good`` (default) or one way of misbehaving:

    crash     exits (status 3) when it receives its 3rd ``go``, after writing its last
              words to stderr (``last_words``: a flood bigger than any pipe buffer, then
              an overlong line and a few short ones)
    hang      never answers its 2nd ``go`` (stops reading its input altogether)
    illegal   answers its 2nd ``go`` with a well-formed move that is not legal there
    garbage   answers its 2nd ``go`` with ``bestmove zz99``
    none      answers its 2nd ``go`` with ``bestmove (none)`` although moves exist
    slow      on its 1st ``go`` sleeps 0.4 s past its own clock, then answers a legal move
    veryslow  on its 1st ``go`` sleeps 1.6 s past its own clock, then answers a legal move
    mute      never answers ``uci`` (stays silent, exits after 60 s at the latest)
    exit      exits (status 4) at once, saying why on stderr, before reading anything

With ``FAKE_PIDFILE`` set in the environment the process first appends its pid there, one
line per start (so a test can count how often an engine was started).
Counts are per process: a restarted engine starts counting again.
"""
from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.board import Board  # noqa: E402
from engine.notation import move_cells  # noqa: E402

MODES = ("good", "crash", "hang", "illegal", "garbage", "none", "slow", "veryslow", "mute",
         "exit")
FLOOD_LINES = 5000          # of 99 characters: about 500 KB, far past a pipe's 64 KB
LONG_LINE = 10_000          # characters
LAST_LINES = 12             # short numbered lines after the long one


def last_words() -> list[str]:
    """What ``crash`` writes to stderr before it exits, line by line."""
    return ([f"flood {i:05d} " + "." * 87 for i in range(FLOOD_LINES)] + ["L" * LONG_LINE]
            + [f"last words {i} of {LAST_LINES}" for i in range(1, LAST_LINES + 1)])


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Fake:
    def __init__(self, mode: str, seed: int | None):
        self.mode = mode
        self.rng = random.Random(seed)
        self.variant = "chess"
        self.board = Board("chess")
        self.base = None            # (variant, fen) the current board was set up from
        self.played: list[str] = []
        self.gos = 0

    # -- commands --------------------------------------------------------------------
    def position(self, args: list[str]) -> None:
        if "moves" in args:
            k = args.index("moves")
            head, moves = args[:k], args[k + 1:]
        else:
            head, moves = args, []
        fen = None if head[:1] == ["startpos"] else " ".join(head[1:])
        base = (self.variant, fen)
        # Incremental: when only new moves were appended, push just those.
        if base == self.base and moves[:len(self.played)] == self.played:
            new = moves[len(self.played):]
        else:
            self.board = Board(self.variant, fen) if fen else Board(self.variant)
            self.base, self.played, new = base, [], moves
        for m in new:
            self.board.push(m)
            self.played.append(m)

    def clock(self, args: list[str]) -> float:
        key = "wtime" if self.board.turn == "w" else "btime"
        if key in args:
            return int(args[args.index(key) + 1]) / 1000.0
        return 1.0

    def go(self, args: list[str]) -> None:
        self.gos += 1
        legal = self.board.legal_moves()
        mode, n = self.mode, self.gos
        if mode == "crash" and n == 3:
            sys.stderr.write("".join(line + "\n" for line in last_words()))
            sys.stderr.flush()
            os._exit(3)
        if mode == "hang" and n == 2:
            time.sleep(3600)
        if mode in ("slow", "veryslow") and n == 1:
            time.sleep(self.clock(args) + (0.4 if mode == "slow" else 1.6))
        if mode == "illegal" and n == 2:
            say(f"bestmove {self.illegal_move(legal)}")
            return
        if mode == "garbage" and n == 2:
            say("bestmove zz99")
            return
        if mode == "none" and n == 2:
            say("bestmove (none)")
            return
        if not legal:
            say("bestmove (none)")
            return
        move = self.rng.choice(legal)
        say("info depth 1 score cp 0 nodes 1 pv " + move)
        say(f"bestmove {move}")

    def illegal_move(self, legal: list[str]) -> str:
        """A well-formed move on real cells that is not legal: a legal move played
        backwards (its target cell is empty or holds an enemy piece's square)."""
        for m in legal:
            frm, to = move_cells(m)
            back = to + frm
            if back not in legal:
                return back
        raise AssertionError("no illegal move found")

    # -- loop ------------------------------------------------------------------------
    def run(self) -> int:
        if self.mode == "mute":
            time.sleep(60)
            return 0
        if self.mode == "exit":
            print("random_mover: exit mode, leaving before uci", file=sys.stderr)
            return 4
        for raw in sys.stdin:
            parts = raw.split()
            if not parts:
                continue
            cmd, args = parts[0], parts[1:]
            if cmd == "uci":
                say(f"id name RandomMover-{self.mode}")
                say("id author Quantum tests")
                say("option name UCI_Variant type combo default chess "
                    "var chess var grand var hexagonal")
                say("uciok")
            elif cmd == "isready":
                say("readyok")
            elif cmd == "ucinewgame":
                self.base, self.played = None, []
            elif cmd == "setoption":
                if len(args) >= 4 and args[0] == "name" and args[1] == "UCI_Variant" \
                        and args[2] == "value":
                    self.variant = args[3]
                    self.board, self.base, self.played = Board(self.variant), None, []
            elif cmd == "position":
                self.position(args)
            elif cmd == "go":
                self.go(args)
            elif cmd == "quit":
                return 0
        return 0


def main(argv: list[str]) -> int:
    mode = argv[1] if len(argv) > 1 else "good"
    if mode not in MODES:
        print(f"unknown mode {mode!r}; one of {', '.join(MODES)}", file=sys.stderr)
        return 2
    seed = int(argv[2]) if len(argv) > 2 else None
    pidfile = os.environ.get("FAKE_PIDFILE")
    if pidfile:
        with open(pidfile, "a") as fh:
            fh.write(f"{os.getpid()}\n")
    return Fake(mode, seed).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
