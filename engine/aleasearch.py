"""Alea search: the root of the expectimax (engine/aleacore.pyx), the jokers as root
decisions, the draw offer and the Quantum guide (docs/architecture.md, "Alea engine").

``think_alea`` runs in the engine's worker thread, like ``deepening.think``:

1. every root action of ``engine.alea.legal_actions`` is valued by the C core at depth
   1, 2, ... plies (iterative deepening, best first from the last depth); a free-move
   joker on a move the dice allow anyway is never considered (it costs a joker for
   nothing), and beyond depth 1 only the ``JOKER_CANDIDATES`` best joker moves are
   searched again. Each category (ordinary moves, castle joker, free-move jokers) keeps
   its own alpha, so its best value is exact;
2. a reroll is tested after each depth with a null window at the best current value plus
   ``REROLL_MARGIN``: the expected value of new dice (the exact distribution) with one
   reroll fewer;
3. the choice: the best ordinary move, unless the castle joker beats it by
   ``CASTLE_MARGIN``, a free-move joker by ``WIN_MARGIN`` (``SAVE_MARGIN`` when the dice
   cannot save an attacked piece worth 3 or more and the joker move does: A22), or the
   reroll as above (never over such a rescue: A22 names the free-move joker). Jokers
   left are worth ``JOKER_CP``/``REROLL_CP``/``CASTLE_CP`` in the evaluation, so these
   values already pay for the joker spent;
4. Beginner and Easy (A21; and a low ``UCI_Elo``) search every action with a full window
   and pick among the ordinary lines with ``engine.levels.choose``; the levels also cap
   the depth (``LEVEL_DEPTH``) and the nodes (``engine.levels``).

It never prints: it reports through ``on_info`` and returns a ``BestMove`` whose move is
the action as one protocol word (``engine.notation.alea_token``).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from engine import alea
from engine.alea import CASTLE, JOKER, MOVE, REROLL, Action
from engine.aleacore import BOUND_CP
from engine.deepening import BestMove, Clock, GoLimits, SearchInfo, _wait_for_release, \
    final_score
from engine.levels import Strength, choose
from engine.notation import alea_token

JOKER_CP = 90           # a free-move joker left, in the evaluation (spending one costs this)
REROLL_CP = 30          # a reroll joker left
CASTLE_CP = 10          # the castle joker, while the side may still castle
WIN_MARGIN = 100        # a free-move joker must win this much more than the dice allow
SAVE_MARGIN = 0         # ... when it saves a piece worth >= 3 the dice cannot save (A22)
REROLL_MARGIN = 30      # new dice must be worth this much more than the best action now
CASTLE_MARGIN = 0       # the castle joker's price is already in the evaluation
JOKER_CANDIDATES = 6    # joker moves searched again beyond depth 1
MAX_DEPTH = 32
NEXT_DEPTH_SHARE = 2.0  # start a depth predicted to end within this many soft budgets
LEVEL_DEPTH = {"beginner": 1, "easy": 2, "normal": 3}   # plies; hard: the clock decides
WHOLE_LEVELS = ("normal", "hard", "adaptive")   # A21: only Beginner and Easy err on purpose
GUIDE_DEPTH = 2         # guide review and draw offers: this deep, at most GUIDE_NODES
GUIDE_NODES = 400_000
RESCUE_SECONDS = 0.05
DRAW_WORSE = 80         # A17: accept when worse by more than this (cp)
DRAW_BALANCED = 50      # ... or when the game is long and within this of equal
DRAW_LONG_MOVE = 40     # "long": after this move number
MATE_NEAR = 1960        # a value above this is a forced mate within the horizon
VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 100}
NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}


def configure(core) -> None:
    """Give the C core the jokers' worth (the same for every search)."""
    core.configure(JOKER_CP, REROLL_CP, CASTLE_CP)


# -- attacks on the board (for the guide and A22; a few calls per move, plain Python) -----
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_ROOK = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _cell(x: int, y: int) -> str | None:
    return f"{'abcdefgh'[x]}{y + 1}" if 0 <= x < 8 and 0 <= y < 8 else None


def attackers(board, cell: str, white: bool) -> list[tuple[str, str]]:
    """(cell, lower-case letter) of the pieces of one colour that attack ``cell`` (pins
    ignored: what a person sees as an attack)."""
    x, y = "abcdefgh".index(cell[0]), int(cell[1]) - 1
    out = []

    def own(c, letters):
        piece = board.piece_at(c) if c else None
        return piece is not None and piece.isupper() == white and piece.lower() in letters

    pawn_y = y - 1 if white else y + 1
    for dx in (-1, 1):
        c = _cell(x + dx, pawn_y)
        if own(c, "p"):
            out.append((c, "p"))
    for steps, letters in ((_KNIGHT, "n"), (_KING, "k")):
        for dx, dy in steps:
            c = _cell(x + dx, y + dy)
            if own(c, letters):
                out.append((c, letters))
    for rays, letters in ((_ROOK, "rq"), (_BISHOP, "bq")):
        for dx, dy in rays:
            k = 1
            while (c := _cell(x + k * dx, y + k * dy)) is not None:
                piece = board.piece_at(c)
                if piece is not None:
                    if own(c, letters):
                        out.append((c, piece.lower()))
                    break
                k += 1
    return out


def en_prise(board, cell: str) -> list[tuple[str, str]]:
    """The enemy attackers of the piece on ``cell`` when it can be taken with profit: by
    a cheaper piece, or at all when nothing defends it; [] when it is safe."""
    piece = board.piece_at(cell)
    if piece is None:
        return []
    white = piece.isupper()
    enemy = attackers(board, cell, not white)
    if not enemy:
        return []
    value = VALUES[piece.lower()]
    cheaper = [a for a in enemy if VALUES[a[1]] < value]
    if cheaper:
        return cheaper
    if attackers(board, cell, white):
        return []
    return [a for a in enemy if a[1] != "k"] or enemy


@dataclass(frozen=True)
class Threat:
    """An own piece worth 3 or more that the opponent can take with profit."""

    cell: str
    piece: str                  # lower-case letter
    by: tuple                   # (cell, letter) of the attackers

    def text(self) -> str:
        cell, letter = self.by[0]
        return f"your {NAMES[self.piece]} on {self.cell} is attacked by the " \
               f"{NAMES[letter]} on {cell}"


def threats(state: alea.AleaState) -> list[Threat]:
    """Threats against the side to move, the most valuable piece first (the queen above
    all: A22)."""
    board = state.board
    white = board.turn == "w"
    found = []
    for rank in range(8):
        for file in range(8):
            cell = _cell(file, rank)
            piece = board.piece_at(cell)
            if piece is None or piece.isupper() != white or VALUES[piece.lower()] < 3 \
                    or piece.lower() == "k":
                continue
            by = en_prise(board, cell)
            if by:
                found.append(Threat(cell, piece.lower(), tuple(by)))
    found.sort(key=lambda t: (-VALUES[t.piece], t.cell))
    return found


def after(state: alea.AleaState, action: Action) -> alea.AleaState | None:
    """The state after an action (a promotion as a queen), None for a reroll."""
    if action.kind == REROLL:
        return None
    promo = "q" if alea.is_promotion(state, action.move) else None
    return alea.apply(state, action, promo)


def saves(state: alea.AleaState, action: Action, threat: Threat) -> bool:
    """Whether the threatened piece is safe after ``action`` (moved away, defended, the
    attacker taken, or the game won)."""
    nxt = after(state, action)
    if nxt is None:
        return False
    if alea.outcome(nxt) is not None:
        return True
    cell = action.move[2:4] if action.move[:2] == threat.cell else threat.cell
    piece = nxt.board.piece_at(cell)
    white = state.board.turn == "w"
    if piece is None or piece.isupper() != white:
        return False
    return not en_prise(nxt.board, cell)


# -- the root ------------------------------------------------------------------------------
@dataclass
class Analysis:
    """The root's values at the last complete depth, and the choice they lead to."""

    values: dict = field(default_factory=dict)      # Action -> value (exact for the best
    depth: int = 0                                  # of each category, else upper bounds)
    reroll: float | None = None                     # a bound from the null-window test
    reroll_wins: bool = False
    rescues: frozenset = frozenset()                # joker actions that do what A22 wants
    threat: Threat | None = None                    # the first threat (A22) if any
    choice: Action | None = None
    kind: str = MOVE                                # the category chosen

    def best(self, kinds) -> tuple[Action | None, float]:
        found = [(v, a) for a, v in self.values.items() if a.kind in kinds]
        if not found:
            return None, -float("inf")
        v, a = max(found, key=lambda item: item[0])
        return a, v

    def value(self, action: Action) -> float | None:
        if action.kind == REROLL:
            return self.reroll
        return self.values.get(action)


def root_actions(state: alea.AleaState) -> list[Action]:
    """The legal actions, less free-move jokers on moves the dice allow anyway."""
    actions = alea.legal_actions(state)
    plain = {a.move for a in actions if a.kind == MOVE}
    return [a for a in actions if not (a.kind == JOKER and a.move in plain)]


def a22_rescues(state: alea.AleaState, actions: list[Action]) -> tuple[Threat | None, frozenset]:
    """A22: when the most valuable attacked piece worth >= 3 cannot be saved by any move
    the dice allow, the joker moves that save it (else an empty set)."""
    found = threats(state)
    if not found:
        return None, frozenset()
    threat = found[0]
    jokers = [a for a in actions if a.kind == JOKER]
    if not jokers:
        return threat, frozenset()
    if any(saves(state, a, threat) for a in actions if a.kind in (MOVE, CASTLE)):
        return threat, frozenset()
    return threat, frozenset(a for a in jokers if saves(state, a, threat))


def _margin(analysis: Analysis, action: Action) -> float:
    if action.kind == JOKER:
        return SAVE_MARGIN if action in analysis.rescues else WIN_MARGIN
    if action.kind == CASTLE:
        return CASTLE_MARGIN
    return 0.0


def decide(analysis: Analysis) -> None:
    """Fill ``choice`` and ``kind`` from the values (see the module docstring, 3)."""
    best, best_score = analysis.best((MOVE,))
    for action, value in analysis.values.items():
        if action.kind in (JOKER, CASTLE) and value - _margin(analysis, action) > best_score:
            best, best_score = action, value - _margin(analysis, action)
    if analysis.reroll_wins and best not in analysis.rescues:
        best = Action(REROLL)           # A22 names the free-move joker for a rescue
    analysis.choice = best
    analysis.kind = best.kind if best is not None else MOVE


def analyse(core, state: alea.AleaState, max_depth: int, full: bool = False, clock=None,
            on_depth=None) -> Analysis:
    """Iterative deepening over the root actions (``core`` already set to ``state``).

    ``full``: every action with a full window (exact values, for the weakened levels and
    the guide's review). ``on_depth(analysis)`` is called after each complete depth. Stops
    when the core is stopped (its limits or ``stop``) or the clock's soft time is spent;
    the result is that of the last complete depth (depth 1 is always completed, under a
    short rescue deadline if need be)."""
    actions = root_actions(state)
    result = Analysis()
    result.threat, result.rescues = a22_rescues(state, actions)
    searched = [a for a in actions if a.kind != REROLL]
    can_reroll = any(a.kind == REROLL for a in actions)
    bound = float(BOUND_CP)
    spent: list[float] = []                     # seconds each complete depth took
    for depth in range(1, max_depth + 1):
        if clock is not None and not _next_depth_fits(clock, spent):
            break
        begun = time.monotonic()
        order = sorted(searched, key=lambda a: -result.values.get(a, 0.0)) if result.values \
            else searched
        if depth > 1:
            jokers = [a for a in order if a.kind == JOKER][:JOKER_CANDIDATES]
            order = [a for a in order if a.kind != JOKER or a in jokers]
        values: dict = {}
        alpha: dict = {}
        for action in order:
            lo = -bound if full else alpha.get(action.kind, -bound)
            v = core.action_value(action.kind, action.move, depth, lo, bound)
            if core.stopped:
                break
            values[action] = v
            alpha[action.kind] = max(alpha.get(action.kind, -bound), v)
        else:
            trial = Analysis(values=values, depth=depth, rescues=result.rescues,
                             threat=result.threat)
            decide(trial)
            if can_reroll:
                current = trial.value(trial.choice) - _margin(trial, trial.choice)
                target = current + REROLL_MARGIN
                trial.reroll = core.reroll_value(depth, target - 0.5, target + 0.5)
                trial.reroll_wins = trial.reroll > target
                decide(trial)
            if not core.stopped:
                result = trial
                spent.append(time.monotonic() - begun)
                if on_depth is not None:
                    on_depth(result)
        if core.stopped or (clock is not None and clock.out_of_soft_time()):
            break
        if len(actions) == 1:
            break
    if result.depth == 0:                           # stopped inside depth 1: rescue it
        core.resume(RESCUE_SECONDS)
        for action in searched:
            v = core.action_value(action.kind, action.move, 1)
            if core.stopped:
                break
            result.values[action] = v
        core.stop()
        if not result.values:
            result.values = {searched[0] if searched else actions[0]: 0.0}
        result.depth = 1
        decide(result)
    return result


def _next_depth_fits(clock, spent: list[float]) -> bool:
    """Whether the next depth is likely to end within NEXT_DEPTH_SHARE soft budgets (the
    hard limit is up to four): a depth left unfinished is wasted (values of different
    depths do not mix in expectimax). The next one is predicted from the growth of the
    last two (at least x3)."""
    if clock.soft is None or len(spent) < 2:
        return True
    growth = spent[-1] / spent[-2] if spent[-2] > 1e-4 else 10.0
    growth = min(max(growth, 3.0), 60.0)
    return clock.elapsed() + spent[-1] * growth <= clock.soft * NEXT_DEPTH_SHARE


def think_alea(core, state: alea.AleaState, ev, limits: GoLimits, overhead_ms: int,
               strength: Strength, on_info, clock_box: list, rng: random.Random | None = None,
               guide: bool = False) -> BestMove:
    """Choose an action for ``state`` (its dice shown; see the module docstring).

    ``clock_box`` receives the Clock at once (``ponderhit``); ``core.stop()`` ends the
    search from any thread. With ``guide`` the guide's lines (``guide_lines``) are
    reported as ``info string`` before the move."""
    rng = rng or random.Random()
    core.new_search()
    clock = Clock(core, limits, state.side, overhead_ms, strength.max_think,
                  strength.max_nodes)
    clock_box.append(clock)
    outcome = alea.outcome(state)
    if outcome is not None or not alea.legal_actions(state):
        on_info(SearchInfo(depth=0, score=final_score(outcome, state.side)))
        _wait_for_release(core, clock, limits)
        return BestMove(None)
    core.set_root(state, ev)
    max_depth = min(limits.depth or MAX_DEPTH, LEVEL_DEPTH.get(strength.name, MAX_DEPTH),
                    strength.max_depth or MAX_DEPTH, MAX_DEPTH)
    wanted = set(limits.searchmoves or ())

    def report(result: Analysis) -> None:
        action = result.choice
        value = result.value(action) if action is not None else 0.0
        on_info(SearchInfo(depth=result.depth, seldepth=max(core.seldepth, result.depth),
                           score=int(round(value or 0.0)), nodes=core.nodes,
                           time_ms=int(clock.elapsed() * 1000),
                           pv=[alea_token(action)] if action is not None else []))

    weaken = strength.lines > 1 and strength.name not in WHOLE_LEVELS
    result = analyse(core, state, max_depth, full=weaken, clock=clock, on_depth=report)
    _wait_for_release(core, clock, limits)
    action = result.choice
    if weaken and action.kind in (MOVE, CASTLE):
        lines = sorted(((v, [a]) for a, v in result.values.items() if a.kind in (MOVE, CASTLE)),
                       key=lambda line: -line[0])
        action = choose(lines, strength, rng)[1][0]
    if wanted:
        allowed = [a for a in result.values if alea_token(a) in wanted]
        if Action(REROLL) in alea.legal_actions(state) and "reroll" in wanted:
            allowed.append(Action(REROLL))
        if allowed and alea_token(action) not in wanted:
            action = max(allowed, key=lambda a: result.value(a) or -1e9)
    if guide:
        _remember_advice(state, action)
        for line in guide_lines(state, result, action):
            on_info(SearchInfo(depth=0, string=line))
    return BestMove(alea_token(action))


# -- the guide (A22) ---------------------------------------------------------------------------
# The last advice per state (its Alea FEN, dice included), so that ``review`` names the
# move the guide advised rather than its own shallower search's choice.
_ADVICE: dict = {}
ADVICE_KEPT = 16


def _remember_advice(state: alea.AleaState, action: Action) -> None:
    _ADVICE[state.fen()] = action
    while len(_ADVICE) > ADVICE_KEPT:
        del _ADVICE[next(iter(_ADVICE))]


def guide_lines(state: alea.AleaState, result: Analysis, action: Action) -> list[str]:
    """``guide threat ...`` for each threatened piece (most valuable first), then
    ``guide best <token> reason <text>`` (docs/protocol.md, "Alea games")."""
    lines = [f"guide threat {t.text()}" for t in threats(state)]
    lines.append(f"guide best {alea_token(action)} reason {reason(state, result, action)}")
    return lines


def reason(state: alea.AleaState, result: Analysis, action: Action) -> str:
    """Why ``action`` is good, in words a person understands; threats first."""
    found = threats(state)
    if action.kind == REROLL:
        if found:
            return f"the dice cannot save your {NAMES[found[0].piece]}: new dice may"
        return "these dice give nothing good: new dice are worth more"
    value = result.value(action)
    nxt = after(state, action)
    outcome = alea.outcome(nxt)
    prefix = "a free-move joker " if action.kind == JOKER else ""
    if outcome is not None and outcome.termination == "checkmate":
        return prefix + "mates" if prefix else "mate in 1"
    if value is not None and value > MATE_NEAR:
        moves = max(1, round((BOUND_CP - value + 1) / 2))
        return f"{prefix}mate in {moves}"
    board = state.board
    move = action.move
    victim = board.piece_at(move[2:4])
    mover = board.piece_at(move[:2]).lower()
    if victim is None and mover == "p" and move[0] != move[2]:
        victim = "p"                                    # en passant
    victim = victim.lower() if victim is not None else None
    saved = next((t for t in found if saves(state, action, t)), None)
    if saved is not None and (saved.piece == "q" or victim is None
                              or VALUES[victim] < VALUES[saved.piece]):
        piece = NAMES[saved.piece]
        if action.kind == JOKER:
            return f"the dice cannot save your {piece}: a free-move joker saves it"
        return f"saves your {piece}"
    lost = ""
    if found and saved is None and (victim is None or VALUES[victim] < VALUES[found[0].piece]):
        lost = f"the dice cannot save your {NAMES[found[0].piece]}; "
    if action.kind == CASTLE:
        return lost + "castles the king to safety (castle joker)"
    if victim is not None:
        gain = "wins" if en_prise(board, move[2:4]) or VALUES[victim] > VALUES[mover] \
            else "takes"
        return f"{lost}{prefix}{gain} a {NAMES[victim]}"
    return lost + _quiet_reason(state, action, nxt, prefix, mover)


def _quiet_reason(state, action, nxt, prefix: str, mover: str) -> str:
    board = state.board
    move = action.move
    if alea.is_promotion(state, move):
        return prefix + "promotes the pawn (the promotion die decides the piece)"
    if nxt.board.is_check():
        return prefix + "gives check"
    home = "1" if board.turn == "w" else "8"
    if mover in "nb" and move[1] == home:
        return f"{prefix}develops the {NAMES[mover]}"
    if mover == "p" and move[2:4] in ("d4", "e4", "d5", "e5"):
        return prefix + "takes the centre"
    follow = state.follow_up[state.side]
    if follow and move[:2] in follow:
        return "uses the free move after castling"
    if mover == "k":
        return "improves the king"
    return prefix + f"improves the {NAMES[mover]}"


def review(core, state: alea.AleaState, ev, played: Action) -> str:
    """``guide review played <token> best <token> loss <cp> joker <worth|not worth>``:
    the played action against the best one for the same dice (GUIDE_DEPTH plies, at most
    GUIDE_NODES nodes), and whether a free-move joker was (or would have been) worth it.
    When the guide advised on this very state, "best" is that advice (searched deeper),
    so advice and review never contradict each other."""
    legal = alea.legal_actions(state)
    if played not in legal:
        raise ValueError(f"{alea_token(played)} is not legal here: guide review takes the "
                         "position before the move, with its dice")
    core.new_search()
    core.set_root(state, ev)
    core.set_limits(0.0, GUIDE_NODES)
    result = analyse(core, state, GUIDE_DEPTH, full=True)
    best = result.choice
    advised = _ADVICE.get(state.fen())
    if advised is not None and advised in legal:
        best = advised          # the guide's own advice, searched deeper than this review
    value = result.value(played)
    if value is None:
        core.resume(RESCUE_SECONDS * 4)
        value = core.reroll_value(result.depth) if played.kind == REROLL else \
            core.action_value(played.kind, played.move, result.depth)
    if played.kind == REROLL and result.reroll is not None and not result.reroll_wins:
        value = min(value, result.reroll)
    best_value = result.value(best)
    if best_value is None and best.kind != REROLL:
        core.resume(RESCUE_SECONDS * 4)
        best_value = core.action_value(best.kind, best.move, result.depth)
    if best.kind == REROLL:
        best_value = max(result.best((MOVE,))[1] + REROLL_MARGIN, best_value or -1e9)
    loss = max(0, int(round((best_value or 0.0) - value)))
    if played.kind == JOKER:
        worth = value - _margin(result, played) > result.best((MOVE,))[1]
    else:
        worth = best.kind == JOKER
    return (f"guide review played {alea_token(played)} best {alea_token(best)} loss {loss} "
            f"joker {'worth' if worth else 'not worth'}")


def accepts_draw(core, state: alea.AleaState, ev, engine_side: int) -> bool:
    """A17: accept when standing worse by more than DRAW_WORSE, or after move
    DRAW_LONG_MOVE within DRAW_BALANCED of equal; decline otherwise (better, or early)."""
    if alea.outcome(state) is not None:
        return True
    core.new_search()
    core.set_root(state, ev)
    core.set_limits(0.0, GUIDE_NODES // 4)
    if alea.needs_roll(state):
        value = core.chance_value(GUIDE_DEPTH)
        if core.stopped:
            core.resume(RESCUE_SECONDS)
            value = core.chance_value(1)
    else:
        result = analyse(core, state, GUIDE_DEPTH)
        value = result.value(result.choice) or 0.0
    mine = value if state.side == engine_side else -value
    fullmove = int(state.board.fen().split()[5])
    if mine < -DRAW_WORSE:
        return True
    return fullmove > DRAW_LONG_MOVE and abs(mine) <= DRAW_BALANCED
