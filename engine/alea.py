"""Alea chess (chess with two dice): the rules core, by docs/rules/alea.md (A1-A16, A19).

What this module decides, rule by rule:

* A1-A2, A4, A16: chess itself (moves, check, en passant, captures) comes from
  ``Board("chess")``; every action here is a chess-legal move, so no action ever leaves the
  own king attacked.
* A5: a side's first 8 moves (``moves`` < 8) are free: any piece but the king, no dice.
* A6: :func:`dice_types`: 1 or 2 knight, 3 or 6 bishop, 4 rook, 5 queen.
* A7: with dice shown, a move is a pawn move, a one-square king move, or a move of a piece
  of a type the dice show.
* A8: :func:`roll` and :func:`dice_distribution` (the automatic rerolls, see below).
* A9: ``last_type``: the type a side moved last (None after a pawn move); that type may not
  move on the side's next turn. The free phase ignores it but sets it.
* A10: in check only answers are legal (the board sees to it), the cooldown is lifted and
  the dice are rolled over the types that can answer; the king may always answer.
* A11: a promotion action carries no piece (``e7e8``); :func:`apply` takes the rolled piece
  (:func:`promotion_distribution`).
* A12-A13: the king's one step: cooldown, the capture of an unprotected piece, the lone
  enemy king, and the king as the last resort.
* A14-A15: jokers (free move, reroll, castle) and the castle follow-up.
* A2-A3: :func:`outcome` (checkmate, stalemate, threefold, fifty moves, dead material).
* A19: classic mode: plain chess, promotion to a queen.

Dice and the distribution. The dice shown are an *unordered* pair of piece types in the
canonical order n, b, r, q (``("n", "q")``; ``("r", "r")`` when one type is playable), or
None when no dice are shown. The arbiter rolls two dice and rolls again (A8) while both
show the same type or a die shows a type that cannot move (gone, blocked, on cooldown;
in check: cannot answer the check, A10). *(decided)* With exactly one playable type it
rolls until both dice show it; with none, no dice are shown. :func:`dice_distribution`
gives the exact probabilities (as Fractions): the 36 ordered outcomes are enumerated, the
rejected ones dropped and the rest renormalised, which is what rejection sampling yields.

Actions (:class:`Action`, written as text ``e2e4``, ``joker e2e4``, ``castle e1g1``,
``reroll``): ``move`` (an ordinary move, including the castle follow-up), ``joker`` (a
free-move joker spent on a move), ``castle`` (the castle joker), ``reroll`` (a reroll
joker: the same side then gets new dice). After :func:`apply` the next side's dice are
None until the arbiter rolls (:func:`needs_roll`, :func:`roll`, :meth:`AleaState.with_dice`).

Alea FEN (:meth:`AleaState.fen`, :meth:`AleaState.parse`; also docs/protocol.md, "Alea
state"): the six FEN fields, then eight more, per-side ones written White/Black::

    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0/0 -/- 4/4 2/2 1/1 -/- - alea

    moves      moves made by each side (A5: free while < 8)
    last       type each side moved last, n b r q k, or - (none yet, or a pawn: A9)
    jokers     free-move jokers left (A14; Normal 4/4)
    rerolls    reroll jokers left (A14; 2/2)
    castle     castle jokers left (A15; 1/1)
    follow-up  per side, - or the castled rook's cell then the king's cell (f1g1): the
               A15 follow-up right for that side's next turn
    dice       - or the two types shown, canonical order (nq, bb)
    mode       alea, or classic (A19: the Alea fields are kept but unused)

Decisions where the rules are silent (docs/protocol.md, "Alea state", points here):

1. Free phase (A5): the free-move and reroll jokers are not available (there are no dice
   to ignore or reroll); the castle joker is. The king moves only to answer a check (A10
   over A5) or when no other move exists (A13); A12's king capture without dice and its
   lone-king rule apply from the 9th move on.
2. The A15 follow-up holds in the free phase too, the king step included. Its moves are
   ordinary ``move`` actions (using the right spends nothing). The rook part needs the own
   rook still on its cell. The right lapses with the side's next move, whatever it is.
3. A13's "no other legal move" counts ordinary moves only (pawn moves and moves of the
   types shown; a pending follow-up frees the king anyway), never joker moves: a joker is
   never forced. If even the king
   cannot move, every chess-legal move is allowed that turn, without dice or cooldown, so
   checkmate and stalemate are exactly chess's (A2) and :func:`outcome` needs no dice.
4. A12: "unprotected" means the capture is legal (the king is not attacked there).
5. A free-move joker may be spent on any legal move, even one the dice allow, and in check
   (on an answer). A reroll joker needs dice shown; a side may reroll again while it has
   reroll jokers. Jokers are spent only by the action that uses them.
6. A promotion is one action whatever the piece; in classic mode it is a queen.
7. Repetition (A3) compares board positions only (placement, side to move, castling
   rights, en passant), as in chess; the history lives in the Board, so a parsed state
   starts a new history. Dead material (A3) is exactly K v K, K+N v K, K+B v K.
8. The FEN castling field stays chess's; castling also needs a castle joker (A15).
9. :func:`legal_actions` does not look at :func:`outcome`: a game drawn by repetition, the
   fifty-move rule or dead material still lists moves; the arbiter checks the end first.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import NamedTuple

from engine.board import Board
from engine.game_end import Outcome
from engine.notation import check_fen_length, quote

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FREE_MOVES = 8                                  # A5
DICE_TYPES = "nbrq"                             # the types dice show, canonical order
DIE_TYPE = {1: "n", 2: "n", 3: "b", 4: "r", 5: "q", 6: "b"}          # A6
PROMOTION_DIE = {1: "n", 2: "b", 3: "r", 4: "r", 5: "q", 6: "q"}     # A11
FREE_JOKERS_HUMAN = {"beginner": 6, "easy": 5, "normal": 4, "hard": 2}   # A14
FREE_JOKERS_TOTAL = 8                           # A14 (decided): computer gets 8 - human
REROLL_JOKERS = 2                               # A14
CASTLE_JOKERS = 1                               # A15
# A15: castling king move -> the castled rook's cell afterwards.
CASTLE_ROOK_TO = {"e1g1": "f1", "e1c1": "d1", "e8g8": "f8", "e8c8": "d8"}
MODES = ("alea", "classic")

MOVE, JOKER, CASTLE, REROLL = "move", "joker", "castle", "reroll"
KINDS = (MOVE, JOKER, CASTLE, REROLL)


class Action(NamedTuple):
    """One thing a side may do on its turn: ``kind`` and a UCI move without promotion
    letter (empty for ``reroll``)."""

    kind: str
    move: str = ""

    def __str__(self) -> str:
        if self.kind == MOVE:
            return self.move
        return self.kind if self.kind == REROLL else f"{self.kind} {self.move}"

    @classmethod
    def parse(cls, text: str) -> "Action":
        """``e2e4``, ``joker e2e4``, ``castle e1g1`` or ``reroll``."""
        words = text.split()
        if words == [REROLL]:
            return cls(REROLL)
        if len(words) == 1 and words[0] not in KINDS:
            return cls(MOVE, words[0])
        if len(words) == 2 and words[0] in (JOKER, CASTLE):
            return cls(words[0], words[1])
        raise ValueError(f"not an Alea action: {quote(text)} (want e2e4, joker e2e4, "
                         "castle e1g1 or reroll)")


def free_jokers(level: str, human: str) -> tuple[int, int]:
    """A14: free-move jokers (White, Black) when the human plays ``human`` ('w' or 'b')
    at ``level``; the computer gets 8 minus the human's count."""
    if level not in FREE_JOKERS_HUMAN:
        raise ValueError(f"level must be one of {', '.join(FREE_JOKERS_HUMAN)}, not "
                         f"{quote(level)}")
    own = FREE_JOKERS_HUMAN[level]
    pair = (own, FREE_JOKERS_TOTAL - own)
    return pair if human == "w" else pair[::-1]


def dice_pair(t1: str, t2: str) -> tuple[str, str]:
    """Two die types as the canonical unordered pair."""
    return tuple(sorted((t1, t2), key=DICE_TYPES.index))


def dice_types(d1: int, d2: int) -> tuple[str, str]:
    """A6: the piece types two die faces give, as a canonical pair (5, 1 -> ('n', 'q'))."""
    for d in (d1, d2):
        if d not in DIE_TYPE:
            raise ValueError(f"a die shows 1 to 6, not {d!r}")
    return dice_pair(DIE_TYPE[d1], DIE_TYPE[d2])


def promotion_distribution(state: "AleaState | None" = None) -> dict[str, Fraction]:
    """A11: the promotion die's piece and its probability (classic mode: always a queen)."""
    if state is not None and state.classic:
        return {"q": Fraction(1)}
    out: dict[str, Fraction] = {}
    for piece in PROMOTION_DIE.values():
        out[piece] = out.get(piece, Fraction(0)) + Fraction(1, 6)
    return out


# --- the state --------------------------------------------------------------------------

@dataclass(frozen=True)
class _Chess:
    """What the chess board alone says (computed once per board)."""

    by_type: dict          # mover type -> chess-legal non-castling moves (no promo letter)
    castles: tuple         # legal castling moves (king moves e1g1 ...)
    promotions: frozenset  # moves that promote
    in_check: bool
    lone_king: tuple       # (White has only its king, Black has only its king)


@dataclass(frozen=True, eq=False)
class AleaState:
    """A position of Alea chess: the board plus what the rules remember.

    Per-side fields are (White, Black) pairs. The state is immutable by convention: never
    push on ``board``; :func:`apply` returns a new state. Two states are equal when their
    Alea FENs are equal.
    """

    board: Board
    moves: tuple = (0, 0)                 # moves made (A5)
    last_type: tuple = (None, None)       # type moved last, None after a pawn (A9)
    jokers: tuple = (4, 4)                # free-move jokers left (A14)
    rerolls: tuple = (REROLL_JOKERS, REROLL_JOKERS)
    castle_jokers: tuple = (CASTLE_JOKERS, CASTLE_JOKERS)
    follow_up: tuple = (None, None)       # (rook cell, king cell) per side (A15)
    dice: tuple | None = None             # canonical type pair shown, or None
    classic: bool = False                 # A19
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        _validate(self)

    @classmethod
    def start(cls, jokers=(4, 4), classic=False, fen=START_FEN) -> "AleaState":
        """A new game (``fen`` for a chosen start position, with fresh counters)."""
        return cls(Board("chess", fen), jokers=tuple(jokers), classic=classic)

    @property
    def side(self) -> int:
        """0 when White is to move, 1 for Black."""
        return 0 if self.board.turn == "w" else 1

    def with_dice(self, dice) -> "AleaState":
        """The same state with these dice shown (a pair of types, or None)."""
        return replace(self, dice=None if dice is None else dice_pair(*dice),
                       _cache=self._cache)

    def fen(self) -> str:
        """The Alea FEN (see the module docstring)."""
        def pair(values, show):
            return "/".join(show(v) for v in values)
        fields = [
            self.board.fen(),
            pair(self.moves, str),
            pair(self.last_type, lambda t: t or "-"),
            pair(self.jokers, str),
            pair(self.rerolls, str),
            pair(self.castle_jokers, str),
            pair(self.follow_up, lambda f: f[0] + f[1] if f else "-"),
            "".join(self.dice) if self.dice else "-",
            "classic" if self.classic else "alea",
        ]
        return " ".join(fields)

    @classmethod
    def parse(cls, text: str) -> "AleaState":
        """The state an Alea FEN describes; ValueError naming the bad field otherwise."""
        words = check_fen_length(text).split()
        if len(words) != 14:
            raise ValueError(f"an Alea FEN has 14 fields (6 FEN + moves last jokers rerolls "
                             f"castle follow-up dice mode), not {len(words)}: {quote(text)}")
        board = Board("chess", " ".join(words[:6]))
        moves, last, jokers, rerolls, castle, follow, dice, mode = words[6:]
        if mode not in MODES:
            raise ValueError(f"Alea FEN mode must be alea or classic, not {quote(mode)}")
        if dice == "-":
            shown = None
        elif len(dice) == 2 and all(t in DICE_TYPES for t in dice):
            shown = dice_pair(dice[0], dice[1])
        else:
            raise ValueError(f"Alea FEN dice must be - or two of n b r q, not {quote(dice)}")
        return cls(
            board,
            moves=_per_side(moves, "moves", _count),
            last_type=_per_side(last, "last", _last_type),
            jokers=_per_side(jokers, "jokers", _count),
            rerolls=_per_side(rerolls, "rerolls", _count),
            castle_jokers=_per_side(castle, "castle", _count),
            follow_up=_per_side(follow, "follow-up", _follow_up),
            dice=shown,
            classic=mode == "classic",
        )

    def __eq__(self, other):
        return isinstance(other, AleaState) and self.fen() == other.fen()

    def __hash__(self):
        return hash(self.fen())

    def __repr__(self):
        return f"AleaState.parse({self.fen()!r})"


def _per_side(text: str, what: str, convert) -> tuple:
    parts = text.split("/")
    if len(parts) != 2:
        raise ValueError(f"Alea FEN {what} must be White/Black, not {quote(text)}")
    return tuple(convert(p, what) for p in parts)


def _count(text: str, what: str) -> int:
    if not text.isdigit() or not text.isascii():
        raise ValueError(f"Alea FEN {what} must be numbers, not {quote(text)}")
    return int(text)


def _last_type(text: str, what: str):
    if text == "-":
        return None
    if len(text) == 1 and text in "nbrqk":
        return text
    raise ValueError(f"Alea FEN {what} must be one of n b r q k -, not {quote(text)}")


def _follow_up(text: str, what: str):
    if text == "-":
        return None
    if len(text) == 4:
        return (text[:2], text[2:])
    raise ValueError(f"Alea FEN {what} must be - or two cells (f1g1), not {quote(text)}")


_LIMITS = (("jokers", FREE_JOKERS_TOTAL), ("rerolls", REROLL_JOKERS),
           ("castle_jokers", CASTLE_JOKERS))


def _validate(s: AleaState) -> None:
    """One place for the consistency of a state (constructor and parse)."""
    for name, limit in (("moves", None),) + _LIMITS:
        values = getattr(s, name)
        if (len(values) != 2 or any(not isinstance(v, int) or v < 0 for v in values)
                or (limit is not None and max(values) > limit)):
            bound = f" of at most {limit}" if limit is not None else ""
            raise ValueError(f"{name} must be two counts{bound} (White, Black), not {values!r}")
    if len(s.last_type) != 2 or any(t not in (None, *"nbrqk") for t in s.last_type):
        raise ValueError(f"last_type must be two of n b r q k or None, not {s.last_type!r}")
    for colour, follow in zip("wb", s.follow_up):
        if follow is None:
            continue
        rook, king = follow
        names = s.board.variant.geometry.names
        if rook not in names or king not in names:
            raise ValueError(f"follow-up cells must be board cells, not {follow!r}")
        want = "K" if colour == "w" else "k"
        if s.board.piece_at(king) != want:
            raise ValueError(f"follow-up king cell {king} does not hold the {colour} king")
    if s.dice is not None:
        if len(s.dice) != 2 or any(t not in DICE_TYPES for t in s.dice):
            raise ValueError(f"dice must be two of n b r q, not {s.dice!r}")
        if s.classic or s.moves[s.side] < FREE_MOVES:
            raise ValueError("no dice are shown in classic mode or in the free phase (A5)")


# --- what the board says ------------------------------------------------------------------

def _chess(state: AleaState) -> _Chess:
    c = state._cache.get("chess")
    if c is None:
        c = state._cache["chess"] = _analyse(state.board)
    return c


def _analyse(board: Board) -> _Chess:
    by_type: dict[str, list[str]] = {t: [] for t in "pnbrqk"}
    castles, promotions = [], set()
    for uci in sorted(board.legal_moves()):         # an order the FEN alone decides
        move = uci[:4]
        if len(uci) == 5:
            promotions.add(move)
        mover = board.piece_at(move[:2]).lower()
        if mover == "k" and abs(ord(move[0]) - ord(move[2])) == 2:
            castles.append(move)
        elif move not in by_type[mover]:
            by_type[mover].append(move)
    placement = board.fen().split()[0]
    lone = tuple(not any(ch.isalpha() and ch.lower() != "k" and (ch.isupper() == white)
                         for ch in placement) for white in (True, False))
    return _Chess({t: tuple(v) for t, v in by_type.items()}, tuple(castles),
                  frozenset(promotions), board.is_check(), lone)


def _all_moves(c: _Chess) -> list[str]:
    """Every chess-legal move but castling."""
    return [m for t in "pnbrqk" for m in c.by_type[t]]


def is_free_phase(state: AleaState) -> bool:
    """A5: the side to move has made fewer than 8 moves (never in classic mode)."""
    return not state.classic and state.moves[state.side] < FREE_MOVES


def in_check(state: AleaState) -> bool:
    return _chess(state).in_check


def playable_types(state: AleaState) -> frozenset:
    """A8: the die types (n b r q) with a legal move for the side to move: not on cooldown
    (A9) unless in check, where the type must answer the check (A10)."""
    c = _chess(state)
    cooling = None if c.in_check else state.last_type[state.side]
    return frozenset(t for t in DICE_TYPES if c.by_type[t] and t != cooling)


def _king_moves(state: AleaState, c: _Chess, others: list[str]) -> list[str]:
    """The king's one-square moves allowed as ordinary moves (A5, A9, A10, A12, A13)."""
    kings = list(c.by_type["k"])
    if is_free_phase(state):
        return kings if c.in_check or not others else []          # A10, A13
    side = state.side
    if (c.in_check or state.last_type[side] != "k" or c.lone_king[1 - side]
            or not others):                                         # A10, A9, A12, A13
        return kings
    return [m for m in kings if state.board.piece_at(m[2:]) is not None]   # A12 capture


def _follow_up_moves(state: AleaState, c: _Chess) -> list[str]:
    """A15: the castled rook's moves and the king's steps, for the turn after castling."""
    follow = state.follow_up[state.side]
    if follow is None:
        return []
    rook, king = follow
    own_rook = "R" if state.side == 0 else "r"
    rooks = [m for m in c.by_type["r"] if m[:2] == rook] \
        if state.board.piece_at(rook) == own_rook else []
    return rooks + [m for m in c.by_type["k"] if m[:2] == king]


def ordinary_moves(state: AleaState) -> list[str]:
    """The moves a side may make without spending a joker (no promotion letter)."""
    c = _chess(state)
    if state.classic:
        return _all_moves(c) + list(c.castles)                      # A19
    if is_free_phase(state):
        others = [m for t in "pnbrq" for m in c.by_type[t]]          # A5
    else:
        types = set(state.dice or ())
        if not c.in_check:
            types.discard(state.last_type[state.side])              # A9 (A10 lifts it)
        others = list(c.by_type["p"]) + [m for t in DICE_TYPES if t in types
                                         for m in c.by_type[t]]     # A7
    moves = others + _king_moves(state, c, others)
    moves += [m for m in _follow_up_moves(state, c) if m not in moves]
    return moves or _all_moves(c)                                   # A13 (decided 3)


def needs_roll(state: AleaState) -> bool:
    """Whether the arbiter must roll before the side to move can act: dice phase, no dice
    shown yet, and some type playable (else no dice are shown at all, A8)."""
    return (not state.classic and not is_free_phase(state) and state.dice is None
            and bool(playable_types(state)))


def legal_actions(state: AleaState) -> list[Action]:
    """Every legal action for the dice shown (ValueError while dice are to be rolled), in
    an order that depends on the Alea FEN alone: ordinary moves, joker moves, castling,
    reroll."""
    if needs_roll(state):
        raise ValueError(f"roll the dice first: {state.fen()}")
    c = _chess(state)
    actions = [Action(MOVE, m) for m in ordinary_moves(state)]
    if state.classic:
        return actions
    side, free = state.side, is_free_phase(state)
    if not free and state.jokers[side] > 0:                         # A14
        actions += [Action(JOKER, m) for m in _all_moves(c)]
    if state.castle_jokers[side] > 0:                               # A15, A5
        actions += [Action(CASTLE, m) for m in c.castles]
    if not free and state.dice is not None and state.rerolls[side] > 0:
        actions.append(Action(REROLL))                              # A14
    return actions


def is_promotion(state: AleaState, move: str) -> bool:
    return move in _chess(state).promotions


# --- dice --------------------------------------------------------------------------------

def _accepted(t1: str, t2: str, playable: frozenset) -> bool:
    """A8: the arbiter keeps a roll when both types are playable and differ, or (decided)
    when only one type is playable and both dice show it."""
    return t1 in playable and t2 in playable and (t1 != t2 or len(playable) == 1)


def roll_faces(state: AleaState, rng) -> tuple[int, int] | None:
    """The two die faces the arbiter shows after A8's automatic rerolls (A10 in check), or
    None when no dice are shown (free phase, classic, or no playable type). ``rng`` is a
    ``random.Random``; each throw draws two ``randint(1, 6)``."""
    if state.classic or is_free_phase(state):
        return None
    playable = playable_types(state)
    if not playable:
        return None
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if _accepted(DIE_TYPE[d1], DIE_TYPE[d2], playable):
            return d1, d2


def roll(state: AleaState, rng) -> tuple[str, str] | None:
    """The dice shown, as a canonical type pair (or None): see :func:`roll_faces`."""
    faces = roll_faces(state, rng)
    return None if faces is None else dice_types(*faces)


def dice_distribution(state: AleaState) -> dict:
    """The exact distribution of :func:`roll` for this state: canonical type pair (or None)
    -> Fraction, from the 36 ordered outcomes renormalised over those A8 accepts."""
    if state.classic or is_free_phase(state):
        return {None: Fraction(1)}
    return dice_distribution_for(playable_types(state))


def dice_distribution_for(playable) -> dict:
    """:func:`dice_distribution` in the dice phase when exactly the types ``playable``
    (a set of n b r q) can move: the search tabulates it once per set."""
    playable = frozenset(playable)
    if not playable:
        return {None: Fraction(1)}
    counts: dict = {}
    for d1 in DIE_TYPE:
        for d2 in DIE_TYPE:
            if _accepted(DIE_TYPE[d1], DIE_TYPE[d2], playable):
                pair = dice_types(d1, d2)
                counts[pair] = counts.get(pair, 0) + 1
    total = sum(counts.values())
    return {pair: Fraction(n, total) for pair, n in counts.items()}


# --- making an action ----------------------------------------------------------------------

def _as_action(action) -> Action:
    return Action.parse(action) if isinstance(action, str) else Action(*action)


def _set(pair: tuple, side: int, value) -> tuple:
    return (value, pair[1]) if side == 0 else (pair[0], value)


def apply(state: AleaState, action, promotion: str | None = None) -> AleaState:
    """The state after ``action`` (an Action or its text). A promotion needs the piece the
    promotion die gave (A11; classic: None or 'q'). ValueError if the action is illegal."""
    action = _as_action(action)
    if action not in legal_actions(state):
        raise ValueError(f"illegal Alea action {quote(str(action))} in {state.fen()}")
    side = state.side
    if action.kind == REROLL:
        return replace(state, rerolls=_set(state.rerolls, side, state.rerolls[side] - 1),
                       dice=None, _cache=state._cache)
    move = action.move
    if is_promotion(state, move):
        if state.classic:
            if promotion not in (None, "q"):
                raise ValueError(f"{move}: in classic mode a pawn becomes a queen (A19)")
            promotion = "q"
        elif promotion not in ("n", "b", "r", "q"):
            raise ValueError(f"{move} promotes: give the piece the promotion die shows "
                             f"(n, b, r or q), not {promotion!r}")
        uci = move + promotion
    elif promotion is not None:
        raise ValueError(f"{move} is not a promotion")
    else:
        uci = move
    mover = state.board.piece_at(move[:2]).lower()
    board = state.board.copy()
    board.push(uci)
    follow = (CASTLE_ROOK_TO[move], move[2:]) if action.kind == CASTLE else None
    return AleaState(
        board,
        moves=_set(state.moves, side, state.moves[side] + 1),
        last_type=_set(state.last_type, side, None if mover == "p" else mover),
        jokers=_set(state.jokers, side, state.jokers[side] - (action.kind == JOKER)),
        rerolls=state.rerolls,
        castle_jokers=_set(state.castle_jokers, side,
                           state.castle_jokers[side] - (action.kind == CASTLE)),
        follow_up=_set(state.follow_up, side, follow),
        dice=None,
        classic=state.classic,
    )


def apply_unrolled(state: AleaState, action, promotion: str | None = None) -> AleaState:
    """:func:`apply` for a game replayed from its actions, whose dice were not recorded:
    while the side to move still has dice to roll, the action is legal when some dice the
    arbiter could show (:func:`dice_distribution`) allow it. ValueError otherwise."""
    if not needs_roll(state):
        return apply(state, action, promotion)
    action = _as_action(action)
    for dice in dice_distribution(state):
        shown = state.with_dice(dice)
        if action in legal_actions(shown):
            return apply(shown, action, promotion)
    raise ValueError(f"illegal Alea action {quote(str(action))} for any dice in "
                     f"{state.fen()}")


# --- the end of the game ---------------------------------------------------------------------

def is_dead_material(state: AleaState) -> bool:
    """A3: K v K, K+N v K or K+B v K (nothing else counts as dead)."""
    placement = state.board.fen().split()[0]
    others = [ch.lower() for ch in placement if ch.isalpha() and ch.lower() != "k"]
    return not others or (len(others) == 1 and others[0] in "nb")


def outcome(state: AleaState) -> Outcome | None:
    """A2-A3: the result if the game is over, else None.

    Checkmate: in check and no move answers it whatever the dice. Over all dice, the
    answers are every chess-legal answer (pawns and the king need no dice, and the dice
    are rolled to fit a type that can answer, A10), so this is chess's checkmate. Stalemate:
    no action at all while not in check; by A13 (and decision 3) a side with any chess move
    has an action, so this is chess's stalemate. Then the fifty-move rule, threefold
    repetition and dead material, in chess's order.
    """
    c = _chess(state)
    if not _all_moves(c):
        if c.in_check:
            return Outcome(0.0 if state.side == 0 else 1.0, "checkmate")
        return Outcome(0.5, "stalemate")
    board = state.board
    if board.halfmove_clock >= 100:
        return Outcome(0.5, "fifty-move rule")
    if board.repetitions() + 1 >= 3:
        return Outcome(0.5, "threefold repetition")
    if is_dead_material(state):
        return Outcome(0.5, "insufficient material")
    return None
