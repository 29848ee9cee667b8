"""Fog of War search: choose a move from the views alone (docs/architecture.md, "Fog of
War engine").

``think_fog`` runs in the engine's worker thread, like ``deepening.think``:

1. a visible enemy king that an own move can take is taken at once (the game ends);
2. the belief (``engine.belief``) is brought up to the last view, its time charged to the
   clock (at most ``BELIEF_SHARE`` of the soft budget);
3. up to ``MAX_SAMPLES`` positions are drawn from the belief by weight (how likely the
   opponent's unseen moves were: ``engine.belief``), and the regular search
   scores every candidate move in each: first every move the view allows at depth 1 in
   as many samples as ``SAMPLE_SHARE`` of the budget allows, then the best
   ``CANDIDATES`` moves deeper, one depth at a time over the same samples, while the
   clock allows;
4. the move with the best mean score is played, each sample weighted by its belief
   weight raised to ``TEMPER`` (the belief underrates threats: an unlikely sample counts
   more than its chance, in the king veto too). A king capture or a
   mate in one sample weighs like a large material swing (``SWING``) from that sample's
   static evaluation, not like the whole game, and losing the king is never worth more
   than ``-SWING``: scores stay apart however large a lead is, so a won game still
   chooses the move that wins more (a fixed clip made every move of a 15-pawn lead
   equal). A move after which the enemy could take our king in more than ``VETO_SHARE``
   of the samples' weight is never played unless every move is like that.

Only moves the view allows are ever played (``engine.fog.view_moves``). It never prints:
it reports through ``on_info`` and returns a ``BestMove``.
"""
from __future__ import annotations

import random

from engine import particles
from engine.belief import Belief, FogHistory
from engine.deepening import INF, MATE_BOUND, BestMove, Clock, GoLimits, SearchInfo, \
    _wait_for_release
from engine.fog import view_moves
from engine.levels import Strength, choose
from engine.notation import move_cells

MAX_SAMPLES = 48        # positions searched per move at most (32-64: the brief's range)
SAMPLE_SHARE = 0.4      # share of the soft budget the depth-1 pass over samples may use
BELIEF_SHARE = 0.25     # share of the soft budget the belief update may use
CANDIDATES = 6          # moves searched deeper than depth 1
SWING = 1500            # what a mate in one sample weighs: about a queen and a half
VETO_SHARE = 0.3        # king capturable in more samples than this: the move is vetoed
TEMPER = 0.5            # sample weights count raised to this power: unlikely threats weigh more
MAX_DEPTH = 64
RESCUE_SECONDS = 0.005


def _weigh(score: int, base: int) -> int:
    """A sample's score as it enters the mean; ``base`` is the sample's static evaluation
    (mover's view). Mates become a swing of SWING from it, at least SWING either way."""
    if score >= MATE_BOUND:
        return max(base + SWING, SWING)
    if score <= -MATE_BOUND:
        return min(base - SWING, -SWING)
    return score


def _temper(weights: list[float]) -> list[float]:
    """``weights`` raised to TEMPER and normalised: the belief's odds flattened, so that a
    threat the belief thinks unlikely still costs a move something."""
    raised = [w ** TEMPER for w in weights]
    total = sum(raised) or 1.0
    return [w / total for w in raised]


def king_capture(history: FogHistory, moves: list[str], variant) -> str | None:
    """An own move onto the visible enemy king, if the view shows one."""
    king = variant.letters[variant.royal_type]
    enemy_king = king if history.side == "w" else king.upper()
    cells = [name for name, letter in history.last.pieces.items() if letter == enemy_king]
    if not cells:
        return None
    for move in moves:
        if move_cells(move)[1] == cells[0]:
            return move
    return None


class _Tally:
    """Scores per (sample, move): the freshest complete one, and the depth reached;
    ``bases`` holds each sample's static evaluation (``_weigh``), ``weights`` each
    sample's weight in the means."""

    def __init__(self, weights):
        self.scores: dict[str, dict[int, int]] = {}
        self.bases: dict[int, int] = {}
        self.weights = weights
        self.depth = 0

    def commit(self, sample: int, found: dict[str, int]) -> None:
        base = self.bases.get(sample, 0)
        for move, score in found.items():
            self.scores.setdefault(move, {})[sample] = _weigh(score, base)

    def means(self, moves) -> list[tuple[float, str]]:
        out = []
        for move in moves:
            got = self.scores.get(move)
            if got:
                total = sum(self.weights[k] for k in got)
                out.append((sum(self.weights[k] * s for k, s in got.items()) / total, move))
        out.sort(key=lambda item: -item[0])
        return out


def think_fog(searcher, belief: Belief, history: FogHistory, ev, tt, limits: GoLimits,
              overhead_ms: int, strength: Strength, on_info, clock_box: list,
              rng: random.Random | None = None) -> BestMove:
    """Choose a move for the last view of ``history`` (see the module docstring).

    ``clock_box`` receives the Clock at once (``ponderhit``); ``searcher.stop()`` ends
    the search from any thread, and the hard time limit is never passed by more than a
    search slice.
    """
    rng = rng or random.Random()
    variant = belief.variant
    searcher.new_search()
    tt.new_search()
    side = 0 if history.side == "w" else 1
    clock = Clock(searcher, limits, side, overhead_ms, strength.max_think, strength.max_nodes)
    clock_box.append(clock)
    moves = view_moves(history.last, variant)
    if limits.searchmoves:
        moves = [m for m in moves if m in limits.searchmoves]
    if not moves:
        on_info(SearchInfo(depth=0, score=0))
        _wait_for_release(searcher, clock, limits)
        return BestMove(None)
    taker = king_capture(history, moves, variant)
    if taker is not None:
        on_info(SearchInfo(depth=0, string="fog king capture"))
        _wait_for_release(searcher, clock, limits)
        return BestMove(taker)

    deadline = None
    if clock.soft is not None:
        deadline = clock.start + clock.soft * BELIEF_SHARE
    belief.update(history, deadline)
    samples, weights = belief.sample(MAX_SAMPLES)
    weights = _temper(weights)
    share = {m: 0.0 for m in moves}
    for board, weight in zip(samples, weights):
        for move, bad in particles.king_exposed(board, moves).items():
            share[move] += weight * bad
    allowed = [m for m in moves if share[m] <= VETO_SHARE]
    if not allowed:
        least = min(share.values())
        allowed = [m for m in moves if share[m] == least]

    tally, searched, finalists = _search_samples(searcher, samples, weights, allowed, ev, tt,
                                                 limits, clock, strength, on_info)
    ranked = tally.means(finalists)
    if not ranked:
        ranked = _rescue(searcher, samples, allowed, ev, tt)
        on_info(SearchInfo(depth=1, seldepth=1, score=int(round(ranked[0][0])),
                           nodes=searcher.nodes, time_ms=int(clock.elapsed() * 1000),
                           hashfull=tt.hashfull(), pv=[ranked[0][1]]))
    on_info(SearchInfo(depth=0, string=f"fog belief {len(belief)} searched {searched}"))
    _wait_for_release(searcher, clock, limits)
    lines = [(int(round(score)), [move]) for score, move in ranked]
    chosen = choose(lines, strength, rng) if strength.lines > 1 else lines[0]
    return BestMove(chosen[1][0])


def _score(searcher, board, move, depth, ev, tt) -> int | None:
    """The exact score of ``move`` in ``board`` at ``depth``, or None if stopped."""
    if not searcher.set_root(board, ev, tt, [move]):
        return None
    score = searcher.search(depth, -INF, INF)
    return None if searcher.stopped else score


def _static(searcher, board, ev, tt) -> int:
    """The static evaluation of ``board`` for its side to move."""
    searcher.set_root(board, ev, tt, [])
    return searcher.static_eval()


def _score_moves(searcher, board, moves, depth, ev, tt) -> dict:
    """``{move: score}`` for ``moves`` in ``board`` at ``depth``, in order, up to the first
    that could not be scored (the search was stopped)."""
    found = {}
    for move in moves:
        score = _score(searcher, board, move, depth, ev, tt)
        if score is None:
            break
        found[move] = score
    return found


def _search_samples(searcher, samples, weights, moves, ev, tt, limits, clock, strength,
                    on_info):
    """Depth 1 over every move in as many samples as the budget allows, then the best
    CANDIDATES moves deeper over those samples, one fewer per depth.

    Returns (tally, samples searched, the moves of the last pass): only those compare
    fairly, each scored at the same depth in every sample."""
    tally = _Tally(weights)
    node_cap = clock.nodes if clock.nodes < (1 << 62) else None
    max_depth = min(limits.depth or MAX_DEPTH, strength.max_depth or MAX_DEPTH, MAX_DEPTH)
    used = 0
    for k, board in enumerate(samples):
        tally.bases[k] = _static(searcher, board, ev, tt)
        found = _score_moves(searcher, board, moves, 1, ev, tt)
        if searcher.stopped:
            break
        tally.commit(k, found)
        used = k + 1
        if _share_spent(clock, searcher, node_cap, SAMPLE_SHARE):
            break
    if not used:
        return tally, 0, moves
    tally.depth = 1
    _report(searcher, clock, tt, tally, moves, on_info)
    candidates = [move for _, move in tally.means(moves)[:CANDIDATES]]
    finalists = moves
    depth = 2
    while depth <= max_depth and len(candidates) > 1 and not searcher.stopped:
        if clock.out_of_soft_time():
            break
        done = 0
        for k in range(used):
            found = _score_moves(searcher, samples[k], candidates, depth, ev, tt)
            if searcher.stopped:
                break
            tally.commit(k, found)
            done += 1
            if clock.soft is not None and clock.elapsed() > clock.soft:
                searcher.stop()
                break
        if not done:
            break
        finalists = candidates
        tally.depth = depth
        _report(searcher, clock, tt, tally, candidates, on_info)
        candidates = [move for _, move in tally.means(candidates)[:max(2, len(candidates) - 1)]]
        depth += 1
    return tally, used, finalists


def _share_spent(clock, searcher, node_cap, share: float) -> bool:
    if node_cap is not None and searcher.nodes > node_cap * share:
        return True
    return clock.soft is not None and clock.elapsed() > clock.soft * share


def _report(searcher, clock, tt, tally, moves, on_info) -> None:
    ranked = tally.means(moves)
    if not ranked:
        return
    score, move = ranked[0]
    on_info(SearchInfo(depth=tally.depth, seldepth=max(searcher.seldepth, tally.depth),
                       score=int(round(score)), nodes=searcher.nodes,
                       time_ms=int(clock.elapsed() * 1000), hashfull=tt.hashfull(),
                       pv=[move]))


def _rescue(searcher, samples, moves, ev, tt) -> list[tuple[float, str]]:
    """Stopped before one sample was done: depth 1 on the first sample under a few
    milliseconds, else the first allowed move."""
    if samples:
        searcher.resume(RESCUE_SECONDS)
        found = []
        for move in moves:
            score = _score(searcher, samples[0], move, 1, ev, tt)
            if score is None:
                break
            found.append((float(_weigh(score, 0)), move))
        searcher.stop()
        if found:
            found.sort(key=lambda item: -item[0])
            return found
    return [(0.0, moves[0])]

