"""The match runner: plays a series of games between two UCI engines through the arbiter
and keeps the score, the Elo estimate and, when asked, an SPRT that ends the match early.

Openings come from adapters/openings.py (the built-in book, or a file given as
``MatchConfig.openings``), each line played twice with colours reversed.
``concurrency`` worker threads each hold one process per engine and reuse it from game
to game (an engine that died is started afresh). An engine that cannot be started (its
command is missing, it exits at once, it never sends ``uciok``) loses that game, counted
as a crash, and is tried again for the next one; so no engine, however broken, stops the
match. Games are counted, reported through ``on_game`` and appended to the PGN file (games
already there are kept) in the order they finish; a crashed engine's last stderr lines
are in its game's record and PGN.

The match stops early when the SPRT reaches a verdict or when the caller is interrupted
(Ctrl-C in the thread that called ``run_match``). Games still running then are
abandoned: their engines are left after the move in progress (a second Ctrl-C kills
them), their results are not counted and not written, so the summary is exactly what
the verdict was reached on. Every engine process is quit before ``run_match`` returns.

Each game's referee is ``play_game``'s default for the variant: in Fog of War each engine
is told only its own views (adapters/fog_referee.py). A game reaches ``on_game`` and the
PGN only once finished, so nothing of a fog game is shown while it is played. In Alea
(adapters/alea_referee.py) both games of pair ``k`` (the same opening, colours reversed)
roll their dice from the seed ``seed + k`` (``seed`` None: a random base drawn when the
match starts), so the dice are paired like the openings; each game's seed is in its PGN.
``omniscient`` (engine 1, engine 2) makes an engine see the whole board in Fog of War (it
is sent the true ``position fen ... moves ...`` and both clocks, whichever colour it
plays; the other engine still gets only its views), to measure what the fog costs against
a reference engine; the PGN's ``WhiteSees``/``BlackSees`` tags record it.
``chess960`` plays Chess960 (adapters/chess960.py) instead of the book: each pair of games
(engine 1 White, then Black) starts from one start position drawn at random from ``seed``
(None: a fresh one), written in the PGN's ``FEN`` tag.

Nothing here prints; scripts/match is the command-line face.
"""
from __future__ import annotations

import shlex
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from adapters.alea_referee import fresh_seed, game_seed
from adapters.arbiter import GameRecord, TimeControl, Unstarted, referee_for, start_player
from adapters.chess960 import Chess960Referee, draw_numbers
from adapters.openings import openings_for, read_openings
from adapters.pgn import open_to_append, write_pgn
from adapters.session import play_game
from adapters.stats import SprtConfig, SprtStatus, elo_stats, sprt
from adapters.uci_engine import STARTUP_TIMEOUT, UciEngine

ROOT = Path(__file__).resolve().parent.parent
QUANTUM = f"{shlex.quote(sys.executable)} -m engine"
JOIN_POLL = 0.2             # seconds between checks of the workers (keeps Ctrl-C responsive)

COMPLETED, SPRT_STOP, INTERRUPTED = "completed", "sprt", "interrupted"


@dataclass
class MatchConfig:
    engine1: str = QUANTUM
    engine2: str = QUANTUM
    options1: dict = field(default_factory=dict)
    options2: dict = field(default_factory=dict)
    variant: str = "chess"
    games: int = 20                  # the most games played (fewer when the SPRT decides)
    tc: str = "10+0.1"               # base+increment in seconds, see TimeControl.parse
    concurrency: int = 1
    pgn: str | None = None           # games are appended here as they finish (kept: the
                                     # games already in the file)
    sprt: SprtConfig | None = None
    cwd: str = str(ROOT)             # where the engines are started
    seed: int | None = None          # Alea: games 2k and 2k+1 roll from seed + k;
                                     # Chess960: the positions are drawn from it
    chess960: bool = False           # Chess960 from a random position per game pair
    openings: str | None = None      # a file of opening lines (adapters/openings.py)
    omniscient: tuple = (False, False)  # Fog of War: engine 1, engine 2 see the whole board
    startup_timeout: float = STARTUP_TIMEOUT  # seconds an engine has to answer uci


@dataclass
class MatchResult:
    """The running and final tally, from engine 1's side. Side-indexed pairs are
    [engine 1, engine 2]."""
    config: MatchConfig
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: list = field(default_factory=lambda: [0, 0])
    illegal: list = field(default_factory=lambda: [0, 0])
    crashes: list = field(default_factory=lambda: [0, 0])
    history: list = field(default_factory=list)     # (Elo, 95 % half-interval) per game
    stopped: str = COMPLETED                        # or SPRT_STOP, INTERRUPTED

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def elo(self) -> tuple[float, float, float]:
        """(Elo, 95 % half-interval, LOS)."""
        return elo_stats(self.wins, self.draws, self.losses)

    def sprt_status(self) -> SprtStatus | None:
        if self.config.sprt is None:
            return None
        return sprt(self.wins, self.draws, self.losses, self.config.sprt)


class _Abandoned(Exception):
    """Raised between two moves of a game that the stopping match gives up."""


def schedule(variant: str, games: int, book: list[tuple] | None = None
             ) -> list[tuple[int, tuple, bool]]:
    """(game index, opening, engine 1 plays Black) for each game: every line of ``book``
    (default: the variant's built-in one) twice, engine 1 White first."""
    book = book or openings_for(variant)
    return [(i, book[(i // 2) % len(book)], i % 2 == 1) for i in range(games)]


def replay_warning(variant: str, games: int) -> str | None:
    """What to tell the user when ``games`` from the built-in book replay each of its lines
    more than twice a colour: engines that decide alike then play the same game again and
    again (in session 36, 200 Fog of War games from its six lines began in only 36 ways by
    ply 12, one whole game played eleven times), and the Elo interval and the SPRT, which
    assume independent games, claim more than the games show. None when it does not, and
    for Alea, whose game pairs roll different dice."""
    lines = len(openings_for(variant))
    if games <= 4 * lines or variant == "alea":
        return None
    return (f"{games} games replay each of the {lines} built-in {variant} opening lines about "
            f"{games // lines} times; engines that decide alike repeat whole games, and the "
            f"interval and the SPRT assume independent games: give --openings FILE "
            f"(scripts/make-match-openings --variant {variant} writes many)")


def run_match(config: MatchConfig,
              on_game: Callable[[MatchResult, int, GameRecord], None] | None = None
              ) -> MatchResult:
    """Play the match and return its tally.

    ``on_game(result, index, record)`` is called once per counted game, after the game
    is in the tally and in the PGN file, from a worker thread but never two at once;
    ``index`` is the game's 0-based place in the schedule. An exception it raises stops
    the match and is re-raised here once every engine is quit.

    .. warning:: Ctrl-C is honoured only when this runs in the main thread; the result
       then has ``stopped == INTERRUPTED``.
    """
    tc = TimeControl.parse(config.tc)
    if any(config.omniscient):      # outside Fog of War: ValueError before any game
        referee_for(config.variant, omniscient=config.omniscient)
    if config.chess960 and config.variant != "chess":
        raise ValueError(f"Chess960 is a form of chess, not of {config.variant!r}")
    if config.chess960 and config.openings:
        raise ValueError("Chess960 starts from its own positions: no openings file with it")
    book = read_openings(config.openings, config.variant) if config.openings else None
    jobs = schedule(config.variant, config.games, book)
    positions = draw_numbers((config.games + 1) // 2, config.seed) if config.chess960 \
        else None
    dice_base = config.seed if config.seed is not None or config.variant != "alea" \
        else fresh_seed()
    result = MatchResult(config)
    lock = threading.Lock()
    stop = threading.Event()
    live: set[UciEngine | Unstarted] = set()    # every started engine, for a hard stop
    errors: list[BaseException] = []
    pgn = open_to_append(config.pgn) if config.pgn else None

    def count(idx: int, rec: GameRecord, swapped: bool) -> None:
        """Tally one finished game (the lock is held)."""
        s1 = rec.white_score if not swapped else 1 - rec.white_score
        if s1 == 1:
            result.wins += 1
        elif s1 == 0:
            result.losses += 1
        else:
            result.draws += 1
        for tally, side in ((result.forfeits, rec.time_forfeit), (result.illegal, rec.illegal),
                            (result.crashes, rec.crashed)):
            if side is not None:
                tally[(side == 0) == swapped] += 1
        result.history.append(result.elo()[:2])
        if pgn is not None:
            pgn.write(write_pgn(rec, config.tc, round_no=idx + 1) + "\n")
            pgn.flush()
        status = result.sprt_status()
        if status is not None and status.decided:
            result.stopped = SPRT_STOP
            stop.set()
        if on_game is not None:
            on_game(result, idx, rec)

    def abandon_if_stopping(rec, board) -> None:
        if stop.is_set():
            raise _Abandoned

    def start(k: int) -> UciEngine | Unstarted:
        """Engine ``k`` (0 or 1), named ``engine1``/``engine2`` as in the summary; an
        ``Unstarted`` when it cannot be started, which loses its game in play_game."""
        cmd, opts = ((config.engine1, config.options1), (config.engine2, config.options2))[k]
        eng = start_player(cmd, f"engine{k + 1}", options=opts, cwd=config.cwd,
                           startup_timeout=config.startup_timeout)
        with lock:
            live.add(eng)
        return eng

    def worker() -> None:
        engines: list[UciEngine | Unstarted | None] = [None, None]
        try:
            while True:
                with lock:
                    if stop.is_set() or not jobs:
                        return
                    idx, opening, swapped = jobs.pop(0)
                for k in (0, 1):
                    if engines[k] is None or not engines[k].alive:
                        with lock:
                            live.discard(engines[k])
                        engines[k] = start(k)
                white, black = (engines[1], engines[0]) if swapped else (engines[0], engines[1])
                try:
                    omniscient = config.omniscient[::-1] if swapped else config.omniscient
                    if positions is not None:
                        referee, opening = Chess960Referee(positions[idx // 2]), ()
                    else:
                        referee = referee_for(config.variant, seed=game_seed(dice_base, idx),
                                              omniscient=omniscient)
                    rec = play_game(white=white, black=black, variant=config.variant, tc=tc,
                                    opening=opening, on_move=abandon_if_stopping,
                                    referee=referee)
                except _Abandoned:
                    return
                with lock:
                    # A game that ends after the stop (or was cut short by a hard stop)
                    # is abandoned too: the tally stays the one the verdict was reached on.
                    if stop.is_set():
                        return
                    count(idx, rec, swapped)
        except BaseException as exc:           # a failing on_game, a broken PGN file
            with lock:
                errors.append(exc)
            stop.set()
        finally:
            for eng in engines:
                if eng is not None:
                    eng.quit()

    threads = [threading.Thread(target=worker, name=f"match-worker-{i}")
               for i in range(max(1, min(config.concurrency, config.games)))]
    try:
        for t in threads:
            t.start()
        interrupts = 0
        while any(t.is_alive() for t in threads):
            try:
                for t in threads:
                    t.join(JOIN_POLL)
            except KeyboardInterrupt:
                interrupts += 1
                with lock:
                    if result.stopped == COMPLETED:
                        result.stopped = INTERRUPTED
                stop.set()
                if interrupts > 1:          # don't wait for the moves in progress
                    for eng in list(live):
                        eng.kill()
    finally:
        if pgn is not None:
            pgn.close()
    if errors:
        raise errors[0]
    return result


def save_elo_plot(result: MatchResult, path: str) -> None:
    """Write a PNG of the Elo estimate after each game with its 95 % band.

    .. warning:: Needs matplotlib (the ``plot`` extra); ImportError without it.
    """
    import matplotlib
    matplotlib.use("Agg")               # no display needed, and never opens a window
    import matplotlib.pyplot as plt

    cfg = result.config
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    games = range(1, len(result.history) + 1)
    elo = [e for e, _ in result.history]
    ax.fill_between(games, [e - m for e, m in result.history],
                    [e + m for e, m in result.history], alpha=0.25, label="95 % interval")
    ax.plot(games, elo, label="Elo estimate")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("games")
    ax.set_ylabel("Elo (engine 1 - engine 2)")
    ax.set_title(f"{cfg.variant}, {cfg.tc}: {result.games} games", fontsize=10)
    if result.history:
        ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
