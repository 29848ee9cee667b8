"""Gliński stalemate in the search (docs/rules/hexagonal.md, End of the game): stalemating the
opponent scores 3/4, being stalemated 1/4, so the search must value stalemating above a
draw and below a win, and being stalemated below a draw and above a loss.

The issue: "a position where the engine can choose between a draw by repetition and a
stalemate of the opponent picks the stalemate."

How the positions were found
----------------------------
* The black king in the f11 corner has five neighbours (f10, e10, g10, e9, g9); a white
  king on f9 covers all five without touching f11 (f9 is two cells away along the file).
  Trying every cell next to f9 for the white king (f8, g8, e8, h8, d8, g7, e7) with
  ``Board`` showed that from each one the move to f9 is the only stalemating move; f8 was
  taken.
* Black gets extra material that can never move: pawn stacks b1/b2/b3 and k1/k2/k3 (a
  white pawn on rank 1 with two black pawns on top of it in the same file; the capture
  cells of all three are empty). Black is two pawns up, so White's ordinary moves score
  below zero, but far from White's king, so the search does not win them back quickly.
  A first try with the stacks on c3/c4/c5 let the white king eat them (+109), which would
  have made the test weaker.
* The repetition: the game starts from the position Q (white king on f7, Black to move)
  and cycles Kf11-f10, Kf7-f8, Kf10-f11, Kf8-f7 once, then Kf11-f10, Kf7-f8, Kf10-f11. In
  the position P reached (White: Kf8, to move) Kf8-f7 repeats Q a third time (threefold,
  a draw) and Kf8-f9 stalemates Black. Searching with ``searchmoves`` shows: Kf8-f7 scores
  0, every other move but the stalemate scores at most 0 (the engine then takes the draw),
  and Kf8-f9 scores +191 (``stalemate_cp(0.75)``).
* The mirror (colours swapped, board turned) is built with ``testkit.mirror_fen`` and
  ``mirror_move``.
* "Stalemated in one": the black king on f11 is boxed by the white king on f9, the stacks
  are blocked, and Black's last mobile unit is the pawn h4, which can only step to h3 (then
  it is blocked by the white pawn h2). White keeps a bishop for a waiting move. Black's
  only move is h4-h3, after which any bishop move stalemates Black. Bishop cells were tried
  on the first ranks: on d1 the bishop mates instead (Bxb3+ along b3-f11), on c1 the
  search (depth 8) prefers to release the king and play on (+313); e2 gives the clean
  case used here.
"""
from __future__ import annotations

import pytest

from engine.eval_tables import stalemate_cp
from searchkit import MATE_BOUND, Board, after, final, search
from engine.geometry import hexagon
from testkit import hex_fen, mirror_fen, mirror_move

G = hexagon()
DEPTH = 8
GLINSKI_CP = -stalemate_cp(0.75)       # what stalemating the opponent is worth (+191)

LOCKED = {"b1": "P", "b2": "p", "b3": "p", "k1": "P", "k2": "p", "k3": "p"}
# Q: the position that gets repeated (white king f7, Black to move).
Q_FEN = hex_fen({"f11": "k", "f7": "K", **LOCKED}, side="b")
CYCLE = ["f11f10", "f7f8", "f10f11", "f8f7", "f11f10", "f7f8", "f10f11"]
STALEMATE = "f8f9"
REPEAT = "f8f7"


def scenario(colour: str):
    """(start fen, moves, stalemating move, repeating move, expected stalemate result)."""
    if colour == "white":
        return Q_FEN, CYCLE, STALEMATE, REPEAT, "3/4-1/4"
    q = mirror_fen(Board("hexagonal", Q_FEN))
    return (q, [mirror_move(G, m) for m in CYCLE], mirror_move(G, STALEMATE),
            mirror_move(G, REPEAT), "1/4-3/4")


@pytest.mark.parametrize("colour", ["white", "black"])
def test_the_position_offers_stalemate_or_repetition(colour):
    fen, moves, stalemate, repeat, result = scenario(colour)
    b = Board("hexagonal", fen)
    for m in moves:
        b.push(m)
    assert b.outcome() is None
    assert b.repetitions() == 1                    # the current position: second time
    stalemating = [m for m in b.legal_moves() if (o := after(b, [m]).outcome()) is not None
                   and o.termination == "stalemate"]
    assert stalemating == [stalemate]
    o = after(b, [stalemate]).outcome()
    assert o.result == result
    assert after(b, [repeat]).outcome().termination == "threefold repetition"
    assert after(b, [repeat]).outcome().result == "1/2-1/2"


@pytest.mark.parametrize("colour", ["white", "black"])
def test_engine_stalemates_rather_than_repeat(colour):
    fen, moves, stalemate, repeat, result = scenario(colour)
    best, infos, e = search("hexagonal", fen, moves, depth=DEPTH)
    last = final(infos)
    assert best.move == stalemate, last.pv
    assert last.score == GLINSKI_CP
    assert 0 < last.score < MATE_BOUND
    o = after(e.board, [best.move]).outcome()
    assert o.termination == "stalemate"
    assert o.result == result


@pytest.mark.parametrize("colour", ["white", "black"])
def test_without_the_stalemate_the_engine_takes_the_draw(colour):
    """The repetition scores exactly 0; with the stalemate excluded, nothing is better
    than about a draw. So the stalemate is chosen for its own value, not for material."""
    fen, moves, stalemate, repeat, _ = scenario(colour)
    _, infos, e = search("hexagonal", fen, moves, depth=DEPTH, searchmoves=[repeat])
    assert final(infos).score == 0
    others = [m for m in e.board.legal_moves() if m != stalemate]
    _, infos, _ = search("hexagonal", fen, moves, depth=DEPTH, searchmoves=others)
    assert final(infos).score <= 20


def test_hex_prefers_a_win_to_a_stalemate():
    """The same corner with a white rook on e1 added: Kf8-f9 still stalemates (3/4), but a
    rook up White should play on for the win (1)."""
    fen = hex_fen({"f11": "k", "f8": "K", "e1": "R", **LOCKED})
    b = Board("hexagonal", fen)
    assert after(b, [STALEMATE]).outcome().termination == "stalemate"
    best, infos, _ = search("hexagonal", fen, depth=6)
    last = final(infos)
    assert best.move != STALEMATE
    assert last.score > GLINSKI_CP + 100
    _, infos, _ = search("hexagonal", fen, depth=6, searchmoves=[STALEMATE])
    assert final(infos).score == GLINSKI_CP


def test_chess_stalemate_is_only_a_draw():
    """Chess analogue: 7k/8/7K/6r1/8/8/8/6Q1 w (found by a random K+Q v K+R search with
    python-chess for a capture that stalemates). Both Qxg5 and Kxg5 win the rook, but
    Qxg5 stalemates (a draw, 0); the engine must take with the king and win."""
    fen = "7k/8/7K/6r1/8/8/8/6Q1 w - - 0 1"
    b = Board("chess", fen)
    assert after(b, ["g1g5"]).outcome().termination == "stalemate"
    assert after(b, ["g1g5"]).outcome().result == "1/2-1/2"
    assert after(b, ["h6g5"]).outcome() is None
    best, infos, _ = search("chess", fen, depth=DEPTH)
    last = final(infos)
    assert best.move != "g1g5"
    assert last.score > 500
    _, infos, _ = search("chess", fen, depth=DEPTH, searchmoves=["g1g5"])
    assert final(infos).score == 0


STALEMATED_IN_ONE = {"f11": "k", "f9": "K", "h4": "p", "h2": "P", "e2": "B", **LOCKED}


@pytest.mark.parametrize("colour", ["white", "black"])
def test_stalemated_in_one_scores_between_loss_and_draw(colour):
    fen = hex_fen(STALEMATED_IN_ONE, side="b")
    if colour == "black":
        fen = mirror_fen(Board("hexagonal", fen))
    b = Board("hexagonal", fen)
    (only,) = b.legal_moves()
    replies = after(b, [only])
    assert any(after(replies, [m]).outcome() is not None
               and after(replies, [m]).outcome().termination == "stalemate"
               for m in replies.legal_moves())
    best, infos, e = search("hexagonal", fen, depth=DEPTH)
    last = final(infos)
    assert best.move == only
    assert -MATE_BOUND < last.score < -50           # worse than a draw, better than a loss
    end = after(e.board, last.pv)
    if end.outcome() is not None and end.outcome().termination == "stalemate":
        assert last.score == -GLINSKI_CP
