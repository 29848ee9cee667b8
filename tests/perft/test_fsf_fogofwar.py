"""tests/data/fogofwar.ini (pychess.org's definition, a copy of shared/refdata) teaches
Fairy-Stockfish 11.1 Fog of War's board rules (it has no fog variant of its own), so that
it can play fog games seeing the whole board
(scripts/match --omniscient2, docs/strength.md). Its perft must equal the fog reference
table (perft_fogofwar.tsv) and Quantum's fogofwar perft on positions that exercise what
differs from chess: no check rule, castling out of, through and into attack, a king left
attacked and captured (the game over: nothing is counted below a king capture), promotion
and en passant. And its search must see a king capture as the win. (Stalemate is a draw
by 11.1's default and material never is; perft cannot tell those apart, and 11.1 has no
insufficient-material rule to switch off.)

Skipped when Fairy-Stockfish is not installed (CI installs the Debian package).
"""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from engine.board import Board
from testkit import REPO_ROOT, read_tsv, refdata

INI = REPO_ROOT / "tests" / "data" / "fogofwar.ini"
FSF = shutil.which("fairy-stockfish") or shutil.which("/usr/games/fairy-stockfish")
NODE_CAP = 5_000_000        # every row of the table: Fairy-Stockfish counts them in seconds

pytestmark = pytest.mark.skipif(FSF is None, reason="fairy-stockfish is not installed")


def fsf(*commands: str, until: str, timeout: float = 120) -> str:
    """Fairy-Stockfish's output for ``commands`` (after loading the ini's ``fogofwar``) up
    to the first line starting with ``until``; then it is told to quit."""
    script = [f"setoption name VariantPath value {INI}",
              "setoption name UCI_Variant value fogofwar", *commands]
    proc = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        proc.stdin.write("\n".join(script) + "\n")
        proc.stdin.flush()
        out = []
        for line in proc.stdout:
            out.append(line)
            if line.startswith(until):
                break
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.wait(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return "".join(out)


def fsf_perft(fen: str, depth: int) -> int:
    out = fsf(f"position fen {fen}", f"go perft {depth}", until="Nodes searched")
    found = re.search(r"^Nodes searched: (\d+)", out, re.M)
    assert found, out[-500:]
    return int(found[1])


TABLE = [(r["fen"], int(r["depth"]), int(r["nodes"]))
         for r in read_tsv(refdata("perft_fogofwar.tsv")) if int(r["nodes"]) <= NODE_CAP]

# Positions beyond the table, each to the depth given (Quantum counts them too).
EXTRA = [
    ("8/8/8/3kK3/8/8/8/r7 w - - 0 1", 3),               # kings touching: either takes the other
    ("4k3/8/8/8/8/8/8/4K2r w - - 0 1", 4),              # White's king left attacked
    ("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", 4),          # castling out of attack
    ("2r1kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", 3),         # castling through and into attack
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 3),        # both sides castle
    ("r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1", 4),            # promotions, one a capture
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 4),           # en passant
    ("rnbqkbnr/ppp1pppp/8/8/2Pp4/4P3/PP1P1PPP/RNBQKBNR b KQkq c3 0 1", 3),
    ("rnbqk1nr/pppp1ppp/8/4p3/1b1P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1", 3),  # "check" ignored
    ("7k/8/8/8/8/8/1q6/K7 w - - 0 1", 3),               # a king beside an enemy queen
]


def test_ini_loads_as_fogofwar():
    out = fsf("position startpos", "go perft 1", until="Nodes searched")
    assert "info string variant fogofwar files 8 ranks 8" in out, out[:500]


@pytest.mark.parametrize("fen,depth,nodes", TABLE,
                         ids=[f"table{i}-d{d}" for i, (_, d, _) in enumerate(TABLE)])
def test_fsf_perft_equals_the_reference_table(fen, depth, nodes):
    assert fsf_perft(fen, depth) == nodes


@pytest.mark.parametrize("fen,depth", EXTRA, ids=[f"extra{i}" for i in range(len(EXTRA))])
def test_fsf_perft_equals_quantum(fen, depth):
    for d in range(1, depth + 1):
        assert fsf_perft(fen, d) == Board("fogofwar", fen).perft(d), (fen, d)


@pytest.mark.parametrize("fen,move", [
    ("8/8/8/3kK3/8/8/8/r7 w - - 0 1", "e5d5"),      # take the king rather than anything else
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "h1e1"),     # a king left attacked is taken
])
def test_fsf_takes_the_king_as_a_win(fen, move):
    out = fsf(f"position fen {fen}", "go depth 6", until="bestmove")
    assert re.search(r"score mate 1 ", out) and f"bestmove {move}" in out, out[-500:]

