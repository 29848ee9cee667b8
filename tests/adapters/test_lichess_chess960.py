"""The Lichess bridge in Chess960: a whole game against the fake Bot API server
(tests/adapters/fake_lichess.py, which referees with python-chess and writes castles
king-to-rook, as lichess does), and the decisions as pure functions."""
from __future__ import annotations

import chess
import pytest

pytest.importorskip("berserk")

from fake_lichess import Opponent
from test_lichess_bridge import TOKEN, pychess, run_bot, server  # noqa: F401 (fixtures)

from adapters.lichess import policy


def replay_chess960(game) -> chess.Board:
    """Every move of the game legal as written (king-to-rook castles), none refused."""
    assert game.rejected == []
    board = chess.Board(game.rules.initial_fen, chess960=True)
    for move in game.moves:
        assert chess.Move.from_uci(move) in board.legal_moves, f"{move} in {board.fen()}"
        board.push(chess.Move.from_uci(move))
    return board


def castles_of(game) -> list[str]:
    board = chess.Board(game.rules.initial_fen, chess960=True)
    out = []
    for move in game.moves:
        if board.is_castling(chess.Move.from_uci(move)):
            out.append(move)
        board.push_uci(move)
    return out


# Position 518, White (the server's player) castles king-side on its 4th move, king-to-rook.
CASTLING_WHITE = ("g1f3", "g2g3", "f1g2", "e1h1")


def test_plays_a_chess960_game_with_castles_king_to_rook(server):
    cid = server.challenge("chess960", bot_color="black", chess960_position=518,
                           opponent=Opponent(seed=4, script=CASTLING_WHITE, resign_at_ply=24))
    proc = run_bot(server, "--variants", "standard,chess960")
    assert proc.returncode == 0, proc.stderr[-3000:]
    game = server.game_of(cid)
    assert game.status in ("resign", "mate", "draw"), game.status
    replay_chess960(game)
    assert "e1h1" in castles_of(game), game.moves      # the engine read the castle
    assert len(game.bot_moves) >= 10


def test_plays_chess960_from_another_position(server):
    cid = server.challenge("chess960", bot_color="black", chess960_position=0,
                           opponent=Opponent(seed=9, resign_at_ply=16))
    proc = run_bot(server, "--variants", "chess960")
    assert proc.returncode == 0, proc.stderr[-3000:]
    game = server.game_of(cid)
    assert game.rules.initial_fen.startswith("bbqnnrkr/")
    assert game.status in ("resign", "mate", "draw"), game.status
    replay_chess960(game)
    assert len(game.bot_moves) >= 6


def test_declines_chess960_unless_listed(server):
    cid = server.challenge("chess960")
    std = server.challenge("standard", opponent=Opponent(resign_at_ply=2))
    proc = run_bot(server)                  # --variants standard
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert server.challenges[cid]["reason"] == "standard"
    assert server.game_of(std).status == "resign"


def test_pychess_hears_of_chess960():
    assert policy.pychess_capabilities(("standard", "chess960")) == \
        '{"version":1,"variants":["chess","chess960"]}'
    # pychess.org flags a Chess960 twin of standard chess; a gameFull names it.
    flagged = {"variant": {"key": "standard"}, "chess960": True,
               "timeControl": {"type": "clock"}}
    assert policy.variant_key(flagged["variant"], flagged["chess960"]) == "chess960"
    assert policy.variant_key({"name": "chess"}, "True") == "chess960"
    assert policy.variant_key({"name": "chess"}, "False") == "standard"
    assert policy.decline_reason(flagged, policy.ChallengePolicy(
        variants=("standard", "chess960"))) is None
    assert policy.decline_reason(flagged, policy.ChallengePolicy()) == "standard"


@pytest.mark.parametrize("ch, reason", [
    ({"variant": {"key": "chess960"}, "initialFen": chess.Board.from_chess960_pos(7).fen()},
     None),
    ({"variant": {"key": "standard"}, "initialFen": "8/8/8/8/8/8/8/K6k w - - 0 1"},
     "standard"),
    ({"variant": {"key": "fromPosition"}}, "variant"),
])
def test_a_chess960_challenge_brings_its_own_position(ch, reason):
    pol = policy.ChallengePolicy(variants=("standard", "chess960"))
    assert policy.decline_reason({**ch, "timeControl": {"type": "clock"}}, pol) == reason


def test_engine_moves_castle_king_takes_rook():
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    # Read from the server either way, the engine gets king-takes-rook.
    assert policy.engine_moves(fen, ["e1g1", "e8c8"], True) == ["e1h1", "e8a8"]
    assert policy.engine_moves(fen, ["e1h1", "e8a8"], True) == ["e1h1", "e8a8"]
    assert policy.engine_moves(fen, ["e1g1"], False) == ["e1g1"]      # standard: as sent
    assert policy.engine_moves("startpos", ["e2e4", "e7e5"], True) == ["e2e4", "e7e5"]
    # A king on b1 next to its rook on a1: b1a1 is the castle.
    fen = "1k6/8/8/8/8/8/8/RK6 w A - 0 1"
    assert policy.engine_moves(fen, ["b1a1"], True) == ["b1a1"]
    # Past a move python-chess cannot read, the rest goes on as it came.
    assert policy.engine_moves("startpos", ["e2e5", "e7e5"], True) == ["e2e5", "e7e5"]
