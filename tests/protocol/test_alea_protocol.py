"""Alea over UCI (docs/protocol.md, "Alea games"): `UCI_Variant alea`, `position alea`,
`go` answering one legal action, `go ... guide`, `guide review`, `draw offer`; every
malformed or illegal line is one `info string error` and the last good state is kept.
Ends with the real `quantum` process playing Alea turns.

Searches use fixed depths and node limits; timeouts only guard against a hung engine.
"""
from __future__ import annotations

import random
import re
import sys

import pytest

from engine import alea
from engine.notation import alea_token
from protocol.dialect import parse_alea_position
from testkit import alea_random_step
from uci_helpers import ERROR_PREFIX, REPO_ROOT, Driver, snapshot

DICE_FEN = "4k3/1p6/2n5/8/3Q4/B7/7P/R3K3 w - - 0 30 20/20 -/- 4/4 2/2 0/0 -/- - alea"
BESTMOVE = re.compile(r"bestmove (\S+)")


@pytest.fixture
def driver():
    d = Driver()
    assert d.send("setoption name UCI_Variant value alea") == []
    return d


def alea_state(d: Driver):
    return d.session.engine.alea.fen()


def go(d: Driver, line: str) -> tuple[str, list[str]]:
    lines = d.go(line)
    match = BESTMOVE.fullmatch(lines[-1])
    assert match, lines
    return match.group(1), lines


# -- parsing ------------------------------------------------------------------------------
def test_parse_alea_position():
    assert parse_alea_position(["startpos"]) == (None, [], ...)
    assert parse_alea_position("startpos moves e2e4 JOKER:E7E5 dice -".split()) == \
        (None, ["e2e4", "joker:e7e5"], None)
    fen, tokens, dice = parse_alea_position(f"fen {DICE_FEN} dice nq".split())
    assert fen == DICE_FEN and tokens == [] and dice == ("n", "q")
    for bad in (["fen", "8/8"], ["startpos", "dice"], ["startpos", "dice", "nx"],
                ["startpos", "dice", "nq", "moves"], ["startpos", "x"], ["begin"], []):
        with pytest.raises(ValueError):
            parse_alea_position(bad)


def test_handshake_lists_alea():
    d = Driver()
    option = [x for x in d.send("uci") if "UCI_Variant" in x][0]
    assert option.endswith(" var fogofwar var alea")


# -- errors keep the state -------------------------------------------------------------------
BAD_LINES = [
    "position startpos moves e2e4",                         # plain chess in Alea: the hint
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "position alea",
    "position alea fen " + DICE_FEN.rsplit(" ", 1)[0],      # 13 fields
    "position alea fen " + DICE_FEN.replace("alea", "dice"),
    "position alea startpos moves e2e5",                    # illegal
    "position alea startpos moves e1e2",                    # the king in the free phase (A5)
    "position alea startpos moves zz",
    "position alea startpos moves joker:e2e4",              # no joker in the free phase
    "position alea startpos dice nq",                       # no dice in the free phase
    "position alea fen " + DICE_FEN,                        # dice missing in the dice phase
    "position alea fen " + DICE_FEN + " dice -",
    "position alea fen " + DICE_FEN + " dice nn",           # A8 never shows a pair
    "position alea fen " + DICE_FEN + " dice xq",
    "position alea fen " + DICE_FEN + " moves d4d5 dice nb",  # d4d5 needs a queen die
    "go perft 1",
    "guide review",
    "guide review e2e5",
    "guide review e7e8q",
    "draw",
    "draw accept",
]


def test_errors_are_one_line_and_keep_the_state(driver):
    assert driver.send("position alea fen " + DICE_FEN + " dice br") == []
    before, state = snapshot(driver.session), alea_state(driver)
    for line in BAD_LINES:
        answer = driver.send(line)
        assert len(answer) == 1 and answer[0].startswith(ERROR_PREFIX), (line, answer)
        assert "internal" not in answer[0], answer
        assert snapshot(driver.session) == before and alea_state(driver) == state, line


def test_plain_position_gets_a_hint(driver):
    answer = driver.send("position startpos")
    assert answer == [ERROR_PREFIX + "position: in Alea the position is 'position alea "
                      "startpos|fen <alea-fen> [moves <token>...] [dice <pair>|-]'"]


def test_alea_messages_outside_alea():
    d = Driver()
    for line in ("position alea startpos", "draw offer", "guide review e2e4",
                 "go depth 1 guide"):
        answer = d.send(line)
        assert len(answer) == 1 and answer[0].startswith(ERROR_PREFIX), (line, answer)


# -- positions -------------------------------------------------------------------------------
def random_record(seed: int, plies: int):
    """Tokens of a random game (jokers, castles, rerolls, promotions with their piece),
    the state after them, and the dice to show."""
    rng = random.Random(seed)
    s = alea.AleaState.start()
    tokens = []
    for _ in range(plies):
        step = alea_random_step(s, rng)
        if step is None:
            break
        s, token = step
        tokens.append(token)
    dice = alea.roll(s, rng) if alea.needs_roll(s) else None
    return tokens, s.with_dice(dice), dice


@pytest.mark.parametrize("seed", range(6))
def test_moves_replay_the_game(driver, seed):
    tokens, want, dice = random_record(seed, 70)
    line = "position alea startpos moves " + " ".join(tokens) + \
        (" dice " + "".join(dice) if dice else " dice -")
    assert driver.send(line) == []
    assert alea_state(driver) == want.fen()
    assert driver.session.engine.board.move_stack == want.board.move_stack


def test_dice_field_of_the_fen_is_used_without_dice(driver):
    assert driver.send("position alea fen " + DICE_FEN.replace(" - alea", " br alea")) == []
    assert driver.session.engine.alea.dice == ("b", "r")


def test_d_shows_the_alea_fen(driver):
    driver.send("position alea startpos moves e2e4")
    lines = driver.send("d")
    assert "Alea FEN: " + alea.apply(alea.AleaState.start(), "e2e4").fen() in lines
    assert "Variant: alea" in lines


# -- go and its answers ---------------------------------------------------------------------------
def test_go_answers_a_legal_action(driver):
    driver.send("position alea fen " + DICE_FEN + " dice br")
    best, lines = go(driver, "go depth 2")
    assert best in driver.session.engine.legal_moves()
    assert best.startswith("joker:d4")          # the dice cannot save the queen (A22)
    assert any(x.startswith("info depth 2 ") and x.endswith(" pv " + best) for x in lines)


def test_go_with_a_clock_and_stop(driver):
    driver.send("position alea startpos moves e2e4 e7e5")
    driver.send("go wtime 100000 btime 100000 winc 1000 binc 1000")
    lines = driver.settle()
    assert BESTMOVE.fullmatch(lines[-1])
    assert BESTMOVE.fullmatch(lines[-1]).group(1) in driver.session.engine.legal_moves()


def test_promotion_is_answered_without_its_piece(driver):
    driver.send("position alea fen r6k/1P6/8/8/8/8/7P/K7 w - - 0 40 20/20 -/- 0/0 0/0 0/0 "
                "-/- - alea dice -")
    best, _ = go(driver, "go depth 2")
    assert best == "b7a8"


@pytest.mark.parametrize("fen, alea_fields", [
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "2/2 -/q 4/4 2/2 1/1"),
    ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 40", "20/20 q/k 0/0 0/0 0/0"),
    ("k7/8/1Q6/8/8/8/8/7K b - - 0 40", "20/20 q/k 0/0 0/0 0/0"),
], ids=["fools-mate", "mated", "stalemated"])
def test_a_finished_game_is_scored_as_in_chess(driver, fen, alea_fields):
    """Issue 13: a mated side in Alea said `score cp 0` (a draw); the depth-0 report of a
    finished game must be chess's (`score mate 0` when mated, `cp 0` when stalemated)."""
    driver.send(f"position alea fen {fen} {alea_fields} -/- - alea")
    chess = Driver()
    chess.send(f"position fen {fen}")
    assert driver.go("go depth 3") == chess.go("go depth 3")


def test_classic_mode_plays_chess(driver):
    """A19: classic mode is chess (the chess search), promotion to a queen, answered
    without a piece."""
    driver.send("position alea fen 7k/P7/8/8/8/8/8/K7 w - - 0 40 20/20 -/- 0/0 0/0 0/0 -/- "
                "- classic")
    best, lines = go(driver, "go depth 3")
    assert best == "a7a8"
    assert driver.send("go depth 1 guide")[0].startswith(ERROR_PREFIX)


def test_searchmoves_restrict_the_root(driver):
    driver.send("position alea fen " + DICE_FEN + " dice br")
    best, _ = go(driver, "go depth 2 searchmoves a3b2 reroll")
    assert best in ("a3b2", "reroll")
    assert driver.send("go depth 2 searchmoves d4d5")[0].startswith(ERROR_PREFIX)


# -- the guide and draw offers -------------------------------------------------------------------
GUIDE_THREAT = re.compile(r"info string guide threat your (queen|rook|bishop|knight) on "
                          r"[a-h][1-8] is attacked by the (pawn|knight|bishop|rook|queen|king) "
                          r"on [a-h][1-8]")
GUIDE_BEST = re.compile(r"info string guide best (\S+) reason (\S.*)")
GUIDE_REVIEW = re.compile(r"info string guide review played (\S+) best (\S+) loss (\d+) "
                          r"joker (worth|not worth)")


def test_go_guide_lines(driver):
    driver.send("position alea fen 4k3/1p6/2n5/4b3/3Q4/B7/7P/R3K3 w - - 0 30 20/20 -/- 4/4 "
                "2/2 0/0 -/- - alea dice qr")
    best, lines = go(driver, "go depth 2 guide")
    guide = [x for x in lines if x.startswith("info string guide ")]
    assert len(guide) == 2, guide
    assert GUIDE_THREAT.fullmatch(guide[0]) and "your queen on d4" in guide[0]
    match = GUIDE_BEST.fullmatch(guide[1])
    assert match and match.group(1) == best and match.group(2) == "saves your queen"
    assert lines.index(guide[1]) == len(lines) - 2           # right before bestmove


def test_guide_review(driver):
    driver.send("position alea fen " + DICE_FEN + " dice br")
    before = snapshot(driver.session)
    answer = driver.send("guide review a1a2")
    assert len(answer) == 1
    match = GUIDE_REVIEW.fullmatch(answer[0])
    assert match, answer
    played, best, loss, joker = match.groups()
    # the queen's loss where the side stays ahead: two pawns or more (the net's scores
    # flatten far ahead), not a full queen's worth
    assert played == "a1a2" and best.startswith("joker:d4") and int(loss) > 200
    assert joker == "worth"
    assert snapshot(driver.session) == before


def test_review_after_advice_names_the_advised_move(driver):
    """A22: after `go ... guide` on a state, the review of another move on the same state
    names the move the guide advised (searched deeper). In this free-phase position the
    review's own 2-ply search prefers e7e5 while the 4-ply advice is d7d5."""
    driver.send("position alea fen rnbqkbnr/pppppppp/8/8/8/7N/PPPPPPPP/RNBQKB1R b KQkq - 1 1 "
                "1/0 n/- 4/4 2/2 1/1 -/- - alea")
    best, lines = go(driver, "go depth 4 guide")
    advised = GUIDE_BEST.fullmatch([x for x in lines if x.startswith("info string guide best")][0])
    assert advised.group(1) == best
    match = GUIDE_REVIEW.fullmatch(driver.send("guide review a7a5")[0])
    assert match and match.group(1) == "a7a5" and match.group(2) == best
    match = GUIDE_REVIEW.fullmatch(driver.send(f"guide review {best}")[0])
    assert match and match.group(2) == best and match.group(3) == "0"


def test_draw_offer_answers(driver):
    driver.send("position alea startpos moves e2e4 e7e5")
    assert driver.send("draw offer") == ["draw decline"]     # early and balanced
    driver.send("position alea fen 4k3/8/8/8/8/8/PPP5/R3K3 b - - 0 30 20/20 -/- 0/0 0/0 "
                "0/0 -/- - alea dice -")
    assert driver.send("draw offer") == ["draw accept"]      # Black (to move) is lost


# -- the real process ---------------------------------------------------------------------------
pexpect = pytest.importorskip("pexpect")
HANG_GUARD_S = 60


def test_process_plays_alea_turns():
    """`quantum` plays both sides of an Alea game from the dice phase on, dice rolled
    here with a seeded generator; every answer is legal for the state and dice sent."""
    rng = random.Random(3)
    start = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 " \
            "8/7 -/- 4/4 2/2 1/1 -/- - alea"
    s = alea.AleaState.parse(start)
    tokens = []
    child = pexpect.spawn(sys.executable, ["-m", "engine"], cwd=str(REPO_ROOT),
                          encoding="utf-8", echo=False, timeout=HANG_GUARD_S)
    try:
        child.sendline("uci")
        child.expect_exact("uciok")
        child.sendline("setoption name UCI_Variant value alea")
        child.sendline("ucinewgame")
        for _ in range(8):
            if alea.outcome(s) is not None:
                break
            if alea.needs_roll(s):
                s = s.with_dice(alea.roll(s, rng))
            dice = "".join(s.dice) if s.dice else "-"
            line = f"position alea fen {start}" + (" moves " + " ".join(tokens)
                                                    if tokens else "") + f" dice {dice}"
            child.sendline(line)
            child.sendline("go wtime 60000 btime 60000 nodes 20000 guide")
            child.expect(r"info string guide best (\S+) reason [^\r\n]+\r\n")
            child.expect(r"bestmove (\S+)\r\n")
            token = child.match.group(1)
            legal = {alea_token(a): a for a in alea.legal_actions(s)}
            assert token in legal, (token, s.fen())
            action = legal[token]
            promo = rng.choice("nbrq") if action.kind != alea.REROLL and \
                alea.is_promotion(s, action.move) else None
            s = alea.apply(s, action, promo)
            tokens.append(token + (promo or ""))
        child.sendline("draw offer")
        child.expect(r"draw (accept|decline)\r\n")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert len(tokens) >= 4
