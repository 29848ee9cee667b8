# Alea expectimax in C (aleacore.pyx): decision and chance nodes over PosRec plus the
# Alea fields of engine/alea.py.
from engine.types cimport move_t, key_t, MAX_CELLS, MAX_MOVES
from engine.position cimport PosRec
from engine.evaluate cimport EvalRec
from engine.searchkit cimport LimitsRec
from libc.stdint cimport int8_t, uint8_t, uint64_t

cdef enum:
    BOUND = 2000            # every value lies in [-BOUND, BOUND]; being mated at ply k
                            # is -(BOUND - k)
    EVAL_CLIP = 1800        # the static evaluation is clipped to +-EVAL_CLIP
    FREE_MOVES = 8          # A5
    MAX_QPLY = 48           # quiescence stops (static value) this many plies from the root
    MAX_OUTCOMES = 10       # dice outcomes of one playable set (at most C(4,2) + 4)
    MAX_ACTIONS = MAX_MOVES # actions of one decision node: each legal move gives one at most
    NKINDS = 6              # KN KB KR KQ (the die types, in dice order), KK, KP

cdef enum:
    KN = 0
    KB = 1
    KR = 2
    KQ = 3
    KK = 4
    KP = 5
    KNONE = -1              # no type: a pawn move, or nothing moved yet (A9)

cdef struct AleaRec:
    # The Alea fields of engine.alea.AleaState, per side (0 White, 1 Black).
    int moves[2]            # moves made, capped at FREE_MOVES (only the free phase needs it)
    int last[2]             # kind moved last: KN..KK, or KNONE (A9)
    int jokers[2]           # free-move jokers left (A14)
    int rerolls[2]          # reroll jokers left (A14)
    int castle[2]           # castle jokers left (A15)
    int follow_rook[2]      # A15 follow-up: the castled rook's cell, or -1
    int follow_king[2]      # and the king's cell, or -1

cdef struct ATTEntry:
    key_t key
    float value
    move_t move
    int8_t depth
    uint8_t bound           # engine/tt.pxd's BOUND_NONE (empty), _UPPER, _LOWER, _EXACT

cdef struct CoreRec:
    PosRec* pos
    const EvalRec* ev
    int kind_of[16]         # piece type -> KN..KP (-1: not a chess type)
    int queen_type          # the piece type a promotion stands for in the action list
    int promo_type[4]       # A11's promotion die: pieces and their chances
    double promo_p[4]
    int castle_rights[2]    # castling right bits of each side
    LimitsRec lim           # node count, limits, stop flag, seldepth
    int joker_cp            # what a free-move joker left is worth (centipawns)
    int reroll_cp           # a reroll joker left
    int castle_cp           # a castle joker left, while the side may still castle
    bint in_tree_jokers     # decision nodes inside the tree consider joker moves
    # dice outcomes per playable set (bit k: kind k playable): dice mask and chance,
    # most likely first
    int ndist[16]
    int dist_mask[16][MAX_OUTCOMES]
    double dist_p[16][MAX_OUTCOMES]
    key_t z_moves[2][FREE_MOVES + 1]
    key_t z_last[2][NKINDS]
    key_t z_jokers[2][16]
    key_t z_rerolls[2][16]
    key_t z_castle[2][4]
    key_t z_follow[2][MAX_CELLS]
    key_t z_dice[16]
    key_t z_chance
    ATTEntry* tt
    uint64_t tt_mask
    int history[2][MAX_CELLS][MAX_CELLS]
