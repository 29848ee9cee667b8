"""Promotion through the page's panel (two people at one device, from a set position):
Grand offers only the types the side has lost, and "stay a pawn" only where promotion is
optional (ranks 8 and 9); Gliński's hex offers queen, rook, bishop and knight."""
from __future__ import annotations

from urllib.parse import quote

from testkit import grand_fen, hex_fen

# White has lost a rook (j1) and a knight (i2): a pawn promotes to one of those only.
GRAND_WHITE = {"a1": "R", "b2": "N", "c2": "B", "d2": "Q", "e2": "K", "f2": "C", "g2": "A",
               "h2": "B"}
GRAND = grand_fen({**GRAND_WHITE, "e7": "P", "h9": "P", "j10": "k"})
HEX = hex_fen({"g1": "K", "c7": "P", "k1": "k"})


def open_local(browser, game: str, fen: str) -> dict:
    browser.open(f"/{game}?mode=local&fen={quote(fen)}")
    return browser.wait_turn(0)


def start_promotion(browser, move: str) -> set[str]:
    """Click a pawn and its promotion cell; the panel's choices."""
    state = browser.last_state()
    browser.click_cell(move[:2], state)
    browser.wait(lambda d: "selected" in browser.classes(move[:2]), "the pawn selected")
    browser.click_cell(move[2:], state)
    browser.wait(lambda d: browser.shown("#promotion"), "the promotion panel")
    assert browser.find("#promotion").get_attribute("role") == "dialog"
    return browser.promotion_choices()


def test_grand_offers_only_lost_types_and_stay_where_optional(browser):
    state = open_local(browser, "grand", GRAND)
    assert {m for m in state["legal"] if m.startswith("e7e8")} == {"e7e8", "e7e8r", "e7e8n"}
    assert start_promotion(browser, "e7e8") == {"r", "n", "-"}
    names = {b.get_attribute("data-piece"): b.get_attribute("aria-label")
             for b in browser.find_all("#promotion button[data-piece]")}
    assert names["r"].lower() == "rook" and names["n"].lower() == "knight"
    browser.click(browser.find('#promotion button[data-piece="-"]'))
    browser.wait(lambda d: browser.attr("ply") == "1", "the pawn's move")
    assert browser.sent("move")[-1]["move"] == "e7e8"
    assert browser.cells()["e8"]["label"] == "e8, white pawn"
    assert not browser.shown("#promotion")

    state = browser.wait_turn(1)
    browser.play(state["legal"][0])
    browser.wait_turn(0)
    assert start_promotion(browser, "h9h10") == {"r", "n"}        # rank 10: must promote
    browser.click(browser.find('#promotion button[data-piece="n"]'))
    browser.wait(lambda d: browser.attr("ply") == "3", "the promotion")
    assert browser.sent("move")[-1]["move"] == "h9h10n"
    assert browser.cells()["h10"]["label"] == "h10, white knight"


def test_hexagonal_offers_queen_rook_bishop_knight(browser):
    open_local(browser, "hexagonal", HEX)
    assert start_promotion(browser, "c7c8") == {"q", "r", "b", "n"}
    browser.click(browser.find('#promotion button[data-piece="r"]'))
    browser.wait(lambda d: browser.attr("ply") == "1", "the promotion")
    assert browser.sent("move")[-1]["move"] == "c7c8r"
    assert browser.cells()["c8"]["label"] == "c8, white rook"
