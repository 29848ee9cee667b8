"""Whole games through the arbiter between two well-behaved random movers: every move is
legal, and the game ends exactly where the rules (or the move cap) end it."""
from __future__ import annotations

import pytest

from adapters import session
from adapters.arbiter import TimeControl
from adapters.openings import openings_for
from adapters.session import play_game
from adapterkit import replay
from engine.board import Board

TC = TimeControl(2.0, 0.05)


def check_finished_by_rules(rec, initial_fen=None):
    board = replay(rec, initial_fen)
    assert (rec.crashed, rec.time_forfeit, rec.illegal) == (None, None, None), rec.termination
    outcome = board.outcome()
    if outcome is not None:
        assert rec.white_score == outcome.white_score
        assert rec.termination == outcome.termination
    else:
        assert len(rec.moves) >= session.MAX_PLIES
        assert rec.white_score == 0.5 and "adjudication" in rec.termination
    assert rec.result != "*"
    return board


@pytest.mark.parametrize("variant", ["chess", "grand", "hexagonal"])
def test_random_game_finishes_by_the_rules(spawn, variant):
    white, black = spawn("good", 11), spawn("good", 22)
    rec = play_game(white, black, variant, TC)
    assert rec.variant == variant
    assert rec.start_fen == Board(variant).fen()
    assert rec.white == "RandomMover-good" and rec.black == "RandomMover-good"
    check_finished_by_rules(rec)
    assert white.alive and black.alive


@pytest.mark.parametrize("variant", ["chess", "grand", "hexagonal"])
def test_game_from_book_opening(spawn, variant):
    opening = openings_for(variant)[1]
    rec = play_game(spawn("good", 3), spawn("good", 4), variant, TC, opening=opening)
    assert tuple(rec.moves[:len(opening)]) == opening
    after = Board(variant)
    for move in opening:
        after.push(move)
    assert rec.start_fen == after.fen()          # the record keeps the post-opening position
    check_finished_by_rules(rec)


def test_game_from_custom_fen(spawn):
    fen = "4k3/pppp4/8/8/8/8/PPPP4/4K2R w K - 0 12"
    rec = play_game(spawn("good", 5), spawn("good", 6), "chess", TC, start_fen=fen)
    assert rec.start_fen == Board("chess", fen).fen()
    check_finished_by_rules(rec, fen)


def test_engines_play_several_games_in_a_row(spawn):
    a, b = spawn("good", 7), spawn("good", 8)
    for variant, (white, black) in (("chess", (a, b)), ("hexagonal", (b, a)), ("chess", (a, b))):
        check_finished_by_rules(play_game(white, black, variant, TC))


def test_move_cap_adjudicates_a_draw(spawn, monkeypatch):
    monkeypatch.setattr(session, "MAX_PLIES", 6)
    rec = play_game(spawn("good", 1), spawn("good", 2), "chess", TC)
    assert len(rec.moves) == 6
    assert rec.white_score == 0.5 and rec.result == "1/2-1/2"
    assert rec.termination == "adjudication: game too long"
    replay(rec)


def test_on_move_sees_every_move(spawn, monkeypatch):
    monkeypatch.setattr(session, "MAX_PLIES", 10)
    seen = []
    rec = play_game(spawn("good", 1), spawn("good", 2), "grand", TC,
                    on_move=lambda r, b: seen.append((list(r.moves), b.fen())))
    assert [m for m, _ in seen] == [rec.moves[:i + 1] for i in range(len(rec.moves))]
    assert seen[-1][1] == replay(rec).fen()


def test_time_control_parse_and_pgn():
    assert TimeControl.parse("10+0.1") == TimeControl(10.0, 0.1)
    assert TimeControl.parse("60") == TimeControl(60.0, 0.0)
    assert TimeControl(2.0, 0.05).pgn() == "2+0.05" and TimeControl(60, 0).pgn() == "60"
    for bad in ("0", "-1+1", "5+-1"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)
