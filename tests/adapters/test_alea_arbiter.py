"""Alea on the host side (adapters/alea_referee.py; docs/rules/alea.md; docs/protocol.md,
"Alea games").

A SPY engine (fakes/alea_spy.py) logs every line it receives: its messages must have the
protocol's exact shape, their tokens must be the game so far and their dice the referee's
own rolls. Then: the referee's roll frequencies against engine.alea.dice_distribution
(chi-square, seeded); the same seed and the same answers give the same game; illegal and
unaffordable answers lose with their reason; the promotion die's piece appears in the next
message, the state and the PGN; draw offers (A17) and their 10-ply wait; the terminal's
Alea turn; the baselines and a short scripts/match of greedy against random.
"""
from __future__ import annotations

import datetime
import hashlib
import io
import random
import re
import shlex
import sys
from collections import Counter

import pytest

from adapterkit import REPO_ROOT, answers, baseline_argv, close, run_match_script
from adapters import arbiter, session
from adapters.alea_referee import (AleaReferee, daily_seed, explain, format_token,
                                   parse_alea_position, parse_seed, parse_token)
from adapters.arbiter import GameRecord, Referee, TimeControl, referee_for
from adapters.match import MatchConfig, run_match
from adapters.pgn import write_pgn
from adapters.session import play_game
from adapters.terminal import HumanPlayer, play_in_terminal
from engine import alea
from engine.alea import Action, AleaState

TC = TimeControl(10.0, 0.1)          # generous: the players answer in milliseconds
SPY = REPO_ROOT / "tests" / "adapters" / "fakes" / "alea_spy.py"
START = AleaState.start().fen()
# White can move all four die types: knights, Bc1/Bf1, Rh1-g1, the queen.
OPEN = "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 1"
# In check from Re7: Rh4-e4, Bb5-e2 and Nc1-e2 answer it (A10).
CHECKED = "k7/4r3/8/1B6/7R/8/P7/2N1K3 w - - 0 1"
FEN14 = re.compile(r"\S+ [wb] \S+ \S+ \d+ \d+ \d+/\d+ [-nbrqk]/[-nbrqk] \d+/\d+ \d+/\d+ "
                   r"\d+/\d+ \S+/\S+ (?:-|[nbrq]{2}) (?:alea|classic)")
TOKEN = r"(?:reroll|(?:joker:|castle:)?[a-h][1-8][a-h][1-8][nbrq]?)"
POSITION = re.compile(rf"position alea fen ({FEN14.pattern})(?: moves((?: {TOKEN})+))? "
                      r"dice (-|[nbrq]{2})")
GO = re.compile(r"go wtime \d+ btime \d+ winc \d+ binc \d+")


def alea_fen(fen: str, moves="8/8", last="-/-", jokers="4/4", rerolls="2/2", castle="1/1",
             dice="-", mode="alea") -> str:
    return f"{fen} {moves} {last} {jokers} {rerolls} {castle} -/- {dice} {mode}"


def baseline(name: str) -> list[str]:
    return baseline_argv(f"alea_{name}")


def spy_argv(mode: str, log, seed: int = 1) -> list[str]:
    return [sys.executable, str(SPY), mode, str(log), str(seed)]


def clean(rec: GameRecord) -> bool:
    return rec.illegal is None and rec.crashed is None and rec.time_forfeit is None


# -- the messages -------------------------------------------------------------------------
def check_spy_log(text: str, rec: GameRecord, ref: AleaReferee, side: int) -> int:
    """Every position line the spy read is the protocol's, tells the game so far and the
    referee's roll for that turn; returns how many dice were told."""
    lines = text.splitlines()
    assert "setoption name UCI_Variant value alea" in lines and "ucinewgame" in lines
    positions = [ln for ln in lines if ln.startswith("position")]
    gos = [ln for ln in lines if ln.startswith("go")]
    assert len(positions) == len(gos) and positions
    assert all(GO.fullmatch(g) for g in gos), gos[:3]
    rolls = dict(ref.rolls)
    told = 0
    for line in positions:
        m = POSITION.fullmatch(line)
        assert m, line
        assert m[1] == rec.initial_fen
        tokens = m[2].split() if m[2] else []
        assert tokens == rec.moves[:len(tokens)]
        state = parse_alea_position(line).state
        assert state.side == side
        dice = m[3]
        if alea.is_free_phase(state):
            assert dice == "-" and len(tokens) not in rolls
        elif dice == "-":
            assert not alea.playable_types(state) and len(tokens) not in rolls
        else:
            assert rolls[len(tokens)] == dice                     # the referee's roll
            assert alea.dice_distribution(state.with_dice(None))[tuple(dice)] > 0
            told += 1
        if len(tokens) < len(rec.moves):
            assert rec.dice[len(tokens)] == (None if alea.is_free_phase(state) else dice)
    return told


@pytest.mark.parametrize("seed,spy_side", [(1, 0), (2, 1)])
def test_spy_is_told_the_protocol_and_the_referees_dice(start_engine, tmp_path, seed,
                                                        spy_side):
    log = tmp_path / "spy.log"
    spy = start_engine(spy_argv("good", log, seed), name="spy")
    other = start_engine(baseline("random"), seed=10 + seed)
    white, black = (spy, other) if spy_side == 0 else (other, spy)
    ref = AleaReferee(seed=seed)
    rec = play_game(white, black, "alea", TC, referee=ref)
    close(spy)
    assert clean(rec) and rec.white_score is not None, rec.termination
    assert rec.initial_fen == START and rec.tags == {"DiceSeed": str(seed)}
    assert len(rec.dice) == len(rec.moves)
    assert check_spy_log(log.read_text(), rec, ref, spy_side) >= 10
    # The record replays to the referee's state, and the arbiter's board followed it.
    end = parse_alea_position(ref.reveal_at_end(0, None, rec))
    assert end.state == ref.state and alea.outcome(end.state) == alea.outcome(ref.state)


def test_first_message_exactly():
    ref = AleaReferee(seed=3)
    rec = GameRecord("alea", "", "W", "B")
    board = ref.setup(rec, alea_fen(OPEN))
    ref.chance(board, rec)
    position, go = ref.message_for(0, board, rec, arbiter.Clocks(TimeControl(60, 1)))
    dice = "".join(ref.state.dice)
    assert position == f"position alea fen {alea_fen(OPEN)} dice {dice}"
    assert go == "wtime 60000 btime 60000 winc 1000 binc 1000"
    assert ref.rolls == [(0, dice)]
    ref.play(board, rec, "reroll")
    ref.chance(board, rec)
    position, _ = ref.message_for(0, board, rec, arbiter.Clocks(None))
    assert position == (f"position alea fen {alea_fen(OPEN)} moves reroll dice "
                        f"{''.join(ref.state.dice)}")
    assert ref.state.rerolls == (1, 2) and board.fen() == OPEN


def test_tokens_round_trip_and_errors():
    for token in ("e2e4", "e7e8r", "joker:e2e4", "joker:a7a8n", "castle:e1g1", "reroll"):
        action, promotion = parse_token(token)
        assert format_token(action, promotion) == token
    assert parse_token("joker:e2e4") == (Action("joker", "e2e4"), None)
    for bad in ("", "e2", "joker e2e4", "castle:e1g1q", "knight:b1c3", "e2e4e", "z9z9"):
        with pytest.raises(ValueError):
            parse_token(bad)


# -- the dice ------------------------------------------------------------------------------
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32}


@pytest.mark.parametrize("fen,last", [
    (OPEN, "-/-"),          # four types: six pairs (A6, A8)
    (OPEN, "n/-"),          # knights on cooldown: three pairs (A9)
    (CHECKED, "r/-"),       # in check: the types that answer it, cooldown lifted (A10)
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "-/-"),      # one playable type: rr (A8 decided)
])
def test_roll_frequencies_match_the_distribution(fen, last):
    """A8: the referee's rolls (4000 per state, seeded) against the exact distribution:
    the chi-square statistic stays under its 99.9 % quantile."""
    state = AleaState.parse(alea_fen(fen, last=last))
    want = alea.dice_distribution(state)
    ref = AleaReferee(seed=12345)
    rec = GameRecord("alea", "", "W", "B")
    board = ref.setup(rec, state.fen())
    n = 4000
    seen = Counter()
    for _ in range(n):
        ref.state = state
        ref.chance(board, rec)
        seen[ref.state.dice] += 1
    assert set(seen) <= set(want) and len(ref.rolls) == n
    if len(want) == 1:
        assert seen == Counter({next(iter(want)): n})
        return
    chi2 = sum((seen[p] - n * float(q)) ** 2 / (n * float(q)) for p, q in want.items())
    assert chi2 < CHI2_999[len(want) - 1], (chi2, seen, want)


def test_no_dice_in_the_free_phase_nor_when_no_type_can_move():
    ref = AleaReferee(seed=1)
    rec = GameRecord("alea", "", "W", "B")
    board = ref.setup(rec, None)
    ref.chance(board, rec)
    assert ref.state.dice is None and ref.rolls == []
    assert ref.message_for(0, board, rec, arbiter.Clocks(None))[0].endswith(" dice -")
    board = ref.setup(rec, alea_fen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"))   # pawn and king
    ref.chance(board, rec)
    assert ref.state.dice is None and ref.rolls == []


def test_seeds():
    day = datetime.date(2024, 5, 17)
    digest = hashlib.sha256(b"alea-daily-2024-05-17").digest()
    assert daily_seed(day) == int.from_bytes(digest[:4], "big")
    today = datetime.datetime.now(datetime.timezone.utc).date()
    assert parse_seed("daily") in (daily_seed(today), daily_seed())
    assert parse_seed(" 42 ") == 42
    for bad in ("-1", "x", "1.5", ""):
        with pytest.raises(ValueError):
            parse_seed(bad)
    assert AleaReferee(seed=7).seed == 7 and isinstance(AleaReferee().seed, int)
    assert isinstance(referee_for("alea"), AleaReferee)
    assert referee_for("alea", seed=9).seed == 9
    for variant in ("chess", "grand", "hexagonal"):
        assert type(referee_for(variant, seed=9)) is Referee


def test_same_seed_same_game(start_engine):
    """Random against random twice with the same engine seeds and dice seed: the same
    game, dice and PGN; another dice seed gives another game."""
    def game(dice_seed):
        rec = play_game(start_engine(baseline("random"), seed=3),
                        start_engine(baseline("random"), seed=4), "alea", TC,
                        referee=AleaReferee(seed=dice_seed))
        assert clean(rec), rec.termination
        return rec
    first, second, other = game(77), game(77), game(78)
    assert first.moves == second.moves and first.dice == second.dice
    assert write_pgn(first, TC.pgn()) == write_pgn(second, TC.pgn())
    assert (first.moves, first.dice) != (other.moves, other.dice)
    for rec in (first, second, other):          # at most one reroll in a row, and 2 a side
        assert "reroll reroll" not in " ".join(rec.moves)
        assert rec.moves.count("reroll") <= 4


# -- illegal answers lose -------------------------------------------------------------------
@pytest.mark.parametrize("mode,fen,reason", [
    ("joker", alea_fen(OPEN, jokers="0/0"), "no free-move joker left (A14)"),
    ("joker", alea_fen(OPEN, moves="3/3"), "no free-move joker in the free phase (A5)"),
    ("reroll", alea_fen(OPEN), "no reroll joker left (A14)"),
    ("offdice", alea_fen(OPEN, last="q/-"), "not a "),
    ("letter", alea_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"), "a promotion carries no piece"),
])
def test_illegal_or_unaffordable_answers_lose(start_engine, tmp_path, mode, fen, reason):
    log = tmp_path / "spy.log"
    spy = start_engine(spy_argv(mode, log), name="spy")
    ref = AleaReferee(seed=5)
    rec = play_game(spy, start_engine(baseline("random"), seed=1), "alea", TC,
                    start_fen=fen, referee=ref)
    close(spy)
    assert rec.illegal == 0 and rec.white_score == 0.0 and rec.result == "0-1"
    assert rec.termination.startswith("spy sent illegal action ") and reason in rec.termination
    assert ref.state.fen() in rec.termination
    if mode == "reroll":        # two rerolls were granted and asked again, the third lost
        assert rec.moves == ["reroll", "reroll"] and len(ref.rolls) == 3
        assert ref.state.rerolls == (0, 2)
        positions = [ln for ln in log.read_text().splitlines() if ln.startswith("position")]
        assert [ln.split(" dice ")[1] for ln in positions] == [d for _, d in ref.rolls]
        assert positions[2].split(" moves ")[1].startswith("reroll reroll dice")
    if mode == "offdice":
        assert re.search(r"the dice show \w+ \+ \w+, not a \w+ \(A7\)", rec.termination)
    text = write_pgn(rec, TC.pgn())
    assert '[Result "0-1"]' in text and "illegal action" in text


def test_explain_names_the_rule():
    state = AleaState.parse(alea_fen(OPEN, last="n/-", dice="nq"))
    assert explain(state, Action("move", "f3h4")) == "a knight moved last turn: on cooldown (A9)"
    state = AleaState.parse(alea_fen(OPEN, dice="nq"))
    assert "not a rook" in explain(state, Action("move", "h1g1"))
    assert "castle joker" in explain(AleaState.parse(alea_fen(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", dice="rq")), Action("move", "e1g1"))
    assert explain(AleaState.parse(alea_fen(OPEN, castle="0/1", dice="nq")),
                   Action("castle", "e1g1")) == "no castle joker left (A15)"


# -- the promotion die ----------------------------------------------------------------------
PROMO_FEN = alea_fen("4k3/P6p/8/8/8/8/8/4K3 w - - 0 1")     # the pawn: no dead material


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_promotion_die_reaches_the_next_state_and_the_pgn(start_engine, tmp_path,
                                                          monkeypatch, seed):
    """A11: White (pawn and king: no dice) promotes a7a8; the die is the referee's first
    draw. The piece is in the token, on the board Black is sent, and in the PGN."""
    monkeypatch.setattr(session, "MAX_PLIES", 3)
    log = tmp_path / "black.log"
    black = start_engine(spy_argv("good", log, seed), name="spy")
    ref = AleaReferee(seed=seed)
    rec = play_game(start_engine(spy_argv("promote", tmp_path / "w.log")), black, "alea",
                    TC, start_fen=PROMO_FEN, referee=ref)
    close(black)
    piece = alea.PROMOTION_DIE[random.Random(seed).randint(1, 6)]
    assert rec.moves[0] == f"a7a8{piece}" and ref.promotions == [(0, piece)]
    first = [ln for ln in log.read_text().splitlines() if ln.startswith("position")][0]
    assert f" moves a7a8{piece} dice " in first
    assert parse_alea_position(first).state.board.piece_at("a8") == piece.upper()
    assert f"1. {{dice -}} a7a8{piece} " in write_pgn(rec, TC.pgn())


def test_classic_mode_promotes_to_a_queen_without_a_roll():
    ref = AleaReferee(seed=1, classic=True)
    rec = GameRecord("alea", "", "W", "B")
    board = ref.setup(rec, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    ref.chance(board, rec)
    assert ref.message_for(0, board, rec, arbiter.Clocks(None))[0].endswith(" dice -")
    assert ref.illegal(0, board, rec, "a7a8") is None
    ref.play(board, rec, "a7a8")
    assert rec.moves == ["a7a8q"] and board.piece_at("a8") == "Q" and ref.rolls == []


# -- the PGN --------------------------------------------------------------------------------
def read_pgn(text: str) -> tuple[dict, list[str], list[str], str]:
    """(tags, moves, comments, result) of an Alea PGN."""
    head, body = text.split("\n\n", 1)
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', head, re.M))
    comments = re.findall(r"\{([^}]*)\}", body)
    words = re.sub(r"\{[^}]*\}", " ", body).split()
    moves = [w for w in words[:-1] if not re.fullmatch(r"\d+\.(\.\.)?", w)]
    return tags, moves, comments, words[-1]


def test_pgn_is_readable_text_with_the_dice(start_engine):
    ref = AleaReferee(seed=21, jokers=(6, 2))
    rec = play_game(start_engine(baseline("random"), seed=1),
                    start_engine(baseline("random"), seed=2), "alea", TC, referee=ref)
    text = write_pgn(rec, TC.pgn(), round_no=3)
    text.encode("ascii")
    tags, moves, comments, result = read_pgn(text)
    assert tags["Variant"] == "Alea" and tags["DiceSeed"] == "21" and tags["Round"] == "3"
    assert tags["AleaFEN"] == rec.initial_fen and " 6/2 " in tags["AleaFEN"]
    assert "FEN" not in tags and "SetUp" not in tags
    plies = [m for m in rec.moves if m != "reroll"]
    assert moves == plies and tags["PlyCount"] == str(len(plies))
    assert result == rec.result == tags["Result"]
    # One comment before each dice-phase move, telling the dice and the rerolls in order.
    told = [f"dice {d}" for d, m in zip(rec.dice, rec.moves) if d is not None]
    assert [part for c in comments for part in c.split("; ") if part != "reroll"] == told
    assert sum(c.count("reroll") for c in comments) == rec.moves.count("reroll")
    assert len(comments) == sum(1 for d, m in zip(rec.dice, rec.moves)
                                if d is not None and m != "reroll")


# -- draw offers (A17) ----------------------------------------------------------------------
def test_draw_offer_and_the_ten_ply_wait(start_engine, tmp_path):
    log = tmp_path / "spy.log"
    spy = start_engine(spy_argv("good", log), name="spy")
    ref = AleaReferee(seed=1)
    rec = GameRecord("alea", "", "W", "B")
    board = ref.setup(rec, None)
    moves = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 b1c3 d7d6 c1e3 c8e6 h2h3 h7h6".split()
    for move in moves[:4]:
        ref.play(board, rec, move)
    assert ref.answer_draw(spy) == (False, 10)               # declined: wait 10 plies
    for move in moves[4:9]:                                   # 5 plies later: too early
        ref.play(board, rec, move)
    assert ref.answer_draw(spy) == (None, 5)                 # not put: 5 plies to go
    for move in moves[9:14]:                                  # 10 plies later: asked again
        ref.play(board, rec, move)
    ref.answer_draw(spy)
    close(spy)
    lines = log.read_text().splitlines()
    offers = [i for i, ln in enumerate(lines) if ln == "draw offer"]
    assert len(offers) == 2 and ref.offers == [(4, "decline"), (14, "decline")]
    # Each offer comes right after the current position line.
    assert lines[offers[0] - 1] == f"position alea fen {START} moves {' '.join(moves[:4])} dice -"
    assert lines[offers[1] - 1].startswith("position alea fen ") and \
        " ".join(moves) in lines[offers[1] - 1]


def test_an_engine_that_does_not_answer_declines(start_engine, tmp_path):
    spy = start_engine(spy_argv("deaf", tmp_path / "spy.log"), name="spy")
    ref = AleaReferee(seed=1)
    ref.setup(GameRecord("alea", "", "W", "B"), None)
    accepted, _ = ref.answer_draw(spy, timeout=0.5)
    assert accepted is False and ref.offers == [(0, "decline")] and ref.refused_at == 0


def test_terminal_draw_accepted_by_the_engine(start_engine, tmp_path):
    out = io.StringIO()
    person = HumanPlayer("Tester", io.StringIO("e2e4\ndraw\n"), out)
    engine = start_engine(spy_argv("accept", tmp_path / "spy.log"), name="spy")
    rec = play_in_terminal("alea", (person,), engine, 0, TC, output=out,
                           referee=AleaReferee(seed=4))
    assert rec.result == "1/2-1/2" and rec.termination == "draw by agreement"
    assert "AleaSpy accepts the draw." in out.getvalue() and len(rec.moves) == 2


# -- the terminal -----------------------------------------------------------------------------
def test_terminal_alea_turn(start_engine):
    """The person sees the dice, the jokers of both sides and the cooldowns; bad entries are
    answered with the rule; reroll, a joker and a dice move are played."""
    script = "moves\nking\njoker z9z9\ncastle e1g1\nreroll\njoker a2a3\nNh4\nquit\n"
    out = io.StringIO()
    person = HumanPlayer("Tester", io.StringIO(script), out)
    ref = AleaReferee(seed=8)
    rec = play_game(person, start_engine(baseline("random"), seed=2), "alea", TC,
                    start_fen=alea_fen(OPEN, last="-/n", castle="0/1"), referee=ref)
    seen = out.getvalue()
    assert re.search(r"Dice: (knight|bishop|rook|queen) \+ (knight|bishop|rook|queen)", seen)
    assert "Jokers left: White free 4, reroll 2, castle 0  Black free 4, reroll 2, castle 1" \
        in seen
    assert "Cooldown: Black's knight moved last and rests a turn." in seen
    assert "castle e1g1 is not allowed: no castle joker left (A15)" in seen
    assert "You spent a reroll joker: new dice." in seen
    assert rec.moves[:2] == ["reroll", "joker:a2a3"]
    assert "White free 3, reroll 1" in seen
    assert rec.termination == "abandoned: Tester quit"
    # Every dice shown to the person is the referee's roll, in order.
    shown = re.findall(r"Dice: (\w+) \+ (\w+)", seen)
    names = {"knight": "n", "bishop": "b", "rook": "r", "queen": "q"}
    assert ["".join(names[a] + names[b]) for a, b in shown][:2] == [d for _, d in ref.rolls][:2]


# -- the baselines and matches ----------------------------------------------------------------
def test_baselines_refuse_other_variants_and_decline_draws(start_engine):
    eng = start_engine(baseline("greedy"))
    said = answers(eng, "setoption name UCI_Variant value chess", "position alea fen nonsense",
                   "draw offer")
    assert any("plays only alea" in s for s in said)
    assert any(s.startswith("info string error position") for s in said)
    assert "draw decline" in said


def test_greedy_takes_the_most_valuable_piece_the_dice_allow(start_engine):
    # Dice knight + rook: Nc3xd5 takes a queen, Ra1xa7 a pawn; the bishop could take a rook.
    fen = alea_fen("r3k3/p7/8/3q4/8/2N2B2/8/R3K3 w - - 0 1", dice="nr")
    eng = start_engine(baseline("greedy"), seed=1)
    eng.send("setoption name UCI_Variant value alea")
    assert eng.go(f"position alea fen {fen}", "wtime 1000 btime 1000", 10)[0] == "c3d5"


def test_run_match_seeds_each_game(tmp_path):
    pgn = tmp_path / "m.pgn"
    config = MatchConfig(engine1=shlex.join(baseline("greedy")),
                         engine2=shlex.join(baseline("random")), options1={"Seed": 1},
                         options2={"Seed": 2}, variant="alea", games=2, tc="10+0.1",
                         pgn=str(pgn), seed=500)
    result = run_match(config)
    assert result.games == 2 and result.illegal == [0, 0] and result.crashes == [0, 0]
    text = pgn.read_text()
    assert re.findall(r'\[DiceSeed "(\d+)"\]', text) == ["500", "500"]


def test_run_match_pairs_a_random_dice_seed(tmp_path):
    """Without a seed the two games of an opening pair still share one (drawn at the start),
    so each engine meets the same dice from both sides."""
    pgn = tmp_path / "m.pgn"
    config = MatchConfig(engine1=shlex.join(baseline("greedy")),
                         engine2=shlex.join(baseline("random")), options1={"Seed": 1},
                         options2={"Seed": 2}, variant="alea", games=4, tc="10+0.1",
                         pgn=str(pgn))
    assert run_match(config).games == 4
    games = pgn.read_text().split("[Event ")[1:]
    tag = lambda name, g: int(re.search(rf'\[{name} "(\d+)"\]', g)[1])  # noqa: E731
    seeds = {tag("Round", g): tag("DiceSeed", g) for g in games}
    assert seeds[1] == seeds[2] and seeds[3] == seeds[4] == seeds[1] + 1


def test_scripts_match_alea_greedy_beats_random(tmp_path):
    pgn = tmp_path / "alea.pgn"
    out, score = run_match_script(
        "--variant", "alea", "--games", "4", "--tc", "5+0.05", "--seed", "1",
        "--engine1", shlex.join(baseline("greedy")), "--engine2", shlex.join(baseline("random")),
        "--option1", "Seed=5", "--option2", "Seed=6", "--pgn", str(pgn))
    assert score >= 2.5, out
    assert "time forfeits e1/e2: 0/0" in out
    games = pgn.read_text().split("[Event ")[1:]
    assert len(games) == 4 and all('[Variant "Alea"]' in g for g in games)
    assert [re.search(r'\[DiceSeed "(\d+)"\]', g)[1] for g in games] == ["1", "1", "2", "2"]
    assert all(re.search(r"\{dice [nbrq]{2}\}", g) for g in games)


# -- the dice-blind baseline --------------------------------------------------------------------
def random_positions(seed: int, count: int) -> list[str]:
    """Position lines of a seeded random game, every few plies, with the referee's dice."""
    rng = random.Random(seed)
    ref = AleaReferee(seed=seed)
    rec = GameRecord("alea", "", "W", "B")
    board = ref.setup(rec, None)
    lines = []
    while alea.outcome(ref.state) is None and len(lines) < count:
        ref.chance(board, rec)
        if len(ref.tokens) % 5 == 3:
            lines.append(ref.position_line())
        actions = [a for a in alea.legal_actions(ref.state) if a.kind != "reroll"]
        ref.play(board, rec, format_token(rng.choice(actions)))
    return lines


def test_diceblind_answers_a_move_the_dice_allow(start_engine):
    """The dice-blind player answers an ordinary action (never a joker or reroll) legal
    for the state and dice, in random states of the free and the dice phase."""
    eng = start_engine(baseline("diceblind"), seed=1)
    eng.send("setoption name UCI_Variant value alea")
    lines = random_positions(21, 8) + random_positions(22, 8)
    assert any(" dice -" not in line for line in lines)
    for line in lines:
        for go in ("wtime 3000 btime 3000 winc 50 binc 50", "movetime 20"):
            best = eng.go(line, go, 10)[0]
            state = parse_alea_position(line).state
            ordinary = {format_token(a) for a in alea.legal_actions(state) if a.kind == "move"}
            assert best in ordinary, (line, best)


def test_scripts_match_diceblind_against_greedy():
    out, _ = run_match_script(
        "--variant", "alea", "--games", "2", "--tc", "5+0.05", "--seed", "3",
        "--engine1", shlex.join(baseline("diceblind")), "--engine2", shlex.join(baseline("greedy")),
        "--option2", "Seed=6")
    assert "time forfeits e1/e2: 0/0" in out
