"""The harness of the browser tests: ``quantum serve`` started as a person starts it, and
Debian's chromium driven by selenium, its WebSocket traffic read from Chrome's
performance log so that a test can see every ``state`` the page was sent.

A test finds cells only by what a person or a screen reader finds them by: their
accessible names ("e2, white pawn") and ``data-cell``, and clicks them with the mouse (or
presses keys). The DOM it relies on is the contract of the play page (docs/web.md, the
page's ``#game`` root and its ``role="gridcell"`` cells).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import (NoAlertPresentException,
                                        StaleElementReferenceException, TimeoutException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO_ROOT = Path(__file__).resolve().parents[2]
QUANTUM = REPO_ROOT / ".venv" / "bin" / "quantum"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROME_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync")
SERVING = re.compile(r"Quantum is serving at (http://[\d.]+:(\d+)/)")
WAIT_S = 15.0               # the longest a page may take to show what a test waits for
START_S = 60.0              # the longest ``quantum serve`` may take to listen
# The names the contract gives pieces in cells' accessible names (docs/web.md), written
# out here rather than taken from the server, so that the tests judge it.
PIECE_NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen",
               "k": "king", "a": "archbishop", "c": "chancellor"}
LABEL = re.compile(r"^([a-l](?:[1-9]|1[01]?)), (empty|fog|(?:white|black) (?:%s))$"
                   % "|".join(PIECE_NAMES.values()))
CELL = '[role="gridcell"]'


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (path.exists() and os.access(path, os.X_OK)):
            return f"{path} is not installed (Debian's chromium and chromium-driver)"
    if not QUANTUM.exists():
        return f"{QUANTUM} is missing: build the .venv with scripts/setup-env"
    return None


def label(cell: str, letter: str | None, fogged: bool = False) -> str:
    """The accessible name of ``cell`` holding the piece ``letter`` (FEN, upper case
    White; None: empty) or in fog."""
    if fogged:
        return f"{cell}, fog"
    if letter is None:
        return f"{cell}, empty"
    colour = "white" if letter.isupper() else "black"
    return f"{cell}, {colour} {PIECE_NAMES[letter.lower()]}"


def expected_label(state: dict, cell: str) -> str:
    """The accessible name a page must give ``cell`` when it shows ``state``."""
    return label(cell, state["pieces"].get(cell), cell in state["fog"])


# -- the server ----------------------------------------------------------------------------
class QuantumServer:
    """``quantum serve --port 0`` in a subprocess: the address it prints, and its end."""

    def __init__(self):
        self.proc = subprocess.Popen([str(QUANTUM), "serve", "--port", "0"], cwd=REPO_ROOT,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.output: list[str] = []
        self.url = self._address()
        threading.Thread(target=self._drain, daemon=True).start()

    def _address(self) -> str:
        found: list[str] = []

        def read():
            for line in self.proc.stdout:
                self.output.append(line)
                match = SERVING.search(line)
                if match:
                    found.append(match.group(1))
                    return
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(START_S)
        if not found:
            self.stop()
            raise RuntimeError("quantum serve printed no address:\n" + "".join(self.output))
        return found[0]

    def _drain(self) -> None:
        for line in self.proc.stdout:
            self.output.append(line)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)


# -- the browser --------------------------------------------------------------------------------
def start_chrome(width: int = 1280, height: int = 900) -> tuple[webdriver.Chrome, str]:
    """Headless chromium with its performance log on; its profile folder (to remove)."""
    profile = tempfile.mkdtemp(prefix="quantum-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_window_size(width, height)
    return driver, profile


class Browser:
    """One chromium for the whole session, pointed at one server.

    ``frames`` holds the WebSocket frames of the page opened last (and of its reloads):
    ``(direction, message)`` with direction "in" (server to page) or "out";
    ``requested`` the addresses it asked for (read from the same log)."""

    def __init__(self, server_url: str):
        self.base = server_url.rstrip("/")
        self.driver, self._profile = start_chrome()
        self._sockets: set[str] = set()
        self._frames: list[tuple[str, dict]] = []
        self.requested: list[str] = []          # every address the page asked for

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self._profile, ignore_errors=True)

    # -- pages -----------------------------------------------------------------------
    def open(self, path: str, ready: bool = True) -> None:
        """Open ``path`` of the server afresh (the frames of earlier pages dropped);
        ``ready``: wait until the page has drawn its first state."""
        self.driver.get("about:blank")
        self.driver.get_log("performance")
        self._sockets.clear()
        self._frames.clear()
        self.requested.clear()
        self.driver.get(self.base + path)
        if ready:
            self.wait_ready()

    def wait(self, condition, what: str, timeout: float = WAIT_S):
        """``condition(driver)`` once truthy; a TimeoutException saying ``what`` was
        awaited (and the page's last error) otherwise."""
        def safe(driver):
            try:
                return condition(driver)
            except StaleElementReferenceException:
                return False
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(safe)
        except TimeoutException:
            raise TimeoutException(f"waited {timeout:.0f} s for {what}; "
                                   f"#game: {self.game_attributes()}; "
                                   f"#error: {self.text('#error')!r}") from None

    def game_attributes(self) -> dict:
        return self.driver.execute_script(
            "const g = document.getElementById('game');"
            "if (!g) return null;"
            "const out = {}; for (const a of g.attributes) out[a.name] = a.value; return out;")

    def attr(self, name: str) -> str | None:
        """An attribute of the page's root ``#game`` (``ply``: ``data-ply``)."""
        return self.driver.execute_script(
            "const g = document.getElementById('game');"
            "return g ? g.getAttribute(arguments[0]) : null;", f"data-{name}")

    def wait_ready(self) -> None:
        self.wait(lambda d: self.attr("ready") == "1", "data-ready=1")

    def wait_settled(self, ply: int | None = None) -> dict:
        """Wait until the engine is not thinking (and, given ``ply``, the move list has
        reached it) and the page has drawn the last state it was sent; that state."""
        def settled(driver):
            if self.attr("thinking") != "0" or self.attr("ready") != "1":
                return False
            state = self.last_state()
            if state is None or state["thinking"]:
                return False
            shown = self.attr("ply")
            if shown != str(len(state["moves"])):
                return False
            return ply is None or int(shown) >= ply
        self.wait(settled, f"the engine idle at ply >= {ply}")
        return self.last_state()

    def wait_turn(self, side: int) -> dict:
        """Wait until ``side`` (0 White) is to move and may move now; that state."""
        colour = ("white", "black")[side]

        def ready(driver):
            state = self.last_state()
            return (state is not None and not state["thinking"] and state["turn"] == side
                    and state["legal"] and self.attr("turn") == colour
                    and self.attr("thinking") == "0"
                    and self.attr("ply") == str(len(state["moves"])))
        self.wait(ready, f"{colour} to move")
        return self.last_state()

    # -- the WebSocket traffic --------------------------------------------------------
    def frames(self) -> list[tuple[str, dict]]:
        """Every WebSocket frame of this page so far, in order."""
        for entry in self.driver.get_log("performance"):
            event = json.loads(entry["message"])["message"]
            method, params = event.get("method"), event.get("params", {})
            if method == "Network.requestWillBeSent":
                self.requested.append(params["request"]["url"])
            elif method == "Network.webSocketCreated":
                self._sockets.add(params["requestId"])
                self.requested.append(params["url"])
            elif method in ("Network.webSocketFrameReceived", "Network.webSocketFrameSent"):
                if params["requestId"] not in self._sockets:
                    continue
                payload = params["response"].get("payloadData", "")
                try:
                    message = json.loads(payload)
                except ValueError:
                    continue
                self._frames.append(("in" if method.endswith("Received") else "out",
                                     message))
        return list(self._frames)

    def received(self, kind: str = "state") -> list[dict]:
        return [m for d, m in self.frames() if d == "in" and m.get("t") == kind]

    def sent(self, kind: str | None = None) -> list[dict]:
        return [m for d, m in self.frames() if d == "out" and kind in (None, m.get("t"))]

    def last_state(self) -> dict | None:
        states = self.received("state")
        return states[-1] if states else None

    def layout(self) -> dict:
        layouts = self.received("layout")
        assert layouts, "the page was sent no layout"
        return layouts[-1]

    # -- the DOM ---------------------------------------------------------------------------
    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css: str):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def text(self, css: str) -> str | None:
        """The visible text of the first element matching ``css``, None when none is."""
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]);"
            "return e ? (e.innerText || e.textContent).trim() : null;", css)

    def shown(self, css: str) -> bool:
        """Whether an element matching ``css`` is on the page and displayed."""
        found = self.find_all(css)
        return bool(found) and found[0].is_displayed()

    def cells(self) -> dict[str, dict]:
        """``{data-cell: {"label", "classes", "tabindex"}}`` of every cell on the board."""
        return self.driver.execute_script(
            "const out = {};"
            "for (const c of document.querySelectorAll('#board [role=\"gridcell\"]'))"
            "  out[c.getAttribute('data-cell')] = {label: c.getAttribute('aria-label'),"
            "    classes: Array.from(c.classList), tabindex: c.getAttribute('tabindex')};"
            "return out;")

    def cell(self, name: str, piece_label: str | None = None):
        """The cell ``name``, found by its accessible name when ``piece_label`` (the
        label it must have) is given, else by ``data-cell``."""
        if piece_label is not None:
            return self.find(f'#board {CELL}[aria-label="{piece_label}"]')
        return self.find(f'#board {CELL}[data-cell="{name}"]')

    def classes(self, name: str) -> set[str]:
        return set(self.cells()[name]["classes"])

    def click(self, element) -> None:
        """A mouse click at the element's centre, as a person clicks."""
        ActionChains(self.driver).move_to_element(element).click().perform()

    def click_cell(self, name: str, state: dict | None = None) -> None:
        """Click the cell ``name``, found by the accessible name ``state`` gives it."""
        state = state or self.last_state()
        self.click(self.cell(name, expected_label(state, name)))

    def drag(self, source: str, target: str) -> None:
        """Drag the piece on ``source`` onto ``target`` with the mouse (cells found by
        the accessible names the last state gives them)."""
        state = self.last_state()
        start, end = (self.cell(c, expected_label(state, c)) for c in (source, target))
        ActionChains(self.driver).click_and_hold(start).move_by_offset(8, 8) \
            .move_to_element(end).release().perform()

    def confirm(self) -> None:
        """Accept the page's confirmation dialog, where it asks one."""
        try:
            self.driver.switch_to.alert.accept()
        except NoAlertPresentException:
            pass

    def press(self, *keys) -> None:
        """Keys pressed on whatever has the focus."""
        ActionChains(self.driver).send_keys(*keys).perform()

    def focused_cell(self) -> str | None:
        return self.driver.execute_script(
            "const e = document.activeElement;"
            "return e && e.getAttribute('role') === 'gridcell' ?"
            " e.getAttribute('data-cell') : null;")

    # -- moves -------------------------------------------------------------------------------
    def play(self, move: str, piece: str | None = None) -> None:
        """Make ``move`` (UCI ``e2e4``; a promotion letter or ``piece`` answers the
        promotion panel, "-" stays a pawn) by clicking its cells, then wait until the page
        has shown the move."""
        state = self.last_state()
        ply, sent = len(state["moves"]), len(self.sent("move"))
        cells = re.findall(r"[a-l]\d+", move)
        letter = piece or move[len("".join(cells)):] or None
        self.wait_still()
        self.click_cell(cells[0], state)
        self.wait(lambda d: "selected" in self.classes(cells[0]), f"{cells[0]} selected")
        self.click_cell(cells[1], state)
        if letter is not None:
            self.choose_promotion(letter)
        self.wait(lambda d: int(self.attr("ply") or 0) > ply, f"the move {move} shown")
        self.wait(lambda d: len(self.sent("move")) > sent, f"the move {move} in the log")

    def wait_still(self) -> None:
        """Wait until no piece slides on the board (a person lets it land first)."""
        self.wait(lambda d: d.execute_script(
            "const b = document.getElementById('board');"
            "return !b || b.getAnimations({subtree: true}).length === 0;"),
            "the board's animations to end")

    def choose_promotion(self, letter: str) -> None:
        self.wait(lambda d: self.shown("#promotion"), "the promotion panel")
        self.click(self.find(f'#promotion button[data-piece="{letter}"]'))

    def promotion_choices(self) -> set[str]:
        return {b.get_attribute("data-piece")
                for b in self.find_all("#promotion button[data-piece]")}


def rotation(browser: Browser, css: str) -> float | None:
    """The angle in degrees the element ``css`` is drawn turned by on screen: the
    product of its own and its ancestors' CSS transforms (None: no such element)."""
    return browser.driver.execute_script("""
        let e = document.querySelector(arguments[0]);
        if (!e) return null;
        let a = 1, b = 0, c = 0, d = 1;
        for (; e && e.nodeType === 1; e = e.parentElement) {
            const t = getComputedStyle(e).transform;
            if (!t || t === 'none') continue;
            const m = new DOMMatrix(t);
            [a, b, c, d] = [m.a * a + m.c * b, m.b * a + m.d * b,
                            m.a * c + m.c * d, m.b * c + m.d * d];
        }
        return Math.atan2(b, a) * 180 / Math.PI;""", css)


def plain_moves(state: dict) -> list[str]:
    """The state's legal moves a person makes with two clicks: no Alea jokers or
    rerolls, no promotion (whose panel a test answers on purpose)."""
    return sorted(m for m in state["legal"]
                  if re.fullmatch(r"[a-l]\d+[a-l]\d+", m))
