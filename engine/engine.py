"""Engine: the facade every front end (UCI, CLI, adapters) talks to.

It owns the chosen variant, the current position, the transposition table and the
search worker, and knows nothing about any protocol: it never prints. Bad input is a
``ValueError`` that leaves the old state untouched, so a front end can report it and
carry on. ``go`` is non-blocking: the search runs in a worker thread without the GIL and
reports through the ``on_info``/``on_bestmove`` callbacks, so the protocol thread can
answer ``isready``, ``stop`` and ``ponderhit`` at once. ``perft`` and ``bench`` run in the
same worker, one job at a time, and ``stop`` ends them too.

With ``UCI_Chess960`` (``set_chess960``) the variant is played in its Chess960 form
(``engine.variant.load_variant(name, chess960=True)``): castling rights read from X-FEN
or Shredder-FEN, castling written king-takes-rook. Fog of War has no such form, and Alea
is played on the standard board: both refuse it.

Alea (``UCI_Variant alea``, docs/protocol.md "Alea games") is a *hosted game*: its board
is chess's, its rules (dice, cooldown, jokers) are ``engine/alea.py`` on top, and an
arbiter rolls the dice. In it the position is an ``engine.alea.AleaState``
(``set_alea_position``) and ``go`` runs ``engine.aleasearch.think_alea`` (classic mode,
A19, is chess: the chess search plays it).

At ``Level adaptive`` the search uses evaluation tables scaled by the opponent's profile
(``engine/adaptive.py``), and a finished game is learnt from: explicitly (``learn``) or
when ``new_game`` follows a position whose game is over. What the adaptive level has to
report (a bad profile file, the changes after a lost game) goes to the ``on_note``
listener, as ``on_note(text, error)``.
"""
from __future__ import annotations

import dataclasses
import random
import threading

from engine import adaptive, alea, aleasearch, bench, book, levels
from engine.aleacore import AleaCore
from engine.belief import Belief, FogHistory, check_history
from engine.board import Board, PerftStop
from engine.deepening import BestMove, GoLimits, SearchInfo, think
from engine.eval_tables import eval_tables, load_net
from engine.net import NetError
from engine.fog import view_board, view_moves
from engine.fogsearch import think_fog
from engine.notation import alea_token, check_fen_length, parse_alea_token, quote
from engine.search import Searcher
from engine.smp import Helpers, start_with_stack
from engine.tt import TranspositionTable
from engine.variant import load_variant, resolve_name, variant_names

DEFAULT_VARIANT = "chess"
# Perft beyond this would run for days on any variant; the limit turns a typo into an error.
MAX_PERFT_DEPTH = 20
DEFAULT_HASH_MB = 16
MAX_HASH_MB = 4096
DEFAULT_MOVE_OVERHEAD_MS = 30
# Games played on a variant's board with rules of their own on top (not variant files:
# their rules are code, and the arbiter hosts them): name -> board variant.
HOSTED_GAMES = {"alea": "chess"}
ALEA_POSITION_HINT = ("in Alea the position is 'position alea startpos|fen <alea-fen> "
                      "[moves <token>...] [dice <pair>|-]'")


def game_names() -> list[str]:
    """What ``UCI_Variant`` offers: the variants, then the hosted games."""
    return variant_names() + list(HOSTED_GAMES)


def resolve_game(name: str) -> str:
    """A hosted game's name, or the canonical variant for a name or alias (ValueError)."""
    key = name.strip().lower()
    if key in HOSTED_GAMES:
        return key
    try:
        return resolve_name(name)
    except ValueError:
        raise ValueError(f"unknown variant {quote(name)} (known: {', '.join(game_names())})") \
            from None


class _ClockBox(list):
    """Where ``think`` puts the Clock of its search; ``armed`` is set once it is there
    (from the start for a job without a clock: perft, bench)."""

    def __init__(self, armed: bool = False):
        super().__init__()
        self.armed = threading.Event()
        if armed:
            self.armed.set()

    def append(self, clock) -> None:
        super().append(clock)
        self.armed.set()


class Engine:
    """A variant, the current position, and (later) the search that runs on it.

    >>> e = Engine()
    >>> e.set_position(None, ["e2e4"])
    >>> e.board.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
    """

    def __init__(self, variant: str = DEFAULT_VARIANT):
        canonical = resolve_game(variant)
        self._variant = HOSTED_GAMES.get(canonical, canonical)
        self._chess960 = False      # UCI_Chess960: play the variant's Chess960 form
        self._board = Board(self._variant)
        self._tt = TranspositionTable(DEFAULT_HASH_MB)
        self._searcher = Searcher()
        self._game_searcher: Searcher | None = None     # history and killers of this game
        self._game_helpers: list = []       # the Lazy SMP helpers' Searchers, kept as it is
        self.threads = 1            # Threads: search threads (engine/smp.py)
        self._thread: threading.Thread | None = None
        self._job = "search"        # what the worker thread runs: search, perft or bench
        self._clock_box: list = _ClockBox()
        self._rng = random.Random()
        self.multipv = 1
        self.own_book = False       # OwnBook: play the book's moves in the opening
        self._book_file = ""        # BookFile: empty is the Quantum Book
        self.use_nnue = True        # Use NNUE: search with the learnt evaluation
        self._eval_file = ""        # EvalFile: empty is each variant's shipped net
        self._misfits: set = set()  # variants whose board EvalFile's net does not fit
        self.move_overhead_ms = DEFAULT_MOVE_OVERHEAD_MS
        self.level = "hard"
        self.limit_strength = False
        self.elo = 1500
        self.on_note = None         # listener for the adaptive level's reports
        self.adaptive = adaptive.Adaptive(self._note)
        self._game: tuple | None = None     # (fen, moves) of the last set_position
        self._go_side: str | None = None    # the side the last `go` of this game moved for
        self._fog: FogHistory | None = None     # set: the position is a Fog of War history
        self._belief: Belief | None = None      # kept between fog positions of one game
        self._alea: alea.AleaState | None = None    # set exactly while playing Alea
        if canonical == "alea":
            self._alea = alea.AleaState.start()
            self._board = self._alea.board
        self._alea_core: AleaCore | None = None     # the Alea search (its table persists)
        self._alea_aux: AleaCore | None = None      # draw offers and guide reviews

    # -- settings (option callbacks call these) -----------------------------------------
    def set_hash(self, mb: int) -> None:
        """Resize the transposition table (its contents are lost, and with them the
        game's history: a search afterwards is a fresh engine's)."""
        if not 1 <= mb <= MAX_HASH_MB:
            raise ValueError(f"hash must be 1..{MAX_HASH_MB} MB, not {mb}")
        self.stop()             # a running search reads the table: end it first (waiting
        self.wait()             # alone would never return during `go infinite`)
        try:
            self._tt.resize(mb)
        except MemoryError as exc:          # the old table stays: say so, play on
            raise ValueError(str(exc)) from None
        self._game_searcher = None

    def clear_hash(self) -> None:
        """``Clear Hash``: forget what searches learnt, the table and the game's history
        (as Stockfish's clears its histories too)."""
        self.stop()
        self.wait()
        self._tt.clear()
        self._game_searcher = None

    @property
    def chess960(self) -> bool:
        """Whether the variant is played in its Chess960 form (``UCI_Chess960``)."""
        return self._chess960

    def set_chess960(self, on: bool) -> None:
        """``UCI_Chess960``: play the variant's Chess960 form (or the standard one) from
        its start position, as a change of variant does. ValueError in Alea (played on
        the standard board) and in a variant without that form (Fog of War); nothing
        changes then."""
        if on and self._alea is not None:
            raise ValueError("UCI_Chess960: Alea is played from the standard position only")
        board = Board(self._variant, chess960=on)
        self.stop()
        self.wait()
        self._chess960, self._board = on, board
        self._game = self._go_side = self._game_searcher = None
        self._fog = self._belief = None

    def set_level(self, name: str) -> None:
        if name not in levels.LEVELS:
            raise ValueError(f"unknown level {quote(name)} ({', '.join(levels.LEVELS)})")
        self.level = name
        if self.adaptive_on:
            self.adaptive.profile()             # read now, so a bad file is reported now

    # -- the opening book -----------------------------------------------------------------
    def set_book_file(self, path: str) -> None:
        """``BookFile``: a Polyglot book or a Quantum Book (empty: the Quantum Book);
        ValueError, and the old file stays, when it cannot be read as one."""
        path = path.strip()
        book.load(path or str(book.BOOK_PATH))        # read now: a bad file is said now
        self._book_file = path

    # -- the evaluation ---------------------------------------------------------------------
    def set_eval_file(self, path: str) -> None:
        """``EvalFile``: a net file for the current variant's board (empty: the shipped
        net); ValueError (engine.net.NetError), and the old file stays, when it cannot be
        read or was made for another board. It serves every variant on that board."""
        path = path.strip()
        if path:
            load_net(self._variant, path)             # read now: a bad file is said now
        self._eval_file = path
        self._misfits = set()

    def evaluation(self, strength: levels.Strength | None = None):
        """The EvalTables searches of the current variant use: with ``EvalFile``'s net
        where it fits this board, else the shipped net; none without ``Use NNUE``, nor
        for a ``hand_written`` strength (the levels below hard and UCI_Elo up to 1979
        play the hand-written evaluation their calibration measured)."""
        if not self.use_nnue or (strength is not None and strength.hand_written):
            return eval_tables(self._variant, None)
        if self._eval_file and self._variant not in self._misfits:
            try:
                return eval_tables(self._variant, self._eval_file)
            except NetError:                          # another board: its own net, and
                self._misfits.add(self._variant)      # no new try until EvalFile is set
        return eval_tables(self._variant)

    def opening_book(self) -> book.Book:
        """The book ``BookFile`` names (the Quantum Book by default)."""
        return book.load(self._book_file or str(book.BOOK_PATH))

    def book_choice(self, limits: GoLimits) -> book.BookMove | None:
        """With ``OwnBook``, the move to play from the book in the current position: in
        standard chess (Alea: in its free opening, and with dice where the move is
        playable) within the first ``book.MAX_PLIES`` plies, drawn in proportion to the
        book's games. None for an analysis (``infinite``, ``ponder``, ``searchmoves``,
        ``depth``, ``nodes``, ``mate``) or where the book has nothing."""
        if not self.own_book or limits.infinite or limits.ponder or limits.searchmoves \
                or limits.depth or limits.nodes or limits.mate:
            return None
        board = self._board
        if self._variant != "chess" or self._fog is not None or \
                2 * (board.fullmove - 1) + (board.turn == "b") >= book.MAX_PLIES:
            return None
        moves = self.opening_book().lookup(board.fen(), self._chess960)
        if self._alea is not None and not self._alea.classic:
            playable = set(self.legal_moves())
            moves = [m for m in moves if m.uci in playable]
        return book.choose(moves, self._rng) if moves else None

    # -- the adaptive level ---------------------------------------------------------------
    @property
    def adaptive_on(self) -> bool:
        """True when the adaptive level plays (and learns): Level adaptive, no UCI_Elo."""
        return self.level == "adaptive" and not self.limit_strength

    def _note(self, text: str, error: bool) -> None:
        if self.on_note is not None:
            self.on_note(text, error)

    def set_opponent(self, uci_opponent: str) -> None:
        """``UCI_Opponent``: the profile is the opponent's (``default`` without a name)."""
        self.adaptive.set_opponent(uci_opponent)
        if self.adaptive_on:
            self.adaptive.profile()

    def set_profile_path(self, path: str) -> None:
        """``Adaptive Profile``: the profile file; empty means the opponent's default."""
        self.adaptive.set_path(path)
        if self.adaptive_on:
            self.adaptive.profile()

    def reset_profile(self) -> None:
        """Every adaptive weight back to its default, on disk too."""
        self.adaptive.reset()

    def learn(self, white_score: float, moves, fen: str | None = None,
              variant: str | None = None, side: str | None = None) -> bool:
        """Learn from a finished game (at Level adaptive only; False otherwise).

        ``moves`` from ``fen`` (None: the start position) of ``variant`` (default: the
        current one); ``side`` (``w``/``b``) is the engine's, default the side of its
        last ``go``. ValueError for an unknown variant, a bad FEN, an illegal move, or a
        result that contradicts a finished final position; nothing changes then.
        """
        name = resolve_name(variant) if variant else self._variant
        game = adaptive.game_positions(name, fen, moves, self._chess960)
        outcome = game.final.outcome()
        if outcome is not None and outcome.white_score != white_score:
            raise ValueError(f"the result contradicts the final position "
                             f"({outcome.result}, {outcome.termination})")
        if not self.adaptive_on:
            return False
        self.adaptive.learn_game(game, white_score, side or self._go_side)
        self._game = self._go_side = None       # learnt once, not again at ucinewgame
        return True

    def finish_game(self) -> bool:
        """At Level adaptive, learn from the game of the last ``position`` if it is over
        and this engine searched in it (its side: the one it last moved for). Called by
        ``new_game``, and by the protocol on ``quit``. True when it learnt."""
        game, side = self._game, self._go_side
        self._game = self._go_side = None
        if not self.adaptive_on or game is None or side is None:
            return False
        outcome = self._board.outcome()
        if outcome is None:
            return False
        self.adaptive.learn(self._variant, game[0], game[1], outcome.white_score, side,
                            self._chess960)
        return True

    def strength(self, limits: GoLimits) -> levels.Strength:
        """The strength this search plays at: UCI_Elo when limited, else the Level.

        The Level's per-move time cap applies only to a bare ``go`` (no clock, depth,
        nodes, movetime or infinite), so analysis and fixed-depth runs are not cut short.
        """
        s = levels.for_elo(self.elo) if self.limit_strength else levels.LEVELS[self.level]
        bare = not (limits.wtime or limits.btime or limits.movetime or limits.depth
                    or limits.nodes or limits.infinite or limits.mate)
        if not bare:
            s = dataclasses.replace(s, max_think=None)
        return s

    # -- searching --------------------------------------------------------------------------
    @property
    def searching(self) -> bool:
        """True while the worker thread runs a search, a perft or a bench."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def job(self) -> str | None:
        """What the worker thread runs now: ``search``, ``perft``, ``bench``, or None."""
        return self._job if self.searching else None

    def go(self, limits: GoLimits, on_info, on_bestmove) -> None:
        """Start searching the current position; return at once.

        ``on_info(SearchInfo)`` is called per iteration (and on aspiration failures),
        ``on_bestmove(BestMove)`` once at the end, both from the worker thread. A search
        already running is stopped first (a GUI that forgets ``stop`` still gets answers).
        """
        self.stop()
        self.wait()
        chosen = self.book_choice(limits)
        if chosen is not None:
            def answer():
                on_info(SearchInfo(depth=0, string=f"book {chosen.uci} games {chosen.games} "
                                                    f"share {chosen.share:.3f}"))
                on_bestmove(BestMove(chosen.uci))
            self._launch("search", answer, Searcher(), _ClockBox(armed=True))
            return
        board = self._board.copy()
        strength = self.strength(limits)
        ev = self.evaluation(strength)
        if self.adaptive_on:
            ev = self.adaptive.tables(self._variant, board.turn, ev)
        self._go_side = board.turn
        if self._game_searcher is None:         # kept across the moves of a game: its
            self._game_searcher = Searcher()    # history ages by halving at each go
            self._game_helpers = []
        del self._game_helpers[max(self.threads - 1, 0):]
        while len(self._game_helpers) < self.threads - 1:
            self._game_helpers.append(Searcher())
        helpers = Helpers(self._game_helpers) if self._game_helpers else None
        searcher, box = self._game_searcher, _ClockBox()
        tt, multipv, overhead, rng = self._tt, self.multipv, self.move_overhead_ms, self._rng
        fog = self._fog
        if fog is not None and self._belief is None:
            self._belief = Belief(self._variant)
        belief = self._belief
        state = self._alea
        if state is not None and not state.classic:
            if self._alea_core is None:
                self._alea_core = AleaCore()
                aleasearch.configure(self._alea_core)
            searcher = self._alea_core
        elif state is not None:                     # classic mode (A19): chess, but a
            limits = _classic_limits(board, limits)  # promotion is answered without piece
            on_bestmove = _classic_answer(on_bestmove)

        def run():
            try:
                if state is not None and not state.classic:
                    best = aleasearch.think_alea(searcher, state, ev, limits, overhead, strength,
                                                 on_info, box, rng,
                                                 guide=getattr(limits, "guide", False))
                elif fog is not None:
                    best = think_fog(searcher, belief, fog, ev, tt, limits, overhead, strength,
                                     on_info, box, rng)
                else:
                    best = think(searcher, board, ev, tt, limits, multipv, overhead, strength,
                                 on_info, box, rng, helpers)
            except Exception as exc:  # never leave a GUI waiting without a bestmove
                on_info(SearchInfo(depth=0, string=f"error internal: search: {exc!r}"))
                # In fog the board is the view's, whose fog is drawn empty: only the
                # view's own moves are sure to be legal.
                moves = view_moves(fog.last, board.variant) if fog is not None \
                    else [alea_token(a) for a in alea.legal_actions(state)] \
                    if state is not None and not state.classic else board.legal_moves()
                best = BestMove(moves[0] if moves else None)
            on_bestmove(best)

        self._launch("search", run, searcher, box)

    def perft(self, depth: int, on_done, on_error=None) -> None:
        """Count ``perft_divide(depth)`` in the worker thread, as ``go`` searches; return at
        once. ``on_done(divide, roots)`` is called from the worker, ``roots`` being the
        number of root moves: ``divide`` is shorter when ``stop`` ended the count (it then
        holds the root moves counted in full). ValueError where ``check_perft`` refuses,
        before anything is stopped; ``on_error(exception)`` for a failure in the count."""
        self.check_perft(depth)
        self.stop()
        self.wait()
        board, halt = self._board.copy(), PerftStop()

        def count():
            on_done(board.perft_divide(depth, halt), len(board.legal_moves()))

        self._launch("perft", _guarded(count, on_error), halt, _ClockBox(armed=True))

    def bench(self, depth: int, report, on_error=None) -> None:
        """Run ``engine.bench.run(depth, report)`` in the worker thread, as ``go`` searches;
        return at once. ``stop`` ends it (its report then says so and gives no total)."""
        self.stop()
        self.wait()
        halt = bench.Halt()
        self._launch("bench", _guarded(lambda: bench.run(depth, report, halt), on_error),
                     halt, _ClockBox(armed=True))

    def _launch(self, kind: str, job, stopper, box: _ClockBox) -> None:
        """Run ``job`` (a ``kind``: search, perft, bench) in the worker thread; ``stop``
        reaches it through ``stopper.stop()`` and the clocks in ``box``. Returns once
        ``box`` is armed (or the job ended): before
        a search's Clock is in the box, ``think`` has yet to call ``searcher.new_search()``,
        which clears the stop flag, and a ponderhit would find no clock: either would be
        lost, leaving ``go infinite``/``go ponder`` running for ever."""
        thread = threading.Thread(target=job, name="quantum-search", daemon=True)
        self._thread, self._searcher, self._clock_box, self._job = thread, stopper, box, kind
        start_with_stack(thread)
        while not box.armed.wait(0.01) and thread.is_alive():
            pass

    def stop(self) -> None:
        """Ask a running search (or perft, or bench) to finish now; its bestmove (its
        report) still arrives."""
        if self.searching:
            self._searcher.stop()
            for clock in self._clock_box:
                clock.released.set()

    def ponderhit(self) -> None:
        """The opponent played the pondered move: the search goes on, on the real clock."""
        for clock in self._clock_box:
            clock.ponderhit()

    def wait(self, timeout: float | None = None) -> None:
        """Block until the running search (if any) has reported its best move."""
        if self._thread is not None:
            self._thread.join(timeout)

    def search_sync(self, limits: GoLimits) -> tuple[BestMove, list]:
        """Search and wait: (best move, info events). For scripts and tests."""
        infos: list = []
        result: list = []
        self.go(limits, infos.append, result.append)
        self.wait()
        return result[0], infos

    @property
    def variant(self) -> str:
        """Canonical name of the current variant (``chess``, ``grand``, ``hexagonal``), or
        of the hosted game (``alea``)."""
        return "alea" if self._alea is not None else self._variant

    @property
    def board(self) -> Board:
        """The current position.

        .. warning:: This is the live board, for reading. Change the position only
           through ``set_position``, so that a later search never sees a half-made change.
           After ``set_fog_position`` it is the last view's board (``engine.fog.view_board``:
           fog drawn empty, the unseen enemy king placed somewhere), not a true position.
        """
        return self._board

    def set_variant(self, name: str) -> None:
        """Switch to a variant by name or alias and reset to its start position.

        Raises ValueError for an unknown name; the old variant and position stay.
        """
        canonical = resolve_game(name)
        if canonical == "alea" and self._chess960:
            raise ValueError("Alea is played from the standard position only: set "
                             "UCI_Chess960 false first")
        state = alea.AleaState.start() if canonical == "alea" else None
        board = state.board if state is not None else Board(canonical, chess960=self._chess960)
        self.stop()
        self.wait()
        self._variant, self._board = HOSTED_GAMES.get(canonical, canonical), board
        self._game = self._go_side = self._game_searcher = None
        self._fog = self._belief = None
        self._alea = state

    def new_game(self) -> None:
        """Forget the game: back to the start position, with an empty hash table (at
        Level adaptive, after learning from the game if it is over: ``finish_game``)."""
        self.stop()
        self.wait()
        self.finish_game()
        self._board = Board(self._variant, chess960=self._chess960)
        self._fog = self._belief = self._game_searcher = None
        self._tt.clear()
        if self._alea is not None:
            self._alea = alea.AleaState.start()
            self._board = self._alea.board
            if self._alea_core is not None:
                self._alea_core.clear_hash()

    def set_position(self, fen: str | None, moves: list[str] | tuple[str, ...] = ()) -> None:
        """Set up ``fen`` (None: the variant's start position) and play ``moves`` (UCI).

        All or nothing: the new position is built aside and replaces the current one only
        when the FEN is valid and every move is legal in turn. Otherwise ValueError is
        raised, naming the bad FEN or the first illegal move, and nothing changes.
        In Alea it is an error (``set_alea_position`` takes Alea's state).
        """
        if self._alea is not None:
            raise ValueError(ALEA_POSITION_HINT)
        board = Board(self._variant, chess960=self._chess960) if fen is None \
            else Board(self._variant, check_fen_length(fen), chess960=self._chess960)
        for ply, move in enumerate(moves, 1):
            try:
                board.push(move)
            except ValueError:
                raise ValueError(f"illegal move {quote(move)} (move {ply} of the list) "
                                 f"in {board.fen()}") from None
        self.stop()
        self.wait()
        self._board = board
        self._game = (fen, tuple(moves))
        self._fog = None

    @property
    def fog(self) -> FogHistory | None:
        """The Fog of War history being played (``set_fog_position``), or None when the
        position is a true one."""
        return self._fog

    @property
    def belief(self) -> Belief | None:
        """The Fog of War belief of the game (updated by each fog ``go``), or None."""
        return self._belief

    def set_fog_position(self, history: FogHistory) -> None:
        """Play Fog of War from ``history``: the views this side received, the lost cells
        and its own moves (docs/protocol.md, ``position fog``). ``go`` then searches
        positions drawn from the belief and plays a move the last view allows.

        All or nothing, like ``set_position``: ValueError when the variant has no fog
        (Fog of War is the variant whose royal piece is captured, not checkmated) or the
        history contradicts itself (``engine.belief.check_history``); nothing changes.
        """
        variant = load_variant(self._variant)
        if self._alea is not None or variant.royal_check or not variant.royal_type:
            raise ValueError(f"position fog needs a Fog of War variant, not {self._variant}")
        old = self._fog
        start = len(old.views) if old is not None and history.extends(old) else 0
        check_history(history, variant, start)
        board = view_board(history.last, variant=variant)
        self.stop()
        self.wait()
        self._board, self._fog = board, history

    # -- Alea ----------------------------------------------------------------------------
    @property
    def alea(self) -> alea.AleaState | None:
        """The Alea state being played (with the dice shown), or None outside Alea."""
        return self._alea

    def set_alea_position(self, fen: str | None, tokens=(), dice=...) -> None:
        """Play Alea from ``fen`` (an Alea FEN; None: the start with Normal's jokers) after
        ``tokens`` (one-word actions, ``engine.notation.parse_alea_token``), with ``dice``
        shown (a pair of n b r q, None for no dice; left out: the last state's field).

        The dice of earlier actions are not needed: an action is legal when some dice the
        arbiter could show allow it (``alea.apply_unrolled``). All or nothing: ValueError
        outside ``UCI_Variant alea``, for a bad FEN or token, an illegal action, dice A8
        cannot show, or missing dice where the side to move needs them; nothing changes.
        """
        if self._alea is None:
            raise ValueError("position alea needs UCI_Variant alea")
        state = alea.AleaState.start() if fen is None else alea.AleaState.parse(fen)
        if state.dice is not None and (dice is ... or tokens):
            _check_dice(state.with_dice(None), state.dice)
        for k, token in enumerate(tokens, 1):
            action, promotion = parse_alea_token(token)
            try:
                state = alea.apply_unrolled(state, action, promotion)
            except ValueError as exc:
                raise ValueError(f"action {quote(token)} (action {k} of the list): {exc}") \
                    from None
        if dice is not ...:
            state = state.with_dice(None)
            if dice is not None:
                _check_dice(state, tuple(dice))
            state = state.with_dice(dice)
        if alea.needs_roll(state):
            raise ValueError("the side to move has dice to roll: add 'dice <pair>' (the dice "
                             "the arbiter shows)")
        self.stop()
        self.wait()
        self._alea, self._board = state, state.board

    def _aux(self) -> AleaCore:
        if self._alea_aux is None:
            self._alea_aux = AleaCore(16)
            aleasearch.configure(self._alea_aux)
        return self._alea_aux

    def _alea_side(self) -> int:
        """The side this engine plays: the one of its last ``go``, else the side to move."""
        if self._go_side is not None:
            return 0 if self._go_side == "w" else 1
        return self._alea.side

    def draw_offer(self) -> bool:
        """A17: whether Quantum accepts a draw in the current Alea position (for the side
        it plays, ``_alea_side``). Runs in the caller's thread (a few hundred thousand
        nodes at most); a running search goes on."""
        if self._alea is None:
            raise ValueError("draw offers are an Alea message (UCI_Variant alea)")
        return aleasearch.accepts_draw(self._aux(), self._alea, self.evaluation(),
                                       self._alea_side())

    def guide_review(self, token: str) -> str:
        """A22: the guide's review of ``token`` played in the current Alea position (the
        position before the move, with its dice): the text of its ``info string``."""
        if self._alea is None:
            raise ValueError("guide review is an Alea message (UCI_Variant alea)")
        action, promotion = parse_alea_token(token)
        if promotion is not None:
            raise ValueError(f"{quote(token)}: write a promotion without its piece (the die "
                             "decides it)")
        return aleasearch.review(self._aux(), self._alea, self.evaluation(), action)

    def legal_moves(self) -> list[str]:
        """The moves of the current position; in a fog history, those its view allows; in
        Alea, the legal actions as one word each."""
        if self._alea is not None and not self._alea.classic:
            if alea.needs_roll(self._alea):
                return []
            return [alea_token(a) for a in alea.legal_actions(self._alea)]
        if self._fog is not None:
            return view_moves(self._fog.last, load_variant(self._variant))
        return self._board.legal_moves()

    def check_perft(self, depth: int) -> None:
        """ValueError unless perft can count ``depth`` (1..MAX_PERFT_DEPTH) plies here: a
        true position, not fog views nor Alea (whose moves depend on the dice). Nothing
        is stopped or changed, so a front end can refuse a perft and leave a running
        search alone."""
        if not 1 <= depth <= MAX_PERFT_DEPTH:
            raise ValueError(f"perft depth must be 1..{MAX_PERFT_DEPTH}, not {depth}")
        if self._fog is not None:
            raise ValueError("perft needs a true position (position startpos|fen), not fog views")
        if self._alea is not None:
            raise ValueError("perft counts chess moves; Alea's depend on the dice")

    def perft_divide(self, depth: int) -> list[tuple[str, int]]:
        """Leaf counts per legal root move at ``depth`` (1..MAX_PERFT_DEPTH).

        The sum of the counts is ``perft(depth)``. Raises ValueError where ``check_perft``
        does (the core's divide is meaningless below 1).
        """
        self.check_perft(depth)
        return self._board.perft_divide(depth)


def _guarded(job, on_error):
    """``job`` for the worker thread, with a failure passed to ``on_error`` (raised when
    there is none)."""
    def run():
        try:
            job()
        except Exception as exc:
            if on_error is None:
                raise
            on_error(exc)
    return run


def _check_dice(state: alea.AleaState, dice: tuple) -> None:
    """ValueError unless A8 can show ``dice`` to the side to move of ``state``."""
    pair = alea.dice_pair(*dice)
    if pair not in alea.dice_distribution(state):
        shown = sorted("".join(p) for p in alea.dice_distribution(state) if p)
        raise ValueError(f"dice {''.join(pair)} cannot be shown here (A8); possible: "
                         f"{' '.join(shown) or 'none (dice -)'}")


def _classic_limits(board: Board, limits: GoLimits) -> GoLimits:
    """Alea's classic mode (A19) is chess with promotion to a queen: the search's root
    leaves out the other promotions."""
    from dataclasses import replace

    moves = [m for m in board.legal_moves() if len(m) == 4 or m.endswith("q")]
    wanted = {m.lower()[:4] for m in limits.searchmoves}
    if wanted:
        moves = [m for m in moves if m[:4] in wanted] or moves
    return replace(limits, searchmoves=moves)


def _classic_answer(on_bestmove):
    """A classic-mode best move as Alea's one word: a promotion without its piece."""
    def answer(best: BestMove) -> None:
        on_bestmove(BestMove(best.move[:4] if best.move else None))
    return answer
