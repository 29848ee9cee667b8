"""Fuzzing the loop in-process with hypothesis: random, truncated and mutated lines,
illegal moves and broken FENs in every variant, and lines that arrive while a search runs.

For every line: nothing escapes, nothing on stdout is a traceback, the answer has a
valid shape (one ``info string error`` line and an unchanged state on any error), and at
the end ``position startpos`` + ``go perft 1`` still gives the right count and
``go depth 3`` exactly one legal bestmove.

A ``go`` line that starts a search is followed at once by ``stop``, and the harness waits
for the bestmove (with a hang guard, never a speed assertion), so a drawn ``go infinite``
or ``go depth 99`` costs no more than ``go depth 1``; the whole search output (info lines,
exactly one bestmove, legal in the searched position) is checked.

Perft depths are only drawn from 0..2 and from invalid spellings, and inserted characters
are never digits, so no drawn line can start a deep perft.

Last, huge words (a 1 MB move, thousands of digits, control characters) in every place of
every command: every answer stays short and the engine keeps answering.
"""
import io
import random
import threading

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.variant import load_spec, variant_names
from protocol.uci import main, parse_go
from uci_helpers import (BESTMOVE_RE, CHECKMATED, SEARCH_GUARD_S, STALEMATE, Driver,
                         check_answer, check_perft_report, check_search_output, is_error,
                         is_search_line, snapshot, start_perft)

VARIANTS = variant_names()
VARIANT_WORDS = VARIANTS + [a for v in VARIANTS for a in load_spec(v).aliases] + [
    "CHESS", "Grand", "shogi", "chess960", "", "hex agonal", "<empty>"]
NUMBERS = ["0", "1", "2", "-1", "21", "99999999999999999999", "1.5", "x", "1_0",
           "\u0662", "+1", "0x1", "one"]
KEYWORDS = ["uci", "isready", "ucinewgame", "setoption", "name", "value", "UCI_Variant",
            "position", "startpos", "fen", "moves", "go", "perft", "depth", "wtime",
            "btime", "winc", "binc", "movestogo", "nodes", "mate", "movetime", "infinite",
            "ponder", "searchmoves", "stop", "ponderhit", "d", "quit", "debug", "register",
            "-", "w", "b", "KQkq", "e2e4", "e7e5", "a1a1", "f5f6", "b9b10c", "e7e8q",
            "UCI_Chess960", "true", "HAha", "e1h1"]
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
        st.builds("setoption name UCI_Chess960 value {}".format,
                  st.sampled_from(["true", "false", "True", "yes", "1", ""])),
        st.builds("setoption name {} value {}".format,
                  st.sampled_from(["uci_variant", "UCI_VARIANT", "Hash", "Threads", "", "value"]),
                  st.sampled_from(VARIANT_WORDS + NUMBERS)),
        st.sampled_from(["setoption", "setoption name", "setoption name UCI_Variant",
                         "setoption name UCI_Variant value", "setoption value chess"]))


GO_WORDS = ["perft", "depth", "nodes", "mate", "movetime", "wtime", "btime", "winc", "binc",
            "movestogo", "infinite", "ponder", "searchmoves", "e2e4", "e7e5", "e3e4", "f5f6"]


def go_lines():
    return st.one_of(
        st.builds("go perft {}".format, st.sampled_from(NUMBERS)),
        st.builds("go depth {}".format, st.integers(1, 3)),
        st.builds("go nodes {}".format, st.integers(1, 3000)),
        st.sampled_from(["go", "go infinite", "go ponder", "go movetime 10", "go mate 1",
                         "go wtime 100 btime 100 winc 1 binc 1", "go ponder wtime 50 btime 50",
                         "go depth 99", "go searchmoves"]),
        st.lists(st.sampled_from(GO_WORDS + NUMBERS), max_size=6).map(
            lambda ws: " ".join(["go"] + ws)))


@st.composite
def searchmoves_blocks(draw, variant_choice=variants):
    """A position from a random game and a ``go`` restricted to some of its legal moves."""
    variant = draw(variant_choice)
    moves, _ = random_walk(variant, draw(seeds), draw(st.integers(0, 20)))
    board = Board(variant)
    for move in moves:
        board.push(move)
    legal = board.legal_moves()
    chosen = draw(st.lists(st.sampled_from(legal), min_size=1, max_size=3)) if legal else []
    limit = draw(st.sampled_from(["depth 1", "depth 2", "nodes 500", "infinite", ""]))
    return [f"setoption name UCI_Variant value {variant}",
            " ".join(["position startpos moves"] + moves),
            " ".join(["go", limit, "searchmoves"] + chosen).replace("  ", " ")]


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
                                "position startpos", "go perft 1", "go perft 2", "", "   ",
                                f"position fen {CHECKMATED}", f"position fen {STALEMATE}"])
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


sessions = st.lists(st.one_of(any_line.map(lambda line: [line]), in_variant(),
                              searchmoves_blocks()),
                    min_size=5, max_size=40).map(lambda blocks: sum(blocks, []))

FUZZ = settings(deadline=None, max_examples=300,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def starts_search(line: str, answer: list[str]) -> bool:
    """Whether ``line``, answered with ``answer``, started a search."""
    words = line.split()
    return bool(words) and words[0] == "go" and "perft" not in words and not is_error(answer)


def starts_perft(line: str, answer: list[str]) -> bool:
    """Whether ``line``, answered with ``answer``, started a perft (counted in the worker
    thread, like a search)."""
    words = line.split()
    return bool(words) and words[0] == "go" and "perft" in words and not is_error(answer)


def starts_bench(line: str, answer: list[str]) -> bool:
    """Whether ``line`` started a bench (in the worker thread too; ``stop`` ends it)."""
    words = line.split()
    return bool(words) and words[0] == "bench" and not is_error(answer)


def searchmoves_of(line: str) -> list[str]:
    return [move.lower() for move in parse_go(line.split()[1:]).searchmoves]


def play(driver: Driver, line: str) -> list[str]:
    """Send ``line``; if it started a search, send ``stop`` and wait for the bestmove.
    Checks the answer's shape, a search's whole output against the legal moves of the
    searched position, and that nothing is left running. Returns the answer."""
    legal = driver.session.engine.board.legal_moves()
    answer = driver.send(line)
    if starts_search(line, answer):
        answer += driver.settle()
        check_search_output(answer, legal, searchmoves_of(line))
    elif starts_perft(line, answer):                # depth 2 at most: let it finish
        answer += driver.settle(stop=False)
    elif starts_bench(line, answer):                # seconds at its depth: end it
        answer += driver.settle()
    check_answer(line, answer)
    assert not driver.session.engine.searching, line
    return answer


def check_recovery(driver: Driver) -> None:
    driver.settle()
    assert driver.send("position startpos") == []
    variant = driver.session.engine.variant
    assert check_perft_report(driver.go("go perft 1")) == start_perft(variant, 1)
    answer = driver.go("go depth 3")
    best, _ = check_search_output(answer, driver.session.engine.board.legal_moves())
    assert best is not None and len([x for x in answer if x.startswith("bestmove")]) == 1


@FUZZ
@given(sessions, st.booleans())
def test_fuzzed_session(lines, then_quit):
    driver = Driver()
    for line in lines + ["quit"] * then_quit:
        before = snapshot(driver.session)
        answer = play(driver, line)
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
    answer = play(driver, line)
    if is_error(answer):
        assert snapshot(driver.session) == before
    check_recovery(driver)


SEARCH_STARTS = ["go infinite", "go ponder", "go ponder wtime 600000 btime 600000",
                 "go infinite searchmoves e2e4 d2d4", "go wtime 600000 btime 600000",
                 "go nodes 100000000", "go depth 60", "go mate 30"]
DURING = st.one_of(any_line, st.sampled_from([
    "stop", "ponderhit", "isready", "go depth 2", "go infinite", "go ponder", "go perft 1",
    "setoption name Hash value 2", "setoption name Clear Hash", "ucinewgame", "quit",
    "setoption name MultiPV value 2", "setoption name Level value beginner",
    "setoption name UCI_LimitStrength value true", "position startpos moves e2e4"]))


@settings(FUZZ, max_examples=150)
@given(st.sampled_from(SEARCH_STARTS), st.lists(DURING, min_size=1, max_size=8))
@example("go infinite", ["\x0cgo depth 1"])     # a form feed before go: still a go
def test_lines_while_a_search_runs(start, lines):
    """Whatever arrives during a search: every line is answered (no deadlock), errors
    change nothing, and each search started reports exactly one bestmove, legal in the
    position it searched, in the order the searches were started."""
    driver = Driver()
    searched = []                                   # (legal moves, searchmoves) per search
    for line in [start] + lines:
        engine = driver.session.engine
        legal = engine.board.legal_moves()
        before = snapshot(driver.session)
        answer = send_guarded(driver, line)
        if starts_perft(line, answer):             # depth 2 at most: let it finish
            answer += driver.settle(stop=False)
        own = [x for x in answer if not is_search_line(x)]
        is_go = line.split()[:1] == ["go"]           # as the engine reads it: "\fgo" is go
        check_answer(line if not is_go or starts_perft(line, answer) else "", own)
        if is_error(own):
            assert snapshot(driver.session) == before, line
        if starts_search(line, own):
            searched.append((legal, searchmoves_of(line)))
        if not driver.running:
            break
    driver.settle()
    out = driver.out.getvalue().split("\n")[:-1]
    assert not any("Traceback" in x or "error internal" in x for x in out)
    best_lines = [x for x in out if BESTMOVE_RE.fullmatch(x)]
    assert len(best_lines) == len(searched) >= 1, (best_lines, searched)
    for line, (legal, searchmoves) in zip(best_lines, searched):
        best = BESTMOVE_RE.fullmatch(line).group(1)
        assert best in (searchmoves or legal) if legal else best == "(none)", (line, legal)
    if driver.running:
        check_recovery(driver)


def send_guarded(driver: Driver, line: str) -> list[str]:
    """``driver.send`` with a hang guard: a handler that blocks fails the example."""
    result = []
    thread = threading.Thread(target=lambda: result.append(driver.send(line)), daemon=True)
    thread.start()
    thread.join(SEARCH_GUARD_S)
    if not result:
        driver.session.engine.stop()
    assert result, f"{line!r} did not return while a search ran (deadlock)"
    return result[0]


@settings(FUZZ, max_examples=40)
@given(sessions, st.sampled_from(["\n", "\r\n", "\r"]))
def test_whole_stream_through_main(lines, newline):
    """The same sessions as one input stream through ``main``; every ``go`` line is
    followed by ``stop``, as a GUI would send one."""
    stream = []
    for line in lines:
        stream.append(line)
        if line.split()[:1] == ["go"]:
            stream.append("stop")
    out = io.StringIO()
    status = []
    thread = threading.Thread(daemon=True, target=lambda: status.append(
        main([], stdin=io.StringIO(newline.join(stream), newline=None), stdout=out)))
    thread.start()
    thread.join(SEARCH_GUARD_S * 2)
    assert status == [0], "main did not return (hang)"
    assert "Traceback" not in out.getvalue()
    assert "info string error internal" not in out.getvalue()


# -- huge input ----------------------------------------------------------------------------
HUGE = {
    "move": "e2e4" * 250_000,                       # a 1 MB move gave a 1 MB error line
    "digits": "9" * 5000,                           # beyond int()'s 4300-digit limit
    "number": "1" + "0" * 309,                      # a 310-digit wtime: OverflowError
    "negative": "-" + "9" * 400,
    "controls": "\x1b[2J\x07\t" * 20_000,
    "unicode": "\u0662" * 10_000 + "\u00e9" * 10_000,
}
FOG_VIEW = "rnbqkbnr/pppppppp/8/8/********/********/********/******** b KQkq - 0 1"
SETUPS = {
    "chess": ["position startpos"],
    "alea": ["setoption name UCI_Variant value alea", "position alea startpos"],
    "fog": ["setoption name UCI_Variant value fogofwar", f"position fog view {FOG_VIEW}"],
}
# Every command, with the huge token ({}) in each place a word can go.
TEMPLATES = [
    "{}", "uci {}", "isready {}", "ucinewgame {}", "stop {}", "ponderhit {}", "d {}",
    "debug {}", "register {}", "bench {}", "draw {}", "draw offer {}", "guide {}",
    "guide review {}",
    "setoption {}", "setoption name {}", "setoption name {} value 1",
    "setoption name Hash value {}", "setoption name MultiPV value {}",
    "setoption name UCI_Variant value {}", "setoption name Level value {}",
    "setoption name Ponder value {}", "setoption name Clear Hash value {}",
    "setoption name UCI_Elo value {}", "setoption name UCI_Opponent value {}",
    "setoption name Adaptive Profile value {}",
    "position {}", "position startpos {}", "position startpos moves {}",
    "position startpos moves e2e4 {}", "position fen {}", "position fen {} w - - 0 1",
    "position fen 7k/8/8/8/8/8/8/K7 w - - {} 1", "position fen 7k/8/8/8/8/8/8/K7 w {} - 0 1",
    "position fog {}", "position fog view {}", f"position fog view {FOG_VIEW} lost {{}}",
    f"position fog view {FOG_VIEW} move {{}}", f"position fog view {FOG_VIEW} {{}}",
    "position alea {}", "position alea fen {}", "position alea startpos moves {}",
    "position alea startpos dice {}", "position alea startpos {}",
    "go {}", "go searchmoves {}", "go perft {}", "go depth {}", "go nodes {}", "go mate {}",
    "go movetime {}", "go movestogo {}", "go wtime {}", "go btime {}", "go winc {}",
    "go binc {}", "go wtime {} btime 1000", "go depth 1 guide {}",
    "learn {}", "learn result {} moves", "learn result 1-0 side {} moves",
    "learn result 1-0 variant {} moves", "learn result 1-0 fen {} moves",
    "learn result 1-0 moves {}", "learn result 1-0 moves e2e4 {}",
]
MAX_REPLY = 300


@pytest.mark.parametrize("kind", HUGE)
@pytest.mark.parametrize("setup", SETUPS)
def test_huge_words_get_short_answers(setup, kind):
    """Issue 13: error lines echoed the whole input (a 1 MB move gave a 1 MB line, and
    int()'s 4300-digit message leaked out), and a 310-digit wtime was an internal error.
    A huge word in every place of every command gets a well-formed answer of short lines
    (at most one error, the state kept), and the engine goes on answering."""
    driver = Driver()
    for line in SETUPS[setup]:
        assert driver.send(line) == []
    for template in TEMPLATES:
        line = template.format(HUGE[kind])
        before = snapshot(driver.session)
        answer = play(driver, line)
        assert all(len(x) < MAX_REPLY for x in answer), (template, [x[:80] for x in answer])
        assert not any("internal" in x for x in answer), (template, answer)
        if is_error(answer):
            assert snapshot(driver.session) == before, template
        assert driver.send("isready") == ["readyok"], template
