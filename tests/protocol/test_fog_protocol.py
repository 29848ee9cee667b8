"""`position fog ...` (docs/protocol.md): the parser, the error convention (one
`info string error` line, the last good position kept), `go` with only the own clock,
and the real `quantum` process playing fog turns through the protocol.

Searches use fixed node limits; the timeouts only guard against a hung engine.
"""
from __future__ import annotations

import random
import sys

import pytest

from engine import fog
from engine.board import Board
from fogkit import fog_turns, random_game
from protocol.dialect import parse_fog_position
from uci_helpers import ERROR_PREFIX, REPO_ROOT, Driver, check_search_output

START_W = "********/********/********/********/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# Black's view after 1.e4 and after 1.e4 e5 2.Nf3 (docs/protocol.md's example game).
BLACK_1 = "rnbqkbnr/pppppppp/8/8/********/********/********/******** b KQkq - 0 1"
BLACK_2 = "rnbqkbnr/pppp1ppp/4*3/4p3/*1*****1/1*******/********/******** b KQkq - 0 2"
GOOD = f"position fog view {BLACK_1} move e7e5 view {BLACK_2}"


@pytest.fixture
def driver():
    d = Driver()
    assert d.send("setoption name UCI_Variant value fogofwar") == []
    return d


def fog_state(d: Driver):
    e = d.session.engine
    return None if e.fog is None else e.fog.turns()


def test_parse_groups():
    h = parse_fog_position(f"view {BLACK_1} move E7E5 view {BLACK_2} lost a8 b8".split(),
                           "fogofwar")
    assert [v.fen for v in h.views] == [BLACK_1, BLACK_2]
    assert h.moves == ("e7e5",)
    assert h.lost == (frozenset(), frozenset({"a8", "b8"}))


def test_good_history_is_accepted(driver):
    assert driver.send(GOOD) == []
    assert fog_state(driver)[-1][0] == BLACK_2
    assert sorted(driver.session.engine.legal_moves()) == sorted(fog.view_moves(BLACK_2))


@pytest.mark.parametrize("tail, reason", [
    ("", "expected 'view' (view 1), not the end of the line"),
    ("views " + BLACK_1, "expected 'view' (view 1), not 'views'"),
    ("view " + " ".join(BLACK_1.split()[:5]), "view 1 needs a FEN of 6 fields"),
    (f"view {BLACK_1} move e7e5", "expected 'view' (view 2), not the end of the line"),
    (f"view {BLACK_1} lost", "'lost' after view 1 names no cell"),
    (f"view {BLACK_1} lost z9", "lost cell 'z9' of view 1 is not a cell"),
    (f"view {BLACK_1} extra", "expected 'move' or the end after view 1, not 'extra'"),
    (f"view {BLACK_1} move", "'move' after view 1 needs a move"),
    ("view rnbqkbnr/pppppppp/8/8/********/********/********/*******X b KQkq - 0 1",
     "view 1: unknown piece 'X'"),
    (f"view {BLACK_1} move e7e4 view {BLACK_2}", "move 'e7e4' is not allowed by view 1"),
    (f"view {BLACK_1} move e7e5 view {BLACK_1}", "fullmove number"),
    (f"view {BLACK_1} move e7e5 view {START_W}", "view 2 is w's"),
    (f"view {BLACK_1} lost e8", "lost cell e8 is visible in view 1"),
])
def test_errors_keep_the_last_good_position(driver, tail, reason):
    """docs/protocol.md: a malformed view, a move the view before it did not allow or a
    history that contradicts itself is one error line; the last good state stays."""
    assert driver.send(GOOD) == []
    before = fog_state(driver)
    lines = driver.send("position fog " + tail)
    assert len(lines) == 1 and lines[0].startswith(ERROR_PREFIX + "position: "), lines
    assert reason in lines[0], lines
    assert fog_state(driver) == before
    lines = driver.go("go nodes 5000")
    best, _ = check_search_output([line for line in lines if "fog" not in line])
    assert best in fog.view_moves(BLACK_2)


def test_fog_needs_the_fog_variant():
    d = Driver()
    lines = d.send(f"position fog view {START_W}")
    assert lines == [ERROR_PREFIX + "position: position fog needs a Fog of War variant, "
                                    "not chess"]


def test_true_position_after_fog(driver):
    """`position startpos` in fogofwar goes back to searching the true position."""
    assert driver.send(GOOD) == []
    assert driver.send("position startpos moves e2e4") == []
    assert fog_state(driver) is None
    lines = driver.go("go depth 2")
    assert not any("fog" in line for line in lines)
    assert driver.go("go perft 1")[-2] == "Nodes searched: 20"


def test_perft_refused_on_views(driver):
    assert driver.send(GOOD) == []
    lines = driver.go("go perft 1")
    assert len(lines) == 1 and "perft needs a true position" in lines[0]


def test_go_with_own_clock_only(driver):
    """docs/protocol.md: `go` carries only the own clock (btime/binc for Black)."""
    assert driver.send(GOOD) == []
    lines = driver.go("go btime 3000 binc 30 nodes 20000")
    assert any(line.startswith("info string fog belief ") for line in lines), lines
    assert any(line.startswith("info depth ") for line in lines), lines
    assert lines[-1].split()[1] in fog.view_moves(BLACK_2)


def test_stop_ends_an_infinite_fog_search(driver):
    """`go infinite` searches until `stop`, then answers once with a view move."""
    assert driver.send(GOOD) == []
    lines = driver.go("go infinite", stop=True)
    assert sum(line.startswith("bestmove ") for line in lines) == 1
    assert lines[-1].split()[1] in fog.view_moves(BLACK_2)
    assert any(line.startswith("info string fog belief ") for line in lines)


def test_searchmoves_are_view_moves(driver):
    assert driver.send(GOOD) == []
    lines = driver.go("go nodes 5000 searchmoves d7d5 g8f6")
    assert lines[-1] in ("bestmove d7d5", "bestmove g8f6")
    lines = driver.send("go nodes 5000 searchmoves e5e4")
    assert lines == [ERROR_PREFIX + "go: searchmoves: illegal move 'e5e4'"]


def test_display_shows_the_view(driver):
    assert driver.send(GOOD) == []
    lines = driver.send("d")
    assert f"Fog view: {BLACK_2}" in lines
    assert "Views: 2" in lines
    assert " 1 | * | * | * | * | * | * | * | * |" in lines      # White's half is fog
    assert " 8 | r | n | b | q | k | b | n | r |" in lines


def test_a_game_through_the_session(driver):
    """White plays random true moves; Black is the engine, fed views only."""
    boards, moves = random_game(31, 30)
    for turn in fog_turns(boards, moves, "b")[:8]:
        assert driver.send(turn.command) == []
        lines = driver.go("go btime 60000 nodes 8000")
        assert lines[-1].startswith("bestmove ")
        assert lines[-1].split()[1] in turn.board.legal_moves()
        assert sum(line.startswith("info string fog belief ") for line in lines) == 1


# -- the real process ------------------------------------------------------------------------

pexpect = pytest.importorskip("pexpect")
HANG_GUARD_S = 60


def test_process_plays_fog_turns():
    """`quantum` (python -m engine) plays White from views through the protocol, Black's
    moves random and hidden; each answer is a move of the true position, after its
    `info string fog belief` line."""
    rng = random.Random(5)
    board = Board("fogofwar")
    child = pexpect.spawn(sys.executable, ["-m", "engine"], cwd=str(REPO_ROOT),
                          encoding="utf-8", echo=False, timeout=HANG_GUARD_S)
    played = []
    try:
        child.sendline("uci")
        child.expect_exact("uciok")
        child.sendline("setoption name UCI_Variant value fogofwar")
        child.sendline("ucinewgame")
        groups, before = [], None
        for _ in range(5):
            lost = fog.lost_cells(before, board, "w") if before is not None else frozenset()
            groups.append("view " + fog.view(board, "w").fen
                          + (" lost " + " ".join(sorted(lost)) if lost else ""))
            child.sendline("position fog " + " ".join(groups))
            child.sendline("go wtime 30000 winc 100 nodes 10000")
            child.expect(r"info string fog belief (\d+) searched (\d+)\r\n")
            assert int(child.match.group(1)) >= int(child.match.group(2)) >= 1
            child.expect(r"bestmove (\S+)\r\n")
            move = child.match.group(1)
            assert move in board.legal_moves(), (move, board.fen())
            board.push(move)
            played.append(move)
            groups.append("move " + move)
            if board.outcome() is not None:
                break
            before = board.copy()
            board.push(rng.choice(board.legal_moves()))
            if board.outcome() is not None:
                break
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert len(played) >= 2
