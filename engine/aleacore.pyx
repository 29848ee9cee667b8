"""Alea expectimax in C, without the GIL: the hot part of engine/aleasearch.py.

The tree (docs/architecture.md, "Alea engine"):

* A **decision node** is a side to move that knows its dice. Its actions are the ordinary
  moves the dice allow (engine/alea.py's rules, re-stated here over PosRec: pawns, the
  king's step, the A15 follow-up, the free phase, A13's last resort), the castle joker,
  and, inside the tree, free-move jokers on captures and on moves of attacked pieces (a
  joker anywhere else is never worth its price at these depths). Decision nodes are
  alpha-beta (negamax).
* A **chance node** is a side about to receive dice: its value is the probability-weighted
  value of the decision nodes for every dice pair A8 can show (the exact distribution,
  ``engine.alea.dice_distribution_for``, tabulated per set of playable types). A promotion
  is a chance node over the promotion die (A11). Both are cut with Star1 (Ballard's
  *-minimax): every value lies in [-BOUND, BOUND], so after some children the remaining
  ones can only move the node inside known limits, and a child's window is narrowed to
  what could still matter.
* A **ply** is one action; chance nodes cost no depth. At depth 0 the side to move (at a
  chance node: for every dice pair) chooses between its static value and the captures its
  dice allow (every answer in check); each capture is resolved by a plain chess
  quiescence (captures, SEE-pruned, no dice: the reply is assumed possible) computed
  once and shared by all the dice pairs that allow it. A joker capture counts too, at the
  joker's price.
* Values: centipawns from the side to move's view, the chess evaluation clipped to
  +-EVAL_CLIP plus what the jokers left are worth (``joker_cp`` per free-move joker and so
  on, the side's minus the opponent's), so spending a joker costs exactly that. Mate is
  -(BOUND - ply) for the mated side, repetition, fifty moves and dead material 0.
* The transposition table is keyed on the Zobrist key of the board xor keys of the Alea
  fields (moves made in the free phase, last type, jokers, rerolls, castle jokers, the
  follow-up rook) and of the dice shown (decision) or of "dice to come" (chance).
"""
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memcpy, memset
from libc.stdint cimport uint64_t
from engine.types cimport piece_t, NO_CELL, KIND_CASTLE, KIND_PROMO, move_from, \
    move_to, move_kind, move_extra, make_move_code, type_of, MAX_MOVES
from engine.position cimport pos_make, pos_unmake, pos_in_check, pos_repetitions, \
    pos_attacked, pos_attach_net
from engine.movegen cimport generate_moves, generate_noisy
from engine.evaluate cimport evaluate, EvalTables
from engine.search cimport see_below
from engine.board cimport Board
from engine.tt cimport BOUND_LOWER, BOUND_UPPER
from engine.searchkit cimport SearchLimits, limits_reset, enter_node, is_noisy, mvv_lva, pick, \
    history_add, history_age, bound_of, bound_cuts

cdef enum:
    ACT_MOVE = 0
    ACT_JOKER = 1
    ACT_CASTLE = 2
    ACT_SHIFT = 22          # decide's actions: move code (bits 0..21) | ACT_* << ACT_SHIFT
    MOVE_MASK = (1 << ACT_SHIFT) - 1
    ORDER_TT = 100000000
    ORDER_NOISY = 10000000
    ORDER_CASTLE = 5000000
    ORDER_JOKER = -5000000

DEF_TT_BITS = 19
KINDS = "nbrqkp"            # KN..KP as letters (the die types first, in dice order)


cdef inline int kind_at(const CoreRec* c, int cell) noexcept nogil:
    return c.kind_of[type_of(c.pos.board[cell])]


# -- keys and the table -----------------------------------------------------------------
cdef key_t alea_key(const CoreRec* c, const AleaRec* a) noexcept nogil:
    cdef key_t k = 0
    cdef int s
    for s in range(2):
        k ^= c.z_moves[s][a.moves[s]]
        k ^= c.z_last[s][a.last[s] + 1]
        k ^= c.z_jokers[s][a.jokers[s] & 15]
        k ^= c.z_rerolls[s][a.rerolls[s] & 15]
        k ^= c.z_castle[s][a.castle[s] & 3]
        if a.follow_rook[s] >= 0:
            k ^= c.z_follow[s][a.follow_rook[s]]
    return k


cdef inline ATTEntry* tt_probe(CoreRec* c, key_t key) noexcept nogil:
    cdef ATTEntry* e = &c.tt[key & c.tt_mask]
    return e if e.key == key and e.bound else NULL


cdef inline void tt_store(CoreRec* c, key_t key, double value, move_t move, int depth,
                          int bound) noexcept nogil:
    cdef ATTEntry* e = &c.tt[key & c.tt_mask]
    if e.key == key and e.depth > depth and e.bound:
        return                          # keep the deeper result of this node
    e.key = key
    e.value = <float> value
    e.move = move
    e.depth = depth if depth < 127 else 127
    e.bound = bound


# -- evaluation ---------------------------------------------------------------------------
cdef inline int castle_alive(const CoreRec* c, const AleaRec* a, int side) noexcept nogil:
    return 1 if a.castle[side] > 0 and (c.pos.castling & c.castle_rights[side]) else 0


cdef int leaf_eval(const CoreRec* c, const AleaRec* a) noexcept nogil:
    """The chess evaluation plus the jokers' worth, side to move's view, clipped."""
    cdef int s = c.pos.side, o = c.pos.side ^ 1
    cdef int v = evaluate(c.pos, c.ev)
    v += c.joker_cp * (a.jokers[s] - a.jokers[o]) + c.reroll_cp * (a.rerolls[s] - a.rerolls[o])
    v += c.castle_cp * (castle_alive(c, a, s) - castle_alive(c, a, o))
    if v > EVAL_CLIP:
        return EVAL_CLIP
    if v < -EVAL_CLIP:
        return -EVAL_CLIP
    return v


cdef bint dead_material(const CoreRec* c) noexcept nogil:
    """A3: K v K, K+N v K, K+B v K."""
    cdef const PosRec* p = c.pos
    cdef int side, i, k, extra = 0
    if p.pcount[0] + p.pcount[1] > 3:
        return False
    for side in range(2):
        for i in range(p.pcount[side]):
            k = kind_at(c, p.plist[side][i])
            if k == KK:
                continue
            if k != KN and k != KB:
                return False
            extra += 1
    return extra <= 1


# -- the rules of engine/alea.py over PosRec -------------------------------------------------
cdef int legal_moves(CoreRec* c, move_t* out) noexcept nogil:
    """Chess-legal moves, a promotion once (its queen code stands for the die's piece)."""
    cdef int n = generate_moves(c.pos, out), i, k = 0
    for i in range(n):
        if move_kind(out[i]) == KIND_PROMO and move_extra(out[i]) != c.queen_type:
            continue
        out[k] = out[i]
        k += 1
    return k


cdef int playable(const CoreRec* c, const AleaRec* a, const move_t* moves, int n,
                  bint in_check) noexcept nogil:
    """A8: the die kinds (bit mask) with a legal move, the one on cooldown removed unless
    in check (A9, A10)."""
    cdef int mask = 0, i, k, last = a.last[c.pos.side]
    for i in range(n):
        if move_kind(moves[i]) == KIND_CASTLE:
            continue
        k = kind_at(c, move_from(moves[i]))
        if k < KK:
            mask |= 1 << k
    if not in_check and 0 <= last < KK:
        mask &= ~(1 << last)
    return mask


cdef int ordinary(const CoreRec* c, const AleaRec* a, const move_t* moves, int n, int dice,
                  bint in_check, uint8_t* flags) noexcept nogil:
    """engine.alea.ordinary_moves: flags[i] = 1 for the moves allowed without a joker when
    ``dice`` (a kind mask, 0: none shown) are shown; returns how many."""
    cdef const PosRec* p = c.pos
    cdef int side = p.side, count = 0, i, k, frm, allowed = dice, others
    cdef bint free = a.moves[side] < FREE_MOVES, king_all
    cdef move_t m
    if not free and not in_check and 0 <= a.last[side] < KK:
        allowed &= ~(1 << a.last[side])                         # A9 (A10 lifts it)
    for i in range(n):
        m = moves[i]
        flags[i] = 0
        if move_kind(m) == KIND_CASTLE:
            continue
        k = kind_at(c, move_from(m))
        if k != KK and (free or k == KP or (allowed >> k) & 1):   # A5, A7
            flags[i] = 1
            count += 1
    others = count
    if free:
        king_all = in_check or others == 0                      # A10, A13
    else:
        king_all = in_check or a.last[side] != KK or p.pcount[side ^ 1] == 1 or others == 0
    for i in range(n):
        m = moves[i]
        if move_kind(m) == KIND_CASTLE or kind_at(c, move_from(m)) != KK:
            continue
        if king_all or (not free and p.board[move_to(m)] != 0):  # A12 capture
            flags[i] = 1
            count += 1
    if a.follow_king[side] >= 0:                                # A15 follow-up
        for i in range(n):
            m = moves[i]
            frm = move_from(m)
            if flags[i] or move_kind(m) == KIND_CASTLE:
                continue
            if frm == a.follow_king[side] or (frm == a.follow_rook[side]
                                               and kind_at(c, frm) == KR):
                flags[i] = 1
                count += 1
    if count == 0:                                              # A13, decision 3
        for i in range(n):
            if move_kind(moves[i]) != KIND_CASTLE:
                flags[i] = 1
                count += 1
    return count


cdef void make_child(const CoreRec* c, const AleaRec* a, move_t m, int act,
                     AleaRec* child) noexcept nogil:
    """The Alea fields after ``m`` (before it is made on the board), as alea.apply."""
    cdef int side = c.pos.side, k = kind_at(c, move_from(m))
    child[0] = a[0]
    if child.moves[side] < FREE_MOVES:
        child.moves[side] += 1
    child.last[side] = KNONE if k == KP else k
    if act == ACT_JOKER:
        child.jokers[side] -= 1
    if act == ACT_CASTLE:
        child.castle[side] -= 1
        child.follow_rook[side] = c.pos.t.castling[move_extra(m)].rook_to
        child.follow_king[side] = move_to(m)
    else:
        child.follow_rook[side] = -1
        child.follow_king[side] = -1


# -- quiescence ------------------------------------------------------------------------------
cdef int qsearch(CoreRec* c, const AleaRec* a, int alpha, int beta, int ply) noexcept nogil:
    """Plain chess quiescence (no dice): captures and queen promotions with SEE >= 0,
    every answer in check."""
    cdef PosRec* p = c.pos
    cdef move_t moves[MAX_MOVES]
    cdef int scores[MAX_MOVES]
    cdef int n, i, k = 0, score, best, stand
    cdef bint in_check
    cdef move_t m
    if enter_node(&c.lim, ply):
        return 0
    if ply >= MAX_QPLY:
        return leaf_eval(c, a)
    if p.pcount[0] + p.pcount[1] <= 3 and dead_material(c):
        return 0
    in_check = pos_in_check(p)
    if in_check:
        n = generate_moves(p, moves)
        if n == 0:
            return -(BOUND - ply)
        best = -BOUND - 1
    else:
        stand = leaf_eval(c, a)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        n = generate_noisy(p, moves)
    for i in range(n):
        m = moves[i]
        if move_kind(m) == KIND_PROMO and move_extra(m) != c.queen_type:
            continue
        if in_check:
            scores[k] = mvv_lva(p, c.ev, m) if is_noisy(p, m) else 0
        else:
            if see_below(p, c.ev, m, 0):
                continue
            scores[k] = mvv_lva(p, c.ev, m)
        moves[k] = m
        k += 1
    for i in range(k):
        m = pick(moves, scores, k, i)
        pos_make(p, m)
        score = -qsearch(c, a, -beta, -alpha, ply + 1)
        pos_unmake(p)
        if c.lim.stop:
            return 0
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    return best


cdef double quiet_value(CoreRec* c, const AleaRec* a, move_t m, int ply) noexcept nogil:
    """Value of ``m`` for its mover followed by plain quiescence; a promotion weighs the
    promotion die's pieces."""
    cdef PosRec* p = c.pos
    cdef double v = 0.0
    cdef int k
    if move_kind(m) != KIND_PROMO:
        pos_make(p, m)
        v = -qsearch(c, a, -BOUND - 1, BOUND + 1, ply + 1)
        pos_unmake(p)
        return v
    for k in range(4):
        pos_make(p, make_move_code(move_from(m), move_to(m), c.promo_type[k], KIND_PROMO))
        v += c.promo_p[k] * -qsearch(c, a, -BOUND - 1, BOUND + 1, ply + 1)
        pos_unmake(p)
    return v


cdef double leaf(CoreRec* c, const AleaRec* a, const move_t* moves, int n, bint in_check,
                 int ply, const int* dice, const double* prob, int nout) noexcept nogil:
    """Depth 0: over the dice outcomes, the best of standing pat (not in check) and the
    captures each outcome allows (in check: every answer it allows); each capture is
    resolved once. A joker capture is allowed at the joker's price."""
    cdef const PosRec* p = c.pos
    cdef int cand[MAX_MOVES]
    cdef double val[MAX_MOVES]
    cdef uint8_t flags[MAX_MOVES]
    cdef int nc = 0, i, j, side = c.pos.side
    cdef double stand, best, total = 0.0
    cdef bint joker = a.moves[side] >= FREE_MOVES and a.jokers[side] > 0
    cdef move_t m
    if enter_node(&c.lim, ply):
        return 0.0
    stand = -BOUND - 1.0 if in_check else <double> leaf_eval(c, a)
    for i in range(n):
        m = moves[i]
        if move_kind(m) == KIND_CASTLE:
            continue
        if in_check or (is_noisy(p, m) and not see_below(c.pos, c.ev, m, 0)):
            cand[nc] = i
            nc += 1
    for i in range(nc):
        val[i] = quiet_value(c, a, moves[cand[i]], ply)
        if c.lim.stop:
            return 0.0
    for j in range(nout):
        ordinary(c, a, moves, n, dice[j], in_check, flags)
        best = stand
        for i in range(nc):
            if flags[cand[i]]:
                if val[i] > best:
                    best = val[i]
            elif joker and val[i] - c.joker_cp > best:
                best = val[i] - c.joker_cp
        if best < -BOUND:
            best = -BOUND
        total += prob[j] * best
    return total


# -- decision and chance nodes -----------------------------------------------------------------
cdef double after_action(CoreRec* c, const AleaRec* child, move_t m, int depth, double alpha,
                         double beta, int ply) noexcept nogil:
    """Value of ``m`` for its mover: the move (a promotion: the promotion die, a chance
    node), then the opponent's dice (a chance node) at depth - 1."""
    cdef PosRec* p = c.pos
    cdef double v, total = 0.0, rem = 1.0, pk, lo, hi
    cdef int k
    if move_kind(m) != KIND_PROMO:
        pos_make(p, m)
        v = -chance(c, child, depth - 1, -beta, -alpha, ply + 1)
        pos_unmake(p)
        return v
    for k in range(4):                  # A11: Star1 over the promotion die
        pk = c.promo_p[k]
        if pk <= 0.0:
            continue
        rem -= pk
        if rem < 1e-12:
            rem = 0.0
        lo = (alpha - total - BOUND * rem) / pk
        hi = (beta - total + BOUND * rem) / pk
        if lo >= BOUND:
            return total + pk * BOUND + BOUND * rem
        if hi <= -BOUND:
            return total - pk * BOUND - BOUND * rem
        pos_make(p, make_move_code(move_from(m), move_to(m), c.promo_type[k], KIND_PROMO))
        v = -chance(c, child, depth - 1, -(hi if hi < BOUND else BOUND),
                    -(lo if lo > -BOUND else -BOUND), ply + 1)
        pos_unmake(p)
        if c.lim.stop:
            return 0.0
        if v <= lo:
            return total + pk * v + BOUND * rem
        if v >= hi:
            return total + pk * v - BOUND * rem
        total += pk * v
    return total


cdef double decide(CoreRec* c, const AleaRec* a, int depth, double alpha, double beta, int ply,
                   int dice, const move_t* moves, int n, bint in_check,
                   bint probe=False) noexcept nogil:
    """A side to move that knows its dice (``dice``: kind mask, 0 none): alpha-beta over
    its actions. ``moves`` are the position's legal moves (n > 0). ``probe``: search only
    the first action in move order (Star2): a lower bound on the node's value, unless it
    is at or below alpha."""
    cdef PosRec* p = c.pos
    cdef uint8_t flags[MAX_MOVES]
    cdef move_t acts[MAX_ACTIONS]       # move code | action kind << ACT_SHIFT
    cdef int order[MAX_ACTIONS]
    cdef int na = 0, i, side = p.side, act
    cdef double best = -BOUND - 1.0, v, orig_alpha = alpha, one = 1.0
    cdef bint free = a.moves[side] < FREE_MOVES, joker_ok
    cdef key_t key
    cdef ATTEntry* e
    cdef move_t tt_move = 0, best_move = 0, m
    cdef AleaRec child
    if depth <= 0:
        return leaf(c, a, moves, n, in_check, ply, &dice, &one, 1)
    if enter_node(&c.lim, ply):
        return 0.0
    key = p.key ^ alea_key(c, a) ^ c.z_dice[dice]
    e = tt_probe(c, key)
    if e != NULL:
        tt_move = e.move
        if e.depth >= depth and bound_cuts(e.bound, e.value, alpha, beta):
            return e.value
    ordinary(c, a, moves, n, dice, in_check, flags)
    joker_ok = c.in_tree_jokers and not free and a.jokers[side] > 0
    for i in range(n):
        m = moves[i]
        if flags[i]:
            act = ACT_MOVE
        elif move_kind(m) == KIND_CASTLE:
            if a.castle[side] <= 0:
                continue
            act = ACT_CASTLE
        elif joker_ok and (is_noisy(p, m) or pos_attacked(p, move_from(m), side ^ 1)):
            act = ACT_JOKER
        else:
            continue
        acts[na] = m | (act << ACT_SHIFT)
        if m == tt_move and act != ACT_JOKER:
            order[na] = ORDER_TT
        elif is_noisy(p, m):
            order[na] = ORDER_NOISY + mvv_lva(p, c.ev, m)
        elif act == ACT_CASTLE:
            order[na] = ORDER_CASTLE
        else:
            order[na] = c.history[side][move_from(m)][move_to(m)]
        if act == ACT_JOKER:
            order[na] += ORDER_JOKER
        na += 1
    for i in range(na):
        m = pick(acts, order, na, i)
        act = m >> ACT_SHIFT
        m &= MOVE_MASK
        make_child(c, a, m, act, &child)
        v = after_action(c, &child, m, depth, alpha, beta, ply)
        if c.lim.stop:
            return 0.0
        if probe:
            return v
        if v > best:
            best = v
            best_move = m
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    if not is_noisy(p, m):
                        history_add(&c.history[side][move_from(m)][move_to(m)], depth * depth)
                    break
    if na == 0:                         # cannot happen (ordinary() never leaves none)
        return leaf(c, a, moves, n, in_check, ply, &dice, &one, 1)
    tt_store(c, key, best, best_move, depth, bound_of(best, orig_alpha, beta))
    return best


cdef double chance(CoreRec* c, const AleaRec* a, int depth, double alpha, double beta,
                   int ply) noexcept nogil:
    """A side about to receive its dice: the game end, then the dice outcomes (Star1)."""
    cdef PosRec* p = c.pos
    cdef move_t moves[MAX_MOVES]
    cdef int n, side = p.side, mask = 0, j, nout
    cdef bint in_check
    cdef double total = 0.0, rem = 1.0, pj, lo, hi, v, orig_alpha = alpha, rest = 0.0
    cdef double lower[MAX_OUTCOMES]
    cdef key_t key
    cdef ATTEntry* e
    if enter_node(&c.lim, ply):
        return 0.0
    n = legal_moves(c, moves)
    in_check = pos_in_check(p)
    if n == 0:
        return -(BOUND - ply) if in_check else 0.0
    if ply > 0 and (p.halfmove >= 100 or (p.halfmove >= 4 and pos_repetitions(p) > 0)
                    or dead_material(c)):
        return 0.0
    if ply >= MAX_QPLY:
        return leaf_eval(c, a)
    if a.moves[side] >= FREE_MOVES:
        mask = playable(c, a, moves, n, in_check)
    if mask == 0 or c.ndist[mask] == 1:
        return decide(c, a, depth, alpha, beta, ply, c.dist_mask[mask][0] if mask else 0,
                      moves, n, in_check)
    nout = c.ndist[mask]
    if depth <= 0:
        return leaf(c, a, moves, n, in_check, ply, c.dist_mask[mask], c.dist_p[mask], nout)
    key = p.key ^ alea_key(c, a) ^ c.z_chance
    e = tt_probe(c, key)
    if e != NULL and e.depth >= depth and bound_cuts(e.bound, e.value, alpha, beta):
        return e.value
    # Star2 probing: the first action of every outcome gives a lower bound on it; their
    # weighted sum may already reach beta, and else they narrow the upper windows below.
    for j in range(nout):
        lower[j] = decide(c, a, depth, -BOUND, BOUND, ply, c.dist_mask[mask][j], moves, n,
                          in_check, True)
        if c.lim.stop:
            return 0.0
        if lower[j] < -BOUND:
            lower[j] = -BOUND
        rest += c.dist_p[mask][j] * lower[j]
    if rest >= beta:
        tt_store(c, key, rest, 0, depth, BOUND_LOWER)
        return rest
    for j in range(nout):
        pj = c.dist_p[mask][j]
        rem -= pj
        if rem < 1e-12:
            rem = 0.0
        rest -= pj * lower[j]                       # lower bounds of the outcomes after j
        lo = (alpha - total - BOUND * rem) / pj     # a child at or below lo: node <= alpha
        hi = (beta - total - rest) / pj             # at or above hi: node >= beta
        if lo >= BOUND:
            v = total + pj * BOUND + BOUND * rem
            tt_store(c, key, v, 0, depth, BOUND_UPPER)
            return v
        if hi <= lower[j]:
            v = total + pj * lower[j] + rest
            tt_store(c, key, v, 0, depth, BOUND_LOWER)
            return v
        v = decide(c, a, depth, lo if lo > -BOUND else -BOUND, hi if hi < BOUND else BOUND,
                   ply, c.dist_mask[mask][j], moves, n, in_check)
        if c.lim.stop:
            return 0.0
        if v <= lo:
            v = total + pj * v + BOUND * rem
            tt_store(c, key, v, 0, depth, BOUND_UPPER)
            return v
        if v >= hi:
            v = total + pj * v + rest
            tt_store(c, key, v, 0, depth, BOUND_LOWER)
            return v
        total += pj * v
    tt_store(c, key, total, 0, depth, bound_of(total, orig_alpha, beta))
    return total


# -- the Python face ----------------------------------------------------------------------------
cdef uint64_t splitmix(uint64_t* state) noexcept nogil:
    cdef uint64_t z
    state[0] += <uint64_t> 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t> 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t> 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef class AleaCore(SearchLimits):
    """The C side of one Alea search: a private copy of the root position and its Alea
    fields, the table (kept between searches until ``clear_hash``) and the limits
    (set_limits, stop, resume, nodes, seldepth: engine.searchkit.SearchLimits).

    ``stop()`` may be called from any thread; everything else by the searching thread.
    Values are centipawns for the side to move at the root, within [-BOUND, BOUND].
    """
    cdef CoreRec* c
    cdef PosRec* pos
    cdef AleaRec root
    cdef int root_dice
    cdef EvalTables ev
    cdef object geometry

    def __cinit__(self, int tt_bits=DEF_TT_BITS):
        cdef uint64_t seed = 0x5EED_A1EA
        cdef int s, i
        self.c = <CoreRec*> calloc(1, sizeof(CoreRec))
        self.pos = <PosRec*> malloc(sizeof(PosRec))
        if self.c == NULL or self.pos == NULL:
            raise MemoryError()
        self.c.tt = <ATTEntry*> calloc((<uint64_t> 1) << tt_bits, sizeof(ATTEntry))
        if self.c.tt == NULL:
            raise MemoryError()
        self.c.tt_mask = ((<uint64_t> 1) << tt_bits) - 1
        for s in range(2):
            for i in range(FREE_MOVES + 1):
                self.c.z_moves[s][i] = splitmix(&seed)
            for i in range(NKINDS):
                self.c.z_last[s][i] = splitmix(&seed)
            for i in range(16):
                self.c.z_jokers[s][i] = splitmix(&seed)
                self.c.z_rerolls[s][i] = splitmix(&seed)
            for i in range(4):
                self.c.z_castle[s][i] = splitmix(&seed)
            for i in range(MAX_CELLS):
                self.c.z_follow[s][i] = splitmix(&seed)
        for i in range(16):
            self.c.z_dice[i] = splitmix(&seed)
        self.c.z_chance = splitmix(&seed)
        self.c.pos = self.pos
        self.lim = &self.c.lim
        self.c.in_tree_jokers = True
        self._tabulate_dice()

    def __dealloc__(self):
        if self.c != NULL:
            free(self.c.tt)
        free(self.c)
        free(self.pos)

    def _tabulate_dice(self):
        """Dice outcomes per playable set, from engine.alea (exact), most likely first."""
        from engine.alea import dice_distribution_for
        cdef int mask, j
        for mask in range(16):
            types = {KINDS[k] for k in range(4) if (mask >> k) & 1}
            dist = dice_distribution_for(types)
            items = sorted(((float(p), pair) for pair, p in dist.items()),
                           key=lambda item: (-item[0], str(item[1])))
            self.c.ndist[mask] = len(items)
            for j, (prob, pair) in enumerate(items):
                self.c.dist_p[mask][j] = prob
                self.c.dist_mask[mask][j] = 0 if pair is None else \
                    (1 << KINDS.index(pair[0])) | (1 << KINDS.index(pair[1]))

    def configure(self, int joker_cp, int reroll_cp, int castle_cp, bint in_tree_jokers=True):
        """What each joker left is worth in the evaluation, and whether decision nodes
        inside the tree consider joker moves."""
        self.c.joker_cp = joker_cp
        self.c.reroll_cp = reroll_cp
        self.c.castle_cp = castle_cp
        self.c.in_tree_jokers = in_tree_jokers

    def set_root(self, state, EvalTables ev):
        """Copy an engine.alea.AleaState (its board with the history, its fields, its
        dice) as the root."""
        from engine.alea import PROMOTION_DIE
        cdef Board board = state.board
        cdef int t, s, i
        variant = board.variant
        memcpy(self.pos, board.p, sizeof(PosRec))
        pos_attach_net(self.pos, ev.rec.net)
        self.ev = ev
        self.c.ev = &ev.rec
        self.geometry = variant.geometry
        letters = variant.letters
        for t in range(16):
            self.c.kind_of[t] = KINDS.index(letters[t]) if 0 < t < len(letters) \
                and letters[t] in KINDS else KNONE
        self.c.queen_type = letters.index("q")
        counts = {}
        for piece in PROMOTION_DIE.values():
            counts[piece] = counts.get(piece, 0) + 1
        for i, piece in enumerate("nbrq"):
            self.c.promo_type[i] = letters.index(piece)
            self.c.promo_p[i] = counts.get(piece, 0) / 6.0
        self.c.castle_rights[0] = self.c.castle_rights[1] = 0
        for i in range(self.pos.t.n_castling):
            self.c.castle_rights[self.pos.t.castling[i].side] |= 1 << i
        for s in range(2):
            self.root.moves[s] = min(state.moves[s], FREE_MOVES)
            last = state.last_type[s]
            self.root.last[s] = KNONE if last is None else KINDS.index(last)
            self.root.jokers[s] = min(state.jokers[s], 15)
            self.root.rerolls[s] = min(state.rerolls[s], 15)
            self.root.castle[s] = min(state.castle_jokers[s], 3)
            follow = state.follow_up[s]
            self.root.follow_rook[s] = self.geometry.cell(follow[0]) if follow else -1
            self.root.follow_king[s] = self.geometry.cell(follow[1]) if follow else -1
        self.root_dice = self._dice_mask(state.dice)

    def _dice_mask(self, dice) -> int:
        if not dice:
            return 0
        return (1 << KINDS.index(dice[0])) | (1 << KINDS.index(dice[1]))

    # -- limits ------------------------------------------------------------------------
    def new_search(self):
        """Reset the counters, the stop flag and the limits; halve the history."""
        limits_reset(&self.c.lim)
        history_age(&self.c.history[0][0][0], sizeof(self.c.history) // sizeof(int))

    def clear_hash(self):
        memset(self.c.tt, 0, (self.c.tt_mask + 1) * sizeof(ATTEntry))
        memset(self.c.history, 0, sizeof(self.c.history))

    # -- values --------------------------------------------------------------------------
    cdef move_t _find(self, str move, bint castle) except? -1:
        cdef move_t moves[MAX_MOVES]
        cdef int n = legal_moves(self.c, moves), i
        frm = self.geometry.cell(move[:2])
        to = self.geometry.cell(move[2:4])
        for i in range(n):
            if move_from(moves[i]) == frm and move_to(moves[i]) == to and \
                    (move_kind(moves[i]) == KIND_CASTLE) == castle:
                return moves[i]
        raise ValueError(f"no such move {move!r} at the root")

    def action_value(self, str kind, str move, int depth, double alpha=-BOUND,
                     double beta=BOUND) -> float:
        """Value of a root action (``move``, ``joker``, ``castle`` and a move without a
        promotion letter) searched ``depth`` plies, this action included (depth >= 1).
        Fail-soft: at or below alpha it is an upper bound, at or above beta a lower one."""
        cdef int act = ACT_JOKER if kind == "joker" else ACT_CASTLE if kind == "castle" \
            else ACT_MOVE
        cdef move_t m = self._find(move[:4], act == ACT_CASTLE)
        cdef AleaRec child
        cdef double v
        cdef int d = depth if depth > 1 else 1
        make_child(self.c, &self.root, m, act, &child)
        with nogil:
            v = after_action(self.c, &child, m, d, alpha, beta, 0)
        return v

    def reroll_value(self, int depth, double alpha=-BOUND, double beta=BOUND) -> float:
        """Value of spending a reroll joker: the same side's new dice (a chance node),
        then its decision searched ``depth`` plies."""
        cdef AleaRec child = self.root
        cdef double v
        child.rerolls[self.pos.side] -= 1
        with nogil:
            v = chance(self.c, &child, depth, alpha, beta, 0)
        return v

    def chance_value(self, int depth, double alpha=-BOUND, double beta=BOUND) -> float:
        """Value of the root before its dice are known (the chance node over them)."""
        cdef double v
        with nogil:
            v = chance(self.c, &self.root, depth, alpha, beta, 0)
        return v

    def decision_value(self, int depth, dice=None, double alpha=-BOUND,
                       double beta=BOUND) -> float:
        """Value of the root's decision node with ``dice`` (a pair of n b r q, None: the
        root's own) at ``depth`` (0: the depth-0 leaf)."""
        cdef move_t moves[MAX_MOVES]
        cdef int n, mask = self.root_dice if dice is None else self._dice_mask(dice)
        cdef bint in_check
        cdef double v
        n = legal_moves(self.c, moves)
        if n == 0:
            raise ValueError("the root has no legal move")
        in_check = pos_in_check(self.pos)
        with nogil:
            v = decide(self.c, &self.root, depth, alpha, beta, 0, mask, moves, n, in_check)
        return v

    def static_value(self) -> int:
        """The evaluation of the root (jokers included), side to move's view."""
        return leaf_eval(self.c, &self.root)

    def ordinary_moves(self, dice=None) -> list:
        """The moves this C core allows without a joker for ``dice`` (None: the root's),
        as UCI without promotion letters: the twin of engine.alea.ordinary_moves, which
        the tests compare it with."""
        cdef move_t moves[MAX_MOVES]
        cdef uint8_t flags[MAX_MOVES]
        cdef int n = legal_moves(self.c, moves), i
        cdef int mask = self.root_dice if dice is None else self._dice_mask(dice)
        names = self.geometry.names
        ordinary(self.c, &self.root, moves, n, mask, pos_in_check(self.pos), flags)
        return sorted(names[move_from(moves[i])] + names[move_to(moves[i])]
                      for i in range(n) if flags[i])

    def playable_types(self) -> str:
        """The die types with a legal move (A8), as letters: twin of alea.playable_types."""
        cdef move_t moves[MAX_MOVES]
        cdef int n = legal_moves(self.c, moves)
        cdef int mask = playable(self.c, &self.root, moves, n, pos_in_check(self.pos))
        return "".join(KINDS[k] for k in range(4) if (mask >> k) & 1)


BOUND_CP = BOUND
EVAL_CLIP_CP = EVAL_CLIP
