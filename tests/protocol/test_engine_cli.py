"""``engine.__main__.main``: no arguments means UCI; ``perft`` prints a divide."""
import io
import sys

import pytest

from engine.__main__ import main


def test_no_arguments_runs_the_uci_loop(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("isready\nbogus\n"))
    assert main([]) == 0
    assert capsys.readouterr().out == "readyok\ninfo string error unknown command 'bogus'\n"


def test_uci_subcommand(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("isready\n"))
    assert main(["uci"]) == 0
    assert capsys.readouterr().out == "readyok\n"


def test_perft(capsys):
    assert main(["perft", "grand", "2"]) == 0
    assert capsys.readouterr().out.endswith("\nNodes searched: 4225\n\n")


def test_perft_with_fen_as_one_argument(capsys):
    assert main(["perft", "chess", "2", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]) == 0
    assert "Nodes searched: 30" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["perft", "shogi", "1"], "quantum perft: error: unknown variant 'shogi'"),
    (["perft", "hex", "21"], "quantum perft: error: perft depth must be 1..20"),
    (["perft", "hex", "1", "not", "a", "fen"], "quantum perft: error:"),
])
def test_perft_errors(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_usage_errors_exit_with_two(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["perft", "chess", "three"])
    assert exc.value.code == 2


def test_profile_commands_leave_a_file_that_is_no_profile_alone(tmp_path, capsys):
    """Issue 13: `quantum profile reset --file F` wrote a profile over any file. A file
    that is not a Quantum profile is refused by `reset` (status 2) and `show` (status 1)
    and keeps every byte."""
    path = tmp_path / "notes.txt"
    path.write_bytes(b"my notes\n")
    for action, status in (("reset", 2), ("show", 1)):
        assert main(["profile", action, "--file", str(path)]) == status
        err = capsys.readouterr().err
        assert "not a Quantum profile" in err and "refused, the file is left as it is" in err
    assert path.read_bytes() == b"my notes\n" and list(tmp_path.iterdir()) == [path]
