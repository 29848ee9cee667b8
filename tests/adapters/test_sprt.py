"""adapters.stats.sprt against cutechess-cli's own SPRT.

The reference numbers were not computed by this project's code: they are the output of
cutechess's projects/lib/src/sprt.cpp (commit 5e84232b), compiled unchanged with g++ 12
into a small harness (Q_ASSERT stubbed to assert) that fed ``Sprt::addGameResult`` the
counts below, called ``Sprt::initialize(elo0, elo1, alpha, beta)`` and printed
``Sprt::status()`` with 12 decimals. The first three rows are the cases of cutechess's
own projects/lib/tests/sprt/tst_sprt.cpp.
"""
from __future__ import annotations

import math

import pytest

from adapters.stats import H0, H1, INCONCLUSIVE, SprtConfig, elo_stats, sprt

VERDICT = {"H0": H0, "H1": H1, "continue": INCONCLUSIVE}

# (wins, draws, losses, elo0, elo1, alpha, beta, llr, lower bound, upper bound, result)
CUTECHESS = [
    (1477, 2942, 1351, 0, 10, 0.01, 0.01, 2.523585020157, -4.595119850135, 4.595119850135, "continue"),
    (555, 298, 555, 0, 10, 0.01, 0.01, -0.740594757009, -4.595119850135, 4.595119850135, "continue"),
    (3, 1, 149, 0, 10, 0.01, 0.01, -4.690026035584, -4.595119850135, 4.595119850135, "H0"),
    (0, 0, 0, 0, 5, 0.05, 0.05, -0.000232986784, -2.944438979166, 2.944438979166, "continue"),
    (4, 0, 0, 0, 200, 0.2, 0.2, 1.836192854843, -1.386294361120, 1.386294361120, "H1"),
    (3, 0, 0, 0, 200, 0.2, 0.2, 1.309569146451, -1.386294361120, 1.386294361120, "continue"),
    (0, 0, 2, 0, 200, 0.2, 0.2, -2.102122837699, -1.386294361120, 1.386294361120, "H0"),
    (120, 230, 100, -5, 5, 0.05, 0.05, 1.179276253663, -2.944438979166, 2.944438979166, "continue"),
    (30, 40, 50, -10, 0, 0.05, 0.1, -0.801156341131, -2.251291798606, 2.890371757896, "continue"),
    (1000, 2000, 950, 0, 5, 0.05, 0.05, 0.628778570093, -2.944438979166, 2.944438979166, "continue"),
    (7, 0, 3, -100, 100, 0.1, 0.1, 2.419380373777, -2.197224577336, 2.197224577336, "H1"),
    (0, 10, 0, 0, 50, 0.05, 0.05, -1.621497396403, -2.944438979166, 2.944438979166, "continue"),
    (100, 0, 100, 0, 10, 0.05, 0.05, -0.083659544876, -2.944438979166, 2.944438979166, "continue"),
    (60, 80, 40, 0, 10, 0.01, 0.2, 0.911078756523, -1.599387576581, 4.382026634674, "continue"),
]


@pytest.mark.parametrize("w,d,l,elo0,elo1,alpha,beta,llr,lower,upper,verdict", CUTECHESS)
def test_sprt_matches_cutechess(w, d, l, elo0, elo1, alpha, beta, llr, lower, upper, verdict):
    status = sprt(w, d, l, SprtConfig(elo0, elo1, alpha, beta))
    assert status.llr == pytest.approx(llr, abs=1e-6)
    assert status.lower == pytest.approx(lower, abs=1e-6)
    assert status.upper == pytest.approx(upper, abs=1e-6)
    assert status.result == VERDICT[verdict]
    assert status.decided == (verdict != "continue")


def test_sprt_is_monotone_in_wins():
    """More wins at equal draws and losses can only raise the LLR (H1 is the higher Elo)."""
    cfg = SprtConfig(0, 10, 0.05, 0.05)
    llrs = [sprt(w, 50, 40, cfg).llr for w in range(30, 60, 5)]
    assert llrs == sorted(llrs) and llrs[0] < llrs[-1]


@pytest.mark.parametrize("args", [(0, 5, 0, 0.05), (0, 5, 0.05, 1), (5, 5, 0.05, 0.05),
                                  (5, 0, 0.05, 0.05)])
def test_sprt_config_rejects_meaningless_tests(args):
    with pytest.raises(ValueError):
        SprtConfig(*args)


def test_elo_stats_at_an_even_score_and_a_known_one():
    assert elo_stats(0, 0, 0) == (0.0, 0.0, 0.5)
    elo, margin, los = elo_stats(10, 0, 10)
    assert (elo, los) == (0.0, 0.5) and math.copysign(1, elo) == 1   # no "-0" in print
    # 75 % is +190.85 Elo on the logistic curve; LOS of 3 wins to 1 loss is Phi(1).
    elo, margin, los = elo_stats(3, 0, 1)
    assert elo == pytest.approx(-400 * math.log10(1 / 0.75 - 1))
    assert los == pytest.approx(0.5 * (1 + math.erf(1 / math.sqrt(2))))
    assert margin > 0
