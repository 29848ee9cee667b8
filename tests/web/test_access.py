"""Accessible names: every cell of every board named "e5, white knight", "e5, empty" or
"e5, fog", matching what the page was sent, with one cell in the tab order; and each
move announced in the live region."""
from __future__ import annotations

import pytest

from browser import LABEL, expected_label

CELLS = {"chess": 64, "grand": 100, "hexagonal": 91, "fogofwar": 64, "alea": 64}


@pytest.mark.parametrize("game", list(CELLS))
def test_every_cell_has_an_accessible_name(browser, game):
    browser.open(f"/{game}?mode=local")
    state = browser.wait_turn(0)
    board = browser.find("#board")
    assert board.get_attribute("role") == "grid" and board.get_attribute("aria-label")
    cells = browser.cells()
    assert len(cells) == CELLS[game] == len(browser.layout()["cells"])
    for name, cell in cells.items():
        match = LABEL.fullmatch(cell["label"] or "")
        assert match and match.group(1) == name, cell["label"]
        assert cell["label"] == expected_label(state, name)
    assert sum(c["tabindex"] == "0" for c in cells.values()) == 1
    assert all(c["tabindex"] in ("0", "-1") for c in cells.values())
    pieces = sum(not c["label"].endswith((", empty", ", fog")) for c in cells.values())
    assert pieces == len(state["pieces"]) > 0


def test_a_move_is_announced(browser):
    browser.open("/chess?mode=local")
    live = browser.find("#announce")
    assert live.get_attribute("aria-live") == "polite"
    browser.wait_turn(0)
    browser.play("e2e4")
    browser.wait(lambda d: browser.text("#announce") == "White pawn moved from e2 to e4",
                 "the announcement of e2e4")
    browser.wait_turn(1)
    browser.play("g8f6")
    browser.wait(lambda d: browser.text("#announce") == "Black knight moved from g8 to f6",
                 "the announcement of Nf6")
    assert browser.classes("g8") >= {"last"} and browser.classes("f6") >= {"last"}


def test_the_turkish_interface(browser):
    browser.open("/chess?mode=local&lang=en")
    english = browser.text('button[data-action="undo"]')
    browser.open("/chess?mode=local&lang=tr")
    assert browser.find("html").get_attribute("lang") == "tr"
    assert browser.text('button[data-action="undo"]') not in ("", english)
    labels = {name: c["label"] for name, c in browser.cells().items()}
    assert labels["e4"] != "e4, empty" and labels["e4"].startswith("e4, ")
    assert labels["e2"] not in ("e2, white pawn", labels["e4"])
