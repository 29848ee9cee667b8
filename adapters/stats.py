"""Match statistics from win/draw/loss counts, seen from engine 1: the Elo difference
with its 95 % interval (trinomial variance), the likelihood of superiority, and the
sequential probability ratio test (SPRT) as cutechess-cli computes it.

Pure functions over counts; nothing here plays or prints.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.96                  # two-sided 95 % normal quantile
SCORE_CLAMP = 1e-3          # keeps the logistic inverse finite at 0 % and 100 %


def score_to_elo(score: float) -> float:
    """Logistic Elo difference of an expected score in (0, 1)."""
    return -400 * math.log10(1 / score - 1) + 0.0     # + 0.0: no "-0" at an even score


def los(w: int, l: int) -> float:
    """Likelihood of superiority: the probability that engine 1 is the stronger, from
    wins and losses alone (draws carry no information on who is stronger)."""
    if w + l == 0:
        return 0.5
    return 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l))))


def elo_stats(w: int, d: int, l: int) -> tuple[float, float, float]:
    """(Elo difference, its 95 % half-interval, LOS). No games: (0, 0, 0.5).

    The score's variance is the trinomial one over the games played; the interval is
    taken on the score and mapped through the logistic curve, then halved, so it is
    symmetric in print although the curve is not. Scores are clamped to
    [SCORE_CLAMP, 1 - SCORE_CLAMP], which caps a clean sweep near +/-1200 Elo.
    """
    n = w + d + l
    if n == 0:
        return 0.0, 0.0, 0.5
    score = (w + d / 2) / n
    var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score ** 2) / n
    clamp = _clamp(score)
    se = math.sqrt(var / n)
    lo, hi = _clamp(clamp - Z95 * se), _clamp(clamp + Z95 * se)
    margin = (score_to_elo(hi) - score_to_elo(lo)) / 2
    return score_to_elo(clamp), margin, los(w, l)


def _clamp(score: float) -> float:
    return min(max(score, SCORE_CLAMP), 1 - SCORE_CLAMP)


# -- SPRT ---------------------------------------------------------------------------
# A transcription of cutechess's projects/lib/src/sprt.cpp (Sprt::status with its
# BayesElo and SprtProbability helpers), so that a match stops where cutechess-cli's
# -sprt would stop it. tests/adapters/test_sprt.py checks it against that code's output.

H0 = "H0 accepted"
H1 = "H1 accepted"
INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class SprtConfig:
    """The test of H0: Elo = elo0 against H1: Elo = elo1, with type I error ``alpha``
    and type II error ``beta``. elo0/elo1 are logistic Elo, as cutechess-cli takes them
    (they are converted to BayesElo with the draw ratio observed)."""
    elo0: float
    elo1: float
    alpha: float
    beta: float

    def __post_init__(self):
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("SPRT alpha and beta must lie strictly between 0 and 1")
        if not self.elo0 < self.elo1:
            raise ValueError("SPRT elo0 must be below elo1")

    @property
    def lower(self) -> float:
        """LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """LLR at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)


@dataclass(frozen=True)
class SprtStatus:
    llr: float
    lower: float
    upper: float
    result: str             # H0, H1 or INCONCLUSIVE

    @property
    def decided(self) -> bool:
        return self.result != INCONCLUSIVE


def sprt(w: int, d: int, l: int, config: SprtConfig) -> SprtStatus:
    """The log-likelihood ratio of H1 to H0 after w wins, d draws and l losses, and the
    test's verdict against its bounds.

    As in cutechess: half a game is added to each count (a Dirichlet(0.5, 0.5, 0.5),
    i.e. Jeffreys, prior) so that no class is empty; the draw Elo is estimated from
    those counts; elo0 and elo1 become BayesElo by dividing by the draw-dependent scale;
    the LLR is that of the trinomial under the two resulting models.
    """
    wins, draws, losses = w + 0.5, d + 0.5, l + 0.5
    count = wins + draws + losses
    p_win, p_loss = wins / count, losses / count
    draw_elo = 200 * math.log10((1 - p_loss) / p_loss * (1 - p_win) / p_win)
    x = 10 ** (-draw_elo / 400)
    scale = 4 * x / (1 + x) ** 2
    p0 = _trinomial(config.elo0 / scale, draw_elo)
    p1 = _trinomial(config.elo1 / scale, draw_elo)
    llr = (wins * math.log(p1[0] / p0[0]) + losses * math.log(p1[2] / p0[2])
           + draws * math.log(p1[1] / p0[1]))
    lower, upper = config.lower, config.upper
    # cutechess tests the upper bound first; with lower < 0 < upper the order is moot.
    result = H1 if llr >= upper else H0 if llr <= lower else INCONCLUSIVE
    return SprtStatus(llr, lower, upper, result)


def _trinomial(bayes_elo: float, draw_elo: float) -> tuple[float, float, float]:
    """(P(win), P(draw), P(loss)) of the BayesElo model."""
    p_win = 1 / (1 + 10 ** ((draw_elo - bayes_elo) / 400))
    p_loss = 1 / (1 + 10 ** ((draw_elo + bayes_elo) / 400))
    return p_win, 1 - p_win - p_loss, p_loss
