"""The Lichess bridge (adapters/lichess) against a fake Bot API server on 127.0.0.1
(tests/adapters/fake_lichess.py), and its decisions as pure functions.

Each game test runs the real bridge as a process (``python -m adapters.lichess``) with
Quantum as its engine and a 10 s + 0.1 s clock; the server referees every move. The
timeouts are hang guards, not measurements.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from datetime import timedelta

import pytest

pytest.importorskip("berserk")

import requests

from adapterkit import REPO_ROOT
from engine.board import Board
from fake_lichess import FakeLichess, Opponent

from adapters.lichess import bot, policy
from adapters.lichess.bot import event_of

TOKEN = "lip_test-token-never-logged"
BOT_TIMEOUT = 120       # hang guard for one bot run


@pytest.fixture
def server():
    fake = FakeLichess(token=TOKEN).start()
    yield fake
    fake.stop()


@pytest.fixture
def pychess():
    """The fake server behaving as pychess.org's Bot API (see fake_lichess)."""
    fake = FakeLichess(token=TOKEN, pychess=True).start()
    yield fake
    fake.stop()


def start_bot(server: FakeLichess, *args: str, token_file: str | None = None):
    """Start the bridge, to play ``--max-games`` (1 by default); see ``finish_bot``."""
    env = {**os.environ, "LICHESS_BOT_TOKEN": "" if token_file else TOKEN}
    argv = [sys.executable, "-m", "adapters.lichess", "--url", server.url, *args]
    if "--max-games" not in args:
        argv += ["--max-games", "1"]
    if token_file:
        argv += ["--token-file", token_file]
    return subprocess.Popen(argv, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish_bot(proc: subprocess.Popen) -> subprocess.CompletedProcess:
    """Wait for the bridge to exit; its exit status, stdout and stderr."""
    try:
        out, err = proc.communicate(timeout=BOT_TIMEOUT)
    finally:
        proc.kill()
    assert TOKEN not in out + err, "the token was logged"
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def run_bot(server: FakeLichess, *args: str, token_file: str | None = None):
    """Run the bridge until it has played ``--max-games`` (1 by default); return the
    finished process (stdout, stderr as text)."""
    return finish_bot(start_bot(server, *args, token_file=token_file))


def assert_bot_moves_legal(game) -> None:
    """Replay the game with Quantum's own rules: every move legal, none refused."""
    assert game.rejected == []
    board = Board("chess" if game.variant == "standard" else game.variant)
    for move in game.moves:
        assert move in board.legal_moves(), f"{move} illegal in {board.fen()}"
        board.push(move)


# -- whole games through the server ------------------------------------------------------

def test_plays_a_standard_game_to_its_end_through_a_dropped_stream(server, tmp_path):
    server.drop_stream_at_ply = 6           # the game stream is cut once, mid game
    cid = server.challenge("standard", bot_color="white",
                           opponent=Opponent(seed=7, resign_at_ply=40))
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    proc = run_bot(server, "--log-level", "DEBUG", token_file=str(token_file))
    assert proc.returncode == 0, proc.stderr[-3000:]
    game = server.game_of(cid)
    assert game is not None and server.challenges[cid]["status"] == "accepted"
    assert game.status in ("mate", "resign", "stalemate", "draw"), game.status
    assert game.status != "outoftime"
    assert game.stream_opened >= 2, "the bridge did not reconnect to the game stream"
    assert_bot_moves_legal(game)
    assert len(game.bot_moves) >= 5
    # Every request after the login names the bot (pychess.org routes by it).
    assert any(ua.endswith("user:QuantumBot") for ua in server.user_agents)


def test_declines_crazyhouse_and_plays_grand(server):
    zh = server.challenge("crazyhouse")
    grand = server.challenge("grand", bot_color="black",
                             opponent=Opponent(seed=3, resign_at_ply=14))
    proc = run_bot(server, "--variants", "standard,grand")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert server.challenges[zh]["status"] == "declined"
    assert server.challenges[zh]["reason"] == "variant"
    game = server.game_of(grand)
    # The opponent resigns at ply 14 unless mated before.
    assert game.variant == "grand" and game.status in ("resign", "mate")
    assert game.winner == "black"
    assert_bot_moves_legal(game)
    assert len(game.bot_moves) >= 6


def test_declines_grand_by_default_and_a_second_game_while_busy(server):
    grand = server.challenge("grand")
    std = server.challenge("standard", opponent=Opponent(resign_at_ply=2))
    second = server.challenge("standard")
    proc = run_bot(server)                  # --variants standard, --concurrency 1
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert server.challenges[grand]["reason"] == "standard"
    assert server.game_of(std).status == "resign"
    assert server.challenges[second]["reason"] == "later"


def test_answers_a_draw_offer(server):
    cid = server.challenge("standard", opponent=Opponent(seed=5, offer_draw_at_ply=4,
                                                         resign_at_ply=10))
    proc = run_bot(server)
    assert proc.returncode == 0, proc.stderr[-3000:]
    game = server.game_of(cid)
    # Offered at ply 4, long before move 40, and a random mover is no threat: declined.
    assert game.draw_answers == [(4, "no")]
    assert game.status in ("resign", "mate") and game.winner == "white"
    assert_bot_moves_legal(game)


def test_leaves_an_aborted_game_cleanly(server):
    cid = server.challenge("standard", bot_color="black",
                           opponent=Opponent(abort_on_start=True))
    proc = run_bot(server)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    assert "over, aborted" in proc.stderr
    game = server.game_of(cid)
    assert game.status == "aborted" and game.bot_moves == []


def test_stops_thinking_when_the_game_ends_meanwhile(server):
    # Quantum, to move with 10 minutes a move, is told of the abort while it thinks (or
    # before it starts): it must neither wait for its search nor post its move.
    cid = server.challenge("standard", bot_color="white", correspondence=True,
                           opponent=Opponent(abort_on_start=True))
    proc = run_bot(server, "--correspondence", "--movetime", "600000")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "over, aborted" in proc.stderr
    game = server.game_of(cid)
    assert game.status == "aborted"
    assert game.bot_moves == [] and game.rejected == []


@pytest.mark.parametrize("end", ["close", "cut"])
def test_leaves_a_game_whose_stream_ends_with_it(server, end):
    # The stream ends at the game's end without its final state, and the server then
    # refuses a few reopenings (as one does that serves a finished game's stream no more).
    # The game is over (the event stream says so, the game list no more has it): with
    # --max-games used up the bridge exits at once, without a single reconnection.
    server.end_stream = end
    server.refuse("game_stream", 503, times=3, after=1)
    cid = server.challenge("standard", opponent=Opponent(seed=4, resign_at_ply=6))
    proc = run_bot(server, "--log-level", "DEBUG")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert server.game_of(cid).status == "resign"
    assert server.requests["game_stream"] == 1, proc.stderr[-3000:]
    assert "over, resign" in proc.stderr


def test_waits_as_long_as_a_429_says(server):
    # The game stream is cut mid game and its reopening rate-limited for a second: the
    # bridge must not sit out a minute (its 10 s clock would fall) but come back and play.
    server.drop_stream_at_ply = 6
    server.refuse("game_stream", 429, after=1, headers={"Retry-After": "1"})
    cid = server.challenge("standard", opponent=Opponent(seed=9, resign_at_ply=14))
    proc = run_bot(server)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "stream dropped (HTTP 429)" in proc.stderr
    game = server.game_of(cid)
    assert game.status in ("resign", "mate"), game.status
    assert server.requests["game_stream"] == 3
    assert_bot_moves_legal(game)


@pytest.fixture
def reader(server, monkeypatch):
    """A bridge game's stream reader, run in this process, pausing 10 ms between attempts
    and giving up after 3 in a row; call it with the game's id, returns its thread."""
    monkeypatch.setattr(bot, "BACKOFF", (0.01,))
    monkeypatch.setattr(bot, "MAX_RECONNECTS", 3)
    games = []

    def start(game_id):
        config = bot.Config(url=server.url, token=TOKEN, engine="unused")
        games.append(bot.Game(config, game_id, "QuantumBot", bot._Server(server.url)))
        thread = threading.Thread(target=games[-1]._read, daemon=True)
        thread.start()
        return thread

    yield start
    for game in games:
        game.over.set()


def test_gives_up_streams_that_end_with_their_game_full(server, reader):
    server.stream_lines = 1             # each stream: its gameFull, then the closing chunk
    cid = server.challenge("standard", bot_color="black", start=True,
                           opponent=Opponent(seed=1))
    thread = reader(cid)
    thread.join(BOT_TIMEOUT)
    assert not thread.is_alive(), "the reader kept reconnecting"
    assert server.requests["game_stream"] == 1 + 3


def test_keeps_reopening_streams_that_live_past_their_game_full(server, reader):
    # Each stream lives for a keep-alive: a bad line, not a bad server. Its games go on.
    server.stream_lines = 2
    cid = server.challenge("standard", bot_color="black", start=True,
                           opponent=Opponent(seed=1))
    thread = reader(cid)
    assert server.wait(lambda: server.requests["game_stream"] >= 3 + 3, BOT_TIMEOUT)
    assert thread.is_alive()


def test_skips_malformed_lines_and_odd_events(server):
    server.noise = True                     # bad lines on the event and game streams
    cid = server.challenge("standard", opponent=Opponent(seed=2, resign_at_ply=8))
    proc = run_bot(server)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr
    assert "ignoring a line that is not JSON" in proc.stderr
    assert "ignoring a gameStart event without a valid game id" in proc.stderr
    game = server.game_of(cid)
    assert game.status == "resign"
    assert_bot_moves_legal(game)


# -- pychess.org ---------------------------------------------------------------------------

def test_fake_pychess_wants_the_capability_header(pychess):
    # What the bridge must satisfy: pychess refuses an event stream without the header
    # or with a malformed one, and reads its variant names as pychess's own.
    url, auth = pychess.url + "/api/stream/event", {"Authorization": f"Bearer {TOKEN}"}
    for header in (None, "[\"grand\"]", '{"version": 2, "variants": ["grand"]}',
                   '{"version": 1, "variants": ["nonesuch"]}'):
        headers = auth if header is None else {**auth, "X-PyChess-Bot-Capabilities": header}
        answer = requests.get(url, headers=headers, timeout=10)
        assert answer.status_code == 400, header
    assert "X-PyChess-Bot-Capabilities" in requests.get(url, headers=auth, timeout=10).text
    assert pychess.capabilities is None


def test_plays_grand_on_pychess(pychess):
    zh = pychess.challenge("crazyhouse")
    grand = pychess.challenge("grand", bot_color="black",
                              opponent=Opponent(seed=3, resign_at_ply=12))
    proc = run_bot(pychess, "--variants", "standard,grand")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert pychess.capabilities == {"chess", "grand"}
    assert pychess.challenges[zh]["status"] == "created"    # never offered to the bot
    game = pychess.game_of(grand)
    assert game.variant == "grand" and game.status in ("resign", "mate")
    assert game.winner == "black"
    assert_bot_moves_legal(game)
    assert len(game.bot_moves) >= 5
    assert "game %s: grand as black" % grand in proc.stderr
    assert "over, ended" in proc.stderr     # pychess's gameEnd, which names no result


def test_reconnects_to_pychess_through_its_409(pychess):
    # Reopened at once, a cut game stream gets 409 while pychess still counts it open.
    pychess.drop_stream_at_ply = 6
    cid = pychess.challenge("standard", opponent=Opponent(seed=8, resign_at_ply=16))
    proc = run_bot(pychess)
    assert proc.returncode == 0, proc.stderr[-3000:]
    game = pychess.game_of(cid)
    assert game.status in ("resign", "mate"), game.status
    assert game.stream_opened >= 2
    assert "stream dropped (HTTP 409)" in proc.stderr
    assert_bot_moves_legal(game)


def test_answers_no_draw_where_the_server_takes_none(pychess):
    # pychess has no draw endpoint; the fake's opponent offers draws all the same, three
    # times a game in two games, one after the other. One answer fails (404), then none is
    # posted. (Two slots: the second challenge may come before the bridge has seen the
    # first game's end.)
    def challenge(seed):
        return pychess.challenge("standard", opponent=Opponent(
            seed=seed, offer_draw_at_ply=4, draw_offers=3, resign_at_ply=12))

    ids = [challenge(5)]
    bot = start_bot(pychess, "--max-games", "2", "--concurrency", "2")
    try:
        assert pychess.wait(lambda: pychess.game_of(ids[0]) is not None
                            and pychess.game_of(ids[0]).status != "started", BOT_TIMEOUT)
        ids.append(challenge(6))
    finally:
        proc = finish_bot(bot)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for cid in ids:
        game = pychess.game_of(cid)
        assert game.status in ("resign", "mate") and game.winner == "white"
        assert game.draw_offers_made == 3
        assert_bot_moves_legal(game)
    draw_posts = [path for _, path in pychess.not_found if "/draw/" in path]
    assert len(draw_posts) == 1, draw_posts
    assert proc.stderr.count("takes no draw answers (HTTP 404)") == 1


@pytest.mark.parametrize("abort_refused, status", [(False, "aborted"), (True, "resign")])
def test_ends_a_game_it_cannot_play(server, abort_refused, status):
    # A crazyhouse game starts without a challenge to the bridge (accepted elsewhere).
    if abort_refused:
        server.refuse("end", 400)               # as for a game past its first moves
    cid = server.challenge("crazyhouse", start=True)
    proc = run_bot(server)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "variant crazyhouse is not supported" in proc.stderr
    game = server.game_of(cid)
    assert game.status == status and game.bot_moves == []


@pytest.mark.parametrize("abort_refused, status", [(False, "aborted"), (True, "resign")])
def test_withdraws_from_a_game_its_engine_cannot_play(server, abort_refused, status):
    """An engine that does not start: the game is aborted (or resigned), not left for the
    opponent to wait out our clock."""
    if abort_refused:
        server.refuse("end", 400)
    cid = server.challenge("standard", bot_color="white")
    proc = run_bot(server, "--engine", "/nonexistent/quantum")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "the engine cannot play" in proc.stderr
    game = server.game_of(cid)
    assert game.status == status and game.bot_moves == []


def test_refuses_to_start_with_a_wrong_token(server):
    proc = subprocess.run(
        [sys.executable, "-m", "adapters.lichess", "--url", server.url, "--max-games", "1"],
        check=False, cwd=REPO_ROOT, env={**os.environ, "LICHESS_BOT_TOKEN": "wrong"},
        capture_output=True, text=True, timeout=BOT_TIMEOUT)
    assert proc.returncode != 0
    assert "401" in proc.stderr


# -- decisions ---------------------------------------------------------------------------

def challenge(variant="standard", rated=False, tc_type="clock", fen=None) -> dict:
    body = {"id": "c1", "variant": {"key": variant}, "rated": rated,
            "timeControl": {"type": tc_type, "limit": 60, "increment": 1}}
    if fen:
        body["initialFen"] = fen
    return body


@pytest.mark.parametrize("ch, pol, reason", [
    (challenge(), policy.ChallengePolicy(), None),
    (challenge("grand"), policy.ChallengePolicy(variants=("standard", "grand")), None),
    (challenge("grand"), policy.ChallengePolicy(), "standard"),
    (challenge("crazyhouse"), policy.ChallengePolicy(variants=("standard", "grand")), "variant"),
    (challenge("chess960"), policy.ChallengePolicy(), "standard"),
    (challenge("fromPosition", fen="8/8/8/8/8/8/8/K6k w - - 0 1"),
     policy.ChallengePolicy(), "standard"),
    (challenge(fen="8/8/8/8/8/8/8/K6k w - - 0 1"), policy.ChallengePolicy(), "standard"),
    (challenge(tc_type="correspondence"), policy.ChallengePolicy(), "timeControl"),
    (challenge(tc_type="correspondence"),
     policy.ChallengePolicy(allow_correspondence=True), None),
    (challenge(rated=True), policy.ChallengePolicy(modes=("casual",)), "casual"),
    (challenge(rated=False), policy.ChallengePolicy(modes=("rated",)), "rated"),
])
def test_decline_reason(ch, pol, reason):
    assert policy.decline_reason(ch, pol) == reason


@pytest.mark.parametrize("score, plies, accept", [
    (None, 100, False),                                 # no search yet
    (policy.Score(cp=0), 40, False),                    # level, but only move 21
    (policy.Score(cp=25), 78, True),                    # move 40: level enough
    (policy.Score(cp=-30), 100, True),
    (policy.Score(cp=31), 100, False),                  # better than level: play on
    (policy.Score(cp=-120), 100, False),                # worse, not lost
    (policy.Score(cp=-300), 10, True),                  # clearly losing
    (policy.Score(mate=-3), 10, True),                  # being mated
    (policy.Score(mate=4), 100, False),                 # mating
])
def test_accept_draw(score, plies, accept):
    assert policy.accept_draw(score, plies) is accept


def test_pychess_names_and_capabilities():
    assert json.loads(policy.pychess_capabilities(("standard", "grand"))) == {
        "version": 1, "variants": ["chess", "grand"]}
    assert policy.variant_key({"key": "grand", "name": "Grand"}) == "grand"   # lichess
    assert policy.variant_key({"name": "chess"}) == "standard"                # pychess
    assert policy.variant_key({"name": "grand"}) == "grand"
    assert policy.variant_key({"name": "makruk"}) == "makruk"
    assert policy.variant_key(None) == "standard"
    # pychess flags a 960 twin: chess960, not accepted unless listed.
    assert policy.decline_reason({"variant": {"key": "standard"}, "chess960": True},
                                 policy.ChallengePolicy()) == "standard"


def test_game_over():
    assert policy.game_over({"type": "gameState", "status": "started"}) is None
    assert policy.game_over({"type": "gameState", "status": "mate", "winner": "white"}) == \
        ("mate", "white")
    assert policy.game_over({"type": "gameFull", "state": {"status": "aborted"}}) == \
        ("aborted", "")
    assert policy.game_over({"type": "gameEnd", "game": {"id": "abcd1234"}}) == ("ended", "")
    assert policy.game_over({"type": "chatLine", "status": "mate"}) is None


@pytest.mark.parametrize("header, seconds", [
    ("1", 1), ("0", 0), ("2.5", 2.5), ("86400", policy.MAX_RETRY_AFTER_S),
    (None, 60), ("", 60), ("soon", 60), ("-3", 60), ("nan", 60), ("inf", 60),
    ("Wed, 21 Oct 2015 07:28:00 GMT", 60),
])
def test_retry_after(header, seconds):
    assert policy.retry_after(header, 60) == seconds


def test_parse_score():
    assert policy.parse_score("info depth 9 score cp -42 nodes 1 pv e2e4") == policy.Score(cp=-42)
    assert policy.parse_score("info depth 9 score mate -2 pv e2e4") == policy.Score(mate=-2)
    assert policy.parse_score("info string hello") is None
    assert policy.parse_score("") is None


def test_go_command_from_state():
    state = {"wtime": 60000, "btime": timedelta(seconds=59.5), "winc": 1000,
             "binc": timedelta(seconds=1)}
    assert policy.go_command(state, 5000) == "wtime 60000 btime 59500 winc 1000 binc 1000"
    assert policy.go_command({"wtime": 0, "btime": 10}, 5000) == \
        "wtime 1 btime 10 winc 0 binc 0"
    unlimited = {"wtime": policy.UNLIMITED_MS, "btime": policy.UNLIMITED_MS}
    assert policy.go_command(unlimited, 5000) == "movetime 5000"
    assert policy.go_command({}, 700) == "movetime 700"
    assert policy.think_timeout("wtime 3000 btime 9000 winc 0 binc 0", "white", 1) == 4
    assert policy.think_timeout("wtime 3000 btime 9000 winc 0 binc 0", "black", 1) == 10
    assert policy.think_timeout("movetime 500", "black", 1) == 1.5


def test_event_of_keeps_json_objects_only():
    assert event_of(b'{"type": "gameState", "moves": ""}', "s") == {"type": "gameState",
                                                                    "moves": ""}
    for line in (b"", b"   ", b'{"type": ', b"[1]", b"null", b'"x"', b"\xff\xfe{}"):
        assert event_of(line, "s") is None, line


def test_decisions_take_odd_json_without_raising():
    pol = policy.ChallengePolicy()
    assert policy.decline_reason({"variant": "standard", "timeControl": 3, "rated": "yes"},
                                 pol) is None           # odd fields read as missing
    assert policy.decline_reason({"variant": {"key": 5}}, pol) is None
    assert policy.decline_reason({"variant": {"key": "grand"}, "timeControl": []},
                                 pol) == "standard"
    assert policy.go_command({"wtime": "60000", "btime": None}, 700) == "movetime 700"
    assert policy.go_command({"wtime": float("nan"), "btime": 1}, 700) == "movetime 700"
    assert policy.go_command({"wtime": True, "btime": 1}, 700) == "movetime 700"
    assert policy.side_to_move(7, []) == "white"
    assert policy.valid_id("abcd1234") == "abcd1234"
    for bad in ("../../api/x", "", "a b", "x" * 65, None, 12, ["x"]):
        assert policy.valid_id(bad) == ""


def test_position_command_cannot_smuggle_engine_commands():
    fen = "8/8/8/8/8/8/8/K6k w - - 0 1\nquit"
    line = policy.position_command(fen, ["h1g1"])
    assert "\n" not in line and "\r" not in line
    assert line == "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 quit moves h1g1"
    assert policy.position_command(None, []) == "position startpos"
    assert policy.position_command(["x"], []) == "position startpos"


def test_position_and_turn():
    assert policy.position_command("startpos", []) == "position startpos"
    assert policy.position_command(None, ["e2e4"]) == "position startpos moves e2e4"
    fen = Board("grand").fen()
    assert policy.position_command(fen, ["e3e5"]) == f"position fen {fen} moves e3e5"
    assert policy.side_to_move("startpos", []) == "white"
    assert policy.side_to_move("startpos", ["e2e4"]) == "black"
    assert policy.side_to_move("8/8/8/8/8/8/8/K6k b - - 0 1", []) == "black"
    assert policy.side_to_move("8/8/8/8/8/8/8/K6k b - - 0 1", ["h1g1"]) == "white"
