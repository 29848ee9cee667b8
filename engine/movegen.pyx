"""Move generation: every move the side to move may play, written into a C array.

With the variant's ``royal_check`` rule the moves are legal: checkers and pinned pieces are
found once per node by walking the rays out of the royal cell, and each pseudo-legal
target is then accepted or refused with table look-ups (``dir_from``/``dist``). Only royal
moves and en passant captures are tested by an attack query. Without the rule (Fog of
War) moves are pseudo-legal and a side whose royal piece is gone has none.
"""
from engine.types cimport piece_t, MAX_MOVES, MAX_PIECES, NO_CELL, KIND_NORMAL, KIND_DOUBLE, KIND_EP, \
    KIND_CASTLE, KIND_PROMO, make_move_code, colour_bit, type_of
from engine.tables cimport TablesRec, CastlingRec
from engine.position cimport pos_attacked, pos_make, pos_unmake
from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    int ctz32 "__builtin_ctz"(unsigned int x) nogil


cdef struct Filter:
    # Per-node legality facts, computed once before generation.
    int king
    int nchk            # number of checkers
    int chk_cell
    int chk_vec         # vector from king to a sliding checker, -1 for a contact check
    int npin
    int pin_cell[MAX_PIECES]
    int pin_vec[MAX_PIECES]


cdef inline bint target_ok(const TablesRec* t, const Filter* f, int pin, int to) noexcept nogil:
    """Whether a non-royal piece (pinned along ``pin``, or -1) may land on ``to``."""
    if pin >= 0 and t.dir_from[f.king][to] != pin:
        return False
    if f.nchk == 0 or to == f.chk_cell:
        return True
    return (f.chk_vec >= 0 and t.dir_from[f.king][to] == f.chk_vec
            and t.dist[f.king][to] < t.dist[f.king][f.chk_cell])


cdef void find_checks_and_pins(const PosRec* p, Filter* f) noexcept nogil:
    cdef const TablesRec* t = p.t
    cdef int us = p.side, them = p.side ^ 1
    cdef int own = colour_bit(us)
    cdef int k = f.king, i, v, c, c2
    cdef piece_t pc
    f.nchk = 0
    f.npin = 0
    f.chk_cell = NO_CELL
    f.chk_vec = -1
    for i in range(t.n_slide_vecs):
        v = t.slide_vecs[i]
        c = t.nxt[k][v]
        while c != NO_CELL and p.board[c] == 0:
            c = t.nxt[c][v]
        if c == NO_CELL:
            continue
        pc = p.board[c]
        if pc & own:
            c2 = t.nxt[c][v]
            while c2 != NO_CELL and p.board[c2] == 0:
                c2 = t.nxt[c2][v]
            if c2 != NO_CELL and (t.slide_attackers[them][v] >> p.board[c2]) & 1:
                f.pin_cell[f.npin] = c
                f.pin_vec[f.npin] = v
                f.npin += 1
        elif (t.slide_attackers[them][v] >> pc) & 1:
            f.nchk += 1
            f.chk_cell = c
            f.chk_vec = v
    for i in range(t.n_leap_vecs):
        v = t.leap_vecs[i]
        c = t.nxt[k][v]
        if c != NO_CELL and c != f.chk_cell and (t.leap_attackers[them][v] >> p.board[c]) & 1:
            f.nchk += 1
            f.chk_cell = c
            f.chk_vec = -1
    if t.pawn_type:
        pc = t.pawn_type | colour_bit(them)
        for i in range(t.n_pawn_caps):
            c = t.nxt[k][t.opp[t.pawn_caps[them][i]]]
            if c != NO_CELL and p.board[c] == pc:
                f.nchk += 1
                f.chk_cell = c
                f.chk_vec = -1


cdef inline int add_pawn_moves(const PosRec* p, move_t* out, int n, int frm, int to,
                               int kind) noexcept nogil:
    """Add a pawn move to ``to``, expanded into its promotion choices where it promotes."""
    cdef const TablesRec* t = p.t
    cdef int zone = t.promo_zone[p.side][to], j, typ, lim
    cdef int own = colour_bit(p.side)
    if zone == 0:
        out[n] = make_move_code(frm, to, 0, kind)
        return n + 1
    for j in range(t.n_promo_types):
        typ = t.promo_types[j]
        lim = t.promo_limit[typ]
        if lim == 0 or p.counts[typ | own] < lim:
            out[n] = make_move_code(frm, to, typ, KIND_PROMO)
            n += 1
    if zone == 1:
        out[n] = make_move_code(frm, to, 0, kind)
        n += 1
    return n


cdef bint ep_legal(PosRec* p, const Filter* f, int frm, int to) noexcept nogil:
    """En passant empties two cells of one line at once: test it on the board."""
    cdef const TablesRec* t = p.t
    cdef int victim = t.nxt[to][t.opp[t.pawn_push[p.side]]]
    cdef piece_t mover = p.board[frm], taken = p.board[victim]
    cdef bint ok
    p.board[to] = mover
    p.board[frm] = 0
    p.board[victim] = 0
    ok = not pos_attacked(p, f.king, p.side ^ 1)
    p.board[frm] = mover
    p.board[victim] = taken
    p.board[to] = 0
    return ok


cdef int gen_pawn(PosRec* p, const Filter* f, bint legal, bint noisy, move_t* out, int n,
                  int frm, int pin) noexcept nogil:
    cdef const TablesRec* t = p.t
    cdef int us = p.side
    cdef int enemy = colour_bit(us ^ 1)
    cdef int push = t.pawn_push[us]
    cdef int to, to2, i
    to = t.nxt[frm][push]
    if to != NO_CELL and p.board[to] == 0 and not (noisy and t.promo_zone[us][to] == 0):
        if not legal or target_ok(t, f, pin, to):
            n = add_pawn_moves(p, out, n, frm, to, KIND_NORMAL)
        if t.double_step[us][frm] and not noisy:
            to2 = t.nxt[to][push]
            if to2 != NO_CELL and p.board[to2] == 0 and (not legal or target_ok(t, f, pin, to2)):
                n = add_pawn_moves(p, out, n, frm, to2, KIND_DOUBLE)
    for i in range(t.n_pawn_caps):
        to = t.nxt[frm][t.pawn_caps[us][i]]
        if to == NO_CELL:
            continue
        if p.board[to] & enemy:
            if not legal or target_ok(t, f, pin, to):
                n = add_pawn_moves(p, out, n, frm, to, KIND_NORMAL)
        elif to == p.ep and (not legal or ep_legal(p, f, frm, to)):
            out[n] = make_move_code(frm, to, 0, KIND_EP)
            n += 1
    return n


cdef int gen_royal(PosRec* p, move_t* out, int n, int frm, bint legal, bint noisy) noexcept nogil:
    """Moves of the royal piece: a target must not be attacked once the piece has left."""
    cdef const TablesRec* t = p.t
    cdef int us = p.side, them = p.side ^ 1, own = colour_bit(us)
    cdef int typ = type_of(p.board[frm]), v, to
    cdef uint32_t mask
    cdef piece_t me = p.board[frm]
    if legal:
        p.board[frm] = 0
    mask = t.leap_mask[typ]
    while mask:
        v = ctz32(mask)
        mask &= mask - 1
        to = t.nxt[frm][v]
        if (to != NO_CELL and not (p.board[to] & own) and not (noisy and p.board[to] == 0)
                and not (legal and pos_attacked(p, to, them))):
            out[n] = make_move_code(frm, to, 0, KIND_NORMAL)
            n += 1
    mask = t.slide_mask[typ]
    while mask:
        v = ctz32(mask)
        mask &= mask - 1
        to = t.nxt[frm][v]
        while to != NO_CELL and not (p.board[to] & own):
            if not (noisy and p.board[to] == 0) and not (legal and pos_attacked(p, to, them)):
                out[n] = make_move_code(frm, to, 0, KIND_NORMAL)
                n += 1
            if p.board[to]:
                break
            to = t.nxt[to][v]
    p.board[frm] = me
    return n


cdef int gen_castling(PosRec* p, move_t* out, int n) noexcept nogil:
    """Castling moves: both paths empty but for the king and its rook, and (with
    ``castle_path_safe``) no cell of the king's path attacked once the rook has left it:
    in Chess960 the rook may stand between the king and an enemy on the rank (a queen
    on a1, the rook on b1, the king on c1), and castling must not uncover the king. A
    rook on the board's edge (standard chess) shields nothing and stays (``lift_rook``)."""
    cdef const TablesRec* t = p.t
    cdef const CastlingRec* c
    cdef int i, j, them = p.side ^ 1
    cdef bint ok
    cdef piece_t rook
    for i in range(t.n_castling):
        c = &t.castling[i]
        if c.side != p.side or not (p.castling >> i) & 1:
            continue
        ok = True
        for j in range(c.n_empty):
            if p.board[c.empty[j]]:
                ok = False
                break
        if ok and t.castle_path_safe:
            rook = p.board[c.rook_from]
            if c.lift_rook:
                p.board[c.rook_from] = 0
            for j in range(c.n_safe):
                if pos_attacked(p, c.safe[j], them):
                    ok = False
                    break
            if c.lift_rook:
                p.board[c.rook_from] = rook
        if ok:
            out[n] = make_move_code(c.king_from, c.king_to, i, KIND_CASTLE)
            n += 1
    return n


cdef int generate(PosRec* p, move_t* out, bint noisy) noexcept nogil:
    """All moves, or with ``noisy`` only captures and promotions, of the side to move."""
    cdef const TablesRec* t = p.t
    cdef Filter f
    cdef int us = p.side, own = colour_bit(us)
    cdef int n = 0, i, j, frm, to, v, typ, pin
    cdef uint32_t mask
    cdef bint legal = t.royal_check and p.king[us] != NO_CELL
    if t.royal_type and not t.royal_check and (p.king[0] == NO_CELL or p.king[1] == NO_CELL):
        return 0                        # royal capture ended the game
    f.king = p.king[us]
    f.nchk = 0
    f.npin = 0
    if legal:
        find_checks_and_pins(p, &f)
    for i in range(p.pcount[us]):
        frm = p.plist[us][i]
        typ = type_of(p.board[frm])
        if typ == t.royal_type:
            n = gen_royal(p, out, n, frm, legal, noisy)
            continue
        if f.nchk > 1:
            continue
        pin = -1
        for j in range(f.npin):
            if f.pin_cell[j] == frm:
                pin = f.pin_vec[j]
        if typ == t.pawn_type:
            n = gen_pawn(p, &f, legal, noisy, out, n, frm, pin)
            continue
        mask = t.leap_mask[typ]
        while mask:
            v = ctz32(mask)
            mask &= mask - 1
            to = t.nxt[frm][v]
            if (to != NO_CELL and not (p.board[to] & own) and not (noisy and p.board[to] == 0)
                    and (not legal or target_ok(t, &f, pin, to))):
                out[n] = make_move_code(frm, to, 0, KIND_NORMAL)
                n += 1
        mask = t.slide_mask[typ]
        while mask:
            v = ctz32(mask)
            mask &= mask - 1
            to = t.nxt[frm][v]
            while to != NO_CELL and not (p.board[to] & own):
                if not (noisy and p.board[to] == 0) and (not legal or target_ok(t, &f, pin, to)):
                    out[n] = make_move_code(frm, to, 0, KIND_NORMAL)
                    n += 1
                if p.board[to]:
                    break
                to = t.nxt[to][v]
    if p.castling and f.nchk == 0 and not noisy:
        n = gen_castling(p, out, n)
    return n


cdef int generate_moves(PosRec* p, move_t* out) noexcept nogil:
    """Write the moves of the side to move into out; return how many."""
    return generate(p, out, False)


cdef int generate_noisy(PosRec* p, move_t* out) noexcept nogil:
    """Captures (en passant included) and promotions only: the quiescence search's moves."""
    return generate(p, out, True)


cdef uint64_t perft(PosRec* p, int depth, volatile_int* stop) noexcept nogil:
    """Leaf count at depth, with bulk counting at the last ply (as Stockfish does).

    ``stop[0]`` set (by another thread) ends the count: it is read once per node of depth
    >= 2, a few hundred times fewer than leaves are counted, and the count returned is
    then too small; the caller reads the flag to know."""
    cdef move_t moves[MAX_MOVES]
    cdef int n, i
    cdef uint64_t total = 0
    if depth <= 0:
        return 1
    n = generate_moves(p, moves)
    if depth == 1:
        return n
    if stop[0]:
        return 0
    for i in range(n):
        pos_make(p, moves[i])
        total += perft(p, depth - 1, stop)
        pos_unmake(p)
    return total
