"""The UCI loop shared by the baseline players of the hosted variants: Fog of War
(``fogplayer``: fog_random, fog_greedy, fog_naive) and Alea (``aleaplayer``: alea_random,
alea_greedy, alea_diceblind). Each is a
standalone UCI engine that plays one variant and answers ``go`` by itself, without waiting
for ``stop`` (the searching players, fog_naive and alea_diceblind, within a budget
from their own clock).

Commands: ``uci``, ``isready``, ``ucinewgame``, ``setoption`` (``UCI_Variant`` accepts the
player's variant only; ``Seed`` makes the random choices repeatable; a player may add its
own options), ``position ...`` (parsed by the variant's player class), ``go`` (answered
with ``bestmove``), ``stop`` (no effect: the answer has already come), ``quit``,
and what a variant adds (Alea: ``draw offer``). A malformed command is answered with
``info string error <command>: ...`` and the last good position is kept.

``own_clock`` and ``budget_ms`` give the searching baselines (fog_naive,
alea_diceblind) a budget from their own clock.
"""
from __future__ import annotations

import random
import sys

# Piece values for the baselines' choices: a king (Fog of War: taking it; Alea: a mate)
# is worth more than everything else.
VALUES = {"k": 1000, "q": 9, "r": 5, "b": 3, "n": 3, "p": 1}
# The searching baselines (fog_naive, alea_diceblind): a node cap per millisecond of
# the budget, well under Quantum's speed, so the node cap ends most searches.
NODES_PER_MS = 100
MIN_BUDGET_MS = 5


def own_clock(words: list[str], side: str) -> tuple[int | None, int, int | None]:
    """(own time left ms or None, own increment ms, movetime ms or None) from ``go``'s
    arguments, for ``side`` (``w`` or ``b``)."""
    def number(key):
        if key in words[:-1]:
            try:
                return int(words[words.index(key) + 1])
            except ValueError:
                return None
        return None
    c = "w" if side == "w" else "b"
    return number(f"{c}time"), number(f"{c}inc") or 0, number("movetime")


def budget_ms(time_left: int | None, inc: int, movetime: int | None) -> int | None:
    """Milliseconds to think, or None for no clock at all: ``movetime`` when given, else
    about 1/30 of the time left plus 3/4 of the increment, never more than 1/5 of the
    time left."""
    if movetime is not None:
        return max(movetime, MIN_BUDGET_MS)
    if time_left is None:
        return None
    return max(min(time_left // 30 + inc * 3 // 4, time_left // 5), MIN_BUDGET_MS)


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class BaselinePlayer:
    """The UCI loop of one baseline. A variant's player class (FogPlayer, AleaPlayer)
    gives ``variant``, ``set_position`` and ``best_move``; each player its ``name``,
    ``choose`` and maybe its own options."""

    name = "baseline player"
    variant = ""                    # the one variant played (UCI_Variant)
    options: list[str] = []         # extra ``option name ...`` lines

    def __init__(self):
        self.rng = random.Random()

    # -- given by each variant's player class ------------------------------------------
    def set_position(self, line: str) -> None:
        """Read a ``position`` line; ValueError if malformed (the last good position
        is kept)."""
        raise NotImplementedError

    def best_move(self, go: list[str]) -> str:
        """The ``bestmove`` token for the position, ``go``'s arguments given."""
        raise NotImplementedError

    def new_game(self) -> None:
        """Forget the game (``ucinewgame``)."""

    def is_own_variant(self, value: str) -> bool:
        """Whether ``setoption name UCI_Variant value <value>`` names ``variant``."""
        return value.strip().lower() == self.variant

    def set_option(self, name: str, value: str) -> bool:
        """A player's own options (``name`` in lower case); False when the name is not
        one of them."""
        return False

    def command(self, words: list[str]) -> bool:
        """A command the variant adds; False when ``words`` is none of them."""
        return False

    # -- the loop ----------------------------------------------------------------------
    def setoption(self, words: list[str]) -> None:
        if "name" not in words:
            raise ValueError("setoption wants 'name'")
        k = words.index("value") if "value" in words else len(words)
        name = " ".join(words[words.index("name") + 1:k])
        value = " ".join(words[k + 1:])
        if name.lower() == "uci_variant":
            if not self.is_own_variant(value):
                raise ValueError(f"{self.name} plays only {self.variant}, not {value!r}")
        elif name.lower() == "seed":
            self.rng = random.Random(int(value))
        elif not self.set_option(name.lower(), value):
            raise ValueError(f"unknown option {name!r}")

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
                    say(f"option name UCI_Variant type combo default {self.variant} "
                        f"var {self.variant}")
                    say("option name Seed type spin default 0 min 0 max 2147483647")
                    for option in self.options:
                        say(option)
                    say("uciok")
                elif cmd == "isready":
                    say("readyok")
                elif cmd == "ucinewgame":
                    self.new_game()
                elif cmd == "setoption":
                    self.setoption(words)
                elif cmd == "position":
                    self.set_position(raw.strip())
                elif cmd == "go":
                    say(f"bestmove {self.best_move(words[1:])}")
                elif cmd == "quit":
                    return 0
                elif cmd != "stop" and not self.command(words):
                    say(f"info string error unknown command {cmd!r}")
            except ValueError as exc:
                say(f"info string error {cmd}: {exc}")
        return 0


class SearchingPlayer:
    """Mixin for the baselines that run Quantum's normal search (fog_naive,
    alea_diceblind): an Engine on ``search_variant``, a ``Depth`` option (the depth
    when no clock is given), and a fresh engine state at ``ucinewgame``."""

    search_variant = "chess"
    options = ["option name Depth type spin default 4 min 1 max 64"]

    def __init__(self):
        super().__init__()
        from engine.engine import Engine
        self.engine = Engine(self.search_variant)
        self.depth = 4

    def set_option(self, name, value):
        if name == "depth":
            self.depth = max(1, min(64, int(value)))
            return True
        return False

    def new_game(self):
        super().new_game()
        self.engine.new_game()

    def search_among(self, go: list[str], side: str, moves) -> str:
        """The engine's best move among ``moves`` (UCI strings) for the position set on
        ``self.engine``: a budget from ``go``'s own clock (``budget_ms``, capped at
        NODES_PER_MS nodes per millisecond), or ``Depth`` when ``go`` gives no clock."""
        from engine.deepening import GoLimits
        ms = budget_ms(*own_clock(go, side))
        limits = GoLimits(searchmoves=list(moves))
        if ms is None:
            limits.depth = self.depth
        else:
            limits.movetime, limits.nodes = ms, ms * NODES_PER_MS
        best, _ = self.engine.search_sync(limits)
        return best.move
