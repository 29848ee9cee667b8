"""A UCI engine process seen from the host side: start it, talk to it with timeouts,
notice when it dies or hangs, and never block forever.

Used by the arbiter and the match runner for any engine (Quantum, Stockfish,
Fairy-Stockfish, a test's fake engine).
"""
from __future__ import annotations

import os
import queue
import shlex
import subprocess
import threading
import time


class EngineError(Exception):
    """The engine died, hung past a timeout, or said something it must not."""


class UciEngine:
    def __init__(self, command, name: str | None = None, options: dict | None = None,
                 cwd: str | None = None, startup_timeout: float = 15.0):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.name = name or os.path.basename(self.argv[0])
        self.options = dict(options or {})
        # The variant the engine was last told to play (the arbiter switches it).
        self.variant = str(self.options.get("UCI_Variant", "chess"))
        self.lines: queue.Queue = queue.Queue()
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=cwd,
                                     errors="replace")
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.id_name = None
        try:
            self.send("uci")
            for line in self.until(lambda s: s == "uciok", startup_timeout):
                if line.startswith("id name "):
                    self.id_name = line[8:]
            for key, value in self.options.items():
                self.send(f"setoption name {key} value {value}")
            self.ready(startup_timeout)
        except EngineError:
            # The caller never gets this object, so nobody else could stop the process.
            self.kill()
            raise

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f"{self.name} is not running") from None

    def until(self, done, timeout: float):
        """Yield lines until ``done(line)`` (inclusive); EngineError on death or timeout."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"{self.name} did not answer in {timeout:.1f} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                # Keep the end marker for later calls, and let the process finish exiting:
                # its output closes a moment before it can be reaped, and callers tell a
                # crash from a hang by ``alive``.
                self.lines.put(None)
                try:
                    self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
                raise EngineError(f"{self.name} exited")
            yield line
            if done(line):
                return

    def ready(self, timeout: float = 15.0) -> None:
        self.send("isready")
        for _ in self.until(lambda s: s == "readyok", timeout):
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
