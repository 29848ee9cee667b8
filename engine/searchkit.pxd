# What the chess search (search.pyx) and the Alea expectimax (aleacore.pyx) share, once:
# the node count with its limits, move ordering and picking, the history update and the
# meaning of a stored bound. Leaf helpers are inline here (each user compiles its own copy,
# no call across modules in the inner loops); searchkit.pyx only holds SearchLimits, the
# Python face of the limits both searchers inherit.
from libc.stdint cimport uint64_t
from engine.types cimport move_t, KIND_CASTLE, KIND_EP, KIND_PROMO, move_from, move_to, \
    move_kind, move_extra, type_of, volatile_int
from engine.position cimport PosRec
from engine.evaluate cimport EvalRec
from engine.tt cimport BOUND_EXACT, BOUND_LOWER, BOUND_UPPER
from engine.clock cimport now

cdef enum:
    HISTORY_MAX = 16384     # history scores stay within +-HISTORY_MAX (see history_add)
    ROYAL_VALUE = 20000     # the royal piece's worth in exchanges and ordering (its material
                            # is 0): it captures last, and taking it (fog) comes first


cdef struct LimitsRec:
    # The node count and the limits of one search; a field of SearchRec and CoreRec.
    uint64_t nodes
    uint64_t node_limit     # 0: none
    double deadline         # monotonic seconds (clock.now); 0: none
    volatile_int stop       # set by the protocol thread or by the limits
    int seldepth


cdef class SearchLimits:
    """Base of Searcher and AleaCore: set_limits, stop, resume, nodes, seldepth."""
    cdef LimitsRec* lim     # the subclass's record field; set in its __cinit__


cdef inline void limits_reset(LimitsRec* l) noexcept nogil:
    """A new search: no node counted, no stop, no limit."""
    l.nodes = 0
    l.node_limit = 0
    l.deadline = 0
    l.stop = 0
    l.seldepth = 0


cdef inline bint enter_node(LimitsRec* l, int ply) noexcept nogil:
    """Count the node, check the limits every 1024 nodes; True when the search must stop."""
    l.nodes += 1
    if (l.nodes & 1023) == 0:
        if (l.deadline > 0 and now() >= l.deadline) or (l.node_limit and l.nodes >= l.node_limit):
            l.stop = 1
    if ply > l.seldepth:
        l.seldepth = ply
    return l.stop != 0


# -- move ordering ------------------------------------------------------------------------
cdef inline bint is_noisy(const PosRec* p, move_t m) noexcept nogil:
    """A capture (en passant included) or a promotion, tested before the move is made."""
    cdef int kind = move_kind(m)
    return (kind != KIND_CASTLE and p.board[move_to(m)] != 0) or kind == KIND_EP \
        or kind == KIND_PROMO


cdef inline int mvv_lva(const PosRec* p, const EvalRec* e, move_t m) noexcept nogil:
    """Order of a noisy move among the noisy ones: most valuable victim first, then least
    valuable attacker; a promotion adds its piece's value. Taking the royal piece (whose
    material value is 0) comes before everything: it wins the game."""
    cdef int victim = type_of(p.board[move_to(m)]) if move_kind(m) != KIND_EP else p.t.pawn_type
    cdef int worth = ROYAL_VALUE if victim and victim == p.t.royal_type else e.value[victim]
    cdef int sc = worth * 16 - e.value[type_of(p.board[move_from(m)])] // 16
    if move_kind(m) == KIND_PROMO:
        sc += e.value[move_extra(m)] * 16
    return sc


cdef inline int best_from(const int* scores, int n, int i) noexcept nogil:
    """Index of the best-scored move among i..n-1 (the first of equals wins)."""
    cdef int j, best = i
    for j in range(i + 1, n):
        if scores[j] > scores[best]:
            best = j
    return best


cdef inline move_t bring(move_t* moves, int* scores, int i, int best) noexcept nogil:
    """Swap the move at ``best`` (and its score) to index i and return it."""
    cdef move_t m
    cdef int sc
    if best != i:
        m = moves[i]
        moves[i] = moves[best]
        moves[best] = m
        sc = scores[i]
        scores[i] = scores[best]
        scores[best] = sc
    return moves[i]


cdef inline move_t pick(move_t* moves, int* scores, int n, int i) noexcept nogil:
    """Selection sort step: bring the best-scored remaining move to index i (the first of
    equals wins)."""
    return bring(moves, scores, i, best_from(scores, n, i))


cdef inline void history_add(int* entry, int bonus) noexcept nogil:
    """Gravity update of one history entry: a bonus (negative: a malus) moves it towards
    +-HISTORY_MAX, by less the closer it already is."""
    entry[0] += bonus - entry[0] * (bonus if bonus > 0 else -bonus) // HISTORY_MAX


cdef inline void history_age(int* table, int n) noexcept nogil:
    """Halve ``n`` history entries (rounding down): a new search keeps half the memory."""
    cdef int i
    for i in range(n):
        table[i] //= 2


# -- stored bounds (engine/tt.pxd's BOUND_*) ---------------------------------------------------
cdef inline int bound_of(double value, double orig_alpha, double beta) noexcept nogil:
    """The bound a fail-soft value searched with the window (orig_alpha, beta) is."""
    if value >= beta:
        return BOUND_LOWER
    if value > orig_alpha:
        return BOUND_EXACT
    return BOUND_UPPER


cdef inline bint bound_cuts(int bound, double value, double alpha, double beta) noexcept nogil:
    """Whether a stored value with this bound decides a node searched with (alpha, beta)."""
    return bound == BOUND_EXACT or (bound == BOUND_LOWER and value >= beta) or \
        (bound == BOUND_UPPER and value <= alpha)
