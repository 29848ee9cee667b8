"""Fixtures of the browser tests: one ``quantum serve`` and one headless chromium for
the whole session (starting them is the slow part); each test opens its own page, so
it plays its own game. Without chromium and chromedriver the tests skip, saying why."""
from __future__ import annotations

import pytest

from browser import Browser, QuantumServer, missing_browser


@pytest.fixture(scope="session")
def server(_no_profiles_in_the_real_home):
    """The server, started as a person starts it (its engines write their profiles to
    the session's temporary XDG_DATA_HOME)."""
    reason = missing_browser()
    if reason:
        pytest.skip(reason)
    serving = QuantumServer()
    yield serving
    serving.stop()


@pytest.fixture(scope="session")
def browser(server):
    chrome = Browser(server.url)
    yield chrome
    chrome.quit()
