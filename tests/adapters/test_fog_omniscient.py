"""Fog of War with one omniscient side (adapters/fog_referee.py ``omniscient``,
scripts/match --omniscient1/--omniscient2): that side is told the whole game like any
perfect-information game -- ``position fen <start> moves <every move>`` and both clocks --
so a reference engine that knows only the board rules can play; the other side must still
get nothing but its own views, lost cells, moves and clock.

The spy (fakes/fog_spy.py) plays against an omniscient spy and the same checks as in
test_fog_arbiter.py (``check_spy_log``) are run on what it received; the omniscient spy's
log must be the true game, message by message. Then the match runner gives the whole board
to the engine asked for, whichever colour it plays, the PGN says who saw what, and an
omniscient side outside Fog of War is refused. When Fairy-Stockfish is installed, it plays
the spy with tests/data/fogofwar.ini.
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys

import pytest

from adapterkit import MATCH, REPO_ROOT, close, replay
from adapters.arbiter import Clocks, GameRecord, Referee, TimeControl, referee_for
from adapters.fog_referee import FogReferee
from adapters.match import MatchConfig, run_match
from adapters.pgn import write_pgn
from adapters.session import play_game
from engine.board import Board
from engine.fog import view_fen
from test_fog_arbiter import check_spy_log, spy_argv

TC = TimeControl(10.0, 0.1)
INI = REPO_ROOT / "tests" / "data" / "fogofwar.ini"
FSF = shutil.which("fairy-stockfish") or shutil.which("/usr/games/fairy-stockfish")
BOTH_CLOCKS = r"go wtime \d+ btime \d+ winc \d+ binc \d+"


def check_omniscient_log(log_text: str, rec: GameRecord, side: str) -> int:
    """The omniscient side was told, at each of its turns, the true game so far (from the
    position after the opening) and both clocks; returns the messages checked."""
    lines = log_text.splitlines()
    positions = [ln for ln in lines if ln.startswith("position")]
    gos = [ln for ln in lines if ln.startswith("go")]
    assert len(positions) == len(gos) and positions
    assert all(re.fullmatch(BOTH_CLOCKS, ln) for ln in gos), gos[:3]
    played = rec.moves[rec.opening_plies:]
    board = Board(rec.variant, rec.start_fen)
    want = []
    for ply in range(len(played) + 1):
        if board.outcome() is None and board.turn == side:
            moves = " moves " + " ".join(played[:ply]) if ply else ""
            want.append(f"position fen {rec.start_fen}{moves}")
        if ply < len(played):
            board.push(played[ply])
    assert positions == want
    return len(positions)


# -- the referee's messages -------------------------------------------------------------
def test_omniscient_side_is_told_the_whole_game_the_other_its_view():
    fen = Board("fogofwar").fen()
    rec = GameRecord("fogofwar", fen, "W", "B", moves=["e2e4", "d7d5", "e4d5"],
                     initial_fen=fen)
    board = replay(rec)
    clocks = Clocks(TimeControl(60.0, 1.0))
    clocks.left = [58.5, 59.25]
    referee = FogReferee(omniscient=(False, True))
    assert referee.message_for(1, board, rec, clocks) == (
        f"position fen {fen} moves e2e4 d7d5 e4d5",
        "wtime 58500 btime 59250 winc 1000 binc 1000")
    # Exactly what the perfect-information game tells a side.
    plain = Referee().message_for(1, board, rec, clocks)
    assert referee.message_for(1, board, rec, clocks) == plain
    # The other way round: White omniscient, Black told its view only.
    rec2 = GameRecord("fogofwar", fen, "W", "B", moves=["e2e4", "d7d5"], initial_fen=fen)
    board2 = replay(rec2)
    referee2 = FogReferee(omniscient=(True, False))
    assert referee2.message_for(0, board2, rec2, clocks)[0] == \
        f"position fen {fen} moves e2e4 d7d5"
    rec3 = GameRecord("fogofwar", fen, "W", "B", moves=["e2e4"], initial_fen=fen)
    board3 = replay(rec3)
    position, go = FogReferee(omniscient=(True, False)).message_for(1, board3, rec3, clocks)
    assert position == f"position fog view {view_fen(board3, 'b')}"
    assert "e2e4" not in position and go == "btime 59250 binc 1000"


def test_referee_for_and_the_pgn_tags():
    assert referee_for("fogofwar").omniscient == (False, False)
    assert referee_for("darkchess", omniscient=(False, True)).omniscient == (False, True)
    for variant in ("chess", "grand", "alea"):
        with pytest.raises(ValueError):
            referee_for(variant, omniscient=(True, False))
    rec = GameRecord("fogofwar", "", "W", "B")
    FogReferee(omniscient=(False, True)).setup(rec, None)
    assert rec.tags == {"WhiteSees": "views", "BlackSees": "whole board"}
    text = write_pgn(rec)
    assert '[WhiteSees "views"]' in text and '[BlackSees "whole board"]' in text
    plain = GameRecord("fogofwar", "", "W", "B")
    FogReferee().setup(plain, None)
    assert plain.tags == {} and "Sees" not in write_pgn(plain)


# -- the spy against an omniscient player ------------------------------------------------
@pytest.mark.parametrize("seed,spy_side,opening", [(21, "w", ()), (22, "b", ("e2e4", "e7e5"))])
def test_spy_against_an_omniscient_player_still_gets_only_views(start_engine, tmp_path,
                                                                seed, spy_side, opening):
    spy_log, omni_log = tmp_path / "spy.log", tmp_path / "omni.log"
    spy = start_engine(spy_argv(spy_log, seed), name="spy")
    omni = start_engine(spy_argv(omni_log, seed + 100), name="omni")
    white, black = (spy, omni) if spy_side == "w" else (omni, spy)
    omniscient = (False, True) if spy_side == "w" else (True, False)
    rec = play_game(white, black, "fogofwar", TC, opening=opening,
                    referee=referee_for("fogofwar", omniscient=omniscient))
    close(spy)
    close(omni)
    replay(rec)
    assert rec.illegal is None and rec.crashed is None and rec.time_forfeit is None
    assert rec.white_score is not None and len(rec.moves) > 4
    assert check_spy_log(spy_log.read_text(), rec, spy_side) >= 3
    other = "b" if spy_side == "w" else "w"
    assert check_omniscient_log(omni_log.read_text(), rec, other) >= 3


def test_run_match_gives_the_board_to_engine2_whichever_colour(tmp_path):
    """engine2 (omniscient) is White in game 2: it gets the true game in both games, and
    engine1 views only; the PGN tags follow the colours."""
    log1, log2 = tmp_path / "e1.log", tmp_path / "e2.log"
    pgn = tmp_path / "m.pgn"
    config = MatchConfig(engine1=shlex.join(spy_argv(log1, 31)),
                         engine2=shlex.join(spy_argv(log2, 32)), variant="fogofwar",
                         games=2, tc="10+0.1", pgn=str(pgn), omniscient=(False, True))
    result = run_match(config)
    assert result.games == 2 and result.illegal == [0, 0] and result.crashes == [0, 0]
    lines1 = [ln for ln in log1.read_text().splitlines() if ln.startswith(("position", "go"))]
    lines2 = [ln for ln in log2.read_text().splitlines() if ln.startswith(("position", "go"))]
    assert all(ln.startswith("position fog view ") for ln in lines1 if ln[0] == "p")
    assert all(re.fullmatch(r"go [wb]time \d+ [wb]inc \d+", ln) for ln in lines1 if ln[0] == "g")
    assert all(ln.startswith("position fen ") for ln in lines2 if ln[0] == "p")
    assert all(re.fullmatch(BOTH_CLOCKS, ln) for ln in lines2 if ln[0] == "g")
    games = pgn.read_text().split("[Event ")[1:]
    assert len(games) == 2
    for game in games:
        white = re.search(r'\[White "(.*)"\]', game)[1]
        assert white == "FogSpy"
        # Rounds 1 and 2: engine 1 White first, then engine 2.
        round_no = int(re.search(r'\[Round "(\d+)"\]', game)[1])
        who = ("views", "whole board") if round_no == 1 else ("whole board", "views")
        assert f'[WhiteSees "{who[0]}"]' in game and f'[BlackSees "{who[1]}"]' in game


def test_scripts_match_refuses_an_omniscient_side_outside_fog():
    proc = subprocess.run([sys.executable, str(MATCH), "--variant", "chess", "--omniscient2",
                           "--games", "1"], capture_output=True, text=True, cwd=REPO_ROOT,
                          timeout=60, check=False)
    assert proc.returncode == 2 and "omniscient side needs Fog of War" in proc.stderr


# -- Fairy-Stockfish, seeing the whole board --------------------------------------------
@pytest.mark.skipif(FSF is None, reason="fairy-stockfish is not installed")
def test_fairy_stockfish_plays_fog_seeing_the_board(start_engine, tmp_path):
    """With tests/data/fogofwar.ini, Fairy-Stockfish 11.1 plays legal fog moves from the
    true position and takes the random spy's king; the spy still gets only views."""
    from adapters.uci_engine import UciEngine
    spy_log = tmp_path / "spy.log"
    spy = start_engine(spy_argv(spy_log, 41), name="spy")
    fsf = UciEngine(FSF, name="fairy-stockfish", options={"VariantPath": str(INI)})
    try:
        rec = play_game(spy, fsf, "fogofwar", TimeControl(5.0, 0.05),
                        referee=referee_for("fogofwar", omniscient=(False, True)))
    finally:
        close(fsf)
        close(spy)
    replay(rec)
    assert rec.illegal is None and rec.crashed is None and rec.time_forfeit is None
    assert rec.white_score == 0.0 and rec.termination == "king captured", rec.termination
    assert check_spy_log(spy_log.read_text(), rec, "w") >= 1

