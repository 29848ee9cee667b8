"""The web board's piece images: all 16 are there, each a scalable SVG, and
``scripts/make-pieces`` still makes exactly the committed files, so they never drift
from the script (or from python-chess's shapes it reads)."""
from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PIECES = REPO_ROOT / "adapters" / "web" / "static" / "pieces"
NAMES = [f"{colour}{letter}.svg" for colour in "wb" for letter in "pnbrqkac"]
SVG = "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize("name", NAMES)
def test_each_piece_is_a_scalable_svg(name):
    root = ET.parse(PIECES / name).getroot()
    assert root.tag == SVG
    assert root.get("viewBox") == "0 0 45 45"
    assert root.get("width") in (None, "100%") and root.get("height") in (None, "100%")
    assert (PIECES / name).stat().st_size < 4096


def test_the_folder_holds_exactly_the_16_pieces():
    assert sorted(p.name for p in PIECES.glob("*.svg")) == sorted(NAMES)


def test_make_pieces_remakes_the_committed_files(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "make-pieces"),
                           "--out", str(tmp_path)], capture_output=True, text=True,
                          timeout=120, check=False, cwd=REPO_ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(NAMES)
    stale = [n for n in NAMES if (tmp_path / n).read_bytes() != (PIECES / n).read_bytes()]
    assert not stale, f"run scripts/make-pieces and commit: {stale} differ from the script"
