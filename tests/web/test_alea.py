"""Alea in the browser against Quantum at Beginner: the dice on screen, a reroll, the
free-move joker and the castle joker used through their buttons (the page must send
``reroll``, ``joker:<move>`` and ``castle:<move>``), the counts of both sides shown; and
the Quantum guide warning of a threatened queen, drawn red; the promotion die; Daily
Dice's record and share line. The positions are Alea FENs
(docs/protocol.md: the chess FEN, then moves made, last types, jokers, rerolls, castle
jokers, follow-up, dice and mode)."""
from __future__ import annotations

import datetime
from urllib.parse import quote

import pytest

from adapters.alea_referee import daily_seed

from browser import PIECE_NAMES

# Past the free opening; both sides may still castle either way, with a castle joker each.
CASTLE = ("r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 9 "
          "8/8 -/- 4/4 2/2 1/1 -/- - alea")
# White to move; the queen on d4 is attacked by the knight on c6 (tests/adapters).
QUEEN_HIT = "4k3/1p6/2n5/8/3Q4/B7/7P/R3K3 w - - 0 30 20/20 -/- 4/4 2/2 0/0 -/- - alea"
# A white pawn one step from promotion (A11: the promotion die decides the piece).
PROMOTE = "k7/4P3/8/8/8/8/8/4K3 w - - 0 30 20/20 -/- 4/4 2/2 0/0 -/- - alea"


def open_alea(browser, fen: str, guide: bool = False) -> dict:
    browser.open(f"/alea?level=beginner&fen={quote(fen)}" + ("&guide=1" if guide else ""))
    return browser.wait_turn(0)


def counts(browser) -> tuple[str, str]:
    return browser.text("#jokers-white"), browser.text("#jokers-black")


def button(browser, action: str):
    return browser.find(f'button[data-action="{action}"]')


def dice_shown(browser) -> list[str]:
    return [d.get_attribute("data-piece") for d in browser.find_all("#dice .die")]


def test_the_dice_a_reroll_and_the_free_move_joker(browser):
    state = open_alea(browser, CASTLE)
    extra = state["extra"]
    assert dice_shown(browser) == extra["dice"] and len(extra["dice"]) == 2
    before = counts(browser)
    assert all(before) and "4" in before[0] and "2" in before[0]

    browser.click(button(browser, "reroll"))
    browser.wait(lambda d: browser.last_state()["extra"]["rerolls"][0] == 1, "the reroll")
    state = browser.wait_turn(0)
    assert [m["move"] for m in browser.sent("move")] == ["reroll"]
    assert state["moves"] == [[0, "reroll", "reroll"]]
    assert dice_shown(browser) == state["extra"]["dice"]
    assert counts(browser)[0] != before[0] and counts(browser)[1] == before[1]

    # A move only the joker allows: its plain form is not legal with these dice.
    joker = next(m for m in state["legal"] if m.startswith("joker:")
                 and m[len("joker:"):] not in state["legal"] and not m.startswith("joker:e1"))
    toggle = button(browser, "joker")
    browser.click(toggle)
    browser.wait(lambda d: toggle.get_attribute("aria-pressed") == "true", "the joker on")
    browser.play(joker[len("joker:"):])
    assert browser.sent("move")[-1]["move"] == joker
    state = browser.wait_settled(ply=3)
    assert state["moves"][1][1] == joker and state["extra"]["jokers"][0] == 3
    assert state["moves"][1][2].endswith("(joker)")
    assert state["moves"][2][0] == 1, "the engine did not answer"
    assert "3" in counts(browser)[0]
    assert toggle.get_attribute("aria-pressed") != "true"


def test_the_castle_joker_and_its_follow_up(browser):
    state = open_alea(browser, CASTLE)
    assert "castle:e1g1" in state["legal"] and "e1g1" not in state["legal"]
    toggle = button(browser, "castle")
    browser.click(toggle)
    browser.wait(lambda d: toggle.get_attribute("aria-pressed") == "true", "castle on")
    browser.play("e1g1")
    assert browser.sent("move")[-1]["move"] == "castle:e1g1"
    state = browser.wait_settled(ply=2)
    assert state["extra"]["castle_jokers"][0] == 0
    assert browser.cells()["g1"]["label"] == "g1, white king"
    assert browser.cells()["f1"]["label"] == "f1, white rook"
    assert state["moves"][0][2].startswith("O-O")
    assert [li.text for li in browser.find_all("ol#moves li")][0] == state["moves"][0][2]
    assert state["extra"]["follow_up"][0] == ["f1", "g1"]
    browser.wait(lambda d: browser.shown("#follow-up"), "the castle follow-up shown")
    assert button(browser, "castle").get_attribute("disabled") is not None


@pytest.mark.parametrize("guide", [True, False])
def test_the_guide_warns_of_a_threatened_queen(browser, guide):
    state = open_alea(browser, QUEEN_HIT, guide)
    cells = browser.cells()
    if not guide:
        assert state["guide"]["on"] is False
        assert "threat" not in cells["d4"]["classes"]
        return
    notes = state["guide"]["notes"]
    assert notes and notes[0]["kind"] == "threat" and notes[0]["piece"] == "queen"
    browser.wait(lambda d: browser.find_all('#guide li[data-kind="threat"]'), "the warning")
    items = browser.find_all("#guide li")
    assert items[0].get_attribute("data-kind") == "threat"
    assert "queen" in items[0].text.lower()
    assert [li.get_attribute("data-kind") for li in items] == [n["kind"] for n in notes]
    assert "threat" in cells["d4"]["classes"], cells["d4"]
    assert [name for name, c in cells.items() if "threat" in c["classes"]] == ["d4"]
    assert button(browser, "guide").get_attribute("aria-pressed") == "true"


def test_the_promotion_die_decides_without_a_panel(browser):
    state = open_alea(browser, PROMOTE)
    assert "e7e8" in state["legal"] and not any(m.startswith("e7e8") and len(m) == 5
                                                for m in state["legal"])
    browser.play("e7e8")
    assert browser.sent("move")[-1]["move"] == "e7e8" and not browser.shown("#promotion")
    state = browser.wait_settled(ply=1)
    die = state["extra"]["promotion"]
    assert die["cell"] == "e8" and die["piece"] in "nbrq"
    name = PIECE_NAMES[die["piece"]]
    assert browser.cells()["e8"]["label"] == f"e8, white {name}"     # the king is far
    browser.wait(lambda d: browser.shown("#promotion-die"), "the promotion die shown")
    shown = browser.find("#promotion-die")
    assert shown.get_attribute("data-piece") == die["piece"] and name in shown.text.lower()


def test_daily_dice_records_the_game_and_offers_a_share_line(browser):
    browser.open("/alea?daily=1")
    state = browser.wait_turn(0)
    assert state["setup"]["daily"] and state["setup"]["level"] == "normal"
    browser.click(browser.find('button[data-action="resign"]'))
    browser.confirm()
    browser.wait(lambda d: browser.shown("#daily") and browser.text("#daily"), "#daily")
    daily = browser.last_state()["daily"]
    assert state["extra"]["seed"] == daily_seed(datetime.date.fromisoformat(daily["date"]))
    assert daily["share"] and daily["share"].startswith("Quantum Alea Daily")
    assert daily["share"] in browser.text("#daily")
    assert browser.find_all("#daily button"), "no copy button for the share line"
