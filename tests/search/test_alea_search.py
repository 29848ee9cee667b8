"""The Alea engine (engine/aleacore.pyx, engine/aleasearch.py): its rules twin, the
expectimax values, the jokers as root decisions (A14, A22), the guide's reasons, draw
offers (A17) and levels (A21). Searches use fixed depths and node limits, never a clock.

Positions are written as Alea FENs (docs/protocol.md, "Alea state"); "20/20" moves made
puts both sides in the dice phase.
"""
from __future__ import annotations

import random
import re

import pytest

from engine import alea, aleasearch
from engine.aleacore import BOUND_CP, AleaCore
from engine.deepening import GoLimits
from engine.engine import Engine
from engine.eval_tables import eval_tables
from engine.notation import alea_token, parse_alea_token
from testkit import alea_random_step

# The hand-written evaluation, whatever net ships: the figures these positions were
# built around (a queen lost in a won position costs over 300 cp) are its; a net trained
# on win chances compresses scores far from equality.
EV = eval_tables("chess", None)
TAIL = "0 30 20/20 -/- {jokers} {rerolls} 0/0 -/- - alea"
# White's queen on d4 is attacked by the knight on c6 (defended by b7). Dice with q or
# n... save it; rook and bishop moves cannot: Ra4 defends it, but a knight still takes a
# queen with profit.
QUEEN_HIT = "4k3/1p6/2n5/8/3Q4/B7/7P/R3K3 w - - "
# Black's queen on d5 hangs to the knight on e3 and the bishop on h1.
QUEEN_FREE = "4k3/8/8/3q4/8/4N3/7P/R3K2B w - - "


def state(board: str, dice, jokers="4/4", rerolls="2/2") -> alea.AleaState:
    s = alea.AleaState.parse(board + TAIL.format(jokers=jokers, rerolls=rerolls))
    return s.with_dice(dice)


def core_for(s: alea.AleaState) -> AleaCore:
    core = AleaCore(16)
    aleasearch.configure(core)
    core.new_search()
    core.set_root(s, EV)
    return core


def best(s: alea.AleaState, guide=False, **limits):
    engine = Engine("alea")
    engine.set_alea_position(s.fen(), [], s.dice)
    found, infos = engine.search_sync(GoLimits(**limits) if not guide else
                                      _guide_limits(**limits))
    return found.move, [i.string for i in infos if i.string]


def _guide_limits(**limits):
    from protocol.uci import GoLimits as UciLimits
    return UciLimits(guide=True, **limits)


def random_states(seed: int, count: int):
    """States of random Alea games (random actions, jokers and rerolls included), with
    the dice rolled where they are needed; games that ended are skipped."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = alea.AleaState.start(jokers=(rng.randint(0, 6), rng.randint(0, 6)))
        for _ in range(rng.randint(0, 90)):
            step = alea_random_step(s, rng)
            if step is None:
                break
            s = step[0]
        if alea.outcome(s) is not None:
            continue
        if alea.needs_roll(s):
            s = s.with_dice(alea.roll(s, rng))
        out.append(s)
    return out


# -- the rules twin --------------------------------------------------------------------------
def test_core_rules_match_the_rules_core():
    """The C core's ordinary moves (A5, A7, A9, A10, A12, A13, A15) and playable types
    (A8) equal engine/alea.py's, for the dice shown and for every pair A8 could show."""
    for s in random_states(11, 150):
        core = core_for(s)
        assert core.ordinary_moves() == sorted(alea.ordinary_moves(s)), s.fen()
        assert core.playable_types() == "".join(
            t for t in "nbrq" if t in alea.playable_types(s)), s.fen()
        bare = s.with_dice(None)
        for dice in alea.dice_distribution(bare):
            if dice is not None:
                assert core.ordinary_moves(dice) == \
                    sorted(alea.ordinary_moves(bare.with_dice(dice))), (s.fen(), dice)


def test_apply_unrolled_finds_dice_that_allow_the_action():
    s = alea.AleaState.parse("4k3/8/8/8/8/8/7P/R3K2B w - - 0 30 20/20 -/- 0/0 2/2 0/0 -/- - "
                             "alea")
    assert alea.needs_roll(s)
    after = alea.apply_unrolled(s, "h1e4")              # a bishop move: some dice show b
    assert after.last_type == ("b", None) and after.dice is None
    with pytest.raises(ValueError, match="for any dice"):
        alea.apply_unrolled(s, "joker h1e4")            # no free-move joker left


# -- expectimax values -------------------------------------------------------------------------
def test_chance_node_is_the_probability_weighted_value_of_its_dice():
    """A chance node's value equals the sum over the dice A8 can show of probability x
    the decision value with those dice (full windows: Star1 cuts nothing)."""
    s = state(QUEEN_HIT, None)
    dist = alea.dice_distribution(s)
    assert len(dist) > 2
    for depth in (0, 1, 2):
        core = core_for(s)
        whole = core.chance_value(depth)
        parts = 0.0
        for dice, p in dist.items():
            parts += float(p) * core_for(s.with_dice(dice)).decision_value(depth)
        assert whole == pytest.approx(parts, abs=1e-6), depth


def test_promotion_is_a_chance_node_over_the_promotion_die():
    """A11: pushing to the last rank is worth the die-weighted values of the four pieces
    (pawns stay on the board, so no piece gives a dead-material draw)."""
    s = alea.AleaState.parse("7k/pP6/8/8/8/8/7P/K7 w - - 0 30 20/20 -/- 0/0 0/0 0/0 -/- - "
                             "alea").with_dice(None)
    core = core_for(s)
    whole = core.action_value("move", "b7b8", 1)
    parts = 0.0
    for piece, p in alea.promotion_distribution().items():
        child = alea.apply(s, "b7b8", piece)
        child = child.with_dice(None) if not alea.needs_roll(child) else child
        sub = core_for(child)
        parts += float(p) * -sub.chance_value(0)
    assert whole == pytest.approx(parts, abs=1e-6)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_windows_give_bounds_that_hold(depth):
    """Fail-soft Star1: inside the window the exact value; at or below alpha an upper
    bound; at or above beta a lower bound."""
    s = state(QUEEN_HIT, ("b", "r"))
    for kind, move in (("move", "d4d5"), ("joker", "d4d5"), ("move", "a3b2")):
        exact = core_for(s).action_value(kind, move, depth)
        assert core_for(s).action_value(kind, move, depth, exact - 30, exact + 30) == \
            pytest.approx(exact, abs=1e-3)
        low = core_for(s).action_value(kind, move, depth, exact + 5, exact + 50)
        assert low <= exact + 5 + 1e-6 and low >= exact - 1e-6
        high = core_for(s).action_value(kind, move, depth, exact - 50, exact - 5)
        assert high >= exact - 5 - 1e-6 and high <= exact + 1e-6


def test_values_are_bounded_and_mate_is_the_bound():
    s = alea.AleaState.parse("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 30 20/20 -/- 0/0 0/0 0/0 -/- - "
                             "alea").with_dice(("r", "r"))
    core = core_for(s)
    assert core.action_value("move", "a1a8", 1) == BOUND_CP - 1      # mate in 1
    for move in ("a1a2", "e1d2"):
        assert -BOUND_CP <= core.action_value("move", move, 2) <= BOUND_CP


def test_table_keys_include_dice_cooldown_and_jokers():
    """One core searches the same board with different Alea fields in turn: its table
    must not mix them up (the values equal those of fresh cores)."""
    boards = [state(QUEEN_FREE, ("n", "b")), state(QUEEN_FREE, ("b", "r")),
              state(QUEEN_FREE, ("n", "b"), jokers="0/4"),
              alea.AleaState.parse(QUEEN_FREE + "0 30 20/20 n/- 4/4 2/2 0/0 -/- - alea")
              .with_dice(("b", "r"))]
    shared = AleaCore(16)
    aleasearch.configure(shared)
    for s in boards * 2:
        shared.new_search()
        shared.set_root(s, EV)
        assert shared.decision_value(2) == pytest.approx(core_for(s).decision_value(2)), \
            s.fen()


# -- root decisions ------------------------------------------------------------------------------
def test_takes_a_hanging_queen_the_dice_allow():
    move, _ = best(state(QUEEN_FREE, ("n", "b")), depth=2)
    assert move in ("e3d5", "h1d5")


def test_saves_its_attacked_queen():
    move, _ = best(state(QUEEN_HIT, ("q", "r")), depth=2)
    s = state(QUEEN_HIT, ("q", "r"))
    assert move[:2] == "d4" and not aleasearch.en_prise(aleasearch.after(
        s, parse_alea_token(move)[0]).board, move[2:4])


def test_no_reroll_over_an_a22_rescue():
    """decide: new dice that look better do not replace a free-move joker that rescues a
    piece the dice cannot save (A22 names that joker); anywhere else they do."""
    move, joker = alea.Action(alea.MOVE, "a1a2"), alea.Action(alea.JOKER, "d4f6")
    rescue = aleasearch.Analysis(values={move: -300.0, joker: 40.0}, reroll=90.0,
                                 reroll_wins=True, rescues=frozenset({joker}))
    aleasearch.decide(rescue)
    assert rescue.choice == joker
    plain = aleasearch.Analysis(values={move: -300.0, joker: 40.0}, reroll=90.0,
                                reroll_wins=True)
    aleasearch.decide(plain)
    assert plain.choice == alea.Action(alea.REROLL)


def test_free_move_joker_saves_the_queen_only_when_the_dice_cannot():
    """A22: the dice (rook, bishop) cannot save the queen: a free-move joker does; with a
    queen die the plain move does and no joker is spent."""
    move, _ = best(state(QUEEN_HIT, ("b", "r")), depth=2)
    assert move.startswith("joker:d4")
    move, _ = best(state(QUEEN_HIT, ("q", "r")), depth=2)
    assert not move.startswith("joker:")


def test_no_joker_to_win_a_pawn():
    """A free-move joker is worth more than a pawn: not spent to take one."""
    s = alea.AleaState.parse("4k3/8/8/8/4N3/2p5/8/R3K2B w - - 0 30 20/20 -/- 4/4 2/2 0/0 -/- - "
                             "alea").with_dice(("b", "r"))
    move, _ = best(s, depth=2)
    assert not move.startswith("joker:")


def test_reroll_when_the_dice_are_hopeless_and_never_without_one():
    """No free-move joker left, the queen attacked and the dice (rook, bishop) cannot
    save it: new dice may show a queen or a knight, so a reroll is asked for; with no
    reroll left the best dice move is played."""
    move, _ = best(state(QUEEN_HIT, ("b", "r"), jokers="0/4"), depth=2)
    assert move == "reroll"
    move, _ = best(state(QUEEN_HIT, ("b", "r"), jokers="0/4", rerolls="0/2"), depth=2)
    assert move != "reroll" and not move.startswith("joker:")


def test_no_reroll_with_good_dice():
    move, _ = best(state(QUEEN_FREE, ("n", "b")), depth=2)
    assert move != "reroll"


def test_castle_joker_is_an_action_the_search_weighs():
    s = alea.AleaState.parse("r3k2r/pppq1ppp/2n5/3p4/3P4/2N5/PPPQ1PPP/R3K2R w KQkq - 0 12 "
                             "8/8 q/q 4/4 2/2 1/1 -/- - alea").with_dice(("n", "r"))
    core = core_for(s)
    assert core.action_value("castle", "e1g1", 2) > -BOUND_CP
    move, _ = best(s, depth=2)
    assert move in {alea_token(a) for a in alea.legal_actions(s)}


def test_best_move_is_always_legal_for_the_state_and_dice():
    for s in random_states(23, 100):
        move, _ = best(s, depth=2, nodes=3000)
        assert move in {alea_token(a) for a in alea.legal_actions(s)}, (s.fen(), move)


def test_game_over_answers_none():
    s = alea.AleaState.parse("7k/6Q1/6K1/8/8/8/8/8 b - - 0 40 20/20 -/- 4/4 2/2 0/0 -/- - alea")
    move, _ = best(s, depth=2)
    assert move is None


def test_stop_ends_an_infinite_search_with_a_legal_action():
    s = state(QUEEN_HIT, ("b", "r"))
    engine = Engine("alea")
    engine.set_alea_position(s.fen(), [], s.dice)
    got = []
    engine.go(GoLimits(infinite=True), lambda info: None, got.append)
    engine.stop()
    engine.wait(30)
    assert not engine.searching
    assert got[0].move in {alea_token(a) for a in alea.legal_actions(s)}


# -- levels (A21) -----------------------------------------------------------------------------
def test_beginner_errs_sometimes_and_stays_legal():
    s = state("r3k3/pp6/8/8/8/8/PP5P/R3K2B w - - ", ("b", "r"))
    legal = {alea_token(a) for a in alea.legal_actions(s)}
    engine = Engine("alea")
    engine.set_level("beginner")
    engine.set_alea_position(s.fen(), [], s.dice)
    picks = set()
    for seed in range(12):
        engine._rng = random.Random(seed)
        found, infos = engine.search_sync(GoLimits(depth=2))
        assert found.move in legal
        assert max(i.depth for i in infos) <= 1                 # beginner: one ply
        picks.add(found.move)
    hard, _ = best(s, depth=1)
    assert len(picks) > 1 and picks != {hard}


# -- the guide (A22) --------------------------------------------------------------------------
GUIDE_BEST = re.compile(r"guide best (\S+) reason (.+)")


def guide(s, **limits):
    move, strings = best(s, guide=True, depth=2, **limits)
    lines = [x for x in strings if x.startswith("guide ")]
    match = GUIDE_BEST.fullmatch(lines[-1])
    assert match and match.group(1) == move, lines
    return move, match.group(2), lines


def test_guide_reports_the_attacked_queen_first_and_saves_it():
    s = state("4k3/1p6/2n5/4b3/3Q4/B7/7P/R3K3 w - - ", ("q", "r"))
    move, why, lines = guide(s)
    assert lines[0] == "guide threat your queen on d4 is attacked by the knight on c6"
    assert why == "saves your queen"


def test_guide_recommends_the_joker_when_the_dice_cannot_save():
    move, why, _ = guide(state(QUEEN_HIT, ("b", "r")))
    assert move.startswith("joker:")
    assert why == "the dice cannot save your queen: a free-move joker saves it"


@pytest.mark.parametrize("fen, dice, want", [
    (QUEEN_FREE, ("n", "b"), "wins a queen"),
    ("6k1/5ppp/8/8/8/8/8/R3K3 w - - ", ("r", "r"), "mate in 1"),
])
def test_guide_reasons(fen, dice, want):
    _, why, _ = guide(state(fen, dice))
    assert why == want


def test_guide_names_development_in_the_free_phase():
    s = alea.AleaState.parse("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 "
                             "1/1 -/- 4/4 2/2 1/1 -/- - alea")
    assert aleasearch.reason(s, aleasearch.Analysis(), alea.Action("move", "g1f3")) == \
        "develops the knight"


def test_review_says_what_was_lost_and_whether_a_joker_was_worth_it():
    s = state(QUEEN_HIT, ("b", "r"))
    core = AleaCore(16)
    aleasearch.configure(core)
    text = aleasearch.review(core, s, EV, alea.Action("move", "a3b2"))
    match = re.fullmatch(r"guide review played a3b2 best (\S+) loss (\d+) joker (worth|not worth)",
                         text)
    assert match, text
    assert match.group(1).startswith("joker:") and int(match.group(2)) > 300
    assert match.group(3) == "worth"
    s = state(QUEEN_HIT, ("q", "r"))
    text = aleasearch.review(core, s, EV, alea.Action("joker", "d4d5"))
    assert text.endswith("joker not worth") and " loss " in text


# -- draw offers (A17) --------------------------------------------------------------------------
@pytest.mark.parametrize("board, move_no, go_side, accept", [
    ("4k3/8/8/8/8/8/PPP5/R3K3 w - - ", 30, "b", True),     # Quantum (Black) is a rook down
    ("4k3/8/8/8/8/8/PPP5/R3K3 w - - ", 30, "w", False),    # Quantum (White) is better
    ("4k3/ppp5/8/8/8/8/PPP5/4K3 w - - ", 12, "w", False),  # balanced but early
    ("4k3/ppp5/8/8/8/8/PPP5/4K3 w - - ", 60, "w", True),   # balanced and long
])
def test_draw_offers(board, move_no, go_side, accept):
    fen = f"{board}0 {move_no} 20/20 -/- 0/0 0/0 0/0 -/- - alea"
    engine = Engine("alea")
    s = alea.AleaState.parse(fen)
    dice = alea.roll(s, random.Random(1))
    engine.set_alea_position(fen, [], dice)
    engine._go_side = go_side
    assert engine.draw_offer() is accept
