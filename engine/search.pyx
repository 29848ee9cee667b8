"""Principal variation search with quiescence, in C without the GIL.

Per node, in order: draw checks (repetition, n-move rule, bare kings), mate-distance
pruning, transposition table, check extension, reverse futility, razoring, null move,
internal iterative reduction, move loop with singular extension (and multi-cut) of the
table's move, late-move reductions, futility and move-count pruning; quiescence resolves
captures and promotions (bad captures by SEE are skipped), reading and filling the same
table at depth 0 (a non-PV node is cut by any stored bound). Scores are centipawns from the
side to move's view; MATE - ply is a mate delivered at ``ply``. The iterative deepening,
aspiration windows, MultiPV and clock live in engine/deepening.py.
"""
from libc.math cimport log
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from engine.types cimport piece_t, NO_CELL, KIND_EP, KIND_PROMO, KIND_CASTLE, move_from, \
    move_to, move_kind, move_extra, colour_bit, type_of, MAX_HISTORY, MAX_PIECES, MAX_VECTORS
from engine.tables cimport TablesRec
from engine.position cimport pawn_attacker, pos_make, pos_unmake, pos_make_null, pos_unmake_null, \
    pos_in_check, pos_repetitions, pos_attacked, pos_attach_net
from engine.movegen cimport generate_moves, generate_noisy
from engine.evaluate cimport evaluate, EvalTables
from engine.tt cimport tt_probe, tt_prefetch, tt_store, TTEntry, TranspositionTable, \
    BOUND_EXACT, BOUND_LOWER, BOUND_UPPER
from engine.board cimport Board, uci_text
from engine.searchkit cimport SearchLimits, limits_reset, enter_node, is_noisy, mvv_lva, \
    ROYAL_VALUE, best_from, bring, history_add, history_age, bound_of, bound_cuts

cdef enum:
    TT_MOVE_SCORE = 100000000
    GOOD_CAPTURE = 10000000
    KILLER_1 = 9000000
    KILLER_2 = 8900000
    BAD_CAPTURE = -10000000
    RAZOR_MARGIN = 250      # razoring: below alpha by this a ply, ask quiescence


cdef inline void update_pv(SearchRec* s, int ply, move_t m) noexcept nogil:
    """The PV at ply becomes m followed by the child's PV."""
    cdef int j
    s.pv[ply][ply] = m
    for j in range(ply + 1, s.pv_len[ply + 1]):
        s.pv[ply][j] = s.pv[ply + 1][j]
    s.pv_len[ply] = s.pv_len[ply + 1] if s.pv_len[ply + 1] > ply + 1 else ply + 1


# -- static exchange -------------------------------------------------------------------
cdef int piece_value(const EvalRec* e, const TablesRec* t, piece_t pc) noexcept nogil:
    if type_of(pc) == t.royal_type:
        return ROYAL_VALUE
    return e.value[type_of(pc)]


cdef int cheapest_leaper(const PosRec* p, const EvalRec* e, int cell, int by,
                         int* value) noexcept nogil:
    """Cell of the cheapest leaper of ``by`` attacking cell, or -1; its value goes to
    *value (ROYAL_VALUE + 1 when there is none)."""
    cdef const TablesRec* t = p.t
    cdef int i, v, c, best = -1, best_val = ROYAL_VALUE + 1, val
    for i in range(t.n_leap_vecs):
        v = t.leap_vecs[i]
        c = t.nxt[cell][v]
        if c != NO_CELL and (t.leap_attackers[by][v] >> p.board[c]) & 1:
            val = piece_value(e, t, p.board[c])
            if val < best_val:
                best, best_val = c, val
    value[0] = best_val
    return best


cdef int cheaper_slider(const PosRec* p, const EvalRec* e, int by, const int* ray,
                        int* value) noexcept nogil:
    """Cell of the cheapest slider of ``by`` that attacks along the rays and is worth less
    than *value (which it then lowers), or -1. ray[i] is the first occupied cell from the
    target along slide vector i."""
    cdef const TablesRec* t = p.t
    cdef int i, c, best = -1, val
    for i in range(t.n_slide_vecs):
        c = ray[i]
        if c != NO_CELL and (t.slide_attackers[by][t.slide_vecs[i]] >> p.board[c]) & 1:
            val = piece_value(e, t, p.board[c])
            if val < value[0]:
                best, value[0] = c, val
    return best


cdef int least_attacker(PosRec* p, const EvalRec* e, int cell, int by,
                        const int* ray) noexcept nogil:
    """Cell of the cheapest piece of ``by`` attacking cell on the current board, or -1:
    a pawn first, then leapers, then sliders (ties go to the earlier)."""
    cdef int c, s, val
    c = pawn_attacker(p, cell, by)
    if c != NO_CELL:
        return c
    c = cheapest_leaper(p, e, cell, by, &val)
    s = cheaper_slider(p, e, by, ray, &val)
    return s if s >= 0 else c


cdef inline int ray_end(const PosRec* p, int c, int v) noexcept nogil:
    """The first occupied cell from c (excluded) along vector v, or NO_CELL."""
    c = p.t.nxt[c][v]
    while c != NO_CELL and p.board[c] == 0:
        c = p.t.nxt[c][v]
    return c


cdef inline void fill_rays(const PosRec* p, int cell, int* ray) noexcept nogil:
    cdef int i
    for i in range(p.t.n_slide_vecs):
        ray[i] = ray_end(p, cell, p.t.slide_vecs[i])


cdef inline void open_xrays(const PosRec* p, int c, int* ray) noexcept nogil:
    """The piece on c left the exchange: a ray that ended on it now runs on behind it."""
    cdef int i
    for i in range(p.t.n_slide_vecs):
        if ray[i] == c:
            ray[i] = ray_end(p, c, p.t.slide_vecs[i])


cdef int exchange_start(PosRec* p, move_t m, int* removed, piece_t* removed_pc) noexcept nogil:
    """Play the capture m on the board for an exchange: the mover (and an en passant
    victim) off, the target holding the capturer (the promoted piece for a promotion).
    Returns how many cells ``removed`` saves for exchange_undo."""
    cdef const TablesRec* t = p.t
    cdef int frm = move_from(m), to = move_to(m), nrem = 1, victim_cell = to
    cdef piece_t on_to = p.board[frm]
    if move_kind(m) == KIND_EP:
        victim_cell = t.nxt[to][t.opp[t.pawn_push[p.side]]]
    if move_kind(m) == KIND_PROMO:
        on_to = move_extra(m) | colour_bit(p.side)
    removed[0] = frm
    removed_pc[0] = p.board[frm]
    p.board[frm] = 0
    if victim_cell != to:
        removed[nrem] = victim_cell
        removed_pc[nrem] = p.board[victim_cell]
        nrem += 1
        p.board[victim_cell] = 0
    removed[nrem] = to
    removed_pc[nrem] = p.board[to]
    p.board[to] = on_to
    return nrem + 1


cdef inline void exchange_undo(PosRec* p, const int* removed, const piece_t* removed_pc,
                               int nrem) noexcept nogil:
    while nrem > 0:
        nrem -= 1
        p.board[removed[nrem]] = removed_pc[nrem]


cdef int move_gain(const PosRec* p, const EvalRec* e, move_t m, int* victim) noexcept nogil:
    """What the move itself wins: its victim (whose value goes to *victim) and a
    promotion's gain."""
    cdef const TablesRec* t = p.t
    cdef int kind = move_kind(m)
    cdef piece_t on_to = p.board[move_to(m)]
    victim[0] = 0
    if kind == KIND_EP:
        victim[0] = e.value[t.pawn_type]
    elif on_to:
        victim[0] = piece_value(e, t, on_to)
    if kind == KIND_PROMO:
        return victim[0] + e.value[move_extra(m)] - e.value[t.pawn_type]
    return victim[0]


# Each step of an exchange takes a piece off the board for good, so there are at most
# 2 * MAX_PIECES of them, and as many removals plus the mover, an en passant victim and
# the target's first occupant.
cdef enum:
    EXCHANGE_CELLS = 2 * MAX_PIECES + 3


cdef int see(PosRec* p, const EvalRec* e, move_t m) noexcept nogil:
    """Static exchange evaluation of a capture: material won (negative: lost) when both
    sides keep recapturing on the target with their cheapest piece (x-rays included)."""
    cdef int to = move_to(m), victim
    cdef int gain[2 * MAX_PIECES + 1]
    cdef int removed[EXCHANGE_CELLS]
    cdef piece_t removed_pc[EXCHANGE_CELLS]
    cdef int ray[MAX_VECTORS]
    cdef int nrem, d = 0, side, c
    if move_kind(m) == KIND_CASTLE:
        return 0
    gain[0] = move_gain(p, e, m, &victim)
    nrem = exchange_start(p, m, removed, removed_pc)
    fill_rays(p, to, ray)
    side = p.side ^ 1
    while True:
        c = least_attacker(p, e, to, side, ray)
        if c < 0:
            break
        d += 1
        gain[d] = piece_value(e, p.t, p.board[to]) - gain[d - 1]
        removed[nrem] = c
        removed_pc[nrem] = p.board[c]
        nrem += 1
        p.board[to] = p.board[c]
        p.board[c] = 0
        open_xrays(p, c, ray)
        side ^= 1
    exchange_undo(p, removed, removed_pc, nrem)
    while d > 0:                        # each side may stop recapturing when it pays
        if gain[d] > -gain[d - 1]:
            gain[d - 1] = -gain[d]
        d -= 1
    return gain[0]


cdef bint see_below(PosRec* p, const EvalRec* e, move_t m, int threshold) noexcept nogil:
    """Whether see(m) < threshold, exchanging only as far as the answer is open.

    First the bounds: SEE is at most what the move itself wins and at least that less the
    piece now on the target, all the opponent can take back. Then Stockfish's swap test:
    ``swap`` is what the side that just captured stands to lose against the threshold;
    ``res`` (1: SEE >= threshold) flips with each recapture, and the exchange stops as
    soon as a side cannot gain by going on. Slide rays are walked only when a slider
    could be the cheapest attacker that matters (pawns and leapers are looked at first)."""
    cdef int to = move_to(m), victim, won, swap, res = 1, side, c, s, val
    cdef int removed[EXCHANGE_CELLS]
    cdef piece_t removed_pc[EXCHANGE_CELLS]
    cdef int ray[MAX_VECTORS]
    cdef int nrem
    cdef bint rays = False
    if move_kind(m) == KIND_CASTLE:
        return 0 < threshold
    won = move_gain(p, e, m, &victim)
    if won < threshold:
        return True
    if victim - piece_value(e, p.t, p.board[move_from(m)]) >= threshold:
        return False
    nrem = exchange_start(p, m, removed, removed_pc)
    swap = piece_value(e, p.t, p.board[to]) - (won - threshold)
    side = p.side
    while True:
        side ^= 1
        c = pawn_attacker(p, to, side)
        if c != NO_CELL:
            val = piece_value(e, p.t, p.board[c])
        else:
            c = cheapest_leaper(p, e, to, side, &val)
            if c < 0 or val - swap >= (res ^ 1):
                # a cheaper slider could change the answer (with this leaper it stops)
                if not rays:
                    fill_rays(p, to, ray)
                    rays = True
                s = cheaper_slider(p, e, side, ray, &val)
                if s >= 0:
                    c = s
            if c < 0:
                break
        res ^= 1
        swap = val - swap
        if swap < res:
            break
        removed[nrem] = c
        removed_pc[nrem] = p.board[c]
        nrem += 1
        p.board[c] = 0
        if rays:
            open_xrays(p, c, ray)
    exchange_undo(p, removed, removed_pc, nrem)
    return not res


# -- static evaluation, cached by key -------------------------------------------------------
cdef inline int static_eval_of(SearchRec* s) noexcept nogil:
    """evaluate() of the current position, from the cache when it holds the key: searches
    meet the same position by transposition, and quiescence re-reads what search stored."""
    cdef EvalSlot* slot = &s.ecache[s.pos.key & (EVAL_CACHE - 1)]
    if slot.key != s.pos.key:
        slot.key = s.pos.key
        slot.score = evaluate(s.pos, s.ev)
    return slot.score


# -- move ordering (is_noisy, mvv_lva, best_from, bring: searchkit.pxd) -------------------
cdef void score_moves(SearchRec* s, move_t* moves, int* scores, int n, move_t tt_move,
                      int ply) noexcept nogil:
    cdef PosRec* p = s.pos
    cdef const EvalRec* e = s.ev
    cdef int i
    cdef move_t m
    for i in range(n):
        m = moves[i]
        if m == tt_move:
            scores[i] = TT_MOVE_SCORE
        elif is_noisy(p, m):
            scores[i] = GOOD_CAPTURE + mvv_lva(p, e, m)     # until pick_move looks at SEE
        elif m == s.killers[ply][0]:
            scores[i] = KILLER_1
        elif m == s.killers[ply][1]:
            scores[i] = KILLER_2
        else:
            scores[i] = s.history[p.side][move_from(m)][move_to(m)]


cdef inline move_t pick_move(PosRec* p, const EvalRec* e, move_t* moves, int* scores, int n,
                             int i) noexcept nogil:
    """pick() with each noisy move's SEE looked at only when it would be picked: one that
    loses material drops to the bad captures and the pick goes on. A cut-off usually
    comes before most captures are reached, and the order is the one the SEE of every
    capture up front would give (unchecked scores are never below their final ones)."""
    cdef int best
    while True:
        best = best_from(scores, n, i)
        if scores[best] <= KILLER_1 or scores[best] >= TT_MOVE_SCORE \
                or not see_below(p, e, moves[best], 0):
            return bring(moves, scores, i, best)
        scores[best] += BAD_CAPTURE - GOOD_CAPTURE


# -- mate scores in the table -------------------------------------------------------------
cdef inline int score_to_tt(int score, int ply) noexcept nogil:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


cdef inline int score_from_tt(int score, int ply) noexcept nogil:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


cdef inline bint has_pieces(const PosRec* p, int side) noexcept nogil:
    """Whether the side has material besides pawns and its royal piece (null-move safety)."""
    cdef int pawns = p.counts[p.t.pawn_type | colour_bit(side)] if p.t.pawn_type else 0
    cdef int royal = 1 if p.king[side] != NO_CELL else 0
    return p.pcount[side] - pawns - royal > 0


cdef inline bint rule_draw_pending(SearchRec* s) noexcept nogil:
    """The n-move rule or bare kings would draw here, unless the side to move is mated or
    stalemated, which the rules (Board.outcome) let take precedence."""
    cdef PosRec* p = s.pos
    if s.n_move_rule and p.halfmove >= s.n_move_rule:
        return True
    return p.pcount[0] == 1 and p.pcount[1] == 1 and p.king[0] != NO_CELL and p.king[1] != NO_CELL


cdef inline int no_move_score(SearchRec* s, bint in_check, int ply) noexcept nogil:
    """Score of a position without moves: mated, or stalemated (variant's value)."""
    if in_check:
        return -MATE + ply
    return s.ev.stalemate_cp if s.checks else 0


# -- quiescence ---------------------------------------------------------------------------
cdef int qsearch(SearchRec* s, int alpha, int beta, int ply, bint in_check) noexcept nogil:
    """in_check: the side to move is in check (the caller tested it after its move)."""
    cdef PosRec* p = s.pos
    cdef move_t moves[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef int n, i, score, best, stand, tts, orig_alpha = alpha
    cdef bint pv_node = beta - alpha > 1
    cdef move_t m, tt_move = 0, best_move = 0
    cdef TTEntry* tte
    if enter_node(&s.lim, ply):
        return 0
    if not s.checks and p.t.royal_type and p.king[p.side] == NO_CELL:
        return -MATE + ply
    if ply >= MAX_PLY - 1:
        return evaluate(p, s.ev)
    tte = tt_probe(s.tt, p.key)
    if tte != NULL:
        tt_move = tte.move
        tts = score_from_tt(tte.score, ply)
        if not pv_node and bound_cuts(tte.flags & 3, tts, alpha, beta):
            return tts
    if in_check:
        best = -INF
        n = generate_moves(p, moves)
        if n == 0:
            return -MATE + ply
    else:
        stand = static_eval_of(s)
        if stand >= beta:
            if tte == NULL:
                tt_store(s.tt, p.key, 0, score_to_tt(stand, ply), 0, BOUND_LOWER)
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        n = generate_noisy(p, moves)
    score_moves(s, moves, scores, n, tt_move, ply)
    for i in range(n):
        m = pick_move(p, s.ev, moves, scores, n, i)
        if not in_check and scores[i] < GOOD_CAPTURE:
            break                       # the rest lose material by SEE
        pos_make(p, m)
        tt_prefetch(s.tt, p.key)
        score = -qsearch(s, -beta, -alpha, ply + 1, s.checks and pos_in_check(p))
        pos_unmake(p)
        if s.lim.stop:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = m
                if score >= beta:
                    break
    tt_store(s.tt, p.key, best_move, score_to_tt(best, ply), 0, bound_of(best, orig_alpha, beta))
    return best


# -- main search ----------------------------------------------------------------------------
cdef int search(SearchRec* s, int alpha, int beta, int depth, int ply, bint null_ok,
               bint in_check) noexcept nogil:
    """in_check: the side to move is in check (the caller tested it after its move)."""
    cdef PosRec* p = s.pos
    cdef move_t moves[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef move_t quiets[64]
    cdef int nquiets = 0
    cdef int n, i, j, score, best, static_eval = 0, r, new_depth, searched = 0
    cdef int orig_alpha = alpha, tt_depth = 0, tt_bound = 0, ext, singular_beta
    cdef bint pv_node = beta - alpha > 1, gives_check, noisy
    cdef move_t m, q, best_move = 0, tt_move = 0, excluded = s.excluded[ply]
    cdef TTEntry* tte
    cdef int tts = 0

    s.pv_len[ply] = ply
    if ply > 0:
        if p.halfmove >= 4 and pos_repetitions(p) > 0:
            return 0
        if not s.checks and p.t.royal_type and p.king[p.side] == NO_CELL:
            return -MATE + ply
        if rule_draw_pending(s):
            if generate_moves(p, moves) == 0:
                return no_move_score(s, in_check, ply)
            return 0
        if alpha < -MATE + ply:
            alpha = -MATE + ply
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            return alpha
    if ply >= MAX_PLY - 2:
        return evaluate(p, s.ev)
    if in_check:
        depth += 1
    if depth <= 0:
        return qsearch(s, alpha, beta, ply, in_check)
    if enter_node(&s.lim, ply):
        return 0

    tte = tt_probe(s.tt, p.key) if not excluded else NULL
    if tte != NULL:
        tt_move = tte.move
        tts = score_from_tt(tte.score, ply)
        tt_depth, tt_bound = tte.depth, tte.flags & 3
        if not pv_node and tte.depth >= depth and bound_cuts(tt_bound, tts, alpha, beta):
            return tts

    if not in_check:
        static_eval = static_eval_of(s)
        # reverse futility: far above beta at low depth
        if not pv_node and not excluded and depth <= 6 and static_eval - 90 * depth >= beta and beta > -MATE_BOUND \
                and beta < MATE_BOUND:
            return static_eval
        # razoring: far below alpha near the leaves, only captures can save the node
        if not pv_node and not excluded and depth <= 2 and static_eval + RAZOR_MARGIN * depth < alpha \
                and alpha > -MATE_BOUND:
            score = qsearch(s, alpha, alpha + 1, ply, False)
            if score <= alpha:
                return score
        # null move: give the opponent a free move; still above beta means a cut-off
        if not pv_node and null_ok and not excluded and depth >= 3 and static_eval >= beta and has_pieces(p, p.side):
            r = 3 + depth // 4
            pos_make_null(p)
            tt_prefetch(s.tt, p.key)
            score = -search(s, -beta, -beta + 1, depth - 1 - r, ply + 1, False,
                            s.checks and pos_in_check(p))
            pos_unmake_null(p)
            if s.lim.stop:
                return 0
            if score >= beta:
                return beta if score > MATE_BOUND else score

    # internal iterative reduction: with no stored move the ordering is a guess; a ply less
    # here costs little, and the move it stores orders the next visit
    if depth >= 4 and tt_move == 0:
        depth -= 1

    n = generate_moves(p, moves)
    if n == 0:
        return no_move_score(s, in_check, ply)
    score_moves(s, moves, scores, n, tt_move, ply)
    best = -INF
    for i in range(n):
        m = pick_move(p, s.ev, moves, scores, n, i)
        if m == excluded:
            continue
        noisy = is_noisy(p, m)
        ext = 0
        if m == tt_move and ply > 0 and depth >= 7 and tt_depth >= depth - 3 \
                and tt_bound != BOUND_UPPER and tts > -MATE_BOUND and tts < MATE_BOUND:
            # singular extension: when every other move falls well short of the stored
            # score at a reduced depth, the stored move is forced and gets a ply more; when
            # even they reach beta, several moves cut and the node is cut (multi-cut)
            singular_beta = tts - 2 * depth
            s.excluded[ply] = m
            score = search(s, singular_beta - 1, singular_beta, (depth - 1) // 2, ply, False,
                           in_check)
            s.excluded[ply] = 0
            s.pv_len[ply] = ply
            if s.lim.stop:
                return 0
            if score < singular_beta:
                ext = 1
            elif singular_beta >= beta:
                return singular_beta
        if not pv_node and not in_check and searched > 0 and not noisy and best > -MATE_BOUND:
            # move-count pruning: late quiet moves at low depth
            if depth <= 4 and searched >= 4 + depth * depth:
                continue
        if not pv_node and not in_check and searched > 0 and best > -MATE_BOUND and depth <= 6:
            # SEE pruning: a move that loses material on its cell by more than the depth
            # can win back (captures a little, quiet moves more with the depth)
            if noisy:
                if scores[i] < GOOD_CAPTURE and see_below(p, s.ev, m, -100 * depth):
                    continue
            elif see_below(p, s.ev, m, -25 * depth * depth):
                continue
        pos_make(p, m)
        tt_prefetch(s.tt, p.key)
        gives_check = s.checks and pos_in_check(p)
        if not pv_node and not in_check and not gives_check and not noisy and searched > 0 \
                and depth <= 3 and best > -MATE_BOUND and static_eval + 120 + 100 * depth <= alpha:
            pos_unmake(p)                 # futility: this quiet move cannot reach alpha
            continue
        new_depth = depth - 1 + ext
        if searched == 0:
            score = -search(s, -beta, -alpha, new_depth, ply + 1, True, gives_check)
        else:
            r = 0
            if depth >= 3 and searched >= 3 and not noisy and not in_check and not gives_check:
                r = s.lmr[depth if depth < 64 else 63][searched if searched < 64 else 63]
                if pv_node:
                    r -= 1
                if m == s.killers[ply][0] or m == s.killers[ply][1]:
                    r -= 1
                r -= s.history[p.side ^ 1][move_from(m)][move_to(m)] // 6000
                if r < 0:
                    r = 0
                if r > new_depth - 1:
                    r = new_depth - 1 if new_depth > 1 else 0
            score = -search(s, -alpha - 1, -alpha, new_depth - r, ply + 1, True, gives_check)
            if score > alpha and r > 0:
                score = -search(s, -alpha - 1, -alpha, new_depth, ply + 1, True, gives_check)
            if score > alpha and score < beta:
                score = -search(s, -beta, -alpha, new_depth, ply + 1, True, gives_check)
        pos_unmake(p)
        if s.lim.stop:
            return 0
        searched += 1
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                best_move = m
                update_pv(s, ply, m)
                if score >= beta:
                    if not noisy:
                        if s.killers[ply][0] != m:
                            s.killers[ply][1] = s.killers[ply][0]
                            s.killers[ply][0] = m
                        history_add(&s.history[p.side][move_from(m)][move_to(m)], depth * depth)
                        for j in range(nquiets):
                            q = quiets[j]
                            history_add(&s.history[p.side][move_from(q)][move_to(q)], -depth * depth)
                    break
        if not noisy and m != best_move and nquiets < 64:
            quiets[nquiets] = m
            nquiets += 1
    if searched == 0:
        return alpha                      # everything pruned: fail low at the bound
    if not excluded:
        tt_store(s.tt, p.key, best_move, score_to_tt(best, ply), depth,
                 bound_of(best, orig_alpha, beta))
    return best


cdef int search_root(SearchRec* s, int alpha, int beta, int depth) noexcept nogil:
    """Search the root moves (skipping excluded ones) in the order of the last iteration."""
    cdef PosRec* p = s.pos
    cdef int i, j, score, best = -INF, searched = 0, r, orig_alpha = alpha
    cdef move_t m
    cdef bint gives_check
    s.pv_len[0] = 0
    s.root_improved = False
    s.lim.seldepth = 0
    for i in range(s.nroot):
        if s.root_skip[i]:
            continue
        m = s.root_moves[i]
        pos_make(p, m)
        s.lim.nodes += 1
        gives_check = s.checks and pos_in_check(p)
        if searched == 0:
            score = -search(s, -beta, -alpha, depth - 1, 1, True, gives_check)
        else:
            r = 1 if depth >= 4 and searched >= 4 and not gives_check and not is_noisy_root(s, m) else 0
            score = -search(s, -alpha - 1, -alpha, depth - 1 - r, 1, True, gives_check)
            if score > alpha and r:
                score = -search(s, -alpha - 1, -alpha, depth - 1, 1, True, gives_check)
            if score > alpha and score < beta:
                score = -search(s, -beta, -alpha, depth - 1, 1, True, gives_check)
        pos_unmake(p)
        if s.lim.stop:
            break
        searched += 1
        if score > best:
            best = score
        if score > alpha:
            alpha = score
            s.best_root = i
            s.root_improved = True
            s.root_order[i] = score
            update_pv(s, 0, m)
            if score >= beta:
                break
        else:
            s.root_order[i] = -INF + 1
    if s.root_improved and not s.lim.stop:
        tt_store(s.tt, p.key, s.root_moves[s.best_root], score_to_tt(best, 0), depth,
                 BOUND_LOWER if best >= beta else BOUND_EXACT)
    return best


cdef bint is_noisy_root(SearchRec* s, move_t m) noexcept nogil:
    """Root moves are tested after make: the target then holds the mover."""
    return move_kind(m) == KIND_EP or move_kind(m) == KIND_PROMO or \
        s.pos.hist[s.pos.ply - 1].captured != 0


cdef class Searcher(SearchLimits):
    """One search: a private copy of the position, the tables it reads, and its limits
    (set_limits, stop, resume, nodes, seldepth: engine.searchkit.SearchLimits).

    The protocol thread may call ``stop()`` at any time; everything else is called by the
    thread that runs the search.
    """
    cdef SearchRec* s
    cdef PosRec* pos
    cdef TranspositionTable tt
    cdef EvalTables ev
    cdef list root_uci
    cdef tuple names
    cdef list letters
    cdef object tables          # the board's tables, which the copied position points into

    def __cinit__(self):
        cdef int d, m
        self.s = <SearchRec*> malloc(sizeof(SearchRec))
        self.pos = <PosRec*> malloc(sizeof(PosRec))
        if self.s == NULL or self.pos == NULL:
            raise MemoryError()
        memset(self.s, 0, sizeof(SearchRec))
        self.lim = &self.s.lim
        for d in range(64):
            for m in range(64):
                self.s.lmr[d][m] = <int> (0.75 + log(d + 1) * log(m + 1) / 2.25) if d and m else 0
        self.root_uci = []

    def __dealloc__(self):
        free(self.s)
        free(self.pos)

    def set_root(self, Board board, EvalTables ev, TranspositionTable tt, searchmoves=None):
        """Copy the board and prepare its legal moves (only ``searchmoves`` if given)."""
        cdef move_t moves[MAX_MOVES]
        cdef int n, i, k = 0
        memcpy(self.pos, board.p, sizeof(PosRec))
        pos_attach_net(self.pos, ev.rec.net)
        self.tables = board._tables
        self.names = board.variant.geometry.names
        self.letters = board.variant.letters
        self.ev = ev
        self.tt = tt
        self.s.pos = self.pos
        self.s.ev = &ev.rec
        memset(self.s.ecache, 0, sizeof(self.s.ecache))
        self.s.tt = &tt.rec
        self.s.checks = self.pos.t.royal_check
        self.s.n_move_rule = board.variant.n_move_rule
        self.s.root_ply = self.pos.ply
        n = generate_moves(self.pos, moves)
        self.root_uci = []
        wanted = None if not searchmoves else {u.lower() for u in searchmoves}
        for i in range(n):
            u = self._uci(moves[i])
            if wanted is not None and u not in wanted:
                continue
            self.s.root_moves[k] = moves[i]
            self.s.root_order[k] = 0
            self.s.root_skip[k] = False
            self.root_uci.append(u)
            k += 1
        self.s.nroot = k
        self.s.best_root = 0
        return list(self.root_uci)

    def new_search(self):
        """Reset counters, killers and limits; keep history (it ages by halving)."""
        limits_reset(&self.s.lim)
        memset(self.s.killers, 0, sizeof(self.s.killers))
        history_age(&self.s.history[0][0][0], sizeof(self.s.history) // sizeof(int))

    def search(self, int depth, int alpha=-INF, int beta=INF) -> int:
        """One iteration at ``depth`` over the root moves, without the GIL."""
        cdef int score
        self._order_root()
        with nogil:
            score = search_root(self.s, alpha, beta, depth)
        return score

    cdef _order_root(self):
        """Stable sort of the root moves by the previous iteration's scores."""
        items = sorted(range(self.s.nroot), key=lambda i: -self.s.root_order[i])
        moves = [self.s.root_moves[i] for i in items]
        order = [self.s.root_order[i] for i in items]
        skip = [self.s.root_skip[i] for i in items]
        self.root_uci = [self.root_uci[i] for i in items]
        best = items.index(self.s.best_root) if self.s.nroot else 0
        for i in range(self.s.nroot):
            self.s.root_moves[i] = moves[i]
            self.s.root_order[i] = order[i]
            self.s.root_skip[i] = skip[i]
        self.s.best_root = best

    def skip(self, str uci, bint on=True):
        """Exclude (or re-include) a root move, for MultiPV."""
        self.s.root_skip[self.root_uci.index(uci)] = on

    def see(self, str uci) -> int:
        """Static exchange value of a root move, in centipawns (tests check it against an
        independent swap list)."""
        return see(self.pos, self.s.ev, self._root_move(uci))

    def see_below(self, str uci, int threshold) -> bool:
        """Whether a root move's static exchange value is below threshold (the search's
        test, with its shortcuts)."""
        return see_below(self.pos, self.s.ev, self._root_move(uci), threshold)

    cdef move_t _root_move(self, str uci):
        return self.s.root_moves[self.root_uci.index(uci)]

    def clear_skips(self):
        for i in range(self.s.nroot):
            self.s.root_skip[i] = False

    @property
    def root_moves(self) -> list:
        return list(self.root_uci)

    @property
    def improved(self) -> bool:
        """Whether the last iteration found a move above its alpha (its PV is usable)."""
        return self.s.root_improved

    def pv(self) -> list:
        """The principal variation of the last iteration, as UCI moves."""
        return [self._uci(self.s.pv[0][i]) for i in range(self.s.pv_len[0])]

    cdef str _uci(self, move_t m):
        return uci_text(self.names, self.letters, self.pos.t, m)

    def static_eval(self) -> int:
        return evaluate(self.pos, self.s.ev)

    def move_values(self) -> list:
        """The quiescence value (full window, side to move's view) after each root move, in
        ``root_moves`` order: what a one-ply player with these tables makes of its choices
        (the adaptive level's model of the opponent, engine/adaptive.py)."""
        cdef int i
        cdef int vals[MAX_MOVES]
        limits_reset(&self.s.lim)
        with nogil:
            for i in range(self.s.nroot):
                pos_make(self.pos, self.s.root_moves[i])
                vals[i] = -qsearch(self.s, -INF, INF, 1, self.s.checks and pos_in_check(self.pos))
                pos_unmake(self.pos)
        return [vals[i] for i in range(self.s.nroot)]
