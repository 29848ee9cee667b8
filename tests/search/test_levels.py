"""Playing strength (engine/levels.py): weak levels and a low UCI_Elo sometimes choose a
move other than the full-strength best; `hard` never does; `normal` still finds a mate in
1 and takes a hanging queen; every level caps the iteration depth.

The engine's choice among lines uses ``Engine._rng``; each test seeds it, so the runs are
reproducible. All searches use a fixed depth (never the clock): the level then caps the
depth further, and the per-move time cap of a bare `go` does not apply.
"""
from __future__ import annotations

import random

import pytest

from engine import levels
from searchkit import Engine, GoLimits, final, search

# 1.e4 e5 2.Nf3 Nf6 3.Nc3 Nxe4?: Nxe4 wins a knight for a pawn, the one clearly best move
# (+2.5 at depth 6), though not so overwhelming that a softmax never strays.
KNIGHT = "rnbqkb1r/pppp1ppp/8/4p3/4n3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 4"
SCHOLAR = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
HANGING_QUEEN = "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
TRIALS = 40
DEPTH = 6


def weakened(level: str | None = None, elo: int | None = None, seed: int = 1) -> Engine:
    e = Engine("chess")
    e._rng = random.Random(seed)
    if elo is not None:
        e.limit_strength = True
        e.elo = elo
    else:
        e.set_level(level)
    return e


def choices(e: Engine, fen: str, trials: int = TRIALS):
    e.set_position(fen, [])
    moves, depths = [], []
    for _ in range(trials):
        best, infos = e.search_sync(GoLimits(depth=DEPTH))
        moves.append(best.move)
        depths.extend(i.depth for i in infos)
    return moves, depths


def full_strength_best(fen: str) -> str:
    best, _, _ = search("chess", fen, depth=DEPTH)
    return best.move


def test_the_position_has_one_clearly_best_move():
    best, infos, _ = search("chess", KNIGHT, depth=DEPTH)
    assert best.move == "c3e4"
    assert final(infos).score > 100             # a clean pawn up, at least
    e = Engine("chess")
    e.set_position(KNIGHT, [])
    e.multipv = 2
    _, infos = e.search_sync(GoLimits(depth=DEPTH))
    lines = {i.multipv: i.score for i in infos if i.depth == DEPTH}
    assert lines[1] - lines[2] > 80             # and the next best move is clearly worse


@pytest.mark.parametrize("level", ["beginner", "easy"])
def test_weak_levels_sometimes_deviate(level):
    best = full_strength_best(KNIGHT)
    moves, _ = choices(weakened(level), KNIGHT)
    assert any(m != best for m in moves), moves
    # still plausible: the best move is chosen sometimes as well, and all are legal
    assert best in moves
    e = Engine("chess")
    e.set_position(KNIGHT, [])
    assert set(moves) <= set(e.board.legal_moves())


def test_hard_never_deviates():
    best = full_strength_best(KNIGHT)
    moves, _ = choices(weakened("hard"), KNIGHT)
    assert set(moves) == {best}


def test_low_elo_deviates_sometimes():
    best = full_strength_best(KNIGHT)
    moves, depths = choices(weakened(elo=800), KNIGHT)
    assert any(m != best for m in moves), moves
    assert max(depths) <= levels.for_elo(800).max_depth


def test_uci_elo_weakens_steadily():
    """A higher UCI_Elo never searches less or chooses more loosely: more nodes (or the
    step from the hand-written evaluation to the net, once), no shallower depth cap, no
    more lines, a cooler choice, fewer blunders."""
    prev = levels.for_elo(levels.ELO_MIN)
    assert not prev.net
    steps = []
    for elo in range(levels.ELO_MIN + 25, levels.ELO_MAX + 1, 25):
        s = levels.for_elo(elo)
        if s.net != prev.net:
            steps.append(elo)
        else:
            assert s.max_nodes >= prev.max_nodes, elo
        assert (s.max_depth or 999) >= (prev.max_depth or 999), elo
        assert s.lines <= prev.lines and s.temperature <= prev.temperature, elo
        assert s.blunder <= prev.blunder, elo
        prev = s
    assert len(steps) == 1 and s.net, steps
    anchors = [a[0] for a in levels.ELO_ANCHORS]
    assert anchors == sorted(set(anchors))
    assert anchors[0] == levels.ELO_MIN and anchors[-1] == levels.ELO_MAX


def test_max_elo_plays_the_best_move():
    best = full_strength_best(KNIGHT)
    moves, _ = choices(weakened(elo=levels.ELO_MAX), KNIGHT, trials=10)
    assert set(moves) == {best}


@pytest.mark.parametrize("seed", range(5))
def test_normal_finds_mate_in_1(seed):
    moves, _ = choices(weakened("normal", seed=seed), SCHOLAR, trials=4)
    assert set(moves) == {"h5f7"}


@pytest.mark.parametrize("seed", range(5))
def test_normal_takes_a_hanging_queen(seed):
    moves, _ = choices(weakened("normal", seed=seed), HANGING_QUEEN, trials=4)
    assert set(moves) == {"f3h4"}


@pytest.mark.parametrize("level", ["beginner", "easy", "normal"])
@pytest.mark.parametrize("fen", [None, KNIGHT], ids=["start", "knight"])
def test_levels_cap_the_depth(level, fen):
    """No info ever reports a depth above the level's ``max_depth``. From the start
    position every level reaches its cap; in KNIGHT `beginner` stops at depth 1, because
    its 8 lines at depth 2 need about 2,100 nodes and its budget is 2,000 (a partial
    iteration is dropped), so there only the upper bound is checked."""
    cap = levels.LEVELS[level].max_depth
    e = weakened(level)
    e.set_position(fen, [])
    best, infos = e.search_sync(GoLimits(depth=cap + 4))
    assert best.move is not None
    assert infos and max(i.depth for i in infos) <= cap
    if fen is None:
        assert max(i.depth for i in infos) == cap      # the cap is reached, not undercut


def test_hard_is_not_capped():
    assert levels.LEVELS["hard"].max_depth is None
    e = weakened("hard")
    e.set_position(KNIGHT, [])
    _, infos = e.search_sync(GoLimits(depth=8))
    assert max(i.depth for i in infos) == 8


def test_weak_levels_search_several_lines():
    """A weakened level chooses among MultiPV lines: the infos carry multipv numbers up
    to the level's line count (fewer only when there are fewer legal moves)."""
    for level in ("beginner", "easy", "normal"):
        e = weakened(level)
        e.set_position(KNIGHT, [])
        _, infos = e.search_sync(GoLimits(depth=2))
        assert max(i.multipv for i in infos) == levels.LEVELS[level].lines
