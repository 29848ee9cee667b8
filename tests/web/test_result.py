"""The result box: a hex stalemate played through the page ends the game ¾–¼ for the
side that stalemated (docs/rules/hexagonal.md), said in words, with the PGN to download."""
from __future__ import annotations

from urllib.parse import quote

from engine.board import Board

# K+Q+R against K (tests/data/positions_hexagonal.tsv, craft_mate_stale).
STALEMATE = "1/3/5/2Q4/9/11/3R7/11/11/11/3K1k5 w - 0 1"


def stalemating_move() -> str:
    board = Board("hexagonal", STALEMATE)
    for move in sorted(board.legal_moves()):
        board.push(move)
        outcome = board.outcome()
        board.pop()
        if outcome is not None and outcome.termination == "stalemate":
            return move
    raise AssertionError("the position has no stalemating move")


def test_a_hex_stalemate_gives_three_quarters_to_white(browser):
    move = stalemating_move()
    browser.open(f"/hexagonal?mode=local&fen={quote(STALEMATE)}")
    browser.wait_turn(0)
    assert not browser.shown("#result")
    browser.play(move)
    browser.wait(lambda d: browser.attr("over") == "1" and browser.shown("#result"),
                 "the result box")
    box = browser.find("#result")
    assert box.get_attribute("role") == "dialog"
    assert box.get_attribute("data-white") == "0.75"
    assert box.get_attribute("data-reason") == "stalemate"
    words = box.text
    assert "¾" in words and "stalemate" in words.lower() and "White" in words, words
    pgn = browser.find("#result a#pgn")
    assert pgn.get_attribute("download") == "quantum-hexagonal.pgn"
    assert pgn.get_attribute("href").startswith("blob:")
    state = browser.last_state()
    assert state["result"]["white"] == 0.75 and state["pgn"]
    downloaded = browser.driver.execute_async_script(
        "fetch(arguments[0]).then(r => r.text()).then(arguments[1])", pgn.get_attribute("href"))
    assert downloaded.strip() == state["pgn"].strip()
