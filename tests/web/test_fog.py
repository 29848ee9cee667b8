"""Fog of War in the browser: two people at one device behind a curtain, and a person
against the engine. Every WebSocket frame the page receives before the end is checked
against the rules' own view of the true game at that ply (engine/fog.py): the pieces
exactly those the receiving side sees, every other cell fog, no hidden move spelled out.
The true game is known to the test: it makes both sides' moves at one device, and the
engine's moves come out with the end of the game."""
from __future__ import annotations

import random

import pytest

from browser import LABEL, expected_label, plain_moves
from engine.board import Board
from engine.fog import view as fog_view

PIECES_DRAWN = "#board image, #board use, #board .piece, #board [data-piece]"


def check_secrecy(frames: list[dict], moves: list[str], cells: set[str]) -> int:
    """Assert that no state in ``frames`` (received before the end) shows more than its
    viewer may know of the game ``moves``; how many states were checked."""
    checked = 0
    for state in frames:
        if state["t"] != "state" or state["over"]:
            continue
        ply = len(state["moves"])
        board = Board("fogofwar")
        for move in moves[:ply]:
            board.push(move)
        viewer = state["viewer"]
        if viewer is None:                       # behind the curtain: nothing at all
            assert state["pieces"] == {} and state["legal"] == [] and state["last"] is None
            assert set(state["fog"]) == cells
            assert all(entry[1:] == ["?", "?"] for entry in state["moves"]), state["moves"]
            checked += 1
            continue
        view = fog_view(board, "wb"[viewer])
        assert state["pieces"] == view.pieces, f"ply {ply}: more than side {viewer} sees"
        assert set(state["fog"]) == cells - set(view.visible)
        assert state["fen"] in (None, view.fen)
        for (side, answer, text), move in zip(state["moves"], moves):
            if side == viewer:
                assert answer == move
            else:
                assert (answer, text) == ("?", "?"), f"ply {ply}: a hidden move shown"
        own = {c for i, m in enumerate(moves[:ply]) if i % 2 == viewer for c in (m[:2], m[2:4])}
        for cell in state["last"] or ():
            assert cell in view.visible or cell in own, f"ply {ply}: last {state['last']}"
        checked += 1
    return checked


def assert_board_shows(browser, state: dict) -> None:
    """Every cell's accessible name is what the state allows, of the contract's form, and
    the fog and the cells of pieces lost out of sight are marked."""
    cells = browser.cells()
    assert set(cells) == {c["n"] for c in browser.layout()["cells"]}
    for name, cell in cells.items():
        assert LABEL.fullmatch(cell["label"]), cell["label"]
        assert cell["label"] == expected_label(state, name)
        assert ("fog" in cell["classes"]) == (name in state["fog"]), name
        assert ("lost" in cell["classes"]) == (name in state["lost"]), name


def test_two_people_at_one_device_pass_it_behind_a_curtain(browser):
    rng = random.Random(7)
    browser.open("/fogofwar?mode=local")
    cells = {c["n"] for c in browser.layout()["cells"]}
    moves: list[str] = []
    for ply in range(6):
        side = ply % 2
        state = browser.wait_turn(side)
        assert state["viewer"] == side and state["curtain"] is None
        assert_board_shows(browser, state)
        assert browser.find_all(PIECES_DRAWN), "no piece drawn on the open board"
        move = rng.choice(plain_moves(state))
        browser.play(move)
        moves.append(move)
        browser.wait(lambda d: browser.shown("#curtain"), "the curtain to fall")
        down = browser.last_state()
        assert down["curtain"] == {"next": 1 - side} and down["viewer"] is None
        assert all(LABEL.fullmatch(c["label"]) and c["label"].endswith((", fog", ", empty"))
                   for c in browser.cells().values()), "a piece named behind the curtain"
        assert not browser.find_all(PIECES_DRAWN), "a piece drawn behind the curtain"
        lift = browser.find('#curtain button[data-action="lift"]')
        assert ("Black" if side == 0 else "White") in lift.text
        browser.click(lift)
        browser.wait(lambda d: not browser.shown("#curtain"), "the curtain to lift")
    assert [m["move"] for m in browser.sent("move")] == moves
    assert len(browser.sent("lift")) == 6
    received = [m for d, m in browser.frames() if d == "in"]
    assert check_secrecy(received, moves, cells) >= 12


def test_against_the_engine_the_page_never_gets_a_hidden_piece(browser):
    rng = random.Random(11)
    browser.open("/fogofwar?level=beginner")
    cells = {c["n"] for c in browser.layout()["cells"]}
    for turn in range(5):
        state = browser.wait_turn(0)
        assert_board_shows(browser, state)
        browser.play(rng.choice(plain_moves(state)))
        if browser.wait_settled(ply=2 * turn + 1)["over"]:
            break                               # a king fell: the game is over already
    else:
        browser.click(browser.find('button[data-action="resign"]'))
        browser.confirm()
    browser.wait(lambda d: browser.attr("over") == "1", "the end of the game")
    final = browser.last_state()
    moves = [answer for _, answer, _ in final["moves"]]
    assert "?" not in moves and len(moves) >= 2 and final["fog"] == []
    assert_board_shows(browser, final)                  # the fog lifted: every piece shown
    assert any(letter.islower() for letter in final["pieces"])
    received = [m for d, m in browser.frames() if d == "in"]
    assert check_secrecy(received, moves, cells) >= len(moves)
    assert_replay_steps(browser, final)


def test_after_a_hidden_reply_the_own_last_piece_answers_a_click_at_once(browser):
    """The engine's reply is hidden, so nothing moves on the person's board: the piece
    the person moved last must not slide again, and a click on it selects it at once."""
    browser.open("/fogofwar?level=beginner")
    browser.wait_turn(0)
    browser.play("g1f3")
    state = browser.wait_turn(0)
    assert state["moves"][1] == [1, "?", "?"] and state["last"] == ["g1", "f3"]
    browser.click_cell("f3", state)
    browser.wait(lambda d: "selected" in browser.classes("f3"), "f3 selected", timeout=3)


def assert_replay_steps(browser, final: dict) -> None:
    """After the end the replay buttons step through every position of the game."""
    replay = final["replay"]
    assert len(replay) == len(final["moves"]) + 1

    def shows(step):
        return lambda d: all(c["label"] == expected_label({"pieces": replay[step]["pieces"],
                                                           "fog": []}, name)
                             for name, c in browser.cells().items())
    browser.click(browser.find('button[data-action="replay-first"]'))
    browser.wait(shows(0), "the replay's first position")
    browser.click(browser.find('button[data-action="replay-next"]'))
    browser.wait(shows(1), "the replay's second position")
    browser.click(browser.find('button[data-action="replay-last"]'))
    browser.wait(shows(len(replay) - 1), "the replay's last position")


def test_the_secrecy_check_catches_a_leak():
    """The check above fails on a state that shows a hidden piece or a hidden move (no
    browser: states made from the rules' view, then spoiled)."""
    moves = ["e2e4", "d7d5"]
    board = Board("fogofwar")
    for move in moves:
        board.push(move)
    view = fog_view(board, "w")
    cells = {f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)}
    honest = {"t": "state", "over": False, "viewer": 0, "pieces": dict(view.pieces),
              "fog": sorted(cells - set(view.visible)), "fen": view.fen, "last": ["e2", "e4"],
              "moves": [[0, "e2e4", "e2e4"], [1, "?", "?"]], "legal": []}
    assert check_secrecy([honest], moves, cells) == 1
    assert {"d7", "d8"} <= set(honest["fog"])
    for spoil in ({"pieces": {**view.pieces, "d8": "q"}},
                  {"fog": honest["fog"][1:]},
                  {"moves": [[0, "e2e4", "e2e4"], [1, "d7d5", "d5"]]},
                  {"last": ["d7", "d5"]}, {"fen": board.fen()}, {"viewer": 1}):
        with pytest.raises(AssertionError):
            check_secrecy([{**honest, **spoil}], moves, cells)
