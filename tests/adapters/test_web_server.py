"""The web board's server (adapters/web, docs/web.md) over its WebSocket, with the real
engine: a game of every kind starts and plays, the engine answers, refused messages
change nothing, and Fog of War sends a page only the view of the side it shows (checked
against the rules' own view of the true game, ply by ply) and nothing behind the curtain.
The pages themselves are tested in a browser (tests/web/)."""
from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer

from adapters.web.server import MAX_MESSAGE, Server
from engine.board import Board
from engine.fog import view as fog_view

CELLS = {"chess": 64, "grand": 100, "hexagonal": 91, "fogofwar": 64, "alea": 64}
GUARD = 60.0                            # hang guard for one answer


class Page:
    """A page's WebSocket, as a test drives it."""

    def __init__(self, ws):
        self.ws, self.seen = ws, []

    async def send(self, **msg) -> None:
        await self.ws.send_str(json.dumps(msg))

    async def next(self) -> dict:
        msg = await asyncio.wait_for(self.ws.receive(), GUARD)
        data = json.loads(msg.data)
        self.seen.append(data)
        return data

    async def until(self, done) -> dict:
        while True:
            data = await self.next()
            if done(data):
                return data

    async def settled(self) -> dict:
        """The next state in which the engine is not thinking."""
        return await self.until(lambda m: m["t"] == "state" and not m["thinking"])

    async def error(self) -> str:
        return (await self.until(lambda m: m["t"] == "error"))["text"]


def play(scenario, engine: str | None = None):
    """Run ``scenario(server, page)`` against a fresh server in this thread's loop."""
    async def run():
        server = Server(engine) if engine else Server()
        client = TestClient(TestServer(server.app()))
        await client.start_server()
        try:
            async with client.ws_connect("/ws") as ws:
                return await scenario(server, Page(ws))
        finally:
            await client.close()
    return asyncio.run(run())


@pytest.mark.parametrize("game", list(CELLS))
def test_every_game_starts_and_the_engine_answers(game):
    async def scenario(server, page):
        await page.send(t="new", game=game, level="beginner")
        layout = await page.next()
        assert layout["t"] == "layout" and len(layout["cells"]) == CELLS[game]
        state = await page.settled()
        assert state["turn"] == 0 and state["people"] == [0] and state["legal"]
        move = sorted(state["legal"])[0]
        await page.send(t="move", move=move)
        reply = await page.until(lambda m: m["t"] == "state" and m["turn"] == 0
                                 and not m["thinking"] and len(m["moves"]) >= 2)
        assert reply["moves"][0][1] == move and reply["legal"]
        return server.games[state["id"]].session.rec
    rec = play(scenario)
    assert rec.moves and not rec.termination


def test_hexagon_layout_is_glinskis():
    async def scenario(server, page):
        await page.send(t="new", game="hexagonal", mode="local")
        return await page.next()
    layout = play(scenario)
    cells = {c["n"]: c for c in layout["cells"]}
    assert layout["shape"] == "hex" and layout["files"] == "abcdefghikl"
    assert "j1" not in cells and (cells["f6"]["x"], cells["f6"]["y"]) == (0, 10)
    assert {c["c"] for c in layout["cells"]} == {0, 1, 2}
    assert layout["pieces"]["k"] == "king"


@pytest.mark.parametrize("msg, words", [
    ({"t": "new", "game": "shogi"}, "game must be one of"),
    ({"t": "new", "level": "god"}, "level must be one of"),
    ({"t": "new", "clock": "fast"}, "clock must be"),
    ({"t": "new", "game": "chess", "daily": True}, "Alea's settings"),
    ({"t": "new", "fen": "x" * 500}, "fen must be"),
    ({"t": "new", "game": "grand", "chess960": True}, "chess's settings"),
    ({"t": "new", "game": "chess", "position": 5}, "add chess960"),
    ({"t": "new", "game": "chess", "chess960": True, "position": 960}, "0..959"),
    ({"t": "move", "move": "e2e4"}, "no game"),
    ({"t": 7}, "type 't'"),
    ([1, 2], "type 't'"),
])
def test_bad_messages_get_an_error(msg, words):
    async def scenario(server, page):
        await page.ws.send_str(json.dumps(msg))
        return await page.error()
    assert words in play(scenario)


def test_refused_moves_and_actions_change_nothing():
    async def scenario(server, page):
        await page.send(t="new", game="chess", mode="local")
        await page.next()
        first = await page.next()
        for msg in ({"t": "move", "move": "e2e5"}, {"t": "move", "move": 12},
                    {"t": "undo"}, {"t": "lift"}, {"t": "resign", "side": "x"},
                    {"t": "guide", "on": True}, {"t": "frobnicate"}):
            await page.send(**msg)
            assert await page.error()
        await page.send(t="move", move="e2e4")
        after = await page.next()
        return first, after
    first, after = play(scenario)
    assert first["moves"] == [] and [m[1] for m in after["moves"]] == ["e2e4"]


def test_a_huge_message_closes_only_that_connection():
    async def scenario(server, page):
        await page.ws.send_str("x" * (MAX_MESSAGE + 1))
        msg = await asyncio.wait_for(page.ws.receive(), GUARD)
        return msg.type.name
    assert play(scenario) in ("CLOSE", "CLOSED", "CLOSING", "ERROR")


def test_two_people_undo_draw_and_resign():
    async def scenario(server, page):
        await page.send(t="new", game="grand", mode="local")
        await page.next()
        await page.next()
        await page.send(t="move", move="e3e5")
        await page.next()
        await page.send(t="undo")
        undone = await page.next()
        assert undone["moves"] == [] and undone["turn"] == 0
        await page.send(t="draw", side="w")
        offered = await page.next()
        assert offered["draw_offer"] == 0
        await page.send(t="draw", side="b")
        return await page.next()
    state = play(scenario)
    assert state["over"] and state["result"]["reason"] == "agreement" and state["pgn"]


def test_fog_between_two_people_drops_a_curtain_and_shows_one_view():
    async def scenario(server, page):
        await page.send(t="new", game="fogofwar", mode="local")
        await page.next()
        white = await page.next()
        await page.send(t="move", move="e2e4")
        curtain = await page.next()
        await page.send(t="move", move="d7d5")
        refused = await page.error()
        await page.send(t="lift")
        black = await page.next()
        return white, curtain, refused, black
    white, curtain, refused, black = play(scenario)
    start = Board("fogofwar")
    assert white["pieces"] == fog_view(start, "w").pieces and white["viewer"] == 0
    assert curtain["curtain"] == {"next": 1} and curtain["pieces"] == {}
    assert curtain["legal"] == [] and len(curtain["fog"]) == 64
    assert "curtain" in refused
    start.push("e2e4")
    assert black["viewer"] == 1 and black["pieces"] == fog_view(start, "b").pieces
    assert black["moves"] == [[0, "?", "?"]]


def test_fog_against_the_engine_never_shows_more_than_the_persons_view():
    """Every state the page receives during a whole game equals the person's view of the
    true position at that ply, the engine's moves hidden; the fog lifts at the end."""
    async def scenario(server, page):
        await page.send(t="new", game="fogofwar", level="beginner", side="black")
        await page.next()
        while True:
            state = await page.settled()
            if state["over"] or len(state["moves"]) >= 24:
                break
            if state["turn"] == 1:
                await page.send(t="move", move=sorted(state["legal"])[0])
        await page.send(t="resign", side="b")
        await page.until(lambda m: m["t"] == "state" and m["over"])
        return server.games[state["id"]].session.rec, page.seen
    rec, seen = play(scenario)
    states = [m for m in seen if m["t"] == "state"]
    for state in states:
        if state["over"]:
            assert state["fog"] == [] and len(state["replay"]) == len(rec.moves) + 1
            continue
        board = Board("fogofwar")
        for move in rec.moves[:len(state["moves"])]:
            board.push(move)
        assert state["pieces"] == fog_view(board, "b").pieces
        assert all(entry == [0, "?", "?"] for entry in state["moves"] if entry[0] == 0)
        assert state["clocks"] is None


def test_resigning_while_the_engine_thinks_ends_the_game_at_once():
    async def scenario(server, page):
        await page.send(t="new", game="chess", level="hard", clock="60+0")
        await page.next()
        await page.settled()
        await page.send(t="move", move="e2e4")
        await page.until(lambda m: m["t"] == "state" and m["thinking"])
        await page.send(t="resign", side="w")
        over = await page.until(lambda m: m["t"] == "state" and m["over"])
        done = await page.settled()
        return over, done, server.games[over["id"]].session.rec
    over, done, rec = play(scenario)
    assert over["result"]["reason"] == "resignation" and rec.white_score == 0.0
    assert rec.moves == ["e2e4"] and done["over"]       # the engine's late move is not made


def test_alea_rerolls_and_jokers_through_the_server():
    fen = ("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 5 "
           "8/8 -/- 4/4 2/2 1/1 -/- - alea")

    async def scenario(server, page):
        await page.send(t="new", game="alea", level="beginner", fen=fen)
        await page.next()
        state = await page.settled()
        assert state["extra"]["dice"] and "reroll" in state["legal"]
        await page.send(t="move", move="reroll")
        rerolled = await page.settled()
        joker = next(m for m in rerolled["legal"] if m.startswith("joker:"))
        await page.send(t="move", move=joker)
        after = await page.until(lambda m: m["t"] == "state" and m["turn"] == 0
                                 and not m["thinking"])
        return state, rerolled, after
    state, rerolled, after = play(scenario)
    assert rerolled["extra"]["rerolls"][0] == state["extra"]["rerolls"][0] - 1
    assert after["extra"]["jokers"][0] == state["extra"]["jokers"][0] - 1
    assert after["moves"][1][2].endswith("(joker)")


def test_a_hex_stalemate_is_scored_three_quarters():
    """K+Q+R against K (tests/data/positions_hexagonal.tsv, craft_mate_stale): a move that
    stalemates Black ends the game 3/4-1/4 for White (docs/rules/hexagonal.md)."""
    fen = "1/3/5/2Q4/9/11/3R7/11/11/11/3K1k5 w - 0 1"
    board = Board("hexagonal", fen)
    stalemating = []
    for move in board.legal_moves():
        board.push(move)
        if board.outcome() is not None and board.outcome().termination == "stalemate":
            stalemating.append(move)
        board.pop()
    assert stalemating

    async def scenario(server, page):
        await page.send(t="new", game="hexagonal", mode="local", fen=fen)
        await page.next()
        await page.next()
        await page.send(t="move", move=stalemating[0])
        return await page.next()
    state = play(scenario)
    assert state["over"] and state["result"]["white"] == 0.75
    assert state["result"]["text"] == "3/4-1/4" and state["result"]["reason"] == "stalemate"


def test_chess960_from_its_position_against_the_engine():
    """A Chess960 game from start position 0 (BBQNNRKR): the position python-chess
    names, castling offered king-takes-rook, no book, and the engine answers legally."""
    import chess

    async def scenario(server, page):
        await page.send(t="new", game="chess", chess960=True, position=0, level="beginner")
        await page.next()
        start = await page.settled()
        await page.send(t="move", move="g2g3")
        return start, await page.settled()
    start, after = play(scenario)
    board = chess.Board.from_chess960_pos(0)
    assert start["setup"]["chess960"] and start["setup"]["position"] == 0
    assert {cell: p for cell, p in start["pieces"].items() if cell[1] == "1"} == \
        {chess.square_name(sq): board.piece_at(sq).symbol() for sq in chess.SquareSet(chess.BB_RANK_1)
         if board.piece_at(sq)}
    assert start["book"] is None and start["opening"] is None
    board.push_uci("g2g3")
    reply = after["moves"][1][1]
    assert chess.Move.from_uci(reply) in board.legal_moves
    board.push_uci(reply)
    assert set(after["legal"]) == {m.uci() for m in board.legal_moves}


def test_the_state_carries_the_book_and_the_opening():
    async def scenario(server, page):
        await page.send(t="new", game="chess", mode="local")
        await page.next()
        start = await page.next()
        for move in ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4"):
            await page.send(t="move", move=move)
            state = await page.next()
        return start, state
    start, state = play(scenario)
    assert start["opening"] is None and start["book"]["moves"][0]["text"] in ("e4", "d4")
    assert state["opening"] == {"eco": "C50", "name": "Italian Game"}
    assert {"Bc5", "Nf6"} <= {m["text"] for m in state["book"]["moves"]}


def test_the_guide_reviews_a_move_after_it_is_shown():
    """With the guide on, the person's move reaches the page at once; the guide's review
    of it follows in a later state, before the engine's reply is shown."""
    async def scenario(server, page):
        await page.send(t="new", game="alea", level="beginner", guide=True)
        await page.next()
        first = await page.until(lambda m: m["t"] == "state" and m["guide"]["notes"])
        await page.send(t="move", move=first["legal"][0])
        states = [await page.next()]
        while not (states[-1]["t"] == "state" and states[-1]["turn"] == 0
                   and not states[-1]["thinking"]):
            states.append(await page.next())
        return first, states
    first, states = play(scenario)
    assert any(n["kind"] == "best" for n in first["guide"]["notes"])
    shown = states[0]
    assert len(shown["moves"]) == 1 and shown["guide"]["notes"] == []
    reviewed = next(i for i, s in enumerate(states) if s["guide"]["notes"]
                    and any(n["kind"] == "review" for n in s["guide"]["notes"]))
    replied = next(i for i, s in enumerate(states) if len(s["moves"]) >= 2)
    assert 0 < reviewed <= replied
