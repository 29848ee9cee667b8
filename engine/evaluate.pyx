"""Static evaluation: the learnt net when the position carries one (engine/nnue.pxd;
searches attach the tables' net), else the hand-written one: material and generated
piece-square values, mobility, pawn structure, king safety; tapered between middlegame
and endgame by the game phase.

A net's score gets the tables' change of piece values, if any (``value_change``: the adaptive
level's opponent pieces), which the hand-written evaluation has in its tables, and is
blended with the hand-written evaluation where the params ask for it (``hand_share``, in
256ths: Fog of War, which borrows chess's net).
Returns centipawns from the side to move's point of view. The same code serves every
variant: what differs is the table set (engine/eval_tables.py, engine/params/*.toml).
"""
from engine.types cimport piece_t, NO_CELL, WHITE, BLACK, colour_bit, type_of, colour_of
from engine.tables cimport TablesRec
from libc.stdint cimport uint32_t
from engine.board cimport Board
from engine.net cimport Net
from engine.position cimport pos_net_score

cdef extern from *:
    int ctz32 "__builtin_ctz"(unsigned int x) nogil


cdef class EvalTables:
    """C evaluation tables of one variant."""

    def __init__(self, dict d):
        cdef EvalRec* e = &self.rec
        cdef int n = d["ncells"], t, c, s, k
        e.ncells = n
        for k in range(MAX_CODES):
            for c in range(MAX_CELLS):
                e.pst_mg[k][c] = d["pst_mg"][k][c] if c < n else 0
                e.pst_eg[k][c] = d["pst_eg"][k][c] if c < n else 0
        e.phase_max = d["phase_max"]
        for t in range(MAX_TYPES):
            inside = t < len(d["phase"])
            e.phase[t] = d["phase"][t] if inside else 0
            e.mob_mg[t] = d["mob_mg"][t] if inside else 0
            e.mob_eg[t] = d["mob_eg"][t] if inside else 0
            e.mob_base[t] = d["mob_base"][t] if inside else 0
            e.value[t] = d["value"][t] if inside else 0
            e.attack_weight[t] = d["attack_weight"][t] if inside else 0
            e.slides_file[t] = d["slides_file"][t] if inside else False
            for k in range(2):
                e.open_mg[t][k] = d["open_mg"][t][k] if inside else 0
                e.open_eg[t][k] = d["open_eg"][t][k] if inside else 0
        if d["nfiles"] > MAX_FILES:
            raise ValueError("too many files")
        e.nfiles = d["nfiles"]
        for c in range(n):
            e.file_of[c] = d["file_of"][c]
            for s in range(2):
                e.promo_dist[s][c] = min(d["promo_dist"][s][c], MAX_DIST - 1)
                e.span[s][c][0] = d["span"][s][c] & 0xFFFFFFFFFFFFFFFF
                e.span[s][c][1] = d["span"][s][c] >> 64
                e.n_shield[s][c] = min(len(d["shield_cells"][s][c]), MAX_SHIELD)
                for k in range(e.n_shield[s][c]):
                    e.shield_cells[s][c][k] = d["shield_cells"][s][c][k]
        for k in range(MAX_DIST):
            e.passed_mg[k] = d["passed_mg"][k] if k < len(d["passed_mg"]) else d["passed_mg"][len(d["passed_mg"]) - 1]
            e.passed_eg[k] = d["passed_eg"][k] if k < len(d["passed_eg"]) else d["passed_eg"][len(d["passed_eg"]) - 1]
        e.doubled_mg, e.doubled_eg = d["doubled"]
        e.isolated_mg, e.isolated_eg = d["isolated"]
        e.shield_mg, e.shield_eg = d["shield"]
        e.danger = d["danger"]
        e.danger_cap = d["danger_cap"]
        e.tempo = d["tempo"]
        e.stalemate_cp = d["stalemate_cp"]
        change = d.get("value_change", {})
        e.has_change = bool(change)
        for k in range(MAX_CODES):
            e.change_mg[k], e.change_eg[k] = change.get(k, (0, 0))
        for t in range(MAX_TYPES):
            inside = t < len(d["value_eg"])
            e.value_eg[t] = d["value_eg"][t] if inside else 0
        e.minor_eg, e.mate_eg, e.wrong_bishop = d["minor_eg"], d["mate_eg"], d["wrong_bishop"]
        for c in range(n):
            e.cell_x[c], e.cell_y[c] = d["cell_x"][c], d["cell_y"][c]
            e.edge_file[c] = d["edge_file"][c]
            for s in range(2):
                e.promo_cell[s][c] = d["promo_cell"][s][c]
        e.mop_up, e.near_max = d["mop_up"], d["near_max"]
        for t in range(MAX_TYPES):
            e.colour_bound[t] = t < len(d["colour_bound"]) and d["colour_bound"][t]
        for c in range(n):
            e.edge_push[c] = d["edge_push"][c]
            for s in range(2):
                e.corner_push[s][c] = d["corner_push"][s][c]
        e.hand_share = d.get("hand_share", 0)
        if not 0 <= e.hand_share <= 256:
            raise ValueError("hand_share out of 0..256")
        e.net = NULL
        self.net = None

    def attach(self, Net net):
        """Searches with these tables use ``net`` (None: the hand-written evaluation)."""
        self.net = net
        self.rec.net = &net.rec if net is not None else NULL

    def phase_weights(self):
        return [self.rec.phase[t] for t in range(MAX_TYPES)]


cdef inline bint in_set(const uint64_t* bits, int c) noexcept nogil:
    return (bits[c >> 6] >> (c & 63)) & 1


cdef int evaluate(const PosRec* p, const EvalRec* e) noexcept nogil:
    cdef int score
    if p.nn == NULL:
        return endgame_scale(p, e, hand_evaluate(p, e))
    score = pos_net_score(p)
    if e.has_change:
        score += value_change(p, e)
    if e.hand_share:
        score = (score * (256 - e.hand_share) + hand_evaluate(p, e) * e.hand_share) // 256
    return endgame_scale(p, e, score)


cdef int piece_material(const PosRec* p, const EvalRec* e, int side) noexcept nogil:
    """The endgame value of a side's pieces besides pawns and its royal piece."""
    cdef int i, typ, total = 0
    for i in range(p.pcount[side]):
        typ = type_of(p.board[p.plist[side][i]])
        if typ != p.t.pawn_type and typ != p.t.royal_type:
            total += e.value_eg[typ]
    return total


cdef int endgame_scale(const PosRec* p, const EvalRec* e, int score) noexcept nogil:
    """The score of endings whose material misleads, scaled in 64ths as Stockfish's scale
    factors are (params' [endgame]): the side ahead without pawns and ahead by a minor
    piece at most wins nothing with less than the least major piece, little (4) against
    a minor piece or less, not much (14) else; with pawns on one edge file only and a
    single colour-bound piece that cannot cover their promotion cell, against a bare king
    on or next to that cell, it wins nothing; against a bare king without pawns its score
    is ``bare_king``'s (and the tables' change of piece values). Side to move's view in
    and out."""
    cdef const TablesRec* t = p.t
    cdef int strong, weak, pawns, i, c, npm_s, npm_w, piece = NO_CELL, promo = NO_CELL
    cdef int k, typ
    if score == 0 or e.minor_eg == 0 or not t.pawn_type:
        return score
    strong = p.side if score > 0 else p.side ^ 1
    weak = strong ^ 1
    pawns = p.counts[t.pawn_type | colour_bit(strong)]
    if pawns == 0:
        npm_s = piece_material(p, e, strong)
        npm_w = piece_material(p, e, weak)
        if npm_s - npm_w > e.minor_eg:
            if p.pcount[weak] == 1 and e.mop_up:
                k = bare_king(p, e, strong, npm_s)
                return (k if score > 0 else -k) + (value_change(p, e) if e.has_change else 0)
            return score
        if npm_s < e.mate_eg:
            return 0
        k = (score if score > 0 else -score) * (4 if npm_w <= e.minor_eg else 14) // 64
        return k if score > 0 else -k
    if e.wrong_bishop == 0 or p.pcount[weak] != 1 or p.pcount[strong] != pawns + 2:
        return score
    for i in range(p.pcount[strong]):
        c = p.plist[strong][i]
        typ = type_of(p.board[c])
        if typ == t.pawn_type:
            if not e.edge_file[c] or (promo != NO_CELL and e.promo_cell[strong][c] != promo):
                return score
            promo = e.promo_cell[strong][c]
        elif typ != t.royal_type:
            piece = c
    if piece == NO_CELL or promo == NO_CELL or type_of(p.board[piece]) != e.wrong_bishop \
            or t.colour[piece] == t.colour[promo]:
        return score
    k = p.king[weak]
    if k != NO_CELL and abs(e.cell_x[k] - e.cell_x[promo]) <= 1 \
            and abs(e.cell_y[k] - e.cell_y[promo]) <= 1:
        return 0
    return score


cdef int bare_king(const PosRec* p, const EvalRec* e, int strong, int npm_s) noexcept nogil:
    """The score of the side ahead against a bare king, without pawns: its pieces' endgame
    value and a mop-up (params' [endgame] ``mop_up`` a step): two steps for each the bare
    king stands nearer the edge, or, with a single colour-bound piece and one minor piece
    (bishop and knight), nearer a corner of that piece's colour, where alone they mate;
    one for each the kings stand nearer each other. The net's score is not used: it saw
    no progress there, and bishop and knight drew by the 50-move rule. Two knights alone
    cannot force mate: 0."""
    cdef int wk = p.king[strong ^ 1], sk = p.king[strong], i, c, typ, bound = NO_CELL
    cdef int n_bound = 0, minors = 0, majors = 0, push, dx, dy
    for i in range(p.pcount[strong]):
        c = p.plist[strong][i]
        typ = type_of(p.board[c])
        if typ == p.t.royal_type:
            continue
        if e.colour_bound[typ]:
            bound = c
            n_bound += 1
        elif e.value_eg[typ] <= e.minor_eg:
            minors += 1
        else:
            majors += 1
    if n_bound == 0 and majors == 0 and minors == 2:
        return 0
    if wk == NO_CELL or sk == NO_CELL:
        return npm_s
    push = e.edge_push[wk]
    if n_bound == 1 and minors == 1 and majors == 0 and p.t.colour[bound] < 2:
        push = e.corner_push[p.t.colour[bound]][wk]
    dx = abs(e.cell_x[wk] - e.cell_x[sk])
    dy = abs(e.cell_y[wk] - e.cell_y[sk])
    return npm_s + e.mop_up * (2 * push + e.near_max - (dx if dx > dy else dy))


cdef int value_change(const PosRec* p, const EvalRec* e) noexcept nogil:
    """What the tables' piece values differ from the shipped ones (engine/eval_tables.py
    ``value_change``, per piece code, middlegame and endgame: more is worth more to the
    piece's owner), tapered by the phase as the hand-written evaluation is, side to move's
    view: added to a net's score, which learnt the shipped values."""
    cdef int side, i, sgn, mg = 0, eg = 0, phase = 0, score
    cdef piece_t pc
    for side in range(2):
        sgn = 1 if side == WHITE else -1
        for i in range(p.pcount[side]):
            pc = p.board[p.plist[side][i]]
            mg += sgn * e.change_mg[pc]
            eg += sgn * e.change_eg[pc]
            phase += e.phase[type_of(pc)]
    score = taper(mg, eg, phase, e)
    return score if p.side == WHITE else -score


cdef int hand_evaluate(const PosRec* p, const EvalRec* e) noexcept nogil:
    cdef const TablesRec* t = p.t
    cdef int mg[2]
    cdef int eg[2]
    cdef int units[2]
    cdef int attackers[2]
    cdef int pawns_on_file[2][MAX_FILES]
    cdef uint64_t pawn_bits[2][2]
    cdef int side, i, c, to, v, typ, phase = 0, cnt, f, k, sgn, other, own, enemy
    cdef int score, zone_hits, kc
    cdef uint32_t mask
    cdef const uint64_t* zone
    cdef piece_t pc
    for side in range(2):
        mg[side] = eg[side] = units[side] = attackers[side] = 0
        pawn_bits[side][0] = pawn_bits[side][1] = 0
        for f in range(e.nfiles):
            pawns_on_file[side][f] = 0
    # pass 1: material, piece-square, pawn maps
    for side in range(2):
        for i in range(p.pcount[side]):
            c = p.plist[side][i]
            pc = p.board[c]
            typ = type_of(pc)
            mg[side] += e.pst_mg[pc][c]
            eg[side] += e.pst_eg[pc][c]
            phase += e.phase[typ]
            if typ == t.pawn_type:
                pawns_on_file[side][e.file_of[c]] += 1
                pawn_bits[side][c >> 6] |= (<uint64_t> 1) << (c & 63)
    # pass 2: mobility, files, king attacks, pawn structure
    for side in range(2):
        other = side ^ 1
        own = colour_bit(side)
        enemy = colour_bit(other)
        kc = p.king[other]
        zone = t.near[kc] if kc != NO_CELL else NULL
        for i in range(p.pcount[side]):
            c = p.plist[side][i]
            typ = type_of(p.board[c])
            if typ == t.pawn_type:
                f = e.file_of[c]
                if pawns_on_file[side][f] > 1:
                    mg[side] += e.doubled_mg
                    eg[side] += e.doubled_eg
                if (f == 0 or pawns_on_file[side][f - 1] == 0) and \
                        (f == e.nfiles - 1 or pawns_on_file[side][f + 1] == 0):
                    mg[side] += e.isolated_mg
                    eg[side] += e.isolated_eg
                if not (e.span[side][c][0] & pawn_bits[other][0]) and \
                        not (e.span[side][c][1] & pawn_bits[other][1]):
                    k = e.promo_dist[side][c]
                    mg[side] += e.passed_mg[k]
                    eg[side] += e.passed_eg[k]
                continue
            if typ == t.royal_type:
                for k in range(e.n_shield[side][c]):
                    if p.board[e.shield_cells[side][c][k]] == (t.pawn_type | own):
                        mg[side] += e.shield_mg
                        eg[side] += e.shield_eg
                continue
            cnt = 0
            zone_hits = 0
            mask = t.leap_mask[typ]
            while mask:
                v = ctz32(mask)
                mask &= mask - 1
                to = t.nxt[c][v]
                if to != NO_CELL and not (p.board[to] & own):
                    cnt += 1
                    if zone != NULL and in_set(zone, to):
                        zone_hits += 1
            mask = t.slide_mask[typ]
            while mask:
                v = ctz32(mask)
                mask &= mask - 1
                to = t.nxt[c][v]
                while to != NO_CELL:
                    if not (p.board[to] & own):
                        cnt += 1
                    if zone != NULL and in_set(zone, to):
                        zone_hits += 1
                    if p.board[to]:
                        break
                    to = t.nxt[to][v]
            mg[side] += e.mob_mg[typ] * (cnt - e.mob_base[typ])
            eg[side] += e.mob_eg[typ] * (cnt - e.mob_base[typ])
            if zone_hits:
                units[side] += e.attack_weight[typ]
                attackers[side] += 1
            if e.slides_file[typ] and pawns_on_file[side][e.file_of[c]] == 0:
                k = 1 if pawns_on_file[other][e.file_of[c]] == 0 else 0
                mg[side] += e.open_mg[typ][k]
                eg[side] += e.open_eg[typ][k]
    for side in range(2):
        if attackers[side] >= 2:
            k = e.danger * units[side] * units[side] // 4
            mg[side] += k if k < e.danger_cap else e.danger_cap
    score = taper(mg[WHITE] - mg[BLACK], eg[WHITE] - eg[BLACK], phase, e)
    sgn = 1 if p.side == WHITE else -1
    return sgn * score + e.tempo


def evaluate_board(Board board, EvalTables tables) -> int:
    """Static evaluation of a Board, side to move's view (tests and the tuner)."""
    return evaluate(board.p, &tables.rec)


def evaluate_boards(list boards, EvalTables tables) -> list:
    """Static evaluation of many Boards at once, White's view (the tuner's inner loop)."""
    cdef Board b
    out = []
    for b in boards:
        out.append(evaluate(b.p, &tables.rec) * (1 if b.p.side == 0 else -1))
    return out
