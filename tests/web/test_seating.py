"""Two people at one device: face to face, the far player's bar (its buttons and clock),
the black pieces and a copy of the result are drawn turned 180° toward them; side by side
nothing is turned."""
from __future__ import annotations

import pytest

from browser import rotation


def piece_turn(browser, cell: str):
    """The angle the piece drawn in ``cell`` (its picture) is turned by on screen."""
    return browser.driver.execute_script("""
        const c = document.querySelector('#board [data-cell="' + arguments[0] + '"]');
        const p = c && c.querySelector('image, use');
        if (!p) return null;
        const m = p.getCTM ? p.getCTM() : null;
        return m ? Math.atan2(m.b, m.a) * 180 / Math.PI : null;""", cell)


@pytest.mark.parametrize("seating, turned", [("face", 180.0), ("side", 0.0)])
def test_face_to_face_turns_the_far_players_side(browser, seating, turned):
    browser.open(f"/chess?mode=local&seating={seating}&clock=300%2B5")
    assert browser.attr("seating") == seating
    for part in ("#bar-black", "#clock-black"):
        angle = rotation(browser, part)
        assert angle is not None, f"no {part}"
        assert abs(abs(angle) - turned) < 0.5, f"{part} turned {angle}° in {seating} seating"
    for part in ("#bar-white", "#clock-white", "#board"):
        assert abs(rotation(browser, part)) < 0.5, f"{part} turned"
    assert browser.find_all('#bar-black button[data-action="resign"][data-side="b"]')
    assert browser.find_all('#bar-white button[data-action="resign"][data-side="w"]')
    white, black = piece_turn(browser, "e1"), piece_turn(browser, "e8")
    assert white is not None and black is not None, "no piece element found in a cell"
    assert abs(white) < 0.5 and abs(abs(black) - turned) < 0.5, (white, black)


def result_turns(browser) -> list[float]:
    """The angles of the displayed, worded parts of the result box."""
    return browser.driver.execute_script("""
        const out = [];
        for (const e of document.querySelectorAll('#result *')) {
            if (!e.offsetParent || !e.textContent.trim() || e.children.length) continue;
            let a = 1, b = 0, c = 0, d = 1;
            for (let p = e; p && p.nodeType === 1; p = p.parentElement) {
                const t = getComputedStyle(p).transform;
                if (!t || t === 'none') continue;
                const m = new DOMMatrix(t);
                [a, b, c, d] = [m.a * a + m.c * b, m.b * a + m.d * b,
                                m.a * c + m.c * d, m.b * c + m.d * d];
            }
            out.push(Math.round(Math.abs(Math.atan2(b, a) * 180 / Math.PI)));
        }
        return out;""")


@pytest.mark.parametrize("seating, turns", [("face", {0, 180}), ("side", {0})])
def test_the_result_box_faces_both_players_face_to_face(browser, seating, turns):
    browser.open(f"/hexagonal?mode=local&seating={seating}")
    browser.wait_turn(0)
    browser.click(browser.find('#bar-white button[data-action="resign"][data-side="w"]'))
    browser.confirm()
    browser.wait(lambda d: browser.shown("#result"), "the result box")
    assert set(result_turns(browser)) == turns
