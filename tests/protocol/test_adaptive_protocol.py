"""The adaptive level through UCI (issue 7, protocol/adaptive.py): its options, the
``learn`` message and its errors, implicit learning from a GUI's game sequence, the reset
button, the bad-file report, and the info string after a lost game.

Profiles live under the test's tmp_path (XDG_DATA_HOME), never in the real home."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import engine.board
from engine import adaptive
from engine.board import Board
from protocol.adaptive import LearnCommand, parse_learn
from uci_helpers import REPO_ROOT, Driver, is_error, snapshot

FOOLS_MATE = "f2f3 e7e5 g2g4 d8h4"


@pytest.fixture
def profiles(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "quantum" / "profiles"


@pytest.fixture
def driver(profiles):
    d = Driver()
    assert d.send("setoption name Level value adaptive") == []
    return d


def games(path, variant="chess") -> int:
    profile = adaptive.read_profile(path)
    return 0 if profile is None else profile.games.get(variant, 0)


# -- parsing -------------------------------------------------------------------------------
@pytest.mark.parametrize("line, expected", [
    ("result 1-0 moves e2e4", LearnCommand(1.0, moves=("e2e4",))),
    ("result 0-1 side white moves", LearnCommand(0.0, "w")),
    ("result 1/2-1/2 side black variant grand moves e3e5 E8E6",
     LearnCommand(0.5, "b", "grand", None, ("e3e5", "e8e6"))),
    ("variant hex result 3/4-1/4 moves", LearnCommand(0.75, None, "hex")),
    ("result 1/4-3/4 fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 side black moves e2e4",
     LearnCommand(0.25, "b", None, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ("e2e4",))),
])
def test_parse_learn(line, expected):
    assert parse_learn(line.split()) == expected


LEARN_ERRORS = [
    ("learn", "learn: missing 'moves'"),
    ("learn moves e2e4", "learn: missing 'result <1-0|0-1|1/2-1/2|3/4-1/4|1/4-3/4>'"),
    ("learn result moves", "learn: result needs a value"),
    ("learn result 2-0 moves", "learn: result must be one of 1-0, 0-1, 1/2-1/2, 3/4-1/4, "
                               "1/4-3/4, not '2-0'"),
    ("learn result 1-0 result 0-1 moves", "learn: result given twice"),
    ("learn result 1-0 side red moves", "learn: side must be white or black, not 'red'"),
    ("learn result 1-0 fen moves", "learn: missing FEN after 'fen'"),
    ("learn result 1-0 colour white moves", "learn: unknown token 'colour'"),
    ("learn result 1-0 variant shogi moves", "learn: unknown variant 'shogi'"),
    ("learn result 1-0 fen 8/8/8 w - - 0 1 moves", "learn: FEN"),
    ("learn result 1-0 moves e2e5", "learn: illegal move 'e2e5' (move 1 of the list)"),
    (f"learn result 1-0 moves {FOOLS_MATE}",
     "learn: the result contradicts the final position (0-1, checkmate)"),
]


@pytest.mark.parametrize("line, reason", LEARN_ERRORS)
def test_learn_errors_are_one_line_and_change_nothing(line, reason, driver, profiles):
    lines = driver.send(line)
    assert len(lines) == 1 and is_error(lines), lines
    assert lines[0].startswith("info string error " + reason), lines
    assert not (profiles / "default.json").exists()


# -- learning ------------------------------------------------------------------------------
def test_learn_message_updates_the_profile_and_reports_a_loss(driver, profiles):
    lines = driver.send(f"learn result 0-1 side white moves {FOOLS_MATE}")
    assert len(lines) == 1 and lines[0].startswith("info string adaptive: "), lines
    assert not is_error(lines)
    assert games(profiles / "default.json") == 1
    assert driver.send("learn result 1-0 side white moves e2e4 e7e5") == []    # a win: quiet
    assert games(profiles / "default.json") == 2
    grand = driver.send("learn result 1/2-1/2 side black variant grand moves e3e5")
    assert grand == [] and games(profiles / "default.json", "grand") == 1


def test_the_loss_report_lists_the_changes_vs_defaults(driver, profiles):
    driver.send(f"learn result 0-1 side white moves {FOOLS_MATE}")
    [line] = driver.send(f"learn result 0-1 side white moves {FOOLS_MATE}")
    profile = adaptive.read_profile(profiles / "default.json")
    expected = adaptive.changes_text(profile.multipliers("chess"),
                                     adaptive.weight_names("chess"))
    assert line == "info string adaptive: " + expected
    assert expected == "no weight changed" or expected.endswith(" %")


def test_learn_at_another_level_learns_nothing(profiles):
    d = Driver()
    assert d.send(f"learn result 0-1 side white moves {FOOLS_MATE}") == \
        ["info string adaptive: nothing learnt (Level is not adaptive)"]
    assert not profiles.exists()


def test_implicit_learning_from_a_gui_sequence(driver, profiles):
    """The GUI plays a game to mate, sends the final position, then ucinewgame."""
    driver.send("setoption name UCI_Opponent value GM 2800 human Magnus Carlsen")
    path = profiles / "magnus_carlsen.json"
    driver.send("position startpos moves f2f3 e7e5")
    driver.go("go depth 2")                          # the engine moves for White
    driver.send(f"position startpos moves {FOOLS_MATE}")
    lines = driver.send("ucinewgame")                # White (the engine) was mated
    assert games(path) == 1
    assert lines == ["info string adaptive: no weight changed"]     # a loss teaches nothing
    assert adaptive.read_profile(path).multipliers("chess") == adaptive.defaults("chess")
    assert driver.send("ucinewgame") == [] and games(path) == 1     # not learnt twice


def test_no_implicit_learning_without_a_finished_game_or_a_search(driver, profiles):
    driver.send("position startpos moves e2e4 e7e5")
    driver.go("go depth 1")
    driver.send("ucinewgame")                        # the game is not over
    driver.send(f"position startpos moves {FOOLS_MATE}")
    driver.send("ucinewgame")                        # over, but the engine never moved
    assert games(profiles / "default.json") == 0


def test_quit_learns_from_a_finished_game(driver, profiles):
    driver.send("position startpos moves f2f3 e7e5 g2g4")
    driver.go("go depth 2")                          # the engine moves for Black and mates
    driver.send(f"position startpos moves {FOOLS_MATE}")
    driver.send("quit")
    assert not driver.running and games(profiles / "default.json") == 1


# -- options -------------------------------------------------------------------------------
def test_reset_button_restores_defaults(driver, profiles):
    driver.send(f"learn result 0-1 side white moves {FOOLS_MATE}")
    path = profiles / "default.json"
    assert adaptive.read_profile(path).games == {"chess": 1}
    assert driver.send("setoption name Reset Adaptive Profile") == \
        [f"info string adaptive: profile {path} reset to defaults"]
    assert adaptive.read_profile(path) == adaptive.Profile("default")
    assert driver.session.engine.adaptive.profile().multipliers("chess") == \
        adaptive.defaults("chess")


def test_profile_option_and_a_broken_profile(driver, tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"format": adaptive.FORMAT, "version": 1}))
    lines = driver.send(f"setoption name Adaptive Profile value {path}")
    assert lines == [f"info string error adaptive profile {path}: version 1, not 2: replaced "
                     f"by defaults (the old file is kept as mine.json.bad)"]
    assert adaptive.read_profile(path) == adaptive.Profile("default")
    driver.send("learn result 1-0 side black moves e2e4 f7f6 d2d4 g7g5 d1h5")
    assert games(path) == 1
    driver.send("setoption name Adaptive Profile value <empty>")     # back to the default
    assert driver.session.engine.adaptive.path.name == "default.json"


@pytest.mark.parametrize("level", ["hard", "adaptive"])
def test_a_file_that_is_no_profile_is_refused_and_left_byte_for_byte(profiles, tmp_path,
                                                                     level):
    """Issue 13: `Adaptive Profile` could replace any file the user can write (renamed to
    .bad, JSON written in its place). A file that is not a Quantum profile is refused with
    one error line, the option keeps its value, and neither learning nor the reset button
    touches the file or adds one next to it."""
    folder = tmp_path / "home"
    folder.mkdir()
    path = folder / ".bashrc"
    data = b"export PATH=$HOME/bin:$PATH\n# \xff\x00 not UTF-8 either\n"
    path.write_bytes(data)
    d = Driver()
    d.send(f"setoption name Level value {level}")
    before = snapshot(d.session)
    answer = d.send(f"setoption name Adaptive Profile value {path}")
    assert len(answer) == 1 and answer[0].startswith(
        f"info string error setoption: adaptive profile {path}: not a Quantum profile")
    assert answer[0].endswith(": refused, the file is left as it is")
    assert snapshot(d.session) == before and d.session.engine.adaptive.path != path
    d.send(f"learn result 0-1 side white moves {FOOLS_MATE}")
    d.send("setoption name Reset Adaptive Profile")
    assert path.read_bytes() == data and list(folder.iterdir()) == [path]


def test_a_missing_profile_file_is_created(driver, tmp_path):
    path = tmp_path / "new" / "fish.json"
    assert driver.send(f"setoption name Adaptive Profile value {path}") == []
    driver.send(f"learn result 0-1 side white moves {FOOLS_MATE}")
    assert games(path) == 1


def test_opponent_names_the_file(driver, profiles):
    driver.send("setoption name UCI_Opponent value none none computer ../../Evil Bot")
    driver.send(f"learn result 0-1 side white moves {FOOLS_MATE}")
    assert [p.name for p in profiles.iterdir()] == ["evil_bot.json"]


def test_adaptive_plays_like_hard_through_uci(profiles):
    moves = {}
    for level in ("hard", "adaptive"):
        d = Driver()
        d.send(f"setoption name Level value {level}")
        d.send("position startpos moves e2e4 c7c5 g1f3")
        moves[level] = [line for line in d.go("go depth 6") if line.startswith("bestmove")]
    assert moves["hard"] == moves["adaptive"]


def test_engine_process_learns_and_writes_only_under_xdg(profiles):
    """The real process: learn, quit; the profile is where XDG_DATA_HOME says."""
    script = "\n".join(["uci", "setoption name Level value adaptive",
                        "setoption name UCI_Opponent value none none computer Fish",
                        f"learn result 0-1 side white moves {FOOLS_MATE}",
                        "isready", "quit", ""])
    proc = subprocess.run([sys.executable, "-m", "engine"], input=script, text=True,
                          capture_output=True, cwd=str(REPO_ROOT), timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert any(line.startswith("info string adaptive: ") for line in out), out
    assert out[-1] == "readyok"
    assert games(profiles / "fish.json") == 1


# -- long games (issue 13) -------------------------------------------------------------------
class CountingBoard(Board):
    """A Board that counts the copies made of it (each a whole position record with its
    undo history, about 100 KB)."""

    copies = 0

    def copy(self):
        CountingBoard.copies += 1
        return super().copy()


@pytest.mark.parametrize("level", ["hard", "adaptive"])
def test_a_long_game_is_learnt_without_a_board_per_move(profiles, monkeypatch, level):
    """Issue 13: `learn` with 100,000 moves copied the board before every move (52 s,
    8.7 GB), though learning reads at most MAX_POSITIONS positions. Now the replay keeps no
    board per move: however long the game, it copies at most that many."""
    monkeypatch.setattr(engine.board, "Board", CountingBoard)
    CountingBoard.copies = 0
    d = Driver()
    d.send(f"setoption name Level value {level}")
    moves = " ".join(["g1f3", "g8f6", "f3g1", "f6g8"] * 2500)     # a repetition draw
    assert not is_error(d.send(f"learn result 1/2-1/2 side white moves {moves}"))
    assert CountingBoard.copies <= adaptive.MAX_POSITIONS
    if level == "adaptive":
        assert games(profiles / "default.json") == 1


def every_board_then_spread(variant: str, moves: list[str], side: str) -> list:
    """The positions learning read before issue 13: a copy before every move, those with
    ``side`` to move, spread to MAX_POSITIONS (the reference for the replay's)."""
    board, played = Board(variant), []
    for move in moves:
        played.append((board.copy(), move))
        board.push(move)
    return adaptive._spread([(b, m) for b, m in played if b.turn == side],
                            adaptive.MAX_POSITIONS)


@pytest.mark.parametrize("variant, plies", [("chess", 300), ("grand", 90), ("hexagonal", 130)])
def test_the_positions_learnt_from_are_unchanged(variant, plies):
    """The replay that copies only what it reads gives exactly the positions (board and
    history) and moves that copying every board did, for long and short games."""
    rng = random.Random(plies)
    board, moves = Board(variant), []
    while len(moves) < plies and board.legal_moves():
        moves.append(rng.choice(board.legal_moves()))
        board.push(moves[-1])
    game = adaptive.game_positions(variant, None, moves)
    for side in "wb":
        want = every_board_then_spread(variant, moves, side)
        got = game.positions(side, adaptive.MAX_POSITIONS)
        assert [(b.fen(), b.move_stack, m) for b, m in got] == \
            [(b.fen(), b.move_stack, m) for b, m in want]


def test_a_report_naming_a_long_profile_path_stays_short(driver, tmp_path):
    """Issue 13: reports echo the profile path; a legal path of 2,000 characters is cut
    like any echoed input, in the info string as in the error line."""
    path = tmp_path.joinpath(*["d" * 200] * 10, "p.json")
    assert driver.send(f"setoption name Adaptive Profile value {path}") == []
    answer = driver.send("setoption name Reset Adaptive Profile")
    assert len(answer) == 1 and answer[0].startswith(f"info string adaptive: profile {tmp_path}")
    assert len(answer[0]) < 300 and adaptive.read_profile(path) == adaptive.Profile("default")
