"""scripts/match end to end with fake engines: it survives an engine that keeps crashing
(restarting it for every game) and reports the crashes in its summary."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

from adapterkit import MATCH, REPO_ROOT, fake_command


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
