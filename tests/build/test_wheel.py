"""What pip installs is the engine the other tests test.

An sdist is built from the checkout and a wheel from that sdist (``python -m build``), the
wheel is installed into a fresh virtual environment outside the checkout, and the
installed ``quantum`` must search exactly as the checkout's engine does (the same
``bench`` node signature: the same rules, evaluation weights and search), score a queen up
as a queen up, and start the other programs a user is told to run. An install that lacked
its evaluation weights once scored every position 0 and passed every other test.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.smp import MAX_THREADS
from engine.variant import variant_names

REPO_ROOT = Path(__file__).resolve().parents[2]
QUEEN_UP = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"


def run(argv, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("timeout", 600)
    return subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)


def signature(bench_output: str) -> int:
    match = re.search(r"^Nodes searched\s*:\s*(\d+)", bench_output, re.M)
    assert match, bench_output[-2000:]
    return int(match[1])


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the fresh environment's bin folder, a folder outside the checkout to run in)."""
    top = tmp_path_factory.mktemp("wheel")
    dist = top / "dist"
    built = run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist),
                 str(REPO_ROOT)], cwd=top, timeout=1200)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-3000:]
    wheels = list(dist.glob("*.whl"))
    assert len(wheels) == 1 and list(dist.glob("*.tar.gz")), list(dist.iterdir())
    venv = top / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)])
    assert made.returncode == 0, made.stderr
    pip = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
               "--disable-pip-version-check", f"{wheels[0]}[lichess]"], cwd=top)
    assert pip.returncode == 0, pip.stdout[-2000:] + pip.stderr[-3000:]
    work = top / "elsewhere"
    work.mkdir()
    return venv / "bin", work


def test_the_installed_engine_searches_as_the_checkout(installed):
    bin_dir, work = installed
    ours = run([sys.executable, "-m", "engine", "bench"], cwd=REPO_ROOT)
    theirs = run([str(bin_dir / "quantum"), "bench"], cwd=work)
    assert ours.returncode == 0 and theirs.returncode == 0, theirs.stderr[-2000:]
    assert signature(theirs.stdout) == signature(ours.stdout)


def test_the_installed_engine_is_the_installed_code(installed):
    bin_dir, work = installed
    where = run([str(bin_dir / "python"), "-c", "import engine; print(engine.__file__)"],
                cwd=work)
    assert Path(where.stdout.strip()).is_relative_to(bin_dir.parent), where.stdout
    version = run([str(bin_dir / "quantum"), "--version"], cwd=work)
    assert version.stdout.strip() == f"quantum {engine.__version__}"


def test_the_installed_engine_sees_material_in_every_variant(installed):
    """A queen up is worth several pawns; and every variant loads from the install."""
    bin_dir, work = installed
    lines = [f"position fen {QUEEN_UP}", "go depth 1"]
    for name in variant_names() + ["alea"]:
        lines += [f"setoption name UCI_Variant value {name}", "d"]
    uci = run([str(bin_dir / "quantum")], input="\n".join(lines + ["quit"]) + "\n", cwd=work)
    assert uci.returncode == 0 and "error" not in uci.stdout, uci.stdout + uci.stderr
    score = int(re.search(r"info depth 1 .*score cp (-?\d+)", uci.stdout)[1])
    assert score > 500, uci.stdout


def test_the_installed_engine_searches_with_two_threads(installed):
    """Threads 2 (engine/smp.py ships and runs): a search with a helper answers a move."""
    bin_dir, work = installed
    threads = min(2, MAX_THREADS)
    lines = [f"setoption name Threads value {threads}", "position startpos", "go depth 9",
             "isready"]
    uci = run([str(bin_dir / "quantum")], input="\n".join(lines) + "\n", cwd=work)
    assert uci.returncode == 0 and "error" not in uci.stdout, uci.stdout + uci.stderr
    assert re.search(r"^bestmove [a-h][1-8][a-h][1-8]", uci.stdout, re.M), uci.stdout
    assert "readyok" in uci.stdout


def test_the_installed_programs_start(installed):
    bin_dir, work = installed
    python = str(bin_dir / "python")
    bridge = run([python, "-m", "adapters.lichess", "--help"], cwd=work)
    assert bridge.returncode == 0 and "usage" in bridge.stdout, bridge.stderr
    terminal = run([python, "-m", "adapters.terminal", "--help"], cwd=work)
    assert terminal.returncode == 0 and "usage" in terminal.stdout, terminal.stderr
    baseline = run([python, "-m", "adapters.baselines.fog_greedy"], input="uci\nquit\n",
                   cwd=work)
    assert baseline.returncode == 0 and "uciok" in baseline.stdout, baseline.stderr


def test_a_missing_data_file_stops_the_engine_at_start(installed, tmp_path):
    """Not a silent default: ``quantum`` refuses to start and names the file."""
    bin_dir, work = installed
    where = run([str(bin_dir / "python"), "-c",
                 "import engine.eval_tables as e; print(e.PARAM_DIR)"], cwd=work)
    params = Path(where.stdout.strip())
    kept = tmp_path / "chess.toml"
    shutil.move(params / "chess.toml", kept)
    try:
        for argv in ([str(bin_dir / "quantum")], [str(bin_dir / "quantum"), "bench"]):
            proc = run(argv, input="uci\nquit\n", cwd=work)
            assert proc.returncode == 3 and "uciok" not in proc.stdout, proc.stdout
            assert f"{params / 'chess.toml'} is missing" in proc.stderr, proc.stderr
    finally:
        shutil.move(kept, params / "chess.toml")


def test_the_installed_web_board_serves_every_page_and_asset(installed):
    """``quantum serve`` from the install: each game's page, and every file of the
    checkout's adapters/web/static byte for byte (the wheel once left out the pages)."""
    import urllib.request

    bin_dir, work = installed
    proc = subprocess.Popen([str(bin_dir / "quantum"), "serve", "--port", "0"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"(http://[\d.]+:\d+/)", line)
        assert url, line
        base = url[1]
        for page in ("", "chess", "grand", "hexagonal", "fogofwar", "alea"):
            with urllib.request.urlopen(base + page, timeout=30) as resp:
                assert resp.status == 200 and b"<html" in resp.read().lower()
        static = REPO_ROOT / "adapters" / "web" / "static"
        files = [p for p in static.rglob("*") if p.is_file()]
        assert len(files) > 20
        for path in files:
            rel = path.relative_to(static).as_posix()
            with urllib.request.urlopen(f"{base}static/{rel}", timeout=30) as resp:
                assert resp.read() == path.read_bytes(), rel
    finally:
        proc.terminate()
        proc.wait(15)
