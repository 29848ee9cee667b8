"""Alea in the terminal against an engine (adapters/terminal.py): the Quantum guide (A22)
against the real engine at a low node limit, undo and its limits (A18) with the same dice
after it, classic mode (A19), and Daily Dice (A20): the local record, the streak, the
daily wins, the line to share and the atomic write. The person is scripted input
(io.StringIO); the engine is a seeded baseline (adapters.baselines) unless the real one is needed.
"""
from __future__ import annotations

import datetime
import io
import json
import re
import shlex
import sys

import pytest

from adapterkit import REPO_ROOT, baseline_argv
from adapters import daily, terminal
from adapters.alea_referee import AleaReferee, daily_seed, parse_alea_position
from adapters.arbiter import GameRecord, TimeControl
from adapters.daily import record_daily, save_daily
from adapters.guide import AleaGuide
from adapters.terminal import AleaHost, HumanPlayer, play_in_terminal

# White to move; the queen on d4 is attacked by the knight on c6 (docs/protocol.md).
QUEEN_HIT = "4k3/1p6/2n5/8/3Q4/B7/7P/R3K3 w - - 0 30 20/20 -/- 4/4 2/2 0/0 -/- - alea"
# The dice phase, four die types playable for White.
OPEN = ("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 5 "
        "8/8 -/- 4/4 2/2 1/1 -/- - alea")
QUANTUM = f"{shlex.quote(sys.executable)} -m engine"
SPY = REPO_ROOT / "tests" / "adapters" / "fakes" / "alea_spy.py"


def spy_argv(mode: str) -> list[str]:
    return [sys.executable, str(SPY), mode, "/dev/null"]


def random_engine(start_engine, seed: int = 1):
    return start_engine(baseline_argv("alea_random"), seed=seed)


def seed_showing(fen: str, dice: tuple) -> int:
    """A dice seed whose first roll in ``fen`` shows ``dice``."""
    for seed in range(1000):
        ref = AleaReferee(seed=seed)
        rec = GameRecord("alea", "", "W", "B")
        board = ref.setup(rec, fen)
        ref.chance(board, rec)
        if ref.state.dice == dice:
            return seed
    raise AssertionError(f"no seed shows {dice}")


def play(start_engine, script: str, fen: str | None = None, seed: int = 1, level="normal",
         timed=False, daily=False, guide=None, classic=False, engine=None):
    """One scripted game, the person White: (record, what the person saw, referee)."""
    out = io.StringIO()
    person = HumanPlayer("Tester", io.StringIO(script), out)
    ref = AleaReferee(seed=seed, classic=classic)
    host = AleaHost(level, timed=timed, daily=daily, guide=guide)
    try:
        rec = play_in_terminal("alea", (person,), engine or random_engine(start_engine), 0,
                               TimeControl(600, 1) if timed else None, output=out,
                               referee=ref, alea_host=host, start_fen=fen)
    finally:
        host.close()
    return rec, out.getvalue(), ref


# -- the guide (A22) ----------------------------------------------------------------------
def test_guide_advice_and_review_from_quantum(start_engine):
    """The guide (the real Quantum, 20000 nodes) names the attacked queen first, advises
    one of the two rescues the dice leave (the free-move joker, or a reroll before it,
    which keeps the joker when the new dice save the queen; which one is the search's
    call), and after a pawn move says that the rescue was better by pawns, and, where the
    rescue was the joker, that the joker would have been worth it."""
    seed = seed_showing(QUEEN_HIT, ("b", "r"))
    guide = AleaGuide(QUANTUM, go="nodes 20000", on=True)
    rec, seen, _ = play(start_engine, "h2h3\nquit\n", QUEEN_HIT, seed, guide=guide)
    assert "Guide: Your queen on d4 is attacked by the knight on c6." in seen
    advice = re.search(r"Guide: play (joker d4\w\w \(Q\w+[+#]?\)|reroll) -- the dice cannot "
                       r"save your queen: (a free-move joker saves it|new dice may)\.", seen)
    assert advice, seen
    rescue, why = advice.groups()
    assert rescue.startswith("joker") == why.startswith("a free-move joker"), advice[0]
    assert seen.index("attacked by the knight") < advice.start()       # threats first
    better = re.search(r"Guide: a better move was (.+) \(about (\d+\.\d) pawns better\)\.", seen)
    # a queen lost where rook and queen against a knight already win: the net's scores
    # flatten far ahead (chess-13 learnt Stockfish's evaluation through a sigmoid), so two
    # pawns or more, not a full queen's nine
    assert better and better[1].split()[0] == rescue.split()[0] and float(better[2]) >= 2, seen
    if rescue.startswith("joker"):
        assert "Guide: a free-move joker would have been worth it here." in seen
    assert rec.moves[0] == "h2h3" and rec.termination == "abandoned: Tester quit"


def test_guide_switched_on_and_off_during_the_game(start_engine):
    guide = AleaGuide(QUANTUM, go="nodes 5000")
    script = "guide\nguide on\ne2e4\nguide off\nd2d4\nguide maybe\nquit\n"
    rec, seen, _ = play(start_engine, script, guide=guide)
    assert "The guide is off: 'guide on' or 'guide off'." in seen
    on = seen.index("Guide on.")
    assert seen.count("Guide: play ") == 2                  # at "guide on", at the next turn
    assert re.search(r"Guide: (that was the guide's move|a good move|a better move was)",
                     seen[on:])
    assert "Guide off." in seen and "Enter 'guide on' or 'guide off'." in seen
    after_off = seen[seen.index("Guide off."):]
    assert "Guide: " not in after_off                       # no advice nor review after
    assert rec.moves[0] == "e2e4" and rec.moves[2] == "d2d4"


def test_guide_words_from_a_fake_guide_engine(start_engine):
    """The plain words for each kind of line, from a fake that prints fixed guide lines."""
    guide = AleaGuide(shlex.join(spy_argv("guide")), on=True)
    rec, seen, _ = play(start_engine, "reroll\nquit\n", OPEN, guide=guide)
    assert "Guide: Your knight on f3 is attacked by the pawn on g4." in seen
    assert "Guide: play f3e5 (Nxe5) -- wins a pawn." in seen
    assert "Guide: a better move was d4e5 (dxe5) (about 1.2 pawns better)." in seen
    assert "worth" not in seen                  # no joker verdict for a reroll, not worth
    assert rec.moves[0] == "reroll"


def test_no_guide_in_classic_mode(start_engine):
    guide = AleaGuide("/nonexistent-engine")        # never started
    _, seen, _ = play(start_engine, "guide on\nquit\n", classic=True, guide=guide)
    assert "The guide advises on dice and jokers: not in classic mode (A19)." in seen
    assert guide.engine is None


def test_a_guide_that_does_not_start_is_switched_off(start_engine):
    guide = AleaGuide("/nonexistent-engine", on=True)
    _, seen, _ = play(start_engine, "e2e4\nquit\n", guide=guide)
    assert "The guide is not available (" in seen and "; guide off." in seen
    assert seen.count("The guide is not available") == 1


# -- undo (A18) ---------------------------------------------------------------------------
@pytest.mark.parametrize("level,allowed", [("beginner", 5), ("easy", 5), ("normal", 3)])
def test_undo_limits_per_level(start_engine, level, allowed):
    rec, seen, ref = play(start_engine, "e2e4\nundo\n" * (allowed + 1) + "quit\n",
                          level=level)
    assert seen.count("Taken back: your e2e4 and the reply ") == allowed
    assert "(0 undos left.)" in seen and f"({allowed - 1} undo" in seen
    assert f"No undo left: {level.title()} allows {allowed} a game (A18)." in seen
    assert len(rec.moves) == 2 and rec.moves[0] == "e2e4" == ref.tokens[0]


@pytest.mark.parametrize("kwargs,message", [
    ({"level": "hard"}, "No undo at Hard (A18)."),
    ({"timed": True}, "No undo in a timed game (A18)."),
    ({"daily": True}, "No undo in Daily Dice (A18)."),
    ({"daily": True, "level": "beginner"}, "No undo in Daily Dice (A18)."),
])
def test_undo_refused_at_hard_timed_and_daily(start_engine, kwargs, message):
    rec, seen, _ = play(start_engine, "e2e4\nundo\nquit\n", **kwargs)
    assert message in seen and "Taken back" not in seen
    assert len(rec.moves) == 2


def test_undo_with_nothing_to_take_back(start_engine):
    _, seen, _ = play(start_engine, "undo\nquit\n")
    assert "Nothing to take back: you have not moved yet." in seen


def test_undo_restores_the_dice_and_jokers_and_the_same_dice_follow(start_engine):
    """A reroll and a move, the engine's reply, then undo: the first dice and both
    reroll jokers are back; the same answers again get the same dice as the first time
    (the generator is rewound too). The engine answers the same position the same way."""
    script = "reroll\nh2h3\nundo\nreroll\nh2h3\nquit\n"
    engine = start_engine(spy_argv("first"), name="spy")
    rec, seen, ref = play(start_engine, script, OPEN, seed=3, engine=engine)
    shown = re.findall(r"Dice: (\w+ \+ \w+)", seen)
    # Turn 1: the first dice, then the reroll's; turn 2's dice. After the undo: the first
    # dice again, the reroll's again, and turn 2's dice again.
    assert len(shown) == 6 and shown[3:6] == shown[0:3], shown
    assert "Taken back: your h2h3 and the reply " in seen
    assert "; the same dice again." in seen
    rerolls = re.findall(r"White free 4, reroll (\d)", seen)
    assert rerolls == ["2", "1", "1", "2", "1", "1"]
    assert rec.moves[:2] == ["reroll", "h2h3"] and len(rec.moves) == 3
    assert [n for n, _ in ref.rolls] == [0, 1, 2, 3]
    # The record, the referee and the arbiter's board agree after the rewind.
    assert parse_alea_position(ref.position_line()).state == ref.state
    assert ref.board.fen() == ref.state.board.fen()


def test_rewind_restores_the_record_board_and_generator():
    ref = AleaReferee(seed=9)
    rec = GameRecord("alea", "", "W", "B")
    board = ref.setup(rec, OPEN)
    ref.chance(board, rec)
    mark = ref.mark()

    def moves_and_dice():
        seen = []
        for token in ("h2h3", "a7a6", "g2g3"):
            ref.play(board, rec, token)
            ref.chance(board, rec)
            seen.append(ref.state.dice)
        return seen
    first = moves_and_dice()
    assert len(rec.moves) == 3 and board.fen() != mark.state.board.fen()
    ref.rewind(mark)
    assert ref.state == mark.state and rec.moves == [] and rec.dice == []
    assert board.fen() == mark.state.board.fen() and len(ref.rolls) == 1
    assert moves_and_dice() == first
    with pytest.raises(ValueError):
        ref.rewind(type(mark)(mark.state, 99, 0, 0, mark.rng))


# -- classic mode (A19) --------------------------------------------------------------------
def test_classic_mode_promotes_to_a_queen(start_engine):
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 40 20/20 -/- 4/4 2/2 1/1 -/- - classic"
    rec, seen, ref = play(start_engine, "a7a8\nquit\n", fen, classic=True)
    assert rec.moves[0] == "a7a8q" and ref.promotions == [(0, "q")]
    assert "Classic mode: no dice." in seen and "Jokers left" not in seen
    assert "Your promotion on a8: a queen (classic mode)." in seen


def test_scripts_play_classic_flag(start_engine, monkeypatch, capsys, tmp_path):
    pgn = tmp_path / "g.pgn"
    monkeypatch.setattr(sys, "stdin", io.StringIO("joker e2e4\ne2e4\nresign\n"))
    code = terminal.main(["--classic", "--engine", shlex.join(baseline_argv("alea_random")),
                          "--pgn", str(pgn)])
    seen = capsys.readouterr().out
    assert code == 0 and "alea (classic mode): you play White" in seen
    assert "no jokers in classic mode (A19)" in seen
    assert " classic" in pgn.read_text() and "0-1" in pgn.read_text()


# -- Daily Dice (A20) -----------------------------------------------------------------------
def finished(white_score: float, plies: int) -> GameRecord:
    rec = GameRecord("alea", "", "W", "B", moves=["e2e4"] * plies + ["reroll"],
                     white_score=white_score, termination="checkmate")
    rec.tags["DiceSeed"] = "1"
    return rec


@pytest.fixture
def xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    return tmp_path / "quantum" / "alea-daily.json"


def test_daily_record_streak_wins_and_share_line(xdg):
    day = datetime.date(2026, 11, 28)
    said = record_daily(day, finished(1.0, 81), 0)
    assert said[-1] == "Quantum Alea Daily 2026-11-28: won in 41 moves as White, streak 1"
    assert said[0] == f"Daily Dice record ({xdg}): streak 1 day, 1 daily win."
    said = record_daily(day + datetime.timedelta(days=1), finished(1.0, 40), 1)   # Black lost
    assert said[-1] == "Quantum Alea Daily 2026-11-29: lost in 20 moves as Black, streak 2"
    # The first finished game of a day stands; an unfinished one is never recorded.
    later = record_daily(day + datetime.timedelta(days=1), finished(0.0, 10), 1)
    assert later[0].startswith("Daily Dice: today's game was already recorded")
    assert later[-1].endswith("lost in 20 moves as Black, streak 2")
    unfinished = GameRecord("alea", "", "W", "B", moves=["e2e4"])
    assert record_daily(day + datetime.timedelta(days=2), unfinished, 0) == \
        ["Daily Dice: an unfinished game is not recorded."]
    said = record_daily(day + datetime.timedelta(days=2), finished(0.0, 61), 1)   # Black won
    assert said[0].endswith("streak 3 days, 2 daily wins.")
    assert said[-1] == "Quantum Alea Daily 2026-11-30: won in 31 moves as Black, streak 3"
    said = record_daily(day + datetime.timedelta(days=4), finished(0.5, 100), 0)  # a gap
    assert said[-1] == "Quantum Alea Daily 2026-12-02: drew in 50 moves as White, streak 1"
    days = json.loads(xdg.read_text())["days"]
    assert sorted(days) == ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-02"]
    assert days["2026-11-28"] == {"result": "won", "moves": 41, "colour": "White",
                                  "termination": "checkmate", "seed": "1"}


def test_daily_file_is_written_atomically(xdg, monkeypatch):
    day = datetime.date(2026, 1, 1)
    record_daily(day, finished(1.0, 9), 0)
    before = xdg.read_text()

    def broken(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(daily.os, "replace", broken)
    said = record_daily(day + datetime.timedelta(days=1), finished(1.0, 9), 0)
    assert said == ["Daily Dice: the record could not be written (disk full)."]
    assert xdg.read_text() == before                        # the old record is whole
    assert [p.name for p in xdg.parent.iterdir()] == [xdg.name]     # no temporary left
    monkeypatch.undo()
    save_daily(xdg, {"x": {"result": "won"}})
    assert json.loads(xdg.read_text()) == {"version": 1, "days": {"x": {"result": "won"}}}


def test_a_broken_daily_file_is_left_alone(xdg):
    xdg.parent.mkdir(parents=True)
    xdg.write_text("not json")
    said = record_daily(datetime.date(2026, 1, 1), finished(1.0, 9), 0)
    assert "cannot be read" in said[0] and xdg.read_text() == "not json"


def test_scripts_play_daily(xdg, monkeypatch, capsys, tmp_path):
    """--daily: today's seed, Level normal whatever was asked, no undo, the record and
    the share line after a finished game."""
    pgn = tmp_path / "d.pgn"
    monkeypatch.setattr(sys, "stdin", io.StringIO("e2e4\nundo\nresign\n"))
    code = terminal.main(["--daily", "--option", "Level=beginner", "--pgn", str(pgn),
                          "--engine", shlex.join(baseline_argv("alea_random"))])
    seen = capsys.readouterr().out
    today = datetime.datetime.now(datetime.timezone.utc).date()
    assert code == 0 and "Daily Dice is always played at Level normal (A14)." in seen
    assert f"Daily Dice {today.isoformat()}: you play White" in seen
    assert "No undo in Daily Dice (A18)." in seen
    assert "White free 4, reroll 2, castle 1  Black free 4" in seen      # Normal's jokers
    assert f"Quantum Alea Daily {today.isoformat()}: lost in 1 move as White, streak 1" \
        in seen
    assert f'[DiceSeed "{daily_seed(today)}"]' in pgn.read_text()
    assert json.loads(xdg.read_text())["days"][today.isoformat()]["result"] == "lost"


@pytest.mark.parametrize("argv", [["--daily", "--seed", "3"], ["--daily", "--classic"],
                                  ["--daily", "--two-humans"], ["--guide", "--two-humans"],
                                  ["--variant", "chess", "--guide"]])
def test_conflicting_flags(argv, capsys):
    with pytest.raises(SystemExit):
        terminal.main(argv)
    assert "error:" in capsys.readouterr().err
