"""A UCI engine process seen from the host side: start it, talk to it with timeouts,
notice when it dies or hangs, and never block forever.

Used by the arbiter and the match runner for any engine (Quantum, Stockfish,
Fairy-Stockfish, a test's fake engine). Every way an engine can fail, starting included
(a command that does not parse or does not exist, a process that exits at once or never
sends ``uciok``), is an ``EngineError``. Its stderr is read all along by a thread of its
own, so the engine never blocks on a full pipe; the last ``STDERR_LINES`` lines are kept
(each cut to ``STDERR_WIDTH`` characters) and an ``EngineError`` for a dead engine carries
them, since they usually say why it died.
"""
from __future__ import annotations

import collections
import os
import queue
import shlex
import subprocess
import threading
import time

STARTUP_TIMEOUT = 15.0      # seconds to answer uci, and isready after the options
STDERR_LINES = 20           # the last lines of an engine's stderr that are kept
STDERR_WIDTH = 300          # characters kept of each (the rest of a longer line is dropped)
STDERR_DRAIN = 2.0          # seconds to wait for the last stderr of an engine that exited


class EngineError(Exception):
    """The engine died, hung past a timeout, or said something it must not. ``stderr``:
    the last lines it wrote there when it died (empty otherwise)."""

    def __init__(self, message: str, stderr=()):
        super().__init__(message)
        self.stderr = tuple(stderr)


def brief(lines, count: int = 3, width: int = 160) -> list[str]:
    """The last ``count`` non-blank ``lines``, each cut to ``width`` characters: an
    engine's stderr at a glance, for a report line."""
    kept = [line for line in lines if line.strip()][-count:]
    return [line if len(line) <= width else line[:width - 3] + "..." for line in kept]


class UciEngine:
    def __init__(self, command, name: str | None = None, options: dict | None = None,
                 cwd: str | None = None, startup_timeout: float = STARTUP_TIMEOUT):
        try:
            self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as exc:               # unbalanced quotes
            raise EngineError(f"bad engine command {command!r}: {exc}") from None
        if not self.argv:
            raise EngineError("empty engine command")
        self.name = name or os.path.basename(self.argv[0])
        self.options = dict(options or {})
        # The variant the engine was last told to play (the arbiter switches it).
        self.variant = str(self.options.get("UCI_Variant", "chess"))
        self.lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=STDERR_LINES)
        self._stderr_lock = threading.Lock()
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True, bufsize=1, cwd=cwd, errors="replace")
        except OSError as exc:                  # no such command, not executable, bad cwd
            where = f": {exc.filename}" if exc.filename else ""
            raise EngineError(f"{self.name} could not be started "
                              f"({exc.strerror or exc}{where})") from None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()
        self.id_name = None
        try:
            self.send("uci")
            for line in self.until(lambda s: s == "uciok", startup_timeout, "uciok"):
                if line.startswith("id name "):
                    self.id_name = line[8:]
            for key, value in self.options.items():
                self.send(f"setoption name {key} value {value}")
            self.ready(startup_timeout)
        except EngineError as exc:
            # The caller never gets this object, so nobody else could stop the process.
            self.kill()
            raise EngineError(str(exc), self.stderr_tail()) from None

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _read_stderr(self):
        """Drain stderr into the bounded tail: a line is read in pieces of at most
        STDERR_WIDTH characters and only its first piece is kept (marked `` ...`` when
        more followed), so neither a flood nor an endless line costs memory."""
        cut = False                 # the first piece of the current line is already kept
        for piece in iter(lambda: self.proc.stderr.readline(STDERR_WIDTH), ""):
            with self._stderr_lock:
                if not cut:
                    self._stderr.append(piece.rstrip("\r\n"))
                elif piece.strip("\r\n") and not self._stderr[-1].endswith(" ..."):
                    self._stderr[-1] += " ..."
            cut = not piece.endswith("\n")

    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote to stderr. Once it has exited, waits (at most
        STDERR_DRAIN) for the reader to reach the end, so its last words are in."""
        if self.proc.poll() is not None:
            self._stderr_reader.join(STDERR_DRAIN)
        with self._stderr_lock:
            return list(self._stderr)

    def _died(self, what: str = "") -> EngineError:
        """The error for an engine found dead: its exit status and its last stderr."""
        try:
            code = self.proc.wait(timeout=2)   # its output closes a moment before it exits
        except subprocess.TimeoutExpired:
            code = None
        gone = ("closed its pipes but is still running" if code is None
                else f"was killed by signal {-code}" if code < 0
                else f"exited with status {code}")
        return EngineError(f"{self.name} {gone}{what}", self.stderr_tail())

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died() from None

    def until(self, done, timeout: float, waiting_for: str = ""):
        """Yield lines until ``done(line)`` (inclusive); EngineError on death or timeout.
        ``waiting_for`` (``"uciok"``) names the awaited line in the error."""
        what = f" (waiting for {waiting_for})" if waiting_for else ""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"{self.name} did not answer in {timeout:.1f} s{what}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                # Keep the end marker for later calls; ``_died`` lets the process finish
                # exiting, since callers tell a crash from a hang by ``alive``.
                self.lines.put(None)
                raise self._died(what)
            yield line
            if done(line):
                return

    def ready(self, timeout: float = 15.0) -> None:
        self.send("isready")
        for _ in self.until(lambda s: s == "readyok", timeout, "readyok"):
            pass

    def new_game(self) -> None:
        self.send("ucinewgame")
        self.ready()

    def go(self, position: str, go_args: str, timeout: float):
        """Send a position and ``go``; return (bestmove, ponder, seconds, last info line).

        The time runs from sending ``go`` to receiving ``bestmove``. A missing bestmove
        within ``timeout`` is an EngineError (the host scores it as a time loss).
        """
        self.send(position)
        self.send(f"go {go_args}".strip())
        start = time.monotonic()
        last_info = ""
        for line in self.until(lambda s: s.startswith("bestmove"), timeout):
            if line.startswith("info") and " score " in line:
                last_info = line
            if line.startswith("bestmove"):
                parts = line.split()
                best = parts[1] if len(parts) > 1 else ""
                ponder = parts[3] if len(parts) > 3 and parts[2] == "ponder" else None
                return best, ponder, time.monotonic() - start, last_info
        raise EngineError("unreachable")

    def quit(self) -> None:
        try:
            self.send("quit")
        except EngineError:
            pass
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def kill(self) -> None:
        """Stop the process at once (for an engine that no longer answers)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None
