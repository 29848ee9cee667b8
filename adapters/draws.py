"""When an engine agrees to a draw: the one rule the Lichess bridge and the game session
(adapters/session.py) apply to a person's offer in a game without draw offers in its
protocol (all but Alea, whose engine answers ``draw offer`` itself, A17).

Accept when the engine's last search says it is clearly losing (being mated, or
DRAW_LOSING_CP or worse), or when the game is level (|score| <= DRAW_LEVEL_CP) from move
DRAW_LEVEL_FROM_MOVE on; otherwise decline, also before its first search.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

DRAW_LOSING_CP = -300
DRAW_LEVEL_CP = 30
DRAW_LEVEL_FROM_MOVE = 40
_SCORE = re.compile(r"\bscore (cp|mate) (-?\d+)")


@dataclass(frozen=True)
class Score:
    """The engine's last score, from its own side: centipawns, or moves to mate
    (negative: it is being mated)."""

    cp: int | None = None
    mate: int | None = None


def accept_draw(score: Score | None, plies: int) -> bool:
    """Whether to accept the opponent's draw offer; ``plies`` played so far."""
    if score is None:
        return False
    if score.mate is not None:
        return score.mate < 0
    if score.cp is None:
        return False
    if score.cp <= DRAW_LOSING_CP:
        return True
    move_number = plies // 2 + 1
    return abs(score.cp) <= DRAW_LEVEL_CP and move_number >= DRAW_LEVEL_FROM_MOVE


def parse_score(info_line: str) -> Score | None:
    """The score of a UCI ``info`` line, or None when it carries none."""
    found = _SCORE.search(info_line or "")
    if not found:
        return None
    kind, value = found.group(1), int(found.group(2))
    return Score(cp=value) if kind == "cp" else Score(mate=value)
