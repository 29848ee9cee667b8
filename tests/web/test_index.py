"""The index page lists the five games, each a working link to its board; a page asked
for a game the server refuses shows the error and can still start a good one; no page
asks anything of another host."""
from __future__ import annotations

import pytest
from selenium.webdriver.support.ui import Select

GAMES = ("chess", "grand", "hexagonal", "fogofwar", "alea")


def test_the_index_links_every_game(browser):
    for game in GAMES:
        browser.open("/", ready=False)
        links = browser.find_all(f'a[href="/{game}"]')
        assert links, f"no link to /{game}"
        browser.click(links[0])
        browser.wait(lambda d: d.current_url.split("?")[0].endswith(f"/{game}"),
                     f"the /{game} page")
        browser.wait_ready()
        assert browser.attr("game") == game
        assert browser.received("layout") and browser.last_state()["game"] == game
    browser.open("/", ready=False)
    assert len(browser.find_all("a[href]")) >= len(GAMES)
    assert browser.driver.find_element("css selector", "html").get_attribute("lang") \
        in ("en", "tr")


@pytest.mark.parametrize("query, words", [("level=foo", "level"),
                                          ("fen=no-such-position", "start position")])
def test_a_refused_setting_shows_the_error_and_the_page_recovers(browser, query, words):
    browser.open(f"/chess?{query}", ready=False)
    browser.wait(lambda d: browser.shown("#error") and browser.text("#error"), "#error")
    assert browser.find("#error").get_attribute("role") == "alert"
    assert words in browser.text("#error")
    assert browser.received("error") and not browser.received("state")
    menu = browser.find("#menu")
    Select(menu.find_element("css selector", 'select[name="level"]')).select_by_value(
        "beginner")
    browser.click(menu.find_element("css selector", 'button[data-action="start"]'))
    browser.wait(lambda d: "level=beginner" in d.current_url, "the new query string")
    browser.wait_ready()
    state = browser.wait_turn(0)
    assert state["setup"]["level"] == "beginner"
    browser.play("e2e4")
    browser.wait_settled(ply=2)


def test_the_pages_ask_nothing_of_any_other_host(browser):
    """No CDN, no font service: every request of the index and a page of each game goes
    to this server (its WebSocket included)."""
    host = browser.base.split("//", 1)[1]
    for path in ("/", *(f"/{game}?mode=local" for game in GAMES)):
        browser.open(path, ready=path != "/")
        browser.frames()
        assert browser.requested, path
        strangers = [url for url in browser.requested
                     if url.split("//", 1)[-1].split("/", 1)[0] != host
                     and not url.startswith(("data:", "blob:", "about:"))]
        assert not strangers, f"{path} asked {strangers}"
        assert any(url.startswith("ws://") for url in browser.requested) or path == "/"
