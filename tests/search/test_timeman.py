"""Time management as arithmetic: simulated games in which every move takes its whole
budget plus a latency the clock can afford (no engine survives 30 ms of latency a move at
1+0) must never run the clock out, and the budgets must stay sensible. No real clock is
read."""
from __future__ import annotations

import pytest

from engine.deepening import GoLimits
from engine.timeman import allocate

OVERHEAD_MS = 30


def simulate(base_ms: int, inc_ms: int, plies: int, movestogo: int | None = None,
             latency_ms: float = OVERHEAD_MS, use: str = "mixed") -> list[float]:
    """One side's clock (ms) after each of its moves when each move spends its budget
    and ``latency_ms`` on top: always the soft budget (``use="soft"``), or the hard one on
    every fourth move (``"mixed"``: an iteration that overran its soft budget)."""
    clock, history = float(base_ms), []
    for ply in range(plies):
        mtg = None if movestogo is None else movestogo - ply % movestogo
        limits = GoLimits(wtime=int(clock), btime=int(clock), winc=inc_ms, binc=inc_ms,
                          movestogo=mtg)
        budget = allocate(limits, 0, OVERHEAD_MS)
        hard = use == "mixed" and ply % 4 == 3
        spent = (budget.hard if hard else budget.soft) * 1000 + latency_ms
        clock -= spent
        history.append(clock)
        if clock < 0:
            break
        clock += inc_ms
        if movestogo is not None and mtg == 1:
            clock += base_ms
    return history


@pytest.mark.parametrize("base, inc, moves, latency", [
    (1000, 10, 300, 8), (1000, 0, 80, 5), (10000, 100, 300, 30), (60000, 0, 150, 10),
    (3000, 30, 300, 25), (180000, 2000, 200, 30), (100, 10, 300, 8)])
@pytest.mark.parametrize("use", ["soft", "mixed"])
def test_the_clock_never_runs_out_over_a_long_game(base, inc, moves, latency, use):
    history = simulate(base, inc, moves, latency_ms=latency, use=use)
    assert min(history) > 0, (min(history), history.index(min(history)))


def test_moves_to_go_never_run_out():
    for base, mtg in ((60000, 40), (5000, 10), (1000, 2)):
        history = simulate(base, 0, 200, movestogo=mtg, latency_ms=20)
        assert min(history) > 0


def test_a_drained_clock_is_rebuilt_by_the_increment():
    """1+0.01 with 8 ms of latency a move (most of the increment): the engine plays
    nearly at once late in the game, and the clock settles instead of draining."""
    history = simulate(1000, 10, 300, latency_ms=8)
    assert min(history[150:]) > 5


def test_budgets_at_common_time_controls():
    """10+0.1 thinks about a sixteenth of the clock (the increments to come count); 60+0
    about a twenty-fourth; the hard budget is a few times the soft one, never more than a
    third of the clock."""
    b = allocate(GoLimits(wtime=10000, btime=10000, winc=100, binc=100), 0, OVERHEAD_MS)
    assert 0.55 < b.soft < 0.7 and b.soft < b.hard <= 0.35 * 10
    b = allocate(GoLimits(wtime=60000, btime=60000), 0, OVERHEAD_MS)
    assert 2.2 < b.soft < 2.7 and b.hard <= 0.35 * 60
    b = allocate(GoLimits(wtime=60000, btime=60000, movestogo=1), 0, OVERHEAD_MS)
    assert b.hard <= 60 - OVERHEAD_MS / 1000 and b.soft > 30


def test_an_increment_that_pays_the_overhead_lets_moves_think_longer():
    """Sudden death shares the clock over 18 moves when the increment pays each move's
    overhead, over 24 when it does not (nothing refills the clock then)."""
    from engine.timeman import DEFAULT_MOVES_TO_GO, SLOW_MOVES_TO_GO
    assert DEFAULT_MOVES_TO_GO < SLOW_MOVES_TO_GO
    paid = allocate(GoLimits(wtime=60000, btime=60000, winc=OVERHEAD_MS, binc=OVERHEAD_MS),
                    0, OVERHEAD_MS)
    unpaid = allocate(GoLimits(wtime=60000, btime=60000, winc=OVERHEAD_MS - 1,
                               binc=OVERHEAD_MS - 1), 0, OVERHEAD_MS)
    bare = allocate(GoLimits(wtime=60000, btime=60000), 0, 0)
    assert paid.soft > 1.3 * unpaid.soft
    assert bare.soft == pytest.approx((60 - 0.005) / SLOW_MOVES_TO_GO)   # no overhead: none kept


def test_movetime_and_no_clock():
    b = allocate(GoLimits(movetime=500), 0, OVERHEAD_MS)
    assert b.soft == b.hard == pytest.approx(0.47)
    b = allocate(GoLimits(depth=5), 0, OVERHEAD_MS)
    assert b.soft is None and b.hard is None
    b = allocate(GoLimits(depth=5), 0, OVERHEAD_MS, max_think=1.5)
    assert b.soft == b.hard == 1.5


class _Searcher:
    """What Clock needs of a searcher: somewhere to put the hard limit."""

    def set_limits(self, seconds, nodes):
        self.limits = (seconds, nodes)


@pytest.mark.parametrize("limits, max_think, stops_early", [
    (GoLimits(movetime=500), None, False),        # movetime is the user's: spend it all
    (GoLimits(movetime=500), 2.0, False),         # a cap above the movetime changes nothing
    (GoLimits(movetime=500), 0.2, True),          # a level's cap is a budget like any other
    (GoLimits(wtime=10000, btime=10000, winc=100, binc=100), None, True),
])
def test_another_iteration_starts_late_only_under_movetime(limits, max_think, stops_early):
    """Past 55 % of the soft budget a clocked search starts no new iteration (it would
    likely not finish); a `go movetime` search keeps deepening until the hard limit
    stops it. The elapsed time is set, not waited for."""
    from engine.deepening import Clock
    clock = Clock(_Searcher(), limits, 0, OVERHEAD_MS, max_think)
    clock.elapsed = lambda: 0.0
    assert not clock.out_of_soft_time()
    clock.elapsed = lambda: clock.soft * 0.6
    assert clock.out_of_soft_time() == stops_early
    assert allocate(limits, 0, OVERHEAD_MS, max_think).fixed == (not stops_early)


def test_steadiness_gives_time_to_unsettled_searches():
    """The factor on the soft budget falls below 1 while the best move and score hold,
    rises above 1 when the best move changes or the score drops, and fades back as the
    new move holds."""
    from engine.deepening import Steadiness
    steady = Steadiness()
    factors = [steady.update("e2e4", 20) for _ in range(6)]
    assert factors[-1] < 1.0
    changed = steady.update("d2d4", 20)
    assert changed > 1.0
    assert steady.update("d2d4", 20) < changed
    falling = Steadiness()
    for _ in range(4):
        falling.update("e2e4", 20)
    assert falling.update("e2e4", -80) > steady.update("d2d4", 20)
    rising = Steadiness()
    assert min(rising.update("e2e4", s) for s in (0, 100, 200, 300, 2000)) >= 0.8 * 0.75


def test_a_scaled_soft_budget_lets_another_iteration_start():
    """An unsettled search (scale above 1) may start an iteration past 55 % of the soft
    budget; a settled one (below 1) stops sooner. The elapsed time is set, not waited for."""
    from engine.deepening import Clock
    clock = Clock(_Searcher(), GoLimits(wtime=10000, btime=10000, winc=100, binc=100), 0,
                  OVERHEAD_MS, None)
    clock.elapsed = lambda: clock.soft * 0.6
    assert clock.out_of_soft_time(1.0)
    assert not clock.out_of_soft_time(1.5)
    clock.elapsed = lambda: clock.soft * 0.4
    assert not clock.out_of_soft_time(1.0)
    assert clock.out_of_soft_time(0.7)
