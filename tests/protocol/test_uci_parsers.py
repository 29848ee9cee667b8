"""Pure pieces of the protocol layer, without a loop or a process: the line parsers,
the option registry and the dialect's formatters."""
import pytest

from engine.deepening import MATE, BestMove, SearchInfo
from engine.engine import Engine, MAX_PERFT_DEPTH
from engine.notation import bestmove_line, info_line, perft_lines
from engine.variant import variant_names
from protocol import dialect
from protocol.options import Option, OptionRegistry
from protocol.uci import (ECHO_LIMIT, GoLimits, PositionCommand, SetOption, default_options,
                          parse_go, parse_int, parse_position, parse_setoption, quote,
                          split_command)
from uci_helpers import HANDSHAKE_OPTIONS, INFO_RE


# -- split_command / quote / parse_int -----------------------------------------------------
@pytest.mark.parametrize("line, expected", [
    ("uci\n", ("uci", [])),
    ("  go   perft\t2 \r\n", ("go", ["perft", "2"])),
    ("", None),
    (" \t\r\n", None),
])
def test_split_command(line, expected):
    assert split_command(line) == expected


def test_quote_escapes_and_shortens():
    assert quote("abc") == "'abc'"
    assert quote("a\x1bb") == "'a\\x1bb'"
    long = quote("x" * 500)
    assert long.endswith("...") and len(long) < ECHO_LIMIT + 10


@pytest.mark.parametrize("token, value", [("0", 0), ("20", 20), ("-3", -3), ("+4", 4)])
def test_parse_int_accepts_ascii_integers(token, value):
    assert parse_int(token, "depth") == value


@pytest.mark.parametrize("token", ["x", "", "1.5", "1_0", "\u0663", "0x10", "1e3", "--1"])
def test_parse_int_rejects_everything_else(token):
    with pytest.raises(ValueError, match="depth needs an integer"):
        parse_int(token, "depth")


@pytest.mark.parametrize("token, value", [
    ("1" + "0" * 18, 10 ** 18), ("-" + "1" + "0" * 18, -10 ** 18), ("0" * 5000 + "7", 7)])
def test_parse_int_takes_up_to_the_bound(token, value):
    assert parse_int(token, "wtime") == value


@pytest.mark.parametrize("token", ["1" + "0" * 309, "9" * 5000, "-" + "9" * 19,
                                   "1000000000000000001"])
def test_parse_int_refuses_beyond_the_bound_with_a_short_message(token):
    """Issue 13: a 310-digit wtime was an internal OverflowError, 5000 digits leaked
    int()'s own message: beyond +-10^18 is one clear error, the number cut short."""
    with pytest.raises(ValueError) as err:
        parse_int(token, "wtime")
    assert str(err.value).startswith("wtime must be -1000000000000000000..1000000000000000000")
    assert len(str(err.value)) < 150


# -- position ------------------------------------------------------------------------------
@pytest.mark.parametrize("args, expected", [
    (["startpos"], PositionCommand(None, ())),
    (["startpos", "moves"], PositionCommand(None, ())),
    (["startpos", "moves", "e2e4", "e7e5"], PositionCommand(None, ("e2e4", "e7e5"))),
    (["fen", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"],
     PositionCommand("8/8/8/8/8/8/8/K6k w - - 0 1", ())),
    (["fen", "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1", "w",
      "-", "0", "1", "moves", "f5f6"],
     PositionCommand("b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 "
                     "w - 0 1", ("f5f6",))),
])
def test_parse_position(args, expected):
    assert parse_position(args) == expected


@pytest.mark.parametrize("args, reason", [
    ([], "expected 'startpos' or 'fen'"),
    (["start"], "expected 'startpos' or 'fen', not 'start'"),
    (["startpos", "e2e4"], "expected 'moves' after 'startpos'"),
    (["fen"], "missing FEN"),
    (["fen", "moves", "e2e4"], "missing FEN"),
])
def test_parse_position_errors(args, reason):
    with pytest.raises(ValueError, match=reason):
        parse_position(args)


# -- setoption -----------------------------------------------------------------------------
@pytest.mark.parametrize("args, expected", [
    (["name", "UCI_Variant", "value", "grand"], SetOption("UCI_Variant", "grand")),
    (["name", "Clear", "Hash"], SetOption("Clear Hash", None)),
    (["name", "Book", "File", "value", "my", "book.bin"], SetOption("Book File", "my book.bin")),
    (["name", "Path", "value"], SetOption("Path", "")),
])
def test_parse_setoption(args, expected):
    assert parse_setoption(args) == expected


@pytest.mark.parametrize("args", [[], ["UCI_Variant"], ["name"], ["name", "value", "x"]])
def test_parse_setoption_errors(args):
    with pytest.raises(ValueError):
        parse_setoption(args)


# -- go ------------------------------------------------------------------------------------
def test_parse_go_all_fields():
    limits = parse_go("wtime 1000 btime -50 winc 10 binc 20 movestogo 30 depth 5 nodes 999 "
                      "mate 3 movetime 100 infinite ponder searchmoves e2e4 d2d4".split())
    assert limits == GoLimits(wtime=1000, btime=-50, winc=10, binc=20, movestogo=30,
                              depth=5, nodes=999, mate=3, movetime=100, infinite=True,
                              ponder=True, searchmoves=["e2e4", "d2d4"])


def test_parse_go_searchmoves_stops_at_next_keyword():
    limits = parse_go("searchmoves e2e4 perft 2".split())
    assert limits.searchmoves == ["e2e4"] and limits.perft == 2


def test_parse_go_empty_means_no_limits():
    assert parse_go([]) == GoLimits()


@pytest.mark.parametrize("depth", [1, 7, MAX_PERFT_DEPTH])
def test_parse_go_perft(depth):
    assert parse_go(["perft", str(depth)]).perft == depth


@pytest.mark.parametrize("args, reason", [
    (["perft"], "perft needs a number"),
    (["perft", "x"], "perft needs an integer, not 'x'"),
    (["perft", "0"], "perft depth must be 1..20, not 0"),
    (["perft", "-1"], "perft depth must be 1..20"),
    (["perft", str(MAX_PERFT_DEPTH + 1)], "perft depth must be 1..20"),
    (["perft", "99999999999999999999999"],
     "perft must be -1000000000000000000..1000000000000000000, not '99999999999999999999999'"),
    (["depth", "three"], "depth needs an integer"),
    (["wtime"], "wtime needs a number"),
    (["perft", "2", "fast"], "unknown token 'fast'"),
])
def test_parse_go_errors(args, reason):
    with pytest.raises(ValueError, match=reason):
        parse_go(args)


# -- options -------------------------------------------------------------------------------
@pytest.mark.parametrize("option, line", [
    (Option("Ponder", "check", False), "option name Ponder type check default false"),
    (Option("Hash", "spin", 16, min=1, max=1024),
     "option name Hash type spin default 16 min 1 max 1024"),
    (Option("Style", "combo", "Normal", vars=("Solid", "Normal")),
     "option name Style type combo default Normal var Solid var Normal"),
    (Option("Clear Hash", "button"), "option name Clear Hash type button"),
    (Option("Book", "string", ""), "option name Book type string default <empty>"),
])
def test_option_uci_line(option, line):
    assert option.uci_line() == line


def test_option_parse_by_type():
    assert Option("P", "check", False).parse("TRUE") is True
    assert Option("H", "spin", 16, min=1, max=64).parse("64") == 64
    assert Option("S", "combo", "a", vars=("a", "Bb")).parse("bB") == "Bb"
    assert Option("B", "button").parse(None) is None
    assert Option("F", "string", "").parse("<empty>") == ""


@pytest.mark.parametrize("option, text", [
    (Option("P", "check", False), "yes"),
    (Option("H", "spin", 16, min=1, max=64), "65"),
    (Option("H", "spin", 16, min=1, max=64), "1.0"),
    (Option("S", "combo", "a", vars=("a",)), "b"),
    (Option("B", "button"), "now"),
    (Option("P", "check", False), None),
])
def test_option_parse_rejects(option, text):
    with pytest.raises(ValueError):
        option.parse(text)


@pytest.mark.parametrize("kwargs", [
    dict(name="X", type="slider", default=1),
    dict(name="X", type="spin", default=1),
    dict(name="X", type="combo", default="c", vars=("a", "b")),
])
def test_option_declaration_errors(kwargs):
    with pytest.raises(ValueError):
        Option(**kwargs)


def test_registry_is_case_insensitive_and_keeps_value_on_refusal():
    calls = []

    def refuse_odd(engine, value):
        if value % 2:
            raise ValueError("odd")
        calls.append(value)

    registry = OptionRegistry([Option("Threads", "spin", 2, min=1, max=8, on_change=refuse_odd)])
    assert registry.set("engine", "threads", "4") == 4 and registry.value("THREADS") == 4
    with pytest.raises(ValueError, match="odd"):
        registry.set("engine", "Threads", "3")
    with pytest.raises(ValueError, match="must be 1..8"):
        registry.set("engine", "Threads", "9")
    with pytest.raises(ValueError, match="unknown option 'Hash'"):
        registry.set("engine", "Hash", "1")
    assert registry.value("Threads") == 4 and calls == [4]


def test_registry_rejects_duplicates():
    with pytest.raises(ValueError, match="declared twice"):
        OptionRegistry([Option("A", "button"), Option("a", "button")])


# -- dialect -------------------------------------------------------------------------------
def test_variant_option_lists_every_variant_and_takes_aliases():
    """The variant files first, then the hosted games (Alea)."""
    option = dialect.variant_option()
    assert option.vars == tuple(variant_names()) + ("alea",)
    assert option.parse(" ALEA ") == "alea"
    assert option.uci_line().startswith(
        "option name UCI_Variant type combo default chess var chess var grand var hexagonal")
    assert option.parse("Glinski") == "hexagonal"
    assert option.parse("STANDARD") == "chess"
    with pytest.raises(ValueError, match="unknown variant 'shogi'"):
        option.parse("shogi")


def test_variant_option_switches_the_engine():
    engine = Engine()
    registry = OptionRegistry([dialect.variant_option()])
    registry.set(engine, "uci_variant", "hex")
    assert engine.variant == "hexagonal" and registry.value("UCI_Variant") == "hexagonal"


def test_perft_lines_match_stockfish():
    assert perft_lines([("e2e4", 20), ("d2d4", 21)]) == [
        "e2e4: 20", "d2d4: 21", "", "Nodes searched: 41", ""]


def test_display_lines():
    engine = Engine("grand")
    lines = dialect.display_lines(engine)
    assert f"Fen: {engine.board.fen()}" in lines
    assert "Variant: grand" in lines and "Side to move: white" in lines
    assert "Legal moves: 65" in lines


def test_display_lines_show_the_outcome():
    engine = Engine()
    engine.set_position(None, "f2f3 e7e5 g2g4 d8h4".split())
    assert "Outcome: 0-1 (checkmate)" in dialect.display_lines(engine)


# -- search output (engine.notation) -------------------------------------------------------
def test_info_line_has_every_field_and_always_multipv():
    info = SearchInfo(depth=7, seldepth=12, score=35, nodes=12000, time_ms=40, hashfull=3,
                      pv=["e2e4", "e7e5"])
    line = info_line(info)
    assert line == ("info depth 7 seldepth 12 multipv 1 score cp 35 nodes 12000 nps 300000 "
                    "hashfull 3 time 40 pv e2e4 e7e5")
    assert INFO_RE.fullmatch(line)


@pytest.mark.parametrize("score, text", [
    (0, "cp 0"), (-250, "cp -250"), (MATE - 1, "mate 1"), (MATE - 3, "mate 2"),
    (MATE - 5, "mate 3"), (-(MATE - 2), "mate -1"), (-(MATE - 4), "mate -2")])
def test_info_line_scores(score, text):
    line = info_line(SearchInfo(depth=3, seldepth=3, multipv=2, score=score, pv=["a2a3"]))
    assert f" multipv 2 score {text} nodes " in line and INFO_RE.fullmatch(line)


def test_info_line_bounds_and_no_pv():
    line = info_line(SearchInfo(depth=5, seldepth=6, score=40, bound="lowerbound"))
    assert " score cp 40 lowerbound nodes " in line and " pv" not in line
    assert INFO_RE.fullmatch(line)


def test_info_line_game_over_and_text():
    assert info_line(SearchInfo(depth=0, score=-MATE)) == "info depth 0 score mate 0"
    assert info_line(SearchInfo(depth=0, score=0)) == "info depth 0 score cp 0"
    assert info_line(SearchInfo(depth=0, string="error internal: search: boom")) == \
        "info string error internal: search: boom"


@pytest.mark.parametrize("best, line", [
    (BestMove("e2e4", "e7e5"), "bestmove e2e4 ponder e7e5"),
    (BestMove("b9b10c"), "bestmove b9b10c"),
    (BestMove(None), "bestmove (none)")])
def test_bestmove_line(best, line):
    assert bestmove_line(best) == line


# -- the declared options ------------------------------------------------------------------
def test_default_options_declare_the_documented_set():
    registry = default_options()
    assert [option.uci_line() for option in registry] == HANDSHAKE_OPTIONS


@pytest.mark.parametrize("name, text, attribute, value", [
    ("MultiPV", "4", "multipv", 4), ("Move Overhead", "0", "move_overhead_ms", 0),
    ("UCI_LimitStrength", "TRUE", "limit_strength", True), ("UCI_Elo", "2800", "elo", 2800),
    ("Level", "BEGINNER", "level", "beginner")])
def test_options_reach_the_engine(name, text, attribute, value):
    engine = Engine()
    registry = default_options()
    registry.set(engine, name, text)
    assert getattr(engine, attribute) == value and registry.value(name) == value
