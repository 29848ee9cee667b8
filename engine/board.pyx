"""Board: the Python face of a position, in the spirit of python-chess's ``chess.Board``.

Moves cross this boundary as UCI strings (``e2e4``, ``b9b10c``, ``f10f11n``) and are
resolved by matching the legal list, so no second move parser can drift from the rules.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.stdint cimport uint64_t
from engine.types cimport move_t, MAX_MOVES, MAX_HISTORY, NO_CELL, KIND_CASTLE, KIND_PROMO, \
    move_from, move_to, move_extra, move_kind, type_of, colour_of, WHITE_BIT
from engine.tables cimport CompiledTables, TablesRec, uci_target
from engine.position cimport PosRec, pos_clear, pos_put, pos_make, pos_unmake, \
    pos_in_check, pos_compute_key, pos_repetitions, pos_ep_capturable, pos_attacked
from engine.movegen cimport generate_moves, perft, volatile_int

from engine import fen as fen_mod
from engine.drawing import draw
from engine.notation import quote
from engine.game_end import Outcome, is_dead_material
from engine.variant import load_variant, Variant

# Plies kept when the history buffer is compacted (covers any repetition window).
KEEP_PLIES = 1024


cdef str uci_text(tuple names, list letters, const TablesRec* t, move_t m):
    """A move in UCI: from cell, target cell (``uci_target``: a Chess960 castling move
    names its rook's cell), promotion letter. The board and the search both write it."""
    s = names[move_from(m)] + names[uci_target(t, m)]
    if move_kind(m) == KIND_PROMO:
        s += letters[move_extra(m)]
    return s


cdef class Board:
    """A position of one variant with its move history.

    >>> b = Board("chess")
    >>> b.push("e2e4"); b.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
    """
    def __cinit__(self):
        self.p = <PosRec*> malloc(sizeof(PosRec))
        if self.p == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.p)

    def __init__(self, variant="chess", fen=None, bint chess960=False):
        """``variant``: a name (its Chess960 form with ``chess960``) or a Variant."""
        if not isinstance(variant, Variant):
            variant = load_variant(variant, chess960)
        self.variant = variant
        self._tables = variant.tables
        self._stack = []
        self.set_fen(fen if fen is not None else variant.start_fen)

    # -- FEN ---------------------------------------------------------------------------
    def set_fen(self, str fen):
        """Set up a position. On any error raise ValueError and keep the old position."""
        data = fen_mod.parse(self.variant, fen)
        cdef CompiledTables tables = self.variant.tables if data.setup is None \
            else self.variant.castling_tables(data.setup)
        cdef PosRec* q = <PosRec*> malloc(sizeof(PosRec))
        if q == NULL:
            raise MemoryError()
        try:
            self._load(q, data, tables)
        except BaseException:
            free(q)
            raise
        free(self.p)
        self.p = q
        self._tables = tables
        self._stack = []

    cdef _load(self, PosRec* q, data, CompiledTables tables):
        """Fill q from parsed FEN data, on ``tables`` (a Chess960 position's own)."""
        cdef int c
        pos_clear(q, &tables.rec)
        for c, pc in enumerate(data.board):
            if pc:
                pos_put(q, c, pc)
        q.side = data.side
        q.castling = data.castling
        q.halfmove = data.halfmove
        q.fullmove = data.fullmove
        if data.ep >= 0:
            self._check_ep(q, data.ep)
            if pos_ep_capturable(q, data.ep, q.side):
                q.ep = data.ep
        q.key = pos_compute_key(q)
        if self.variant.royal_check and q.king[q.side ^ 1] != NO_CELL \
                and pos_attacked(q, q.king[q.side ^ 1], q.side):
            raise ValueError("the side not to move is in check")

    cdef _check_ep(self, PosRec* q, int ep):
        """The en passant cell must lie just behind a pawn that has double-stepped."""
        t = q.t
        cdef int mover = q.side ^ 1
        cdef int victim = t.nxt[ep][t.pawn_push[mover]]
        cdef int origin = t.nxt[ep][t.opp[t.pawn_push[mover]]]
        if (not t.pawn_type or q.board[ep] or victim == NO_CELL or origin == NO_CELL
                or q.board[victim] != (t.pawn_type | (WHITE_BIT << mover))
                or q.board[origin] or not t.double_step[mover][origin]):
            raise ValueError(f"bad en passant cell {self.variant.geometry.names[ep]}")

    def fen(self) -> str:
        """The position as FEN (en passant shown only when a legal capture there exists,
        as python-chess does by default)."""
        return fen_mod.format(self.variant, self._placement(), self.p.side, self.p.castling,
                              self.p.ep, self.p.halfmove, self.p.fullmove, self._tables.castling)

    def _placement(self):
        return [self.p.board[c] for c in range(self._tables.rec.ncells)]

    # -- moves -------------------------------------------------------------------------
    cdef str _uci(self, move_t m):
        return uci_text(self.variant.geometry.names, self.variant.letters, self.p.t, m)

    cdef int _legal(self, move_t* out):
        return generate_moves(self.p, out)

    def legal_moves(self) -> list:
        """Every legal move (pseudo-legal under royal capture rules) as UCI strings."""
        cdef move_t moves[MAX_MOVES]
        cdef int n = self._legal(moves), i
        return [self._uci(moves[i]) for i in range(n)]

    def is_legal(self, str uci) -> bool:
        return uci.lower() in self.legal_moves()

    def push(self, str uci):
        """Play a move given in UCI notation; ValueError if it is not legal here."""
        cdef move_t moves[MAX_MOVES]
        cdef int n = self._legal(moves), i
        want = uci.strip().lower()
        for i in range(n):
            if self._uci(moves[i]) == want:
                if self.p.ply >= MAX_HISTORY - 256:
                    self._compact()
                pos_make(self.p, moves[i])
                self._stack.append(want)
                return
        raise ValueError(f"illegal move {quote(uci)} in {self.fen()}")

    def pop(self) -> str:
        """Take back the last move and return it; IndexError when there is none."""
        if not self._stack or self.p.ply == 0:
            raise IndexError("no move to take back")
        pos_unmake(self.p)
        return self._stack.pop()

    cdef _compact(self):
        """Drop the oldest history so long games never overflow the undo buffer."""
        cdef int drop = self.p.ply - KEEP_PLIES
        memcpy(&self.p.hist[0], &self.p.hist[drop], KEEP_PLIES * sizeof(self.p.hist[0]))
        self.p.ply = KEEP_PLIES
        del self._stack[:drop]

    @property
    def move_stack(self) -> list:
        return list(self._stack)

    # -- queries -----------------------------------------------------------------------
    @property
    def turn(self) -> str:
        return "wb"[self.p.side]

    @property
    def key(self) -> int:
        """Incremental Zobrist key."""
        return self.p.key

    def compute_key(self) -> int:
        """Zobrist key computed from scratch (equals ``key`` unless there is a bug)."""
        return pos_compute_key(self.p)

    @property
    def halfmove_clock(self) -> int:
        return self.p.halfmove

    @property
    def fullmove(self) -> int:
        """The FEN's move number: 1 at the start, one more after each Black move."""
        return self.p.fullmove

    def is_check(self) -> bool:
        return self.variant.royal_check and pos_in_check(self.p)

    def piece_at(self, str cell):
        """Letter of the piece on a cell (upper case White), or None."""
        cdef int c = self.variant.geometry.cell(cell)
        return self._letter(c)

    def _letter(self, int c):
        pc = self.p.board[c]
        if not pc:
            return None
        letter = self.variant.letters[type_of(pc)]
        return letter.upper() if colour_of(pc) == 0 else letter

    def repetitions(self) -> int:
        """How many times the current position occurred before (same side to move)."""
        return pos_repetitions(self.p)

    def outcome(self):
        """The Outcome if the game is over by the rules, else None."""
        cdef move_t moves[MAX_MOVES]
        v = self.variant
        side = self.p.side
        if v.royal_type and not v.royal_check:
            for s in (0, 1):
                if self.p.king[s] == NO_CELL:
                    return Outcome(0.0 if s == 0 else 1.0, "king captured")
        if self._legal(moves) == 0:
            if self.is_check():
                return Outcome(0.0 if side == 0 else 1.0, "checkmate")
            score = v.stalemate_score               # of the side that stalemated
            return Outcome(score if side == 1 else 1.0 - score, "stalemate")
        if v.n_move_rule and self.p.halfmove >= v.n_move_rule:
            return Outcome(0.5, "fifty-move rule")
        if v.repetition and pos_repetitions(self.p) + 1 >= v.repetition:
            return Outcome(0.5, "threefold repetition")
        if v.royal_check and self._dead_material():
            return Outcome(0.5, "insufficient material")
        return None

    def _dead_material(self) -> bool:
        colours = self.variant.geometry.colours
        pieces = []
        for c in range(self._tables.rec.ncells):
            pc = self.p.board[c]
            if pc and type_of(pc) != self.variant.royal_type:
                pieces.append((self.variant.letters[type_of(pc)], colours[c]))
        return is_dead_material(self.variant.insufficient, pieces)

    # -- perft -------------------------------------------------------------------------
    def perft(self, int depth) -> int:
        """Leaf nodes at ``depth`` (legal moves, bulk-counted at the last ply)."""
        cdef uint64_t n
        cdef volatile_int never = 0
        with nogil:
            n = perft(self.p, depth, &never)
        return n

    def perft_divide(self, int depth, PerftStop stop=None) -> list:
        """[(uci, leaf count)] per root move, as `go perft` prints them (depth >= 1).

        ``stop.stop()``, from any thread, ends the count within microseconds; the list
        then holds only the root moves counted in full, so it is shorter than the legal
        move list."""
        cdef move_t moves[MAX_MOVES]
        if depth < 1:
            raise ValueError("perft divide needs depth >= 1")
        cdef int n = self._legal(moves), i
        cdef uint64_t cnt
        cdef volatile_int never = 0
        cdef volatile_int* flag = &never if stop is None else &stop.flag
        out = []
        for i in range(n):
            pos_make(self.p, moves[i])
            with nogil:
                cnt = perft(self.p, depth - 1, flag)
            pos_unmake(self.p)
            if flag[0]:                 # this move's count was cut short
                break
            out.append((self._uci(moves[i]), cnt))
        return out

    # -- misc --------------------------------------------------------------------------
    def copy(self):
        """An independent copy with the same history."""
        cdef Board b = Board.__new__(Board)
        b.variant = self.variant
        b._tables = self._tables
        b._stack = list(self._stack)
        memcpy(b.p, self.p, sizeof(PosRec))
        return b

    def draw(self) -> str:
        """A text drawing of the board (a honeycomb for the hexagon)."""
        return draw(self.variant.geometry, self._letter)

    def __str__(self):
        return self.draw()

    def __repr__(self):
        return f"Board({self.variant.name!r}, {self.fen()!r})"


cdef class PerftStop:
    """Ends a running ``Board.perft_divide`` from another thread: ``stop()`` sets a flag
    the C count reads without the GIL."""
    cdef volatile_int flag

    def stop(self):
        self.flag = 1

    @property
    def stopped(self) -> bool:
        return self.flag != 0
