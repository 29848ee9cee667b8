"""Dependencies point down (docs/architecture.md): ``engine/`` imports neither
``protocol/`` nor ``adapters/`` (but the console-script entry ``engine/__main__.py``, which
starts the UCI loop and the web board), and ``protocol/`` does not import ``adapters/``. Python files are
read with ``ast``; Cython files line by line (``import``, ``from ... import``,
``cimport``)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"engine": ("protocol", "adapters"), "protocol": ("adapters",)}
# The console script's entry starts the front ends it names: the UCI loop and the web board.
ALLOWED = {("engine/__main__.py", "protocol"), ("engine/__main__.py", "adapters")}
CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import|c?import\s+([\w.]+))", re.M)


def imported(path: Path) -> set[str]:
    """The top-level packages a source file imports."""
    text = path.read_text()
    if path.suffix == ".py":
        names = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    else:
        names = {a or b for a, b in CYTHON_IMPORT.findall(text)}
    return {name.split(".")[0] for name in names}


def sources(layer: str) -> list[Path]:
    return sorted(p for suffix in ("*.py", "*.pyx", "*.pxd")
                  for p in (REPO_ROOT / layer).rglob(suffix))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_only_downwards(layer):
    files = sources(layer)
    assert files
    wrong = [f"{path.relative_to(REPO_ROOT)} imports {name}"
             for path in files for name in sorted(imported(path))
             if name in FORBIDDEN[layer]
             and (str(path.relative_to(REPO_ROOT)), name) not in ALLOWED]
    assert not wrong, wrong


def test_the_checker_sees_imports():
    """The one allowed edge is found, so an edge that is not allowed would be too."""
    assert "protocol" in imported(REPO_ROOT / "engine" / "__main__.py")
    assert "engine" in imported(REPO_ROOT / "engine" / "search.pyx")
