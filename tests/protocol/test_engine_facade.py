"""The Engine facade: variant and position changes are all-or-nothing."""
import pytest

from engine.engine import DEFAULT_VARIANT, Engine, MAX_PERFT_DEPTH

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
