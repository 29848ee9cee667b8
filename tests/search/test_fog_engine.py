"""Fog of War engine: the belief (engine/belief.py, engine/particles.pyx) and the search
from views (engine/fogsearch.py), driven by seeded random true games whose views come
from engine/fog.py, sent as the `position fog` message of docs/protocol.md.

Every search here has a fixed node or depth limit: nothing measures time.
"""
from __future__ import annotations

import math

import pytest

from engine import fog, particles
from engine.belief import PRIOR_FLOOR, PRIOR_TEMPERATURE, Belief, FogHistory, check_history
from engine.board import Board
from engine.deepening import MATE_BOUND, GoLimits
from engine.engine import Engine
from engine.eval_tables import build, eval_tables, load_params
from engine import fogsearch
from engine.fogsearch import SWING, TEMPER, _Tally, _temper, king_capture
from engine.variant import load_variant
from fogkit import fog_turns, random_game
from protocol.dialect import parse_fog_position
from testkit import chess_fen

VARIANT = load_variant("fogofwar")


def history(command: str) -> FogHistory:
    words = command.split()
    assert words[:2] == ["position", "fog"]
    return parse_fog_position(words[2:], "fogofwar")


def last_only(h: FogHistory) -> FogHistory:
    return FogHistory(h.views[-1:], h.lost[-1:], ())


def key_of(board: Board) -> bytes:
    return particles.key(particles.from_board(board))


def consistent(belief: Belief, h: FogHistory) -> bool:
    code = particles.ViewCode(VARIANT, h.last, h.lost[-1])
    return all(code.matches_particle(p) for p in belief.particles)


# -- the view in C ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_view_code_agrees_with_fog_view(seed):
    """particles.ViewCode says a position shows a view exactly when engine.fog.view gives
    that view (halfmove field aside) and engine.fog.lost_cells those lost cells: checked
    on every sibling of each true position (the other replies the opponent had)."""
    boards, moves = random_game(100 + seed, 50)
    checked = 0
    for i in range(1, len(boards)):
        board, before = boards[i], boards[i - 1]
        if board.outcome() is not None:
            break
        side = board.turn
        seen = fog.view(board, side)
        code = particles.ViewCode(VARIANT, seen, fog.lost_cells(before, board, side))
        assert code.matches(board)
        for reply in before.legal_moves():
            other = before.copy()
            other.push(reply)
            if other.outcome() is not None:
                continue
            same = fog.view(other, side).fen.split() == seen.fen.split() and \
                fog.lost_cells(before, other, side) == fog.lost_cells(before, board, side)
            assert code.matches(other) == same, (before.fen(), reply, moves[i - 1])
            checked += 1
    assert checked > 500


def test_particle_round_trip():
    boards, _ = random_game(7, 60)
    for board in boards:
        data = particles.from_board(board)
        assert particles.to_board(VARIANT, data).fen() == board.fen()
        assert particles.key(data) == data[:-1]


# -- the belief -------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2, 5, 6, 8])     # games whose belief stays small
@pytest.mark.parametrize("side", "wb")
def test_uncapped_belief_holds_the_true_position(seed, side):
    """Tracked exactly from the start position, the belief contains the true position at
    every turn and never needs a rebuild; every particle shows the received view. (Some
    random games reach 10^5 to 10^6 positions in 14 plies: too slow for the suite.)"""
    boards, moves = random_game(seed, 14)
    belief = Belief(cap=10 ** 9)
    for turn in fog_turns(boards, moves, side):
        h = history(turn.command)
        belief.update(h)
        assert key_of(turn.board) in {particles.key(p) for p in belief.particles}
        assert not belief.rebuilt
        assert consistent(belief, h)


@pytest.mark.parametrize("seed", range(3))
def test_capped_belief_stays_consistent(seed):
    """A small cap samples the true position away and forces rebuilds; the particles
    still show every view as it arrives, and never exceed the cap."""
    boards, moves = random_game(20 + seed, 90)
    for side in "wb":
        belief = Belief(cap=8, seed=seed)
        for turn in fog_turns(boards, moves, side):
            h = history(turn.command)
            belief.update(h)
            assert 0 < len(belief) <= 8 and len(belief.weights) == len(belief)
            assert abs(sum(belief.weights) - 1) < 1e-9
            assert consistent(belief, h)


@pytest.mark.parametrize("seed", range(3))
def test_rebuilt_from_the_last_view_only(seed):
    """A history of one mid-game view is rebuilt by placing the enemy material in the
    fog: the particles show that view and respect the pawn and king rules."""
    boards, moves = random_game(40 + seed, 70)
    for side in "wb":
        for turn in fog_turns(boards, moves, side)[5::6]:
            h = last_only(history(turn.command))
            belief = Belief(seed=seed)
            belief.update(h)
            assert belief.rebuilt and len(belief) > 0
            assert consistent(belief, h)
            for board in belief.sample(20)[0]:
                placement = board.fen().split()[0]
                assert placement.count("k") == 1 and placement.count("K") == 1
                rows = placement.split("/")
                assert "p" not in rows[0] + rows[7] and "P" not in rows[0] + rows[7]


def test_cached_belief_extends_and_restarts():
    """update() continues from the cache when the new history extends the old one (same
    set as a fresh belief when uncapped), and starts over otherwise."""
    boards, moves = random_game(3, 14)
    turns = fog_turns(boards, moves, "w")
    cached = Belief(cap=10 ** 9)
    for turn in turns:
        cached.update(history(turn.command))
    fresh = Belief(cap=10 ** 9, replay_cap=10 ** 9)
    fresh.update(history(turns[-1].command))
    assert sorted(map(particles.key, cached.particles)) == \
        sorted(map(particles.key, fresh.particles))
    other_boards, other_moves = random_game(4, 10)
    other = fog_turns(other_boards, other_moves, "w")[-1]
    cached.update(history(other.command))
    assert key_of(other.board) in {particles.key(p) for p in cached.particles}


def test_black_first_view_is_exact():
    """Black's first view follows one unknown White move from the known start: the belief
    is exactly the White moves that show that view."""
    start = Board("fogofwar")
    start.push("g1f3")
    h = FogHistory((fog.view(start, "b"),), (frozenset(),), ())
    belief = Belief()
    belief.update(h)
    expected = set()
    for move in Board("fogofwar").legal_moves():
        b = Board("fogofwar")
        b.push(move)
        if fog.view(b, "b").fen == h.last.fen:
            expected.add(key_of(b))
    assert {particles.key(p) for p in belief.particles} == expected
    assert len(expected) == 20         # Black sees nothing of White's half: all 20 moves


# -- the move prior: how likely the opponent's unseen moves were ------------------------------

def test_move_merit_is_the_exchange_plus_the_square():
    """Taking an undefended queen beats every quiet move, leaving the queen en prise is
    the worst move, and a pawn step onto a defended square beats one the queen takes."""
    board = Board("fogofwar", chess_fen({"e1": "K", "d1": "Q", "e4": "N", "a2": "P",
                                         "d2": "P", "e8": "k", "d6": "q", "f5": "b"}))
    merits = particles.move_merits(board, eval_tables("fogofwar", None))
    assert set(merits) == set(board.legal_moves())
    assert max(merits, key=merits.get) == "e4d6"
    assert merits["e4d6"] > 800
    assert min(merits, key=merits.get) == "d1g4" and merits["d1g4"] < -800   # Bxg4
    assert merits["d2d4"] > merits["a2a3"]              # Qxa3 wins a pawn


@pytest.mark.parametrize("fen, phase", [
    ("8/5k2/8/8/8/8/3P4/4K3 w - - 0 1", 0),                  # a king and pawn ending
    ("r3k3/8/8/8/8/8/3P4/4K2R w - - 0 1", 4),                # two rooks: a sixth of the way
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w - - 0 1", 22),  # a middlegame
])
def test_a_quiet_move_gains_its_square_blended_by_the_phase(fen, phase):
    """A quiet move's merit is what the piece-square tables gain by it, middlegame and
    endgame blended by the position's phase as the evaluation blends them (restated here
    from engine/eval_tables.build): in a bare ending the king's step to the centre is
    among the likeliest moves, where the middlegame table alone made it the least likely
    and the belief kept an unseen enemy king at home while it walked up to take ours."""
    board = Board("fogofwar", fen)
    tables = build(VARIANT, load_params("fogofwar"))
    assert sum(tables["phase"][VARIANT.type_of[c.lower()]] for c in fen.split()[0]
               if c.isalpha()) == phase
    top = tables["phase_max"]
    merits = particles.move_merits(board, eval_tables("fogofwar", None))
    code = VARIANT.royal_type | 16
    names = VARIANT.geometry.names
    king_moves = [m for m in ("e1e2", "e1d1", "e1f2", "e1f1") if m in merits]
    assert king_moves
    for move in king_moves:
        src, dst = names.index(move[:2]), names.index(move[2:])
        mg = tables["pst_mg"][code][dst] - tables["pst_mg"][code][src]
        eg = tables["pst_eg"][code][dst] - tables["pst_eg"][code][src]
        assert merits[move] == (mg * phase + eg * (top - phase)) // top, move
    if phase == 0:
        assert merits["e1e2"] > merits["e1d1"] and merits["e1e2"] > 0


def _prior(merits: dict) -> dict:
    """The belief's prior restated: softmax of the merits mixed with the uniform floor."""
    top = max(merits.values())
    soft = {m: math.exp((v - top) / PRIOR_TEMPERATURE) for m, v in merits.items()}
    total = sum(soft.values())
    return {m: (1 - PRIOR_FLOOR) * soft[m] / total + PRIOR_FLOOR / len(merits)
            for m in merits}


def test_first_view_weighs_white_moves_by_the_prior():
    """Black's first view shows none of White's 20 moves; each child weighs the chance of
    its move (restated here from move_merits), so 1.e4 outweighs 1.Nc3 and 1.Nc3 1.a3."""
    start = Board("fogofwar")
    expect = _prior(particles.move_merits(start, eval_tables("fogofwar", None)))
    after = start.copy()
    after.push("g1f3")
    belief = Belief()
    belief.update(FogHistory((fog.view(after, "b"),), (frozenset(),), ()))
    got = {}
    for data, weight in zip(belief.particles, belief.weights):
        for move in expect:
            b = Board("fogofwar")
            b.push(move)
            if key_of(b) == particles.key(data):
                got[move] = weight
    assert got.keys() == expect.keys()
    assert all(abs(got[m] - expect[m]) < 1e-9 for m in expect)
    assert got["e2e4"] > got["b1c3"] > got["a2a3"]


def test_advance_weights_sum_over_parents_and_moves():
    """A child's weight is the sum over the parents that lead to it of parent weight times
    move chance: the same parent listed twice at half weight gives the same children and
    weights as once at full weight; without tables every move is equally likely."""
    start = Board("fogofwar")
    after = start.copy()
    after.push("e2e4")
    code = particles.ViewCode(VARIANT, fog.view(after, "b"))
    parent = particles.from_board(start)
    tables = eval_tables("fogofwar", None)
    once, _, w1 = particles.advance(code, [parent], weights=[1.0], prior=tables)
    twice, _, w2 = particles.advance(code, [parent, parent], weights=[0.5, 0.5], prior=tables)
    assert once == twice and all(abs(a - b) < 1e-12 for a, b in zip(w1, w2))
    flat, _, w3 = particles.advance(code, [parent], weights=[0.6])
    assert len(flat) == 20 and all(abs(w - 0.6 / 20) < 1e-12 for w in w3)
    with pytest.raises(ValueError):
        particles.advance(code, [parent], weights=[1.0, 1.0])
    with pytest.raises(ValueError):
        particles.advance(code, [parent], prior=tables, temperature=0)


def test_thinning_keeps_the_heavy_and_weighs_the_light_fairly():
    """Above the cap, the heaviest particles are all kept and exactly ``k`` survive; a
    light one kept weighs 1/scale, so over many thinnings each particle's expected
    weight is what it had (the belief stays fair, only sparser)."""
    belief = Belief(seed=3)
    items = [bytes([i]) for i in range(12)]
    weights = [0.4, 0.2] + [0.04] * 10
    totals = [0.0] * 12
    rounds = 3000
    for _ in range(rounds):
        kept, kept_weights = belief._thin(items, weights, 5)
        assert len(kept) == 5 and items[0] in kept and items[1] in kept
        for item, w in zip(kept, kept_weights):
            totals[item[0]] += w
    assert abs(sum(kept_weights) - 1.0) < 1e-9
    assert all(abs(total / rounds - w) < 0.006 for total, w in zip(totals, weights))


def test_thin_in_c_keeps_exactly_k():
    """particles.thin: exactly k kept (the heavy always, scale * w >= 1), all of them with
    an infinite scale when there are at most k, and a clear error for a bad weight; a
    hundred thousand weights (a belief step's children) in one call."""
    weights = [0.5] + [0.5 / 99999] * 99999
    kept, scale = particles.thin(weights, 6000, 0.25)
    assert len(kept) == 6000 and kept[0] == 0 and kept == sorted(set(kept))
    assert abs(scale - 5999 / 0.5) < 1e-6
    assert particles.thin([0.2, 0.8], 5, 0.5) == ([0, 1], float("inf"))
    for start in (0.0, 0.3, 0.999):
        assert len(particles.thin([0.1] * 10, 3, start)[0]) == 3
    with pytest.raises(ValueError):
        particles.thin([0.5, -0.1, 0.6], 1, 0.5)
    with pytest.raises(ValueError):
        particles.thin([0.5, float("nan"), 0.6], 1, 0.5)


def test_samples_are_drawn_by_weight():
    """sample() gives every particle when there are few, else k distinct ones thinned by
    weight; weights sum to 1, heaviest first."""
    boards, moves = random_game(0, 10)
    belief = Belief()
    belief.update(history(fog_turns(boards, moves, "w")[-1].command))
    assert len(belief) > 100                # White's belief after 5 unseen Black moves
    assert len(belief.weights) == len(belief) and abs(sum(belief.weights) - 1) < 1e-9
    few, weights = belief.sample(len(belief))
    assert len(few) == len(belief) and weights == sorted(belief.weights, reverse=True)
    drawn, weights = belief.sample(5)
    assert len({key_of(b) for b in drawn}) == 5 and abs(sum(weights) - 1) < 1e-9
    assert weights == sorted(weights, reverse=True)


# -- the history checks -----------------------------------------------------------------------

START_W = "********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_history_contradictions():
    boards, moves = random_game(11, 12)
    good = history(fog_turns(boards, moves, "w")[-1].command)
    check_history(good)
    v = good.views
    with pytest.raises(ValueError, match="not allowed"):
        check_history(FogHistory(v[:2], good.lost[:2], ("e2e5",)))
    with pytest.raises(ValueError, match="fullmove"):
        check_history(FogHistory((v[0], v[2]), good.lost[:2], good.moves[:1]))
    black = fog.view(Board("fogofwar"), "b")
    with pytest.raises(ValueError, match="view 2 is b's"):
        check_history(FogHistory((v[0], black), good.lost[:2], good.moves[:1]))
    with pytest.raises(ValueError, match="visible"):
        check_history(FogHistory(v[:1], (frozenset({"e2"}),), ()))
    # The own pieces after a move must be those the move left (a knight that did not move).
    after = fog.parse_view_fen(
        "********/********/********/********/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
    with pytest.raises(ValueError, match="own pieces"):
        check_history(FogHistory((fog.parse_view_fen(START_W), after), (frozenset(),) * 2,
                                 ("g1f3",)))


# -- the search --------------------------------------------------------------------------------

def fog_engine(h: FogHistory) -> Engine:
    e = Engine("fogofwar")
    e.set_fog_position(h)
    return e


def single_view(fen: str) -> FogHistory:
    return FogHistory((fog.parse_view_fen(fen),), (frozenset(),), ())


def test_takes_a_visible_king():
    """docs/rules/fog.md: the game ends when a king is captured. A king in sight is taken
    without a search."""
    board = Board("fogofwar", chess_fen({"e1": "K", "d1": "Q", "d8": "k", "a7": "p"}, "w"))
    h = single_view(fog.view(board, "w").fen)
    assert king_capture(h, fog.view_moves(h.last), VARIANT) == "d1d8"
    best, infos = fog_engine(h).search_sync(GoLimits(depth=3))
    assert best.move == "d1d8"
    assert any(i.string == "fog king capture" for i in infos)


def test_keeps_the_king_covered():
    """The rook on e2 shields the king from the rook on e8; taking the knight on a2 would
    leave the king capturable in every sample: vetoed, and scored as a loss."""
    board = Board("fogofwar", chess_fen({"e1": "K", "e2": "R", "h2": "P", "g2": "P",
                                         "e8": "r", "a2": "n", "g8": "k", "h7": "p"}, "w"))
    h = single_view(fog.view(board, "w").fen)
    assert "e2a2" in fog.view_moves(h.last)
    best, infos = fog_engine(h).search_sync(GoLimits(depth=2))
    assert best.move in fog.view_moves(h.last)
    assert not particles.king_exposed(board, [best.move])[best.move], best.move


@pytest.mark.parametrize("seed", range(5))
def test_bestmove_is_a_view_move(seed):
    """Across random fog games (about 50 positions in all), the engine answers each
    position fog message with a move its last view allows, which is a legal move of the
    true position; it reports its belief and a scored info line."""
    boards, moves = random_game(60 + seed, 44)
    engine = Engine("fogofwar")
    for side in "wb":
        for turn in fog_turns(boards, moves, side)[::4]:
            h = history(turn.command)
            engine.set_fog_position(h)
            best, infos = engine.search_sync(GoLimits(nodes=20000))
            assert best.move in fog.view_moves(h.last)
            assert best.move in turn.board.legal_moves()
            strings = [i.string for i in infos if i.string]
            assert any(s.startswith("fog belief ") for s in strings) or \
                strings == ["fog king capture"], strings
            scored = [i for i in infos if not i.string and i.depth > 0]
            assert scored or strings == ["fog king capture"]
            assert all(abs(i.score) < MATE_BOUND for i in scored)   # a mean, never a mate


def test_means_weigh_the_samples():
    """A sample nine times likelier counts nine times more: a move that wins a pawn there
    and loses a queen in the unlikely sample is better than standing still (the plain
    mean would say the opposite)."""
    tally = _Tally([0.9, 0.1])
    tally.commit(0, {"grab": 100, "wait": 0})
    tally.commit(1, {"grab": -800, "wait": 0})
    assert tally.means(["grab", "wait"]) == [(0.9 * 100 - 0.1 * 800, "grab"), (0.0, "wait")]


def test_tempered_weights_make_a_rare_loss_count():
    """The means take the belief's weights raised to TEMPER: with 0.5, nine to one counts
    three to one, so a pawn won in the likely sample no longer pays for a queen lost in
    the unlikely one (the belief underrates threats: docs/strength.md)."""
    weights = _temper([0.9, 0.1])
    assert sum(weights) == pytest.approx(1.0)
    assert weights[0] / weights[1] == pytest.approx(9 ** TEMPER)
    assert _temper([0.5, 0.3, 0.2]) == pytest.approx(
        [w ** TEMPER / sum(x ** TEMPER for x in (0.5, 0.3, 0.2)) for w in (0.5, 0.3, 0.2)])
    tally = _Tally(weights)
    tally.commit(0, {"grab": 100, "wait": 0})
    tally.commit(1, {"grab": -800, "wait": 0})
    assert [move for _, move in tally.means(["grab", "wait"])] == ["wait", "grab"]


def test_the_search_weighs_samples_tempered(monkeypatch):
    """think_fog hands the tally the belief's sample weights tempered, not as drawn (they
    differ where the set is small or has heavy particles; thinned to MAX_SAMPLES from a
    large set of light ones, every sample weighs alike either way)."""
    seen, drawn = [], []
    real_tally, real_sample = fogsearch._Tally, Belief.sample

    def tally(weights):
        seen.append(list(weights))
        return real_tally(weights)

    def sample(self, k):
        boards, weights = real_sample(self, k)
        drawn.append(list(weights))
        return boards, weights

    monkeypatch.setattr(fogsearch, "_Tally", tally)
    monkeypatch.setattr(Belief, "sample", sample)
    boards, moves = random_game(3, 16)          # a belief of nine, four weights
    h = history(fog_turns(boards, moves, "w")[-1].command)
    fog_engine(h).search_sync(GoLimits(nodes=5000))
    assert drawn and len(drawn[0]) > 1 and len(set(drawn[0])) > 1
    assert seen == [pytest.approx(_temper(drawn[0]))] and seen[0] != pytest.approx(drawn[0])


def test_scores_stay_apart_in_a_large_lead():
    """Fifteen pawns up, winning a rook more still beats a quiet move (a fixed clip at
    1500 made them equal); a mate in a sample is a swing of SWING from the sample's
    static evaluation, and losing the king is never worth more than -SWING."""
    tally = _Tally([0.5, 0.5, 1.0])
    tally.bases = {0: 1500, 1: 1500}
    tally.commit(0, {"quiet": 1520, "takes": 2010, "mates": MATE_BOUND + 5, "hangs": 1480})
    tally.commit(1, {"quiet": 1510, "takes": 2000, "mates": 1600, "hangs": -MATE_BOUND - 5})
    ranked = [move for _, move in tally.means(["quiet", "takes", "mates", "hangs"])]
    assert ranked == ["mates", "takes", "quiet", "hangs"]
    means = dict((move, score) for score, move in tally.means(["mates", "hangs"]))
    assert means["mates"] == (1500 + SWING + 1600) / 2
    assert means["hangs"] == (1480 - SWING) / 2
    tally.bases = {2: -3000}
    tally.commit(2, {"hangs": -MATE_BOUND - 5, "mates": MATE_BOUND + 5})
    assert tally.scores["hangs"][2] == -3000 - SWING and tally.scores["mates"][2] == SWING


def test_own_clock_only():
    """`go` may carry only the side's own clock (docs/protocol.md): btime/binc for Black."""
    boards, moves = random_game(5, 9)
    turn = fog_turns(boards, moves, "b")[-1]
    engine = fog_engine(history(turn.command))
    best, infos = engine.search_sync(GoLimits(btime=2000, binc=20, nodes=20000))
    assert best.move in turn.board.legal_moves()


def test_true_position_still_searched_in_fogofwar():
    """`position startpos ... moves` in fogofwar is analysis of the true position."""
    engine = Engine("fogofwar")
    engine.set_fog_position(single_view(START_W))
    engine.set_position(None, ["e2e4", "d7d5"])
    assert engine.fog is None
    best, infos = engine.search_sync(GoLimits(depth=3))
    assert best.move in engine.board.legal_moves()
    assert not any(i.string.startswith("fog") for i in infos)


def test_searches_are_deterministic_with_node_limits():
    boards, moves = random_game(8, 20)
    turn = fog_turns(boards, moves, "w")[-1]
    got = []
    for _ in range(2):
        engine = fog_engine(history(turn.command))
        best, infos = engine.search_sync(GoLimits(nodes=5000))
        got.append((best.move, [i.string for i in infos if i.string]))
    assert got[0] == got[1]


def test_internal_error_still_answers_a_view_move(monkeypatch):
    """A search that fails still answers (engine.py's rescue), and in fog with a move the
    view allows: the view board draws fog as empty, so its own first move here, e4e5, is
    a push into the hidden pawn on e5."""
    import engine.engine as engine_module

    def broken(*args, **kwargs):
        raise RuntimeError("test")

    monkeypatch.setattr(engine_module, "think_fog", broken)
    board = Board("fogofwar", chess_fen({"h8": "K", "e4": "P", "e5": "p", "a1": "k"}, "w"))
    h = single_view(fog.view(board, "w").fen)
    assert fog.view_board(h.last).legal_moves()[0] == "e4e5"
    best, infos = fog_engine(h).search_sync(GoLimits(depth=1))
    assert best.move in fog.view_moves(h.last)
    assert any(i.string.startswith("error internal: search:") for i in infos)
