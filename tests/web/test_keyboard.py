"""The whole move from the keyboard: Tab into the board, arrow keys to a piece, Enter to
select it, arrows to a target, Enter to move; Escape cancels a selection. No mouse. On
the hex board an arrow key goes to the neighbour nearest its screen direction."""
from __future__ import annotations

import math

from selenium.webdriver.common.keys import Keys

FILES = "abcdefgh"
ARROWS = {Keys.ARROW_RIGHT: (1, 0), Keys.ARROW_LEFT: (-1, 0), Keys.ARROW_UP: (0, -1),
          Keys.ARROW_DOWN: (0, 1)}            # screen directions, y down


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


def hex_walk_to(browser, target: str, steps: int = 40) -> None:
    """Arrow keys from the focused hex cell to ``target``: each press must take the focus
    to a neighbour nearer the target in the pressed screen direction (White at the
    bottom; a cell's centre at (1.5 x, -y sqrt(3)/2), docs/web.md)."""
    where = {c["n"]: (1.5 * c["x"], -c["y"] * math.sqrt(3) / 2)
             for c in browser.layout()["cells"]}
    for _ in range(steps):
        here = browser.focused_cell()
        if here == target:
            return
        (x0, y0), (x1, y1) = where[here], where[target]
        toward = sorted(ARROWS, key=lambda k: -(ARROWS[k][0] * (x1 - x0)
                                                + ARROWS[k][1] * (y1 - y0)))[0]
        browser.press(toward)
        browser.wait(lambda d: browser.focused_cell() != here, f"the focus to leave {here}")
        moved = browser.focused_cell()
        (x2, y2), (dx, dy) = where[moved], ARROWS[toward]
        assert math.dist((x2, y2), (x0, y0)) < 2.0, f"{here} -> {moved} is no neighbour"
        assert (x2 - x0) * dx + (y2 - y0) * dy > 0, f"{here} -> {moved} against the key"
    raise AssertionError(f"{steps} arrow keys never reached {target}")


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


def test_a_hex_move_by_keyboard_only(browser):
    browser.open("/hexagonal?mode=local")
    browser.wait_turn(0)
    tab_into_the_board(browser)
    hex_walk_to(browser, "f5")
    browser.press(Keys.ENTER)
    browser.wait(lambda d: "selected" in browser.classes("f5"), "f5 selected")
    hex_walk_to(browser, "f6")
    browser.press(Keys.ENTER)
    browser.wait(lambda d: browser.attr("ply") == "1", "the move")
    assert browser.sent("move")[0]["move"] == "f5f6"
    assert browser.cells()["f6"]["label"] == "f6, white pawn"
