"""``setoption name Hash`` when the memory is not there: the new table is allocated before
the old one is freed, so a failed resize is one ``info string error`` line and the engine
plays on with the table it had (it once freed the old table first, and the next ``go``
crashed)."""
from __future__ import annotations

import resource
import subprocess
import sys

ADDRESS_SPACE = 1_500_000 * 1024         # as `ulimit -v 1500000`


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def test_a_hash_beyond_the_memory_keeps_the_old_table():
    lines = ["uci", "setoption name Hash value 2048", "isready", "position startpos",
             "go depth 4", "isready", "setoption name Hash value 32", "go depth 4", "quit"]
    proc = subprocess.run([sys.executable, "-m", "engine"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=120, preexec_fn=limited)
    out = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stderr[-2000:]
    errors = [ln for ln in out if ln.startswith("info string error")]
    assert len(errors) == 1 and "cannot allocate a 2048 MB hash table" in errors[0], out
    assert "the 16 MB table stays" in errors[0] and "internal" not in errors[0]
    assert sum(ln.startswith("bestmove ") for ln in out) == 2
    assert out.count("readyok") == 2
