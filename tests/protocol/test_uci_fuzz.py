"""Fuzzing the loop in-process with hypothesis: random, truncated and mutated lines,
illegal moves and broken FENs in every variant.

For every line: nothing escapes, nothing on stdout is a traceback, the answer has a
valid shape (one ``info string error`` line and an unchanged state on any error), and at
the end ``position startpos`` + ``go perft 1`` still gives the right count.

Perft depths are only drawn from 0..2 and from invalid spellings, and inserted characters
are never digits, so no drawn line can start a deep perft.
"""
import io
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.variant import load_spec, variant_names
from protocol.uci import main
from uci_helpers import Driver, check_answer, check_perft_report, is_error, snapshot, start_perft

VARIANTS = variant_names()
VARIANT_WORDS = VARIANTS + [a for v in VARIANTS for a in load_spec(v).aliases] + [
    "CHESS", "Grand", "shogi", "chess960", "", "hex agonal", "<empty>"]
NUMBERS = ["0", "1", "2", "-1", "21", "99999999999999999999", "1.5", "x", "1_0",
           "\u0662", "+1", "0x1", "one"]
KEYWORDS = ["uci", "isready", "ucinewgame", "setoption", "name", "value", "UCI_Variant",
            "position", "startpos", "fen", "moves", "go", "perft", "depth", "wtime",
            "btime", "winc", "binc", "movestogo", "nodes", "mate", "movetime", "infinite",
            "ponder", "searchmoves", "stop", "ponderhit", "d", "quit", "debug", "register",
            "-", "w", "b", "KQkq", "e2e4", "e7e5", "a1a1", "f5f6", "b9b10c", "e7e8q"]
SAFE_CHARS = st.characters(blacklist_categories=("Nd", "Cs"), blacklist_characters="\n\r")
NO_NEWLINE = st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r")

seeds = st.integers(0, 2 ** 32 - 1)
variants = st.sampled_from(VARIANTS)


def random_walk(variant: str, seed: int, plies: int) -> tuple[list[str], list[str]]:
    """Moves of a random game and the FEN before each of them (and after the last)."""
    rng = random.Random(seed)
    board = Board(variant)
    moves, fens = [], [board.fen()]
    for _ in range(plies):
        legal = board.legal_moves()
        if not legal or board.outcome() is not None:
            break
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
        fens.append(board.fen())
    return moves, fens


@st.composite
def position_lines(draw, variant_choice=variants):
    """A ``position`` line from a random game: valid, or with an illegal move."""
    variant = draw(variant_choice)
    moves, fens = random_walk(variant, draw(seeds), draw(st.integers(0, 30)))
    cut = draw(st.integers(0, len(moves)))
    tail = list(moves[cut:])
    if tail and draw(st.booleans()):
        i = draw(st.integers(0, len(tail) - 1))
        tail[i] = draw(st.sampled_from(["e2e5", "a1a1", "zz", "e7e8k", "f6f6", "b9b10x",
                                        tail[i][::-1], tail[i] + "q", tail[i].upper()]))
    head = "position startpos" if cut == 0 and draw(st.booleans()) else f"position fen {fens[cut]}"
    if head == "position startpos":
        tail = list(moves[:cut]) + tail
    return " ".join([head] + (["moves"] + tail if tail or draw(st.booleans()) else []))


@st.composite
def bad_fen_lines(draw):
    """A FEN of a random game with characters or fields damaged."""
    variant = draw(variants)
    _, fens = random_walk(variant, draw(seeds), draw(st.integers(0, 12)))
    fen = draw(st.sampled_from(fens))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(fen)))
        action = draw(st.sampled_from(["delete", "insert", "truncate", "swap", "field"]))
        if action == "delete":
            fen = fen[:i] + fen[i + 1:]
        elif action == "insert":
            fen = fen[:i] + draw(st.sampled_from("/kKqQpPxX9-w b 01")) + fen[i:]
        elif action == "truncate":
            fen = fen[:i]
        elif action == "swap":
            fields = fen.split()
            draw(st.randoms()).shuffle(fields)
            fen = " ".join(fields)
        else:
            fen += " " + draw(st.sampled_from(NUMBERS + ["-", "w", "KQkq", "e3"]))
    return f"position fen {fen}"


def setoption_lines():
    return st.one_of(
        st.builds("setoption name UCI_Variant value {}".format, st.sampled_from(VARIANT_WORDS)),
        st.builds("setoption name {} value {}".format,
                  st.sampled_from(["uci_variant", "UCI_VARIANT", "Hash", "Threads", "", "value"]),
                  st.sampled_from(VARIANT_WORDS + NUMBERS)),
        st.sampled_from(["setoption", "setoption name", "setoption name UCI_Variant",
                         "setoption name UCI_Variant value", "setoption value chess"]))


def go_lines():
    return st.one_of(
        st.builds("go perft {}".format, st.sampled_from(NUMBERS)),
        st.lists(st.sampled_from(["perft", "depth", "wtime", "infinite", "searchmoves",
                                  "e2e4", "ponder", "movetime"] + NUMBERS),
                 max_size=6).map(lambda ws: " ".join(["go"] + ws)))


def token_soup():
    token = st.one_of(st.sampled_from(KEYWORDS + NUMBERS + VARIANT_WORDS),
                      st.text(SAFE_CHARS, min_size=1, max_size=8))
    return st.lists(token, min_size=1, max_size=10).map(" ".join)


@st.composite
def mutated(draw, base):
    """A valid-looking line truncated, with a token dropped, doubled, or a character
    (never a digit) inserted."""
    line = draw(base)
    action = draw(st.sampled_from(["truncate", "drop", "double", "insert", "keep"]))
    i = draw(st.integers(0, len(line)))
    tokens = line.split()
    j = draw(st.integers(0, max(len(tokens) - 1, 0)))
    if action == "truncate":
        return line[:i]
    if action == "drop" and tokens:
        return " ".join(tokens[:j] + tokens[j + 1:])
    if action == "double" and tokens:
        return " ".join(tokens[:j + 1] + tokens[j:])
    if action == "insert":
        return line[:i] + draw(SAFE_CHARS) + line[i:]
    return line


simple_lines = st.sampled_from(["uci", "isready", "ucinewgame", "d", "stop", "ponderhit",
                                "position startpos", "go perft 1", "go perft 2", "", "   "])
valid_lines = st.one_of(simple_lines, position_lines(), setoption_lines(), go_lines())
any_line = st.one_of(
    valid_lines, valid_lines, position_lines(), bad_fen_lines(), token_soup(),
    mutated(valid_lines), mutated(position_lines()),
    st.text(SAFE_CHARS, max_size=30))


@st.composite
def in_variant(draw):
    """A variant switch followed by lines that mostly fit it (positions of its games)."""
    variant = draw(variants)
    lines = draw(st.lists(st.one_of(position_lines(st.just(variant)), go_lines(),
                                    simple_lines), min_size=1, max_size=6))
    return [f"setoption name UCI_Variant value {variant}"] + lines


sessions = st.lists(st.one_of(any_line.map(lambda line: [line]), in_variant()),
                    min_size=5, max_size=40).map(lambda blocks: sum(blocks, []))

FUZZ = settings(deadline=None, max_examples=300,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def check_recovery(driver: Driver) -> None:
    assert driver.send("position startpos") == []
    variant = driver.session.engine.variant
    assert check_perft_report(driver.send("go perft 1")) == start_perft(variant, 1)


@FUZZ
@given(sessions, st.booleans())
def test_fuzzed_session(lines, then_quit):
    driver = Driver()
    for line in lines + ["quit"] * then_quit:
        before = snapshot(driver.session)
        answer = driver.send(line)
        check_answer(line, answer)
        if is_error(answer):
            assert snapshot(driver.session) == before, line
        if not driver.running:
            break
    check_recovery(driver)


@settings(FUZZ, max_examples=400)
@given(st.text(NO_NEWLINE, max_size=60))
def test_any_single_line(line):
    driver = Driver()
    before = snapshot(driver.session)
    answer = driver.send(line)
    check_answer(line, answer)
    if is_error(answer):
        assert snapshot(driver.session) == before
    check_recovery(driver)


@settings(FUZZ, max_examples=40)
@given(sessions, st.sampled_from(["\n", "\r\n", "\r"]))
def test_whole_stream_through_main(lines, newline):
    out = io.StringIO()
    status = main([], stdin=io.StringIO(newline.join(lines), newline=None), stdout=out)
    assert status == 0
    assert "Traceback" not in out.getvalue()
    assert "info string error internal" not in out.getvalue()
