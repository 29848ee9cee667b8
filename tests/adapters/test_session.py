"""The game session (adapters/session.py): what each side may see and do, a person's
answers (refused ones change nothing), undo, draw offers, clocks, and the end, in every
game. The secrecy of Fog of War is checked against the rules' own view
(engine.fog.view), and a spectator sees nothing until the end."""
from __future__ import annotations

import json
import time

import pytest

from adapters.arbiter import HIDDEN_MOVE, TimeControl
from adapters.session import (UNLIMITED, GameSession, IllegalAnswer, person_referee,
                              reason_code, undo_allowance)
from engine.board import Board
from engine.fog import view as fog_view


class Person:
    """A player the session never asks (its answers come through ``play``)."""

    def __init__(self, name: str):
        self.name, self.id_name = name, None

    def start_game(self, variant):
        pass

    def turn(self, session, side):
        raise AssertionError("a pushed player is never asked")


def game(variant: str = "chess", tc=None, **kwargs) -> GameSession:
    s = GameSession(variant, Person("Ann"), Person("Bob"), tc, **kwargs)
    s.start()
    return s


# -- seeing ---------------------------------------------------------------------------------
def test_a_side_sees_the_whole_board_and_its_legal_moves_in_chess():
    s = game()
    s.play(0, "e2e4")
    black, white = s.view(1), s.view(0)
    assert black.pieces == white.pieces == {n: p for n in Board("chess").variant.geometry.names
                                            if (p := s.board.piece_at(n))}
    assert black.legal and white.legal == ()            # only the side to move may answer
    assert black.last == ("e2", "e4") and black.moves == ((0, "e2e4", "e4"),)
    assert black.fen == s.board.fen() and black.fog == ()
    json.dumps(black.to_json())                         # plain data for a browser


def test_check_is_shown_on_the_king():
    s = game(opening=("e2e4", "f7f6", "d1h5"))
    assert s.view(1).check == ("e8",) and s.view(0).check == ("e8",)


def test_fog_views_are_the_rules_views_and_hide_the_opponents_moves():
    s = game("fogofwar")
    for ply, move in enumerate(("e2e4", "d7d5", "e4d5", "d8d5")):
        s.play(ply % 2, move)
        for side in (0, 1):
            v = s.view(side)
            truth = fog_view(s.board, "wb"[side])
            assert v.pieces == truth.pieces and set(v.fog) == \
                set(s.geometry.names) - truth.visible
            assert all(text == HIDDEN_MOVE for mover, _, text in v.moves if mover != side)
            assert all(answer != HIDDEN_MOVE for mover, answer, _ in v.moves if mover == side)
            assert v.check == ()
    spectator = s.view(None)
    assert spectator.pieces == {} and len(spectator.fog) == 64 and spectator.legal == ()
    assert all(answer == HIDDEN_MOVE for _, answer, _ in spectator.moves)


def test_fog_clocks_show_only_the_own_one():
    s = game("fogofwar", TimeControl(60, 1))
    assert s.view(0).clocks[1] is None and s.view(0).clocks[0] > 59
    assert s.view(None).clocks == (None, None)


def test_fog_lifts_at_the_end_for_everyone():
    s = game("fogofwar", start_fen="4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")
    s.play(0, "e1f1")
    s.play(1, "e2f1")                                   # the king is taken
    assert s.over and s.rec.termination == "king captured"
    for viewer in (0, 1, None):
        v = s.view(viewer)
        assert v.fog == () and v.pieces == {"e8": "k", "f1": "q"}
        assert all(text != HIDDEN_MOVE for _, _, text in v.moves)
    assert s.view(None).result["reason"] == "king_captured"


def test_alea_view_shows_the_dice_and_jokers():
    s = game("alea", referee=person_referee("alea", "easy", 0, seed=5))
    x = s.view(0).extra
    assert x["free_phase"] and x["dice"] is None and x["jokers"] == [5, 3]
    assert x["rerolls"] == [2, 2] and x["castle_jokers"] == [1, 1]
    for ply, move in enumerate("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 b1c3 d7d6 c1g5 "
                               "h7h6 g5h4 c8g4 h2h3 g4h5".split()):
        s.play(ply % 2, move)
    x = s.view(0).extra
    assert not x["free_phase"] and len(x["dice"]) == 2
    assert all(t.startswith(("joker:", "castle:")) or t == "reroll" or len(t) == 4
               for t in s.view(0).legal)


# -- answering ------------------------------------------------------------------------------
@pytest.mark.parametrize("side, answer", [(1, "e7e5"), (0, "e2e5"), (0, "zz"), (0, "")])
def test_a_refused_answer_changes_nothing(side, answer):
    s = game()
    before = (s.board.fen(), list(s.rec.moves), s.view(0).to_json())
    with pytest.raises(IllegalAnswer):
        s.play(side, answer)
    assert (s.board.fen(), list(s.rec.moves)) == before[:2]
    assert s.view(0).to_json()["legal"] == before[2]["legal"]


def test_no_answer_after_the_end():
    s = game(opening=("f2f3", "e7e5", "g2g4"))
    s.play(1, "d8h4")
    assert s.over and s.view(0).result == {"white": 0.0, "text": "0-1", "reason": "checkmate",
                                          "termination": "checkmate"}
    with pytest.raises(IllegalAnswer):
        s.play(0, "e1f2")
    assert s.legal(0) == []


def test_a_persons_clock_runs_and_runs_out():
    s = game(tc=TimeControl(0.05, 0))
    time.sleep(0.1)
    assert s.time_left(0) < 0 and s.time_out()
    assert s.over and s.rec.time_forfeit == 0 and s.rec.white_score == 0.0
    assert reason_code(s.rec.termination) == "time"


def test_resignation_and_abandonment():
    s = game()
    s.resign(1)
    assert s.rec.white_score == 1.0 and s.view(0).result["reason"] == "resignation"
    s = game()
    s.end(None, "abandoned: Ann left")
    assert s.rec.result == "*" and s.view(None).result["reason"] == "abandoned"


# -- draws ------------------------------------------------------------------------------------
def test_two_people_agree_a_draw_and_a_move_declines_it():
    s = game()
    assert s.offer_draw(0) == (None, 0) and s.view(1).draw_offer == 0
    s.play(0, "e2e4")
    assert s.view(1).draw_offer == 0                   # stands until Black answers
    s.play(1, "e7e5")                                   # moving declines it
    assert s.view(0).draw_offer is None
    s.offer_draw(0)
    s.play(0, "g1f3")
    assert s.offer_draw(1) == (True, 0) and s.rec.termination == "draw by agreement"


# -- undo -------------------------------------------------------------------------------------
def test_undo_between_two_people_takes_back_the_last_move():
    s = game(undo_limit=UNLIMITED)
    s.play(0, "e2e4")
    s.play(1, "e7e5")
    assert s.undo(1) == ["e7e5"] and s.turn == 1 and s.rec.moves == ["e2e4"]
    assert s.undo(0) == ["e2e4"] and s.board.fen() == Board("chess").fen()
    with pytest.raises(IllegalAnswer):
        s.undo(0)                                       # nothing left to take back
    assert s.view(0).moves == () and s.view(0).legal


def test_undo_against_the_bot_takes_back_the_reply_too_and_is_counted():
    s = game(undo_limit=1)
    s.play(0, "e2e4")
    s.play(1, "e7e5")                                   # the "bot's" reply
    assert s.undo(0) == ["e2e4", "e7e5"] and s.turn == 0 and s.undos_left == [0, 1]
    s.play(0, "d2d4")
    s.play(1, "d7d5")
    with pytest.raises(IllegalAnswer, match="no undo left"):
        s.undo(0)


def test_alea_undo_brings_back_the_same_dice_and_jokers():
    s = game("alea", referee=person_referee("alea", "normal", 0, seed=11),
             start_fen="r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 5 "
                       "8/8 -/- 4/4 2/2 1/1 -/- - alea", undo_limit=3)
    first = s.view(0).extra
    s.play(0, "reroll")
    rerolled = s.view(0).extra["dice"]
    s.play(0, "h2h3")
    reply = s.legal(1)[0]
    s.play(1, reply)
    assert s.undo(0) == ["reroll", "h2h3", reply]
    again = s.view(0).extra
    assert again["dice"] == first["dice"] and again["rerolls"] == [2, 2]
    s.play(0, "reroll")
    assert s.view(0).extra["dice"] == rerolled          # the generator was rewound too


def test_undo_allowance_follows_the_rules():
    assert undo_allowance("alea", True, "beginner") == 5
    assert undo_allowance("alea", True, "normal") == 3
    assert undo_allowance("alea", True, "hard") == 0
    assert undo_allowance("alea", True, "easy", timed=True) == 0
    assert undo_allowance("alea", True, "easy", daily=True) == 0
    assert undo_allowance("hexagonal", True, "beginner") == 0      # never against the bot
    assert undo_allowance("hexagonal", False) == UNLIMITED
    assert undo_allowance("fogofwar", False) == 0                 # the moves are hidden


def test_person_referee_gives_alea_jokers_by_level():
    ref = person_referee("alea", "beginner", 1, seed=3)
    assert ref.jokers == (2, 6) and ref.seed == 3
    assert person_referee("alea", "hard", None).jokers == (4, 4)
    assert type(person_referee("chess")).__name__ == "Referee"


def test_the_view_says_the_move_number_the_game_began_at():
    alea_fen = ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 9 "
                "8/8 -/- 6/2 2/2 1/1 -/- - alea")
    assert game().view(0).first_move == 1
    assert game("alea", start_fen=alea_fen).view(0).first_move == 9
    assert game("grand").view(1).first_move == 1
