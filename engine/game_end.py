"""How a game ends: the Outcome type and the dead-material rules named in variant files.

Checkmate, stalemate, royal capture, the n-move rule and repetition are decided by
``Board.outcome`` from the variant's ``end`` table; this module holds what is pure data.
"""
from __future__ import annotations

from dataclasses import dataclass

RESULT_TEXT = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2", 0.75: "3/4-1/4", 0.25: "1/4-3/4"}


@dataclass(frozen=True)
class Outcome:
    """A finished game: White's score (1, 0, 0.5, or 3/4 and 1/4 for a Gliński stalemate)
    and the reason in words, as a PGN ``Termination`` tag would say it."""

    white_score: float
    termination: str

    @property
    def result(self) -> str:
        """The PGN result token; hex stalemates use the project's ``3/4-1/4`` convention."""
        return RESULT_TEXT.get(self.white_score, "*")

    @property
    def winner(self):
        """0 White, 1 Black, None when the score is an even split."""
        if self.white_score == 0.5:
            return None
        return 0 if self.white_score > 0.5 else 1


def is_dead_material(rules, pieces) -> bool:
    """Whether no sequence of moves can mate.

    ``pieces`` lists (letter, cell colour) for every piece but the kings; ``rules`` are the
    variant's ``end.insufficient`` names. Bare kings are dead in every variant.
    """
    if not pieces:
        return True
    letters = [p[0] for p in pieces]
    if "lone_minor" in rules and len(pieces) == 1 and letters[0] in ("n", "b"):
        return True
    if "same_colour_bishops" in rules and set(letters) == {"b"}:
        return len({p[1] for p in pieces}) == 1
    return False
