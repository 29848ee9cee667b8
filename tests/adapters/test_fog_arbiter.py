"""Fog of War on the host side (adapters/fog_referee.py, docs/rules/fog.md "What each
player is told" and "Playing fair", docs/protocol.md ``position fog``).

The core test plays games through play_game with a SPY engine (fakes/fog_spy.py) that
logs every line it receives, then replays the true game and checks that nothing hidden
reached it: every position line is ``position fog``, its history is exactly the spy's own
views, lost cells and moves (the views byte-exact as engine.fog.view_fen writes them for
the true board), every enemy piece shown stood on a cell the spy could see, and the go
line carries only the spy's own clock. Then: a captured king ends the game, the PGN of a
fog game reveals it whole and reads back, the random and greedy baselines (and, briefly,
the naive one) play legal games, and scripts/match picks the fog referee by itself.
"""
from __future__ import annotations

import re
import shlex
import sys

import pytest

from adapterkit import (REPO_ROOT, answers, baseline_argv, close, replay,
                        run_match_script)
from adapters import session
from adapters.arbiter import Clocks, GameRecord, Referee, TimeControl, referee_for
from adapters.fog_referee import FogReferee, FogTurn, format_fog_position, parse_fog_position
from adapters.match import MatchConfig, run_match
from adapters.pgn import write_pgn
from adapters.session import play_game
from engine.board import Board
from engine.fog import lost_cells, view_fen, visible_cells

TC = TimeControl(10.0, 0.1)          # generous: the players answer in milliseconds
SPY = REPO_ROOT / "tests" / "adapters" / "fakes" / "fog_spy.py"
FILES = "abcdefgh"
CELLS = [f + r for r in "12345678" for f in FILES]


def baseline(name: str) -> list[str]:
    return baseline_argv(f"fog_{name}")


def spy_argv(log, seed: int) -> list[str]:
    return [sys.executable, str(SPY), str(log), str(seed)]


# -- what the spy received, checked against the true game ------------------------------
def groups(line: str) -> list[tuple[str, tuple, str | None]]:
    """(view, lost cells, move or None) per turn of a ``position fog`` line, read with a
    regular expression (no code shared with the referee)."""
    assert line.startswith("position fog view "), line[:60]
    body = line[len("position fog "):]
    turn = re.compile(r"view (\S+ [wb] \S+ \S+ \d+ \d+)((?: lost [a-h][1-8](?: [a-h][1-8])*)?)"
                      r"(?: move (\S+) (?=view)| ?$)")
    out, pos = [], 0
    while pos < len(body):
        m = turn.match(body, pos)
        assert m, f"malformed at {body[pos:pos + 60]!r}"
        lost = tuple(m[2].split()[1:]) if m[2] else ()
        out.append((m[1], lost, m[3]))
        pos = m.end()
    assert out[-1][2] is None and all(g[2] for g in out[:-1])
    return out


def enemy_pieces(view: str, side: str) -> dict[str, str]:
    """``{cell: letter}`` of the enemy pieces a view FEN shows."""
    out = {}
    for rank, row in zip("87654321", view.split()[0].split("/")):
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
                continue
            if ch != "*" and ch.isupper() != (side == "w"):
                out[FILES[x] + rank] = ch
            x += 1
    return out


def expected_turns(rec: GameRecord, side: str) -> list[list]:
    """The true game told as ``side`` must have seen it: per turn of ``side`` (the game
    not over), [view FEN, lost cells, move played or None], and the true board then."""
    board = Board(rec.variant, rec.initial_fen)
    turns, before = [], None
    for ply in range(len(rec.moves) + 1):
        if board.outcome() is None and board.turn == side:
            lost = tuple(sorted(lost_cells(before, board, side), key=CELLS.index)) \
                if before is not None else ()
            turns.append([view_fen(board, side), lost, None, board.copy()])
        if ply == len(rec.moves):
            break
        if board.turn == side:
            turns[-1][2] = rec.moves[ply]
        before = board.copy()
        board.push(rec.moves[ply])
    return turns


def check_spy_log(log_text: str, rec: GameRecord, spy_side: str) -> int:
    """Everything the spy read is what it may know; returns the messages checked."""
    lines = log_text.splitlines()
    positions = [ln for ln in lines if ln.startswith("position")]
    gos = [ln for ln in lines if ln.startswith("go")]
    assert len(positions) == len(gos)
    assert all(ln.startswith("position fog ") for ln in positions)
    clock = r"wtime \d+ winc \d+" if spy_side == "w" else r"btime \d+ binc \d+"
    assert all(re.fullmatch(f"go {clock}", ln) for ln in gos), gos[:3]
    truth = expected_turns(rec, spy_side)
    # The opening played the side's first turns: no message was sent for those.
    first = sum(1 for t in truth if len(t[3].move_stack) < rec.opening_plies)
    mover = Board(rec.variant, rec.initial_fen).turn
    own_moves = [m for i, m in enumerate(rec.moves) if (i % 2 == 0) == (mover == spy_side)]
    for k, line in enumerate(positions):
        got = groups(line)
        want = truth[:first + k + 1]
        assert len(got) == len(want), (k, line)
        for i, ((view, lost, move), (t_view, t_lost, t_move, board)) in \
                enumerate(zip(got, want)):
            assert view == t_view                                  # byte-exact
            assert lost == t_lost
            assert move == (t_move if i < len(got) - 1 else None)
            seen = visible_cells(board, spy_side)
            for cell, letter in enemy_pieces(view, spy_side).items():
                assert cell in seen and board.piece_at(cell) == letter
        # No opponent move: the moves told are the spy's own, in order.
        assert [g[2] for g in got[:-1]] == own_moves[:len(got) - 1]
    return len(positions)


SPY_GAMES = [(1, "w", ()), (2, "b", ()), (3, "w", ("e2e4", "e7e5")),
             (4, "b", ("d2d4", "d7d5")), (5, "w", ()), (6, "b", ())]


def test_spy_receives_only_its_own_observations(start_engine, tmp_path):
    """Six games against the random baseline, the spy White and Black, two after a book
    opening (whose moves count as the side's own: its history starts at the start
    position). Across them the checks must have met lost cells."""
    messages, lost = 0, 0
    for seed, spy_side, opening in SPY_GAMES:
        log = tmp_path / f"spy{seed}.log"
        spy = start_engine(spy_argv(log, seed), name="spy")
        other = start_engine(baseline("random"), seed=100 + seed)
        white, black = (spy, other) if spy_side == "w" else (other, spy)
        rec = play_game(white, black, "fogofwar", TC, opening=opening)
        close(spy)                      # the log is complete once the spy has gone
        replay(rec)
        assert rec.illegal is None and rec.crashed is None and rec.time_forfeit is None
        assert rec.white_score is not None
        text = log.read_text()
        messages += check_spy_log(text, rec, spy_side)
        last = [ln for ln in text.splitlines() if ln.startswith("position")][-1]
        lost += len(re.findall(r" lost ", last))
    assert messages >= 60 and lost >= 3, (messages, lost)


def test_lost_cell_is_told_and_the_capturer_is_not():
    """fog.md, What each player is told: Black's knight takes the a5 pawn, which White can
    no longer see: White's message marks a5 lost and shows no knight, no move of Black's."""
    fen = "4k3/1n6/8/P7/8/8/8/4K3 b - - 0 1"
    rec = GameRecord("fogofwar", fen, "W", "B", moves=["b7a5"], initial_fen=fen)
    board = replay(rec, fen)
    clocks = Clocks(TimeControl(60.0, 1.0))
    position, go = FogReferee().message_for(0, board, rec, clocks)
    assert position == f"position fog view {view_fen(board, 'w')} lost a5"
    assert "b7a5" not in position and "n" not in position.split()[3].replace("*", "")
    assert go == "wtime 60000 winc 1000"
    black_first = FogReferee().history(1, rec)
    assert black_first == [FogTurn(view_fen(Board("fogofwar", fen), "b"), (), "b7a5")]


def test_en_passant_view_shows_the_pawn_that_passed():
    """fog.md, pawns: the en passant target and the pawn that just passed are seen for that
    turn; the move that passed is still not told."""
    fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"
    rec = GameRecord("fogofwar", fen, "W", "B", moves=["d7d5"], initial_fen=fen)
    position, _ = FogReferee().message_for(0, replay(rec, fen), rec, Clocks(None))
    assert position == ("position fog view ********/********/***2***/***pP***/********/"
                        "********/***3**/***1K1** w kq d6 0 2")
    assert "d7d5" not in position


def test_history_format_round_trip_and_errors():
    board = Board("fogofwar")
    v1 = view_fen(board, "w")
    board.push("e2e4")
    board.push("d7d5")
    v2 = view_fen(board, "w")
    board.push("e4d5")
    board.push("d8d5")
    v3 = view_fen(board, "w")
    turns = [FogTurn(v1, (), "e2e4"), FogTurn(v2, (), "e4d5"), FogTurn(v3, ("d5",))]
    line = format_fog_position(turns)
    assert line == f"position fog view {v1} move e2e4 view {v2} move e4d5 view {v3} lost d5"
    assert parse_fog_position(line) == turns
    for bad in ("position fen x", "position fog", "position fog view",
                f"position fog view {v1} move e2e4",
                f"position fog view {v1} lost",
                f"position fog view {v1} lost z9",
                f"position fog view {v1} move e2e4 move d2d4 view {v2}",
                "position fog view v w - - 0 1"):
        with pytest.raises(ValueError):
            parse_fog_position(bad)


def test_own_clock_only_and_referee_choice():
    clocks = Clocks(TimeControl(2.0, 0.05))
    clocks.left = [1.2345, 0.0001]
    assert clocks.own_go_args(0) == "wtime 1234 winc 50"
    assert clocks.own_go_args(1) == "btime 1 binc 50"
    assert Clocks(None).own_go_args(1) == "movetime 2000"
    assert isinstance(referee_for("fogofwar"), FogReferee)
    assert isinstance(referee_for("darkchess"), FogReferee)
    for variant in ("chess", "grand", "hexagonal"):
        assert type(referee_for(variant)) is Referee


def test_reveal_at_end_is_the_whole_game():
    fen = Board("fogofwar").fen()
    rec = GameRecord("fogofwar", fen, "W", "B", moves=["e2e4", "d7d5", "e4d5"],
                     initial_fen=fen)
    assert FogReferee().reveal_at_end(1, replay(rec), rec) == \
        f"position fen {fen} moves e2e4 d7d5 e4d5"


# -- the end of the game, the PGN -------------------------------------------------------
@pytest.mark.parametrize("fen,score,move", [
    ("k7/8/8/8/8/8/8/R3K3 w - - 0 1", 1.0, "a1a8"),
    ("r3k3/8/8/8/8/8/8/K7 b - - 0 1", 0.0, "a8a1"),
])
def test_king_capture_ends_the_game(start_engine, fen, score, move):
    greedy = start_engine(baseline("greedy"), seed=1)
    other = start_engine(baseline("random"), seed=2)
    white, black = (greedy, other) if score == 1.0 else (other, greedy)
    rec = play_game(white, black, "fogofwar", TC, start_fen=fen)
    assert rec.moves == [move]
    assert rec.white_score == score and rec.termination == "king captured"
    text = write_pgn(rec, TC.pgn())
    assert '[Termination "king captured"]' in text and f'[FEN "{fen}"]' in text


def read_coordinate_pgn(text: str) -> tuple[dict, list[str], str]:
    """(tags, moves, result) of a coordinate-movetext PGN (comments dropped)."""
    head, body = text.split("\n\n", 1)
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', head, re.M))
    words = re.sub(r"\{[^}]*\}", " ", body).split()
    moves = [w for w in words[:-1] if not re.fullmatch(r"\d+\.(\.\.)?", w)]
    return tags, moves, words[-1]


def test_fog_pgn_reveals_the_whole_game_and_reads_back(start_engine):
    rec = play_game(start_engine(baseline("greedy"), seed=3),
                    start_engine(baseline("random"), seed=4), "fogofwar", TC,
                    opening=("e2e4", "e7e5"))
    assert rec.white_score is not None and len(rec.moves) > 2
    tags, moves, result = read_coordinate_pgn(write_pgn(rec, TC.pgn()))
    assert tags["Variant"] == "Fog of War" and tags["PlyCount"] == str(len(rec.moves))
    assert "SetUp" not in tags and result == rec.result == tags["Result"]
    assert moves == rec.moves                          # every move, both sides', revealed
    board = Board("fogofwar")
    for move in moves:
        board.push(move)
    assert board.outcome() is None or board.outcome().result == result


# -- the baselines ------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [11, 12])
def test_random_and_greedy_play_legal_games(start_engine, seed):
    rec = play_game(start_engine(baseline("random"), seed=seed),
                    start_engine(baseline("greedy"), seed=seed), "fogofwar", TC)
    assert rec.illegal is None and rec.crashed is None and rec.time_forfeit is None
    assert rec.termination in ("king captured", "threefold repetition", "fifty-move rule",
                               "stalemate", "adjudication: game too long")
    end = replay(rec)
    assert end.outcome() is not None or rec.termination.startswith("adjudication")


def test_naive_plays_view_legal_moves(start_engine, monkeypatch):
    monkeypatch.setattr(session, "MAX_PLIES", 16)
    rec = play_game(start_engine(baseline("naive"), seed=1),
                    start_engine(baseline("random"), seed=2), "fogofwar", TimeControl(3.0, 0.02))
    assert rec.illegal is None and rec.crashed is None and rec.time_forfeit is None
    replay(rec)


def test_baselines_refuse_other_variants(start_engine):
    eng = start_engine(baseline("random"))
    said = answers(eng, "setoption name UCI_Variant value chess", "position fog view nonsense")
    assert any("plays only fogofwar" in s for s in said)
    assert any(s.startswith("info string error position") for s in said)


# -- matches ------------------------------------------------------------------------------
def test_run_match_tells_fog_engines_only_their_views(tmp_path):
    log = tmp_path / "spy.log"
    config = MatchConfig(engine1=shlex.join(baseline("greedy")),
                         engine2=shlex.join(spy_argv(log, 9)), options1={"Seed": 9},
                         variant="fogofwar", games=2, tc="10+0.1", pgn=str(tmp_path / "m.pgn"))
    result = run_match(config)
    assert result.games == 2
    lines = log.read_text().splitlines()
    assert "setoption name UCI_Variant value fogofwar" in lines
    positions = [ln for ln in lines if ln.startswith("position")]
    assert positions and all(ln.startswith("position fog view ") for ln in positions)
    assert (tmp_path / "m.pgn").read_text().count('[Variant "Fog of War"]') == 2


def test_scripts_match_fog_greedy_beats_random(tmp_path):
    pgn = tmp_path / "fog.pgn"
    out, score = run_match_script(
        "--variant", "fogofwar", "--games", "4", "--tc", "5+0.05",
        "--engine1", shlex.join(baseline("greedy")), "--engine2", shlex.join(baseline("random")),
        "--option1", "Seed=5", "--option2", "Seed=6", "--pgn", str(pgn))
    assert score >= 3, out
    games = pgn.read_text().split("[Event ")[1:]
    assert len(games) == 4 and all('[Variant "Fog of War"]' in g for g in games)
    # The live lines say how games ended, never a move of one.
    assert not re.search(r"\b[a-h][1-8][a-h][1-8]", out)
