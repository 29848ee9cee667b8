"""The adaptive level ("Benlik", the engine's self): per-opponent multipliers on named
groups of evaluation weights, learnt after each finished game within hard bounds and kept
in a small local JSON file. Nothing is ever sent anywhere.

Weights. A profile holds, per variant, one multiplier (default 1.0) for each name of
``weight_names(variant)``; each name scales a group of entries of
``engine/params/<variant>.toml`` (``GROUPS``): ``king safety`` (king shield, danger and its
cap), ``mobility``, ``centre`` (the centralisation piece-square terms), ``pawn structure``
(doubled, isolated), ``passed pawns``, ``open files``, and ``<piece> value`` for every
piece type of the variant except the pawn (the unit of the scale) and the royal piece.
``scaled_params`` multiplies each entry of a group and rounds it to an integer (the C
tables hold integers); the adaptive level searches with ``EvalTables`` built from those
params (``tables_for``), so the cached tables of the other levels are never touched.

Learning rule. After a finished game (the moves from its start, the result), ``learn``
replays the game and keeps the positions before each move that are not in check, at most
``MAX_POSITIONS`` of them, evenly spread. With the current multipliers ``m`` the real
evaluator (``evaluate_boards``) gives each position a score ``e`` (White's view, cp) and
a predicted White score ``p = 1 / (1 + 10 ** (-e / 400))``. The loss is the log-loss of
those predictions against the game's White score ``r`` (1, 0, 1/2, or 3/4 / 1/4 after a
Gliński stalemate), averaged over the positions. Its gradient with respect to each
multiplier is ``mean((p - r) * ln(10) / 400 * de/dm)``, where ``de/dm`` is a central finite
difference of the real evaluation, ``(e(m + h) - e(m - h)) / 2h`` with ``h = FD_STEP``
(large enough that a small integer weight such as the king danger of 8 moves at all).
Each multiplier then takes a step ``-LEARNING_RATE * gradient``: towards the weights that
would have predicted this game's result better. ``bound`` clips every step.

Hard bounds, enforced in one function, ``bound``: a multiplier moves at most
``MAX_STEP`` (0.03, i.e. 3 % of the default weight) per game and never leaves
``[1 - MAX_TOTAL, 1 + MAX_TOTAL]`` (30 % of the default). A non-finite proposal leaves
the multiplier unchanged. Loading rejects a file whose values lie outside these bounds.

The file. ``default_path(opponent)`` is
``$XDG_DATA_HOME/quantum/profiles/<opponent>.json`` (``~/.local/share`` when
``XDG_DATA_HOME`` is unset or not absolute); the opponent name is the name part of the
``UCI_Opponent`` option, sanitised (``opponent_name``), else ``default``. The JSON is
``{"format": "quantum-adaptive-profile", "version": 1, "opponent": ...,
"variants": {<variant>: {"games": N, "weights": {<name>: multiplier}}}}``; a variant not
listed is at its defaults. It is written atomically (a temporary file in the same folder,
flushed and fsynced, then ``os.replace``), so a crash mid-write leaves the old file whole.
Updates re-read the file under an exclusive lock on its folder, so two engine processes
learning against the same opponent never lose each other's games. A file that cannot be
read, is not JSON, has another format or version, unknown or missing keys, or a value out
of bounds is never trusted: ``Adaptive`` reports it, keeps it as ``<name>.json.bad`` and
replaces it by defaults.

This module never prints: ``Adaptive`` reports through its ``notify(text, error)``
callback (the protocol prints ``info string ...``).
"""
from __future__ import annotations

import copy
import json
import math
import os
import re
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

FORMAT = "quantum-adaptive-profile"
VERSION = 1
# The hard bounds, in units of the default weight (multiplier 1.0): issue 7.
MAX_STEP = 0.03                 # per game
MAX_TOTAL = 0.30                # from the default, ever
LOW, HIGH = 1.0 - MAX_TOTAL, 1.0 + MAX_TOTAL
# Finite-difference half-width of the multiplier. Weights are rounded to integers, so a
# narrow probe would see nothing move for small ones (king danger 8: 8 * 1.05 rounds to 8).
FD_STEP = 0.1
# Multiplier change per unit of log-loss gradient. A group whose evaluation differs by
# about 100 cp between the two sides over a game that went against the prediction by 0.5
# has a gradient near 0.5 * ln(10) / 400 * 100 = 0.29, so it moves by about 0.6 %; a
# queen-sized imbalance (about 1000 cp) reaches the 3 % cap.
LEARNING_RATE = 0.02
MAX_POSITIONS = 400             # positions per game used by a step (evenly spread)
MAX_FILE_BYTES = 64 * 1024      # a profile is a few hundred bytes; more is not ours
DEFAULT_OPPONENT = "default"
LN10_400 = math.log(10) / 400

# name -> (table, key) entries of the params it scales; key "*" scales the whole table.
GROUPS = (
    ("king safety", (("king", "shield"), ("king", "danger"), ("king", "danger_cap"))),
    ("mobility", (("mobility", "*"),)),
    ("centre", (("centre", "*"),)),
    ("pawn structure", (("pawn", "doubled"), ("pawn", "isolated"))),
    ("passed pawns", (("pawn", "passed_mg"), ("pawn", "passed_eg"))),
    ("open files", (("open_file", "*"),)),
)
PIECE_NAMES = {"n": "knight", "b": "bishop", "r": "rook", "q": "queen",
               "a": "archbishop", "c": "chancellor"}


class ProfileError(ValueError):
    """A profile file that must not be trusted; the message says why."""


# -- the named weights ---------------------------------------------------------------------
@lru_cache(maxsize=None)
def weight_names(variant: str) -> tuple[str, ...]:
    """The named weights of a variant (canonical name), in report order."""
    from engine.variant import load_variant
    v = load_variant(variant)
    pieces = [f"{PIECE_NAMES.get(ch, 'piece ' + ch)} value"
              for t, ch in enumerate(v.letters) if t and t not in (v.pawn_type, v.royal_type)]
    return tuple(name for name, _ in GROUPS) + tuple(pieces)


def _value_letter(variant: str, name: str) -> str:
    from engine.variant import load_variant
    v = load_variant(variant)
    for t, ch in enumerate(v.letters):
        if t and f"{PIECE_NAMES.get(ch, 'piece ' + ch)} value" == name:
            return ch
    raise KeyError(name)


def defaults(variant: str) -> dict[str, float]:
    return {name: 1.0 for name in weight_names(variant)}


def bound(old: float, proposed: float) -> float:
    """The one place the hard bounds are enforced: ``proposed`` moved at most MAX_STEP
    from ``old`` and kept inside [LOW, HIGH]; ``old`` itself when ``proposed`` is not a
    finite number."""
    if not math.isfinite(proposed):
        proposed = old
    proposed = min(max(proposed, old - MAX_STEP), old + MAX_STEP)
    return min(max(proposed, LOW), HIGH)


def _scale(node, m: float):
    if isinstance(node, bool):
        return node
    if isinstance(node, (int, float)):
        return int(round(node * m))
    if isinstance(node, list):
        return [_scale(x, m) for x in node]
    if isinstance(node, dict):
        return {k: _scale(x, m) for k, x in node.items()}
    return node


@lru_cache(maxsize=None)
def _base_params(variant: str) -> dict:
    from engine.eval_tables import load_params
    return load_params(variant)


def scaled_params(variant: str, multipliers: dict[str, float]) -> dict:
    """The variant's params with every group scaled by its multiplier (integers again); a
    multiplier of exactly 1.0 leaves its entries untouched."""
    params = copy.deepcopy(_base_params(variant))
    for name, entries in GROUPS:
        m = multipliers.get(name, 1.0)
        if m == 1.0:
            continue
        for table, key in entries:
            body = params.get(table, {})
            for k in (list(body) if key == "*" else [key]):
                if k in body:
                    body[k] = _scale(body[k], m)
    for name in weight_names(variant):
        m = multipliers.get(name, 1.0)
        if name.endswith(" value") and m != 1.0:
            letter = _value_letter(variant, name)
            values = params.get("value", {})
            if letter in values:
                values[letter] = _scale(values[letter], m)
    return params


def _build_tables(variant: str, multipliers: dict[str, float]):
    from engine.eval_tables import build
    from engine.evaluate import EvalTables
    from engine.variant import load_variant
    return EvalTables(build(load_variant(variant), scaled_params(variant, multipliers)))


@lru_cache(maxsize=16)
def _tables_cached(variant: str, items: tuple):
    return _build_tables(variant, dict(items))


def tables_for(variant: str, multipliers: dict[str, float]):
    """EvalTables for a variant with its weights scaled (a few recent ones are cached)."""
    return _tables_cached(variant, tuple(sorted(multipliers.items())))


# -- learning ------------------------------------------------------------------------------
def game_positions(variant: str, fen: str | None, moves) -> tuple[list, object]:
    """Replay a game: (the positions before each move that are not in check, at most
    MAX_POSITIONS evenly spread; the final board). ValueError for a bad FEN or move."""
    from engine.board import Board
    board = Board(variant) if fen is None else Board(variant, fen)
    kept = []
    for ply, move in enumerate(moves, 1):
        if not board.is_check():
            kept.append(board.copy())
        try:
            board.push(move)
        except ValueError:
            raise ValueError(f"illegal move {move!r} (move {ply} of the list) "
                             f"in {board.fen()}") from None
    if len(kept) > MAX_POSITIONS:
        step = len(kept) / MAX_POSITIONS
        kept = [kept[int(i * step)] for i in range(MAX_POSITIONS)]
    return kept, board


def gradient(variant: str, boards: list, white_score: float,
             multipliers: dict[str, float]) -> dict[str, float]:
    """d(mean log-loss)/d(multiplier) for each named weight, by central differences of
    the real evaluation (see the module docstring)."""
    from engine.evaluate import evaluate_boards
    names = weight_names(variant)
    if not boards:
        return {name: 0.0 for name in names}
    base = evaluate_boards(boards, _build_tables(variant, multipliers))
    err = [1.0 / (1.0 + 10.0 ** (-max(-4000, min(4000, e)) / 400.0)) - white_score
           for e in base]
    out = {}
    for name in names:
        up = dict(multipliers, **{name: multipliers[name] + FD_STEP})
        down = dict(multipliers, **{name: multipliers[name] - FD_STEP})
        e_up = evaluate_boards(boards, _build_tables(variant, up))
        e_down = evaluate_boards(boards, _build_tables(variant, down))
        out[name] = sum(er * LN10_400 * (a - b) / (2 * FD_STEP)
                        for er, a, b in zip(err, e_up, e_down)) / len(boards)
    return out


def step(variant: str, boards: list, white_score: float,
         multipliers: dict[str, float]) -> dict[str, float]:
    """The multipliers after learning from one game's positions (every change bounded)."""
    grad = gradient(variant, boards, white_score, multipliers)
    return {name: bound(m, m - LEARNING_RATE * grad[name]) for name, m in multipliers.items()}


# -- the report ----------------------------------------------------------------------------
def changes_text(multipliers: dict[str, float], names=None) -> str:
    """``king safety +2.1 %, mobility -0.8 %``: the weights that differ from their
    defaults (at 0.1 % resolution), in report order; ``no weight changed`` otherwise."""
    parts = []
    for name in names or multipliers:
        pct = round((multipliers.get(name, 1.0) - 1.0) * 100, 1)
        if pct != 0:
            parts.append(f"{name} {pct:+.1f} %")
    return ", ".join(parts) if parts else "no weight changed"


# -- the profile and its file --------------------------------------------------------------
@dataclass
class Profile:
    """Multipliers per variant and games learned; variants not listed are at defaults."""

    opponent: str = DEFAULT_OPPONENT
    weights: dict = field(default_factory=dict)     # variant -> {name: multiplier}
    games: dict = field(default_factory=dict)       # variant -> games learned

    def multipliers(self, variant: str) -> dict[str, float]:
        return dict(defaults(variant), **self.weights.get(variant, {}))

    def to_json(self) -> str:
        variants = {v: {"games": self.games.get(v, 0), "weights": self.multipliers(v)}
                    for v in sorted(set(self.weights) | set(self.games))}
        return json.dumps({"format": FORMAT, "version": VERSION, "opponent": self.opponent,
                           "variants": variants}, indent=1, sort_keys=False) + "\n"


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def parse_profile(text: str) -> Profile:
    """A Profile from file text; ProfileError for anything but a valid profile of this
    format and version with known variants, exactly their weight names, and values in
    bounds."""
    from engine.variant import variant_names
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ProfileError(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ProfileError("foreign file: not a JSON object")
    if data.get("format") != FORMAT:
        raise ProfileError(f"foreign file: format is not {FORMAT!r}")
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise ProfileError(f"foreign file: version {data.get('version')!r}, not {VERSION}")
    extra = set(data) - {"format", "version", "opponent", "variants"}
    if extra:
        raise ProfileError(f"foreign file: unknown keys {sorted(extra)}")
    opponent = data.get("opponent")
    variants = data.get("variants")
    if not isinstance(opponent, str) or not isinstance(variants, dict):
        raise ProfileError("foreign file: 'opponent' must be a string, 'variants' an object")
    profile = Profile(opponent)
    known = variant_names()
    for variant, body in variants.items():
        if variant not in known:
            raise ProfileError(f"foreign file: unknown variant {variant!r}")
        if not isinstance(body, dict) or set(body) != {"games", "weights"}:
            raise ProfileError(f"foreign file: {variant} needs exactly 'games' and 'weights'")
        games, weights = body["games"], body["weights"]
        if not isinstance(games, int) or isinstance(games, bool) or games < 0:
            raise ProfileError(f"{variant}: games must be a whole number >= 0")
        if not isinstance(weights, dict) or set(weights) != set(weight_names(variant)):
            raise ProfileError(f"foreign file: {variant} weights are not "
                               f"{', '.join(weight_names(variant))}")
        for name, m in weights.items():
            if not _is_number(m) or not LOW <= m <= HIGH:
                raise ProfileError(f"{variant} {name} = {m!r} is out of bounds "
                                   f"[{LOW:g}, {HIGH:g}]")
        profile.weights[variant] = {n: float(weights[n]) for n in weight_names(variant)}
        profile.games[variant] = games
    return profile


def read_profile(path: Path) -> Profile | None:
    """The profile in ``path``; None when there is no file; ProfileError when it is
    unreadable or not a valid profile."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ProfileError(f"unreadable ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ProfileError(f"foreign file: larger than {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProfileError("not valid JSON (not UTF-8 text)") from None
    return parse_profile(text)


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` all at once: a temporary file in the same folder,
    flushed and fsynced, then ``os.replace``. On any failure the temporary file is removed
    and the old file is left as it was; OSError is raised."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:                            # make the rename itself durable (POSIX; best effort)
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


@contextmanager
def _locked(folder: Path):
    """An exclusive lock on the profile folder for a read-modify-write (where flock
    exists); another engine process learning at the same time waits."""
    try:
        import fcntl
    except ImportError:             # no flock (Windows): one process per profile then
        yield
        return
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)                # closing releases the lock


def reset_file(path: Path, opponent: str) -> None:
    """Write a profile with every weight at its default to ``path`` (OSError if it
    cannot be written; the old file then stays)."""
    with _locked(path.parent):
        write_atomic(path, Profile(opponent).to_json())


# -- names and paths -----------------------------------------------------------------------
def opponent_name(uci_opponent: str) -> str:
    """The file-safe name of an opponent from a ``UCI_Opponent`` value
    (``[title] [elo] [computer|human] <name>``, or a bare name): letters, digits, ``.``,
    ``_`` and ``-`` (lower case, other runs become ``_``, at most 64 characters), else
    ``default``.

    >>> opponent_name("GM 2800 human Magnus Carlsen")
    'magnus_carlsen'
    """
    words = uci_opponent.split()
    if len(words) >= 4 and words[2].lower() in ("computer", "human"):
        words = words[3:]
    name = re.sub(r"[^a-z0-9._-]+", "_", " ".join(words).lower()).strip("._-")[:64]
    return name.strip("._-") or DEFAULT_OPPONENT


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "quantum" / "profiles"


def default_path(opponent: str) -> Path:
    return data_dir() / f"{opponent}.json"


# -- the engine's adaptive state -----------------------------------------------------------
@dataclass
class LearnResult:
    before: dict
    after: dict
    engine_score: float | None      # the engine's score in the game (None: side unknown)


class Adaptive:
    """What the Engine facade keeps for the adaptive level: the opponent, the profile path,
    the loaded profile. Files are read and written only here; problems and reports go to
    ``notify(text, error)``."""

    def __init__(self, notify: Callable[[str, bool], None] | None = None):
        self.notify = notify if notify is not None else (lambda text, error: None)
        self.opponent = DEFAULT_OPPONENT
        self.path_option = ""
        self._profile: Profile | None = None
        self._loaded_from: Path | None = None

    @property
    def path(self) -> Path:
        """The profile file: the ``Adaptive Profile`` option, else the default path."""
        if self.path_option:
            return Path(self.path_option).expanduser()
        return default_path(self.opponent)

    def set_opponent(self, uci_opponent: str) -> None:
        self.opponent = opponent_name(uci_opponent or "")

    def set_path(self, text: str) -> None:
        self.path_option = (text or "").strip()

    # -- loading ---------------------------------------------------------------------------
    def profile(self) -> Profile:
        """The profile of the current path, read when the path changed (a bad file is
        reported and replaced by defaults)."""
        path = self.path
        if self._profile is None or self._loaded_from != path:
            self._profile = self._read(path)
            self._loaded_from = path
        return self._profile

    def _read(self, path: Path) -> Profile:
        try:
            found = read_profile(path)
        except ProfileError as exc:
            kept = path.with_name(path.name + ".bad")
            note = ""
            try:
                os.replace(path, kept)
                note = f" (the old file is kept as {kept.name})"
            except OSError:
                pass
            profile = Profile(self.opponent)
            self.notify(f"adaptive profile {path}: {exc}: replaced by defaults{note}", True)
            self._write(path, profile)
            return profile
        return found if found is not None else Profile(self.opponent)

    def _write(self, path: Path, profile: Profile) -> bool:
        try:
            write_atomic(path, profile.to_json())
            return True
        except OSError as exc:
            self.notify(f"adaptive profile {path}: cannot write ({exc.strerror or exc}); "
                        "the changes are kept for this session only", True)
            return False

    def tables(self, variant: str):
        """EvalTables for ``variant`` scaled by the current profile."""
        return tables_for(variant, self.profile().multipliers(variant))

    # -- changing --------------------------------------------------------------------------
    def reset(self) -> None:
        """Every weight of every variant back to its default, in memory and on disk."""
        path = self.path
        self._profile, self._loaded_from = Profile(self.opponent), path
        try:
            reset_file(path, self.opponent)
        except OSError as exc:
            self.notify(f"adaptive profile {path}: cannot write ({exc.strerror or exc}); "
                        "the defaults hold for this session only", True)
            return
        self.notify(f"adaptive: profile {path} reset to defaults", False)

    def learn(self, variant: str, fen: str | None, moves, white_score: float,
              side: str | None) -> LearnResult:
        """Learn from one finished game (``side``: ``w``/``b``, the engine's, or None) and
        save the profile; after a game the engine lost, report the changes vs defaults.
        ValueError for a bad FEN or move (nothing changes then)."""
        boards, _ = game_positions(variant, fen, moves)
        path = self.path
        self.profile()                      # a bad file is reported (and replaced) first
        with _locked(path.parent):
            try:                            # another process may have learnt meanwhile
                profile = read_profile(path) or self._profile
            except ProfileError:
                profile = self._profile
            before = profile.multipliers(variant)
            after = step(variant, boards, white_score, before)
            profile.weights[variant] = after
            profile.games[variant] = profile.games.get(variant, 0) + 1
            self._write(path, profile)
        self._profile, self._loaded_from = profile, path
        score = None if side is None else (white_score if side == "w" else 1.0 - white_score)
        if score is not None and score < 0.5:
            self.notify("adaptive: " + changes_text(after, weight_names(variant)), False)
        return LearnResult(before, after, score)


def show_lines(profile: Profile, variants) -> list[str]:
    """``<variant>: N games learned; king safety +2.1 %, ...`` for each variant."""
    lines = []
    for v in variants:
        games = profile.games.get(v, 0)
        if not games and v not in profile.weights:
            lines.append(f"{v}: no games learned (defaults)")
            continue
        changes = changes_text(profile.multipliers(v), weight_names(v))
        lines.append(f"{v}: {games} game{'s' if games != 1 else ''} learned; {changes}")
    return lines
