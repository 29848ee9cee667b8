"""Evaluation tables for a variant: parameter files + board geometry -> C arrays.

``engine/params/<variant>.toml`` holds weights by piece letter; this module turns them
into per-cell tables (piece-square values generated from the geometry: distance to the
centre, steps left to promotion, distance from the own edge) so the C evaluation never
knows which variant it evaluates.

Testing aid: the environment variable ``QUANTUM_PARAMS_<VARIANT>`` (for example
``QUANTUM_PARAMS_CHESS=/tmp/strong-queen.toml``) names a params file that the process reads
instead of the shipped ``engine/params/<variant>.toml``; its ``extends`` names a shipped
file. It is read once per process (``eval_tables`` caches) and is meant for experiments
such as scripts/adaptive-match's opponent with a known weakness, never for play. Its piece
values reach a net too (``value_change``); its other tables only the hand-written evaluation.
"""
from __future__ import annotations

import json
import os
import stat
import tomllib
from collections import deque
from functools import lru_cache
from pathlib import Path

from engine.datafiles import DataFileError

PARAM_DIR = Path(__file__).with_name("params")
NET_DIR = Path(__file__).with_name("nets")
MERGED = ("value", "phase", "centre", "mobility", "mobility_base", "open_file", "pawn", "king", "misc",
          "net", "endgame")
PARAMS_ENV = "QUANTUM_PARAMS_"          # + the variant name in capitals: an override file


def load_params(name: str) -> dict:
    """Weights for a variant, with ``extends`` resolved (tables merge key by key); the
    file named by ``QUANTUM_PARAMS_<NAME>`` instead of the shipped one when that is set."""
    override = os.environ.get(PARAMS_ENV + name.upper())
    if override:
        return _load_file(Path(override), override)
    return _load_shipped(name)


def _load_shipped(name: str) -> dict:
    """The shipped weights of a variant: every variant has its file (it may ``extends``
    another). A missing one is an incomplete installation, never a reason to play with
    empty weights (an install without its params once evaluated every position as 0)."""
    path = PARAM_DIR / f"{name}.toml"
    if not path.is_file():
        raise DataFileError(f"{path} is missing: the installation is incomplete "
                            "(reinstall Quantum)")
    return _load_file(path, f"params/{name}.toml")


def _load_file(path: Path, label: str) -> dict:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    parent = data.pop("extends", "")
    for key in data:
        if key not in MERGED:
            raise ValueError(f"{label}: unknown table {key!r}")
    if not parent:
        return data
    merged = _load_shipped(parent)
    for key, table in data.items():
        merged[key] = {**merged.get(key, {}), **table}
    return merged


def dump_params(params: dict) -> str:
    """Params tables as TOML text that ``load_params`` reads back (ints, floats, strings,
    lists, inline tables): for the tuner's output and experiment files."""
    lines = []
    for table, body in params.items():
        lines.append(f"\n[{table}]")
        lines += [f"{key} = {_toml_value(val)}" for key, val in body.items()]
    return "\n".join(lines) + "\n"


def _toml_value(val) -> str:
    if isinstance(val, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in val.items()) + "}"
    if isinstance(val, list):
        return "[" + ", ".join(_toml_value(v) for v in val) + "]"
    if isinstance(val, float):
        return f"{val:g}"
    if isinstance(val, str):
        return json.dumps(val)              # a TOML basic string is a JSON string
    return str(val)


def _bfs(nxt, starts, vectors) -> list[int]:
    """Steps from the nearest start cell using the given vectors (-1 where unreachable)."""
    dist = [-1] * len(nxt)
    queue = deque(starts)
    for c in starts:
        dist[c] = 0
    while queue:
        c = queue.popleft()
        for v in vectors:
            d = nxt[c][v]
            if d >= 0 and dist[d] < 0:
                dist[d] = dist[c] + 1
                queue.append(d)
    return dist


def build(variant, params: dict | None = None) -> dict:
    """Plain-data tables for evaluate.EvalTables, from ``params`` (default: the variant's
    own, ``load_params``); the adaptive level passes scaled weights (engine/adaptive.py)."""
    p = load_params(variant.name) if params is None else params
    g = variant.geometry
    data = variant.tables_data
    nxt = data["nxt"]
    n = g.ncells
    letters = variant.letters
    king_vecs = [v for v in range(data["nvec"]) if data["leap_mask"][variant.royal_type] >> v & 1] \
        if variant.royal_type else list(range(data["nvec"]))
    # centre: the cells nearest the mean of all coordinates
    mx = sum(x for x, _ in g.coords) / n
    my = sum(y for _, y in g.coords) / n
    d2 = [(x - mx) ** 2 + (y - my) ** 2 for x, y in g.coords]
    centre = [c for c in range(n) if d2[c] <= min(d2) + 1e-9]
    cdist = _bfs(nxt, centre, king_vecs)
    cmax = max(cdist)
    central = [cmax - d for d in cdist]

    promo_dist = []
    edge_dist = []
    for side in range(2):
        push = data["pawn_push"][side]
        back = data["opp"][push]
        zone = [c for c, z in data["promo_zone"][side].items() if z == 2]
        pd, ed = [], []
        for c in range(n):
            k, d = 0, c
            while d >= 0 and d not in zone:
                d, k = nxt[d][push], k + 1
            pd.append(k if d >= 0 else 0)
            k, d = 0, nxt[c][back]
            while d >= 0:
                d, k = nxt[d][back], k + 1
            ed.append(k)
        promo_dist.append(pd)
        edge_dist.append(ed)

    def pair(table, letter, default=(0, 0)):
        return list(p.get(table, {}).get(letter, default))

    pawn = p.get("pawn", {})
    king = p.get("king", {})
    ntypes = len(letters) - 1
    pst_mg = [[0] * n for _ in range(48)]
    pst_eg = [[0] * n for _ in range(48)]
    for t in range(1, ntypes + 1):
        ch = letters[t]
        val = pair("value", ch)
        cen = pair("centre", ch)
        for side in range(2):
            code = t | (16 << side)
            for c in range(n):
                mg = val[0] + cen[0] * central[c]
                eg = val[1] + cen[1] * central[c]
                if t == variant.pawn_type:
                    dist = promo_dist[side][c]
                    adv_mg, adv_eg = pawn.get("advance_mg", []), pawn.get("advance_eg", [])
                    mg += adv_mg[dist] if dist < len(adv_mg) else 0
                    eg += adv_eg[dist] if dist < len(adv_eg) else 0
                if t == variant.royal_type:
                    mg += king.get("back_rank", [0, 0])[0] * edge_dist[side][c]
                    eg += king.get("back_rank", [0, 0])[1] * edge_dist[side][c]
                pst_mg[code][c] = mg
                pst_eg[code][c] = eg

    # passed-pawn spans: cells on the own and neighbouring files strictly ahead
    files = sorted({x for x, _ in g.coords})
    file_of = [files.index(x) for x, _ in g.coords]
    span = [[0] * n for _ in range(2)]
    for side in range(2):
        sign = 1 if side == 0 else -1
        for c in range(n):
            x, y = g.coords[c]
            mask = 0
            for d in range(n):
                xd, yd = g.coords[d]
                if abs(xd - x) <= 1 and (yd - y) * sign > 0:
                    mask |= 1 << d
            span[side][c] = mask
    shield_cells = [[[] for _ in range(n)] for _ in range(2)]
    for side in range(2):
        vecs = [data["pawn_push"][side]] + list(data["pawn_caps"][side])
        for c in range(n):
            shield_cells[side][c] = [nxt[c][v] for v in vecs if nxt[c][v] >= 0]

    def per_type(table, default=0):
        out = [default] * (ntypes + 1)
        for ch, val in p.get(table, {}).items():
            if ch in variant.type_of:
                out[variant.type_of[ch]] = val
        return out

    ending = endgame_tables(variant, p, file_of, len(files))
    mob = per_type("mobility", [0, 0])
    open_file = per_type("open_file", [[0, 0], [0, 0]])
    slides_file = [bool(data["slide_mask"][t] >> data["pawn_push"][0] & 1) for t in range(ntypes + 1)]
    return {
        "ncells": n, "pst_mg": pst_mg, "pst_eg": pst_eg,
        "phase": per_type("phase"), "mob_mg": [m[0] for m in mob], "mob_eg": [m[1] for m in mob],
        "mob_base": per_type("mobility_base"),
        "value": [pair("value", letters[t])[0] if t else 0 for t in range(ntypes + 1)],
        "file_of": file_of, "nfiles": len(files), "promo_dist": promo_dist,
        "passed_mg": pawn.get("passed_mg", [0]), "passed_eg": pawn.get("passed_eg", [0]),
        "doubled": pawn.get("doubled", [0, 0]), "isolated": pawn.get("isolated", [0, 0]),
        "span": span, "shield_cells": shield_cells, "shield": king.get("shield", [0, 0]),
        "phase_max": sum(per_type("phase")[variant.type_of[ch.lower()]]
                         for ch in variant.start_fen.split()[0] if ch.lower() in variant.type_of),
        "attack_weight": per_type_dict(variant, king.get("attack_weight", {})),
        "danger": king.get("danger", 0), "danger_cap": king.get("danger_cap", 0),
        "open_mg": [[o[0][0], o[1][0]] for o in open_file],
        "open_eg": [[o[0][1], o[1][1]] for o in open_file],
        "slides_file": slides_file, "tempo": p.get("misc", {}).get("tempo", 0),
        "stalemate_cp": stalemate_cp(variant.stalemate_score),
        "value_change": value_change(variant, p),
        "hand_share": round(256 * p.get("net", {}).get("hand", 0.0)),
        **ending,
    }


def endgame_tables(variant, p: dict, file_of: list, nfiles: int) -> dict:
    """Tables of params' [endgame] (engine/evaluate.pyx, ``endgame_scale``): which piece
    types are minor (cannot force mate alone), the most one is worth and the least any
    other piece is worth (the shipped endgame values), the colour-bound piece that cannot win with
    pawns on an edge file only when the promotion cell is of the other colour, and per
    cell its coordinates, whether it is on an edge file and each side's promotion cell
    straight ahead of a pawn there (-1 none)."""
    ending = p.get("endgame", {})
    g = variant.geometry
    data = variant.tables_data
    letters = variant.letters
    # the shipped values: the adaptive level's and an override's values move no rule
    shipped = _load_shipped(variant.name).get("value", {})
    value_eg = [list(shipped.get(letters[t], (0, 0)))[1] if t else 0
                for t in range(len(letters))]
    wrong = ending.get("wrong_bishop", "")
    for ch in list(ending.get("minor", [])) + ([wrong] if wrong else []):
        if ch not in variant.type_of:
            raise ValueError(f"[endgame]: no piece {ch!r} in {variant.name}")
    minor = [letters[t] in ending.get("minor", []) for t in range(len(letters))]
    others = [value_eg[t] for t in range(1, len(letters))
              if not minor[t] and t not in (variant.pawn_type, variant.royal_type)]
    zone = [[c for c, z in data["promo_zone"][side].items() if z == 2] for side in range(2)]
    promo_cell = [[-1] * g.ncells for _ in range(2)]
    for side in range(2):
        push = data["pawn_push"][side]
        for c in range(g.ncells):
            d = c
            while d >= 0 and d not in zone[side]:
                d = data["nxt"][d][push]
            promo_cell[side][c] = d
    return {**mop_up_tables(g, ending.get("mop_up", 0)),
        "colour_bound": colour_bound(variant),
        "value_eg": value_eg,
        "minor_eg": max((value_eg[t] for t in range(len(letters)) if minor[t]), default=0),
        "mate_eg": min(others, default=0),
        "wrong_bishop": variant.type_of[wrong] if wrong else 0,
        "cell_x": [x for x, _ in g.coords],
        "cell_y": [y for _, y in g.coords],
        "edge_file": [f in (0, nfiles - 1) for f in file_of], "promo_cell": promo_cell,
    }


def colour_bound(variant) -> list:
    """Per piece type, whether every move it has keeps it on cells of one colour (a
    bishop): read from its move vectors, so a new board's pieces need no entry."""
    data = variant.tables_data
    nxt, colours = data["nxt"], data["colour"]
    bound = []
    for t in range(len(variant.letters)):
        mask = data["slide_mask"][t] | data["leap_mask"][t]
        bound.append(bool(mask) and t != variant.pawn_type and all(
            nxt[c][v] < 0 or colours[nxt[c][v]] == colours[c]
            for v in range(data["nvec"]) if mask >> v & 1 for c in range(len(nxt))))
    return bound


def mop_up_tables(g, step: int) -> dict:
    """Per cell of a rectangular board, how many steps it stands out from the centre
    toward the edge, and per cell colour how many nearer the nearest corner of that
    colour (Manhattan steps; engine/evaluate.pyx ``bare_king``); the farthest two cells lie
    apart (king steps). Each is 0 where it is worst, so a position is not scored above
    the same material elsewhere."""
    xs = [x for x, _ in g.coords]
    ys = [y for _, y in g.coords]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    edge_push = [max((x0 + x1) // 2 - x, x - (x0 + x1 + 1) // 2, 0)
                 + max((y0 + y1) // 2 - y, y - (y0 + y1 + 1) // 2, 0) for x, y in g.coords]
    corners = [c for c, (x, y) in enumerate(g.coords) if x in (x0, x1) and y in (y0, y1)]
    far = (x1 - x0) + (y1 - y0)
    corner_push = []
    for colour in range(2):
        mine = [g.coords[c] for c in corners if g.colours[c] == colour]
        steps = [min((abs(x - cx) + abs(y - cy) for cx, cy in mine), default=far)
                 for x, y in g.coords]
        corner_push.append([max(steps) - s for s in steps])
    return {"mop_up": step, "edge_push": edge_push,
            "corner_push": corner_push, "near_max": max(x1 - x0, y1 - y0)}


def value_change(variant, params: dict) -> dict:
    """{piece code: (mg, eg)} by which ``params``' piece values exceed the shipped file's:
    the hand-written evaluation has them in its tables, a net (which learnt from the
    shipped values) adds them to its score (engine/evaluate.pyx). Empty for the shipped
    params; the adaptive level and the ``QUANTUM_PARAMS_`` testing aid change values."""
    shipped = _load_shipped(variant.name).get("value", {})
    out = {}
    for ch, (mg, eg) in params.get("value", {}).items():
        base_mg, base_eg = shipped.get(ch, (0, 0))
        if ch in variant.type_of and (mg, eg) != (base_mg, base_eg):
            for side in range(2):
                out[variant.type_of[ch] | (16 << side)] = (mg - base_mg, eg - base_eg)
    return out


def per_type_dict(variant, table: dict) -> list:
    out = [0] * len(variant.letters)
    for ch, val in table.items():
        if ch in variant.type_of:
            out[variant.type_of[ch]] = val
    return out


def stalemate_cp(score: float) -> int:
    """Centipawns equal in expected score to being stalemated (logistic, 400 cp scale).

    Gliński stalemate (1/4 for the stalemated side) maps to about -191 cp: better than
    losing, worse than a draw; the standard rule (1/2) maps to 0.
    """
    import math
    mine = 1.0 - score
    if mine <= 0.0 or mine >= 1.0 or mine == 0.5:
        return 0
    return round(400 * math.log10(mine / (1 - mine)))


def shipped_net(name: str) -> Path | None:
    """The net file the variant's params name (``[net] file``, in engine/nets/), or None:
    the hand-written evaluation alone."""
    entry = load_params(name).get("net", {}).get("file")
    return NET_DIR / entry if entry else None


MAX_NET_BYTES = 64 << 20                # a net of the largest allowed sizes is ~2 MB


def load_net(name: str, path: str):
    """The net in ``path`` for variant ``name`` (cached while the file is unchanged);
    engine.net.NetError when it is not a regular file of a sane size, unreadable, or made
    for another board."""
    from engine.net import NetError
    try:
        info = os.stat(path)
    except OSError as exc:
        raise NetError(f"{path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise NetError(f"{path}: not a regular file")
    if info.st_size > MAX_NET_BYTES:
        raise NetError(f"{path}: {info.st_size} bytes, more than a net can be ({MAX_NET_BYTES})")
    return _load_net(name, path, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=16)
def _load_net(name: str, path: str, _mtime: int, _size: int):
    from engine.net import Net, NetError
    from engine.variant import load_variant
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_NET_BYTES + 1)
    except OSError as exc:
        raise NetError(f"{path}: {exc.strerror or exc}") from None
    return Net(data, load_variant(name), path)


def eval_tables(name: str, net: str | None = ""):
    """Compiled evaluation tables for a variant name, with the net searches use: ``net``
    "" the variant's shipped net (if it has one), None none (the hand-written
    evaluation), else a net file's path. Cached per net as loaded, so a net file
    rewritten in place is read again (load_net)."""
    if net == "":
        shipped = shipped_net(name)
        net = str(shipped) if shipped is not None else None
    return _tables(name, load_net(name, net) if net is not None else None)


@lru_cache(maxsize=None)
def _tables(name: str, net):
    from engine.evaluate import EvalTables
    from engine.variant import load_variant
    tables = EvalTables(build(load_variant(name)))
    if net is not None:
        tables.attach(net)
    return tables
