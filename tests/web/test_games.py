"""A short game of each of the five games through the page against Quantum at Beginner:
the person's moves made by clicking cells found by their accessible names, the engine
answering each, the move list growing by two entries a turn; and moves by drag and drop."""
from __future__ import annotations

import random
from urllib.parse import quote

import pytest

from browser import plain_moves

GAMES = ("chess", "grand", "hexagonal", "fogofwar", "alea")
TURNS = 3


@pytest.mark.parametrize("game", GAMES)
def test_a_short_game_against_beginner(browser, game):
    rng = random.Random(game)
    browser.open(f"/{game}?level=beginner")
    assert browser.attr("game") == game and browser.attr("mode") == "bot"
    for turn in range(TURNS):
        state = browser.wait_turn(0)
        assert len(state["moves"]) == 2 * turn
        move = rng.choice(plain_moves(state))
        browser.play(move)
        state = browser.wait_settled(ply=2 * turn + 2)
        assert state["moves"][2 * turn][:2] == [0, move]
        assert state["moves"][2 * turn + 1][0] == 1, "the engine did not answer"
        shown = [li.text for li in browser.find_all("ol#moves li")]
        assert shown == [entry[2] for entry in state["moves"]]
    assert not state["over"] and browser.attr("turn") == "white"
    assert [m["move"] for m in browser.sent("move")] == \
        [state["moves"][2 * turn][1] for turn in range(TURNS)]


def test_moves_by_drag_and_drop(browser):
    browser.open("/chess?mode=local")
    browser.wait_turn(0)
    browser.drag("e2", "e4")
    browser.wait(lambda d: browser.attr("ply") == "1", "the dragged move")
    browser.wait_turn(1)
    browser.drag("g8", "f6")
    browser.wait(lambda d: browser.attr("ply") == "2", "the second dragged move")
    assert [m["move"] for m in browser.sent("move")] == ["e2e4", "g8f6"]
    assert [li.text for li in browser.find_all("ol#moves li")] == ["e4", "Nf6"]


def test_a_reload_resumes_the_game(browser):
    browser.open("/chess?level=beginner")
    browser.wait_turn(0)
    browser.play("d2d4")
    before = browser.wait_settled(ply=2)
    assert f"#g={before['id']}" in browser.driver.current_url
    browser.driver.refresh()
    browser.wait(lambda d: browser.sent("resume"), "the resume message")
    assert browser.sent("resume")[-1]["id"] == before["id"]
    after = browser.wait_turn(0)
    assert after["id"] == before["id"] and after["moves"] == before["moves"]
    assert [li.text for li in browser.find_all("ol#moves li")] == \
        [entry[2] for entry in before["moves"]]



def test_a_game_from_a_fen_numbers_its_moves_from_the_fens_move(browser):
    """A game set up at move 9 (FEN) numbers its first move 9, as its PGN does."""
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 9"
    browser.open(f"/chess?mode=local&fen={quote(fen)}")
    assert browser.wait_turn(0)["first_move"] == 9
    browser.play("g1f3")
    browser.wait(lambda d: browser.attr("ply") == "1", "the move")
    first = browser.find_all("ol#moves li")[0]
    assert first.get_attribute("data-num") == "9." and first.text == "Nf3"
