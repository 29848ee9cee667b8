"""Daily Dice (A20, docs/rules/alea.md): today's dice for everyone, and the record of the
first finished game of each day, kept on this machine only.

The record is ``$XDG_DATA_HOME/quantum/alea-daily.json`` (``~/.local/share`` when unset):
``{"version": 1, "days": {"YYYY-MM-DD": {result, moves, colour, termination, seed}}}``,
written atomically. The streak (*decided*) is the days in a row, up to today, with a
finished daily game; with it go the number of daily wins and a line to share
(``Quantum Alea Daily 2026-11-30: won in 41 moves as White, streak 3``). The terminal and
the web board both record through ``record_daily``.
"""
from __future__ import annotations

import contextlib
import datetime
import json
import os
import tempfile
from pathlib import Path

COLOUR = ("White", "Black")


def daily_path() -> Path:
    """The Daily Dice record: ``$XDG_DATA_HOME/quantum/alea-daily.json`` (XDG's default
    ``~/.local/share`` when unset or not absolute)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "quantum" / "alea-daily.json"


def load_daily(path: Path) -> dict:
    """The record's days (``{"YYYY-MM-DD": {...}}``); empty when there is no file.
    ValueError when the file is not a record."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} cannot be read: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("days"), dict):
        raise ValueError(f"{path} is not a Daily Dice record")
    return data["days"]


def save_daily(path: Path, days: dict) -> None:
    """Write the record atomically: a temporary file in the same folder, flushed to disk,
    then renamed over the old one (which stays whole if anything fails)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump({"version": 1, "days": days}, fh, indent=1, sort_keys=True)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def daily_streak(days: dict, day: datetime.date) -> int:
    """Days in a row, up to ``day``, with a finished Daily Dice game."""
    streak = 0
    while (day - datetime.timedelta(days=streak)).isoformat() in days:
        streak += 1
    return streak


def share_line(day: str, entry: dict, streak: int) -> str:
    """``Quantum Alea Daily 2026-11-30: won in 41 moves as White, streak 3``."""
    moves = entry["moves"]
    return (f"Quantum Alea Daily {day}: {entry['result']} in {moves} "
            f"move{'s' if moves != 1 else ''} as {entry['colour']}, streak {streak}")


def record_daily(day: datetime.date, rec, colour: int, path: Path | None = None) -> list[str]:
    """A20: record the first finished Daily Dice game of ``day`` (the person played
    ``colour``); what to tell the person: the record, the streak, the daily wins and the
    line to share. An unfinished game (``*``) is not recorded; a later game of the same
    day neither (the first one stands)."""
    path = path or daily_path()
    if rec.white_score is None:
        return ["Daily Dice: an unfinished game is not recorded."]
    try:
        days = load_daily(path)
    except ValueError as exc:
        return [f"Daily Dice: {exc}; nothing recorded (the file is left as it is)."]
    key = day.isoformat()
    out = []
    if key in days:
        out.append("Daily Dice: today's game was already recorded; this one does not count.")
    else:
        mine = rec.white_score if colour == 0 else 1.0 - rec.white_score
        plies = sum(1 for m in rec.moves if m != "reroll")
        days[key] = {"result": {1.0: "won", 0.5: "drew", 0.0: "lost"}[mine],
                     "moves": (plies + 1) // 2, "colour": COLOUR[colour],
                     "termination": rec.termination, "seed": rec.tags.get("DiceSeed")}
        try:
            save_daily(path, days)
        except OSError as exc:
            return [f"Daily Dice: the record could not be written ({exc})."]
    streak = daily_streak(days, day)
    wins = sum(1 for entry in days.values() if entry.get("result") == "won")
    out.append(f"Daily Dice record ({path}): streak {streak} "
               f"day{'s' if streak != 1 else ''}, {wins} daily win{'s' if wins != 1 else ''}.")
    out.append(share_line(key, days[key], streak))
    return out
