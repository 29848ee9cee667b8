"""The Engine facade: variant and position changes are all-or-nothing; the search runs
in a worker thread that ``stop``/``ponderhit`` always reach and that no setting can
deadlock. Waits are hang guards only."""
import threading
import time

import pytest

import engine.engine as engine_module
from engine import levels
from engine.deepening import GoLimits
from engine.engine import DEFAULT_VARIANT, Engine, MAX_PERFT_DEPTH

GUARD_S = 30.0

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_starts_in_chess():
    engine = Engine()
    assert engine.variant == DEFAULT_VARIANT == "chess"
    assert engine.board.fen() == CHESS_START


@pytest.mark.parametrize("name, canonical", [
    ("grand", "grand"), ("hex", "hexagonal"), ("Glinski", "hexagonal"), ("standard", "chess")])
def test_set_variant_resolves_aliases_and_resets(name, canonical):
    engine = Engine()
    engine.set_position(None, ["e2e4"])
    engine.set_variant(name)
    assert engine.variant == canonical
    assert engine.board.fen() == engine.board.variant.start_fen
    assert engine.board.move_stack == []


def test_unknown_variant_keeps_state():
    engine = Engine()
    engine.set_position(None, ["e2e4"])
    with pytest.raises(ValueError, match="unknown variant"):
        engine.set_variant("shogi")
    assert engine.variant == "chess" and engine.board.move_stack == ["e2e4"]


def test_set_position_plays_moves():
    engine = Engine("grand")
    engine.set_position(None, ["e3e5", "e8e6"])
    assert engine.board.move_stack == ["e3e5", "e8e6"]
    assert engine.board.turn == "w"


def test_set_position_is_atomic_on_illegal_move():
    engine = Engine()
    engine.set_position(None, ["e2e4"])
    before = engine.board.fen()
    with pytest.raises(ValueError, match=r"illegal move 'e7e4' \(move 2 of the list\)"):
        engine.set_position(None, ["d2d4", "e7e4"])
    assert engine.board.fen() == before and engine.board.move_stack == ["e2e4"]


def test_set_position_is_atomic_on_bad_fen():
    engine = Engine()
    engine.set_position(None, ["e2e4"])
    with pytest.raises(ValueError):
        engine.set_position("8/8/8 w - - 0 1", [])
    assert engine.board.move_stack == ["e2e4"]


def test_set_position_from_fen():
    engine = Engine()
    engine.set_position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ["e2e4"])
    assert engine.board.fen() == "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"


def test_new_game_returns_to_start_of_the_variant():
    engine = Engine("hexagonal")
    engine.set_position(None, ["f5f6"])
    engine.new_game()
    assert engine.variant == "hexagonal" and engine.board.move_stack == []


def test_perft_divide_totals():
    engine = Engine()
    assert sum(n for _, n in engine.perft_divide(3)) == 8902
    engine.set_variant("grand")
    assert sum(n for _, n in engine.perft_divide(2)) == 4225
    engine.set_variant("hexagonal")
    assert sum(n for _, n in engine.perft_divide(2)) == 2586


@pytest.mark.parametrize("depth", [0, -1, MAX_PERFT_DEPTH + 1])
def test_perft_divide_depth_bounds(depth):
    with pytest.raises(ValueError, match="perft depth"):
        Engine().perft_divide(depth)


KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def test_a_stopped_perft_lists_only_exact_counts():
    """Issue 13: perft counts in the worker thread and ``stop`` ends it. Whatever it has
    counted by then (kiwipete depth 5: 48 root moves of about 4 million leaves each), every
    root move it lists carries its true count, and the moves come in the divide's order."""
    engine = Engine()
    engine.set_position(KIWIPETE)
    done = []
    engine.perft(5, lambda divide, roots: done.append((divide, roots)))
    engine.wait(0.3)                    # let it count a few root moves (any number will do)
    engine.stop()
    engine.wait(GUARD_S)
    assert not engine.searching
    (divide, roots), = done
    order = [move for move, _ in engine.perft_divide(1)]
    assert roots == len(order) == 48 and [m for m, _ in divide] == order[:len(divide)]
    for move, count in divide:
        child = engine.board.copy()
        child.push(move)
        assert count == child.perft(4), move


def test_a_stopped_bench_reports_the_positions_done_and_no_total():
    """Issue 13: ``stop`` during ``bench`` (here right after its second position) drops the
    position under search and reports the ones done, with their true node counts and no
    signature."""
    full = []
    engine_module.bench.run(2, full.append)
    engine = Engine()
    lines = []

    def report(line):
        lines.append(line)
        if sum(x.startswith("bestmove ") for x in lines) == 2:
            engine.stop()

    engine.bench(2, report)
    engine.wait(GUARD_S)
    assert not engine.searching
    assert lines[:4] == full[:4]                    # Position 1, its result, Position 2, ...
    nodes = sum(int(x.split()[-1]) for x in full[:4] if x.startswith("bestmove "))
    assert len(lines) == 5 and lines[4].startswith(
        f"info string bench stopped after 2 of {len(engine_module.bench.POSITIONS)} "
        f"positions ({nodes} nodes in ")
    assert lines[4].endswith(" ms): no total")


# -- the search worker ---------------------------------------------------------------------
def test_search_sync_returns_a_legal_move_and_its_reports():
    engine = Engine("grand")
    best, infos = engine.search_sync(GoLimits(depth=3))
    assert best.move in engine.board.legal_moves()
    assert [info.depth for info in infos][-1] == 3 and infos[-1].pv[0] == best.move


def test_search_of_a_finished_game_has_no_move():
    engine = Engine()
    engine.set_position(None, "f2f3 e7e5 g2g4 d8h4".split())
    best, infos = engine.search_sync(GoLimits(depth=3))
    assert best.move is None and best.ponder is None
    assert [(info.depth, info.mate_in) for info in infos] == [(0, 0)]


def test_the_searched_board_is_a_copy():
    engine = Engine()
    engine.set_position(None, ["e2e4"])
    before = (engine.board.fen(), list(engine.board.move_stack))
    engine.search_sync(GoLimits(depth=4))
    assert (engine.board.fen(), engine.board.move_stack) == before


def start_late(monkeypatch, delay=0.05):
    """Make the worker start its search late, as a busy machine may: a stop or ponderhit
    sent at once then arrives before the search has begun."""
    real = engine_module.think

    def late_think(*args, **kwargs):
        time.sleep(delay)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine_module, "think", late_think)


def run_until_done(engine, limits, release):
    """Start a search, call ``release`` at once, and return its BestMoves (a hang guard
    fails the test instead of hanging it)."""
    result = []
    engine.go(limits, lambda info: None, result.append)
    release()
    engine.wait(GUARD_S)
    searching = engine.searching
    if searching:                          # leave nothing running behind a failed test
        engine._searcher.stop()
        for clock in engine._clock_box:
            clock.released.set()
    assert not searching, "the search missed the release and still runs"
    return result


def test_stop_reaches_a_search_that_has_not_begun(monkeypatch):
    start_late(monkeypatch)
    engine = Engine()
    for _ in range(3):
        result = run_until_done(engine, GoLimits(infinite=True), engine.stop)
        assert len(result) == 1 and result[0].move in engine.board.legal_moves()


def test_ponderhit_reaches_a_search_that_has_not_begun(monkeypatch):
    start_late(monkeypatch)
    engine = Engine()
    for _ in range(3):
        result = run_until_done(engine, GoLimits(ponder=True, movetime=20), engine.ponderhit)
        assert len(result) == 1 and result[0].move in engine.board.legal_moves()


@pytest.mark.parametrize("change", [
    lambda e: e.set_hash(8), lambda e: e.clear_hash(), lambda e: e.new_game(),
    lambda e: e.set_variant("grand"), lambda e: e.set_position(None, ["e2e4"])])
def test_changes_during_an_infinite_search_end_it_instead_of_waiting(change):
    engine = Engine()
    result = []
    engine.go(GoLimits(infinite=True), lambda info: None, result.append)
    done = threading.Event()
    worker = threading.Thread(target=lambda: (change(engine), done.set()), daemon=True)
    worker.start()
    finished = done.wait(GUARD_S)
    if not finished:
        engine.stop()
    assert finished, "the change waited for an infinite search (deadlock)"
    assert not engine.searching and len(result) == 1


def test_set_hash_range_is_checked_before_anything_happens():
    engine = Engine()
    for mb in (0, engine_module.MAX_HASH_MB + 1):
        with pytest.raises(ValueError, match="hash must be"):
            engine.set_hash(mb)


# -- strength ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", levels.LEVEL_NAMES)
def test_level_time_cap_applies_to_a_bare_go_only(name):
    engine = Engine()
    engine.set_level(name)
    assert engine.strength(GoLimits()) == levels.LEVELS[name]
    for limits in (GoLimits(depth=5), GoLimits(wtime=1000, btime=1000), GoLimits(nodes=10),
                   GoLimits(movetime=100), GoLimits(infinite=True), GoLimits(mate=2)):
        strength = engine.strength(limits)
        assert strength.max_think is None
        assert strength.max_depth == levels.LEVELS[name].max_depth
        assert strength.lines == levels.LEVELS[name].lines


def test_hard_thinks_at_most_one_and_a_half_seconds_on_a_bare_go():
    assert Engine().strength(GoLimits()).max_think == 1.5


def test_limit_strength_uses_elo_instead_of_level():
    engine = Engine()
    engine.set_level("beginner")
    engine.limit_strength, engine.elo = True, 2800
    assert engine.strength(GoLimits(depth=5)).name == "elo2800"
    engine.limit_strength = False
    assert engine.strength(GoLimits(depth=5)).name == "beginner"


def test_unknown_level_is_refused():
    engine = Engine()
    with pytest.raises(ValueError, match="unknown level"):
        engine.set_level("expert")
    assert engine.level == "hard"


def _nodes_to_depth(engine, depth: int = 7) -> int:
    """Nodes of a fixed-depth search of the current position, its hash table emptied
    (only the table: ``clear_hash`` forgets the history too)."""
    engine._tt.clear()
    infos, done = [], []
    engine.go(GoLimits(depth=depth), infos.append, done.append)
    engine.wait()
    assert done and done[0].move
    return max(i.nodes for i in infos)


def test_history_is_kept_across_the_moves_of_a_game_and_dropped_by_a_new_game():
    """A search after an earlier one of the same game orders its moves by what that one
    learnt (history, issue 15), so it differs from a fresh engine's; ``ucinewgame`` forgets
    it, and the search is then the fresh one's exactly."""
    line = ["e2e4", "e7e5", "g1f3", "b8c6"]
    fresh = Engine()
    fresh.set_position(None, line)
    alone = _nodes_to_depth(fresh)
    engine = Engine()
    engine.set_position(None, line[:2])
    _nodes_to_depth(engine)
    engine.set_position(None, line)
    assert _nodes_to_depth(engine) != alone
    engine.new_game()
    engine.set_position(None, line)
    assert _nodes_to_depth(engine) == alone
    _nodes_to_depth(engine)
    engine.clear_hash()
    assert _nodes_to_depth(engine) == alone
