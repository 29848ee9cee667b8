"""Alea chess (chess with two dice): scenario tests citing docs/rules/alea.md (A1-A16, A19),
a simulation of the arbiter's rolls against the exact dice distribution, Alea FEN
round-trips over random play, and a property test against a re-statement of the rules on
python-chess.

States are written as Alea FENs through ``alea()``; every expected action set is spelled
out. The positions put White to move unless the test says otherwise.
"""
from __future__ import annotations

import random
from fractions import Fraction

import chess
import pytest

from engine.alea import (
    CASTLE, JOKER, MOVE, REROLL, Action, AleaState, apply, dice_distribution, dice_types,
    free_jokers, in_check, is_free_phase, is_promotion, legal_actions, needs_roll, outcome,
    playable_types, promotion_distribution, roll, roll_faces,
)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# White can move all four die types: knights, Bc1/Bf1, Rh1-g1, the queen.
OPEN = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 1"
# White: Ke1 Qd1 Ra1 Bc1 Nb1 Ph2 against Ke8 Pa7.
SMALL = "4k3/p7/8/8/8/8/7P/RNBQK3 w - - 0 1"
SMALL_ROOK = {"a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7"}
SMALL_KNIGHT = {"b1a3", "b1c3", "b1d2"}
SMALL_BISHOP = {"c1b2", "c1a3", "c1d2", "c1e3", "c1f4", "c1g5", "c1h6"}
SMALL_QUEEN = {"d1d2", "d1d3", "d1d4", "d1d5", "d1d6", "d1d7", "d1d8",
               "d1c2", "d1b3", "d1a4", "d1e2", "d1f3", "d1g4", "d1h5"}
SMALL_KING = {"e1d2", "e1e2", "e1f2", "e1f1"}
SMALL_PAWN = {"h2h3", "h2h4"}
# In check from Re7: Rh4-e4, Bb5-e2 and Nc1-e2 block, the king has d1 d2 f1 f2.
CHECKED = "k7/4r3/8/1B6/7R/8/P7/2N1K3 w - - 0 1"
CHECKED_KING = {"e1d1", "e1d2", "e1f1", "e1f2"}


def alea(fen: str, moves="8/8", last="-/-", jokers="4/4", rerolls="2/2", castle="1/1",
         follow="-/-", dice="-", mode="alea") -> AleaState:
    """A state from a FEN and the Alea fields (dice phase, nothing spent, by default)."""
    return AleaState.parse(f"{fen} {moves} {last} {jokers} {rerolls} {castle} {follow} "
                           f"{dice} {mode}")


def actions(state: AleaState, kind: str | None = None) -> set[str]:
    return {str(a) for a in legal_actions(state) if kind is None or a.kind == kind}


def moves(state: AleaState) -> set[str]:
    """The ordinary moves (no joker spent)."""
    return {a.move for a in legal_actions(state) if a.kind == MOVE}


def chess_legal(fen: str) -> set[str]:
    """python-chess's legal moves, castling excluded, promotion letters dropped."""
    b = chess.Board(fen)
    return {m.uci()[:4] for m in b.legal_moves if not b.is_castling(m)}


def play(state: AleaState, *steps) -> AleaState:
    """Apply steps: an action text, or (dice pair) to show dice before the next action."""
    for step in steps:
        state = state.with_dice(step) if isinstance(step, tuple) else apply(state, step)
    return state


# --- A1, A2: the board, check and the results --------------------------------------------

def test_a1_start_position_white_first_and_chess_moves():
    """A1: standard board and start position, White moves first; the pieces move as in
    chess (the free phase allows the 16 pawn and 4 knight moves)."""
    s = AleaState.start()
    assert s.board.fen() == START and s.board.turn == "w"
    assert moves(s) == chess_legal(START)
    assert s.fen() == START + " 0/0 -/- 4/4 2/2 1/1 -/- - alea"


def test_a2_a_move_leaving_the_king_attacked_is_never_legal():
    """A2, A8: the knight pinned by Re8 has no legal move, not even with a joker, so the
    knight is not a playable type and the dice show the rook twice."""
    s = alea("4r1k1/8/8/8/8/8/4N3/R3K3 w - - 0 1")
    assert playable_types(s) == {"r"}
    assert dice_distribution(s) == {("r", "r"): 1}
    s = s.with_dice(("r", "r"))
    assert moves(s) == {"a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1",
                        "a1c1", "a1d1", "e1d1", "e1d2", "e1f1", "e1f2"}
    assert not any(a.move.startswith("e2") for a in legal_actions(s))


def test_a2_checkmate_wins():
    """A2, A10: Fool's mate; no move answers the check whatever the dice (the free phase
    does not change that)."""
    s = alea("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", moves="2/2")
    assert legal_actions(s) == []
    assert outcome(s).result == "0-1" and outcome(s).termination == "checkmate"


def test_a2_stalemate_is_a_draw():
    """A2: Black (Ka8) has no legal move and is not in check."""
    s = alea("k7/8/1Q6/8/8/8/8/2K5 b - - 0 1")
    assert legal_actions(s) == []
    assert outcome(s).result == "1/2-1/2" and outcome(s).termination == "stalemate"


def test_a2_a13_a_safe_king_square_counts_as_a_move():
    """A2 with A13: the king moved last turn and nothing else can move (the pawn is
    blocked), yet its safe squares are moves, so this is no stalemate."""
    s = alea("4k3/8/8/8/8/p7/P7/K7 w - - 0 1", last="k/-")
    assert moves(s) == {"a1b1"}                            # b2 is attacked by a3
    assert outcome(s) is None


# --- A3: draws --------------------------------------------------------------------------------

def test_a3_threefold_repetition():
    """A3: the start position a third time (knights out and back, twice) is a draw."""
    s = AleaState.start()
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    for i, m in enumerate(shuffle):
        assert outcome(s) is None, i
        s = apply(s, m)
    assert outcome(s).termination == "threefold repetition"


def test_a3_fifty_moves():
    """A3: 100 plies without capture or pawn move."""
    s = alea("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert outcome(s) is None
    assert dice_distribution(s) == {("r", "r"): 1}
    s = play(s, ("r", "r"), "a1a2")
    assert outcome(s).termination == "fifty-move rule"


@pytest.mark.parametrize("fen, dead", [
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", True),           # K v K
    ("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", True),         # K+N v K
    ("4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", True),         # K+B v K
    ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", False),       # bishops of one colour: not listed
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", False),
    ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", False),
    ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", False),
])
def test_a3_insufficient_material(fen, dead):
    """A3: exactly K v K, K+N v K and K+B v K are dead (decided 7: nothing else)."""
    o = outcome(alea(fen))
    assert (o is not None and o.termination == "insufficient material") == dead


# --- A4 -----------------------------------------------------------------------------------

def test_a4_captured_pieces_are_gone():
    """A4: the queen takes the only black knight; knights are no longer a type Black can
    play, and Black (king alone) gets no dice."""
    s = alea("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1")
    assert dice_distribution(s) == {("q", "q"): 1}
    s = play(s, ("q", "q"), "d1d5")
    assert s.board.piece_at("d5") == "Q" and "n" not in s.board.fen().split()[0]
    assert playable_types(s) == set() and dice_distribution(s) == {None: 1}
    assert not needs_roll(s)


# --- A5: the free opening phase ------------------------------------------------------------

def test_a5_free_phase_any_piece_but_the_king_no_dice():
    """A5: in a side's first 8 moves no dice are rolled, any piece but the king moves, and
    only the castle joker may be used (decided 1)."""
    s = alea("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", moves="1/1")
    assert is_free_phase(s) and roll(s, random.Random(1)) is None
    assert dice_distribution(s) == {None: 1}
    assert moves(s) == chess_legal(s.board.fen()) - {"e1e2"}
    assert {a.kind for a in legal_actions(s)} == {MOVE}


def test_a5_castling_with_the_castle_joker_in_the_free_phase():
    """A5, A15: castling in the free phase, with the castle joker."""
    s = alea("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", moves="3/3")
    assert actions(s, CASTLE) == {"castle e1g1", "castle e1c1"}
    assert not actions(s, JOKER) and not actions(s, REROLL)
    after = apply(s, "castle e1g1")
    assert after.moves == (4, 3) and after.castle_jokers == (0, 1)


def test_a5_the_ninth_move_has_dice():
    """A5, A6: the 8th move is free, the 9th is rolled for."""
    s = alea(START, moves="7/7")
    assert is_free_phase(s)
    s = apply(s, "e2e4")
    assert s.moves == (8, 7) and is_free_phase(s)          # Black's 8th move is free
    s = apply(s, "e7e5")
    assert not is_free_phase(s) and needs_roll(s)
    with pytest.raises(ValueError, match="roll"):
        legal_actions(s)


def test_a5_a10_the_king_answers_a_check_in_the_free_phase():
    """A5, A10 (decided 1): the king may not move in the free phase, except to answer a
    check (here it is the only answer)."""
    s = alea("4k3/8/8/8/1b6/8/5P2/4K3 w - - 0 1", moves="3/3")
    assert moves(s) == {"e1d1", "e1e2", "e1f1"}


def test_a5_a13_the_king_moves_in_the_free_phase_when_nothing_else_can():
    """A5, A13: the pawn is blocked and there is nothing else: the king may move."""
    s = alea("4k3/8/8/8/8/p7/P7/4K3 w - - 0 1", moves="2/2")
    assert moves(s) == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}


# --- A6, A7: dice ---------------------------------------------------------------------------

def test_a6_die_faces_to_piece_types():
    """A6: 1 or 2 knight, 3 or 6 bishop, 4 rook, 5 queen; pairs are unordered."""
    assert dice_types(1, 2) == ("n", "n")
    assert dice_types(3, 6) == ("b", "b")
    assert dice_types(4, 5) == ("r", "q")
    assert dice_types(5, 1) == dice_types(1, 5) == ("n", "q")
    assert dice_types(6, 4) == ("b", "r")
    for bad in (0, 7, "1"):
        with pytest.raises(ValueError):
            dice_types(bad, 1)


def test_a7_dice_pick_the_types_pawns_and_king_are_free():
    """A7: with knight and rook shown: the knight, the rook, the pawn and the king move;
    the bishop and the queen do not."""
    s = alea(SMALL, jokers="0/0", rerolls="0/0", dice="nr")
    assert moves(s) == SMALL_PAWN | SMALL_KNIGHT | SMALL_ROOK | SMALL_KING
    assert actions(s) == moves(s)
    s = alea(SMALL, jokers="0/0", rerolls="0/0", dice="bq")
    assert moves(s) == SMALL_PAWN | SMALL_BISHOP | SMALL_QUEEN | SMALL_KING


# --- A8: automatic rerolls --------------------------------------------------------------------

def test_a8_four_playable_types_exact_distribution():
    """A8: both dice never show the same type; the 26 accepted ordered outcomes."""
    s = alea(OPEN)
    assert playable_types(s) == {"n", "b", "r", "q"}
    assert dice_distribution(s) == {
        ("n", "b"): Fraction(8, 26), ("n", "r"): Fraction(4, 26), ("n", "q"): Fraction(4, 26),
        ("b", "r"): Fraction(4, 26), ("b", "q"): Fraction(4, 26), ("r", "q"): Fraction(2, 26)}


def test_a8_a_type_that_is_gone():
    """A8: without a queen the dice never show it."""
    s = alea("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNB1KB1R w KQkq - 0 1")
    assert playable_types(s) == {"n", "b", "r"}
    assert dice_distribution(s) == {("n", "b"): Fraction(1, 2), ("n", "r"): Fraction(1, 4),
                                    ("b", "r"): Fraction(1, 4)}


def test_a8_a9_a_type_on_cooldown_is_rerolled():
    """A8, A9: the knights moved last turn, so no die shows a knight."""
    s = alea(OPEN, last="n/-")
    assert playable_types(s) == {"b", "r", "q"}
    assert dice_distribution(s) == {("b", "r"): Fraction(2, 5), ("b", "q"): Fraction(2, 5),
                                    ("r", "q"): Fraction(1, 5)}


def test_a8_two_playable_types_always_both_shown():
    """A8: with exactly two playable types both are shown, every time."""
    s = alea("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNB1KB1R w KQkq - 0 1", last="n/-")
    assert dice_distribution(s) == {("b", "r"): 1}
    rng = random.Random(7)
    assert {roll(s, rng) for _ in range(200)} == {("b", "r")}


def test_a8_blocked_types_and_one_playable_type_shown_twice():
    """A8 (decided): at the start only knights can move (bishops, rooks and queen are
    blocked), so both dice show a knight."""
    s = alea(START)
    assert playable_types(s) == {"n"}
    assert dice_distribution(s) == {("n", "n"): 1}
    rng = random.Random(3)
    faces = [roll_faces(s, rng) for _ in range(300)]
    assert {f for pair in faces for f in pair} == {1, 2}
    s = s.with_dice(("n", "n"))
    assert moves(s) == chess_legal(START)                  # pawns and knights


def test_a8_no_playable_type_no_dice():
    """A8 (decided): no type can move, so no dice are shown; the player moves a pawn or the
    king, and there is nothing to reroll."""
    s = alea("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1")
    assert playable_types(s) == set()
    assert dice_distribution(s) == {None: 1} and roll(s, random.Random(0)) is None
    assert not needs_roll(s)
    assert moves(s) == {"a2a3", "a2a4", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}
    assert not actions(s, REROLL)


# --- A9: cooldown ---------------------------------------------------------------------------

def test_a9_the_type_moved_last_turn_may_not_move():
    """A9: the rook moved last turn; with knight and rook shown only the knight moves."""
    s = alea(SMALL, last="r/-", jokers="0/0", dice="nr")
    assert moves(s) == SMALL_PAWN | SMALL_KNIGHT | SMALL_KING


def test_a9_a_pawn_move_lifts_the_cooldown():
    """A9: rook, then a pawn move: the rook may move again on the next turn."""
    s = alea(SMALL, last="r/-", jokers="0/0", dice="nr")
    s = apply(s, "h2h3")
    assert s.last_type == (None, None)
    s = play(s, "a7a6", ("n", "r"))                        # Black: no dice (king and pawn)
    assert {"a1a2", "a1a3", "a1a4", "a1a5", "a1a6"} <= moves(s)


def test_a9_the_king_may_not_move_two_turns_in_a_row():
    """A9, A12: the king moved last turn."""
    s = alea("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", last="k/-")
    assert moves(s) == {"a2a3", "a2a4"}
    s = apply(alea("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1"), "e1e2")
    assert s.last_type == ("k", None)


def test_a9_the_eighth_free_move_type_is_on_cooldown_on_the_ninth():
    """A9 (decided): the free phase ignores the cooldown, but the type of the 8th move is
    on cooldown for the 9th."""
    s = alea(START, moves="7/7", last="n/n")
    assert "g1f3" in moves(s)                              # the cooldown does not bind
    s = apply(apply(s, "g1f3"), "g8f6")
    assert s.moves == (8, 8) and s.last_type == ("n", "n")
    assert playable_types(s) == {"r"}                      # Nf3 and Nb1 could move
    assert dice_distribution(s) == {("r", "r"): 1}


def test_a9_a14_a_joker_move_sets_the_cooldown():
    """A9 (decided), A14: the queen moved with a free-move joker is on cooldown next."""
    s = alea(OPEN, dice="nb")
    assert "d1e2" not in moves(s) and "joker d1e2" in actions(s)
    s = apply(s, "joker d1e2")
    assert s.last_type == ("q", None) and s.jokers == (3, 4)


def test_a9_a15_castling_is_a_king_move_and_the_follow_up_overrides():
    """A9, A15: after castling the king is on cooldown, but the follow-up right lets the
    king (one step) or the castled rook move without dice on the next turn only."""
    s = alea("7k/7p/8/8/2B5/2N5/PPPPPPPP/R3K2R w KQ - 0 1")
    s = apply(s.with_dice(("n", "b")), "castle e1g1")
    assert s.last_type == ("k", None) and s.follow_up == (("f1", "g1"), None)
    assert s.castle_jokers == (0, 1)
    s = apply(s, "h7h6")                                    # Black: no dice
    assert playable_types(s) == {"n", "b", "r"}
    s = s.with_dice(("n", "b"))
    pawns = {f"{f}2{f}{r}" for f in "abdefgh" for r in "34"}
    knight = {"c3a4", "c3b5", "c3d5", "c3e4", "c3d1", "c3b1"}
    bishop = {"c4b3", "c4d3", "c4b5", "c4a6", "c4d5", "c4e6", "c4f7", "c4g8"}
    follow = {"f1e1", "f1d1", "f1c1", "f1b1", "g1h1"}
    assert moves(s) == pawns | knight | bishop | follow    # not Ra1, which did not castle
    # the right lapses after that turn, even unused
    s = play(s, "a2a3", "h6h5", ("n", "b"))
    assert s.follow_up == (None, None)
    assert moves(s) == {m for m in pawns if m[0] != "a"} | {"a3a4"} | knight | {"c3a2"} \
        | bishop | {"c4a2"} | {"g1h1"}


def test_a15_follow_up_after_the_rook_is_captured():
    """A15 (decided 2), A12: the castled rook was taken on f1; the king, which castled last
    turn, may still step anywhere (without the right only the capture of the bishop)."""
    fen = "7k/8/8/8/8/8/6PP/5bK1 w - - 0 1"
    pawns = {"g2g3", "g2g4", "h2h3", "h2h4"}
    assert moves(alea(fen, last="k/b", follow="f1g1/-")) == pawns | {"g1f1", "g1f2", "g1h1"}
    assert moves(alea(fen, last="k/b")) == pawns | {"g1f1"}


# --- A10: check ---------------------------------------------------------------------------

def test_a10_in_check_only_answers_cooldown_lifted_dice_fit():
    """A10: only answers; the rook moved last turn but may answer; the dice are rolled
    over the types that can answer (knight, bishop, rook; not the queen)."""
    s = alea(CHECKED, last="r/-")
    assert in_check(s)
    assert playable_types(s) == {"n", "b", "r"}
    assert dice_distribution(s) == {("n", "b"): Fraction(1, 2), ("n", "r"): Fraction(1, 4),
                                    ("b", "r"): Fraction(1, 4)}
    br = s.with_dice(("b", "r"))
    assert moves(br) == {"h4e4", "b5e2"} | CHECKED_KING
    assert actions(br, JOKER) == {f"joker {m}" for m in chess_legal(CHECKED)}
    assert actions(br, REROLL) == {"reroll"}
    assert moves(s.with_dice(("n", "b"))) == {"b5e2", "c1e2"} | CHECKED_KING


def test_a10_the_king_escapes_even_after_moving_last_turn():
    """A10, A12: king escapes are always allowed, the cooldown does not apply in check."""
    s = alea(CHECKED, last="k/-", dice="nr")
    assert moves(s) == {"h4e4", "c1e2"} | CHECKED_KING


def test_a10_checkmate_means_no_answer_whatever_the_dice():
    """A10: the union over every possible roll of the moves allowed is exactly the set of
    chess answers, so 'no answer whatever the dice' is chess's checkmate."""
    s = alea(CHECKED, last="r/-")
    union = set()
    for dice in dice_distribution(s):
        union |= moves(s.with_dice(dice))
    assert union == chess_legal(CHECKED)


def test_a10_no_type_can_answer_no_dice():
    """A10, A8: no piece can answer the check: no dice; the king must step away."""
    s = alea("4r2k/8/8/8/8/8/P7/1N2K3 w - - 0 1")
    assert in_check(s) and playable_types(s) == set()
    assert dice_distribution(s) == {None: 1}
    assert moves(s) == {"e1d1", "e1d2", "e1f1", "e1f2"}


# --- A11: promotion ------------------------------------------------------------------------

def test_a11_promotion_die():
    """A11: 1 knight, 2 bishop, 3-4 rook, 5-6 queen; the player does not choose."""
    assert promotion_distribution() == {"n": Fraction(1, 6), "b": Fraction(1, 6),
                                        "r": Fraction(2, 6), "q": Fraction(2, 6)}


def test_a11_a_promotion_move_carries_no_piece():
    """A11: one action a7a8; the arbiter's rolled piece is given to apply."""
    s = alea("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert moves(s) == {"a7a8", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}
    after = apply(s, "a7a8", promotion="r")
    assert after.board.piece_at("a8") == "R" and after.last_type == (None, None)
    for bad in (None, "k", "p"):
        with pytest.raises(ValueError, match="promot"):
            apply(s, "a7a8", promotion=bad)
    with pytest.raises(ValueError, match="not a promotion"):
        apply(s, "e1e2", promotion="q")


# --- A12, A13: the king -------------------------------------------------------------------

def test_a12_the_king_captures_an_unprotected_piece_without_dice():
    """A12: the king moved last turn, yet it may take the unprotected bishop d4; the knight
    e5 is protected by f6, so taking it is illegal."""
    fen = "7k/8/5p2/4n3/3bK3/8/P7/8 w - - 0 1"
    assert moves(alea(fen, last="k/-")) == {"a2a3", "a2a4", "e4d4"}
    assert moves(alea(fen)) == {"a2a3", "a2a4", "e4d4", "e4d5", "e4f4", "e4f5"}


def test_a12_against_a_lone_king_the_king_moves_every_turn():
    """A12: Black has only the king: White's king ignores the cooldown."""
    ring = {"e4d3", "e4d4", "e4d5", "e4e3", "e4e5", "e4f3", "e4f4", "e4f5"}
    assert moves(alea("7k/8/8/8/4K3/8/P7/8 w - - 0 1", last="k/-")) == \
        {"a2a3", "a2a4"} | ring
    assert moves(alea("7k/7p/8/8/4K3/8/P7/8 w - - 0 1", last="k/-")) == {"a2a3", "a2a4"}


def test_a13_the_king_moves_when_nothing_else_can():
    """A13: the king moved last turn, the pawn is blocked, no type can move: the king may
    move again."""
    s = alea("4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1", last="k/-")
    assert moves(s) == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}


def test_a13_decided_when_even_the_king_cannot_move():
    """A13 (decided 3): the king is boxed in, the pawn blocked, and the knights moved last
    turn: the knights may move (no dice), rather than a stalemate chess would not call."""
    s = alea("k7/8/8/8/8/6p1/6PN/6NK w - - 0 1", last="n/-")
    assert playable_types(s) == set() and dice_distribution(s) == {None: 1}
    assert moves(s) == {"g1e2", "g1f3", "g1h3", "h2f1", "h2f3", "h2g4"}
    assert outcome(s) is None


# --- A14: jokers --------------------------------------------------------------------------

def test_a14_free_move_joker_any_piece_ignoring_dice_and_cooldown():
    """A14: with knight and rook shown and the queen on cooldown, a free-move joker moves
    any piece, the queen and the king included; spent only when used."""
    s = alea(SMALL, last="q/-", jokers="1/0", rerolls="0/0", dice="nr")
    everything = SMALL_PAWN | SMALL_KNIGHT | SMALL_BISHOP | SMALL_ROOK | SMALL_QUEEN \
        | SMALL_KING
    assert everything == chess_legal(SMALL)
    assert actions(s, JOKER) == {f"joker {m}" for m in everything}
    assert apply(s, "b1c3").jokers == (1, 0)
    after = apply(s, "joker d1d8")
    assert after.jokers == (0, 0) and after.last_type == ("q", None)
    assert not actions(alea(SMALL, jokers="0/4", dice="nr"), JOKER)


def test_a14_free_move_joker_in_check_must_answer():
    """A14, A10: a joker move still has to answer the check."""
    s = alea(CHECKED, dice="nr")
    assert actions(s, JOKER) == {f"joker {m}" for m in chess_legal(CHECKED)}
    assert "joker a2a3" not in actions(s)


def test_a14_joker_counts_by_level():
    """A14 (decided): the human's count by level, the computer 8 minus it."""
    assert free_jokers("beginner", "w") == (6, 2)
    assert free_jokers("easy", "b") == (3, 5)
    assert free_jokers("normal", "w") == (4, 4)
    assert free_jokers("hard", "b") == (6, 2)
    assert AleaState.start(jokers=free_jokers("hard", "w")).jokers == (2, 6)
    with pytest.raises(ValueError):
        free_jokers("expert", "w")


def test_a14_reroll_joker():
    """A14: after seeing the dice, roll again (same distribution, A8 still applies); 2 per
    game; not without dice shown."""
    s = alea(OPEN, dice="nb")
    assert actions(s, REROLL) == {"reroll"}
    again = apply(s, "reroll")
    assert again.rerolls == (1, 2) and again.side == 0 and again.dice is None
    assert again.moves == s.moves and needs_roll(again)
    assert dice_distribution(again) == dice_distribution(s)
    rng = random.Random(11)
    assert roll(again, rng) in dice_distribution(s)
    twice = apply(again.with_dice(("r", "q")), "reroll")
    assert twice.rerolls == (0, 2)
    assert not actions(twice.with_dice(("n", "q")), REROLL)
    assert not actions(alea("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1"), REROLL)   # no dice


# --- A15: the castle joker ------------------------------------------------------------------

def test_a15_castling_only_with_the_joker_and_standard_conditions():
    """A15: castling is never an ordinary move; the bishop on a6 covers f1, so only the
    long castling is allowed; no joker left, no castling."""
    fen = "r3k2r/8/b7/8/8/8/8/R3K2R w KQkq - 0 1"
    s = alea(fen, dice="rr")
    assert actions(s, CASTLE) == {"castle e1c1"}
    assert not {"e1g1", "e1c1"} & moves(s)
    assert not actions(alea(fen, castle="0/1", dice="rr"), CASTLE)
    b = chess.Board(fen)
    assert {m.uci() for m in b.legal_moves if b.is_castling(m)} == {"e1c1"}


def test_a15_no_castling_out_of_check():
    """A15: the king is in check from the rook e8."""
    s = alea("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    assert in_check(s) and not actions(s, CASTLE)


def test_a15_castling_ends_the_turn_and_queenside_follow_up():
    """A15: long castling puts the rook on d1; the follow-up is that rook or the king."""
    s = alea("4k3/4p3/8/8/8/8/8/R3K3 w Q - 0 1", dice="rr")
    s = apply(s, "castle e1c1")
    assert s.board.turn == "b" and s.follow_up == (("d1", "c1"), None)
    assert s.board.fen().startswith("4k3/4p3/8/8/8/8/8/2KR4 b")
    s = apply(s, "e7e6")
    assert playable_types(s) == {"r"} and s.last_type[0] == "k"
    s = s.with_dice(("r", "r"))
    assert {m for m in moves(s) if m.startswith("c1")} == {"c1b1", "c1b2", "c1c2", "c1d2"}


# --- A16 ------------------------------------------------------------------------------------

def test_a16_en_passant():
    """A16: Black just played d7-d5; exd6 e.p. is a pawn move, free of dice."""
    s = alea("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    assert s.board.fen().split()[3] == "d6"
    assert moves(s) == {"e5e6", "e5d6", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}
    after = apply(s, "e5d6")
    assert after.board.piece_at("d5") is None and after.board.piece_at("d6") == "P"


# --- A19: classic mode ---------------------------------------------------------------------

def test_a19_classic_mode_is_chess():
    """A19: no dice, no jokers, normal castling, the king moves any turn."""
    s = alea("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", moves="20/20", last="k/-",
             mode="classic")
    assert not is_free_phase(s) and not needs_roll(s)
    assert roll(s, random.Random(1)) is None and dice_distribution(s) == {None: 1}
    b = chess.Board(s.board.fen())
    assert actions(s) == {m.uci() for m in b.legal_moves}
    assert {a.kind for a in legal_actions(s)} == {MOVE}
    after = apply(s, "e1g1")
    assert after.follow_up == (None, None) and after.castle_jokers == (1, 1)
    with pytest.raises(ValueError, match="classic"):
        alea(START, mode="classic", dice="nb")


def test_a19_classic_promotes_to_a_queen():
    """A11, A19: in classic mode the pawn always becomes a queen."""
    s = alea("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", mode="classic")
    assert promotion_distribution(s) == {"q": 1}
    assert apply(s, "a7a8").board.piece_at("a8") == "Q"
    with pytest.raises(ValueError):
        apply(s, "a7a8", promotion="n")


# --- Alea FEN ------------------------------------------------------------------------------

def test_alea_fen_round_trip_and_fields():
    text = ("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 12 9/8 k/n 3/4 1/2 0/1 f1g1/- "
            "- alea")
    s = AleaState.parse(text)
    assert s.fen() == text
    assert s.moves == (9, 8) and s.last_type == ("k", "n") and s.jokers == (3, 4)
    assert s.rerolls == (1, 2) and s.castle_jokers == (0, 1)
    assert s.follow_up == (("f1", "g1"), None) and s.dice is None and not s.classic
    shown = AleaState.parse(text.replace(" - alea", " qn alea").replace(" b kq", " w kq"))
    assert shown.dice == ("n", "q") and " nq alea" in shown.fen()
    assert AleaState.parse(shown.fen()) == shown


@pytest.mark.parametrize("tail, message", [
    ("0/0 -/- 4/4 2/2 1/1 -/- -", "14 fields"),
    ("0/0 -/- 4/4 2/2 1/1 -/- - chess", "mode"),
    ("0/0 -/- 4/4 2/2 1/1 -/- nk alea", "dice"),
    ("0/0 -/- 4/4 2/2 1/1 -/- nb alea", "free phase"),
    ("0 -/- 4/4 2/2 1/1 -/- - alea", "moves"),
    ("a/0 -/- 4/4 2/2 1/1 -/- - alea", "moves"),
    ("0/0 -/- 9/0 2/2 1/1 -/- - alea", "jokers"),
    ("0/0 -/- 4/4 3/2 1/1 -/- - alea", "rerolls"),
    ("0/0 -/- 4/4 2/2 2/1 -/- - alea", "castle"),
    ("0/0 p/- 4/4 2/2 1/1 -/- - alea", "last"),
    ("0/0 -/- 4/4 2/2 1/1 f1/- - alea", "follow-up"),
    ("0/0 -/- 4/4 2/2 1/1 f1g1/- - alea", "king"),
    ("0/0 -/- 4/4 2/2 1/1 z9g1/- - alea", "cells"),
])
def test_alea_fen_errors(tail, message):
    with pytest.raises(ValueError, match=message):
        AleaState.parse(f"{START} {tail}")


def test_alea_fen_bad_chess_fen():
    with pytest.raises(ValueError):
        AleaState.parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1 0/0 -/- 4/4 2/2 "
                        "1/1 -/- - alea")


def test_action_text():
    for text in ("e2e4", "joker e2e4", "castle e1g1", "reroll"):
        assert str(Action.parse(text)) == text
    for bad in ("", "joker", "castle", "move e2e4", "reroll e2e4", "joker e2e4 x"):
        with pytest.raises(ValueError):
            Action.parse(bad)
    with pytest.raises(ValueError, match="illegal"):
        apply(AleaState.start(), "e1e2")


# --- the arbiter's rolls against the exact distribution -------------------------------------

# Chi-square critical values at p = 0.001 by degrees of freedom.
CHI2_CRIT = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515}
ROLLS = 200_000


@pytest.mark.parametrize("state", [
    alea(OPEN),                                   # four types
    alea(OPEN, last="n/-"),                       # one on cooldown
    alea(CHECKED, last="r/-"),                    # in check: three answer
    alea("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNB1KB1R w KQkq - 0 1"),
    alea(START),                                  # one type: both dice show it
    alea("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1"),      # none: no dice
], ids=["four", "cooldown", "check", "no-queen", "one", "none"])
def test_a8_a10_simulated_rolls_match_the_distribution(state):
    """A8, A10: 200,000 seeded arbiter rolls against dice_distribution (chi-square at
    p = 0.001; seeded, so the verdict never changes)."""
    expected = dice_distribution(state)
    assert sum(expected.values()) == 1
    rng = random.Random(20240601)
    counts: dict = {}
    for _ in range(ROLLS):
        d = roll(state, rng)
        counts[d] = counts.get(d, 0) + 1
    assert set(counts) == set(expected)
    if len(expected) == 1:
        return
    chi2 = sum((counts[k] - ROLLS * float(p)) ** 2 / (ROLLS * float(p))
               for k, p in expected.items())
    assert chi2 < CHI2_CRIT[len(expected) - 1], (chi2, counts)


def test_roll_is_deterministic_for_a_seed():
    s = alea(OPEN)
    a = [roll(s, random.Random(5)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    r1, r2 = random.Random(9), random.Random(9)
    assert [roll(s, r1) for _ in range(50)] == [roll(s, r2) for _ in range(50)]


# --- random play: Alea FEN round-trip and legality against python-chess -------------------------

def reference_actions(state: AleaState) -> set[str]:
    """The rules of alea.md restated on python-chess, as action texts."""
    b = chess.Board(state.board.fen())
    me, side = b.turn, 0 if b.turn == chess.WHITE else 1
    legal = list(b.legal_moves)

    def kind_of(m):
        return chess.piece_symbol(b.piece_type_at(m.from_square))

    def pick(test):
        return {m.uci()[:4] for m in legal if not b.is_castling(m) and test(m)}

    everything = pick(lambda m: True)
    castles = {m.uci() for m in legal if b.is_castling(m)}
    if state.classic:
        return everything | castles
    free = state.moves[side] < 8
    check = b.is_check()
    last = state.last_type[side]
    if free:
        others = pick(lambda m: kind_of(m) != "k")
        kings = pick(lambda m: kind_of(m) == "k") if check or not others else set()
    else:
        shown = set(state.dice or ()) - (set() if check else {last})
        others = pick(lambda m: kind_of(m) == "p" or kind_of(m) in shown)
        lone = all(not b.pieces(t, not me) for t in range(chess.PAWN, chess.KING))
        if check or last != "k" or lone or not others:
            kings = pick(lambda m: kind_of(m) == "k")
        else:
            kings = pick(lambda m: kind_of(m) == "k" and b.is_capture(m))
    follow = set()
    if state.follow_up[side]:
        rook, king = (chess.parse_square(c) for c in state.follow_up[side])
        rook_piece = b.piece_at(rook)
        follow = pick(lambda m: m.from_square == king or (
            m.from_square == rook and rook_piece == chess.Piece(chess.ROOK, me)))
    ordinary = (others | kings | follow) or everything
    out = set(ordinary)
    if not free:
        if state.jokers[side]:
            out |= {f"joker {m}" for m in everything}
        if state.rerolls[side] and state.dice:
            out.add("reroll")
    if state.castle_jokers[side]:
        out |= {f"castle {m}" for m in castles}
    return out


def reference_playable(state: AleaState) -> set[str]:
    """A8-A10 restated: types with a legal move, not on cooldown unless in check."""
    b = chess.Board(state.board.fen())
    last = None if b.is_check() else state.last_type[state.side]
    return {chess.piece_symbol(b.piece_type_at(m.from_square)) for m in b.legal_moves
            if not b.is_castling(m)} & set("nbrq") - {last}


def check_invariants(state: AleaState, acts: list[Action]) -> None:
    """Every action is chess-legal, keeps the own king safe, and respects dice and
    cooldown where no exception applies."""
    b = chess.Board(state.board.fen())
    side = state.side
    for a in acts:
        if a.kind == REROLL:
            continue
        m = chess.Move.from_uci(a.move + ("q" if is_promotion(state, a.move) else ""))
        assert m in b.legal_moves, (state.fen(), a)
        b.push(m)
        assert not b.was_into_check()
        b.pop()
        kind = chess.piece_symbol(b.piece_type_at(m.from_square))
        plain = (a.kind == MOVE and not state.classic and not is_free_phase(state)
                 and not b.is_check() and state.follow_up[side] is None and kind in "nbrq")
        if plain and state.dice is not None:
            assert kind in state.dice and kind != state.last_type[side], (state.fen(), a)
        if a.kind == CASTLE or (a.kind == MOVE and b.is_castling(m)):
            assert state.classic == (a.kind == MOVE)


def random_game(rng: random.Random, start: AleaState, plies: int, used: dict) -> None:
    """Random actions (a random kind, then a random action of it) with the arbiter's
    dice and promotion die, checking every state on the way."""
    s = start
    for _ in range(plies):
        if outcome(s) is not None:
            return
        if needs_roll(s):
            s = s.with_dice(roll(s, rng))
            assert set(s.dice) <= playable_types(s)
        text = s.fen()
        copy = AleaState.parse(text)
        assert copy.fen() == text and copy == s
        acts = legal_actions(s)
        assert legal_actions(copy) == acts and acts
        assert {str(a) for a in acts} == reference_actions(s), text
        assert playable_types(s) == reference_playable(s), text
        check_invariants(s, acts)
        kind = rng.choice(sorted({a.kind for a in acts}))
        action = rng.choice([a for a in acts if a.kind == kind])
        promotion = None
        if action.kind != REROLL and is_promotion(s, action.move):
            promotion = None if s.classic else rng.choice("nbrrqq")
            used["promotion"] = used.get("promotion", 0) + 1
        used[kind] = used.get(kind, 0) + 1
        used["dice"] = used.get("dice", 0) + (s.dice is not None)
        used["follow-up"] = used.get("follow-up", 0) + (s.follow_up[s.side] is not None)
        s = apply(s, action, promotion=promotion)


def test_random_play_round_trip_and_rules_hold():
    """A1-A16, A19 on 50 seeded random games of up to 60 plies: the Alea FEN round-trips,
    the legal actions and playable types equal the python-chess re-statement, and no action
    breaks a rule."""
    rng = random.Random(1234)
    used: dict = {}
    starts = [
        AleaState.start(),
        AleaState.start(jokers=(2, 6)),
        alea("k7/4PP2/8/8/8/8/2pp4/7K w - - 0 1"),                 # promotions
        alea("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", moves="6/6"),
        AleaState.start(classic=True),
    ]
    for game in range(50):
        random_game(rng, starts[game % len(starts)], 60, used)
    assert sum(used.get(k, 0) for k in (MOVE, JOKER, CASTLE, REROLL)) > 1500
    for feature in (MOVE, JOKER, CASTLE, REROLL, "promotion", "dice", "follow-up"):
        assert used.get(feature, 0) > 0, (feature, used)
