# Static evaluation over PosRec with per-variant tables (built by engine/eval_tables.py).
from engine.types cimport MAX_CELLS, MAX_CODES, MAX_TYPES
from engine.position cimport PosRec
from libc.stdint cimport uint64_t
from engine.nnue cimport NetRec

cdef enum:
    MAX_FILES = 16
    MAX_DIST = 16
    MAX_SHIELD = 4

cdef struct EvalRec:
    int ncells
    int pst_mg[MAX_CODES][MAX_CELLS]    # material + piece-square, middlegame
    int pst_eg[MAX_CODES][MAX_CELLS]
    int phase[MAX_TYPES]
    int phase_max
    int mob_mg[MAX_TYPES]
    int mob_eg[MAX_TYPES]
    int mob_base[MAX_TYPES]
    int value[MAX_TYPES]                # plain material, for move ordering and SEE
    int file_of[MAX_CELLS]
    int nfiles
    int promo_dist[2][MAX_CELLS]
    int passed_mg[MAX_DIST]
    int passed_eg[MAX_DIST]
    int doubled_mg, doubled_eg, isolated_mg, isolated_eg
    uint64_t span[2][MAX_CELLS][2]      # cells that stop a passed pawn (bitset over cells)
    int n_shield[2][MAX_CELLS]
    int shield_cells[2][MAX_CELLS][MAX_SHIELD]
    int shield_mg, shield_eg
    int attack_weight[MAX_TYPES]
    int danger, danger_cap
    int open_mg[MAX_TYPES][2]           # [semi-open, open] file bonus
    int open_eg[MAX_TYPES][2]
    bint slides_file[MAX_TYPES]
    int tempo
    int stalemate_cp                    # score of being stalemated, side to move's view
    bint has_change                     # piece values not the shipped ones: the change,
    int change_mg[MAX_CODES]            # per piece code, added to a net's score
    int change_eg[MAX_CODES]
    const NetRec* net                   # the learnt evaluation searches attach, or NULL
    int hand_share                      # of 256: the hand-written evaluation's part of a
                                        # net's score (params' [net] hand)
    # params' [endgame] (endgame_scale): endings whose material misleads
    int value_eg[MAX_TYPES]             # endgame material per type
    int minor_eg                        # the most a minor piece is worth; 0: no rule
    int mate_eg                         # the least any other piece is worth
    int wrong_bishop                    # colour-bound type of the edge-file rule; 0: none
    int cell_x[MAX_CELLS]
    int cell_y[MAX_CELLS]
    bint edge_file[MAX_CELLS]
    int promo_cell[2][MAX_CELLS]        # the promotion cell straight ahead of a pawn, or -1
    int mop_up                          # cp a step of the bare king's mop-up; 0: none
    bint colour_bound[MAX_TYPES]        # per type: its moves keep it on one cell colour
    int edge_push[MAX_CELLS]            # steps from the board's centre (0) to its edge
    int corner_push[2][MAX_CELLS]       # per cell colour: steps nearer its nearest corner
    int near_max                        # the farthest two kings can stand apart

cdef class EvalTables:
    cdef EvalRec rec
    cdef readonly object net            # the Net behind rec.net (kept alive here), or None

cdef int evaluate(const PosRec* p, const EvalRec* e) noexcept nogil


cdef inline int taper(int mg, int eg, int phase, const EvalRec* e) noexcept nogil:
    """Middlegame and endgame values blended by the phase (capped at the start's)."""
    if e.phase_max <= 0:
        return eg
    if phase > e.phase_max:
        phase = e.phase_max
    return (mg * phase + eg * (e.phase_max - phase)) // e.phase_max
