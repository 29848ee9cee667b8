"""Every way an engine can misbehave loses it the game, with the reason recorded on the
right side: crash, hang, illegal / malformed / wrongly empty move, overrunning the clock,
and (at startup) never answering ``uci``, exiting at once or not existing at all. A
crashed engine's last stderr lines are kept in the record, and its stderr never blocks it."""
from __future__ import annotations

import subprocess
import time

import pytest

from adapterkit import FAKE, fake_argv, replay
from adapters import arbiter, uci_engine
from adapters.arbiter import TimeControl
from adapters.openings import openings_for
from adapters.session import play_game
from adapters.uci_engine import EngineError, UciEngine

TC = TimeControl(2.0, 0.05)
SHORT = TimeControl(0.5, 0.05)      # for the faults that have to wait out a clock

# mode -> (record field set for the faulty side, words in the termination,
#          the faulty engine's ``go`` that misbehaves, time control)
FAULTS = {
    "crash": ("crashed", "fake-crash crashed", 3, TC),
    "hang": ("time_forfeit", "time forfeit: fake-hang sent no move", 2, SHORT),
    "illegal": ("illegal", "fake-illegal sent illegal move", 2, TC),
    "garbage": ("illegal", "fake-garbage sent illegal move zz99", 2, TC),
    "none": ("illegal", "fake-none sent no move in", 2, TC),
    "slow": ("time_forfeit", "time forfeit: fake-slow", 1, SHORT),
}
FIELDS = ("crashed", "time_forfeit", "illegal")


def play_fault(spawn, mode, faulty_side, variant="chess"):
    field, words, nth_go, tc = FAULTS[mode]
    bad, good = spawn(mode, 100 + faulty_side), spawn("good", 200 + faulty_side)
    white, black = (bad, good) if faulty_side == 0 else (good, bad)
    rec = play_game(white, black, variant, tc)
    return rec, bad, good


@pytest.mark.parametrize("faulty_side", [0, 1], ids=["faulty-white", "faulty-black"])
@pytest.mark.parametrize("mode", list(FAULTS))
def test_fault_loses_the_game(spawn, mode, faulty_side):
    field, words, nth_go, _ = FAULTS[mode]
    rec, bad, good = play_fault(spawn, mode, faulty_side)
    assert getattr(rec, field) == faulty_side, rec.termination
    for other in FIELDS:
        if other != field:
            assert getattr(rec, other) is None, (other, rec.termination)
    assert rec.white_score == (0.0 if faulty_side == 0 else 1.0)
    assert rec.result == ("0-1" if faulty_side == 0 else "1-0")
    assert words in rec.termination
    # The fault came exactly at the faulty engine's nth go; every move before it stands.
    assert len(rec.moves) == 2 * (nth_go - 1) + faulty_side
    replay(rec)
    assert good.alive


@pytest.mark.parametrize("variant", ["grand", "hexagonal"])
@pytest.mark.parametrize("mode", ["illegal", "garbage", "crash"])
def test_fault_in_other_variants(spawn, mode, variant):
    field, words, nth_go, _ = FAULTS[mode]
    rec, _, _ = play_fault(spawn, mode, 1, variant)
    assert getattr(rec, field) == 1 and rec.white_score == 1.0, rec.termination
    assert words in rec.termination
    assert len(rec.moves) == 2 * (nth_go - 1) + 1
    replay(rec)


def test_crashed_engine_is_seen_dead(spawn):
    rec, bad, _ = play_fault(spawn, "crash", 0)
    assert not bad.alive and bad.proc.returncode == 3


def test_hung_engine_is_killed_and_loses_its_next_game_at_once(spawn):
    rec, bad, good = play_fault(spawn, "hang", 1)
    assert rec.time_forfeit == 1
    # A hung engine is useless: the arbiter stops it, so a match runner restarts it
    # rather than waiting out a timeout on every later game.
    assert not bad.alive
    again = play_game(bad, good, "chess", TC)
    assert again.crashed == 0 and again.white_score == 0.0
    assert "failed to start the game" in again.termination
    assert again.moves == []


def test_late_answer_is_not_taken_for_the_next_move(spawn):
    """An engine that answers long after its clock ran out loses on time; its late
    bestmove must not be read as its answer in the next game."""
    bad, good = spawn("veryslow", 1), spawn("good", 2)
    rec = play_game(bad, good, "chess", TimeControl(0.3, 0.0))
    assert rec.time_forfeit == 0 and rec.white_score == 0.0
    assert "sent no move" in rec.termination and rec.moves == []
    assert bad.alive                      # it did answer in the end: not hung
    again = play_game(bad, good, "chess", TC)
    assert (again.crashed, again.time_forfeit, again.illegal) == (None, None, None), \
        again.termination
    replay(again)


def test_silent_engine_fails_within_startup_timeout(monkeypatch):
    procs = []

    class RecordingPopen(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            procs.append(self)

    monkeypatch.setattr(uci_engine.subprocess, "Popen", RecordingPopen)
    start = time.monotonic()
    with pytest.raises(EngineError, match="did not answer in 1.0 s"):
        UciEngine(fake_argv("mute"), name="fake-mute", startup_timeout=1.0)
    elapsed = time.monotonic() - start
    assert elapsed >= 1.0                 # it waited out its timeout (no upper bound: no wall-clock limits in tests)
    # The engine that never started is not left running behind the caller's back.
    assert len(procs) == 1 and procs[0].poll() is not None


def test_engine_that_exits_at_once_raises(monkeypatch):
    import sys
    with pytest.raises(EngineError, match="exited"):
        UciEngine([sys.executable, "-c", "pass"], name="nothing", startup_timeout=20.0)


@pytest.mark.parametrize("command, words", [
    (["/nonexistent/engine"], "could not be started (No such file or directory"),
    ('"unbalanced quote', "bad engine command"),
    ("", "empty engine command"),
], ids=["missing", "bad-quoting", "empty"])
def test_commands_that_cannot_start_raise_engine_error(command, words):
    """Callers catch one exception for every start failure, not OSError, ValueError..."""
    with pytest.raises(EngineError) as caught:
        UciEngine(command, name="nothing", startup_timeout=20.0)
    assert words in str(caught.value)


def test_engine_exiting_at_start_gives_status_and_stderr():
    with pytest.raises(EngineError) as caught:
        UciEngine(fake_argv("exit"), name="fake-exit", startup_timeout=20.0)
    # (the "uci" sent may find the pipe already closed: then no "waiting for uciok")
    assert str(caught.value).startswith("fake-exit exited with status 4")
    assert caught.value.stderr == ("random_mover: exit mode, leaving before uci",)


def _fake_last_words() -> list[str]:
    """What the ``crash`` fake writes to stderr as it dies (fakes/random_mover.py)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("random_mover", FAKE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.last_words()


def test_crash_keeps_the_last_stderr_lines_bounded(spawn):
    """The fake floods stderr (far past a pipe buffer: a host that did not drain it would
    see a hang, not a crash), then writes a 10 000-character line and 12 short ones: the
    record keeps the last STDERR_LINES lines, the long one cut to STDERR_WIDTH."""
    rec, _, _ = play_fault(spawn, "crash", 1)
    assert rec.crashed == 1 and rec.time_forfeit is None, rec.termination
    assert rec.termination == "fake-crash crashed: fake-crash exited with status 3"
    words = _fake_last_words()
    kept = words[-uci_engine.STDERR_LINES:]
    long = kept.index("L" * 10_000)
    kept[long] = "L" * uci_engine.STDERR_WIDTH + " ..."
    assert rec.stderr == kept
    assert rec.stderr[-1] == "last words 12 of 12"


@pytest.mark.parametrize("faulty_side", [0, 1], ids=["unstarted-white", "unstarted-black"])
def test_engine_that_cannot_start_loses_before_the_opening(spawn, faulty_side):
    """``start_player`` stands an Unstarted in for an engine that exits at once: it loses
    the game with the reason and its stderr, no move played (not even the book's), and
    it never counts as alive, so a runner tries to start it again."""
    bad = arbiter.start_player(fake_argv("exit"), "fake-exit", startup_timeout=20.0)
    assert isinstance(bad, arbiter.Unstarted) and not bad.alive
    good = spawn("good", 7)
    white, black = (bad, good) if faulty_side == 0 else (good, bad)
    rec = play_game(white, black, "chess", TC, opening=openings_for("chess")[0])
    assert rec.crashed == faulty_side and rec.white_score == float(faulty_side)
    assert rec.termination.startswith("fake-exit failed to start the game: "
                                      "fake-exit exited with status 4")
    assert rec.stderr == ["random_mover: exit mode, leaving before uci"]
    assert rec.moves == [] and rec.start_fen == rec.initial_fen
    assert (rec.white, rec.black)[faulty_side] == "fake-exit"
