"""The human terminal mode (adapters/terminal.py) and the arbiter's player and referee
hooks it stands on: a HumanPlayer fed a scripted input plays through play_game against
the random-moving fake engine, or against a second HumanPlayer (hot seat), and the CLI
runs end to end under pexpect and with piped input; an engine that does not start, or
crashes, is reported with its last stderr lines, never a traceback. In Fog of War the
human sees only the view, and a hot-seat game drops a curtain between the turns."""
from __future__ import annotations

import io
import shutil
import subprocess
import sys
import time

import pexpect
import pytest

from adapterkit import REPO_ROOT, baseline_argv, fake_command, replay
from adapters import arbiter, session
from adapters.arbiter import Clocks, GameOver, Referee, TimeControl
from adapters.session import play_game
from adapters.session import GameSession
from adapters.terminal import CLEAR_SCREEN, HumanPlayer, curtain, play_in_terminal, read_move
from engine.board import Board
from engine.drawing import draw
from engine.fog import view

TC = TimeControl(60.0, 1.0)          # a human's clock that a scripted input never runs out
STARTUP = 30.0                       # hang guards, generous for a loaded machine


def human(script: str, name: str = "Tester", **kwargs):
    """A HumanPlayer reading ``script`` (lines of input) and writing to a StringIO."""
    out = io.StringIO()
    return HumanPlayer(name, io.StringIO(script), out, **kwargs), out


def vs_fake(spawn, variant: str, script: str, colour: int = 0, tc=TC):
    """Play ``script`` against the fake engine; (record, everything the human saw)."""
    player, out = human(script)
    engine = spawn("good", 7)
    white, black = (player, engine) if colour == 0 else (engine, player)
    rec = play_game(white, black, variant, tc)
    return rec, out.getvalue()


# -- the human player against an engine -----------------------------------------------
def test_bad_entries_are_answered_and_asked_again(spawn):
    rec, seen = vs_fake(spawn, "chess", "hello\n\nz9z9\ne2e5\ne7e8\ne2e4\nquit\n")
    assert "'hello' is neither a move nor a command" in seen
    assert "There is no cell z9 on this board." in seen
    assert "e2e5 is not a legal move here" in seen
    assert "e7e8 is not a legal move here" in seen
    assert seen.count("White to move (Tester)> ") == 7      # six entries on move one
    assert rec.moves[0] == "e2e4"
    assert rec.white_score is None and rec.result == "*"
    assert rec.termination == "abandoned: Tester quit"
    replay(rec)


def test_promotion_without_its_letter_names_the_choices(spawn):
    fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1"
    player, out = human("a7a8\na7a8x\na7a8n\nquit\n")
    rec = play_game(player, spawn("good", 1), "chess", TC, start_fen=fen)
    seen = out.getvalue()
    assert "a7a8 promotes: add the piece letter, one of a7a8b, a7a8n, a7a8q, a7a8r." in seen
    assert "a7a8x is not a legal promotion here" in seen
    assert rec.moves[0] == "a7a8n"


def test_moves_lists_the_legal_moves_hex(spawn):
    rec, seen = vs_fake(spawn, "hexagonal", "moves\nquit\n")
    legal = Board("hexagonal").legal_moves()
    assert f"Legal moves ({len(legal)}):" in seen
    flat = " ".join(seen.split())
    assert all(f" {m}" in flat for m in legal)
    assert rec.moves == []


def test_moves_in_chess_also_lists_san(spawn):
    _, seen = vs_fake(spawn, "chess", "moves\nquit\n")
    assert "Legal moves (20):" in seen and "In SAN: Na3 Nc3 Nf3 Nh3 a3 a4" in seen


@pytest.mark.parametrize("colour", [0, 1], ids=["white-resigns", "black-resigns"])
def test_resignation_loses_the_game(spawn, colour):
    rec, seen = vs_fake(spawn, "chess", "resign\n", colour)
    assert rec.white_score == (0.0 if colour == 0 else 1.0)
    assert rec.result == ("0-1" if colour == 0 else "1-0")
    assert rec.termination == "resignation: Tester resigned"
    assert len(rec.moves) == colour             # Black resigns after White's first move
    assert "Tester resigns." in seen
    assert (rec.crashed, rec.time_forfeit, rec.illegal) == (None, None, None)


def test_san_moves_in_chess(spawn):
    rec, seen = vs_fake(spawn, "chess", "Nf3\ng3\nquit\n")
    assert rec.moves[0] == "g1f3" and rec.moves[2] == "g2g3"
    assert "White played" not in seen and "Black played" in seen
    replay(rec)


def test_ambiguous_san_is_refused():
    fen = "k7/8/8/8/8/8/8/KN3N2 w - - 0 1"
    game = GameSession("chess", human("")[0], human("")[0], start_fen=fen)
    game.start()
    view = game.view(0)
    move, problem = read_move(game, view, "Nd2")
    assert move is None and "ambiguous" in problem
    assert read_move(game, view, "Nbd2") == ("b1d2", None)


def test_hex_game_draws_the_honeycomb_from_the_humans_side(spawn):
    rec, seen = vs_fake(spawn, "hexagonal", "f5f6\nquit\n", colour=0)
    assert Board("hexagonal").draw() in seen           # White sees White's side
    assert "                     11 b" in seen            # the top of the honeycomb
    rec, seen = vs_fake(spawn, "hexagonal", "quit\n", colour=1)
    after = replay(rec)
    g = after.variant.geometry
    flipped = draw(g, lambda c: after.piece_at(g.names[c]), flip=True)
    assert flipped in seen                              # Black sees it turned round
    assert flipped.splitlines()[0].strip() == "f"      # file f's letter on top
    assert flipped.splitlines()[-1].strip() == "11 b"  # Black's bishop on f11 at the bottom
    assert f"White played {rec.moves[0]}." in seen


def test_check_and_clocks_are_shown():
    # Scholar's mate threat: after 1 e4 f6 2 Qh5+ Black is in check.
    player, out = human("g7g6\n")
    game = GameSession("chess", human("")[0], player, TimeControl(300, 2),
                       opening=("e2e4", "f7f6", "d1h5"))
    game.start()
    game.clocks.left = [125.0, 9.3]
    move, spent = player.turn(game, 1)
    seen = out.getvalue()
    assert move == "g7g6" and spent >= 0
    assert "White played d1h5 (Qh5+)." in seen
    assert "Black is in check." in seen
    assert "Clocks: White 2:05  Black 9.3 (+2 s a move)" in seen


def test_a_draw_offer_is_answered_by_the_engines_score(spawn):
    """The engine has no score before its first search: it declines (adapters/draws.py)."""
    rec, seen = vs_fake(spawn, "chess", "draw\nquit\n")
    assert "declines the draw." in seen and rec.result == "*"


def test_human_overrunning_the_clock_loses_on_time(spawn):
    class SlowInput(io.StringIO):
        def readline(self, *args):
            time.sleep(0.4)
            return super().readline(*args)

    out = io.StringIO()
    player = HumanPlayer("Slow", SlowInput("e2e4\n"), out)
    rec = play_game(player, spawn("good", 3), "chess", TimeControl(0.2, 0.0))
    assert rec.time_forfeit == 0 and rec.white_score == 0.0
    assert rec.termination.startswith("time forfeit: Slow overran by")
    assert rec.moves == []


def test_end_of_input_abandons_the_game(spawn):
    rec, _ = vs_fake(spawn, "grand", "")
    assert rec.result == "*" and rec.termination == "abandoned: Tester left the game"


def test_grand_cells(spawn):
    rec, seen = vs_fake(spawn, "grand", "j11j10\na2a11\ne3e5\nquit\n")
    assert "There is no cell j11 on this board." in seen
    assert "There is no cell a11 on this board." in seen
    assert rec.moves[0] == "e3e5"


# -- two humans -------------------------------------------------------------------------
def test_hot_seat_fools_mate():
    stream, out = io.StringIO("f2f3\ne5\ng2g4\nQh4#\n"), io.StringIO()
    turns = []

    def hook(player, colour):
        turns.append((player.name, colour))
    a = HumanPlayer("Ann", stream, out, between_turns=hook)
    b = HumanPlayer("Bob", stream, out, between_turns=hook)
    rec = play_in_terminal("chess", (a, b), output=out)
    assert rec.moves == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert rec.result == "0-1" and rec.termination == "checkmate"
    assert (rec.white, rec.black) == ("Ann", "Bob")
    assert turns == [("Ann", "White"), ("Bob", "Black")] * 2
    assert out.getvalue().rstrip().endswith("Game over: 0-1 (checkmate)")


def test_hot_seat_draw_by_agreement():
    stream, out = io.StringIO("draw\nf5f6\ndraw\n"), io.StringIO()
    a, b = HumanPlayer("Ann", stream, out), HumanPlayer("Bob", stream, out)
    rec = play_in_terminal("hexagonal", (a, b), tc=None, output=out)
    seen = out.getvalue()
    assert "You offer a draw" in seen and "White offers a draw" in seen
    assert rec.moves == ["f5f6"]
    assert rec.white_score == 0.5 and rec.termination == "draw by agreement"


def test_hot_seat_moving_declines_a_draw():
    stream, out = io.StringIO("draw\ne4\ne5\ndraw\nquit\n"), io.StringIO()
    a, b = HumanPlayer("Ann", stream, out), HumanPlayer("Bob", stream, out)
    rec = play_in_terminal("chess", (a, b), tc=None, output=out)
    assert "(Moving declines the draw offer.)" in out.getvalue()
    # Black declined, so White's "draw" is a new offer, not an acceptance; White quits.
    assert rec.moves == ["e2e4", "e7e5"] and rec.termination == "abandoned: Ann quit"


# -- the arbiter's hooks ----------------------------------------------------------------
def test_referee_message_is_what_engines_were_always_sent():
    rec = arbiter.GameRecord("chess", Board("chess").fen(), "a", "b", moves=["e2e4", "e7e5"],
                             opening_plies=1)
    clocks = Clocks(TimeControl(2.0, 0.05))
    clocks.left = [1.2345, 0.0001]
    position, go = Referee().message_for(0, None, rec, clocks)
    assert position == f"position fen {rec.start_fen} moves e7e5"
    assert go == "wtime 1234 btime 1 winc 50 binc 50"
    rec.opening_plies = 2
    assert Referee().message_for(0, None, rec, clocks)[0] == f"position fen {rec.start_fen}"
    assert Clocks(None).go_args() == "movetime 2000"
    assert Referee().reveal_at_end(1, None, rec) == f"position fen {rec.start_fen}"


def test_every_turn_goes_through_the_referee(spawn, monkeypatch):
    monkeypatch.setattr(session, "MAX_PLIES", 6)
    calls = []

    class Watching(Referee):
        def chance(self, board, rec):
            calls.append(("chance", len(rec.moves)))

        def message_for(self, side, board, rec, clocks):
            calls.append(("message", len(rec.moves)))
            assert side == len(rec.moves) % 2
            return super().message_for(side, board, rec, clocks)

    rec = play_game(spawn("good", 1), spawn("good", 2), "chess", TC, referee=Watching())
    assert len(rec.moves) == 6
    assert calls == [(kind, n) for n in range(6) for kind in ("chance", "message")]


def test_game_without_clocks_between_engines(spawn, monkeypatch):
    monkeypatch.setattr(session, "MAX_PLIES", 8)
    rec = play_game(spawn("good", 1), spawn("good", 2), "hexagonal", None)
    assert len(rec.moves) == 8 and rec.termination == "adjudication: game too long"


def test_game_over_raised_by_a_player_is_recorded(spawn):
    class Resigner:
        name, id_name = "quitter", None

        def start_game(self, variant):
            pass

        def go(self, position, go, timeout):
            raise GameOver(1.0, "resignation: quitter resigned")

    rec = play_game(spawn("good", 1), Resigner(), "chess", TC)
    assert rec.result == "1-0" and len(rec.moves) == 1 and rec.black == "quitter"


def test_square_board_drawn_from_blacks_side():
    board = Board("chess")
    g = board.variant.geometry
    lines = draw(g, lambda c: board.piece_at(g.names[c]), flip=True).splitlines()
    assert lines[1] == " 1 | R | N | B | K | Q | B | N | R |"
    assert lines[-1] == "     h   g   f   e   d   c   b   a"
    assert draw(g, lambda c: board.piece_at(g.names[c])) == board.draw()


# -- the command line -------------------------------------------------------------------
def test_cli_plays_hexagonal_against_the_fake_under_pexpect():
    child = pexpect.spawn(sys.executable, ["-m", "adapters.terminal", "--variant", "hexagonal",
                                           "--engine", fake_command("good", 5), "--tc", "none"],
                          cwd=str(REPO_ROOT), encoding="utf-8", timeout=STARTUP)
    try:
        child.expect(r"you play White against RandomMover-good")
        child.expect_exact("White to move (Human)> ")
        child.sendline("f5f6")
        child.expect(r"Black played (\w+)\.")
        child.expect_exact("White to move (Human)> ")
        child.sendline("xyz")
        child.expect_exact("'xyz' is neither a move nor a command")
        child.sendline("moves")
        child.expect(r"Legal moves \(\d+\):")
        child.expect_exact("White to move (Human)> ")
        child.sendline("quit")
        child.expect_exact("Game over: * (abandoned: Human quit)")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_cli_two_humans_writes_the_pgn(tmp_path):
    pgn = tmp_path / "game.pgn"
    nice = [shutil.which("nice"), "-n", "19"] if shutil.which("nice") else []
    proc = subprocess.run(nice + [sys.executable, str(REPO_ROOT / "scripts" / "play"),
                                  "--two-humans", "--tc", "none", "--pgn", str(pgn)],
                          input="f3\ne5\ng4\nQh4#\n", check=False, capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Game over: 0-1 (checkmate)" in proc.stdout
    text = pgn.read_text()
    assert '[White "Human 1"]' in text and '[Black "Human 2"]' in text
    assert '[Termination "checkmate"]' in text and '[TimeControl "-"]' in text
    assert "1. f3 e5 2. g4 Qh4# 0-1" in text


@pytest.mark.parametrize("engine, words", [
    (fake_command("exit"), "exited with status 4"),
    ('"unbalanced quote', "bad engine command"),
    ("/nonexistent/engine", "could not be started (No such file or directory"),
], ids=["exits-at-once", "bad-quoting", "missing"])
def test_cli_reports_an_engine_that_does_not_start(engine, words):
    proc = subprocess.run([sys.executable, "-m", "adapters.terminal", "--engine", engine,
                           "--tc", "none"], input="", check=False, capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith("error: the engine did not start: ") and words in first
    if "exit" in engine:
        assert proc.stderr.splitlines()[1:] == [
            "  its stderr: random_mover: exit mode, leaving before uci"]


def test_engine_crash_is_shown_with_its_last_stderr_lines(spawn):
    """The fake plays White and dies at its 3rd go; the person's fallback moves cover
    whatever its first two moves were."""
    player, _ = human("a7a6\nh7h6\nb7b6\ng7g6\n")
    out = io.StringIO()
    rec = play_in_terminal("chess", (player,), spawn("crash", 3), colour=1, tc=TC, output=out)
    assert rec.crashed == 0 and rec.result == "0-1"
    assert out.getvalue().endswith(
        "Game over: 0-1 (fake-crash crashed: fake-crash exited with status 3)\n"
        "  RandomMover-crash stderr: last words 10 of 12\n"
        "  RandomMover-crash stderr: last words 11 of 12\n"
        "  RandomMover-crash stderr: last words 12 of 12\n")


def test_cli_rejects_a_bad_option():
    proc = subprocess.run([sys.executable, "-m", "adapters.terminal", "--option", "Level"],
                          check=False, capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert proc.returncode == 2 and "NAME=VALUE" in proc.stderr


# -- Fog of War ---------------------------------------------------------------------------
FOG_RANDOM = baseline_argv("fog_random")
FOG_GREEDY = baseline_argv("fog_greedy")


def fog_drawing(board: Board, side: str) -> str:
    """``side``'s view of ``board`` drawn as the terminal must draw it: ``?`` on fog."""
    v = view(board, side)
    g = board.variant.geometry
    return draw(g, lambda c: v.pieces.get(g.names[c]) if g.names[c] in v.visible else "?",
                flip=side == "b")


def fog_start_view_drawing(flip: bool = False) -> str:
    """The start view: ``?`` on the opponent's half."""
    return fog_drawing(Board("fogofwar"), "b" if flip else "w")


def test_fog_human_sees_only_the_view(start_engine):
    player, out = human("e2e4\nmoves\nquit\n")
    rec = play_game(player, start_engine(FOG_RANDOM), "fogofwar", TC)
    seen = out.getvalue()
    assert fog_start_view_drawing() in seen
    assert "? = fog: you cannot see that cell." in seen
    assert "Black has moved (Fog of War: you do not see where). Your last move: e2e4." in seen
    assert rec.moves[0] == "e2e4" and rec.moves[1] not in seen      # Black's move is hidden
    assert "Clock: White 1:00 (+1 s a move)" in seen and "Black 1:00" not in seen
    assert "Legal moves (" in seen and rec.termination == "abandoned: Tester quit"


def test_fog_human_is_told_a_lost_cell(start_engine):
    # The greedy engine's knight takes the a5 pawn, which White then cannot see.
    fen = "4k3/1n6/8/P7/8/8/8/4K3 w - - 0 1"
    player, out = human("e1e2\nquit\n")
    rec = play_game(player, start_engine(FOG_GREEDY), "fogofwar", TC, start_fen=fen)
    assert rec.moves == ["e1e2", "b7a5"]
    seen = out.getvalue()
    assert "You lost a piece on a5 (now out of sight)." in seen
    after = replay(rec, fen)
    assert fog_drawing(after, "w") in seen and "| n |" not in fog_drawing(after, "w")
    assert "b7a5" not in seen


def test_fog_human_moves_are_checked_against_the_view(start_engine):
    # e3 holds a hidden knight: the pawn can go neither to e3 nor (through it) to e4.
    fen = "4k3/8/8/8/8/4n1N1/4P3/4K3 w - - 0 1"
    player, out = human("e2e4\ne2e3\ng3e4\nquit\n")
    rec = play_game(player, start_engine(FOG_RANDOM), "fogofwar", TC, start_fen=fen)
    seen = out.getvalue()
    assert "e2e4 is not a legal move here" in seen and "e2e3 is not a legal move here" in seen
    assert rec.moves[0] == "g3e4"


def test_fog_hot_seat_curtain_between_turns():
    stream, out = io.StringIO("\ne2e4\n\nd7d5\n\nquit\n"), io.StringIO()
    a = HumanPlayer("Ann", stream, out, between_turns=curtain)
    b = HumanPlayer("Bob", stream, out, between_turns=curtain)
    rec = play_in_terminal("fogofwar", (a, b), tc=None, output=out)
    assert rec.moves == ["e2e4", "d7d5"] and rec.termination == "abandoned: Ann quit"
    seen = out.getvalue()
    screens = seen.split(CLEAR_SCREEN)
    prompts = [s for s in screens if "Pass the device" in s]
    assert [p.strip() for p in prompts] == [
        "Pass the device to White (Ann), then press Enter.",
        "Pass the device to Black (Bob), then press Enter.",
        "Pass the device to White (Ann), then press Enter."]
    # Each screen between two curtains shows one player's view and prompt only.
    views = [s for s in screens if "to move (" in s]
    assert len(views) == 3
    assert fog_start_view_drawing() in views[0] and "White to move (Ann)" in views[0]
    assert fog_start_view_drawing(flip=True) in views[1] and "Black to move (Bob)" in views[1]
    assert all(("White to move" in v) != ("Black to move" in v) for v in views)
    assert "e2e4" not in views[1] and "Your last move: e2e4." in views[2]
    assert seen.rstrip().endswith("Game over: * (abandoned: Ann quit)")   # then revealed


def test_fog_curtain_end_of_input_abandons():
    stream, out = io.StringIO(""), io.StringIO()
    a = HumanPlayer("Ann", stream, out, between_turns=curtain)
    b = HumanPlayer("Bob", stream, out, between_turns=curtain)
    rec = play_in_terminal("fogofwar", (a, b), tc=None, output=out)
    assert rec.moves == [] and rec.termination == "abandoned: Ann left the game"


def test_cli_fog_two_humans_drops_the_curtain(tmp_path):
    pgn = tmp_path / "fog.pgn"
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "play"), "--variant",
                           "fogofwar", "--two-humans", "--tc", "none", "--pgn", str(pgn)],
                          input="\ne2e4\n\ne7e5\n\nquit\n", check=False, capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.count(CLEAR_SCREEN) == 6
    assert "Pass the device to Black (Human 2), then press Enter." in proc.stdout
    assert "Game over: * (abandoned: Human 1 quit)" in proc.stdout
    text = pgn.read_text()
    assert '[Variant "Fog of War"]' in text and "1. e2e4 e7e5 *" in text
