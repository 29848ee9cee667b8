"""The adaptive level ("Benlik", the engine's self): per opponent, how much that opponent
makes of each of its piece types, learnt from its moves after each finished game within
hard bounds, and used as the value of the opponent's pieces in the engine's evaluation.
Kept in a small local JSON file; nothing is ever sent anywhere.

Weights. A profile holds, per variant, one multiplier ``theta`` (default 1.0) for each
name of ``weight_names(variant)``: ``opponent's <piece> value`` for every piece type of
the variant except the pawn (the unit) and the royal piece. ``theta`` is the opponent's
own valuation of that piece relative to Quantum's default (``engine/params/<variant>.toml``).

Use in the search (``tables_for``). The engine's own pieces keep their default values;
the opponent's pieces of a type count ``used_value(theta) = 1 - USE * max(0, 1 - theta)``
times their default value, half way between the opponent's valuation and the default
(in the hand-written evaluation's piece-square rows of the opponent's colour, and as a
change added to the net's score where the engine plays with one, as at hard; the plain
values used for move ordering and SEE are untouched). A piece the opponent gives away cheaply is
worth less in its hands: the engine neither pays full price to win it nor trades it off,
it keeps it on the board where the opponent wastes it. Measured (docs/strength.md):
against Quantum with its queen at half value, the opponent's queen at 0.7 scores 86 %
where plain hard scores 75 % (0.85: 85 %); the same 0.7 against a normal opponent scores
25 %, and 1.3 against a queen over-valuer 35 % where hard scores 50 %; against a rook
under-valuer its rooks at 0.75 cost points, at 0.875 not. So only a learnt
under-valuation is used, half of it, and only the opponent's moves can bring it.

Learning rule (``choice_gradient``, ``step``). The model of the opponent is a one-ply
player (``Searcher.move_values``: the quiescence value after each legal move) with
Quantum's evaluation and the piece values scaled by ``theta`` for both colours (the
opponent's own, symmetric view). After a finished game, ``learn`` replays it and takes
the positions where the opponent was to move, at most ``MAX_POSITIONS`` evenly spread.
In each, the reference is the move Quantum itself picks (a ``REF_DEPTH`` search with the
default tables). Where the opponent chose another move, the gradient of each ``theta`` is
the difference of the two moves' values under the model, ``d v(its move)/d theta -
d v(reference)/d theta`` (central differences, ``h = FD_STEP``, in pawns): positive when a
higher valuation explains its choice better than Quantum's, negative when a lower one
does (a queen given for a rook). The game's gradient is the mean over the positions
taken (agreeing moves count zero). Then

    theta <- bound(theta, 1 + (1 - FORGET) * (theta - 1) + RATE * s * gradient)

with ``s`` the engine's score in the game (1, 1/2, 0; 3/4 or 1/4 after a Gliński
stalemate): choices that beat the engine are not learnt as weaknesses (a stronger
opponent's sacrifice is no gift), and ``FORGET`` pulls every weight a little back to its
default each game, so an opponent that changes is followed and a neutral one stays near
1 (measured over 120 games of Quantum against itself: mean queen gradient -0.009 pawn
per game, against -0.17 for the queen under-valuer). The rule needs the engine's side;
a game whose side is unknown teaches nothing.

Hard bounds, enforced in one function, ``bound``: a multiplier moves at most
``MAX_STEP`` (0.03, i.e. 3 % of the default weight) per game and never leaves
``[1 - MAX_TOTAL, 1 + MAX_TOTAL]`` (30 % of the default). A non-finite proposal leaves
the multiplier unchanged. Loading rejects a file whose values lie outside these bounds.

The file. ``default_path(opponent)`` is
``$XDG_DATA_HOME/quantum/profiles/<opponent>.json`` (``~/.local/share`` when
``XDG_DATA_HOME`` is unset or not absolute); the opponent name is the name part of the
``UCI_Opponent`` option, sanitised (``opponent_name``), else ``default``. The JSON is
``{"format": "quantum-adaptive-profile", "version": 2, "opponent": ...,
"variants": {<variant>: {"games": N, "weights": {<name>: multiplier}}}}``; a variant not
listed is at its defaults. It is written atomically (a temporary file in the same folder,
flushed and fsynced, then ``os.replace``), so a crash mid-write leaves the old file whole.
Updates re-read the file under an exclusive lock on its folder, so two engine processes
learning against the same opponent never lose each other's games. Only a missing file, an
empty one or a Quantum profile (JSON with this ``format``) is ever written: any other file
(``ForeignFileError``: unreadable, not a regular file, too large, not JSON, another
format) is refused as the ``Adaptive Profile`` path, and never renamed, replaced nor
written to. A Quantum profile of another version (version 1 learnt other weights by
another rule), with unknown or missing keys, or a value out of bounds is never trusted:
``Adaptive`` reports it, copies it to a free ``<name>.json.bad`` name and replaces it by
defaults.

``scaled_params`` also scales the positional groups of ``GROUPS`` by name
(``scalable_names``): ``scripts/adaptive-match`` builds its weak opponents with it.

This module never prints: ``Adaptive`` reports through its ``notify(text, error)``
callback (the protocol prints ``info string ...``).
"""
from __future__ import annotations

import copy
import json
import math
import os
import re
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable

from engine.notation import check_fen_length, quote

FORMAT = "quantum-adaptive-profile"
VERSION = 2                     # 1: symmetric weights fitted to results (withdrawn)
# The hard bounds, in units of the default weight (multiplier 1.0): issue 7.
MAX_STEP = 0.03                 # per game
MAX_TOTAL = 0.30                # from the default, ever
LOW, HIGH = 1.0 - MAX_TOTAL, 1.0 + MAX_TOTAL
# Finite-difference half-width of a multiplier (the tables hold integers).
FD_STEP = 0.1
# Multiplier change per pawn of gradient at a won game. The queen under-valuer's moves
# give about -0.17 per game (Quantum's own about -0.01), so with FORGET its stationary
# value is 1 - 0.1 * 0.75 * 0.17 / 0.05 = 0.74 (0.75: the engine's mean score), reached
# within a few tens of games; the steps stay well under the 3 % cap.
RATE = 0.1
FORGET = 0.05                   # per game, every weight's distance to its default shrinks
# The share of a learnt under-valuation the search uses (``used_value``): with the full
# share the opponent's rook at 0.75 cost points against a rook under-valuer (84.2 % vs
# hard 86.2 %); with half, 85.8 %; the queen gain stays (85.3 % at half, 86.1 % full).
USE = 0.5
REF_DEPTH = 3                   # depth of Quantum's reference move in each position
MAX_POSITIONS = 60              # opponent positions per game used by a step (evenly spread)
MAX_FILE_BYTES = 64 * 1024      # a profile is a few hundred bytes; more is not ours
DEFAULT_OPPONENT = "default"
OPPONENTS = "opponent's "       # the prefix of every learnt weight's name

# Positional groups ``scaled_params`` can scale (weak opponents for scripts/adaptive-match):
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


class ForeignFileError(ProfileError):
    """A file that is not a Quantum profile at all (not a readable regular file of JSON
    with this ``format``): it is never renamed, replaced nor written to."""


# -- the named weights ---------------------------------------------------------------------
@lru_cache(maxsize=None)
def scalable_names(variant: str) -> tuple[str, ...]:
    """Every name ``scaled_params`` knows: the positional groups, then ``<piece> value``
    for each piece type except the pawn (the unit of the scale) and the royal piece."""
    from engine.variant import load_variant
    v = load_variant(variant)
    pieces = [f"{PIECE_NAMES.get(ch, 'piece ' + ch)} value"
              for t, ch in enumerate(v.letters) if t and t not in (v.pawn_type, v.royal_type)]
    return tuple(name for name, _ in GROUPS) + tuple(pieces)


@lru_cache(maxsize=None)
def weight_names(variant: str) -> tuple[str, ...]:
    """The learnt weights of a variant, in report order: ``opponent's <piece> value``."""
    return tuple(OPPONENTS + n for n in scalable_names(variant) if n.endswith(" value"))


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
    """The variant's params with every group or piece value named in ``multipliers``
    (``scalable_names``) scaled (integers again); a multiplier of exactly 1.0 leaves its
    entries untouched."""
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
    for name in scalable_names(variant):
        m = multipliers.get(name, 1.0)
        if name.endswith(" value") and m != 1.0:
            letter = _value_letter(variant, name)
            values = params.get("value", {})
            if letter in values:
                values[letter] = _scale(values[letter], m)
    return params


def _as_values(multipliers: dict[str, float]) -> dict[str, float]:
    """``{"opponent's queen value": x}`` -> ``{"queen value": x}`` for ``scaled_params``."""
    return {n[len(OPPONENTS):]: m for n, m in multipliers.items() if n.startswith(OPPONENTS)}


@lru_cache(maxsize=32)
def _model_tables(variant: str, items: tuple):
    """The opponent model's tables: piece values scaled for both colours."""
    from engine.eval_tables import build
    from engine.evaluate import EvalTables
    from engine.variant import load_variant
    return EvalTables(build(load_variant(variant), scaled_params(variant, dict(items))))


@lru_cache(maxsize=16)
def _search_tables(variant: str, items: tuple, own: str, net):
    from engine.eval_tables import build
    from engine.evaluate import EvalTables
    from engine.variant import load_variant
    v = load_variant(variant)
    data = build(v)
    theirs = build(v, scaled_params(variant, {n: m for n, m in items if m < 1.0}))
    bit = 16 << (1 if own == "w" else 0)          # the opponent's colour bit of a code
    for key in ("pst_mg", "pst_eg"):
        data[key] = [theirs[key][code] if code & bit else row
                     for code, row in enumerate(data[key])]
    data["value_change"] = {code: change for code, change in theirs["value_change"].items()
                            if code & bit}
    tables = EvalTables(data)
    tables.attach(net)
    return tables


def used_value(theta: float) -> float:
    """The fraction of its default value an opponent's piece counts in the search: half
    way between the opponent's learnt valuation and the default, and only below it."""
    return 1.0 - USE * max(0.0, 1.0 - theta)


def tables_for(variant: str, multipliers: dict[str, float], own: str, base=None):
    """EvalTables for the engine playing ``own`` (``w``/``b``): ``base`` (default: the
    variant's shipped tables and net) with the opponent's pieces at ``used_value(theta)``
    of their default values, in the hand-written evaluation's tables and as a change to
    the score of ``base``'s net, if any (``base`` itself when no weight is below 1; a few
    recent ones are cached)."""
    from engine.eval_tables import eval_tables
    base = eval_tables(variant) if base is None else base
    items = tuple(sorted((n, used_value(m)) for n, m in _as_values(multipliers).items()))
    if all(m >= 1.0 for _, m in items):
        return base
    return _search_tables(variant, items, own, base.net)


# -- learning ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """A replayed game: its first position (``fen`` None: the variant's start), its moves,
    the side to move before each (``turns``) and the final board. No board of an earlier
    position is kept: ``positions`` rebuilds the few that learning reads, so a game of
    any length costs about what ``position`` with its moves costs."""

    variant: str
    fen: str | None
    moves: tuple[str, ...]
    turns: str
    final: object
    chess960: bool = False      # played in the variant's Chess960 form

    def positions(self, side: str, most: int) -> list:
        """[(board before the move, the move)] for at most ``most`` of the moves ``side``
        made, evenly spread over the game: a second replay that copies only those."""
        from engine.board import Board
        chosen = set(_spread([i for i, t in enumerate(self.turns) if t == side], most))
        board = Board(self.variant, self.fen, chess960=self.chess960)
        out = []
        for i, move in enumerate(self.moves):
            if len(out) == len(chosen):
                break
            if i in chosen:
                out.append((board.copy(), move))
            board.push(move)
        return out


def game_positions(variant: str, fen: str | None, moves, chess960: bool = False) -> Game:
    """Replay a game (ValueError for a bad FEN or move), in the variant's Chess960 form
    with ``chess960``: the ``Game``."""
    from engine.board import Board
    board = Board(variant, None if fen is None else check_fen_length(fen), chess960=chess960)
    moves, turns = tuple(moves), []
    for ply, move in enumerate(moves, 1):
        turns.append(board.turn)
        try:
            board.push(move)
        except ValueError:
            raise ValueError(f"illegal move {quote(move)} (move {ply} of the list) "
                             f"in {board.fen()}") from None
    return Game(variant, fen, moves, "".join(turns), board, chess960)


def _spread(items: list, most: int) -> list:
    if len(items) <= most:
        return items
    step = len(items) / most
    return [items[int(i * step)] for i in range(most)]


def choice_gradient(variant: str, game: Game, opponent: str,
                    multipliers: dict[str, float]) -> dict[str, float]:
    """Per learnt weight, the mean over the opponent's positions (``opponent``: its side,
    ``w``/``b``) of ``d v(its move)/d theta - d v(Quantum's move)/d theta`` under the
    one-ply model, in pawns (see the module docstring)."""
    from engine.eval_tables import eval_tables
    from engine.search import Searcher
    from engine.tt import TranspositionTable
    names = weight_names(variant)
    grad = {name: 0.0 for name in names}
    theirs = game.positions(opponent, MAX_POSITIONS)
    if not theirs:
        return grad
    values = _as_values(multipliers)
    probes = {}
    for name in names:
        piece = name[len(OPPONENTS):]
        for sign in (1, -1):
            probe = dict(values, **{piece: values[piece] + sign * FD_STEP})
            probes[name, sign] = _model_tables(variant, tuple(sorted(probe.items())))
    ref, model, tt = Searcher(), Searcher(), TranspositionTable(1)
    default = eval_tables(variant)
    for board, move in theirs:
        ref.set_root(board, default, tt)
        ref.new_search()
        for depth in range(1, REF_DEPTH + 1):
            ref.search(depth)
        ours = ref.pv()[0] if ref.pv() else move
        if ours == move:
            continue
        for name in names:
            diff = []
            for sign in (1, -1):
                uci = model.set_root(board, probes[name, sign], tt, (move, ours))
                if move not in uci or ours not in uci:
                    break
                v = model.move_values()
                diff.append(v[uci.index(move)] - v[uci.index(ours)])
            if len(diff) == 2:
                grad[name] += (diff[0] - diff[1]) / (2 * FD_STEP) / 100.0
    return {name: g / len(theirs) for name, g in grad.items()}


def step(variant: str, game: Game, engine_side: str, engine_score: float,
         multipliers: dict[str, float]) -> dict[str, float]:
    """The multipliers after learning from one game (every change bounded)."""
    opponent = "b" if engine_side == "w" else "w"
    grad = choice_gradient(variant, game, opponent, multipliers) if engine_score > 0 \
        else dict.fromkeys(multipliers, 0.0)
    return {name: bound(m, 1.0 + (1.0 - FORGET) * (m - 1.0)
                        + RATE * engine_score * grad.get(name, 0.0))
            for name, m in multipliers.items()}


# -- the report ----------------------------------------------------------------------------
def changes_text(multipliers: dict[str, float], names=None) -> str:
    """``opponent's queen value -12.3 %, ...``: the weights that differ from their
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
        raise ForeignFileError(f"not a Quantum profile: not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise ForeignFileError("not a Quantum profile: not a JSON object")
    if data.get("format") != FORMAT:
        raise ForeignFileError(f"not a Quantum profile: format is not {FORMAT!r}")
    if data.get("version") != VERSION or isinstance(data.get("version"), bool):
        raise ProfileError(f"version {data.get('version')!r}, not {VERSION}")
    extra = set(data) - {"format", "version", "opponent", "variants"}
    if extra:
        raise ProfileError(f"unknown keys {sorted(extra)}")
    opponent = data.get("opponent")
    variants = data.get("variants")
    if not isinstance(opponent, str) or not isinstance(variants, dict):
        raise ProfileError("'opponent' must be a string, 'variants' an object")
    profile = Profile(opponent)
    known = variant_names()
    for variant, body in variants.items():
        if variant not in known:
            raise ProfileError(f"unknown variant {quote(variant)}")
        if not isinstance(body, dict) or set(body) != {"games", "weights"}:
            raise ProfileError(f"{variant} needs exactly 'games' and 'weights'")
        games, weights = body["games"], body["weights"]
        if not isinstance(games, int) or isinstance(games, bool) or games < 0:
            raise ProfileError(f"{variant}: games must be a whole number >= 0")
        if not isinstance(weights, dict) or set(weights) != set(weight_names(variant)):
            raise ProfileError(f"{variant} weights are not "
                               f"{', '.join(weight_names(variant))}")
        for name, m in weights.items():
            if not _is_number(m) or not LOW <= m <= HIGH:
                raise ProfileError(f"{variant} {name} = {m!r} is out of bounds "
                                   f"[{LOW:g}, {HIGH:g}]")
        profile.weights[variant] = {n: float(weights[n]) for n in weight_names(variant)}
        profile.games[variant] = games
    return profile


def read_profile(path: Path) -> Profile | None:
    """The profile in ``path``; None when there is no file or an empty one (nothing in it
    to lose); ForeignFileError when it is not a Quantum profile (not a readable regular
    file, too large, not JSON, another format), ProfileError when it is one that must not
    be trusted (another version, unknown keys or variants, weights out of bounds)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise ForeignFileError("not a Quantum profile: not a regular file")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ForeignFileError(f"unreadable ({exc.strerror or exc})") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ForeignFileError(f"not a Quantum profile: larger than {MAX_FILE_BYTES} bytes")
    if not raw.strip():
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ForeignFileError("not a Quantum profile: not UTF-8 text") from None
    return parse_profile(text)


def check_usable(path: Path) -> None:
    """ForeignFileError unless ``path`` may hold a profile: no file yet, an empty one, or
    a Quantum profile (valid or not: a broken one is kept as ``.bad`` and replaced)."""
    try:
        read_profile(path)
    except ForeignFileError:
        raise
    except ProfileError:
        pass


def save_profile(path: Path, profile: Profile) -> None:
    """Write ``profile`` to ``path`` atomically (``write_atomic``), unless ``path`` is a
    file that is not a Quantum profile: ForeignFileError then, and it is left untouched.
    OSError when it cannot be written."""
    check_usable(path)
    write_atomic(path, profile.to_json())


def keep_bad(path: Path) -> Path | None:
    """A copy of the (broken) profile ``path`` under the first free name of
    ``<name>.bad``, ``<name>.bad.2``, ...: an existing file is never replaced. None when
    no copy could be made."""
    try:
        data = path.read_bytes()[:MAX_FILE_BYTES]
    except OSError:
        return None
    for n in range(1, 100):
        kept = path.with_name(path.name + (".bad" if n == 1 else f".bad.{n}"))
        try:
            with open(kept, "xb") as fh:
                fh.write(data)
            return kept
        except FileExistsError:
            continue
        except OSError:
            return None
    return None


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


def why_not_written(exc: Exception) -> str:
    """Why a profile could not be written: the system's words, or the refusal's."""
    return str(exc.strerror or exc) if isinstance(exc, OSError) else str(exc)


def reset_file(path: Path, opponent: str) -> None:
    """Write a profile with every weight at its default to ``path`` (OSError if it
    cannot be written, ForeignFileError if it is not a Quantum profile; the old file then
    stays)."""
    with _locked(path.parent):
        save_profile(path, Profile(opponent))


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
        """``Adaptive Profile``: ValueError for a file that is not a Quantum profile (it
        is left as it is, and the path stays the old one); a missing file is created when
        the level first saves."""
        option = (text or "").strip()
        if option:
            path = Path(option).expanduser()
            try:
                check_usable(path)
            except ForeignFileError as exc:
                raise ValueError(f"adaptive profile {path}: {exc}: refused, the file is left "
                                 "as it is") from None
        self.path_option = option

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
        except ForeignFileError as exc:
            self.notify(f"adaptive profile {path}: {exc}: left untouched; the adaptive "
                        "level plays with the defaults and saves nothing there", True)
            return Profile(self.opponent)
        except ProfileError as exc:
            kept = keep_bad(path)
            note = f" (the old file is kept as {kept.name})" if kept is not None else ""
            profile = Profile(self.opponent)
            self.notify(f"adaptive profile {path}: {exc}: replaced by defaults{note}", True)
            self._write(path, profile)
            return profile
        return found if found is not None else Profile(self.opponent)

    def _write(self, path: Path, profile: Profile) -> bool:
        try:
            save_profile(path, profile)
            return True
        except (OSError, ForeignFileError) as exc:
            self.notify(f"adaptive profile {path}: cannot write ({why_not_written(exc)}); "
                        "the changes are kept for this session only", True)
            return False

    def tables(self, variant: str, own: str, base=None):
        """EvalTables for ``variant`` with the current profile, the engine playing ``own``,
        on ``base`` (the tables and net it would search with otherwise: ``tables_for``)."""
        return tables_for(variant, self.profile().multipliers(variant), own, base)

    # -- changing --------------------------------------------------------------------------
    def reset(self) -> None:
        """Every weight of every variant back to its default, in memory and on disk."""
        path = self.path
        self._profile, self._loaded_from = Profile(self.opponent), path
        try:
            reset_file(path, self.opponent)
        except (OSError, ForeignFileError) as exc:
            self.notify(f"adaptive profile {path}: cannot write ({why_not_written(exc)}); "
                        "the defaults hold for this session only", True)
            return
        self.notify(f"adaptive: profile {path} reset to defaults", False)

    def learn(self, variant: str, fen: str | None, moves, white_score: float,
              side: str | None, chess960: bool = False) -> LearnResult:
        """Learn from one finished game (``side``: ``w``/``b``, the engine's; ``chess960``:
        played in the Chess960 form, into the same weights) and save the profile; after a
        game the engine lost, report the changes vs defaults. Without a side nothing is
        learnt (the opponent's moves are unknown). ValueError for a bad FEN or move
        (nothing changes then)."""
        return self.learn_game(game_positions(variant, fen, moves, chess960), white_score,
                               side)

    def learn_game(self, game: Game, white_score: float, side: str | None) -> LearnResult:
        """``learn`` from a game replayed already (``game_positions``)."""
        variant = game.variant
        path = self.path
        self.profile()                      # a bad file is reported (and replaced) first
        if side not in ("w", "b"):
            self.notify("adaptive: the engine's side in that game is unknown; nothing "
                        "learnt", False)
            same = self._profile.multipliers(variant)
            return LearnResult(same, same, None)
        score = white_score if side == "w" else 1.0 - white_score
        with _locked(path.parent):
            try:                            # another process may have learnt meanwhile
                profile = read_profile(path) or self._profile
            except ProfileError:
                profile = self._profile
            before = profile.multipliers(variant)
            after = step(variant, game, side, score, before)
            profile.weights[variant] = after
            profile.games[variant] = profile.games.get(variant, 0) + 1
            self._write(path, profile)
        self._profile, self._loaded_from = profile, path
        if score < 0.5:
            self.notify("adaptive: " + changes_text(after, weight_names(variant)), False)
        return LearnResult(before, after, score)


def show_lines(profile: Profile, variants) -> list[str]:
    """``<variant>: N games learned; opponent's queen value -12.3 %, ...`` per variant."""
    lines = []
    for v in variants:
        games = profile.games.get(v, 0)
        if not games and v not in profile.weights:
            lines.append(f"{v}: no games learned (defaults)")
            continue
        changes = changes_text(profile.multipliers(v), weight_names(v))
        lines.append(f"{v}: {games} game{'s' if games != 1 else ''} learned; {changes}")
    return lines
