"""Variant descriptions: load ``engine/variants/<name>.toml``, validate, compile to tables.

The schema below is the single source of truth for what a description may say: every
field's type, default and meaning are declared once, the loader rejects anything else,
and ``docs/variants.md`` is generated from it (``python -m engine.variant --doc``).
A description may ``extends`` another; tables (``pieces``, ``pawn``, ``end``) merge key by
key, everything else replaces.
"""
from __future__ import annotations

import copy
import random
import sys
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine import geometry as geo

VARIANT_DIR = Path(__file__).with_name("variants")

# field -> (type, default, doc). Nested tables are described by their own schemas.
SCHEMA = {
    "name": (str, None, "Variant name as `UCI_Variant` spells it."),
    "aliases": (list, [], "Other accepted names."),
    "extends": (str, None, "Parent description whose fields this one overrides."),
    "rules_ref": (str, None, "The rule text this description implements."),
    "geometry": (str, "square", "`square` (width x height) or `hexagon` (Glinski, 91 cells)."),
    "width": (int, 8, "Files of a square board."),
    "height": (int, 8, "Ranks of a square board."),
    "start_fen": (str, None, "Start position in this variant's FEN."),
    "fen_castling_field": (bool, True, "Whether FEN has a castling field after the side to move."),
    "pieces": (dict, {}, "Piece table: one entry per lower-case FEN letter (see `pieces.*`)."),
    "pawn": (dict, {}, "Pawn rules (see `pawn.*`)."),
    "castling": (list, [], "White's castling moves (see `castling[]`); Black's are mirrored."),
    "end": (dict, {}, "How games end (see `end.*`)."),
    "chess960": (bool, False, "Whether `UCI_Chess960` may play the variant's Fischer-random form: "
                              "castling rights name their rook (X-FEN, Shredder-FEN), the king and "
                              "rook end on the cells of `castling[]`, moves are written "
                              "king-takes-rook."),
}
PIECE_SCHEMA = {
    "slide": (list, [], "Vector classes the piece slides along: W orthogonal, F diagonal."),
    "leap": (list, [], "Vector classes the piece steps or leaps by once: W, F, N (knight)."),
    "royal": (bool, False, "The piece whose safety decides check and mate (one per side)."),
    "pawn": (bool, False, "Moves as the pawn described in `pawn.*`."),
}
PAWN_SCHEMA = {
    "double_step": (list, [], "White cells (names or `rank N`) a pawn may double-step from."),
    "promotion_mandatory": (list, [], "White cells where a pawn must promote."),
    "promotion_optional": (list, [], "White cells where a pawn may promote or stay a pawn."),
    "promotion_types": (str, "", "Letters a pawn may promote to."),
    "promotion_limit": (bool, False,
                        "Promote only to a type the side has fewer of than at the start; "
                        "with no such type the pawn cannot enter the mandatory cells."),
}
CASTLING_SCHEMA = {
    "fen": (str, None, "White's FEN letter for this right (Black's is its lower case)."),
    "king": (str, None, "King's cell."),
    "king_to": (str, None, "King's target cell."),
    "rook": (str, None, "Rook's cell."),
    "rook_to": (str, None, "Rook's target cell."),
}
END_SCHEMA = {
    "royal_check": (bool, True,
                    "A move may not leave the own royal piece attacked (check and mate). "
                    "False: moves are pseudo-legal and capturing the royal piece ends the game."),
    "castle_path_safe": (bool, True, "Castling may not start in, cross or end on an attacked cell."),
    "stalemate_score": (float, 0.5, "Score of the side that stalemates (0.5 a draw)."),
    "n_move_rule": (int, 100, "Plies without capture or pawn move that draw (0: none)."),
    "repetition": (int, 3, "Occurrences of one position that draw (0: none)."),
    "insufficient": (list, [], "Dead-material draws besides bare kings: `lone_minor` "
                               "(one knight or bishop in all), `same_colour_bishops`."),
}
SUB_SCHEMAS = {"pawn": PAWN_SCHEMA, "end": END_SCHEMA}
INSUFFICIENT_RULES = ("lone_minor", "same_colour_bishops")
ZOBRIST_SEED = 0x5155414E54554D  # fixed: keys must be the same in every run (bench signature)
# Chess960 tables kept per variant, one per castling setup (a position's own tables live as
# long as its board does): a game needs one, a GUI's analysis of many FENs a few.
SETUP_CACHE = 64


def _check(table: dict, schema: dict, where: str) -> dict:
    """Fill defaults and reject unknown keys or wrong types: a bad description is an error."""
    out = {}
    for key in table:
        if key not in schema:
            raise ValueError(f"{where}: unknown key {key!r}")
    for key, (typ, default, _doc) in schema.items():
        value = table.get(key, default)
        if value is None and default is None and key not in ("extends",):
            raise ValueError(f"{where}: missing {key!r}")
        if value is not None:
            if typ is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
                raise ValueError(f"{where}: {key!r} must be {typ.__name__}")
        out[key] = value
    return out


def _raw(name: str, seen=()) -> dict:
    from engine.notation import quote
    path = VARIANT_DIR / f"{name}.toml"
    if not path.exists():
        raise ValueError(f"unknown variant {quote(name)}")
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    parent = data.get("extends")
    if parent is None:
        return data
    if parent in seen:
        raise ValueError(f"{name}: circular extends")
    merged = _raw(parent, seen + (name,))
    merged.pop("extends", None)
    for key, value in data.items():
        if key == "pieces":
            pieces = {k: dict(v) for k, v in merged.get("pieces", {}).items()}
            for letter, desc in value.items():
                pieces.setdefault(letter, {}).update(desc)
            merged["pieces"] = pieces
        elif key in SUB_SCHEMAS:
            merged[key] = {**merged.get(key, {}), **value}
        else:
            merged[key] = value
    return merged


@dataclass(frozen=True)
class VariantSpec:
    """A validated description (plain data, before compilation)."""

    name: str
    aliases: tuple
    rules_ref: str
    geometry: str
    width: int
    height: int
    start_fen: str
    fen_castling_field: bool
    pieces: dict
    pawn: dict
    castling: tuple
    end: dict
    chess960: bool


def load_spec(name: str) -> VariantSpec:
    data = _check(_raw(name), SCHEMA, name)
    data.pop("extends")
    pieces = {}
    for letter, desc in data["pieces"].items():
        if len(letter) != 1 or not letter.islower():
            raise ValueError(f"{name}: piece letters are single lower-case letters")
        pieces[letter] = _check(desc, PIECE_SCHEMA, f"{name}.pieces.{letter}")
    data["pieces"] = pieces
    data["pawn"] = _check(data["pawn"], PAWN_SCHEMA, f"{name}.pawn")
    data["end"] = _check(data["end"], END_SCHEMA, f"{name}.end")
    data["castling"] = tuple(_check(c, CASTLING_SCHEMA, f"{name}.castling") for c in data["castling"])
    data["aliases"] = tuple(data["aliases"])
    if data["name"] != name:
        raise ValueError(f"{name}: name field says {data['name']!r}")
    return VariantSpec(**data)


class Variant:
    """A compiled variant: geometry, piece letters and the C tables positions run on."""

    def __init__(self, spec: VariantSpec):
        from engine.tables import CompiledTables

        self.spec = spec
        self.name = spec.name
        self.geometry = (geo.square(spec.width, spec.height) if spec.geometry == "square"
                         else geo.build(spec.geometry))
        self.letters = ["."] + list(spec.pieces)   # type index -> letter; 0 unused
        self.type_of = {ch: i for i, ch in enumerate(self.letters) if i}
        royal = [ch for ch, p in spec.pieces.items() if p["royal"]]
        pawns = [ch for ch, p in spec.pieces.items() if p["pawn"]]
        if len(royal) > 1 or len(pawns) > 1:
            raise ValueError(f"{spec.name}: at most one royal and one pawn type")
        self.royal_type = self.type_of[royal[0]] if royal else 0
        self.pawn_type = self.type_of[pawns[0]] if pawns else 0
        self.stalemate_score = spec.end["stalemate_score"]
        self.n_move_rule = spec.end["n_move_rule"]
        self.repetition = spec.end["repetition"]
        self.insufficient = tuple(spec.end["insufficient"])
        self.royal_check = spec.end["royal_check"]
        for rule in self.insufficient:
            if rule not in INSUFFICIENT_RULES:
                raise ValueError(f"{spec.name}: unknown insufficient-material rule {rule!r}")
        self.castling_letters = []   # per right index: FEN letter
        self.chess960 = False        # the standard form; fischer_random() gives the other
        self.tables_data = self._compile()
        self.tables = CompiledTables(self.tables_data)

    # -- compilation -------------------------------------------------------------------
    def _compile(self) -> dict:
        g, spec = self.geometry, self.spec
        classes = g.vector_classes
        vectors: list[tuple[int, int]] = []

        def vec_index(v):
            if v not in vectors:
                vectors.append(v)
            return vectors.index(v)

        def class_mask(names, where):
            mask = 0
            for cls in names:
                if cls not in classes:
                    raise ValueError(f"{spec.name}: {where}: unknown vector class {cls!r}")
                for v in classes[cls]:
                    mask |= 1 << vec_index(v)
            return mask

        ntypes = len(self.letters) - 1
        slide_mask = [0] * (ntypes + 1)
        leap_mask = [0] * (ntypes + 1)
        for ch, p in spec.pieces.items():
            t = self.type_of[ch]
            slide_mask[t] = class_mask(p["slide"], ch)
            leap_mask[t] = class_mask(p["leap"], ch)
        fwd = g.forward
        caps = list(g.pawn_captures)
        mirror = lambda v: (v[0], -v[1])
        pawn_push = [vec_index(fwd), vec_index(mirror(fwd))]
        pawn_caps = [[vec_index(c) for c in caps], [vec_index(mirror(c)) for c in caps]]
        for v in list(vectors):           # close the set under negation
            vec_index((-v[0], -v[1]))
        nvec = len(vectors)
        opp = [vectors.index((-v[0], -v[1])) for v in vectors]
        nxt = [[g.step(a, v) for v in vectors] for a in range(g.ncells)]

        slide_vecs = [v for v in range(nvec) if any(m >> v & 1 for m in slide_mask)]
        leap_vecs = [v for v in range(nvec) if any(m >> v & 1 for m in leap_mask)]
        dir_from = [[-1] * g.ncells for _ in range(g.ncells)]
        dist = [[0] * g.ncells for _ in range(g.ncells)]
        for a in range(g.ncells):
            for v in slide_vecs:
                b, k = nxt[a][v], 1
                while b >= 0:
                    dir_from[a][b], dist[a][b] = v, k
                    b, k = nxt[b][v], k + 1

        def code(t, side):
            return t | (16 << side)

        slide_att = [[0] * nvec for _ in range(2)]
        leap_att = [[0] * nvec for _ in range(2)]
        for side in range(2):
            for t in range(1, ntypes + 1):
                for v in range(nvec):
                    if slide_mask[t] >> opp[v] & 1:
                        slide_att[side][v] |= 1 << code(t, side)
                    if leap_mask[t] >> opp[v] & 1:
                        leap_att[side][v] |= 1 << code(t, side)

        pawn = spec.pawn
        white_double = g.region(pawn["double_step"])
        mand = g.region(pawn["promotion_mandatory"])
        opt = g.region(pawn["promotion_optional"]) - mand
        zone_w = {**{c: 1 for c in opt}, **{c: 2 for c in mand}}
        zone_b = {g.mirror(c): z for c, z in zone_w.items()}
        promo_types = []
        for ch in pawn["promotion_types"]:
            if ch not in self.type_of or self.type_of[ch] in (self.pawn_type, self.royal_type):
                raise ValueError(f"{spec.name}: cannot promote to {ch!r}")
            promo_types.append(self.type_of[ch])
        if self.pawn_type and not promo_types and zone_w:
            raise ValueError(f"{spec.name}: promotion cells but no promotion types")
        promo_limit = [0] * (ntypes + 1)
        if pawn["promotion_limit"]:
            placement = spec.start_fen.split()[0]
            for t in promo_types:
                promo_limit[t] = placement.count(self.letters[t].upper())

        castling = []
        for c in spec.castling:
            for side in range(2):
                cells = {k: g.cell(c[k]) for k in ("king", "king_to", "rook", "rook_to")}
                if side:
                    cells = {k: g.mirror(v) for k, v in cells.items()}
                kf, kt, rf, rt = cells["king"], cells["king_to"], cells["rook"], cells["rook_to"]
                if g.coords[kf][1] != g.coords[rf][1] or g.coords[kt][1] != g.coords[kf][1]:
                    raise ValueError(f"{spec.name}: castling must stay on one rank")
                letter = c["fen"].upper() if side == 0 else c["fen"].lower()
                castling.append(self._castling_record(side, kf, kt, rf, rt, letter, kt))
        castling.sort(key=lambda c: c["side"])
        if spec.chess960 and {c["letter"].lower() for c in castling} & set(g.files):
            raise ValueError(f"{spec.name}: Chess960 castling letters must not be file letters")
        self.castling_letters = [c["letter"] for c in castling]
        bound = move_bound(nxt, slide_mask, leap_mask, self.pawn_type, len(caps),
                           len(promo_types), castling)

        rng = random.Random(ZOBRIST_SEED ^ hash_name(spec.name))
        r64 = lambda: rng.getrandbits(64)
        z_piece = [[r64() for _ in range(g.ncells)] for _ in range(48)]
        per_right = [r64() for _ in range(4)]
        z_castling = []
        for mask in range(16):
            k = 0
            for i in range(4):
                if mask >> i & 1:
                    k ^= per_right[i]
            z_castling.append(k)
        return {
            "ncells": g.ncells, "nvec": nvec, "nxt": nxt, "opp": opp, "dir_from": dir_from,
            "dist": dist, "colour": list(g.colours), "ntypes": ntypes,
            "slide_mask": slide_mask, "leap_mask": leap_mask, "pawn_type": self.pawn_type,
            "royal_type": self.royal_type, "slide_attackers": slide_att,
            "leap_attackers": leap_att, "slide_vecs": slide_vecs, "leap_vecs": leap_vecs,
            "pawn_push": pawn_push, "pawn_caps": pawn_caps,
            "double_step": [sorted(white_double), sorted(g.mirror(c) for c in white_double)],
            "promo_zone": [zone_w, zone_b], "promo_types": promo_types,
            "promo_limit": promo_limit, "castling": castling,
            "royal_check": spec.end["royal_check"],
            "castle_path_safe": spec.end["castle_path_safe"],
            "z_piece": z_piece, "z_side": r64(), "z_castling": z_castling,
            "z_ep": [r64() for _ in range(g.ncells)],
            "move_bound": bound,
        }

    def _castling_record(self, side, kf, kt, rf, rt, letter, uci_to) -> dict:
        """One castling right as the core's tables hold it: the king from ``kf`` to ``kt``
        and the rook from ``rf`` to ``rt``; every cell of both paths empty but the king and
        that rook, the king's path safe (``lift_rook``: tested without the rook, unless it
        stands on the board's edge, where it can shield nothing); ``letter`` in FEN,
        ``uci_to`` the cell UCI names as the move's target (the king's target, or the
        rook's cell in Chess960)."""
        g = self.geometry
        king_path = self._span(kf, kt)
        rook_path = self._span(rf, rt)
        (xk, y), (xr, _) = g.coords[kf], g.coords[rf]
        beyond = g.cell_at(xr + (1 if xr > xk else -1), y)
        return {"side": side, "king_from": kf, "king_to": kt, "rook_from": rf, "rook_to": rt,
                "empty": sorted((king_path | rook_path) - {kf, rf}),
                "safe": sorted(king_path), "letter": letter, "uci_to": uci_to,
                "lift_rook": beyond >= 0}

    # -- Chess960 --------------------------------------------------------------------------
    def fischer_random(self) -> Variant:
        """This variant's Chess960 form (``load_variant(name, chess960=True)``): the same
        compiled tables, but each position castles with the rooks its FEN names
        (``castling_tables``), and castling moves are written king-takes-rook."""
        if not self.spec.chess960:
            raise ValueError(f"{self.name} has no Chess960 form (UCI_Chess960 must be false)")
        form = copy.copy(self)
        form.chess960 = True
        form.castling_tables = lru_cache(maxsize=SETUP_CACHE)(form._setup_tables)
        return form

    def _setup_tables(self, setup: tuple):
        """Tables whose castling rights are ``setup``: per right of the standard form
        (same index, side and wing) the cells (king, rook) it castles from in this
        position, or None where the position has no such right. The king and rook end
        on the standard right's targets, as Chess960 wants."""
        g = self.geometry
        records = []
        for std, cells in zip(self.tables_data["castling"], setup):
            if cells is None:
                records.append(None)
                continue
            kf, rf = cells
            letter = g.files[g.coords[rf][0]]
            records.append(self._castling_record(std["side"], kf, std["king_to"], rf,
                                                 std["rook_to"], letter.upper() if std["side"] == 0
                                                 else letter, rf))
        return self.tables.with_castling(records)

    def _span(self, a: int, b: int) -> set[int]:
        """Cells from a to b inclusive along their rank."""
        g = self.geometry
        (xa, y), (xb, _) = g.coords[a], g.coords[b]
        step = 1 if xb >= xa else -1
        return {g.cell_at(x, y) for x in range(xa, xb + step, step)}

    @property
    def start_fen(self) -> str:
        return self.spec.start_fen

    def __repr__(self) -> str:
        return f"Variant({self.name!r})"


def move_bound(nxt, slide_mask, leap_mask, pawn_type, n_pawn_caps, n_promo, castling) -> int:
    """The most moves a position of the variant can have: LIMITS["pieces"] pieces of one
    side, each with as many moves as the most mobile type has on an empty board from its
    best cell, plus that side's castling moves. A pawn has at most a step, a double step
    and its captures, each expanded into every promotion choice and the choice not to
    promote. The core's move buffers (MAX_MOVES) must hold it (CompiledTables checks)."""
    from engine.tables import LIMITS

    most = 0
    for t, (slides, leaps) in enumerate(zip(slide_mask, leap_mask)):
        if t == pawn_type:
            most = max(most, (2 + n_pawn_caps) * (n_promo + 1))
            continue
        for row in nxt:
            moves = 0
            for v, target in enumerate(row):
                if leaps >> v & 1 and target >= 0:
                    moves += 1
                if slides >> v & 1:
                    while target >= 0:
                        moves += 1
                        target = nxt[target][v]
            most = max(most, moves)
    per_side = max((sum(c["side"] == s for c in castling) for s in (0, 1)), default=0)
    return LIMITS["pieces"] * most + per_side


def hash_name(name: str) -> int:
    """A stable (unsalted) hash of a name, for per-variant Zobrist seeds."""
    h = 1469598103934665603
    for ch in name.encode():
        h = ((h ^ ch) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def variant_names() -> list[str]:
    """Playable variants, in the order `UCI_Variant` lists them."""
    order = ["chess", "grand", "hexagonal"]
    found = sorted(p.stem for p in VARIANT_DIR.glob("*.toml"))
    return [n for n in order if n in found] + [n for n in found if n not in order]


@lru_cache(maxsize=None)
def _aliases() -> dict:
    out = {}
    for n in variant_names():
        out[n] = n
        for a in load_spec(n).aliases:
            out[a] = n
    return out


def resolve_name(name: str) -> str:
    """Canonical variant name for a name or alias (case-insensitive); ValueError if unknown."""
    from engine.notation import quote
    key = name.strip().lower()
    if key not in _aliases():
        raise ValueError(f"unknown variant {quote(name)} (known: {', '.join(variant_names())})")
    return _aliases()[key]


def load_variant(name: str, chess960: bool = False) -> Variant:
    """The compiled variant for a name or alias, or its Chess960 form; compiled once per
    process. ValueError for an unknown name or a variant without a Chess960 form."""
    return _load(resolve_name(name), bool(chess960))


@lru_cache(maxsize=None)
def _load(name: str, chess960: bool) -> Variant:
    if chess960:
        return _load(name, False).fischer_random()
    return Variant(load_spec(name))


def schema_markdown() -> str:
    """docs/variants.md, generated from the schema and the shipped descriptions."""
    lines = ["# Variant descriptions", "",
             "Generated by `python -m engine.variant --doc` from the schema in "
             "`engine/variant.py`; do not edit by hand.", "",
             "Each variant is a TOML file in `engine/variants/`. A file may `extends` "
             "another; `pieces`, `pawn` and `end` merge key by key, other fields replace.", ""]
    for title, schema in (("Top level", SCHEMA), ("`pieces.<letter>`", PIECE_SCHEMA),
                          ("`pawn`", PAWN_SCHEMA), ("`castling[]`", CASTLING_SCHEMA),
                          ("`end`", END_SCHEMA)):
        lines += [f"## {title}", "", "| field | type | default | meaning |", "|---|---|---|---|"]
        for key, (typ, default, doc) in schema.items():
            shown = "required" if default is None and key != "extends" else repr(default)
            lines.append(f"| `{key}` | {typ.__name__} | {shown} | {doc} |")
        lines.append("")
    lines += ["## Shipped variants", "", "| name | aliases | extends | rules |", "|---|---|---|---|"]
    for n in variant_names():
        s = load_spec(n)
        raw = tomllib.loads((VARIANT_DIR / f"{n}.toml").read_text())
        lines.append(f"| `{n}` | {', '.join(s.aliases) or '-'} | {raw.get('extends', '-')} "
                     f"| `{s.rules_ref}` |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--doc"]:
        sys.stdout.write(schema_markdown())
    else:
        sys.exit("usage: python -m engine.variant --doc")
