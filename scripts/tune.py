#!/usr/bin/env python3
"""Texel tuning of the evaluation weights in engine/params/<variant>.toml.

1. ``scripts/tune.py data --variant chess --games 400`` plays fast self-play games (a
   node-limited search, random book exits) and writes quiet positions with the game's
   result to ``out/tune-<variant>.tsv`` (git-ignored); ``data --pgn FILE...`` takes the
   quiet positions of games scripts/match played instead (``pgn_data``).
2. Optionally ``scripts/tune.py label --variant chess --engine /usr/games/stockfish``
   scores every position with a reference engine (Stockfish for chess, Fairy-Stockfish
   with UCI_Variant for grand; for the hexagon, which no other engine plays, Quantum's own
   deeper search: ``--engine .venv/bin/quantum --depth 9``) at a fixed depth, with
   ``--workers`` engines side by side; ``fit --target engine`` then fits to
   those scores instead of the noisy game results.
3. ``scripts/tune.py fit --variant chess`` fits the scaling constant K, then improves the
   weights by coordinate descent on the mean squared error between the target (game
   result, or the reference score as a win probability) and sigmoid(K * eval), with an
   L2 pull towards the current weights and a held-out fifth of the positions that stops
   the descent when it stops improving. It writes ``out/params-<variant>.toml`` with the
   tuned values and the errors. Adopt it only after a match (scripts/match) shows it is
   stronger: on 32,000 positions of 4,000-node self-play, fitting game results alone
   lowered the error 0.1023 -> 0.0992 and lost about 200 Elo (overfitting to noise).
   ``--only king`` (or ``king.check``, several allowed) fits those weights alone and
   keeps the rest as they are.
4. ``scripts/tune.py probe --variant grand --target engine --set king.danger=24`` prints
   the data's error with some weights set and the rest as shipped: which way one weight
   wants to go, in seconds, before a fit moves them all.
"""
from __future__ import annotations

import usevenv  # noqa: F401  (first: re-runs this script with the .venv Python)
import argparse
import copy
import multiprocessing
import random
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "out"

from engine import eval_tables
from engine.board import Board
from engine.evaluate import EvalTables, evaluate_boards
from engine.variant import load_variant, resolve_name
from adapters.pgn import coordinate_games
from selfplay import RESULT, Labeller, play_games, quiet


def pgn_data(variant: str, pgns: list[str], seed: int, keep: float = 0.6) -> Path:
    """Quiet positions of played games instead of self-play: the games of scripts/match
    PGNs (coordinate moves from the start position) against a reference engine meet the
    positions that engine steers to. A position counts from the ninth ply on when its
    side to move is not in check and the move played next takes nothing and promotes
    nothing; each is kept with probability ``keep``."""
    rng = random.Random(seed)
    path = OUT / f"tune-{variant}.tsv"
    OUT.mkdir(exist_ok=True)
    kept = 0
    with open(path, "w") as fh:
        for name in pgns:
            games = list(coordinate_games(Path(name).read_text(encoding="utf-8")))
            if not any(moves for *_, moves in games):
                raise SystemExit(f"{name}: no moves read (is it a {variant} PGN of scripts/match?)")
            for _, result, moves in games:
                board = Board(variant)
                for ply, move in enumerate(moves):
                    if ply >= 8 and quiet(board, move) and rng.random() < keep:
                        fh.write(f"{board.fen()}\t{result}\n")
                        kept += 1
                    board.push(move)
    print(f"{kept} positions from {len(pgns)} PGN file(s)", flush=True)
    return path


def make_data(variant: str, games: int, nodes: int, seed: int) -> Path:
    """Self-play games (scripts/selfplay.py); half of each game's quiet positions are kept."""
    path = OUT / f"tune-{variant}.tsv"
    OUT.mkdir(exist_ok=True)
    kept = 0
    with open(path, "w") as fh:
        plays = play_games(variant, nodes, seed, keep=0.5)
        for g in range(games):
            positions, result, plies = next(plays)
            for fen, _score in positions:
                fh.write(f"{fen}\t{result}\n")
            kept += len(positions)
            print(f"game {g + 1}/{games}: {result} ({plies} plies), {kept} positions", flush=True)
    return path


# -- the weight vector ---------------------------------------------------------------------
def flatten(params: dict) -> list[tuple]:
    """Addresses of every tunable scalar: (table, key, index...)."""
    out = []
    for table, body in params.items():
        if table == "misc" or not isinstance(body, dict):
            continue
        for key, val in body.items():
            if table == "phase" or table == "mobility_base":
                continue                              # structure, not weights
            if table == "value" and key in ("p", "k"):
                continue                              # the pawn anchors the scale
            out += [(table, key) + idx for idx in _indices(val)]
    return out


def _indices(val, prefix=()):
    if isinstance(val, (int, float)):
        return [prefix]
    if isinstance(val, list):
        return [i for k, v in enumerate(val) for i in _indices(v, prefix + (k,))]
    if isinstance(val, dict):
        return [i for k, v in val.items() for i in _indices(v, prefix + (k,))]
    return []


def get(params, addr):
    node = params[addr[0]][addr[1]]
    for k in addr[2:]:
        node = node[k]
    return node


def put(params, addr, value):
    if len(addr) == 2:
        params[addr[0]][addr[1]] = value
        return
    node = params[addr[0]][addr[1]]
    for k in addr[2:-1]:
        node = node[k]
    node[addr[-1]] = value


def tables_for(variant, params) -> EvalTables:
    original = eval_tables.load_params
    eval_tables.load_params = lambda name: params
    try:
        return EvalTables(eval_tables.build(variant))
    finally:
        eval_tables.load_params = original


def error(boards, results, tables, k) -> float:
    evals = evaluate_boards(boards, tables)
    return sum((r - 1 / (1 + 10 ** (-k * e / 400))) ** 2 for e, r in zip(evals, results)) / len(results)


_REF = None


def _label_init(variant_name: str, engine_cmd: str, depth: int) -> None:
    global _REF
    _REF = Labeller(variant_name, engine_cmd, depth)


def _label_row(row: list[str]) -> tuple[str, str, int | None]:
    return row[0], row[1], _REF.score(row[0])


def label(variant_name: str, engine_cmd: str, depth: int, workers: int = 1) -> Path:
    """Score every data position with a reference engine (centipawns, White's view);
    ``workers`` engines search side by side, the rows keep their order."""
    rows = [line.rstrip("\n").split("\t") for line in open(OUT / f"tune-{variant_name}.tsv")]
    path = OUT / f"tune-{variant_name}-labels.tsv"
    with multiprocessing.Pool(workers, _label_init, (variant_name, engine_cmd, depth)) as pool, \
            open(path, "w") as fh:
        for i, (fen, result, cp) in enumerate(pool.imap(_label_row, rows, chunksize=20)):
            if cp is not None:
                fh.write(f"{fen}\t{result}\t{cp}\n")
            if i % 1000 == 0:
                print(f"{i}/{len(rows)}", flush=True)
    return path


def load_rows(variant_name: str, limit: int, target: str) -> tuple[list, list]:
    """(boards, targets) of the data file: the reference score as a win probability
    (``target`` engine) or the game result; shuffled with a fixed seed, ``limit`` rows."""
    name = f"tune-{variant_name}-labels.tsv" if target == "engine" else f"tune-{variant_name}.tsv"
    rows = [line.rstrip("\n").split("\t") for line in open(OUT / name)]
    random.Random(1).shuffle(rows)
    rows = rows[:limit]
    boards = [Board(variant_name, row[0]) for row in rows]
    if target == "engine":
        return boards, [1 / (1 + 10 ** (-int(row[2]) / 400)) for row in rows]
    return boards, [RESULT[row[1]] for row in rows]


def fit_k(boards, results, tables) -> tuple[float, float]:
    """The scaling constant K (0.20 to 2.00) with the least error, and that error."""
    return min(((error(boards, results, tables, k / 20), k / 20) for k in range(4, 41)),
               key=lambda ek: ek[0])[::-1]


def probe(variant_name: str, limit: int, target: str, settings: list[str]) -> float:
    """The error of the variant's weights with ``settings`` (``table.key=value``, the value
    in TOML: ``king.danger=24``, ``king.shield=[30, 4]``) on the data file, each with its
    own K: which way a single weight wants to go, before a fit moves them all."""
    variant = load_variant(variant_name)
    params = copy.deepcopy(eval_tables.load_params(variant_name))
    for setting in settings:
        addr, _, text = setting.partition("=")
        table, _, key = addr.partition(".")
        if not key or not text or table not in eval_tables.MERGED:
            raise SystemExit(f"--set {setting!r}: expected table.key=value, the table one "
                             f"of {', '.join(eval_tables.MERGED)}")
        try:
            params.setdefault(table, {})[key] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError as exc:
            raise SystemExit(f"--set {setting!r}: the value is not TOML ({exc})") from None
    boards, results = load_rows(variant_name, limit, target)
    k, e = fit_k(boards, results, tables_for(variant, params))
    print(f"{len(boards)} positions, {' '.join(settings) or 'the weights as they are'}: "
          f"error {e:.6f} (K = {k:.2f})")
    return e


def named(addr: tuple, name: str) -> bool:
    """Whether a weight's address lies under ``name`` (``king``, ``king.check``, whole
    names only)."""
    parts = name.split(".")
    return [str(x) for x in addr[:len(parts)]] == parts


def fit(variant_name: str, limit: int, rounds: int, target: str, l2: float,
        only: list[str] | None = None) -> Path:
    """Coordinate descent on the weights (all, or those under ``only``: ``king`` or
    ``king.check``), stopped when the held-out fifth stops improving."""
    variant = load_variant(variant_name)
    boards, results = load_rows(variant_name, limit, target)
    cut = len(boards) * 4 // 5
    train, valid = (boards[:cut], results[:cut]), (boards[cut:], results[cut:])
    params = copy.deepcopy(eval_tables.load_params(variant_name))
    start_params = copy.deepcopy(params)
    addrs = [a for a in flatten(params) if not only or any(named(a, o) for o in only)]
    if not addrs:
        raise SystemExit(f"--only {' '.join(only)}: no weight of the params is under it")
    scale = {a: max(10, abs(get(params, a))) for a in addrs}

    def penalty():
        return l2 * sum(((get(params, a) - get(start_params, a)) / scale[a]) ** 2 for a in addrs)

    tables = tables_for(variant, params)
    best_k, best_e = fit_k(*train, tables)
    start_v = error(*valid, tables, best_k)
    best_v = start_v
    print(f"{len(boards)} positions, K = {best_k:.2f}, error {best_e:.6f}, held out {start_v:.6f}")
    step = {a: max(2, abs(get(params, a)) // 10) for a in addrs}
    best_e += penalty()
    kept = copy.deepcopy(params)
    for rnd in range(rounds):
        improved = 0
        t0 = time.time()
        for a in addrs:
            base = get(params, a)
            for delta in (step[a], -step[a]):
                put(params, a, base + delta)
                e = error(*train, tables_for(variant, params), best_k) + penalty()
                if e < best_e:
                    best_e, base = e, base + delta
                    improved += 1
                    break
                put(params, a, base)
            put(params, a, base)
        v = error(*valid, tables_for(variant, params), best_k)
        print(f"round {rnd + 1}: error {best_e:.6f}, held out {v:.6f}, {improved} weights moved "
              f"({time.time() - t0:.0f} s)", flush=True)
        if not improved:                    # a finer step may still help; none left: done
            if all(s == 1 for s in step.values()):
                break
            for a in addrs:
                step[a] = max(1, step[a] // 2)
            continue
        if v >= best_v:
            print("held-out error stopped improving: keeping the previous round")
            params = kept
            break
        best_v, kept = v, copy.deepcopy(params)
    path = OUT / f"params-{variant_name}.toml"
    with open(path, "w") as fh:
        fh.write(f"# Tuned by scripts/tune.py ({target} target, l2 {l2}) on {len(boards)} positions: "
                 f"held-out error {start_v:.6f} -> {best_v:.6f} (K = {best_k:.2f})\n")
        fh.write('extends = ""\n')
        fh.write(eval_tables.dump_params(params))
    print(f"wrote {path}")
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data")
    d.add_argument("--variant", default="chess")
    d.add_argument("--games", type=int, default=200)
    d.add_argument("--nodes", type=int, default=3000)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--pgn", nargs="+", metavar="FILE",
                   help="positions of these scripts/match games instead of self-play")
    lb = sub.add_parser("label")
    lb.add_argument("--variant", default="chess")
    lb.add_argument("--engine", default="/usr/games/stockfish")
    lb.add_argument("--depth", type=int, default=8)
    lb.add_argument("--workers", type=int, default=1)
    f = sub.add_parser("fit")
    f.add_argument("--variant", default="chess")
    f.add_argument("--limit", type=int, default=40000)
    f.add_argument("--rounds", type=int, default=6)
    f.add_argument("--target", choices=("result", "engine"), default="result")
    f.add_argument("--l2", type=float, default=0.0005)
    f.add_argument("--only", nargs="+", metavar="TABLE[.KEY]",
                   help="fit only these weights (the others stay as they are)")
    pr = sub.add_parser("probe", help="the data's error with some weights set (probe)")
    pr.add_argument("--variant", default="chess")
    pr.add_argument("--limit", type=int, default=40000)
    pr.add_argument("--target", choices=("result", "engine"), default="result")
    pr.add_argument("--set", action="append", default=[], metavar="TABLE.KEY=VALUE")
    args = ap.parse_args()
    name = resolve_name(args.variant)
    if args.cmd == "data" and args.pgn:
        pgn_data(name, args.pgn, args.seed)
    elif args.cmd == "data":
        make_data(name, args.games, args.nodes, args.seed)
    elif args.cmd == "label":
        label(name, args.engine, args.depth, args.workers)
    elif args.cmd == "probe":
        probe(name, args.limit, args.target, args.set)
    else:
        fit(name, args.limit, args.rounds, args.target, args.l2, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
