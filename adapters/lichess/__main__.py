"""Command line of the Lichess bridge; ``--help`` lists the options."""
from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys

from adapters.lichess import policy


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m adapters.lichess",
        description="Play Quantum on Lichess, or on a server with the same Bot API.")
    p.add_argument("--token-file", help="file holding the bot's API token "
                   "(else the environment variable LICHESS_BOT_TOKEN)")
    p.add_argument("--url", default="https://lichess.org", help="server base URL")
    p.add_argument("--engine", default=shlex.join([sys.executable, "-m", "engine"]),
                   help="engine command line (default: this Python's Quantum)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="UCI option for every game, repeatable "
                        "(default: Move Overhead=100)")
    p.add_argument("--variants", default="standard",
                   help=f"server variant keys to accept (and to name to pychess.org), "
                        f"comma separated (known: {', '.join(policy.VARIANTS)})")
    p.add_argument("--modes", default="casual,rated", help="casual, rated or both")
    p.add_argument("--correspondence", action="store_true",
                   help="also accept games without a clock (played with --movetime)")
    p.add_argument("--movetime", type=int, default=5000, metavar="MS",
                   help="thinking time per move in games without a clock")
    p.add_argument("--max-games", type=int, help="exit after this many games")
    p.add_argument("--concurrency", type=int, default=1, help="games at once")
    p.add_argument("--resign-when-mated", action="store_true",
                   help="resign when the engine sees itself mated (default: play on)")
    p.add_argument("--log-level", default="INFO")
    return p.parse_args(argv)


def read_token(path: str | None) -> str:
    if path:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    return os.environ.get("LICHESS_BOT_TOKEN", "").strip()


def main(argv=None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    token = read_token(args.token_file)
    if not token:
        print("no token: give --token-file or set LICHESS_BOT_TOKEN", file=sys.stderr)
        return 2
    variants = tuple(v for v in args.variants.split(",") if v)
    unknown = [v for v in variants if v not in policy.VARIANTS]
    if unknown:
        print(f"unknown variants {unknown}; known: {list(policy.VARIANTS)}", file=sys.stderr)
        return 2
    options = {"Move Overhead": 100}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            print(f"--option wants NAME=VALUE, got {item!r}", file=sys.stderr)
            return 2
        options[name.strip()] = value.strip()
    # Imported here so that --help works without berserk installed.
    from adapters.lichess.bot import Bot, Config

    config = Config(
        url=args.url, token=token, engine=args.engine, options=options,
        challenges=policy.ChallengePolicy(
            variants=variants, modes=tuple(m for m in args.modes.split(",") if m),
            allow_correspondence=args.correspondence),
        max_games=args.max_games, concurrency=max(1, args.concurrency),
        movetime_ms=args.movetime, resign_when_mated=args.resign_when_mated)
    try:
        return Bot(config).run()
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
