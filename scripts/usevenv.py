"""Imported first by every Python script here: it re-runs the script with the project's
``.venv`` Python (made and built by scripts/setup-env when that is needed), whatever
``python3`` started it, so the scripts never run on an interpreter that lacks the
project's packages. Under the ``.venv`` Python it does nothing."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"

if Path(sys.prefix).resolve() != VENV.resolve():
    subprocess.run([str(ROOT / "scripts" / "setup-env")], check=True, stdout=sys.stderr)
    python = str(VENV / "bin" / "python")
    os.execv(python, [python, os.path.abspath(sys.argv[0]), *sys.argv[1:]])
