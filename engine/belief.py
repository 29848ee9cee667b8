"""Fog of War belief: the true positions a player thinks possible, from its views alone.

The player receives a view after every opponent move (``engine.fog``: own pieces, the
cells its moves reach, the enemy pieces there) plus the cells where it lost a piece it
can no longer see. A :class:`FogHistory` holds them from some turn on, with the own moves
in between (docs/protocol.md, ``position fog``).

The game starts from the standard start position, which is known, so the belief is
tracked exactly as a set of *particles* (``engine.particles``): after each own move every
particle is expanded by every opponent pseudo-legal move and only the children whose view
for us equals the received one (lost cells included) are kept, once per position. Each
particle has a weight: how likely the opponent's moves that lead to it were, by a glance
at each (``particles.move_priors``: the exchange a move starts and its piece-square gain,
middlegame and endgame blended by the phase, softmax at ``PRIOR_TEMPERATURE`` mixed with
``PRIOR_FLOOR`` of the uniform chance, fitted to the moves of 200 games:
docs/strength.md): an opponent develops, takes and keeps its pieces safe far more often
than it plays a random move, and a uniform belief missed the knight that took a queen;
in an ending its king walks to the centre, which the middlegame table alone called the
least likely move. Above ``cap`` the set is thinned with a seeded RNG
(``Belief._thin``): the heaviest particles are all kept, the light ones by chance in
proportion to their weight, each weighing 1/chance afterwards, so the set stays a fair
picture of the belief but drops mostly unlikely positions (uniform thinning lost a likely
true position as easily as an unlikely one; resampling by weight collapsed the set onto a
few particles that the next views contradicted). When it becomes empty -- the true
position was sampled away, or the history does not start at the game's first turn -- it
is rebuilt: the missing enemy material is placed on fogged cells at random, starting from
the last particles (or the enemy's home cells) as a prior, and only the placements that
show the current view are kept (:meth:`Belief.rebuild`). Every particle of the set is
therefore always consistent with the last view; only a rebuilt set may lack the true
position. Rebuilt particles weigh alike.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass

from engine import particles
from engine.board import Board
from engine.eval_tables import eval_tables
from engine.fog import View, view_board, view_moves
from engine.notation import quote
from engine.variant import Variant, load_variant

DEFAULT_CAP = 6000          # particles kept after a step (up to ~1 s: the deadline bounds it)
REPLAY_CAP = 300            # for the steps of a long history replayed at once (restart)
REBUILD_TARGET = 200        # particles a rebuild aims for
REBUILD_TRIES = 6           # placements tried per particle wanted
PRIOR_TEMPERATURE = 30.0    # centipawns: a move 30 cp better at a glance is e times likelier
PRIOR_FLOOR = 0.2           # share of the prior spread uniformly over the moves


def _side_index(side: str) -> int:
    return 0 if side == "w" else 1


def _letter(variant: Variant, type_: int, side: int) -> str:
    letter = variant.letters[type_]
    return letter.upper() if side == 0 else letter


def _cell_letters(variant: Variant, data: bytes) -> dict[int, str]:
    """``{cell: FEN letter}`` of a particle's pieces."""
    out = {}
    for c in range(variant.geometry.ncells):
        code = data[c]
        if code:
            out[c] = _letter(variant, code & 15, code >> 5)
    return out


def _pawn_front(variant: Variant, cell: int, side: int) -> tuple[int, ...]:
    """The cells a pawn of ``side`` on ``cell`` advances to: one step, and two from a
    double-step cell."""
    d = variant.tables_data
    push = d["pawn_push"][side]
    one = d["nxt"][cell][push]
    if one < 0:
        return ()
    if cell in d["double_step"][side]:
        two = d["nxt"][one][push]
        return (one, two) if two >= 0 else (one,)
    return (one,)


def _pawn_diagonals(variant: Variant, cell: int, side: int) -> list[int]:
    d = variant.tables_data
    return [c for c in (d["nxt"][cell][v] for v in d["pawn_caps"][side]) if c >= 0]


def _forced_and_empty(variant: Variant, v: View) -> tuple[set[int], set[int]]:
    """Fogged cells that must hold an enemy piece (right in front of an own pawn, whose
    advance the fog says is blocked) and fogged cells that must be empty (an own pawn's
    capture diagonal: an enemy piece there would be seen)."""
    g = variant.geometry
    side = _side_index(v.side)
    pawn = _letter(variant, variant.pawn_type, side) if variant.pawn_type else None
    forced, empty = set(), set()
    for name, letter in v.pieces.items():
        if letter != pawn:
            continue
        cell = g.cell(name)
        front = [g.names[c] for c in _pawn_front(variant, cell, side)]
        if front and front[0] not in v.visible:
            forced.add(g.cell(front[0]))
        elif len(front) == 2 and front[0] not in v.pieces and front[1] not in v.visible:
            forced.add(g.cell(front[1]))
        for c in _pawn_diagonals(variant, cell, side):
            if g.names[c] not in v.visible:
                empty.add(c)
    return forced, empty


# -- the history the protocol sends -------------------------------------------------------------
@dataclass(frozen=True)
class FogHistory:
    """``position fog``: views (oldest first), the lost cells told with each, and the own
    move played after every view but the last."""

    views: tuple[View, ...]
    lost: tuple[frozenset[str], ...]
    moves: tuple[str, ...]

    @property
    def side(self) -> str:
        return self.views[0].side

    @property
    def last(self) -> View:
        return self.views[-1]

    def turns(self) -> list[tuple]:
        """``[(view FEN, lost cells, move after it or None)]``: what identifies the history."""
        moves = self.moves + (None,)
        return [(v.fen, self.lost[i], moves[i]) for i, v in enumerate(self.views)]

    def extends(self, older: "FogHistory") -> bool:
        """Whether this history is ``older`` continued (``older`` is a prefix of it)."""
        n = len(older.views)
        return n <= len(self.views) and self.turns()[:n - 1] == older.turns()[:n - 1] and \
            self.turns()[n - 1][:2] == older.turns()[n - 1][:2]


def check_history(h: FogHistory, variant: str | Variant = "fogofwar", start: int = 0) -> None:
    """ValueError naming the first contradiction in ``h`` (docs/protocol.md, position fog).
    ``start``: the views before it were checked already (the history extends one that
    passed), so only the later turns are.

    Checked: every view is the same side's; each move is one its view allows; the
    fullmove number grows by one per turn; each lost cell is fogged in its view; after a
    move, the next view's own pieces are the pieces the move left minus at most one taken
    by the opponent, and a piece taken on a fogged cell is reported lost there.
    """
    variant = variant if isinstance(variant, Variant) else load_variant(variant)
    g = variant.geometry
    if not h.views or len(h.moves) != len(h.views) - 1 or len(h.lost) != len(h.views):
        raise ValueError("a fog history alternates view, move, view ... and ends with a view")
    side = h.side
    for i, v in enumerate(h.views):
        if i < start:
            continue
        if v.side != side:
            raise ValueError(f"view {i + 1} is {v.side}'s, the history is {side}'s")
        for name in h.lost[i]:
            if name not in g.names:
                raise ValueError(f"lost cell {quote(name)} is not a cell")
            if name in v.visible:
                raise ValueError(f"lost cell {name} is visible in view {i + 1}")
    for i, move in enumerate(h.moves):
        if i + 1 < start:
            continue
        before, after = h.views[i], h.views[i + 1]
        if move not in view_moves(before, variant):
            raise ValueError(f"move {quote(move)} is not allowed by view {i + 1}")
        if int(after.fen.split()[-1]) != int(before.fen.split()[-1]) + 1:
            raise ValueError(f"view {i + 2}'s fullmove number does not follow view {i + 1}'s")
        board = view_board(before, variant=variant)
        board.push(move)
        left = {name: board.piece_at(name) for name in g.names
                if board.piece_at(name) and board.piece_at(name).isupper() == (side == "w")}
        own = {name: letter for name, letter in after.pieces.items()
               if letter.isupper() == (side == "w")}
        if any(left.get(name) != letter for name, letter in own.items()):
            raise ValueError(f"view {i + 2} shows own pieces that move {move} did not leave")
        gone = set(left) - set(own)
        if len(gone) > 1:
            raise ValueError(f"view {i + 2} lost {len(gone)} own pieces to one move")
        lost = h.lost[i + 1]
        if not lost <= gone:
            raise ValueError(f"lost cells of view {i + 2} held no own piece after {move}")
        if gone and not lost and next(iter(gone)) not in after.visible:
            raise ValueError(f"view {i + 2} hides the lost piece on {next(iter(gone))} "
                             "but reports no lost cell")


# -- the belief ---------------------------------------------------------------------------------
def _own_move_cells(variant: Variant, move: str) -> tuple[int, int, int]:
    """``(from, to, promotion type)`` of a UCI move, as particles.advance takes it."""
    g = variant.geometry
    for split in range(2, len(move)):
        frm, rest = move[:split], move[split:]
        if frm in g.names:
            promo = 0
            if rest[-1].isalpha() and rest[:-1] in g.names:
                rest, promo = rest[:-1], variant.type_of[rest[-1]]
            if rest in g.names:
                return g.cell(frm), g.cell(rest), promo
    raise ValueError(f"bad move {quote(move)}")


class Belief:
    """The particles consistent with a FogHistory, updated turn by turn.

    ``update(history)`` continues from the cached state when the new history extends the
    one seen last, else starts over. ``weights`` (summing to 1) go with ``particles``.
    Statistics of the last update: ``last_ms``, ``rebuilt`` (whether any step had to
    rebuild).
    """

    def __init__(self, variant: str | Variant = "fogofwar", cap: int = DEFAULT_CAP,
                 seed: int = 0, replay_cap: int = REPLAY_CAP):
        self.variant = variant if isinstance(variant, Variant) else load_variant(variant)
        self.cap = cap
        self.replay_cap = replay_cap        # cap of the earlier turns of one update
        self.rng = random.Random(seed)
        self.history: FogHistory | None = None
        self.particles: list[bytes] = []
        self.weights: list[float] = []
        self.prior = eval_tables(self.variant.name, None)   # hand-written tables: the glance
        self.captured: Counter | None = None  # enemy letters taken by own moves; None: unknown
        self.last_ms = 0.0
        self.rebuilt = False

    def __len__(self) -> int:
        return len(self.particles)

    def sample(self, k: int) -> tuple[list[Board], list[float]]:
        """Boards for a search and their weights (summing to 1), heaviest first (a search
        short of time covers those): every particle when there are at most ``k``, else
        ``k`` distinct ones thinned by weight (``_thin``: the heaviest all, light ones by
        chance), so that rare threats still get searched."""
        if len(self.particles) <= k:
            chosen, weights = self.particles, self.weights
        else:
            chosen, weights = self._thin(self.particles, self.weights, k)
            total = sum(weights)
            weights = [w / total for w in weights]
        order = sorted(range(len(chosen)), key=lambda i: -weights[i])
        return [particles.to_board(self.variant, chosen[i]) for i in order], \
            [weights[i] for i in order]

    def _thin(self, items: list[bytes], weights: list[float], k: int):
        """``k`` of ``items``, in random order (``advance`` may stop part-way): each kept
        with chance min(1, scale * weight) (``particles.thin``: the heaviest all, the
        light ones by a systematic draw, exactly k); a kept particle weighs its weight
        over its chance."""
        kept, scale = particles.thin(weights, k, self.rng.random())
        self.rng.shuffle(kept)
        return [items[i] for i in kept], [max(weights[i], 1.0 / scale) for i in kept]

    def _set(self, items: list[bytes], weights: list[float] | None = None) -> None:
        """Make ``items`` the particles, with ``weights`` normalised (None: alike)."""
        total = sum(weights) if weights else 0.0
        if not weights or total <= 0:
            weights, total = [1.0] * len(items), float(len(items) or 1)
        self.particles = items
        self.weights = [w / total for w in weights]

    def update(self, history: FogHistory, deadline: float | None = None) -> None:
        """Bring the belief to ``history``'s last view. ``deadline`` (time.monotonic
        seconds) bounds the work: a long replay past it jumps to a rebuild at the end."""
        start = time.monotonic()
        self.rebuilt = False
        if self.history is not None and self.particles and history.extends(self.history):
            first = len(self.history.views)
        else:
            self._begin(history)
            first = 1
        n = len(history.views)
        for i in range(first, n):
            late = deadline is not None and time.monotonic() > deadline
            if late and i < n - 1:
                continue                      # skip to the last view: rebuilt there
            self._capture_seen(history.views[i - 1], history.moves[i - 1])
            code = particles.ViewCode(self.variant, history.views[i], history.lost[i])
            if late:
                self._set(self.rebuild(code, self._after_own(history.moves[i - 1]),
                                       deadline))
                continue
            cap = self.cap if i == n - 1 else min(self.cap, self.replay_cap)
            self._step(code, history.moves[i - 1], cap, deadline)
        self.history = history
        self.last_ms = (time.monotonic() - start) * 1000.0

    def _begin(self, history: FogHistory) -> None:
        """Particles for the first view: exact at the game's first turn, else rebuilt."""
        v = history.views[0]
        code = particles.ViewCode(self.variant, v, history.lost[0])
        start = Board(self.variant)
        self.captured = Counter()
        if int(v.fen.split()[-1]) == 1:
            if v.side == start.turn:
                found, weights = [particles.from_board(start)], [1.0]
            else:
                found, _, weights = particles.advance(code, [particles.from_board(start)],
                                                      prior=self.prior,
                                                      temperature=PRIOR_TEMPERATURE,
                                                      floor=PRIOR_FLOOR)
            kept = [(p, w) for p, w in zip(found, weights) if code.matches_particle(p)]
            self._set([p for p, _ in kept], [w for _, w in kept])
            if len(self.particles) > self.cap:
                self._set(*self._thin(self.particles, self.weights, self.cap))
            if self.particles:
                return
        self.captured = None
        self._set(self.rebuild(code, []))

    def _capture_seen(self, before: View, move: str) -> None:
        """Count the enemy piece an own move took (seen on its target, or e.p.)."""
        if self.captured is None:
            return
        _, to, _ = _own_move_cells(self.variant, move)
        name = self.variant.geometry.names[to]
        letter = before.pieces.get(name)
        if letter is not None:
            self.captured[letter] += 1
        elif name == before.fen.split()[-3]:
            self.captured[_letter(self.variant, self.variant.pawn_type,
                                  1 - _side_index(before.side))] += 1

    def _after_own(self, move: str) -> list[bytes]:
        """The particles with the own move played (the priors of a rebuild)."""
        out = []
        for data in self.particles[:REBUILD_TARGET]:
            b = particles.to_board(self.variant, data)
            try:
                b.push(move)
            except ValueError:
                continue
            out.append(particles.from_board(b))
        return out

    def _step(self, code, move: str, cap: int, deadline: float | None) -> None:
        own = _own_move_cells(self.variant, move)
        children, _, weights = particles.advance(code, self.particles, own, deadline or 0.0,
                                                 self.weights, self.prior, PRIOR_TEMPERATURE,
                                                 PRIOR_FLOOR)
        if len(children) > cap:
            children, weights = self._thin(children, weights, cap)
        if not children:
            children, weights = self.rebuild(code, self._after_own(move), deadline), None
        self._set(children, weights)

    # -- rebuilding -------------------------------------------------------------------------
    def rebuild(self, code, priors: list[bytes], deadline: float | None = None) -> list[bytes]:
        """Particles that show ``code``'s view, made by placing the enemy material on
        fogged cells. ``priors`` are positions with the opponent to move (the last
        particles after the own move): each try starts from one of them, keeping its
        enemy pieces where the fog still hides them. Without priors the material is the
        start material minus what the own moves took (or, with no history, the own
        material mirrored), and the enemy's home cells are the prior."""
        self.rebuilt = True
        v = code.view
        want = min(self.cap, REBUILD_TARGET)
        home = _cell_letters(self.variant, particles.from_board(Board(self.variant)))
        enemy_white = v.side == "b"
        home = {c: letter for c, letter in home.items() if letter.isupper() == enemy_white}
        plans = []
        for data in priors:
            placed = _cell_letters(self.variant, data)
            plans.append({c: letter for c, letter in placed.items()
                          if letter.isupper() == enemy_white})
        if not plans:
            plans = [home]
        material = None if priors else self._material(v)
        out, seen = [], set()
        tries = want * REBUILD_TRIES
        for k in range(tries):
            if len(out) >= want or (out and deadline is not None and time.monotonic() > deadline):
                break
            prior = plans[k % len(plans)]
            data = self._place(v, Counter(prior.values()) if material is None else material,
                               prior)
            if data is None or not code.matches_particle(data):
                continue
            ident = particles.key(data)
            if ident not in seen:
                seen.add(ident)
                out.append(data)
        if not out and priors:
            return self.rebuild(code, [], deadline)
        if not out:
            out = [particles.from_board(view_board(v, variant=self.variant))]
        return out

    def _material(self, v: View) -> Counter:
        """The enemy pieces believed on the board (letters)."""
        enemy_white = v.side == "b"
        if self.captured is not None:
            start = _cell_letters(self.variant, particles.from_board(Board(self.variant)))
            have = Counter(letter for letter in start.values()
                           if letter.isupper() == enemy_white)
            have.subtract(self.captured)
        else:
            have = Counter(letter.swapcase() for letter in v.pieces.values()
                           if letter.isupper() != enemy_white)
        seen = Counter(letter for letter in v.pieces.values() if letter.isupper() == enemy_white)
        pawn = _letter(self.variant, self.variant.pawn_type, 0 if enemy_white else 1)
        for letter, n in seen.items():
            extra = n - have[letter]
            if extra > 0:                   # more seen than believed: promoted pawns
                have[letter] += extra
                have[pawn] -= extra
        return +have

    def _place(self, v: View, material: Counter, prior: dict[int, str]) -> bytes | None:
        """One random placement of ``material`` around the view; None if it cannot fit."""
        variant, rng = self.variant, self.rng
        g = variant.geometry
        d = variant.tables_data
        side = _side_index(v.side)
        enemy = 1 - side
        forced, empty = _forced_and_empty(variant, v)
        fogged = [c for c in range(g.ncells) if g.names[c] not in v.visible]
        hidden = set(fogged)
        board = {g.cell(name): letter for name, letter in v.pieces.items()}
        left = Counter(material)
        left.subtract(Counter(letter for letter in v.pieces.values()
                              if letter.isupper() == (enemy == 0)))
        left = +left
        king = _letter(variant, variant.royal_type, enemy)
        if king not in v.pieces.values():
            left[king] = 1
        pawn = _letter(variant, variant.pawn_type, enemy) if variant.pawn_type else None
        back = d["opp"][d["pawn_push"][enemy]]
        ep = v.fen.split()[-3]
        blocked = set(empty)
        if ep != "-":                       # the passed pawn left the cell behind it empty
            origin = d["nxt"][g.cell(ep)][back]
            if origin >= 0:
                blocked.add(origin)

        def allowed(cell: int, letter: str) -> bool:
            if cell in board or cell in blocked or cell not in hidden:
                return False
            if letter == pawn:
                return d["nxt"][cell][back] >= 0 and d["promo_zone"][enemy].get(cell) != 2
            return True

        order = list(forced)
        rng.shuffle(order)
        for cell in order:              # a blocked pawn: some enemy piece stands there
            choices = [letter for letter in left if left[letter] > 0 and allowed(cell, letter)]
            if not choices:
                choices = [_letter(variant, variant.type_of.get("n", variant.royal_type), enemy)]
                left[choices[0]] += 1
            letter = prior.get(cell) if prior.get(cell) in choices else rng.choice(choices)
            board[cell] = letter
            left[letter] -= 1
        todo = list((+left).elements())
        rng.shuffle(todo)
        todo.sort(key=lambda letter: letter != king)        # the king first
        spots = {}                                           # prior cells per letter
        for cell, letter in prior.items():
            spots.setdefault(letter, []).append(cell)
        for letter in todo:
            keep = [c for c in spots.get(letter, ()) if allowed(c, letter)]
            if keep and rng.random() < 0.85:
                cell = rng.choice(keep)
            else:
                free = [c for c in fogged if allowed(c, letter)]
                if not free:
                    return None
                cell = rng.choice(free)
            board[cell] = letter
        return self._encode(v, board)

    def _encode(self, v: View, board: dict[int, str]) -> bytes:
        """The particle of a placement with the view's side to move, own castling rights,
        en passant cell and fullmove number; an enemy right is kept when its king and rook
        stand at home."""
        variant = self.variant
        g = variant.geometry
        cells = bytearray(g.ncells)
        for c, letter in board.items():
            cells[c] = variant.type_of[letter.lower()] | (16 if letter.isupper() else 32)
        fields = v.fen.split()
        side = _side_index(v.side)
        rights = 0
        castling_field = fields[2] if variant.spec.fen_castling_field else "-"
        for i, right in enumerate(variant.tables_data["castling"]):
            if right["letter"] not in castling_field:
                continue
            if right["side"] != side:
                want_king = _letter(variant, variant.royal_type, right["side"])
                want_rook = _letter(variant, variant.type_of["r"], right["side"])
                if board.get(right["king_from"]) != want_king or \
                        board.get(right["rook_from"]) != want_rook:
                    continue
            rights |= 1 << i
        ep = fields[-3]
        fullmove = int(fields[-1])
        cells += bytes([side, rights, g.cell(ep) + 1 if ep != "-" else 0,
                        fullmove & 255, (fullmove >> 8) & 255, 0])
        return bytes(cells)


def consistent(data: bytes, v: View, variant: str | Variant = "fogofwar") -> bool:
    """Whether a particle shows the view ``v`` (lost cells not checked)."""
    variant = variant if isinstance(variant, Variant) else load_variant(variant)
    return particles.ViewCode(variant, v).matches_particle(data)
