"""Fog of War belief particles: the hot part of engine/belief.py.

A *particle* is one true position the player thinks possible, stored compactly as bytes:
the piece code of every cell, then HEADER bytes (side to move, castling rights, en passant
cell + 1, fullmove number little-endian, halfmove clock capped at 255). Two particles that
differ only in the halfmove clock are the same position for the belief: ``key`` drops it.

A ``ViewCode`` is a received view (``engine.fog.View``) plus its lost cells in C arrays.
``view_matches`` tells whether a position shows exactly that view to the side to move:
the same rules as ``engine.fog.view`` (own pieces, targets of the pseudo-legal moves, the
pawn that can be taken en passant) computed from ``generate_moves`` in a few
microseconds, where fog.view builds Python boards (about half a millisecond). The
halfmove clock is never compared (the view does not carry it: docs/protocol.md).

``advance`` is the belief's one step: play the own move in every particle, expand each by
every opponent pseudo-legal move, keep the children whose view equals the received one.
Each child carries a weight: its parent's times the chance that the opponent chose that
move (``move_priors``), so a natural move (developing, taking, not hanging a piece) counts
for more than an aimless one.
"""
from libc.math cimport exp
from libc.stdlib cimport malloc, free, qsort
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint64_t
from engine.types cimport move_t, piece_t, MAX_MOVES, MAX_CELLS, NO_CELL, KIND_EP, KIND_PROMO, \
    move_from, move_to, move_extra, move_kind, colour_bit, colour_of, type_of
from engine.tables cimport CompiledTables, TablesRec
from engine.position cimport pos_clear, pos_put, pos_make, pos_unmake, pos_compute_key, \
    pos_attacked
from engine.movegen cimport generate_moves
from engine.board cimport Board, uci_text
from engine.clock cimport now
from engine.evaluate cimport EvalRec, EvalTables, taper
from engine.search cimport see

cdef enum:
    DEADLINE_STRIDE = 16    # parents expanded between two looks at the clock in advance


cdef class ViewCode:
    """A view and the cells where the viewer lost a piece it can no longer see.

    ``view`` is an ``engine.fog.View`` (``parse_view_fen``'s result); ``lost`` holds cell
    names. The variant must be a Fog of War variant of engine.variant.
    """

    def __init__(self, variant, view, lost=()):
        cdef ViewRec* v = &self.rec
        cdef int c, i
        g = variant.geometry
        memset(v, 0, sizeof(ViewRec))
        self.variant = variant
        self.view = view
        v.side = 0 if view.side == "w" else 1
        v.ncells = g.ncells
        v.nseen = 0
        for c in range(g.ncells):
            name = g.names[c]
            if name not in view.visible:
                v.code[c] = FOGGED
                continue
            v.seen[v.nseen] = c
            v.nseen += 1
            letter = view.pieces.get(name)
            v.code[c] = 0 if letter is None else _code(variant, letter)
        fields = view.fen.split()
        rights = fields[2] if variant.spec.fen_castling_field else "-"
        v.own_mask = v.own_rights = 0
        for i, right in enumerate(variant.tables_data["castling"]):
            if right["side"] == v.side:
                v.own_mask |= 1 << i
                if right["letter"] in rights:
                    v.own_rights |= 1 << i
        ep = fields[len(fields) - 3]
        v.ep = g.cell(ep) if ep != "-" else NO_CELL
        v.fullmove = int(fields[len(fields) - 1])
        for name in lost:
            c = g.cell(name)
            v.lost[c >> 6] |= (<uint64_t> 1) << (c & 63)

    def matches(self, Board board, bint check_lost=True) -> bool:
        """Whether ``board`` (viewer to move) shows this view; with ``check_lost``, also
        that its last move took exactly the lost cells (needs a board with a last move)."""
        return view_matches(board.p, &self.rec, check_lost and board.p.ply > 0)

    def matches_particle(self, bytes data) -> bool:
        """Whether the particle shows this view (lost cells are not checked: a particle
        carries no last move)."""
        cdef PosRec* p = <PosRec*> malloc(sizeof(PosRec))
        if p == NULL:
            raise MemoryError()
        _check_size(self.variant, data)
        load_particle(p, &(<CompiledTables> self.variant.tables).rec, data)
        ok = view_matches(p, &self.rec, False)
        free(p)
        return ok


cdef int _code(variant, str letter) except -1:
    t = variant.type_of.get(letter.lower())
    if t is None:
        raise ValueError(f"unknown piece {letter!r}")
    return t | colour_bit(0 if letter.isupper() else 1)


cdef _check_size(variant, bytes data):
    if len(data) != variant.geometry.ncells + HEADER:
        raise ValueError(f"a {variant.name} particle has {variant.geometry.ncells + HEADER} "
                         f"bytes, not {len(data)}")


cdef inline bint _placement_ok(const PosRec* p, const ViewRec* v) noexcept nogil:
    """Every visible cell holds what the view shows there (the cheap test first)."""
    cdef int i, c
    for i in range(v.nseen):
        c = v.seen[i]
        if p.board[c] != v.code[c]:
            return False
    return True


cdef bint view_matches(PosRec* p, const ViewRec* v, bint check_lost) noexcept nogil:
    """Whether the side to move of ``p`` sees exactly ``v`` (engine/fog.py's rules)."""
    cdef const TablesRec* t = p.t
    cdef move_t moves[MAX_MOVES]
    cdef uint8_t vis[MAX_CELLS]
    cdef int side = v.side, n, i, c, to, count = 0, cap_cell
    cdef uint64_t lost[2]
    cdef move_t last
    if p.side != side or p.fullmove != v.fullmove or p.ep != v.ep:
        return False
    if (p.castling & v.own_mask) != v.own_rights or not _placement_ok(p, v):
        return False
    memset(vis, 0, sizeof(vis))
    for i in range(p.pcount[side]):
        vis[p.plist[side][i]] = 1
    n = generate_moves(p, moves)
    for i in range(n):
        to = move_to(moves[i])
        vis[to] = 1
        if move_kind(moves[i]) == KIND_EP:     # the pawn that passed is seen too
            vis[t.nxt[to][t.opp[t.pawn_push[side]]]] = 1
    for c in range(v.ncells):
        if vis[c]:
            if v.code[c] == FOGGED:
                return False
            count += 1
    if count != v.nseen:
        return False
    if check_lost:
        lost[0] = lost[1] = 0
        if p.ply > 0 and p.hist[p.ply - 1].captured:
            last = p.hist[p.ply - 1].move
            cap_cell = move_to(last)
            if move_kind(last) == KIND_EP:
                cap_cell = t.nxt[cap_cell][t.opp[t.pawn_push[side ^ 1]]]
            if not vis[cap_cell]:
                lost[cap_cell >> 6] |= (<uint64_t> 1) << (cap_cell & 63)
        if lost[0] != v.lost[0] or lost[1] != v.lost[1]:
            return False
    return True


cdef void load_particle(PosRec* p, const TablesRec* t, const uint8_t* data) noexcept nogil:
    cdef int c, n = t.ncells
    pos_clear(p, t)
    for c in range(n):
        if data[c]:
            pos_put(p, c, data[c])
    p.side = data[n]
    p.castling = data[n + 1]
    p.ep = <int> data[n + 2] - 1
    p.fullmove = data[n + 3] | (data[n + 4] << 8)
    p.halfmove = data[n + 5]
    p.key = pos_compute_key(p)


cdef void dump_particle(const PosRec* p, uint8_t* out) noexcept nogil:
    cdef int c, n = p.t.ncells
    for c in range(n):
        out[c] = p.board[c]
    out[n] = p.side
    out[n + 1] = p.castling
    out[n + 2] = p.ep + 1
    out[n + 3] = p.fullmove & 255
    out[n + 4] = (p.fullmove >> 8) & 255
    out[n + 5] = p.halfmove if p.halfmove < 255 else 255


def key(bytes data) -> bytes:
    """The particle without its halfmove clock: equal keys are one position."""
    return data[:len(data) - 1]


def from_board(Board board) -> bytes:
    """The particle of a board's current position (its history is dropped)."""
    cdef uint8_t out[MAX_CELLS + HEADER]
    dump_particle(board.p, out)
    return (<char*> out)[:board.p.t.ncells + HEADER]


def to_board(variant, bytes data) -> Board:
    """A Board holding the particle's position, without history."""
    _check_size(variant, data)
    cdef Board b = Board.__new__(Board)
    b.variant = variant
    b._tables = variant.tables
    b._stack = []
    load_particle(b.p, &b._tables.rec, data)
    return b


cdef int game_phase(const PosRec* p, const EvalRec* e) noexcept nogil:
    """The position's phase as the hand-written evaluation counts it (each piece's
    ``phase`` weight summed; ``taper`` caps it at the start's)."""
    cdef int side, i, phase = 0
    for side in range(2):
        for i in range(p.pcount[side]):
            phase += e.phase[type_of(p.board[p.plist[side][i]])]
    return phase


cdef int move_merit(PosRec* p, const EvalRec* e, move_t m, int phase) noexcept nogil:
    """How good ``m`` looks to the side to move at a glance, in centipawns: the exchange
    it starts on its target (``see``: a capture wins, a piece left en prise loses) plus
    what the piece-square table gains by the move, its middlegame and endgame terms
    blended by ``phase`` (``game_phase``) as the evaluation blends them: in an ending a
    king steps to the centre, where the middlegame table alone called that the least
    likely move of all and the belief lost the enemy king it could not see."""
    cdef piece_t pc = p.board[move_from(m)]
    cdef int fr = move_from(m), to = move_to(m)
    return see(p, e, m) + taper(e.pst_mg[pc][to] - e.pst_mg[pc][fr],
                                e.pst_eg[pc][to] - e.pst_eg[pc][fr], phase, e)


cdef void move_priors(PosRec* p, const EvalRec* e, const move_t* moves, int n,
                      double temperature, double floor, double* out) noexcept nogil:
    """The chance the side to move plays each of ``moves`` (``out``, summing to 1): a
    softmax of ``move_merit`` at ``temperature`` centipawns mixed with ``floor`` of the
    uniform chance (a player sometimes sees more than the glance, or less); uniform when
    ``e`` is NULL."""
    cdef int j, best = -1000000000
    cdef int merit[MAX_MOVES]
    cdef int phase = game_phase(p, e) if e != NULL else 0
    cdef double z = 0.0
    for j in range(n):
        merit[j] = move_merit(p, e, moves[j], phase) if e != NULL else 0
        if merit[j] > best:
            best = merit[j]
    for j in range(n):
        out[j] = exp((merit[j] - best) / temperature)
        z += out[j]
    for j in range(n):
        out[j] = (1.0 - floor) * out[j] / z + floor / n


def advance(ViewCode target, list parents, own_move=None, double deadline=0.0,
            weights=None, EvalTables prior=None, double temperature=30.0, double floor=0.2):
    """One turn of the belief: ``(children, done, child weights)``.

    Each parent (viewer to move when ``own_move`` is given, else the opponent) plays
    ``own_move`` -- ``(from cell, to cell, promotion type or 0)``; a parent where it is not
    a move is dropped -- then every opponent pseudo-legal move; the children whose view is
    ``target`` (lost cells included) are returned once each (first halfmove clock kept).
    ``done`` is the number of parents processed: fewer than all when the monotonic
    ``deadline`` (seconds, 0: none) passed, which leaves a uniform subset when the parents
    are in random order.

    A child's weight is the sum, over the parents and moves that lead to it, of the
    parent's weight (``weights``, default 1 each) times the move's chance among all the
    opponent's moves there: ``move_priors`` with ``prior``'s tables at ``temperature``
    centipawns and ``floor``, uniform without ``prior``.
    """
    variant = target.variant
    cdef CompiledTables tables = variant.tables
    cdef const TablesRec* t = &tables.rec
    cdef int n_out = t.ncells + HEADER, frm = -1, to = -1, promo = 0, i, j, n, k
    cdef move_t moves[MAX_MOVES]
    cdef move_t replies[MAX_MOVES]
    cdef uint8_t out[MAX_CELLS + HEADER]
    cdef double chance[MAX_MOVES]
    cdef double parent_weight = 1.0
    cdef const EvalRec* e = &prior.rec if prior is not None else NULL
    cdef bint found
    cdef const uint8_t* raw
    if temperature <= 0 or not 0 <= floor <= 1:
        raise ValueError("the prior needs a positive temperature and a floor in [0, 1]")
    if weights is not None and len(weights) != len(parents):
        raise ValueError("one weight per parent")
    cdef PosRec* p = <PosRec*> malloc(sizeof(PosRec))
    if p == NULL:
        raise MemoryError()
    if own_move is not None:
        frm, to, promo = own_move
    children, child_weights, seen = [], [], {}
    done = 0
    try:
        for k, data in enumerate(parents):
            if deadline > 0 and k % DEADLINE_STRIDE == 0 and k and now() > deadline:
                break
            done = k + 1
            if len(<bytes> data) != n_out:
                raise ValueError("particle of the wrong size")
            raw = <bytes> data
            if weights is not None:
                parent_weight = weights[k]
            load_particle(p, t, raw)
            if own_move is not None:
                n = generate_moves(p, moves)
                found = False
                for i in range(n):
                    if move_from(moves[i]) == frm and move_to(moves[i]) == to and \
                            (move_extra(moves[i]) == promo if move_kind(moves[i]) == KIND_PROMO
                             else promo == 0):
                        pos_make(p, moves[i])
                        found = True
                        break
                if not found:
                    continue
            if p.side == target.rec.side or p.king[target.rec.side ^ 1] == NO_CELL:
                continue                # the opponent must be to move, with a king
            n = generate_moves(p, replies)
            move_priors(p, e, replies, n, temperature, floor, chance)
            for j in range(n):
                pos_make(p, replies[j])
                if view_matches(p, &target.rec, True):
                    dump_particle(p, out)
                    child = (<char*> out)[:n_out]
                    ident = child[:n_out - 1]
                    at = seen.get(ident)
                    if at is None:
                        seen[ident] = len(children)
                        children.append(child)
                        child_weights.append(parent_weight * chance[j])
                    else:
                        child_weights[at] += parent_weight * chance[j]
                pos_unmake(p)
    finally:
        free(p)
    return children, done, child_weights


cdef int _heavier_first(const void* a, const void* b) noexcept nogil:
    cdef double x = (<const double*> a)[0], y = (<const double*> b)[0]
    return (x < y) - (x > y)


def thin(list weights, int k, double start):
    """Which of ``weights`` (non-negative) a thinning down to ``k`` keeps: ``(indices in
    order, scale)``. ``scale`` makes sum(min(1, scale * w)) equal k; every weight with
    scale * w >= 1 is kept, the others each with chance scale * w by one systematic draw
    over them in order from ``start`` (in [0, 1)), so exactly k are kept (all, scale
    infinite, when there are at most k). In C: a belief step may thin 100,000 children."""
    cdef Py_ssize_t n = len(weights), i, heavy
    cdef double rest = 0.0, scale = float("inf"), mark = start, reach = 0.0, step
    if n <= k:
        return list(range(n)), scale
    cdef double* w = <double*> malloc(2 * n * sizeof(double))
    if w == NULL:
        raise MemoryError()
    cdef double* ordered = w + n
    try:
        for i in range(n):
            w[i] = weights[i]
            if not w[i] >= 0.0:
                raise ValueError("weights must be non-negative numbers")
            ordered[i] = w[i]
            rest += w[i]
        qsort(ordered, n, sizeof(double), _heavier_first)
        for heavy in range(n):
            if rest <= 0.0:
                break
            step = (k - heavy) / rest
            if step * ordered[heavy] < 1.0:
                scale = step
                break
            rest -= ordered[heavy]
        kept = []
        for i in range(n):
            if scale * w[i] >= 1.0:
                kept.append(i)
            else:
                reach += scale * w[i]
                if reach > mark:
                    kept.append(i)
                    mark += 1.0
        return kept, scale
    finally:
        free(w)


def king_exposed(Board board, list ucis) -> dict:
    """``{move: whether the opponent could capture the mover's king right after it}`` for
    the given moves of the side to move (pseudo-legal, so the mover may walk into it)."""
    cdef move_t moves[MAX_MOVES]
    cdef PosRec* p = board.p
    cdef int n = generate_moves(p, moves), i, us = p.side
    names = board.variant.geometry.names
    letters = board.variant.letters
    wanted = set(ucis)
    out = {}
    for i in range(n):
        u = uci_text(names, letters, p.t, moves[i])
        if u not in wanted:
            continue
        pos_make(p, moves[i])
        out[u] = p.king[us] == NO_CELL or pos_attacked(p, p.king[us], us ^ 1)
        pos_unmake(p)
    return out


def move_merits(Board board, EvalTables tables) -> dict:
    """``{move: move_merit}`` for every pseudo-legal move of the side to move (UCI)."""
    cdef move_t moves[MAX_MOVES]
    cdef PosRec* p = board.p
    cdef int n = generate_moves(p, moves), i
    cdef int phase = game_phase(p, &tables.rec)
    names = board.variant.geometry.names
    letters = board.variant.letters
    return {uci_text(names, letters, p.t, moves[i]): move_merit(p, &tables.rec, moves[i], phase)
            for i in range(n)}
