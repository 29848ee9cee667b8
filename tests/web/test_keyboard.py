"""The whole move from the keyboard: Tab into the board, arrow keys to a piece, Enter to
select it, arrows to a target, Enter to move; Escape cancels a selection. No mouse."""
from __future__ import annotations

from selenium.webdriver.common.keys import Keys

FILES = "abcdefgh"


def tab_into_the_board(browser, presses: int = 60) -> str:
    """Press Tab until a board cell has the focus; that cell."""
    for _ in range(presses):
        cell = browser.focused_cell()
        if cell:
            return cell
        browser.press(Keys.TAB)
    raise AssertionError(f"{presses} Tabs never reached the board")


def walk_to(browser, target: str) -> None:
    """Arrow keys from the focused cell to ``target`` (White at the bottom)."""
    here = browser.focused_cell()
    df = FILES.index(target[0]) - FILES.index(here[0])
    dr = int(target[1:]) - int(here[1:])
    keys = [Keys.ARROW_RIGHT if df > 0 else Keys.ARROW_LEFT] * abs(df) + \
        [Keys.ARROW_UP if dr > 0 else Keys.ARROW_DOWN] * abs(dr)
    for key in keys:
        browser.press(key)
    browser.wait(lambda d: browser.focused_cell() == target, f"the focus on {target}")
    cells = browser.cells()
    assert cells[target]["tabindex"] == "0"
    assert [n for n, c in cells.items() if c["tabindex"] == "0"] == [target]


def test_a_move_by_keyboard_only(browser):
    browser.open("/chess?level=beginner")
    browser.wait_turn(0)
    tab_into_the_board(browser)
    walk_to(browser, "g1")
    browser.press(Keys.ENTER)
    browser.wait(lambda d: "selected" in browser.classes("g1"), "g1 selected")
    targets = {n for n, c in browser.cells().items() if "target" in c["classes"]}
    assert targets == {"f3", "h3"}
    browser.press(Keys.ESCAPE)
    browser.wait(lambda d: not any("selected" in c["classes"] or "target" in c["classes"]
                                   for c in browser.cells().values()), "the selection off")
    walk_to(browser, "e2")
    browser.press(Keys.ENTER)
    browser.wait(lambda d: "selected" in browser.classes("e2"), "e2 selected")
    walk_to(browser, "e4")
    browser.press(Keys.SPACE)
    browser.wait(lambda d: browser.attr("ply") not in (None, "0"), "the move")
    assert browser.sent("move")[0]["move"] == "e2e4"
    state = browser.wait_settled(ply=2)
    assert state["moves"][0][2] == "e4" and state["moves"][1][0] == 1
    assert browser.cells()["e4"]["label"] == "e4, white pawn"
