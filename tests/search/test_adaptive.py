"""The adaptive level (issue 7, engine/adaptive.py): the hard bounds over 100 synthetic
games, the learning direction, the profile file (atomic write, broken and foreign files),
the reset, the report, and that a default profile plays exactly like hard.

Every profile lives under the test's tmp_path (XDG_DATA_HOME), never in the real home."""
from __future__ import annotations

import json
import math
import os
import random

import pytest

from engine import adaptive, eval_tables
from engine.__main__ import main as cli_main
from engine.board import Board
from engine.deepening import GoLimits
from engine.engine import Engine
from engine.evaluate import evaluate_boards
from engine.variant import variant_names

EPS = 1e-12


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "quantum" / "profiles"


def random_game(variant: str, plies: int, seed: int) -> list[str]:
    """A seeded random game: plenty of material imbalance for every weight to matter."""
    rng = random.Random(seed)
    board = Board(variant)
    moves = []
    while len(moves) < plies and board.outcome() is None:
        move = rng.choice(board.legal_moves())
        board.push(move)
        moves.append(move)
    return moves


class Notes(list):
    def __call__(self, text, error):
        self.append((text, error))

    @property
    def errors(self):
        return [t for t, e in self if e]


# -- the one bounding function -------------------------------------------------------------
@pytest.mark.parametrize("old, proposed, expected", [
    (1.0, 1.01, 1.01),
    (1.0, 5.0, 1.03),
    (1.0, -5.0, 0.97),
    (1.29, 1.5, 1.3),                     # the total bound wins over the step
    (0.71, 0.0, 0.7),
    (1.3, 1.3 + 0.03, 1.3),
    (0.7, 0.6, 0.7),
    (1.0, math.inf, 1.0),                 # not a number: no change
    (1.0, -math.inf, 1.0),
    (1.1, math.nan, 1.1),
])
def test_bound_clips_the_step_and_the_total(old, proposed, expected):
    assert adaptive.bound(old, proposed) == pytest.approx(expected, abs=1e-12)


def test_bounds_are_3_and_30_percent():
    assert adaptive.MAX_STEP == 0.03 and adaptive.MAX_TOTAL == 0.30
    assert (adaptive.LOW, adaptive.HIGH) == (pytest.approx(0.7), pytest.approx(1.3))


# -- 100 synthetic games, results chosen to push as far as possible ------------------------
SCENARIOS = {                           # White's score; the engine plays White
    "all wins": lambda g: 1.0,
    "all draws": lambda g: 0.5,
    "alternating": lambda g: float(g % 2),
}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_bounds_hold_over_100_adversarial_games(scenario, data_home, monkeypatch):
    """Each weight moves at most 3 % per game and ends within 30 % of its default, also
    when the rule wants to move much further (a rate 1000 times the real one turns every
    non-zero gradient into a step far beyond the cap). The opponent's moves are random,
    far from Quantum's own, so every game pushes."""
    monkeypatch.setattr(adaptive, "RATE", adaptive.RATE * 1000)
    state = adaptive.Adaptive()
    games = [random_game("chess", 60, seed) for seed in range(5)]
    result = SCENARIOS[scenario]
    names = adaptive.weight_names("chess")
    moved = {name: 0.0 for name in names}
    for g in range(100):
        out = state.learn("chess", None, games[g % len(games)], result(g), "w")
        stored = adaptive.read_profile(state.path).multipliers("chess")
        assert stored == out.after
        for name in names:
            step = abs(out.after[name] - out.before[name])
            assert step <= adaptive.MAX_STEP + EPS, (g, name, step)
            assert adaptive.LOW <= out.after[name] <= adaptive.HIGH, (g, name)
            moved[name] = max(moved[name], abs(out.after[name] - 1.0))
    assert adaptive.read_profile(state.path).games["chess"] == 100
    # The pressure was real: some weight reached the 30 % wall, most moved.
    assert max(moved.values()) == pytest.approx(adaptive.MAX_TOTAL)
    assert sum(1 for m in moved.values() if m > 0) >= len(names) // 2, moved


def test_bounds_hold_for_grand_pieces(data_home, monkeypatch):
    monkeypatch.setattr(adaptive, "RATE", adaptive.RATE * 1000)
    state = adaptive.Adaptive()
    moves = random_game("grand", 60, 1)
    assert "opponent's archbishop value" in adaptive.weight_names("grand")
    assert "opponent's chancellor value" in adaptive.weight_names("grand")
    for g in range(15):
        out = state.learn("grand", None, moves, 0.0, "b")
        assert out.after != out.before
        for name, m in out.after.items():
            assert abs(m - out.before[name]) <= adaptive.MAX_STEP + EPS
            assert adaptive.LOW <= m <= adaptive.HIGH


# Black (the opponent) gives its queen for a pawn-defended rook; White recaptures.
QUEEN_FOR_ROOK = ("q3k3/8/8/8/8/R7/1P6/4K3 b - - 0 1", ["a8a3", "b2a3"])


def test_a_queen_given_for_a_rook_lowers_the_opponents_queen_value():
    fen, moves = QUEEN_FOR_ROOK
    game = adaptive.game_positions("chess", fen, moves)
    m = adaptive.defaults("chess")
    grad = adaptive.choice_gradient("chess", game, "b", m)
    assert grad["opponent's queen value"] < 0 < grad["opponent's rook value"]
    assert grad["opponent's knight value"] == grad["opponent's bishop value"] == 0.0
    won = adaptive.step("chess", game, "w", 1.0, m)
    assert won["opponent's queen value"] < 1.0 < won["opponent's rook value"]
    # the same moves seen from Black's side: White's recapture is what Quantum plays
    assert adaptive.step("chess", game, "b", 1.0, m) == m


def test_lost_games_teach_nothing_and_every_game_forgets():
    fen, moves = QUEEN_FOR_ROOK
    game = adaptive.game_positions("chess", fen, moves)
    m = dict(adaptive.defaults("chess"), **{"opponent's queen value": 0.8,
                                            "opponent's rook value": 1.2})
    after = adaptive.step("chess", game, "w", 0.0, m)
    assert after["opponent's queen value"] == pytest.approx(1 - 0.2 * (1 - adaptive.FORGET))
    assert after["opponent's rook value"] == pytest.approx(1 + 0.2 * (1 - adaptive.FORGET))
    assert after["opponent's knight value"] == 1.0


def test_an_unknown_side_teaches_nothing(data_home):
    notes = Notes()
    state = adaptive.Adaptive(notes)
    fen, moves = QUEEN_FOR_ROOK
    out = state.learn("chess", fen, moves, 1.0, None)
    assert out.after == out.before == adaptive.defaults("chess")
    assert not (data_home / "default.json").exists()
    assert notes == [("adaptive: the engine's side in that game is unknown; nothing learnt",
                      False)]


def test_game_positions_keep_every_move_and_reject_illegal_ones():
    game = adaptive.game_positions("chess", None, ["f2f3", "e7e5", "g2g4", "d8h4"])
    assert game.moves == ("f2f3", "e7e5", "g2g4", "d8h4") and game.turns == "wbwb"
    assert [(b.turn, m) for b, m in game.positions("w", 60)] == [("w", "f2f3"), ("w", "g2g4")]
    assert game.final.outcome().result == "0-1"
    with pytest.raises(ValueError, match="illegal move 'e2e5'"):
        adaptive.game_positions("chess", None, ["e2e5"])


# -- tables --------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", variant_names())
def test_default_multipliers_give_the_shipped_tables(variant):
    for own in "wb":
        assert adaptive.tables_for(variant, adaptive.defaults(variant), own) is \
            eval_tables.eval_tables(variant)
    assert adaptive.scaled_params(variant, adaptive.defaults(variant)) == \
        eval_tables.load_params(variant)


@pytest.mark.parametrize("theta, used", [(1.0, 1.0), (1.3, 1.0), (0.9, 0.95), (0.7, 0.85)])
def test_the_search_uses_half_a_learnt_under_valuation(theta, used):
    assert adaptive.used_value(theta) == pytest.approx(used)


@pytest.mark.parametrize("variant", variant_names())
def test_only_the_opponents_pieces_lose_value(variant):
    """A learnt under-valuation lowers the opponent's pieces of that type and nothing else;
    an over-valuation is not used (measured harmful, engine/adaptive.py)."""
    boards = [Board(variant)]
    for seed in range(3):
        b = Board(variant)
        for move in random_game(variant, 30, seed):
            b.push(move)
        boards.append(b)
    names = adaptive.weight_names(variant)
    shipped = evaluate_boards(boards, eval_tables.eval_tables(variant))
    high = dict(adaptive.defaults(variant), **{n: 1.3 for n in names})
    assert evaluate_boards(boards, adaptive.tables_for(variant, high, "w")) == shipped
    low = dict(adaptive.defaults(variant), **{n: 0.7 for n in names})
    for own, sign in (("w", 1), ("b", -1)):             # White's view: + is good for White
        ours = evaluate_boards(boards, adaptive.tables_for(variant, low, own))
        for board, a, b in zip(boards, ours, shipped):
            assert sign * (a - b) > 0, (variant, own, board.fen())


def test_scaled_params_scale_only_their_group():
    base = eval_tables.load_params("chess")
    scaled = adaptive.scaled_params("chess", dict(adaptive.defaults("chess"),
                                                  **{"queen value": 1.2, "mobility": 0.8}))
    assert scaled["value"]["q"] == [round(v * 1.2) for v in base["value"]["q"]]
    assert scaled["value"]["r"] == base["value"]["r"]
    assert scaled["mobility"]["n"] == [round(v * 0.8) for v in base["mobility"]["n"]]
    assert scaled["king"] == base["king"]
    assert eval_tables.load_params("chess") == base          # the base is never mutated


def test_params_override_file_for_a_testing_opponent(tmp_path, monkeypatch):
    path = tmp_path / "queen.toml"
    path.write_text('extends = "chess"\n[value]\nq = [1700, 1500]\n')
    grand = eval_tables.load_params("grand")
    monkeypatch.setenv("QUANTUM_PARAMS_CHESS", str(path))
    params = eval_tables.load_params("chess")
    assert params["value"]["q"] == [1700, 1500] and params["value"]["r"] == [430, 540]
    assert eval_tables.load_params("grand") == grand        # its own file, not the override
    path.write_text('[bogus]\nx = 1\n')
    with pytest.raises(ValueError, match="unknown table 'bogus'"):
        eval_tables.load_params("chess")


def test_params_override_values_reach_the_net(tmp_path, monkeypatch):
    """scripts/adaptive-match's opponent plays with the net: an override's piece values
    are a change to the net's score, for both colours (its queen is cheap, and so is ours)."""
    from engine.search import Searcher
    from engine.tt import TranspositionTable
    from engine.evaluate import EvalTables
    from engine.variant import load_variant
    variant = load_variant("chess")
    assert eval_tables.value_change(variant, eval_tables.load_params("chess")) == {}
    path = tmp_path / "queen.toml"
    path.write_text('extends = "chess"\n[value]\nq = [575, 446]\n')
    monkeypatch.setenv("QUANTUM_PARAMS_CHESS", str(path))
    mg, eg = 575 - 1149, 446 - 891
    assert eval_tables.value_change(variant, eval_tables.load_params("chess")) == \
        {5 | 16: (mg, eg), 5 | 32: (mg, eg)}
    net = eval_tables.eval_tables("chess").net
    weak = EvalTables(eval_tables.build(variant))
    weak.attach(net)
    lone_queen = (mg * 4 + eg * 20) // 24               # a queen's phase: 4 of 24
    for fen, change in (("4k3/p7/8/8/8/8/P7/3QK3 w - - 0 1", lone_queen),
                        ("3qk3/p7/8/8/8/8/P7/3QK3 b - - 0 1", 0)):   # both cheaper: even
        # (pawns on both sides: without them the endgame rules score a bare king's ending
        # and scale queen against queen)
        board = Board("chess", fen)
        searcher = Searcher()
        searcher.set_root(board, weak, TranspositionTable(1))
        assert searcher.static_eval() - net.evaluate(board) == change


@pytest.mark.parametrize("variant", ["chess", "grand", "hexagonal"])
def test_dumped_params_read_back_equal(variant, tmp_path, monkeypatch):
    """What the tuner and scripts/adaptive-match write is what an engine then loads."""
    params = adaptive.scaled_params(variant, {"king safety": 0.0, "mobility": 1.5})
    path = tmp_path / "p.toml"
    path.write_text('extends = ""\n' + eval_tables.dump_params(params))
    monkeypatch.setenv("QUANTUM_PARAMS_" + variant.upper(), str(path))
    assert eval_tables.load_params(variant) == params


POSITIONS = [
    None,
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "r3k2r/pp1n1ppp/2p1pn2/q7/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R w KQkq - 1 9",
    "8/5pk1/6p1/3R4/7P/6P1/r4P2/6K1 w - - 0 40",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_adaptive_with_a_default_profile_plays_like_hard(fen, data_home):
    moves = {}
    for level in ("hard", "adaptive"):
        engine = Engine()
        engine.set_level(level)
        engine.set_position(fen, [])
        best, infos = engine.search_sync(GoLimits(depth=6))
        moves[level] = (best.move, [(i.depth, i.score, i.nodes) for i in infos])
    assert moves["adaptive"] == moves["hard"]


@pytest.mark.parametrize("nnue", [True, False])
def test_adaptive_searches_with_the_profile_weights(data_home, nnue):
    """Playing Black against a learnt queen under-valuer (0.7), the engine counts White's
    queen at 0.85 of its value, added to the evaluation it searches with at hard: the net,
    or the hand-written one without Use NNUE. Playing White, its own queen keeps its value."""
    from engine.search import Searcher
    from engine.tt import TranspositionTable
    engine = Engine()
    engine.set_level("adaptive")
    engine.use_nnue = nnue
    engine.adaptive.profile().weights["chess"] = dict(adaptive.defaults("chess"),
                                                      **{"opponent's queen value": 0.7})
    board = Board("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1")

    def static(tables) -> int:
        searcher = Searcher()
        searcher.set_root(board, tables, TranspositionTable(1))
        return searcher.static_eval()

    base = engine.evaluation()
    assert (base.net is not None) == nnue
    black = engine.adaptive.tables("chess", "b", base)
    assert black.net is base.net
    mg, eg = (round(v * 0.85) - v for v in eval_tables.load_params("chess")["value"]["q"])
    phase, most = base.phase_weights()[5], 24           # a queen's phase of the full 24
    change = (mg * phase + eg * (most - phase)) // most
    assert change < 0
    # the hand-written evaluation tapers its whole sum at once: rounding may differ by 1
    assert abs(static(black) - static(base) - change) <= (0 if nnue else 1)
    assert static(engine.adaptive.tables("chess", "w", base)) == static(base)


def test_adaptive_plays_on_the_net_it_would_play_at_hard(data_home):
    """A learnt under-valuation keeps the net (EvalFile's where set); the hand-written
    evaluation only where hard would use it."""
    engine = Engine()
    engine.set_level("adaptive")
    engine.adaptive.profile().weights["chess"] = dict(adaptive.defaults("chess"),
                                                      **{"opponent's rook value": 0.8})
    engine.set_position(None, ["e2e4"])
    seen = []
    engine.adaptive.tables = lambda variant, own, base: seen.append(base) or base
    engine.search_sync(GoLimits(depth=2))
    assert seen == [engine.evaluation()] and seen[0].net is not None


# -- the file ------------------------------------------------------------------------------
def learnt_state(data_home, games=3) -> adaptive.Adaptive:
    state = adaptive.Adaptive()
    for seed in range(games):
        state.learn("chess", None, random_game("chess", 40, seed), 1.0, "w")
    return state


def test_write_is_atomic_when_the_rename_fails(data_home, monkeypatch):
    state = learnt_state(data_home)
    before = state.path.read_text()
    parsed = adaptive.parse_profile(before)

    def crash(src, dst):
        raise OSError(5, "simulated crash before the rename")

    monkeypatch.setattr(os, "replace", crash)
    notes = Notes()
    state.notify = notes
    state.learn("chess", None, random_game("chess", 40, 9), 1.0, "w")
    assert state.path.read_text() == before                     # the old file, whole
    assert adaptive.parse_profile(state.path.read_text()) == parsed
    assert [p.name for p in state.path.parent.iterdir()] == [state.path.name]   # no temp
    assert notes.errors and "cannot write" in notes.errors[0]


def test_write_is_atomic_when_writing_dies_halfway(data_home, monkeypatch):
    state = learnt_state(data_home)
    before = state.path.read_text()
    real_fsync = os.fsync

    def die(fd):
        os.write(fd, b"{ half a profile")
        raise KeyboardInterrupt            # killed mid-write

    monkeypatch.setattr(os, "fsync", die)
    with pytest.raises(KeyboardInterrupt):
        adaptive.write_atomic(state.path, adaptive.Profile().to_json())
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert state.path.read_text() == before
    adaptive.parse_profile(state.path.read_text())
    assert [p.name for p in state.path.parent.iterdir()] == [state.path.name]


def test_a_killed_writer_process_leaves_the_old_file(data_home, tmp_path):
    """A real process killed (SIGKILL) while it writes: the profile stays the old one."""
    import signal
    import subprocess
    import sys
    state = learnt_state(data_home, games=1)
    before = state.path.read_text()
    script = tmp_path / "writer.py"
    script.write_text(
        "import os, sys, time\n"
        "from pathlib import Path\n"
        "from engine import adaptive\n"
        "real = os.fsync\n"
        "def slow(fd):\n"
        "    print('writing', flush=True); time.sleep(60)\n"
        "os.fsync = slow\n"
        "adaptive.write_atomic(Path(sys.argv[1]), 'x' * 5000)\n")
    root = adaptive.Path(adaptive.__file__).parents[1]
    proc = subprocess.Popen([sys.executable, str(script), str(state.path)], cwd=str(root),
                            stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(root)))
    assert proc.stdout.readline().strip() == "writing"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert state.path.read_text() == before
    adaptive.parse_profile(before)


def valid_doc() -> dict:
    return json.loads(adaptive.Profile("x", {"chess": adaptive.defaults("chess")},
                                       {"chess": 2}).to_json())


def _set(doc, path, value):
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


def _drop(doc, path):
    node = doc
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return doc


# Files that are not Quantum profiles at all: never renamed, replaced nor written (issue 13).
FOREIGN_FILES = {
    "not json": lambda: "{ this is not json",
    "a text file": lambda: "export PATH=$HOME/bin:$PATH\n",
    "binary": lambda: b"\xff\xfe\x00garbage",
    "a list": lambda: "[1, 2, 3]",
    "another format": lambda: json.dumps(_set(valid_doc(), ["format"], "lc0-config")),
    "huge": lambda: " " * (adaptive.MAX_FILE_BYTES + 10) + json.dumps(valid_doc()),
}
# Quantum profiles that must not be trusted: kept as .bad and replaced by defaults.
BAD_FILES = {
    "another version": lambda: json.dumps(_set(valid_doc(), ["version"], 3)),
    "version 1 (other weights)": lambda: json.dumps(_set(valid_doc(), ["version"], 1)),
    "version true": lambda: json.dumps(_set(valid_doc(), ["version"], True)),
    "extra key": lambda: json.dumps(_set(valid_doc(), ["upload_to"], "http://example.com")),
    "unknown variant": lambda: json.dumps(_set(valid_doc(), ["variants", "shogi"],
                                               valid_doc()["variants"]["chess"])),
    "unknown weight": lambda: json.dumps(_set(valid_doc(), ["variants", "chess", "weights",
                                                            "aggression"], 1.0)),
    "missing weight": lambda: json.dumps(_drop(valid_doc(), ["variants", "chess", "weights",
                                                             "opponent's rook value"])),
    "above 30 %": lambda: json.dumps(_set(valid_doc(), ["variants", "chess", "weights",
                                                        "opponent's rook value"], 1.31)),
    "below 30 %": lambda: json.dumps(_set(valid_doc(), ["variants", "chess", "weights",
                                                        "opponent's queen value"], 0.69)),
    "NaN": lambda: json.dumps(_set(valid_doc(), ["variants", "chess", "weights",
                                                 "opponent's rook value"], float("nan"))),
    "string weight": lambda: json.dumps(_set(valid_doc(), ["variants", "chess", "weights",
                                                           "opponent's rook value"], "1.0")),
    "negative games": lambda: json.dumps(_set(valid_doc(), ["variants", "chess", "games"], -1)),
}


def write_file(path, content) -> bytes:
    """Write ``content`` (text or bytes) to ``path``; the bytes written."""
    data = content if isinstance(content, bytes) else content.encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("kind", BAD_FILES)
def test_a_bad_profile_is_reported_and_replaced_by_defaults(kind, data_home):
    path = data_home / "default.json"
    write_file(path, BAD_FILES[kind]())
    notes = Notes()
    state = adaptive.Adaptive(notes)
    profile = state.profile()
    assert profile.multipliers("chess") == adaptive.defaults("chess")
    assert len(notes.errors) == 1, notes
    assert notes.errors[0].startswith(f"adaptive profile {path}: ")
    assert notes.errors[0].endswith("replaced by defaults (the old file is kept as "
                                    "default.json.bad)")
    assert adaptive.read_profile(path) == adaptive.Profile("default")      # replaced
    assert (data_home / "default.json.bad").exists()


def test_a_bad_profile_kept_as_bad_never_replaces_a_file(data_home):
    """The copy of a broken profile goes to the first free ``.bad`` name."""
    path = data_home / "default.json"
    write_file(path, BAD_FILES["another version"]())
    other = write_file(data_home / "default.json.bad", "someone's notes\n")
    notes = Notes()
    adaptive.Adaptive(notes).profile()
    assert notes.errors[0].endswith("(the old file is kept as default.json.bad.2)")
    assert (data_home / "default.json.bad").read_bytes() == other
    assert json.loads((data_home / "default.json.bad.2").read_text())["version"] == 3


@pytest.mark.parametrize("kind", FOREIGN_FILES)
def test_a_foreign_file_is_reported_and_never_touched(kind, data_home):
    """Issue 13: a file that is not a Quantum profile was renamed to .bad and replaced.
    Now it is reported, the level plays with the defaults, and neither reading, learning
    nor the reset changes a byte of it or adds a file next to it."""
    path = data_home / "default.json"
    data = write_file(path, FOREIGN_FILES[kind]())
    notes = Notes()
    state = adaptive.Adaptive(notes)
    assert state.profile().multipliers("chess") == adaptive.defaults("chess")
    assert notes.errors[0].startswith(f"adaptive profile {path}: ")
    assert notes.errors[0].endswith("left untouched; the adaptive level plays with the "
                                    "defaults and saves nothing there")
    state.learn("chess", None, random_game("chess", 40, 1), 1.0, "w")
    state.reset()
    assert "cannot write (not a Quantum profile" in notes.errors[-1]
    assert path.read_bytes() == data
    assert [p.name for p in data_home.iterdir()] == ["default.json"]


def test_an_empty_file_is_a_profile_yet_to_be_written(data_home):
    """An empty file holds nothing to lose: it reads as defaults, without a report, and
    the first game learnt is written to it."""
    path = data_home / "default.json"
    write_file(path, "")
    notes = Notes()
    state = adaptive.Adaptive(notes)
    assert state.profile() == adaptive.Profile("default") and notes == []
    state.learn("chess", None, random_game("chess", 40, 1), 1.0, "w")
    assert adaptive.read_profile(path).games == {"chess": 1}


def test_the_valid_reference_document_is_accepted():
    profile = adaptive.parse_profile(json.dumps(valid_doc()))
    assert profile.games == {"chess": 2}


def test_an_unreadable_file_is_reported(data_home):
    data_home.mkdir(parents=True)
    (data_home / "default.json").mkdir()              # a folder where the file should be
    notes = Notes()
    state = adaptive.Adaptive(notes)
    assert state.profile().multipliers("chess") == adaptive.defaults("chess")
    assert "not a regular file" in notes.errors[0] and "left untouched" in notes.errors[0]
    assert (data_home / "default.json").is_dir()


def test_a_missing_file_is_no_error_and_is_not_created(data_home):
    notes = Notes()
    state = adaptive.Adaptive(notes)
    assert state.profile().multipliers("grand") == adaptive.defaults("grand")
    assert notes == [] and not data_home.exists()


# -- reset, report, names ------------------------------------------------------------------
def test_reset_restores_defaults(data_home):
    state = learnt_state(data_home)
    assert state.profile().multipliers("chess") != adaptive.defaults("chess")
    notes = Notes()
    state.notify = notes
    state.reset()
    assert state.profile().multipliers("chess") == adaptive.defaults("chess")
    assert adaptive.read_profile(state.path) == adaptive.Profile("default")
    assert notes == [(f"adaptive: profile {state.path} reset to defaults", False)]


def test_cli_reset_and_show(data_home, capsys):
    state = adaptive.Adaptive()
    state.set_opponent("GM 2800 human Magnus Carlsen")
    state.learn("chess", None, random_game("chess", 40, 1), 0.0, "w")
    assert cli_main(["profile", "show", "--opponent", "Magnus Carlsen"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"adaptive profile {data_home / 'magnus_carlsen.json'} " \
                     "(opponent magnus_carlsen)"
    assert out[1].startswith("chess: 1 game learned; ")
    assert out[1:] == adaptive.show_lines(adaptive.read_profile(state.path), variant_names())
    assert "grand: no games learned (defaults)" in out
    assert cli_main(["profile", "reset", "--opponent", "Magnus Carlsen"]) == 0
    assert capsys.readouterr().out.strip().endswith("reset to defaults")
    assert adaptive.read_profile(state.path).multipliers("chess") == adaptive.defaults("chess")
    assert cli_main(["profile", "show", "--opponent", "magnus_carlsen", "--variant",
                     "standard"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["chess: no games learned (defaults)"]


def test_cli_show_reports_a_broken_file(data_home, capsys):
    data_home.mkdir(parents=True)
    (data_home / "default.json").write_text("{")
    assert cli_main(["profile", "show"]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert (data_home / "default.json").read_text() == "{"          # show changes nothing
    assert cli_main(["profile", "show", "--file", str(data_home / "none.json")]) == 0
    assert "no file yet" in capsys.readouterr().out


def test_report_format():
    m = dict(adaptive.defaults("chess"), **{"opponent's knight value": 1.021,
                                            "opponent's rook value": 0.992,
                                            "opponent's queen value": 0.877,
                                            "opponent's bishop value": 1.0004})
    text = "opponent's knight value +2.1 %, opponent's rook value -0.8 %, " \
           "opponent's queen value -12.3 %"
    assert adaptive.changes_text(m, adaptive.weight_names("chess")) == text
    assert adaptive.changes_text(adaptive.defaults("chess")) == "no weight changed"
    profile = adaptive.Profile("x", {"chess": m}, {"chess": 4})
    assert adaptive.show_lines(profile, ["chess", "grand"]) == [
        "chess: 4 games learned; " + text, "grand: no games learned (defaults)"]


@pytest.mark.parametrize("uci_value, name", [
    ("GM 2800 human Magnus Carlsen", "magnus_carlsen"),
    ("none none computer Stockfish 16.1", "stockfish_16.1"),
    ("Leela", "leela"),
    ("../../etc/passwd", "etc_passwd"),
    ("..", "default"),
    ("", "default"),
    ("IM none human ", "im_none_human"),
    ("x" * 100, "x" * 64),
])
def test_opponent_names_are_file_safe(uci_value, name):
    assert adaptive.opponent_name(uci_value) == name


def test_default_path_follows_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert adaptive.default_path("bob") == tmp_path / "quantum" / "profiles" / "bob.json"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")          # ignored, as XDG says
    assert adaptive.default_path("bob") == \
        adaptive.Path.home() / ".local" / "share" / "quantum" / "profiles" / "bob.json"


# -- the engine facade ---------------------------------------------------------------------
def test_engine_learns_only_at_level_adaptive(data_home):
    engine = Engine()
    mate = ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert engine.learn(0.0, mate, side="w") is False
    assert not data_home.exists()
    with pytest.raises(ValueError, match="contradicts the final position"):
        engine.learn(1.0, mate)
    with pytest.raises(ValueError, match="unknown variant"):
        engine.learn(1.0, [], variant="shogi")
    engine.set_level("adaptive")
    notes = Notes()
    engine.on_note = notes
    assert engine.learn(0.0, mate, side="w") is True
    assert adaptive.read_profile(data_home / "default.json").games == {"chess": 1}
    assert notes and notes[0][0].startswith("adaptive: ") and not notes[0][1]


def test_engine_learns_implicitly_from_a_finished_game_at_new_game(data_home):
    engine = Engine()
    engine.set_level("adaptive")
    engine.set_position(None, ["f2f3", "e7e5", "g2g4"])
    engine.search_sync(GoLimits(depth=2))                # the engine moves for Black
    engine.set_position(None, ["f2f3", "e7e5", "g2g4", "d8h4"])
    engine.new_game()
    assert adaptive.read_profile(data_home / "default.json").games == {"chess": 1}
    engine.new_game()                                    # nothing to learn twice
    assert adaptive.read_profile(data_home / "default.json").games == {"chess": 1}


def _adaptive_match():
    """scripts/adaptive-match as a module (its scripts/ imports found as when it runs)."""
    import importlib.machinery
    import importlib.util
    import sys
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "scripts" / "adaptive-match"
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    loader = importlib.machinery.SourceFileLoader("adaptive_match", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def test_adaptive_match_learning_curve_pools_places_after_each_reset():
    """Two stretches of 10 games: places 1, 2-3, 4-7, 8-10 of both are pooled."""
    am = _adaptive_match()
    scores = [1, 0, 0, 1, 1, 1, 1, 0, 0, 0] + [0, 1, 1, 1, 1, 0, 0, 1, 1, 1]
    assert am.curve(scores, 10) == [(1, 1, 0.5, 2), (2, 3, 0.5, 4), (4, 7, 0.75, 8),
                                    (8, 10, 0.5, 6)]
    assert am.parse_weakness("chess", ["queen value=0.5", "king safety=0"]) == \
        {"queen value": 0.5, "king safety": 0.0}
    with pytest.raises(ValueError, match="NAME=FACTOR"):
        am.parse_weakness("chess", ["opponent's queen value=0.5"])


def test_adaptive_match_opponent_keeps_its_net_for_piece_values_only():
    """A piece-value weakness reaches the opponent's net (value_change); a positional one
    exists only in the hand-written evaluation, so that opponent plays without the net."""
    am = _adaptive_match()
    assert am.opponent_options({"queen value": 0.5}) == {}
    assert am.opponent_options({"queen value": 0.5, "king safety": 0.0}) == \
        {"Use NNUE": "false"}
    assert am.opponent_options({"mobility": 1.0}) == {}
