"""Training positions from Quantum's own games, and reference scores for them.

Shared by scripts/tune.py (Texel tuning of the hand-written weights) and scripts/nnue
(the learnt evaluation): ``play_games`` plays node-limited self-play games from random
exits and yields the quiet positions of each game with its result; ``Labeller`` scores
positions with a reference UCI engine (Stockfish for chess, Fairy-Stockfish with
``UCI_Variant`` for Grand) at a fixed depth, in centipawns from White's view;
``reference_games`` lets that engine play the games itself, each position labelled by the
search that chose its move (one search a position instead of two: many more games);
``relabel`` scores the positions of existing data again with a (deeper) search.
"""
from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

from adapters.uci_engine import EngineError, UciEngine
from engine.board import Board
from engine.deepening import GoLimits
from engine.engine import Engine

RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "3/4-1/4": 0.75, "1/4-3/4": 0.25}
MATE_CP = 10000          # a reference engine's mate score, as centipawns


def play_games(variant: str, nodes: int, seed: int, keep: float = 0.5,
               max_plies: int = 300) -> Iterator[tuple[list[tuple[str, int]], str, int]]:
    """Self-play games for ever: per game (positions, result, plies), where positions are
    (FEN, Quantum's score from White's view) of the quiet positions after the opening
    (not in check, no capture chosen, |score| < 2000), each kept with probability ``keep``."""
    rng = random.Random(seed)
    engine = Engine(variant)
    while True:
        engine.new_game()
        board = Board(variant)
        for _ in range(rng.randint(2, 8)):          # random exits from the start
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
        positions = []
        while board.outcome() is None and len(board.move_stack) < max_plies:
            engine.set_position(board.fen(), [])
            best, infos = engine.search_sync(GoLimits(nodes=nodes))
            if best.move is None:
                break
            score = infos[-1].score if infos else 0
            if len(board.move_stack) >= 8 and abs(score) < 2000 and quiet(board, best.move) \
                    and rng.random() < keep:
                positions.append((board.fen(), score if board.turn == "w" else -score))
            board.push(best.move)
        outcome = board.outcome()
        yield positions, outcome.result if outcome else "1/2-1/2", len(board.move_stack)


def quiet(board: Board, move: str) -> bool:
    """Whether the position before ``move`` counts as quiet data: the side to move is not
    in check and the move takes nothing and promotes nothing."""
    return not board.is_check() and not _captures(board, move)


def _captures(board: Board, move: str) -> bool:
    """Whether ``move`` takes something or promotes (the position is then not quiet):
    cell names end in a digit, so a move that ends in a letter promotes."""
    if move[-1].isalpha():
        return True
    before = _count(board.fen())
    board.push(move)
    after = _count(board.fen())
    board.pop()
    return after < before


def _count(fen: str) -> int:
    return sum(ch.isalpha() for ch in fen.split()[0])


def reference_games(variant: str, labeller: "Labeller", seed: int, keep: float = 0.35,
                    random_move: float = 0.02, max_plies: int = 400, static: bool = False
                    ) -> Iterator[tuple[list[tuple[str, int]], str, int]]:
    """Games the reference engine plays against itself at the labeller's depth, for ever:
    per game (positions, result, plies) as ``play_games`` yields them, each score the one
    of the search that chose the move there; a game whose search fails (the engine stalls
    past its 60 s or dies) is dropped and the engine restarted. Variety: 4-9 uniformly
    random plies from the start, then a random move instead of the engine's with
    probability ``random_move`` (the positions after such a blunder are ones a search meets
    too). A game whose score stays at 1000 cp or more for one side over 6 plies, or that
    reaches ``max_plies``, is adjudicated (won, drawn). ``static``: each kept position's
    label is the engine's static evaluation instead (``Labeller.static``: a stronger
    evaluation to learn from than a short search's score, at a fraction of its cost)."""
    rng = random.Random(seed)
    while True:
        labeller.new_game()
        board = Board(variant)
        start = board.fen()
        for _ in range(rng.randint(4, 9)):
            moves = board.legal_moves()
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
        positions, lopsided, result = [], 0, None
        while result is None:
            outcome = board.outcome()
            if outcome is not None:
                result = outcome.result
                break
            if len(board.move_stack) >= max_plies:
                result = "1/2-1/2"
                break
            try:
                best, white_cp, mate = labeller.search(
                    f"position fen {start} moves {' '.join(board.move_stack)}", board.turn)
            except EngineError:
                labeller.restart()      # stalled or gone: a fresh engine, this game dropped
                positions = None
                break
            if best is None:
                break
            if len(board.move_stack) >= 8 and not mate and quiet(board, best) \
                    and rng.random() < keep:
                try:
                    label = labeller.static(board.fen()) if static else white_cp
                except EngineError:
                    labeller.restart()      # as for a failed search: this game dropped
                    positions = None
                    break
                if label is not None:
                    positions.append((board.fen(), label))
            if abs(white_cp) >= 1000:            # plies in a row one side is far ahead
                sign = 1 if white_cp > 0 else -1
                lopsided = lopsided + sign if lopsided * sign >= 0 else sign
            else:
                lopsided = 0
            if abs(lopsided) >= 6:
                result = "1-0" if lopsided > 0 else "0-1"
                break
            if rng.random() < random_move:
                best = rng.choice(board.legal_moves())
            board.push(best)
        if positions is not None:
            yield positions, result or "1/2-1/2", len(board.move_stack)


STATIC_LINE = re.compile(r"(?:Final|Total) evaluation:?\s+(none|[+-]?\d+(?:\.\d+)?)")


class Labeller:
    """A reference engine that scores positions at a fixed depth, or ``nodes`` per search
    when given (White's view)."""

    def __init__(self, variant: str, command: str, depth: int, nodes: int = 0):
        self.options = {"UCI_Variant": variant} if variant != "chess" else {}
        self.options.update({"Threads": 1, "Hash": 16})
        self.command = command
        self.engine = UciEngine(command, options=self.options)
        self.go_args = f"nodes {nodes}" if nodes else f"depth {depth}"
        self.count = 0

    def new_game(self) -> None:
        try:
            self.engine.new_game()
        except EngineError:
            self.restart()

    def restart(self) -> None:
        """A fresh engine in place of one that stalled or died (hours of data generation
        should not end on one stuck search)."""
        self.engine.kill()
        self.engine = UciEngine(self.command, options=self.options)

    def search(self, position: str, turn: str) -> tuple[str | None, int, bool]:
        """(best move, score from White's view, whether the score is a mate) of one search
        at the labeller's depth of a ``position`` line whose side to move is ``turn``."""
        best, _, _, info = self.engine.go(position, self.go_args, 60)
        words = info.split()
        if "score" not in words or best in ("", "(none)", "0000"):
            return None, 0, False
        kind, val = words[words.index("score") + 1], int(words[words.index("score") + 2])
        cp = val if kind == "cp" else (MATE_CP if val > 0 else -MATE_CP)
        return best, (-cp if turn == "b" else cp), kind == "mate"

    def score(self, fen: str) -> int | None:
        if self.count % 500 == 0:
            self.new_game()
        self.count += 1
        best, cp, _ = self.search(f"position fen {fen}", fen.split()[1])
        return None if best is None else cp

    def static(self, fen: str) -> int | None:
        """The engine's static evaluation of ``fen`` in centipawns, White's view, from its
        ``eval`` command (Stockfish's "Final evaluation", Fairy-Stockfish's "Total
        evaluation", in pawns); None where it gives none (in check)."""
        self.engine.send(f"position fen {fen}")
        self.engine.send("eval")
        for line in self.engine.until(lambda s: STATIC_LINE.match(s) is not None, 60, "eval"):
            found = STATIC_LINE.match(line)
        value = found.group(1)
        return None if value == "none" else round(float(value) * 100)

    def quit(self) -> None:
        self.engine.quit()


def relabel(sources: list[Path], out: Path, labeller: Labeller, worker: int = 0,
            workers: int = 1, every: int = 1) -> int:
    """Label data rows again with ``labeller``'s search (White's view), keeping each row's
    position, result and third column: every ``every``-th row of ``sources`` in order,
    and of those this worker's share (the k-th where k % ``workers`` == ``worker``),
    appended to ``out``. The rows already in ``out`` are skipped, so a stopped run started
    again with the same arguments resumes where it stopped. A search that gives no move
    or fails (the engine is restarted) drops its row. Returns the rows written."""
    done = sum(1 for _ in _lines([out])) if out.exists() else 0
    share = written = 0
    with open(out, "a") as fh:
        for k, line in enumerate(row for j, row in enumerate(_lines(sources)) if j % every == 0):
            if k % workers != worker:
                continue
            share += 1
            if share <= done:
                continue
            fen, result, own = line.rstrip("\n").split("\t")[:3]
            try:
                cp = labeller.score(fen)
            except EngineError:
                labeller.restart()
                continue
            if cp is None:
                continue
            fh.write(f"{fen}\t{result}\t{own}\t{cp}\n")
            written += 1
            if written % 500 == 0:
                fh.flush()
    return written


def _lines(paths: list[Path]) -> Iterator[str]:
    """The lines of each file in turn, each file closed when read."""
    for path in paths:
        with open(path) as fh:
            yield from fh
