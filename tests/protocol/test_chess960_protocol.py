"""``UCI_Chess960`` over UCI (docs/protocol.md, "Chess960"): the option, the FEN forms
read and written, king-takes-rook castling in moves, perft and ``d``; bad input answered
with one error line and no change; Fog of War and Alea refuse it; the adaptive level
replays Chess960 games; ``quantum perft --chess960``."""
from __future__ import annotations

import pytest

from engine.__main__ import main as cli
from uci_helpers import Driver, check_perft_report, snapshot

ON = "setoption name UCI_Chess960 value true"
OFF = "setoption name UCI_Chess960 value false"
# fischer-0 of tests/data/perft_chess960.tsv: 21 moves, 528 at depth 2
FISCHER0 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
ITALIAN = "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"


@pytest.fixture
def driver():
    return Driver()


def fen_of(driver) -> str:
    return next(line for line in driver.send("d") if line.startswith("Fen: "))[5:]


def test_the_option_is_announced_and_d_shows_it(driver):
    assert "option name UCI_Chess960 type check default false" in driver.send("uci")
    assert "Chess960: false" in driver.send("d")
    assert driver.send(ON) == []
    assert "Chess960: true" in driver.send("d")
    assert fen_of(driver) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"


def test_castling_is_king_takes_rook_in_chess960_and_e1g1_otherwise(driver):
    assert driver.send(f"position {ITALIAN} e1g1") == []
    assert fen_of(driver).startswith("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq")
    assert driver.send(ON) == []
    before = snapshot(driver.session)
    [error] = driver.send(f"position {ITALIAN} e1g1")
    assert error.startswith("info string error position: illegal move 'e1g1'")
    assert snapshot(driver.session) == before
    assert driver.send(f"position {ITALIAN} e1h1") == []
    assert fen_of(driver).startswith("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b ha")
    assert driver.send(OFF) == []
    assert driver.send(f"position {ITALIAN} e1g1") == []


@pytest.mark.parametrize("castling", ["HFhf", "KQkq"])
def test_go_perft_reads_x_fen_and_shredder_fen(driver, castling):
    driver.send(ON)
    assert driver.send(f"position fen {FISCHER0.replace('HFhf', castling)}") == []
    assert fen_of(driver) == FISCHER0
    assert check_perft_report(driver.go("go perft 2")) == 528


def test_a_castle_in_the_divide_is_written_king_takes_rook(driver):
    driver.send(ON)
    driver.send("position fen 1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1")
    lines = driver.go("go perft 1")
    check_perft_report(lines)
    assert {"g1h1: 1", "g1b1: 1"} <= set(lines)


@pytest.mark.parametrize("fen,reason", [
    ("4k3/8/8/8/8/8/8/4K1NR w G - 0 1", "castling right 'G' names no white rook"),
    ("4k3/8/8/8/8/8/4K3/R6R w A - 0 1",
     "castling right 'A': the white king is not on its first rank"),
    ("4k3/8/8/8/8/8/8/4K1RR w HG - 0 1",
     "castling field 'HG' gives the white king two rights on one wing"),
    ("4k3/8/8/8/8/8/8/4K2R w Z - 0 1", "bad castling field 'Z'"),
])
def test_bad_castling_fields_are_one_error_and_change_nothing(driver, fen, reason):
    driver.send(ON)
    assert driver.send(f"position fen {FISCHER0} moves b1c1") == []
    before = snapshot(driver.session)
    assert driver.send(f"position fen {fen}") == [f"info string error position: {reason}"]
    assert snapshot(driver.session) == before


def test_setting_it_starts_the_variant_again(driver):
    driver.send("position startpos moves e2e4")
    driver.send(ON)
    assert fen_of(driver) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    driver.send("position startpos moves e2e4")
    driver.send(OFF)
    assert fen_of(driver) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.mark.parametrize("first,second,reason", [
    ("setoption name UCI_Variant value fogofwar", ON,
     "setoption: fogofwar has no Chess960 form (UCI_Chess960 must be false)"),
    (ON, "setoption name UCI_Variant value fogofwar",
     "setoption: fogofwar has no Chess960 form (UCI_Chess960 must be false)"),
    ("setoption name UCI_Variant value alea", ON,
     "setoption: UCI_Chess960: Alea is played from the standard position only"),
    (ON, "setoption name UCI_Variant value alea",
     "setoption: Alea is played from the standard position only: set UCI_Chess960 false "
     "first"),
])
def test_fog_and_alea_refuse_it(driver, first, second, reason):
    assert driver.send(first) == []
    before = snapshot(driver.session)
    assert driver.send(second) == [f"info string error {reason}"]
    assert snapshot(driver.session) == before


def test_variants_without_castling_play_as_before(driver):
    """Grand has no castling: its Chess960 form is Grand itself."""
    driver.send(ON)
    driver.send("setoption name UCI_Variant value grand")
    assert check_perft_report(driver.go("go perft 2")) == 4225


def test_the_adaptive_level_replays_chess960_games(driver):
    """`learn` reads the game in the current form: a Chess960 FEN and a king-takes-rook
    castle are a game, not an error."""
    driver.send(ON)
    line = f"learn result 1-0 side white fen {FISCHER0} moves b1c1 a7a6 c1d2"
    assert driver.send(line) == ["info string adaptive: nothing learnt (Level is not adaptive)"]
    driver.send(OFF)
    [error] = driver.send(line)
    assert error.startswith("info string error learn: ")


def test_quantum_perft_chess960(capsys):
    fen = "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"
    assert cli(["perft", "--chess960", "chess", "1", *fen.split()]) == 0
    out = capsys.readouterr().out.splitlines()
    assert {"g1h1: 1", "g1b1: 1"} <= set(out)
    assert cli(["perft", "chess", "1", *fen.split()]) == 2
    assert "bad castling field 'HBhb'" in capsys.readouterr().err


def test_the_adaptive_level_learns_from_a_chess960_game_it_played(tmp_path, monkeypatch):
    """The GUI's sequence: a search, the final position (mate by a king-takes-rook
    castle), ucinewgame: the game is learnt from, in the Chess960 form."""
    from engine import adaptive

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    driver = Driver()
    driver.send("setoption name Level value adaptive")
    driver.send(ON)
    mate = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1"
    driver.send(f"position fen {mate}")
    driver.go("go depth 2")
    driver.send(f"position fen {mate} moves b1a1")
    assert driver.send("ucinewgame") == []                  # the engine won: no report
    profile = adaptive.read_profile(tmp_path / "quantum" / "profiles" / "default.json")
    assert profile.games["chess"] == 1
