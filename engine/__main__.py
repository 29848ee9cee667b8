"""Command line: ``quantum`` (or ``python -m engine``) speaks UCI on stdin/stdout.

``quantum --version`` prints the version. Subcommands are for tools and humans: ``quantum perft [--chess960] <variant> <depth> [fen]`` prints a
Stockfish-style divide; ``quantum bench [depth]`` searches a fixed position set and ends
with Stockfish's three summary lines (how OpenBench and fishtest call engines);
``quantum profile show|reset [--opponent NAME] [--file PATH]`` reads or resets the
adaptive level's profile of an opponent (engine/adaptive.py); ``quantum serve [--host H]
[--port N]`` is the web board (adapters/web, docs/web.md).
"""
from __future__ import annotations

import argparse
import sys

from engine import __version__, datafiles
from engine.engine import Engine
from engine.notation import perft_lines


def _run_uci(args: argparse.Namespace) -> int:
    # The one allowed edge from engine/ up to protocol/: this is the console-script entry
    # point, so the import happens here, at call time, and never at module level.
    from protocol import uci

    return uci.main([])


def _run_perft(args: argparse.Namespace) -> int:
    engine = Engine(args.variant)
    if args.chess960:
        engine.set_chess960(True)
    engine.set_position(" ".join(args.fen) or None, [])
    for line in perft_lines(engine.perft_divide(args.depth)):
        print(line)
    return 0


def _run_bench(args: argparse.Namespace) -> int:
    from engine import bench

    if args.depth < 1 or args.depth > 64:
        raise ValueError("bench depth must be 1..64")
    bench.run(args.depth)
    return 0


def _run_profile(args: argparse.Namespace) -> int:
    """``profile show``: the changed weights per variant and the games learned (exit 1
    when the file is not a valid profile); ``profile reset``: every weight to default."""
    from engine import adaptive
    from engine.variant import resolve_name, variant_names

    state = adaptive.Adaptive()
    state.set_opponent(args.opponent or "")
    try:
        state.set_path(args.file or "")
    except ValueError as exc:           # not a Quantum profile: refused, left as it is
        print(f"quantum profile: error: {exc}", file=sys.stderr)
        return 2 if args.action == "reset" else 1
    path = state.path
    if args.action == "reset":
        try:
            adaptive.reset_file(path, state.opponent)
        except (OSError, adaptive.ForeignFileError) as exc:
            print(f"quantum profile: error: {path}: cannot write "
                  f"({adaptive.why_not_written(exc)})", file=sys.stderr)
            return 2
        print(f"adaptive profile {path}: reset to defaults")
        return 0
    variants = [resolve_name(args.variant)] if args.variant else variant_names()
    print(f"adaptive profile {path} (opponent {state.opponent})")
    try:
        profile = adaptive.read_profile(path)
    except adaptive.ProfileError as exc:
        fate = "leaves it untouched and plays with the defaults" \
            if isinstance(exc, adaptive.ForeignFileError) else "replaces it by defaults"
        print(f"quantum profile: error: {path}: {exc}; the engine {fate} when it reads it",
              file=sys.stderr)
        return 1
    if profile is None:
        print("no file yet: every weight at its default")
        return 0
    for line in adaptive.show_lines(profile, variants):
        print(line)
    return 0


def _run_book(args: argparse.Namespace) -> int:
    """``book [FEN | moves]``: the book's moves in a position of standard chess (a FEN, or
    moves in UCI or SAN from the start): games, share and score, and the opening's name."""
    import chess

    from engine import book, openings

    words = args.position
    moves = []
    given_fen = bool(words) and "/" in words[0]
    if given_fen:
        fen = " ".join(words)
    else:
        board = chess.Board()
        for word in words:
            try:
                move = board.parse_uci(word) if len(word) in (4, 5) and word[1].isdigit() \
                    else board.parse_san(word)
            except ValueError:
                raise ValueError(f"{word!r} is not a legal move here (in UCI or SAN)") \
                    from None
            moves.append(move.uci())
            board.push(move)
        fen = board.fen()
    source = book.load(args.file) if args.file else book.quantum_book()
    found = source.lookup(fen)
    named = openings.name_of([], fen) if given_fen else openings.name_of(moves)
    print(f"position: {fen}")
    if named is not None:
        print(f"opening: {named.eco} {named.name}")
    if not found:
        print("not in the book")
        return 0
    total = sum(m.games for m in found)
    print(f"{'move':8}{'games' if source.scored else 'weight':>8}{'share':>8}"
          f"{'score' if source.scored else '':>8}   ({total} in all)")
    for m in found:
        score = f"{m.score * 100:7.1f}%" if m.score is not None else ""
        print(f"{m.uci:8}{m.games:8}{m.share * 100:7.1f}%{score}")
    if not source.scored:
        print("(a Polyglot book: weights only, no score is known)")
    return 0


def _run_serve(args: argparse.Namespace) -> int:
    """``serve``: the web board (docs/web.md). Like ``uci``, a front end started from the
    console script: the import happens here, at call time."""
    from adapters.web import server

    return server.serve(args.host, args.port, args.engine)


COMMANDS = {"uci": _run_uci, "perft": _run_perft, "bench": _run_bench, "profile": _run_profile,
            "serve": _run_serve, "book": _run_book}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quantum", description="Quantum, a multi-variant chess engine (standard chess, "
                                    "Grand Chess, Gliński hexagonal chess, Fog of War, "
                                    "Alea). Without a command it speaks UCI on stdin/stdout.")
    parser.add_argument("--version", action="version", version=f"quantum {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="command")
    sub.add_parser("uci", help="speak UCI on stdin/stdout (the default)")
    perft = sub.add_parser("perft", help="count leaf nodes per root move (divide)")
    perft.add_argument("--chess960", action="store_true",
                       help="the variant's Chess960 form, as with UCI_Chess960 (X-FEN or "
                            "Shredder-FEN castling; castling written king-takes-rook)")
    perft.add_argument("variant", help="chess, grand, hexagonal or an alias")
    perft.add_argument("depth", type=int, help="plies to count")
    perft.add_argument("fen", nargs="*", help="start from this FEN (its fields may be "
                                              "given as separate words)")
    bench = sub.add_parser("bench", help="search fixed positions; print nodes and speed")
    bench.add_argument("depth", type=int, nargs="?", default=None,
                       help="search depth (default: the bench depth)")
    book = sub.add_parser("book", help="the opening book's moves in a chess position, "
                                       "with their games, share and score")
    book.add_argument("position", nargs="*", help="a FEN, or moves from the start (UCI or "
                                                  "SAN); none: the start position")
    book.add_argument("--file", default="", help="a Polyglot book or a Quantum Book "
                                                 "(default: the Quantum Book)")
    serve = sub.add_parser("serve", help="play the five games in the browser: a web "
                                         "server on this machine (docs/web.md)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (0.0.0.0: the whole LAN; default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any)")
    serve.add_argument("--engine", default=None,
                       help="the UCI engine to play against (default: this Quantum)")
    profile = sub.add_parser("profile", help="show or reset the adaptive level's profile "
                                             "of an opponent")
    profile.add_argument("action", choices=("show", "reset"))
    profile.add_argument("--opponent", default="",
                         help="the opponent's name, as UCI_Opponent gives it (default: "
                              "'default')")
    profile.add_argument("--variant", default="", help="show this variant only")
    profile.add_argument("--file", default="",
                         help="the profile file (as the 'Adaptive Profile' option)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Dispatch on the first argument; no arguments means the UCI loop. Every command
    first checks that the installation holds its data files (engine/datafiles.py)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "uci"
    try:
        datafiles.check()
    except datafiles.DataFileError as exc:
        print(f"quantum: error: {exc}", file=sys.stderr)
        return 3
    if command == "bench" and args.depth is None:
        from engine.bench import DEFAULT_DEPTH
        args.depth = DEFAULT_DEPTH
    try:
        return COMMANDS[command](args)
    except ValueError as exc:
        print(f"quantum {command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
