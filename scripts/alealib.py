"""The UCI loop shared by the Alea baseline players (scripts/alea_random.py,
alea_greedy.py): each is a standalone UCI engine that plays ``alea`` from the messages of
docs/protocol.md, "Alea games", and answers one action in one word (``e2e4``, ``e7e8`` for
a promotion, ``joker:e2e4``, ``castle:e1g1``, ``reroll``), chosen among
``engine.alea.legal_actions`` for the state and dice told: exactly the answers the arbiter
accepts.

Commands: ``uci``, ``isready``, ``ucinewgame``, ``setoption`` (``UCI_Variant`` accepts
``alea`` only; ``Seed`` makes the random choices repeatable), ``position alea
startpos|fen <alea-fen> [moves <token>...] [dice <pair>|-]``, ``go`` (answered at once;
clocks are not read), ``draw offer`` (always ``draw decline``), ``stop`` (no effect: the
answer has already come), ``quit``. A malformed command is answered with ``info string
error ...`` and the last good position is kept.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adapters.alea_referee import AleaPosition, format_token, parse_alea_position  # noqa: E402
from engine import alea  # noqa: E402
from engine.alea import REROLL, Action  # noqa: E402

VARIANT = "alea"
# Piece values for the baselines' choices; a mate counts as taking the king.
VALUES = {"k": 1000, "q": 9, "r": 5, "b": 3, "n": 3, "p": 1}


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class AleaPlayer:
    """One baseline: ``choose`` picks an action; the rest is the UCI loop."""

    name = "Alea player"

    def __init__(self):
        self.rng = random.Random()
        self.position: AleaPosition | None = None

    def choose(self, pos: AleaPosition, actions: list[Action]) -> Action:
        raise NotImplementedError

    def actions(self, pos: AleaPosition) -> list[Action]:
        """The legal actions, without a second reroll in one turn (never a reroll loop)."""
        actions = alea.legal_actions(pos.state)
        if pos.tokens and pos.tokens[-1] == REROLL:
            actions = [a for a in actions if a.kind != REROLL]
        return actions

    # -- the loop ----------------------------------------------------------------------
    def set_position(self, line: str) -> None:
        if line.split()[1:2] != ["alea"]:
            raise ValueError("position wants 'alea startpos|fen ...'")
        self.position = parse_alea_position(line, self.position)

    def setoption(self, words: list[str]) -> None:
        if "name" not in words:
            raise ValueError("setoption wants 'name'")
        k = words.index("value") if "value" in words else len(words)
        name = " ".join(words[words.index("name") + 1:k]).lower()
        value = " ".join(words[k + 1:])
        if name == "uci_variant":
            if value.strip().lower() != VARIANT:
                raise ValueError(f"{self.name} plays only {VARIANT}, not {value!r}")
        elif name == "seed":
            self.rng = random.Random(int(value))
        else:
            raise ValueError(f"unknown option {name!r}")

    def go(self) -> None:
        if self.position is None:
            self.set_position("position alea startpos")
        pos = self.position
        if alea.outcome(pos.state) is not None or alea.needs_roll(pos.state):
            say("bestmove (none)")
            return
        actions = self.actions(pos)
        say(f"bestmove {format_token(self.choose(pos, actions)) if actions else '(none)'}")

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
                    say("uciok")
                elif cmd == "isready":
                    say("readyok")
                elif cmd == "ucinewgame":
                    self.position = None
                elif cmd == "setoption":
                    self.setoption(words)
                elif cmd == "position":
                    self.set_position(raw.strip())
                elif cmd == "go":
                    self.go()
                elif cmd == "draw" and words[1:] == ["offer"]:
                    say("draw decline")
                elif cmd == "quit":
                    return 0
                elif cmd != "stop":
                    say(f"info string error unknown command {cmd!r}")
            except ValueError as exc:
                say(f"info string error {cmd}: {exc}")
        return 0


def capture_value(state: alea.AleaState, action: Action) -> int:
    """What the action's move takes (0: nothing; en passant takes a pawn; a mate 1000)."""
    if action.kind == REROLL:
        return 0
    board = state.board
    move = action.move
    target = board.piece_at(move[2:4])
    mover = board.piece_at(move[:2])
    value = 0
    if target is not None and target.isupper() != mover.isupper():
        value = VALUES[target.lower()]
    elif mover.lower() == "p" and move[0] != move[2]:
        value = VALUES["p"]                         # en passant
    after = board.copy()
    after.push(move + ("q" if alea.is_promotion(state, move) else ""))
    if after.is_check() and not after.legal_moves():
        value = VALUES["k"]
    return value
