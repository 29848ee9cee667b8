"""Alea on the host side: the arbiter's Referee for chess with two dice
(docs/rules/alea.md; the messages are docs/protocol.md, "Alea games").

``AleaReferee`` keeps the true ``engine.alea.AleaState`` next to the arbiter's chess board,
rolls every die with its own ``random.Random(seed)`` and checks every answer against
``engine.alea.legal_actions``. ``play_game`` gets it from ``referee_for("alea")``. Per turn:

* ``chance``: where the side to move needs dice (``engine.alea.needs_roll``), they are
  rolled with ``engine.alea.roll`` (A8's automatic rerolls, A10 in check).
* ``message_for``: the side to move is sent
  ``position alea fen <initial Alea FEN> [moves <token>...] dice <pair>|-`` and
  ``go wtime <ms> btime <ms> winc <ms> binc <ms>`` (``movetime`` without clocks). Tokens
  are the actions of the whole game in one word: ``e2e4``, ``e7e8r`` (a promotion with the
  piece the die gave), ``joker:e2e4``, ``castle:e1g1``, ``reroll``.
* ``illegal``: an answer that is malformed, not legal for the state and dice shown, or
  not affordable (a joker or reroll with none left) loses the game, with the reason in
  words. A promotion is answered without a piece (``bestmove e7e8``); a piece letter is an
  error.
* ``play``: the action is made; a promotion rolls the promotion die (A11; a queen in
  classic mode). ``reroll`` spends the joker and leaves the same side to move: the arbiter
  then asks again, with new dice.
* ``outcome``: ``engine.alea.outcome`` (mate, stalemate, and A3's draws).

The record: ``rec.moves`` holds the tokens (rerolls included, so the position line is
``moves`` followed by them all), ``rec.dice`` the dice shown before each token, and
``rec.tags["DiceSeed"]`` the seed. The same seed with the same answers gives the same game:
the generator is seeded afresh at each ``setup``, and the dice and promotion dice are
drawn from it in the order they are needed.

Seeds: ``parse_seed`` takes an integer or ``daily``; the daily seed is the first four
bytes (big-endian) of the SHA-256 of ``alea-daily-YYYY-MM-DD`` (the UTC date), so everyone
gets the same dice that day. A match plays each opening twice with colours reversed and
gives both games of pair ``k`` (games ``2k`` and ``2k + 1``) the seed ``base + k``
(``game_seed``), so each engine meets the same dice from both sides and luck cancels within
the pair. Without a seed a random one is drawn, and recorded like any other.

Draw offers (A17) on behalf of a person: ``answer_draw(engine)`` sends the current
position line, then ``draw offer``, and reads ``draw accept`` or ``draw decline``; an
engine that does not answer (or answers with an error) declines. After a refusal the next
offer is possible 10 plies later (the referee refuses earlier ones without asking).

Undo (A18) for the game session (adapters/session.py): ``mark()`` notes the referee at the
start of a turn (state and dice shown, the tokens, the generator's position),
``rewind(mark)`` goes back to it: the record, the arbiter's board and the generator
included, so the same dice are shown again and the same answers get the same dice after
them. The limits per level are the session's (``undo_allowance``).

``sight`` adds what the rules remember to what a side sees (the board is never hidden):
the dice, the free moves made, the jokers, the cooldowns, a castle follow-up, the
promotion die's last result.

Also here, for the players that receive these messages (the terminal, the baselines in
scripts/, the tests): ``parse_token``/``format_token``, ``parse_alea_position`` (a position
line replayed into the state it describes) and ``explain`` (why an action is not legal).
"""
from __future__ import annotations

import datetime
import hashlib
import random
import re
from dataclasses import dataclass, replace

from adapters.arbiter import Clocks, GameRecord, Referee, Sight, san
from adapters.uci_engine import EngineError
from engine import alea
from engine.alea import CASTLE, JOKER, MOVE, REROLL, Action, AleaState
from engine.board import Board

TOKEN = re.compile(r"(?:(joker|castle):)?([a-h][1-8][a-h][1-8])([nbrq]?)")
NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
# Every unordered pair of die types, for replaying an action whose dice are not told.
ALL_PAIRS = [(a, b) for i, a in enumerate(alea.DICE_TYPES) for b in alea.DICE_TYPES[i:]]
DRAW_WAIT = 10              # plies after a refused offer before the next one (A17)
DRAW_TIMEOUT = 5.0          # seconds an engine has to answer ``draw offer``
DAILY_PREFIX = "alea-daily-"


# -- seeds --------------------------------------------------------------------------------
def daily_seed(day: datetime.date | None = None) -> int:
    """The Daily Dice seed of ``day`` (default: today, UTC): the first four bytes of
    SHA-256(``alea-daily-YYYY-MM-DD``), big-endian."""
    day = day or datetime.datetime.now(datetime.timezone.utc).date()
    digest = hashlib.sha256(f"{DAILY_PREFIX}{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def parse_seed(text) -> int:
    """``daily`` (today's seed) or a non-negative integer; ValueError otherwise."""
    word = str(text).strip().lower()
    if word == "daily":
        return daily_seed()
    if not word.isdigit():
        raise ValueError(f"a dice seed is a non-negative integer or 'daily', not {text!r}")
    return int(word)


def game_seed(base: int | None, index: int) -> int | None:
    """The dice seed of a match's game ``index`` (0-based): ``base + index // 2``, the
    same for the two games of a colour-reversed pair."""
    return None if base is None else base + index // 2


def fresh_seed() -> int:
    return random.SystemRandom().randrange(2 ** 32)


# -- tokens and position lines ------------------------------------------------------------
def parse_token(token: str) -> tuple[Action, str | None]:
    """(action, promotion piece or None) of a one-word token: ``e2e4``, ``e7e8r``,
    ``joker:e2e4``, ``castle:e1g1``, ``reroll``. ValueError when it is none of these."""
    if token == REROLL:
        return Action(REROLL), None
    m = TOKEN.fullmatch(token)
    if not m or (m[1] == CASTLE and m[3]):
        raise ValueError(f"not an Alea action: {token!r} (want e2e4, joker:e2e4, "
                         "castle:e1g1 or reroll)")
    return Action(m[1] or MOVE, m[2]), m[3] or None


def chess_moves(tokens) -> list[str]:
    """The chess moves under Alea tokens: each action's move (a promotion with the piece
    the die gave; a reroll moves nothing)."""
    moves = []
    for token in tokens:
        action, promotion = parse_token(token)
        if action.kind != REROLL:
            moves.append(action.move + (promotion or ""))
    return moves


def format_token(action: Action, promotion: str | None = None) -> str:
    if action.kind == REROLL:
        return REROLL
    move = action.move + (promotion or "")
    return move if action.kind == MOVE else f"{action.kind}:{move}"


def dice_text(dice) -> str:
    """``nq``, or ``-`` for no dice."""
    return "".join(dice) if dice else "-"


def format_alea_position(initial_fen: str, tokens, dice: str | None = None) -> str:
    line = f"position alea fen {initial_fen}"
    if tokens:
        line += " moves " + " ".join(tokens)
    return line + (f" dice {dice}" if dice is not None else "")


@dataclass(frozen=True)
class AleaPosition:
    """A ``position alea`` line read back: the start, the tokens, the state after them
    (``after``, no dice), and ``state``, the one to act in (with the dice told)."""

    initial: AleaState
    tokens: tuple
    after: AleaState
    state: AleaState


def replay_action(state: AleaState, action: Action, promotion: str | None = None) -> AleaState:
    """The state after an action of a game's record. Where the dice it was played with are
    not known (still to be rolled in ``state``), any dice under which it is legal will do:
    the state after an action does not depend on them. ValueError if it is never legal."""
    if not alea.needs_roll(state):
        return alea.apply(state, action, promotion)
    for pair in ALL_PAIRS:
        shown = state.with_dice(pair)
        if action in alea.legal_actions(shown):
            return alea.apply(shown, action, promotion)
    raise ValueError(f"{format_token(action, promotion)} is legal under no dice in "
                     f"{state.fen()}")


def parse_alea_position(line: str, previous: AleaPosition | None = None) -> AleaPosition:
    """The state a ``position alea startpos|fen <alea-fen> [moves ...] [dice <pair>|-]``
    line describes. ``previous`` (the last line's result) is reused when this line only
    adds tokens to it. ValueError when the line is malformed or a token is illegal."""
    words = line.split()
    if words[:2] != ["position", "alea"] or len(words) < 3:
        raise ValueError(f"not a position alea line: {line[:80]!r}")
    ends = [i for i, w in enumerate(words) if w in ("moves", "dice")]
    k = ends[0] if ends else len(words)
    if words[2] == "startpos" and k == 3:
        start_fen = AleaState.start().fen()
    elif words[2] == "fen":
        start_fen = " ".join(words[3:k])
    else:
        raise ValueError("position alea wants startpos or fen <alea-fen>")
    tokens, dice = [], None
    if k < len(words) and words[k] == "moves":
        j = words.index("dice", k) if "dice" in words[k:] else len(words)
        tokens, k = words[k + 1:j], j
    if k < len(words):
        if words[k] != "dice" or len(words) != k + 2:
            raise ValueError("position alea ends with 'dice <pair>' or 'dice -'")
        dice = words[k + 1]
    if (previous is not None and previous.initial.fen() == AleaState.parse(start_fen).fen()
            and list(previous.tokens) == tokens[:len(previous.tokens)]):
        initial, state, done = previous.initial, previous.after, len(previous.tokens)
    else:
        initial = AleaState.parse(start_fen)
        state, done = initial, 0
    for token in tokens[done:]:
        action, promotion = parse_token(token)
        state = replay_action(state, action, promotion)
    after = state
    if dice is not None:
        if dice == "-":
            state = state.with_dice(None)
        elif len(dice) == 2 and all(t in alea.DICE_TYPES for t in dice):
            state = state.with_dice((dice[0], dice[1]))
        else:
            raise ValueError(f"dice must be two of n b r q, or -, not {dice!r}")
    return AleaPosition(initial, tuple(tokens), after, state)


def explain(state: AleaState, action: Action) -> str:
    """Why ``action`` is not legal in ``state`` (with its dice), in words citing the rule."""
    side, free = state.side, alea.is_free_phase(state)
    if state.classic and action.kind != MOVE:
        return "no jokers in classic mode (A19)"
    if action.kind == REROLL:
        if free:
            return "no reroll joker in the free phase: no dice are shown (A5)"
        if state.rerolls[side] == 0:
            return "no reroll joker left (A14)"
        return "no dice are shown to reroll"
    move = action.move
    chess_moves = {m[:4] for m in state.board.legal_moves()}
    if action.kind == JOKER:
        if free:
            return "no free-move joker in the free phase (A5)"
        if state.jokers[side] == 0:
            return "no free-move joker left (A14)"
        return f"{move} is not a legal chess move here"
    if action.kind == CASTLE:
        if state.castle_jokers[side] == 0:
            return "no castle joker left (A15)"
        return f"castling {move} is not possible here (A15)"
    if move not in chess_moves:
        return f"{move} is not a legal chess move here"
    mover = state.board.piece_at(move[:2]).lower()
    if mover == "k" and abs(ord(move[0]) - ord(move[2])) == 2:
        return f"castling needs the castle joker: castle:{move} (A15)"
    if mover == "k":
        if free:
            return "the king does not move in the free phase (A5)"
        return "the king moved last turn (A9) and this is no capture of an unprotected piece (A12)"
    if not free and mover in alea.DICE_TYPES:
        if mover == state.last_type[side] and not alea.in_check(state):
            return f"a {NAMES[mover]} moved last turn: on cooldown (A9)"
        if state.dice is None:
            return "no dice are shown: move a pawn or the king (A8)"
        if mover not in state.dice:
            shown = " + ".join(NAMES[t] for t in state.dice)
            return f"the dice show {shown}, not a {NAMES[mover]} (A7)"
    return "not allowed by the Alea rules here"


@dataclass(frozen=True)
class Mark:
    """``AleaReferee.mark``: the state (with its dice), how many tokens, rolls and
    promotion rolls there were, and the generator's state."""

    state: AleaState
    tokens: int
    rolls: int
    promotions: int
    rng: tuple


# -- the referee ------------------------------------------------------------------------------
class AleaReferee(Referee):
    """The host of an Alea game (see the module docstring). ``seed``: the dice seed (None:
    a random one); ``jokers``: free-move jokers (White, Black) at the start (A14; see
    ``engine.alea.free_jokers``); ``classic``: A19's classic mode. A start FEN given to
    ``play_game`` may be a chess FEN (fresh counters) or a whole Alea FEN."""

    def __init__(self, seed: int | None = None, jokers=(4, 4), classic: bool = False):
        self.seed = fresh_seed() if seed is None else int(seed)
        self.jokers, self.classic = tuple(jokers), classic
        self.rng = random.Random(self.seed)
        self.state: AleaState | None = None
        self.initial_fen = ""
        self.tokens: list[str] = []
        self.rolls: list[tuple[int, str]] = []        # (tokens before it, dice shown)
        self.promotions: list[tuple[int, str]] = []   # (token index, piece the die gave)
        self.offers: list[tuple[int, str]] = []       # (plies, "accept"/"decline")
        self.refused_at: int | None = None
        self.board: Board | None = None             # the arbiter's board (for rewind)
        self.rec: GameRecord | None = None

    # -- what the game is ----------------------------------------------------------------
    def setup(self, rec: GameRecord, start_fen: str | None) -> Board:
        if start_fen and len(start_fen.split()) == 14:
            state = AleaState.parse(start_fen)
        else:
            state = AleaState.start(jokers=self.jokers, classic=self.classic,
                                    fen=start_fen or alea.START_FEN)
        self.rng = random.Random(self.seed)
        self.state, self.initial_fen = state, state.fen()
        self.tokens, self.rolls, self.promotions, self.offers = [], [], [], []
        self.refused_at = None
        rec.initial_fen = self.initial_fen
        rec.tags["DiceSeed"] = str(self.seed)
        self.board, self.rec = Board("chess", state.board.fen()), rec
        return self.board

    def fen(self, board: Board) -> str:
        return self.state.fen()

    def outcome(self, board: Board, rec: GameRecord):
        return alea.outcome(self.state)

    def illegal(self, side: int, board: Board, rec: GameRecord, answer: str) -> str | None:
        if not answer or answer == "(none)":
            return "no move"
        try:
            action, promotion = parse_token(answer.lower())
        except ValueError:
            return f"malformed action {answer}"
        if action not in alea.legal_actions(self.state):
            return f"illegal action {answer} ({explain(self.state, action)})"
        if promotion is not None:
            if alea.is_promotion(self.state, action.move):
                return (f"illegal action {answer} (a promotion carries no piece: the "
                        "promotion die decides, A11)")
            return f"illegal action {answer} ({action.move} is no promotion)"
        return None

    def play(self, board: Board, rec: GameRecord, answer: str) -> None:
        """Make a legal answer (or an opening move, or a recorded token with its promotion
        piece); a promotion without a piece rolls the promotion die."""
        action, promotion = parse_token(answer.lower())
        state = self.state
        shown = None if state.classic or alea.is_free_phase(state) else dice_text(state.dice)
        if action.kind != REROLL and alea.is_promotion(state, action.move) and promotion is None:
            promotion = "q" if state.classic else alea.PROMOTION_DIE[self.rng.randint(1, 6)]
            self.promotions.append((len(self.tokens), promotion))
        self.state = replay_action(state, action, promotion)
        if action.kind != REROLL:
            board.push(action.move + (promotion or ""))
        token = format_token(action, promotion)
        self.tokens.append(token)
        rec.moves.append(token)
        rec.dice.append(shown)

    # -- chance and messages -------------------------------------------------------------
    def chance(self, board: Board, rec: GameRecord) -> None:
        """Roll the dice when the side to move needs them (A6, A8, A10)."""
        if alea.needs_roll(self.state):
            dice = alea.roll(self.state, self.rng)
            self.state = self.state.with_dice(dice)
            self.rolls.append((len(self.tokens), dice_text(dice)))

    def position_line(self, dice: bool = True) -> str:
        return format_alea_position(self.initial_fen, self.tokens,
                                    dice_text(self.state.dice) if dice else None)

    def message_for(self, side: int, board: Board, rec: GameRecord,
                    clocks: Clocks) -> tuple[str, str]:
        return self.position_line(), clocks.go_args()

    def reveal_at_end(self, side: int, board: Board, rec: GameRecord) -> str:
        return self.position_line(dice=False)

    # -- what a person is shown (adapters/session.py) --------------------------------------
    def legal(self, side: int, board: Board, rec: GameRecord) -> list[str]:
        """The actions the side to move may answer with, one token each (a promotion
        without its piece: the die decides)."""
        return [format_token(a) for a in alea.legal_actions(self.state)]

    def describe(self, board: Board, answer: str) -> str:
        """A token made on ``board`` in the move list's words: the move's SAN (with the
        piece the promotion die gave), and how it was played when not by the dice:
        ``Nf3 (joker)``, ``O-O (castle joker)``, ``reroll``."""
        action, promotion = parse_token(answer)
        if action.kind == REROLL:
            return REROLL
        text = san(board, action.move + (promotion or "")) or action.move
        return text + {JOKER: " (joker)", CASTLE: " (castle joker)"}.get(action.kind, "")

    def sight(self, side: int | None, board: Board, rec: GameRecord, texts: list) -> Sight:
        """The whole board (nothing is hidden in Alea) and what the rules remember: the
        dice shown, the free moves made, the jokers left, what each side moved last
        (cooldown, A9), a castle follow-up, and the promotion die's last result."""
        sight = super().sight(side, board, rec, texts)
        st = self.state
        last_promotion = None
        if self.promotions:
            index, piece = self.promotions[-1]
            last_promotion = {"cell": parse_token(self.tokens[index])[0].move[2:],
                              "piece": piece, "ply": index}
        extra = {"dice": list(st.dice) if st.dice else None, "classic": st.classic,
                 "free_phase": alea.is_free_phase(st), "free_moves": alea.FREE_MOVES,
                 "moves_made": list(st.moves),
                 "jokers": list(st.jokers), "rerolls": list(st.rerolls),
                 "castle_jokers": list(st.castle_jokers), "cooldown": list(st.last_type),
                 "follow_up": [list(f) if f else None for f in st.follow_up],
                 "in_check": alea.in_check(st), "promotion": last_promotion,
                 "seed": self.seed}
        return replace(sight, extra=extra)

    def board_moves(self, rec: GameRecord) -> tuple[str, list[str]]:
        """The chess game under the tokens: the start position and each action's move (a
        promotion with the piece the die gave; a reroll moves nothing)."""
        return " ".join(self.initial_fen.split()[:6]), chess_moves(self.tokens)

    def opening_line(self, rec: GameRecord) -> tuple[str, list[str]]:
        """Alea is played on a chess board: its board moves are a chess line (A23)."""
        return self.board_moves(rec)

    # -- undo (A18) -------------------------------------------------------------------------
    def mark(self) -> Mark:
        """Where the game stands now, for ``rewind``."""
        return Mark(self.state, len(self.tokens), len(self.rolls), len(self.promotions),
                    self.rng.getstate())

    def rewind(self, mark: Mark) -> None:
        """Back to ``mark`` (taken earlier in this game): the state and the dice shown, the
        tokens, the record, the arbiter's board and the generator's position. A refused
        draw offer stays refused: the 10-ply wait counts from the position rewound to at
        the latest (A17)."""
        if mark.tokens > len(self.tokens):
            raise ValueError("a mark from later in the game")
        for token in reversed(self.tokens[mark.tokens:]):
            if token != REROLL:
                self.board.pop()
        del self.tokens[mark.tokens:], self.rolls[mark.rolls:]
        del self.promotions[mark.promotions:]
        del self.rec.moves[mark.tokens:], self.rec.dice[mark.tokens:]
        self.state = mark.state
        self.rng.setstate(mark.rng)
        if self.refused_at is not None:
            self.refused_at = min(self.refused_at, self.plies)

    # -- draw offers (A17) -----------------------------------------------------------------
    @property
    def plies(self) -> int:
        return sum(1 for t in self.tokens if t != REROLL)

    def answer_draw(self, engine, score=None, plies: int | None = None,
                    timeout: float = DRAW_TIMEOUT) -> tuple[bool | None, int]:
        """Put a person's draw offer to ``engine`` (idle, between its moves), which answers
        ``draw offer`` itself (A17): (True accepted, or False declined, 0 or DRAW_WAIT
        plies before the next offer). Within DRAW_WAIT plies of a refusal the offer is
        not made: (None, the plies still to wait). An engine that does not answer (or
        answers with an error) declines."""
        plies = self.plies
        if self.refused_at is not None and plies < self.refused_at + DRAW_WAIT:
            return None, self.refused_at + DRAW_WAIT - plies
        answer = "decline"
        try:
            engine.send(self.position_line())
            engine.send("draw offer")
            for line in engine.until(lambda s: s.startswith("draw ")
                                     or s.startswith("info string error"), timeout):
                if line.split()[:2] == ["draw", "accept"]:
                    answer = "accept"
        except EngineError:
            pass                        # no answer in time: declined
        self.offers.append((plies, answer))
        if answer == "accept":
            return True, 0
        self.refused_at = plies
        return False, DRAW_WAIT
