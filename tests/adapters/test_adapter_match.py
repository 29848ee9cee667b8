"""The match runner (adapters/match.py, scripts/match) end to end with fake engines: it
survives an engine that keeps crashing (restarting it for every game) and reports the
crashes, with the engine's last stderr lines, in its output and PGN; an engine that
cannot start (silent, exiting at once, missing) loses each game and the match goes on;
the SPRT ends it early; the PGN grows game by game after the games already in the file;
Ctrl-C stops it with the summary; a terminal gets one redrawn progress line; --plot
writes a PNG."""
from __future__ import annotations

import io
import os
import pty
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import chess.pgn
import pytest

from adapterkit import MATCH, REPO_ROOT, fake_command
from adapters import match
from adapters.match import MatchConfig
from adapters.stats import H1, SprtConfig
from engine import particles
from engine.board import Board
from engine.eval_tables import eval_tables


def run_match(engine1: str, engine2: str, *extra: str) -> subprocess.CompletedProcess:
    nice = [shutil.which("nice"), "-n", "19"] if shutil.which("nice") else []
    argv = nice + [sys.executable, str(MATCH), "--engine1", engine1, "--engine2", engine2,
                   *extra]
    return subprocess.run(argv, cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=180)    # hang guard


def test_match_survives_a_crashing_engine(tmp_path):
    pgn = tmp_path / "games.pgn"
    proc = run_match(fake_command("crash", 1), fake_command("good", 2),
                     "--games", "4", "--tc", "2+0.05", "--pgn", str(pgn))
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    games = re.findall(r"^game (\d+)/4: (\S+) (.*) \(\d+ plies\)", out, re.M)
    assert [int(n) for n, _, _ in games] == [1, 2, 3, 4]
    # Engine 1 plays White in games 1 and 3 and Black in 2 and 4, and crashes in all.
    assert [r for _, r, _ in games] == ["0-1", "1-0", "0-1", "1-0"]
    assert all("crashed" in why for _, _, why in games)
    assert re.search(r"^score 0\.0/4 \(0\.0%\)\s+W0 D0 L4\b", out, re.M), out
    assert re.search(r"^time forfeits e1/e2: 0/0\s+illegal: 0/0\s+crashes: 4/0$", out, re.M), out
    text = pgn.read_text()
    assert text.count('[Event "Quantum match"]') == 4
    assert text.count("crashed") == 4
    # Its last stderr lines: the last few under each game's line, the last 20 in the PGN.
    assert out.count("\n  RandomMover-crash stderr: last words 10 of 12\n"
                     "  RandomMover-crash stderr: last words 11 of 12\n"
                     "  RandomMover-crash stderr: last words 12 of 12\n") == 4, out
    assert text.count("\n  last words 1 of 12\n") == 4
    assert text.count("\n  last words 12 of 12} ") == 4


# -- SPRT, incremental PGN, interruption, progress, plot -----------------------------
# Engine 1 is the good fake, engine 2 the fake that crashes on its 3rd ``go``: every
# game is a win for engine 1. With --sprt 0 200 0.2 0.2 cutechess's LLR after n straight
# wins is 0.24, 0.78, 1.31, 1.84 against the bound log(0.8/0.2) = 1.386 (see
# test_sprt.py), so H1 is accepted after exactly 4 games.
WIDE_SPRT = ("--sprt", "0", "200", "0.2", "0.2")


def test_sprt_stops_the_match_when_h1_is_accepted(tmp_path):
    pgn = tmp_path / "games.pgn"
    proc = run_match(fake_command("good", 1), fake_command("crash", 2),
                     "--games", "20", "--tc", "2+0.05", "--pgn", str(pgn), *WIDE_SPRT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    games = re.findall(r"^game (\d+)/20: ", out, re.M)
    assert [int(n) for n in games] == [1, 2, 3, 4], out
    assert re.search(r"^score 4\.0/4 \(100\.0%\)\s+W4 D0 L0\b", out, re.M), out
    assert re.search(r"^SPRT elo0 0 elo1 200 alpha 0\.2 beta 0\.2: H1 accepted\s+"
                     r"LLR 1\.836 \[-1\.386, 1\.386\]$", out, re.M), out
    assert re.search(r"^stopped by the SPRT after 4 of 20 games$", out, re.M), out
    assert pgn.read_text().count('[Event "Quantum match"]') == 4


def _children() -> set[int]:
    """Pids of this process's live children (read from /proc)."""
    me, kids = os.getpid(), set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()      # after "pid (comm) "
            if int(fields[1]) == me and fields[0] != "Z":
                kids.add(int(entry.name))
    return kids


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_sprt_stop_with_concurrency_counts_only_the_deciding_games(tmp_path):
    """Three games run at once; the games still running when the 4th win decides are
    abandoned (not counted, not written), and every engine and worker is gone after."""
    before = _children()
    pgn = tmp_path / "games.pgn"
    config = MatchConfig(engine1=fake_command("good", 1), engine2=fake_command("crash", 2),
                         games=20, tc="2+0.05", concurrency=3, pgn=str(pgn),
                         sprt=SprtConfig(0, 200, 0.2, 0.2), cwd=str(REPO_ROOT))
    result = match.run_match(config)
    assert result.stopped == match.SPRT_STOP
    assert (result.wins, result.draws, result.losses) == (4, 0, 0)
    assert result.sprt_status().result == H1
    assert pgn.read_text().count('[Event "Quantum match"]') == 4
    assert not [t for t in threading.enumerate() if t.name.startswith("match-worker")]
    assert _children() <= before


def test_pgn_holds_every_game_as_soon_as_it_is_counted(tmp_path):
    pgn = tmp_path / "games.pgn"
    seen = []

    def on_game(result, index, rec):
        text = pgn.read_text()
        seen.append((result.games, text.count('[Event "Quantum match"]'),
                     f'[Round "{index + 1}"]' in text))

    config = MatchConfig(engine1=fake_command("good", 1), engine2=fake_command("crash", 2),
                         games=3, tc="2+0.05", pgn=str(pgn), cwd=str(REPO_ROOT))
    result = match.run_match(config, on_game=on_game)
    assert result.games == 3
    assert seen == [(1, 1, True), (2, 2, True), (3, 3, True)]


OLD_GAME = '[Event "Earlier match"]\n[Result "*"]\n\n1. e4 *\n'


def read_games(text: str) -> list:
    """Every game of a PGN text, each read by python-chess without an error."""
    stream, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        games.append(game)
    return games


def test_pgn_keeps_the_games_already_in_the_file(tmp_path):
    """--pgn appends, as it says: it used to truncate the file first."""
    pgn = tmp_path / "games.pgn"
    pgn.write_text(OLD_GAME)
    config = MatchConfig(engine1=fake_command("good", 1), engine2=fake_command("crash", 2),
                         games=2, tc="2+0.05", pgn=str(pgn), cwd=str(REPO_ROOT))
    assert match.run_match(config).games == 2
    text = pgn.read_text()
    assert text.startswith(OLD_GAME)
    assert [g.headers["Event"] for g in read_games(text)] == ["Earlier match"] + ["Quantum match"] * 2


def test_ctrl_c_stops_cleanly_with_the_summary_and_the_games_played(tmp_path):
    pgn = tmp_path / "games.pgn"
    argv = [sys.executable, str(MATCH), "--engine1", fake_command("good", 1),
            "--engine2", fake_command("crash", 2), "--games", "1000", "--tc", "2+0.05",
            "--concurrency", "2", "--pgn", str(pgn)]
    # SIGINT back to its default in the child, whatever the test runner inherited
    # (a shell's background job starts with it ignored, and Python keeps that).
    proc = subprocess.Popen(argv, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        head = []
        for line in proc.stdout:
            head.append(line)
            if line.startswith("game 2/1000:"):
                proc.send_signal(signal.SIGINT)
                break
        rest, err = proc.communicate(timeout=120)     # hang guard
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = "".join(head) + rest
    assert proc.returncode == 130, err[-3000:]
    played = re.findall(r"^game (\d+)/1000: ", out, re.M)
    n = len(played)
    assert 2 <= n < 1000 and [int(k) for k in played] == list(range(1, n + 1))
    assert re.search(rf"^score {n}\.0/{n} \(100\.0%\)\s+W{n} D0 L0\b", out, re.M), out
    assert re.search(rf"^interrupted after {n} of 1000 games$", out, re.M), out
    assert pgn.read_text().count('[Event "Quantum match"]') == n


def test_progress_on_a_terminal_is_one_line_redrawn(tmp_path):
    main, sub = pty.openpty()
    argv = [sys.executable, str(MATCH), "--engine1", fake_command("good", 1),
            "--engine2", fake_command("crash", 2), "--games", "3", "--tc", "2+0.05", *WIDE_SPRT]
    proc = subprocess.Popen(argv, cwd=REPO_ROOT, stdout=sub, stderr=subprocess.PIPE)
    os.close(sub)
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([main], [], [], 120)      # hang guard
            assert ready, "no output from scripts/match"
            try:
                chunk = os.read(main, 4096)
            except OSError:                 # EIO: the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(main)
        proc.wait(timeout=60)
    out = b"".join(chunks).decode()
    assert proc.returncode == 0
    assert "game 1/" not in out
    redraws = re.findall(r"\rgames (\d)/3  W(\d) D0 L0  score 100\.0%  Elo \+\d+ \+/- \d+  "
                         r"LOS [\d.]+%  LLR ([\d.]+) \[-1\.39, 1\.39\]\x1b\[K", out)
    assert [(int(n), int(w)) for n, w, _ in redraws] == [(1, 1), (2, 2), (3, 3)], repr(out)
    assert [llr for _, _, llr in redraws] == ["0.24", "0.78", "1.31"]
    assert re.search(r"^score 3\.0/3 \(100\.0%\)\s+W3 D0 L0\b", out, re.M), repr(out)
    assert "SPRT elo0 0 elo1 200 alpha 0.2 beta 0.2: inconclusive" in out


def test_plot_is_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "elo.png"
    proc = run_match(fake_command("good", 1), fake_command("crash", 2),
                     "--games", "2", "--tc", "2+0.05", "--plot", str(png))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_fails_before_playing(tmp_path):
    # A package that shadows matplotlib and cannot be imported stands for its absence.
    blocker = tmp_path / "blocked" / "matplotlib"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('blocked by the test')\n")
    png, pgn = tmp_path / "elo.png", tmp_path / "games.pgn"
    argv = [sys.executable, str(MATCH), "--engine1", fake_command("good", 1),
            "--engine2", fake_command("crash", 2), "--games", "2", "--tc", "2+0.05",
            "--plot", str(png), "--pgn", str(pgn)]
    env = dict(os.environ, PYTHONPATH=str(blocker.parent))
    proc = subprocess.run(argv, cwd=REPO_ROOT, capture_output=True, text=True, env=env,
                          timeout=180)
    assert proc.returncode != 0
    assert "--plot needs matplotlib" in proc.stderr
    assert "game 1/" not in proc.stdout
    assert not png.exists() and not pgn.exists()


# -- engines that cannot start ---------------------------------------------------------
def test_engine_that_never_sends_uciok_loses_and_the_match_goes_on(tmp_path):
    """The issue's case: a silent engine used to end the match with ``ValueError: empty
    fen`` from the PGN writer, losing the summary and every game. Now each game is a loss
    for it, with the reason, appended after the game already in the file."""
    pgn = tmp_path / "games.pgn"
    pgn.write_text(OLD_GAME)
    config = MatchConfig(engine1=fake_command("mute"), engine2=fake_command("good", 2),
                         games=2, tc="2+0.05", concurrency=2, pgn=str(pgn),
                         cwd=str(REPO_ROOT), startup_timeout=1.0)
    result = match.run_match(config)
    assert (result.wins, result.draws, result.losses) == (0, 0, 2)
    assert result.crashes == [2, 0] and result.stopped == match.COMPLETED
    text = pgn.read_text()
    assert text.startswith(OLD_GAME)
    games = read_games(text)
    assert [g.headers["Event"] for g in games] == ["Earlier match"] + ["Quantum match"] * 2
    by_round = {g.headers["Round"]: g for g in games[1:]}
    assert by_round["1"].headers["Result"] == "0-1" and by_round["2"].headers["Result"] == "1-0"
    for game in games[1:]:
        assert game.headers["Termination"] == ("engine1 failed to start the game: engine1 "
                                               "did not answer in 1.0 s (waiting for uciok)")
        assert list(game.mainline_moves()) == []


@pytest.mark.parametrize("mode", ["exit", "missing"])
def test_match_script_goes_on_past_an_engine_that_cannot_start(tmp_path, mode):
    """An engine that exits at once, or whose command does not exist, loses every game
    (started again for each: the exiting fake logs 3 starts), counted as crashes, with
    its stderr under the game lines; no traceback, and the PGN keeps its old game."""
    pgn, starts = tmp_path / "games.pgn", tmp_path / "starts"
    pgn.write_text(OLD_GAME)
    engine1 = (f"env FAKE_PIDFILE={shlex.quote(str(starts))} {fake_command('exit')}"
               if mode == "exit" else str(tmp_path / "no-such-engine"))
    proc = run_match(engine1, fake_command("good", 2), "--games", "3", "--tc", "2+0.05",
                     "--pgn", str(pgn))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    out = proc.stdout
    why = ("engine1 exited with status 4" if mode == "exit" else
           f"engine1 could not be started (No such file or directory: {tmp_path}/no-such-engine)")
    games = re.findall(r"^game (\d)/3: (\S+) engine1 failed to start the game: (.*) \(0 plies\)",
                       out, re.M)
    assert [(n, r) for n, r, _ in games] == [("1", "0-1"), ("2", "1-0"), ("3", "0-1")], out
    assert all(w.startswith(why) for _, _, w in games), out
    assert re.search(r"^time forfeits e1/e2: 0/0\s+illegal: 0/0\s+crashes: 3/0$", out, re.M), out
    assert re.search(r"^score 0\.0/3 \(0\.0%\)", out, re.M), out
    if mode == "exit":
        assert out.count("\n  engine1 stderr: random_mover: exit mode, leaving before uci\n") == 3
        assert len(starts.read_text().split()) == 3
    text = pgn.read_text()
    assert text.startswith(OLD_GAME)
    games = read_games(text)
    assert len(games) == 4
    assert all(g.headers["Termination"].startswith(f"engine1 failed to start the game: {why}")
               for g in games[1:])


# -- openings files ---------------------------------------------------------------------
def test_openings_file_lines_are_played_in_order_twice_each(tmp_path):
    """--openings: each line of the file starts two games, colours reversed; comments and
    blank lines are skipped (the PGN shows the moves each game began with)."""
    book = tmp_path / "openings.txt"
    book.write_text("# two lines\n\nd2d4 d7d5 c2c4   # Queen's Gambit\ng2g3 g7g6\n")
    pgn = tmp_path / "games.pgn"
    proc = run_match(fake_command("good", 1), fake_command("good", 2), "--games", "4",
                     "--tc", "2+0.05", "--openings", str(book), "--pgn", str(pgn))
    assert proc.returncode == 0, proc.stderr[-3000:]
    starts = [[m.uci() for m in list(g.mainline_moves())[:3]] for g in read_games(pgn.read_text())]
    assert [s[:3] for s in starts[:2]] == [["d2d4", "d7d5", "c2c4"]] * 2
    assert [s[:2] for s in starts[2:]] == [["g2g3", "g7g6"]] * 2
    assert match.schedule("chess", 3, [("e2e4",)]) == [(0, ("e2e4",), False),
                                                     (1, ("e2e4",), True), (2, ("e2e4",), False)]


def test_many_games_from_the_built_in_book_are_warned_about(tmp_path):
    """More games than four a built-in line: a warning on stderr before the match (games
    that replay one line are not independent); none with --openings or a short match."""
    assert match.replay_warning("chess", 80) is None
    assert match.replay_warning("alea", 200) is None          # each pair rolls its own dice
    assert "make-match-openings --variant grand" in match.replay_warning("grand", 200)
    said = match.replay_warning("fogofwar", 200)
    assert said.startswith("200 games replay each of the 6 built-in fogofwar opening lines "
                           "about 33 times") and "--openings" in said
    proc = run_match(fake_command("good", 1), fake_command("crash", 2), "--games", "81",
                     "--tc", "2+0.05", *WIDE_SPRT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "scripts/match: 81 games replay each of the 20 built-in chess opening lines about 4 " \
           "times" in proc.stderr, proc.stderr
    book = tmp_path / "openings.txt"
    book.write_text("e2e4 e7e5\n")
    proc = run_match(fake_command("good", 1), fake_command("crash", 2), "--games", "81",
                     "--tc", "2+0.05", "--openings", str(book), *WIDE_SPRT)
    assert proc.returncode == 0 and "replay" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("text, why", [
    ("e2e4 e7e5\ne2e5\n", "line 2: e2e5 is not a legal chess move"),
    ("# only a comment\n", "holds no line"),
])
def test_bad_openings_file_fails_before_any_game(tmp_path, text, why):
    book = tmp_path / "openings.txt"
    book.write_text(text)
    proc = run_match(fake_command("good", 1), fake_command("good", 2), "--games", "2",
                     "--openings", str(book))
    assert proc.returncode == 2 and why in proc.stderr, proc.stderr
    assert "game 1/" not in proc.stdout
    proc = run_match(fake_command("good", 1), fake_command("good", 2),
                     "--openings", str(tmp_path / "missing.txt"))
    assert proc.returncode == 2 and "cannot read openings file" in proc.stderr
    proc = run_match(fake_command("good", 1), fake_command("good", 2), "--chess960",
                     "--openings", str(book))
    assert proc.returncode == 2 and "no --openings" in proc.stderr


def test_make_match_openings_writes_lines_the_match_reads(tmp_path):
    """scripts/make-match-openings: distinct book walks of the asked length, the same for
    the same seed, each a legal line as read_openings checks it."""
    from adapters.openings import read_openings
    script = REPO_ROOT / "scripts" / "make-match-openings"

    def make(seed):
        out = subprocess.run([sys.executable, str(script), "--plies", "6", "--count", "30",
                              "--seed", str(seed)], cwd=REPO_ROOT, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        path = tmp_path / f"open{seed}.txt"
        path.write_text(out.stdout)
        return read_openings(path, "chess")

    lines = make(3)
    assert len(lines) == 30 == len(set(lines)) and all(len(line) == 6 for line in lines)
    assert make(3) == lines and make(4) != lines


@pytest.mark.parametrize("variant", ["grand", "hexagonal"])
def test_make_match_openings_walks_the_engine_where_no_book_is(tmp_path, variant):
    """--variant grand / hexagonal: distinct lines of Quantum's near-best moves, legal as
    read_openings checks them, the same for the same seed; a variant with neither a book
    nor engine walks is refused."""
    from adapters.openings import read_openings
    script = REPO_ROOT / "scripts" / "make-match-openings"

    def make(seed, *extra):
        out = subprocess.run([sys.executable, str(script), "--variant", variant, "--plies", "4",
                              "--count", "6", "--nodes", "3000", "--seed", str(seed), *extra],
                             cwd=REPO_ROOT, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        path = tmp_path / f"open{seed}.txt"
        path.write_text(out.stdout)
        return read_openings(path, variant)

    lines = make(5)
    assert len(lines) == 6 == len(set(lines)) and all(len(line) == 4 for line in lines)
    assert make(5) == lines and make(6) != lines
    from engine.board import Board
    from engine.deepening import GoLimits
    from engine.engine import Engine
    engine = Engine(variant)
    engine.multipv = 6
    engine.set_position(Board(variant).fen(), [])
    _, infos = engine.search_sync(GoLimits(nodes=3000))
    reported = {}                   # depth -> multipv -> (move, score); bounds left out
    for i in infos:
        if i.pv and not i.bound:
            reported.setdefault(i.depth, {})[i.multipv] = (i.pv[0], i.score)
    last = reported[max(d for d, got in reported.items() if len(got) == 6)]
    top = max(score for _, score in last.values())
    best = {move for move, score in last.values() if score == top}
    assert {line[0] for line in make(5, "--spread", "0")} <= best
    bad = subprocess.run([sys.executable, str(script), "--variant", "alea"], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "no opening walks for alea" in bad.stderr


def test_make_match_openings_cuts_games_where_their_ending_begins(tmp_path):
    """--endings: each game's moves up to the first position with at most --pieces pieces
    besides kings and pawns and the material within --balance; a line twice is written
    once, and the lines are ones scripts/match reads."""
    from adapters.openings import read_openings
    game = ('[Event "m"]\n[Round "{}"]\n[Result "*"]\n\n'
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *\n\n")
    pgn = tmp_path / "games.pgn"
    pgn.write_text(game.format(1) + game.format(2))
    script = REPO_ROOT / "scripts" / "make-match-openings"

    def cut(*args):
        out = subprocess.run([sys.executable, str(script), "--endings", str(pgn), *args],
                             cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        if not [line for line in out.stdout.splitlines() if not line.startswith("#")]:
            return []
        path = tmp_path / "endings.txt"
        path.write_text(out.stdout)
        return read_openings(path, "chess")

    taken = ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6")
    assert cut("--pieces", "13") == [taken]                 # a knight down: 13 pieces
    assert cut("--pieces", "13", "--balance", "2") == [taken + ("d7c6",)]
    assert cut("--pieces", "11") == []                      # never fewer than 12
    bad = subprocess.run([sys.executable, str(script), "--endings", str(tmp_path / "none")],
                         cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "none" in bad.stderr


def _conversion(pgn, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "conversion"), str(pgn),
                           *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("opening, take, recapture", [
    ("1. e2e4 d7d5 2. e4d5", "g8f6", "d8d5"),       # coordinate moves (fog's PGNs)
    ("1. e4 d5 2. exd5", "Nf6", "Qxd5"),            # SAN, as scripts/match writes chess
])
def test_conversion_counts_the_side_that_first_led(tmp_path, opening, take, recapture):
    """scripts/conversion: White wins a pawn in both games; engine 1 is White in round 1
    (converted) and engine 2 in round 2 (lost it). Nobody was ever two pawns up. In round
    3 White's pawn up lasts one ply (the queen takes back): no lead."""
    game = '[Event "Quantum match"]\n[Round "{r}"]\n[Result "{res}"]\n\n' \
           '{opening} {{a comment}} {reply} {res}\n\n'
    pgn = tmp_path / "games.pgn"
    pgn.write_text(game.format(r=1, res="1-0", opening=opening, reply=take)
                   + game.format(r=2, res="0-1", opening=opening, reply=take)
                   + game.format(r=3, res="0-1", opening=opening, reply=recapture))
    proc = _conversion(pgn, "--variant", "chess", "--lead", "1", "2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "lead >=  1: engine 1 in 1 games: W1 D0 L0, converted 100%",
        "lead >=  1: engine 2 in 1 games: W0 D0 L1, converted 0%",
        "lead >=  2: engine 1 in 0 games: W0 D0 L0, converted 0%",
        "lead >=  2: engine 2 in 0 games: W0 D0 L0, converted 0%"]


def test_conversion_counts_grand_pieces(tmp_path):
    """A Grand game (coordinate moves): a pawn takes White's archbishop on h4 and a pawn
    takes back, Black about seven pawns up, which it holds; a table that counted the
    archbishop as nothing would show Black a pawn down and no lead."""
    pgn = tmp_path / "games.pgn"
    pgn.write_text('[Event "Quantum match"]\n[Round "1"]\n[Result "0-1"]\n\n'
                   "1. g2h4 g8g6 2. a3a4 g6g5 3. a4a5 g5h4 4. g3h4 a8a7 0-1\n\n")
    proc = _conversion(pgn, "--variant", "grand", "--lead", "5")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "lead >=  5: engine 1 in 0 games: W0 D0 L0, converted 0%",
        "lead >=  5: engine 2 in 1 games: W1 D0 L0, converted 100%"]


def test_conversion_judge_scores_where_the_lead_first_held(tmp_path):
    """--judge: White (engine 1) takes the queen and is still a queen up after Black's
    reply, yet the game says it lost; the judge (Quantum itself here) finds White better
    there, and in round 2 Black (engine 1 again) lost a game in which Black never led."""
    game = '[Event "Quantum match"]\n[Round "{r}"]\n[Result "0-1"]\n\n{moves} 0-1\n\n'
    pgn = tmp_path / "games.pgn"
    pgn.write_text(game.format(r=1, moves="1. e4 e5 2. Nf3 Qh4 3. Nxh4 a6")
                   + game.format(r=2, moves="1. e4 e5 2. Nf3 Nc6"))
    proc = _conversion(pgn, "--variant", "chess", "--lead", "5", "--judge",
                       f"{shlex.quote(sys.executable)} -m engine", "--depth", "4")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == (
        "judge at depth 4 where engine 1's lead >= 5 first held, lost: 1 games, the leader "
        "worse by a pawn or more in 0, level in 0, better in 1")
    bad = _conversion(pgn, "--variant", "chess", "--lead", "5", "--judge", "/nonexistent/x")
    assert bad.returncode != 0 and "--judge" in bad.stderr


def test_conversion_times_reads_the_move_comments(tmp_path):
    """--times: round 1 (engine 1 White) after a two-ply opening without comments: White's
    two commented moves are engine 1's, Black's one engine 2's; round 2 swaps them; a
    comment that is no score/depth/time (a crash's stderr) is not counted."""
    game = '[Event "Quantum match"]\n[Round "{r}"]\n[Result "*"]\n\n{moves} *\n\n'
    moves = ("1. e4 e5 2. Nf3 {+0.30/10 0.50s} 2... Nc6 {-0.20/12 1.00s} "
             "3. Bb5 {+M3/20 0.30s} {engine stderr, last lines}")
    pgn = tmp_path / "games.pgn"
    other = "1. e4 e5 2. Nf3 {+0.10/8 0.20s} 2... Nc6 {-0.10/6 0.40s} 3. Bb5 {+0.20/9 0.30s}"
    pgn.write_text(game.format(r=1, moves=moves) + game.format(r=2, moves=other))
    proc = _conversion(pgn, "--variant", "chess", "--lead", "9", "--times")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[2:] == [
        "plies 1-20: engine 1 3 moves, depth 12.0, 0.40 s a move",      # 10 20 | 6
        "plies 1-20: engine 2 3 moves, depth 9.7, 0.50 s a move"]       # 12 | 8 9


def test_conversion_counts_where_the_kings_stand(tmp_path):
    """scripts/conversion --kings 4 6, Grand: in round 1 (engine 1 White) the kings stand
    on c1 and c10 after four plies (first ranks, not the outer two files) and on b1 and
    b10 after six (both). Round 2 is four plies long: counted at ply 4 only, both kings
    at home on e2 and e9, not on their first ranks."""
    pgn = tmp_path / "games.pgn"
    pgn.write_text('[Event "Quantum match"]\n[Round "1"]\n[Result "*"]\n\n'
                   "1. e2d1 e9d10 2. d1c1 d10c10 3. c1b1 c10b10 *\n\n"
                   '[Event "Quantum match"]\n[Round "2"]\n[Result "*"]\n\n'
                   "1. a3a4 a8a7 2. b3b4 b8b7 *\n\n")
    proc = _conversion(pgn, "--variant", "grand", "--lead", "5", "--kings", "4", "6")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[2:] == [
        "king after 4 plies: engine 1 in 2 games: on its first rank 1 (50%), "
        "on the outer two files 0 (0%)",
        "king after 4 plies: engine 2 in 2 games: on its first rank 1 (50%), "
        "on the outer two files 0 (0%)",
        "king after 6 plies: engine 1 in 1 games: on its first rank 1 (100%), "
        "on the outer two files 1 (100%)",
        "king after 6 plies: engine 2 in 1 games: on its first rank 1 (100%), "
        "on the outer two files 1 (100%)"]


def _drops(tmp_path, text: str, size: int) -> list[str]:
    """scripts/conversion --drops ``size``'s two lines for the PGN ``text``."""
    pgn = tmp_path / "games.pgn"
    pgn.write_text(text)
    proc = _conversion(pgn, "--variant", "chess", "--lead", "20", "--drops", str(size))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()[-2:]


def test_conversion_counts_material_given_away(tmp_path):
    """scripts/conversion --drops 1: in round 1 White (engine 1) puts its queen where the
    enemy queen takes it and stays a queen down: one drop in its 4 moves. Black's pawn
    sacrifice is won back at once (d5, exd5, Qxd5): no drop. Round 2 (engine 2 White)
    gives nothing away."""
    game = '[Event "Quantum match"]\n[Round "{r}"]\n[Result "*"]\n\n{moves} *\n\n'
    text = game.format(r=1, moves="1. e2e4 d7d5 2. e4d5 d8d5 3. d1h5 d5h5 4. g1f3 g8f6") \
        + game.format(r=2, moves="1. e2e4 e7e5")
    assert _drops(tmp_path, text, 1) == [
        "drops >= 1: engine 1 gave material in 1 of 5 moves (20.0%)",
        "drops >= 1: engine 2 gave material in 0 of 5 moves (0.0%)"]


def test_conversion_drops_count_the_side_to_move_of_the_fen(tmp_path):
    """A game from a FEN with Black to move (round 1: engine 2 is Black): Black's knight
    goes where a pawn takes it, Black's one drop in its 5 moves; White's 4 give nothing."""
    text = '[Event "Quantum match"]\n[Round "1"]\n[Result "*"]\n[SetUp "1"]\n' \
        '[FEN "4kn2/8/8/8/8/8/3PP3/4K3 b - - 0 1"]\n\n' \
        "1... Ng6 2. e3 Nf4 3. exf4 Kd7 4. Kf2 Kd6 5. Kf3 Kc5 *\n\n"
    assert _drops(tmp_path, text, 2) == [
        "drops >= 2: engine 1 gave material in 0 of 4 moves (0.0%)",
        "drops >= 2: engine 2 gave material in 1 of 5 moves (20.0%)"]


def test_conversion_refuses_games_it_cannot_read(tmp_path):
    """SAN read as fog, or a chess game with an illegal move, is an error naming what went
    wrong, not a table of zeros."""
    pgn = tmp_path / "games.pgn"
    pgn.write_text('[Event "Quantum match"]\n[Round "1"]\n[Result "1-0"]\n\n'
                   "1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0\n\n")
    proc = _conversion(pgn, "--variant", "fogofwar")
    assert proc.returncode != 0 and "no moves read" in proc.stderr
    pgn.write_text('[Event "Quantum match"]\n[Round "1"]\n[Result "1-0"]\n\n'
                   "1. e4 e5 2. Ke3 *\n\n")
    proc = _conversion(pgn, "--variant", "chess")
    assert proc.returncode != 0 and "round 1" in proc.stderr


def _merit_game(pick, plies: int = 12) -> str:
    """A fog game whose every move is ``pick`` (max or min) of its move_merits."""
    board, moves = Board("fogofwar"), []
    tables = eval_tables("fogofwar", None)
    for _ in range(plies):
        merits = particles.move_merits(board, tables)
        move = pick(sorted(merits), key=merits.get)
        board.push(move)
        moves.append(move)
    return '[Event "Quantum match"]\n[Round "1"]\n[Result "*"]\n\n' + " ".join(moves) + " *\n\n"


def test_fog_prior_rewards_the_prior_that_predicts_the_moves(tmp_path):
    """scripts/fog-prior: moves that are each the best at a glance are likelier under a
    sharp prior than under the uniform one, and the worst moves are less likely."""
    rows = {}
    for name, pick in (("best", max), ("worst", min)):
        pgn = tmp_path / f"{name}.pgn"
        pgn.write_text(_merit_game(pick))
        proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "fog-prior"),
                               str(pgn), "--temperature", "10", "--floor", "0.1"],
                              cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        first, second = proc.stdout.splitlines()
        assert first.startswith("12 moves; uniform prior: ")
        uniform = float(first.split(": ")[1])
        assert second.startswith("floor 0.1: T 10: ")
        rows[name] = (uniform, float(second.split(": ")[-1]))
    assert rows["best"][1] > rows["best"][0]
    assert rows["worst"][1] < rows["worst"][0]


def test_fog_belief_finds_the_true_position_when_uncapped(tmp_path):
    """scripts/fog-belief: with no cap the belief tracks a random game exactly, so the
    true position is present at every turn of both sides (14 plies: 15 positions)."""
    from fogkit import random_game
    _, moves = random_game(0, 14)
    pgn = tmp_path / "game.pgn"
    pgn.write_text('[Event "Quantum match"]\n[Round "1"]\n[Result "*"]\n\n'
                   + " ".join(moves) + " *\n\n")
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "fog-belief"),
                           str(pgn), "--cap", "1000000000"],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"{len(moves) + 1} turns in 1 games: true position present "
                                  "1.000, mean weight ")


def test_fog_belief_threats_never_miss_with_the_truth_present(tmp_path):
    """scripts/fog-belief --threats: with the true position always among the particles,
    a cell an enemy move really reaches has a chance above 0, and the table counts one
    row entry per own piece other than pawns and the king after each move played
    (counted here on the true boards)."""
    from fogkit import random_game
    boards, moves = random_game(3, 16)
    pgn = tmp_path / "game.pgn"
    pgn.write_text('[Event "Quantum match"]\n[Round "1"]\n[Result "*"]\n\n'
                   + " ".join(moves) + " *\n\n")
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "fog-belief"),
                           str(pgn), "--cap", "1000000000", "--threats"],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    rows = [line.split() for line in lines[2:-1]]
    pieces = sum(1 for k, board in enumerate(boards[1:])
                 for letter in board.fen().split()[0]
                 if letter.isalpha() and letter.lower() not in "pk"
                 and letter.isupper() == (k % 2 == 0))
    assert sum(int(row[1]) for row in rows) == pieces
    missed, total = lines[-1].removeprefix("threats with chance 0: ").split(" of ")
    assert missed == "0" and int(total) > 0


def test_mate_drill_places_a_bare_king_and_counts_the_mates():
    """scripts/mate-drill: legal random positions of the pieces against a lone king (the
    same for the same seed), played out by the engine; a hexagon has no corners to drive
    to and is refused with a message."""
    script = REPO_ROOT / "scripts" / "mate-drill"

    def drill(*args):
        return subprocess.run([sys.executable, str(script), *args], cwd=REPO_ROOT,
                              capture_output=True, text=True, timeout=300)

    out = drill("--pieces", "Q", "--positions", "2", "--nodes", "5000", "--seed", "3")
    assert out.returncode == 0, out.stderr
    fens = [line.split(":")[0].strip() for line in out.stdout.splitlines() if "after" in line]
    assert len(fens) == 2
    for fen in fens:
        board = chess.Board(fen)
        assert board.is_valid() and not board.is_check() and board.turn == chess.WHITE
        assert sorted(str(p) for p in board.piece_map().values()) == ["K", "Q", "k"]
    assert "KQ vs K: mated 2/2" in out.stdout
    again = drill("--pieces", "Q", "--positions", "2", "--nodes", "5000", "--seed", "3")
    assert [line.split(":")[0] for line in again.stdout.splitlines()][:2] == \
        [line.split(":")[0] for line in out.stdout.splitlines()][:2]
    hexagon = drill("--variant", "hexagonal", "--pieces", "Q", "--positions", "1")
    assert hexagon.returncode != 0 and "rectangular" in hexagon.stderr


def test_conversion_turns_says_who_saw_the_game_turn_first(tmp_path):
    """--turns 150: in round 1 engine 2 (Black) wins, its own score +1.60 at ply 4 and
    engine 1's -2.00 at ply 5: one ply later; in round 2 engine 1 (Black) wins with a
    mate seen at ply 2 while engine 2 never scores itself 1.5 pawns down; the draw of
    round 3 is no turn."""
    game = '[Event "Quantum match"]\n[Round "{r}"]\n[Result "{res}"]\n\n{moves} {res}\n\n'
    lost = ("1. e4 {+0.20/10 0.10s} e5 {-0.10/10 0.10s} 2. Nf3 {+0.10/10 0.10s} "
            "Nc6 {+1.60/10 0.10s} 3. Bb5 {-2.00/10 0.10s} a6 {+3.00/10 0.10s}")
    won = "1. e4 {-1.00/10 0.10s} e5 {+M3/10 0.10s} 2. Nf3 {-1.40/10 0.10s}"
    pgn = tmp_path / "games.pgn"
    pgn.write_text(game.format(r=1, res="0-1", moves=lost) + game.format(r=2, res="0-1", moves=won)
                   + game.format(r=3, res="1/2-1/2", moves=lost))
    proc = _conversion(pgn, "--variant", "chess", "--lead", "9", "--turns", "150")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[2:] == [
        "turns at 150 cp: engine 1 lost 1 games with comments; winner saw it at plies 1-20 "
        "in 1, the loser 1 plies later (median); winner never at +margin in 0",
        "turns at 150 cp: engine 2 lost 1 games with comments; winner saw it at plies 1-20 "
        "in 1, the loser never (median); winner never at +margin in 0"]
