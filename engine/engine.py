"""Engine: the facade every front end (UCI, CLI, adapters) talks to.

It owns the chosen variant and the current position, and knows nothing about any
protocol: it never prints, and every bad input is a ``ValueError`` that leaves the old
state untouched, so a front end can report the error and carry on.

.. note:: Room reserved for the search issue. The search will add, on this class:

   * ``go(limits)``: start a search of ``self.board`` in a worker thread and return at
     once (non-blocking), so the protocol thread can still answer ``isready``/``stop``;
   * ``stop()``: ask a running search to finish and report its best move;
   * listeners ``on_info(callback)`` and ``on_bestmove(callback)``, called from the
     worker with typed events (``SearchInfo``, ``BestMove``); the protocol formats them;
   * engine settings such as ``set_hash(mb)``, called by option callbacks.

   ``set_position``, ``set_variant`` and ``new_game`` will then wait for (or stop) a
   running search before they replace the board.
"""
from __future__ import annotations

from engine.board import Board
from engine.variant import resolve_name

DEFAULT_VARIANT = "chess"
# Perft beyond this would run for days on any variant; the limit turns a typo into an error.
MAX_PERFT_DEPTH = 20


class Engine:
    """A variant, the current position, and (later) the search that runs on it.

    >>> e = Engine()
    >>> e.set_position(None, ["e2e4"])
    >>> e.board.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
    """

    def __init__(self, variant: str = DEFAULT_VARIANT):
        self._variant = resolve_name(variant)
        self._board = Board(self._variant)

    @property
    def variant(self) -> str:
        """Canonical name of the current variant (``chess``, ``grand``, ``hexagonal``)."""
        return self._variant

    @property
    def board(self) -> Board:
        """The current position.

        .. warning:: This is the live board, for reading. Change the position only
           through ``set_position``, so that a later search never sees a half-made change.
        """
        return self._board

    def set_variant(self, name: str) -> None:
        """Switch to a variant by name or alias and reset to its start position.

        Raises ValueError for an unknown name; the old variant and position stay.
        """
        canonical = resolve_name(name)
        board = Board(canonical)
        self._variant, self._board = canonical, board

    def new_game(self) -> None:
        """Forget the game: back to the start position of the current variant.

        The search issue will also clear its hash table and histories here.
        """
        self._board = Board(self._variant)

    def set_position(self, fen: str | None, moves: list[str] | tuple[str, ...] = ()) -> None:
        """Set up ``fen`` (None: the variant's start position) and play ``moves`` (UCI).

        All or nothing: the new position is built aside and replaces the current one only
        when the FEN is valid and every move is legal in turn. Otherwise ValueError is
        raised, naming the bad FEN or the first illegal move, and nothing changes.
        """
        board = Board(self._variant) if fen is None else Board(self._variant, fen)
        for ply, move in enumerate(moves, 1):
            try:
                board.push(move)
            except ValueError:
                raise ValueError(f"illegal move {move!r} (move {ply} of the list) "
                                 f"in {board.fen()}") from None
        self._board = board

    def perft_divide(self, depth: int) -> list[tuple[str, int]]:
        """Leaf counts per legal root move at ``depth`` (1..MAX_PERFT_DEPTH).

        The sum of the counts is ``perft(depth)``. Raises ValueError for a depth out of
        range (the core's divide is meaningless below 1).
        """
        if not 1 <= depth <= MAX_PERFT_DEPTH:
            raise ValueError(f"perft depth must be 1..{MAX_PERFT_DEPTH}, not {depth}")
        return self._board.perft_divide(depth)
