"""The UCI loop shared by the Fog of War baseline players (scripts/fog_random.py,
fog_greedy.py, fog_naive.py): each is a standalone UCI engine that plays ``fogofwar`` from
what docs/protocol.md's ``position fog`` message tells it, and chooses among the moves
its last view allows (``engine.fog.view_moves``, which are exactly the moves the arbiter
accepts).

Commands: ``uci``, ``isready``, ``ucinewgame``, ``setoption`` (``UCI_Variant`` accepts
``fogofwar`` and its alias ``darkchess`` only; ``Seed`` makes the random choices
repeatable), ``position fog ...``, ``position startpos|fen ... [moves ...]`` (a true
position, for analysis: the player then moves from the view of the side to move), ``go``
(answered at once with ``bestmove``; only the side's own clock is read), ``stop`` (no
effect: the answer has already come), ``quit``. A malformed command is answered with
``info string error ...`` and the last good position is kept.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adapters.fog_referee import FogTurn, parse_fog_position  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.fog import View, parse_view_fen, view_fen, view_moves  # noqa: E402
from engine.variant import resolve_name  # noqa: E402

VARIANT = "fogofwar"
# Piece values for the baselines' choices; a king is worth more than everything else.
VALUES = {"k": 1000, "q": 9, "r": 5, "b": 3, "n": 3, "p": 1}


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def own_clock(words: list[str], side: str) -> tuple[int | None, int, int | None]:
    """(own time left ms or None, own increment ms, movetime ms or None) from ``go``."""
    def number(key):
        if key in words[:-1]:
            try:
                return int(words[words.index(key) + 1])
            except ValueError:
                return None
        return None
    c = "w" if side == "w" else "b"
    return number(f"{c}time"), number(f"{c}inc") or 0, number("movetime")


class FogPlayer:
    """One baseline: ``choose`` picks a move; the rest is the UCI loop."""

    name = "fog player"
    options: list[str] = []         # extra ``option name ...`` lines

    def __init__(self):
        self.rng = random.Random()
        self.turns: list[FogTurn] = []
        self.view: View | None = None

    # -- to be given by each player ----------------------------------------------------
    def choose(self, view: View, moves: list[str], go: list[str]) -> str:
        raise NotImplementedError

    def set_option(self, name: str, value: str) -> bool:
        """A player's own options; False when the name is not one of them."""
        return False

    def new_game(self) -> None:
        """Forget the game (``ucinewgame``)."""

    # -- the loop ----------------------------------------------------------------------
    def position(self, line: str) -> None:
        words = line.split()
        if words[1:2] == ["fog"]:
            turns = parse_fog_position(line)
            views = [parse_view_fen(t.view, VARIANT) for t in turns]
            self.turns, self.view = turns, views[-1]
            return
        k = words.index("moves") if "moves" in words else len(words)
        if words[1:2] == ["startpos"]:
            board = Board(VARIANT)
        elif words[1:2] == ["fen"]:
            board = Board(VARIANT, " ".join(words[2:k]))
        else:
            raise ValueError("position wants fog, startpos or fen")
        for move in words[k + 1:]:
            board.push(move)
        fen = view_fen(board, board.turn)
        self.turns, self.view = [FogTurn(fen)], parse_view_fen(fen, VARIANT)

    def setoption(self, words: list[str]) -> None:
        if "name" not in words:
            raise ValueError("setoption wants 'name'")
        k = words.index("value") if "value" in words else len(words)
        name = " ".join(words[words.index("name") + 1:k])
        value = " ".join(words[k + 1:])
        if name.lower() == "uci_variant":
            if resolve_name(value) != VARIANT:
                raise ValueError(f"{self.name} plays only {VARIANT}, not {value!r}")
        elif name.lower() == "seed":
            self.rng = random.Random(int(value))
        elif not self.set_option(name.lower(), value):
            raise ValueError(f"unknown option {name!r}")

    def go(self, words: list[str]) -> None:
        if self.view is None:
            self.position("position startpos")
        moves = view_moves(self.view)
        say(f"bestmove {self.choose(self.view, moves, words) if moves else '(none)'}")

    def run(self) -> int:
        for raw in sys.stdin:
            words = raw.split()
            if not words:
                continue
            cmd = words[0]
            try:
                if cmd == "uci":
                    say(f"id name {self.name}")
                    say("id author Quantum team")
                    say(f"option name UCI_Variant type combo default {VARIANT} var {VARIANT}")
                    say("option name Seed type spin default 0 min 0 max 2147483647")
                    for option in self.options:
                        say(option)
                    say("uciok")
                elif cmd == "isready":
                    say("readyok")
                elif cmd == "ucinewgame":
                    self.turns, self.view = [], None
                    self.new_game()
                elif cmd == "setoption":
                    self.setoption(words)
                elif cmd == "position":
                    self.position(raw.strip())
                elif cmd == "go":
                    self.go(words[1:])
                elif cmd == "quit":
                    return 0
                elif cmd != "stop":
                    say(f"info string error unknown command {cmd!r}")
            except ValueError as exc:
                say(f"info string error {cmd}: {exc}")
        return 0


def captures(view: View, moves: list[str]) -> dict[str, int]:
    """``{move: value of the enemy piece it takes}`` for the captures among ``moves``
    (a capture en passant takes a pawn)."""
    ep = view.fen.split()[3]
    out = {}
    for move in moves:
        origin, target = cells_of(move)
        letter = view.pieces.get(target)
        if letter is not None and letter.isupper() != (view.side == "w"):
            out[move] = VALUES.get(letter.lower(), 3)
        elif target == ep and view.pieces.get(origin, "").lower() == "p":
            out[move] = VALUES["p"]
    return out


def cells_of(move: str) -> tuple[str, str]:
    """(from cell, to cell) of a UCI move (cells may have two-digit ranks)."""
    i = 1
    while move[i].isdigit():
        i += 1
    j = i + 1
    while j < len(move) and move[j].isdigit():
        j += 1
    return move[:i], move[i:j]
