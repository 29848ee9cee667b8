"""What the evaluation knows of endings whose material misleads (params' [endgame],
engine/evaluate.pyx ``endgame_scale``), on the hand-written evaluation and on the net as
searches use it: a lone minor piece's side wins nothing, a small lead without pawns wins
little, the wrong bishop with edge-file pawns draws against the king in the corner, a bare
king is driven to the edge (bishop and knight: to a corner of the bishop's colour) and
mated; the boards whose rules differ (Fog of War, the hexagon) keep their scores.
"""
from __future__ import annotations

import copy

import pytest

from engine.board import Board
from engine.eval_tables import build, eval_tables, load_params
from engine.evaluate import EvalTables, evaluate_board
from engine.search import Searcher
from engine.tt import TranspositionTable
from engine.variant import load_variant
from testkit import mirror_fen
from tests.protocol.uci_helpers import Driver


def unscaled(variant: str) -> EvalTables:
    """The variant's hand-written tables without any endgame rule."""
    params = copy.deepcopy(load_params(variant))
    params["endgame"] = {"minor": [], "wrong_bishop": ""}
    return EvalTables(build(load_variant(variant), params))


def scores(variant: str, fen: str) -> tuple[int, int, int]:
    """(hand-written with the rules, hand-written without, a search's static evaluation
    with the variant's net if it has one), side to move's view."""
    board = Board(variant, fen)
    searcher = Searcher()
    searcher.set_root(board, eval_tables(variant), TranspositionTable(1))
    return (evaluate_board(board, eval_tables(variant, None)),
            evaluate_board(board, unscaled(variant)), searcher.static_eval())


DRAWN = [
    ("k7/P7/8/8/8/4B3/8/6K1 w - - 0 1", "bishop of the wrong colour, the king on a8"),
    ("7k/8/6KP/1B6/8/8/8/8 w - - 0 1", "h-pawn, light bishop, the king on h8"),
    ("8/8/8/4k3/8/8/3NK3/8 w - - 0 1", "a lone knight"),
    ("8/8/8/4k3/8/8/3NK1N1/8 w - - 0 1", "two knights cannot force mate"),
]


@pytest.mark.parametrize("fen, why", DRAWN)
def test_endings_that_cannot_be_won_score_zero(fen, why):
    for position in (fen, mirror_fen(Board("chess", fen))):
        hand, plain, net = scores("chess", position)
        assert abs(plain) >= 100, why             # material alone says one side wins
        assert hand == 0 and net == 0, why


@pytest.mark.parametrize("fen, why", [
    ("8/8/4b3/4k3/8/8/3RK3/8 w - - 0 1", "a rook against a bishop"),
    ("8/8/4r3/4k3/8/8/3RK1N1/8 w - - 0 1", "rook and knight against a rook"),
])
def test_a_minor_piece_lead_without_pawns_wins_little(fen, why):
    for position in (fen, mirror_fen(Board("chess", fen))):
        hand, plain, _ = scores("chess", position)
        assert plain > 100 and 0 < hand <= plain * 14 // 64, why


@pytest.mark.parametrize("variant, fen, why", [
    ("chess", "k7/P7/8/8/8/3B4/8/6K1 w - - 0 1", "the bishop covers a8"),
    ("chess", "8/8/8/8/k7/P7/8/4B1K1 w - - 0 1", "the king is too far from a8"),
    ("chess", "k7/P7/8/8/8/4B3/7P/6K1 w - - 0 1", "a second pawn off the edge file"),
    ("chess", "8/8/4r3/4k3/8/8/3QK3/8 w - - 0 1", "a queen against a rook wins"),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "the start"),
    ("fogofwar", "8/8/8/4k3/8/8/3NK3/8 w - - 0 1", "fog: the king is captured, not mated"),
    ("hexagonal", "k/3/5/7/9/11/11/11/11/11/4NK5 w - 0 1", "hex: stalemate scores 3/4"),
])
def test_other_endings_keep_their_score(variant, fen, why):
    hand, plain, _ = scores(variant, fen)
    assert hand == plain, why


def test_grand_knows_the_lone_minor_but_not_the_chess_edge_file_rule():
    """Grand's pawns promote from the eighth rank to a piece their side lost: the
    edge-file rule is chess's only; a lone minor piece wins nothing on any board."""
    hand, plain, _ = scores("grand", "9k/10/10/10/10/10/10/10/3N6/K9 w - - 0 1")
    assert abs(plain) >= 100 and hand == 0
    hand, plain, _ = scores("grand", "k9/10/10/P9/10/10/10/4B5/10/9K w - - 0 1")
    assert hand == plain


def test_an_unknown_piece_in_the_endgame_table_is_refused():
    params = copy.deepcopy(load_params("chess"))
    params["endgame"] = {"minor": ["x"]}
    with pytest.raises(ValueError, match="endgame"):
        build(load_variant("chess"), params)


def test_the_engine_calls_the_wrong_bishop_a_draw():
    """Through UCI with the shipped net: the wrong bishop's side, a whole bishop and pawn
    up, is told the game is drawn (without the rule it said about +7)."""
    d = Driver()
    d.send("uci")
    d.send("position fen k7/P7/8/8/8/4B3/8/6K1 w - - 0 1")
    lines = d.go("go depth 10")
    info = [line for line in lines if " score cp " in line][-1].split()
    assert abs(int(info[info.index("cp") + 1])) <= 50


def static(variant: str, fen: str) -> tuple[int, int]:
    """(hand-written, a search's static evaluation with the net), side to move's view."""
    hand, _, net = scores(variant, fen)
    return hand, net


@pytest.mark.parametrize("variant, better, worse, why", [
    ("chess", "8/8/8/8/8/2K5/8/k1R5 b - - 0 1", "8/8/8/3k4/8/2K5/8/2R5 b - - 0 1",
     "rook: the bare king on the edge"),
    ("chess", "8/8/8/3k4/8/3K4/8/2R5 b - - 0 1", "8/8/8/3k4/8/8/8/2R3K1 b - - 0 1",
     "rook: the kings near each other"),
    ("chess", "8/8/8/8/8/2K5/8/k1BN4 b - - 0 1", "k7/8/2K5/8/8/8/8/2BN4 b - - 0 1",
     "dark bishop and knight: a1, not a8"),
    ("chess", "8/8/8/8/3N4/2K5/3B4/k7 b - - 0 1", "8/8/8/8/4k3/2K5/3B4/3N4 b - - 0 1",
     "dark bishop and knight: a1, not the centre"),
    ("chess", "k7/8/2K5/8/8/8/8/2NB4 b - - 0 1", "8/8/8/8/8/2K5/8/k1NB4 b - - 0 1",
     "light bishop and knight: a8, not a1"),
    ("grand", "k9/10/2K7/10/10/10/10/10/10/3R6 b - - 0 1",
     "10/10/10/10/4k5/10/2K7/10/10/3R6 b - - 0 1", "Grand, rook: the bare king on the edge"),
])
def test_a_bare_king_is_driven_to_the_edge(variant, better, worse, why):
    """The mop-up scores its positions alike for the hand-written evaluation and the net
    (which alone saw no progress there), and for either colour."""
    for good, bad in ((better, worse),
                      (mirror_fen(Board(variant, better)), mirror_fen(Board(variant, worse)))):
        for b, w in zip(static(variant, good), static(variant, bad)):
            assert b < w < 0, why                 # the bare king's side is to move


def test_the_hexagon_and_fog_have_no_mop_up():
    for variant, fen, other in [
        ("fogofwar", "k7/8/2K5/8/8/8/8/2R5 b - - 0 1", "8/8/8/3k4/8/2K5/8/2R5 b - - 0 1"),
    ]:
        hand, plain, _ = scores(variant, fen)
        assert hand == plain
        hand, plain, _ = scores(variant, other)
        assert hand == plain


def play_out(variant: str, fen: str, nodes: int, limit: int = 100) -> Board:
    """Quantum on both sides through UCI at a node limit, from ``fen`` until the game
    ends (mate, stalemate, the 50-move rule) or ``limit`` moves."""
    d = Driver()
    d.send("uci")
    d.send(f"setoption name UCI_Variant value {variant}")
    d.send("ucinewgame")
    board = Board(variant, fen)
    while board.outcome() is None and len(board.move_stack) < 2 * limit:
        d.send(f"position fen {fen} moves {' '.join(board.move_stack)}".rstrip())
        best = [line for line in d.go(f"go nodes {nodes}") if line.startswith("bestmove")]
        board.push(best[-1].split()[1])
    return board


@pytest.mark.parametrize("variant, fen, why", [
    ("chess", "8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1",
     "bishop and knight (drawn by the 50-move rule without the mop-up)"),
    ("chess", "8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1", "two bishops"),
    ("grand", "10/10/10/10/4k5/10/10/10/10/R3K5 w - - 0 1", "Grand: a rook on the 10 x 10 board"),
])
def test_the_engine_mates_a_bare_king(variant, fen, why):
    board = play_out(variant, fen, 20000)
    assert board.is_check() and board.outcome() is not None, why
    assert not board.legal_moves(), why
