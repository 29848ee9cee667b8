"""The rest of the search's contract: MultiPV, searchmoves, node limits, forced and
finished positions, draws by repetition and by the fifty-move rule, and royal capture in
fog of war. Fixed depths and node counts only, never the clock."""
from __future__ import annotations

import pytest

from searchkit import MATE, MATE_BOUND, Board, Engine, GoLimits, after, final, material, search
from testkit import chess_fen, hex_fen

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8"
HANGING_QUEEN = "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


# -- MultiPV and searchmoves -----------------------------------------------------------------
@pytest.mark.parametrize("variant, fen", [("chess", MIDDLEGAME), ("grand", None),
                                          ("hexagonal", None)])
def test_multipv_gives_distinct_lines_in_order(variant, fen):
    e = Engine(variant)
    e.multipv = 3
    e.set_position(fen, [])
    best, infos = e.search_sync(GoLimits(depth=5))
    last_depth = max(i.depth for i in infos)
    lines = {i.multipv: i for i in infos if i.depth == last_depth and not i.bound}
    assert sorted(lines) == [1, 2, 3]
    firsts = [lines[k].pv[0] for k in (1, 2, 3)]
    assert len(set(firsts)) == 3
    scores = [lines[k].score for k in (1, 2, 3)]
    assert scores == sorted(scores, reverse=True)
    assert best.move == firsts[0]
    assert set(firsts) <= set(e.board.legal_moves())


def test_multipv_larger_than_the_move_count_is_capped():
    fen = "k7/8/8/8/8/8/6q1/7K w - - 0 1"          # only Kxg2
    e = Engine("chess")
    e.multipv = 5
    e.set_position(fen, [])
    best, infos = e.search_sync(GoLimits(depth=3))
    assert best.move == "h1g2"
    assert {i.multipv for i in infos} == {1}


def test_searchmoves_restricts_the_root():
    allowed = ["a2a3", "h2h3"]
    best, infos, _ = search("chess", HANGING_QUEEN, depth=5, searchmoves=allowed)
    assert best.move in allowed
    assert all(i.pv[0] in allowed for i in infos if i.pv)
    # the unrestricted search takes the queen instead
    free, _, _ = search("chess", HANGING_QUEEN, depth=5)
    assert free.move == "f3h4"


def test_searchmoves_with_a_single_move_returns_it():
    best, infos, _ = search("chess", HANGING_QUEEN, depth=4, searchmoves=["b1c3"])
    assert best.move == "b1c3"
    _, free, _ = search("chess", HANGING_QUEEN, depth=4)
    assert final(infos).score < final(free).score - 300   # it leaves the queen alone


# -- limits ------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["chess", "grand", "hexagonal"])
def test_node_limit_stops_near_the_limit(variant):
    e = Engine(variant)
    e.set_position(None, [])
    best, infos = e.search_sync(GoLimits(nodes=5000))
    assert best.move in e.board.legal_moves()
    assert infos
    assert max(i.nodes for i in infos) <= 5000 + 5000
    assert e._searcher.nodes <= 5000 + 5000


def test_one_legal_move_is_returned():
    fen = "k7/8/8/8/8/8/6q1/7K w - - 0 1"
    assert Board("chess", fen).legal_moves() == ["h1g2"]
    best, _, _ = search("chess", fen, depth=6)
    assert best.move == "h1g2"


def test_one_legal_move_in_hex():
    """The white king in the a1 corner is checked by a queen on a2 (found by trying queen
    cells with the Board): taking it is the only legal move."""
    fen = hex_fen({"a1": "K", "a2": "q", "f10": "k", "k7": "p"})
    assert Board("hexagonal", fen).legal_moves() == ["a1a2"]
    best, _, _ = search("hexagonal", fen, depth=5)
    assert best.move == "a1a2"


# -- finished games ------------------------------------------------------------------------------
FINISHED = [
    # fool's mate: White is checkmated
    pytest.param("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                 "checkmate", id="chess-mate"),
    pytest.param("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate", id="chess-stalemate"),
    # the hex corner: black king f11, white king f9, locked pawn stacks (Black stalemated)
    pytest.param("hexagonal", hex_fen({"f11": "k", "f9": "K", "k1": "P", "k2": "p",
                                       "k3": "p"}, side="b"),
                 "stalemate", id="hex-stalemate"),
    pytest.param("hexagonal", hex_fen({"f11": "k", "f9": "Q", "g1": "K", "k7": "p"},
                                      side="b"),
                 "checkmate", id="hex-mate"),
]


@pytest.mark.parametrize("variant, fen, termination", FINISHED)
def test_finished_game_returns_no_move(variant, fen, termination):
    assert Board(variant, fen).outcome().termination == termination
    best, infos, _ = search(variant, fen, depth=5)
    assert best.move is None
    assert best.ponder is None
    assert len(infos) == 1 and infos[0].depth == 0
    score = infos[0].score
    if termination == "checkmate":
        assert score <= -MATE_BOUND
    elif variant == "hexagonal":                   # stalemated: 1/4, between loss and draw
        assert -MATE_BOUND < score < 0
    else:
        assert score == 0


# -- draws -------------------------------------------------------------------------------------
# White is a rook (and more) down but has the classic queen perpetual against the king
# walled in by its own g-pawn: Qxh5+ Kg8 Qe8+ Kh7 Qh5+ ... Found by trying queen squares
# and black pawn pairs around a black king on g8/h8 with the engine at depth 6, then
# checked at depth 8.
PERPETUAL = "7k/1q4p1/8/7p/8/r7/5PPQ/6K1 w - - 0 1"


def test_perpetual_check_scores_a_draw():
    b = Board("chess", PERPETUAL)
    assert material(b) <= -5
    best, infos, e = search("chess", PERPETUAL, depth=8)
    last = final(infos)
    assert -50 <= last.score <= 50, last
    assert after(b, [best.move]).is_check()
    # White's moves along the PV are all checks
    board = b.copy()
    for ply, m in enumerate(last.pv):
        board.push(m)
        if ply % 2 == 0:
            assert board.is_check(), (ply, m)
    # without the checks White is lost
    quiet = [m for m in b.legal_moves() if not after(b, [m]).is_check()]
    _, infos, _ = search("chess", PERPETUAL, depth=6, searchmoves=quiet)
    assert final(infos).score < -300


# Repetition from the game history: White (a rook down) reaches, for the second time, the
# position P (Ke1 v Ke8) after the kings shuffled e1-d1 / e8-d8. Ke1-d1 now repeats the
# position after it a third time: a draw by the rules, and the worse side should take it.
REP_START = chess_fen({"d1": "K", "h2": "P", "e8": "k", "a7": "r", "h7": "p"}, side="b")
REP_MOVES = ["e8d8", "d1e1", "d8e8", "e1d1", "e8d8", "d1e1", "d8e8"]


def test_threefold_repetition_from_the_game_history():
    b = Board("chess", REP_START)
    for m in REP_MOVES:
        b.push(m)
    assert b.outcome() is None and b.repetitions() == 1
    assert after(b, ["e1d1"]).outcome().termination == "threefold repetition"
    _, infos, _ = search("chess", REP_START, REP_MOVES, depth=6, searchmoves=["e1d1"])
    assert final(infos).score == 0
    best, infos, _ = search("chess", REP_START, REP_MOVES, depth=6)
    assert abs(final(infos).score) <= 20          # the draw is found
    others = [m for m in b.legal_moves() if m != "e1d1"]
    _, infos, _ = search("chess", REP_START, REP_MOVES, depth=6, searchmoves=others)
    assert final(infos).score < -300              # anything else is lost


# Fifty-move rule: White (king and knight against queen and rook) has played 99 plies
# without a capture or pawn move. Any king or knight move makes it 100: a draw. The pawn
# move a2-a3 would reset the clock and lose.
FIFTY = chess_fen({"g1": "K", "b1": "N", "a2": "P", "g8": "k", "d5": "q", "d8": "r"},
                  halfmove=99, fullmove=120)


def test_fifty_move_rule_draw_is_taken_by_the_worse_side():
    b = Board("chess", FIFTY)
    assert b.outcome() is None
    quiet = [m for m in b.legal_moves() if m[:2] in ("g1", "b1")]
    assert quiet and all(after(b, [m]).outcome().termination == "fifty-move rule"
                         for m in quiet)
    best, infos, _ = search("chess", FIFTY, depth=6)
    assert best.move[:2] in ("g1", "b1"), best
    assert abs(final(infos).score) <= 50
    # with a fresh clock the same position is lost
    fresh = FIFTY.replace(" 99 120", " 0 120")
    _, infos, _ = search("chess", fresh, depth=6)
    assert final(infos).score < -500


def test_mate_on_the_hundredth_ply_beats_the_fifty_move_rule():
    """FIDE 9.3 / Board.outcome: a mate delivered by the move that reaches halfmove 100
    is a mate, not a fifty-move draw."""
    fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 80"
    b = Board("chess", fen)
    assert after(b, ["d1d8"]).outcome().termination == "checkmate"
    best, infos, _ = search("chess", fen, depth=4)
    assert best.move == "d1d8"
    assert final(infos).mate_in == 1


@pytest.mark.parametrize("fen", [
    # halfmove 99: f8f9 both reaches the fifty-move limit and stalemates Black
    "k/3/5/3K3/9/11/11/11/9p1/9p1/9P1 w - 99 1",
    # bare kings: f8f9 stalemates; "only the two kings left" must not pre-empt it
    "k/3/5/3K3/9/11/11/11/11/11/11 w - 0 1",
])
def test_hex_stalemate_takes_precedence_over_rule_draws(fen):
    """hexagonal.md: stalemate scores 3/4 for the stalemating side. Board.outcome() lets
    stalemate take precedence over the fifty-move rule and bare kings; the search agrees,
    so it values f8f9 at the stalemate's +191 instead of a draw's 0."""
    b = Board("hexagonal", fen)
    assert after(b, ["f8f9"]).outcome().result == "3/4-1/4"
    best, infos, _ = search("hexagonal", fen, depth=4)
    assert best.move == "f8f9"
    assert final(infos).score == 191


# -- fog of war: royal capture -----------------------------------------------------------------
@pytest.mark.parametrize("fen, capture", [
    # The rook takes the king rather than the knight taking the queen.
    ("4k3/8/8/8/7q/5N2/8/4R1K1 w - - 0 1", "e1e8"),
    # Black to move: the queen takes the white king along h4-e1.
    ("4k3/8/8/8/7q/8/8/4K3 b - - 0 1", "h4e1"),
])
def test_fog_of_war_king_capture(fen, capture):
    b = Board("fogofwar", fen)
    assert capture in b.legal_moves()
    assert after(b, [capture]).outcome().termination == "king captured"
    best, infos, _ = search("fogofwar", fen, depth=4)
    last = final(infos)
    assert best.move == capture
    assert last.mate_in == 1
    assert last.score == MATE - 1


# -- a stop that comes before depth 1 is finished ---------------------------------------------
@pytest.mark.parametrize("variant, fen, good", [
    # Black's queen on h4 hangs to the knight; the first generated move is not Nxh4.
    ("chess", HANGING_QUEEN, {"f3h4"}),
])
def test_a_stop_before_depth_one_still_answers_a_searched_move(variant, fen, good):
    from engine.deepening import rescue
    from engine.eval_tables import eval_tables
    from engine.search import Searcher
    from engine.tt import TranspositionTable
    board = Board(variant, fen)
    searcher, tt = Searcher(), TranspositionTable(1)
    root = searcher.set_root(board, eval_tables(variant), tt)
    assert root[0] not in good              # otherwise the test could not fail
    searcher.new_search()
    searcher.stop()                          # as if `stop` came before depth 1 ended
    score, pv = rescue(searcher, root)
    assert pv[0] in good and score > 500
    assert searcher.stopped                  # the rescue leaves the search stopped


def test_fog_of_war_quiescence_sees_a_king_capture():
    """At the horizon a move that leaves the king to be taken loses: quiescence tries the
    capture of the king (first: its material value is 0, but it ends the game). The king
    may take the rook on d5, but c6's pawn then takes the king."""
    fen = "7k/8/2p5/3r4/4K3/8/8/8 w - - 0 1"
    assert after(Board("fogofwar", fen), ["e4d5", "c6d5"]).outcome().termination == \
        "king captured"
    best, infos, _ = search("fogofwar", fen, depth=1)
    assert best.move != "e4d5"
    assert final(infos).score < -300             # a rook down, whatever the king does
