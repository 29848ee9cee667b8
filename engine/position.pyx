"""Position state: placement, piece lists, Zobrist key, attack test, make and unmake.

Everything here is C over the tables of one variant (tables.pxd) and runs without the
GIL. Moves given to ``pos_make`` must be pseudo-legal for the position; ``pos_unmake``
restores the previous state exactly (key and clocks included).
"""
from engine.types cimport NO_CELL, WHITE, BLACK, KIND_DOUBLE, KIND_EP, KIND_CASTLE, \
    KIND_PROMO, move_from, move_to, move_extra, move_kind, colour_bit, colour_of, type_of
from engine.tables cimport CastlingRec
from engine.nnue cimport nn_feature, nn_block_start, nn_add, nn_sub, nn_shift


cdef void pos_clear(PosRec* p, const TablesRec* t) noexcept nogil:
    cdef int i
    p.t = t
    for i in range(MAX_CELLS):
        p.board[i] = 0
        p.pidx[i] = -1
    for i in range(MAX_CODES):
        p.counts[i] = 0
    p.pcount[0] = p.pcount[1] = 0
    p.king[0] = p.king[1] = NO_CELL
    p.side = WHITE
    p.ep = NO_CELL
    p.castling = 0
    p.halfmove = 0
    p.fullmove = 1
    p.key = 0
    p.ply = 0
    p.nn = NULL


cdef inline int nn_row(const PosRec* p, int s, piece_t pc, int cell) noexcept nogil:
    """Row of w1 for pc on cell in perspective s's accumulator (its king's block)."""
    return nn_feature(p.nn, s, p.acc_block[s], pc, cell)


cdef void nn_refresh(PosRec* p, int s) noexcept nogil:
    """Build perspective s's accumulator from the pieces on the board, in the block of
    its king's bucket (after a king move that changes it, rows cannot be shifted)."""
    cdef const NetRec* nn = p.nn
    cdef int side, i, c, k
    p.acc_block[s] = nn_block_start(nn, s, p.king[s])
    for k in range(nn.hidden):
        p.acc[s][k] = nn.b1[k]
    for side in range(2):
        for i in range(p.pcount[side]):
            c = p.plist[side][i]
            nn_add(nn, p.acc[s], nn_row(p, s, p.board[c], c))


cdef inline bint nn_rebucket(PosRec* p, int side) noexcept nogil:
    """After side's king came, went or moved: rebuild side's accumulator if its king
    bucket changed (True), else leave the row updates to the caller (False)."""
    if p.nn.king_buckets > 1 and nn_block_start(p.nn, side, p.king[side]) != p.acc_block[side]:
        nn_refresh(p, side)
        return True
    return False


cdef void pos_attach_net(PosRec* p, const NetRec* nn) noexcept nogil:
    """Let ``nn``'s accumulators follow this position from now on (NULL: none), built
    here from the pieces on the board."""
    p.nn = nn
    if nn == NULL:
        return
    nn_refresh(p, 0)
    nn_refresh(p, 1)


cdef void pos_put(PosRec* p, int cell, piece_t pc) noexcept nogil:
    """Place pc on an empty cell, keeping lists, counts, king cells and key in step."""
    cdef int side = colour_of(pc)
    p.board[cell] = pc
    p.pidx[cell] = p.pcount[side]
    p.plist[side][p.pcount[side]] = cell
    p.pcount[side] += 1
    p.counts[pc] += 1
    p.key ^= p.t.z_piece[pc][cell]
    if type_of(pc) == p.t.royal_type:
        p.king[side] = cell
    if p.nn != NULL:
        if not (type_of(pc) == p.t.royal_type and nn_rebucket(p, side)):
            nn_add(p.nn, p.acc[side], nn_row(p, side, pc, cell))
        nn_add(p.nn, p.acc[side ^ 1], nn_row(p, side ^ 1, pc, cell))


cdef void pos_remove(PosRec* p, int cell) noexcept nogil:
    """Take the piece off cell (which must hold one)."""
    cdef piece_t pc = p.board[cell]
    cdef int side = colour_of(pc)
    cdef int i = p.pidx[cell]
    cdef int last = p.plist[side][p.pcount[side] - 1]
    p.plist[side][i] = last
    p.pidx[last] = i
    p.pcount[side] -= 1
    p.pidx[cell] = -1
    p.board[cell] = 0
    p.counts[pc] -= 1
    p.key ^= p.t.z_piece[pc][cell]
    if type_of(pc) == p.t.royal_type and p.king[side] == cell:
        p.king[side] = NO_CELL
    if p.nn != NULL:
        if not (type_of(pc) == p.t.royal_type and nn_rebucket(p, side)):
            nn_sub(p.nn, p.acc[side], nn_row(p, side, pc, cell))
        nn_sub(p.nn, p.acc[side ^ 1], nn_row(p, side ^ 1, pc, cell))


cdef inline void pos_shift(PosRec* p, int frm, int to) noexcept nogil:
    """Move the piece on frm to the empty cell to."""
    cdef piece_t pc = p.board[frm]
    cdef int side = colour_of(pc)
    cdef int i = p.pidx[frm]
    p.board[to] = pc
    p.board[frm] = 0
    p.pidx[to] = i
    p.pidx[frm] = -1
    p.plist[side][i] = to
    p.key ^= p.t.z_piece[pc][frm] ^ p.t.z_piece[pc][to]
    if p.king[side] == frm:
        p.king[side] = to
    if p.nn != NULL:
        if not (p.king[side] == to and nn_rebucket(p, side)):
            nn_shift(p.nn, p.acc[side], nn_row(p, side, pc, frm), nn_row(p, side, pc, to))
        nn_shift(p.nn, p.acc[side ^ 1], nn_row(p, side ^ 1, pc, frm), nn_row(p, side ^ 1, pc, to))


cdef int pawn_attacker(const PosRec* p, int cell, int by) noexcept nogil:
    """Cell of a pawn of ``by`` that attacks cell, or NO_CELL."""
    cdef const TablesRec* t = p.t
    cdef int i, c
    cdef piece_t pc = t.pawn_type | colour_bit(by)
    if not t.pawn_type:
        return NO_CELL
    for i in range(t.n_pawn_caps):
        c = t.nxt[cell][t.opp[t.pawn_caps[by][i]]]
        if c != NO_CELL and p.board[c] == pc:
            return c
    return NO_CELL


cdef bint pos_attacked(const PosRec* p, int cell, int by) noexcept nogil:
    """Whether side ``by`` attacks cell (walks backwards from the cell over the tables)."""
    cdef const TablesRec* t = p.t
    cdef int i, v, c
    cdef piece_t pc
    for i in range(t.n_slide_vecs):
        v = t.slide_vecs[i]
        c = t.nxt[cell][v]
        while c != NO_CELL and p.board[c] == 0:
            c = t.nxt[c][v]
        if c != NO_CELL and (t.slide_attackers[by][v] >> p.board[c]) & 1:
            return True
    for i in range(t.n_leap_vecs):
        v = t.leap_vecs[i]
        c = t.nxt[cell][v]
        if c != NO_CELL and (t.leap_attackers[by][v] >> p.board[c]) & 1:
            return True
    return pawn_attacker(p, cell, by) != NO_CELL


cdef bint pos_in_check(const PosRec* p) noexcept nogil:
    cdef int k = p.king[p.side]
    return k != NO_CELL and pos_attacked(p, k, p.side ^ 1)


cdef bint pos_ep_capturable(PosRec* p, int cell, int by) noexcept nogil:
    """Whether ``by`` can capture en passant onto cell (a pawn just double-stepped over it).

    The capture must be legal, not just possible on paper (FIDE 9.2.3: positions differ
    only when a pawn "could have been captured en passant"), so the key and repetition
    detection ignore an en passant right that a pin or a check forbids.
    """
    cdef const TablesRec* t = p.t
    cdef int i, c, victim = t.nxt[cell][t.pawn_push[by ^ 1]]
    cdef piece_t pc = t.pawn_type | colour_bit(by), taken
    cdef bint ok
    for i in range(t.n_pawn_caps):
        c = t.nxt[cell][t.opp[t.pawn_caps[by][i]]]
        if c == NO_CELL or p.board[c] != pc:
            continue
        if not t.royal_check or p.king[by] == NO_CELL:
            return True
        taken = p.board[victim]
        p.board[cell] = pc
        p.board[c] = 0
        p.board[victim] = 0
        ok = not pos_attacked(p, p.king[by], by ^ 1)
        p.board[victim] = taken
        p.board[c] = pc
        p.board[cell] = 0
        if ok:
            return True
    return False


cdef void pos_make(PosRec* p, move_t m) noexcept nogil:
    cdef const TablesRec* t = p.t
    cdef int us = p.side
    cdef int frm = move_from(m), to = move_to(m), kind = move_kind(m), extra = move_extra(m)
    cdef int cap_cell, mid, rights
    cdef const CastlingRec* c
    cdef piece_t pc = p.board[frm], cap
    cdef UndoRec* u = &p.hist[p.ply]
    p.ply += 1
    u.move = m
    u.key = p.key
    u.halfmove = p.halfmove
    u.ep = p.ep
    u.castling = p.castling
    u.moved = pc
    u.captured = 0
    if p.ep != NO_CELL:
        p.key ^= t.z_ep[p.ep]
        p.ep = NO_CELL
    p.halfmove += 1
    if kind == KIND_CASTLE:
        c = &t.castling[extra]
        cap = p.board[c.rook_from]
        pos_remove(p, c.king_from)
        pos_remove(p, c.rook_from)
        pos_put(p, c.king_to, pc)
        pos_put(p, c.rook_to, cap)
    else:
        cap_cell = to
        if kind == KIND_EP:
            cap_cell = t.nxt[to][t.opp[t.pawn_push[us]]]
        cap = p.board[cap_cell]
        if cap:
            u.captured = cap
            pos_remove(p, cap_cell)
            p.halfmove = 0
        if type_of(pc) == t.pawn_type:
            p.halfmove = 0
        pos_shift(p, frm, to)
        if kind == KIND_PROMO:
            pos_remove(p, to)
            pos_put(p, to, extra | colour_bit(us))
        elif kind == KIND_DOUBLE:
            mid = t.nxt[frm][t.pawn_push[us]]
            if pos_ep_capturable(p, mid, us ^ 1):
                p.ep = mid
                p.key ^= t.z_ep[mid]
    rights = p.castling & ~(t.castle_clear[frm] | t.castle_clear[to])
    if rights != p.castling:
        p.key ^= t.z_castling[p.castling] ^ t.z_castling[rights]
        p.castling = rights
    p.side = us ^ 1
    p.key ^= t.z_side
    if us == BLACK:
        p.fullmove += 1


cdef void pos_unmake(PosRec* p) noexcept nogil:
    cdef const TablesRec* t = p.t
    cdef UndoRec* u
    cdef const CastlingRec* c
    cdef int us, frm, to, kind, cap_cell
    cdef piece_t rook
    p.ply -= 1
    u = &p.hist[p.ply]
    p.side ^= 1
    us = p.side
    frm = move_from(u.move)
    to = move_to(u.move)
    kind = move_kind(u.move)
    if kind == KIND_CASTLE:
        c = &t.castling[move_extra(u.move)]
        rook = p.board[c.rook_to]
        pos_remove(p, c.king_to)
        pos_remove(p, c.rook_to)
        pos_put(p, c.king_from, u.moved)
        pos_put(p, c.rook_from, rook)
    else:
        if kind == KIND_PROMO:
            pos_remove(p, to)
            pos_put(p, frm, u.moved)
        else:
            pos_shift(p, to, frm)
        if u.captured:
            cap_cell = to
            if kind == KIND_EP:
                cap_cell = t.nxt[to][t.opp[t.pawn_push[us]]]
            pos_put(p, cap_cell, u.captured)
    p.key = u.key
    p.halfmove = u.halfmove
    p.ep = u.ep
    p.castling = u.castling
    if us == BLACK:
        p.fullmove -= 1


cdef void pos_make_null(PosRec* p) noexcept nogil:
    """Pass the move (search only: null-move pruning)."""
    cdef UndoRec* u = &p.hist[p.ply]
    p.ply += 1
    u.move = 0
    u.key = p.key
    u.halfmove = p.halfmove
    u.ep = p.ep
    u.castling = p.castling
    u.moved = 0
    u.captured = 0
    if p.ep != NO_CELL:
        p.key ^= p.t.z_ep[p.ep]
        p.ep = NO_CELL
    p.halfmove += 1
    p.side ^= 1
    p.key ^= p.t.z_side


cdef void pos_unmake_null(PosRec* p) noexcept nogil:
    p.ply -= 1
    p.side ^= 1
    p.key = p.hist[p.ply].key
    p.halfmove = p.hist[p.ply].halfmove
    p.ep = p.hist[p.ply].ep


cdef key_t pos_compute_key(const PosRec* p) noexcept nogil:
    """The key from scratch (tests compare it with the incremental one)."""
    cdef const TablesRec* t = p.t
    cdef key_t k = 0
    cdef int c
    for c in range(t.ncells):
        if p.board[c]:
            k ^= t.z_piece[p.board[c]][c]
    if p.side == BLACK:
        k ^= t.z_side
    k ^= t.z_castling[p.castling]
    if p.ep != NO_CELL:
        k ^= t.z_ep[p.ep]
    return k


cdef int pos_repetitions(const PosRec* p) noexcept nogil:
    """How often the current position stood before, within the reversible stretch."""
    cdef int n = 0, i = p.ply - 2, stop = p.ply - p.halfmove
    if stop < 0:
        stop = 0
    while i >= stop:
        if p.hist[i].key == p.key:
            n += 1
        i -= 2
    return n
