# Alpha-beta search over PosRec (principal variation search, quiescence, pruning).
from libc.stdint cimport uint64_t
from engine.types cimport move_t, MAX_MOVES, MAX_CELLS
from engine.position cimport PosRec
from engine.evaluate cimport EvalRec
from engine.tt cimport TTRec
from engine.searchkit cimport LimitsRec

cdef enum:
    MAX_PLY = 128
    MATE = 32000
    MATE_BOUND = 31000      # |score| above this is a mate score
    INF = 32500
    EVAL_CACHE = 8192       # entries of the static-evaluation cache (a power of two)

cdef struct EvalSlot:
    uint64_t key
    int score

cdef struct SearchRec:
    PosRec* pos
    const EvalRec* ev
    TTRec* tt
    LimitsRec lim           # node count, limits, stop flag, seldepth
    int root_ply            # pos.ply at the root (repetitions before it are history)
    int n_move_rule
    bint checks             # the variant has the check rule (else royal capture ends it)
    move_t killers[MAX_PLY][2]
    move_t excluded[MAX_PLY]    # the move a singular-extension search leaves out, by ply
    int history[2][MAX_CELLS][MAX_CELLS]
    move_t pv[MAX_PLY][MAX_PLY]
    int pv_len[MAX_PLY]
    int nroot
    move_t root_moves[MAX_MOVES]
    int root_order[MAX_MOVES]   # ordering scores from the previous iteration
    bint root_skip[MAX_MOVES]   # excluded (MultiPV lines already found)
    int best_root               # index of the best root move of the last search_root
    bint root_improved          # search_root raised alpha at least once
    int lmr[64][64]
    EvalSlot ecache[EVAL_CACHE]   # static evaluations by key, emptied by set_root

cdef int search_root(SearchRec* s, int alpha, int beta, int depth) noexcept nogil
cdef int see(PosRec* p, const EvalRec* e, move_t m) noexcept nogil
cdef bint see_below(PosRec* p, const EvalRec* e, move_t m, int threshold) noexcept nogil
