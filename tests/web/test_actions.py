"""The action buttons. Between two people at one device: undo takes the last move back,
flip turns the board, each side's own draw button (both pressed: a draw by agreement)
and resign button end the game in the result box; the clock shows m:ss. Against the
engine, "Reset Benlik" is there only at the adaptive level and resets its profile."""
from __future__ import annotations

import re

from browser import Browser


def screen_y(browser: Browser, cell: str) -> float:
    return browser.cell(cell).rect["y"]


def side_button(browser: Browser, action: str, side: str):
    bar = "#bar-white" if side == "w" else "#bar-black"
    return browser.find(f'{bar} button[data-action="{action}"][data-side="{side}"]')


def test_undo_and_flip(browser):
    browser.open("/chess?mode=local&clock=300%2B5")
    assert re.fullmatch(r"[45]:\d\d", browser.text("#clock-white"))
    assert browser.text("#clock-black") == "5:00"
    browser.wait_turn(0)
    browser.play("e2e4")
    browser.wait_turn(1)
    browser.play("e7e5")
    browser.wait_turn(0)
    browser.click(browser.find('button[data-action="undo"]'))
    browser.wait(lambda d: browser.attr("ply") == "1", "the undo")
    state = browser.wait_turn(1)
    assert [m[1] for m in state["moves"]] == ["e2e4"]
    assert browser.cells()["e5"]["label"] == "e5, empty"
    assert browser.cells()["e7"]["label"] == "e7, black pawn"
    assert screen_y(browser, "a1") > screen_y(browser, "h8")
    browser.click(browser.find('button[data-action="flip"]'))
    browser.wait(lambda d: screen_y(browser, "a1") < screen_y(browser, "h8"), "the board flipped")


def test_a_draw_needs_both_players_and_resigning_ends_the_game(browser):
    browser.open("/grand?mode=local")
    browser.wait_turn(0)
    assert not browser.shown("#clock-white") and not browser.shown("#clock-black")
    browser.click(side_button(browser, "draw", "w"))
    browser.wait(lambda d: browser.last_state()["draw_offer"] == 0, "White's offer")
    assert browser.attr("over") == "0" and not browser.shown("#result")
    browser.click(side_button(browser, "draw", "b"))
    browser.wait(lambda d: browser.shown("#result"), "the result box")
    box = browser.find("#result")
    assert box.get_attribute("data-reason") == "agreement"
    assert box.get_attribute("data-white") == "0.5"
    assert "½" in box.text or "1/2" in box.text, box.text

    browser.open("/hexagonal?mode=local")
    browser.wait_turn(0)
    browser.click(side_button(browser, "resign", "b"))
    browser.confirm()
    browser.wait(lambda d: browser.shown("#result"), "the result box")
    box = browser.find("#result")
    assert box.get_attribute("data-reason") == "resignation"
    assert box.get_attribute("data-white") == "1"
    assert "Black" in box.text and "resign" in box.text.lower(), box.text


def test_reset_benlik_is_offered_only_against_the_adaptive_level(browser):
    browser.open("/chess?level=beginner")
    browser.wait_turn(0)
    assert not browser.shown('button[data-action="reset-adaptive"]')
    browser.open("/chess?level=adaptive")
    browser.wait_turn(0)
    reset = browser.find('button[data-action="reset-adaptive"]')
    assert reset.is_displayed() and reset.get_attribute("disabled") is None
    browser.click(reset)
    browser.confirm()
    browser.wait(lambda d: browser.last_state()["adaptive"] == ["reset"], "the reset")
    assert {"t": "reset_adaptive"} in browser.sent()
    browser.wait(lambda d: browser.shown("#adaptive") and browser.text("#adaptive"),
                 "#adaptive saying so")
