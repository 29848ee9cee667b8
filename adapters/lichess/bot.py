"""The bot: one thread reads the account's event stream and hands events to the main loop,
which accepts or declines challenges and starts two threads per game: one reads the
game's stream, the other runs the game's own Quantum process (UciEngine) and posts moves
and draw answers. Every stream is reopened when it drops; the decisions live in
``policy``.
"""
from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Iterator

import berserk
import requests
from berserk.clients.base import BaseClient
from berserk.exceptions import ApiError, ResponseError
from berserk.formats import FormatHandler

from adapters.lichess import policy
from adapters.uci_engine import EngineError, UciEngine

log = logging.getLogger("lichess")

CONNECT_TIMEOUT = 10.0      # seconds to open a connection
READ_TIMEOUT = 30.0         # seconds of silence before a stream counts as dropped
                            # (lichess sends a keep-alive newline every few seconds)
BACKOFF = (0.5, 1, 2, 5, 10)    # seconds between reconnection attempts
RATE_LIMIT_PAUSE = 60.0     # seconds to wait after HTTP 429 without Retry-After
MAX_RECONNECTS = 20         # consecutive failures before a game stream is given up
USER_AGENT_VERSION = "0.1"
CAPABILITIES_HEADER = "X-PyChess-Bot-Capabilities"


@dataclass
class Config:
    url: str
    token: str = field(repr=False)
    engine: str
    options: dict = field(default_factory=dict)      # UCI options for every game
    challenges: policy.ChallengePolicy = field(default_factory=policy.ChallengePolicy)
    max_games: int | None = None                     # stop after this many games
    concurrency: int = 1
    movetime_ms: int = 5000                          # for games without a clock
    resign_when_mated: bool = False


class _Session(berserk.TokenSession):
    """A token session whose requests time out, so that a silent stream raises instead
    of hanging (and is reopened)."""

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", (CONNECT_TIMEOUT, READ_TIMEOUT))
        return super().request(*args, **kwargs)


def event_of(line: bytes, stream: str) -> dict | None:
    """One NDJSON line of a stream as an event; None for a keep-alive, and for a line that
    is not a JSON object (logged), which is skipped rather than ending the stream."""
    if not line.strip():
        return None
    try:
        event = json.loads(line)
    except ValueError:                  # also bytes that are not UTF-8
        log.warning("%s: ignoring a line that is not JSON: %r", stream, line[:200])
        return None
    if not isinstance(event, dict):
        log.warning("%s: ignoring a line that is not a JSON object: %r", stream, line[:200])
        return None
    return event


class _Lines(FormatHandler):
    """An NDJSON stream read line by line through ``event_of`` (berserk's own reader
    raises on the first malformed line, which would end the stream's thread), as a
    generator whose ``close`` closes the connection (pychess.org keeps a game's stream
    open after its end)."""

    def __init__(self, stream: str):
        super().__init__(mime_type="application/x-ndjson")
        self.stream = stream

    def handle(self, response, is_stream, converter=None):
        return self.parse_stream(response) if is_stream else self.parse(response)

    def parse_stream(self, response) -> Iterator[dict | None]:
        try:
            for line in response.iter_lines():
                yield event_of(line, self.stream)
        finally:
            response.close()


class _Api(BaseClient):
    """The Bot API requests the bridge makes itself, their JSON left as the server sent it
    (berserk's conversions raise on odd values): the account, the games in progress, both
    streams (yielding None at each keep-alive, so that their readers can check for news),
    and the draw answer berserk lacks."""

    def account(self):
        return self._r.get("/api/account")

    def playing(self) -> set:
        """The ids of the account's games in progress."""
        games = policy.obj(self._r.get("/api/account/playing")).get("nowPlaying")
        return {policy.text(g.get("gameId")) or policy.text(g.get("id"))
                for g in (games if isinstance(games, list) else ()) if isinstance(g, dict)}

    def events(self) -> Iterator[dict | None]:
        return self._r.get("/api/stream/event", stream=True, fmt=_Lines("event stream"))

    def game_stream(self, game_id: str) -> Iterator[dict | None]:
        return self._r.get(f"/api/bot/game/stream/{game_id}", stream=True,
                           fmt=_Lines(f"game {game_id}"))

    def answer_draw(self, game_id: str, accept: bool) -> None:
        self._r.post(f"/api/bot/game/{game_id}/draw/{'yes' if accept else 'no'}")


def make_client(config: Config, username: str = "") -> tuple[berserk.Client, _Api]:
    """A client of its own for each thread (requests sessions are not thread-safe). The
    User-Agent names the program and the bot, as lichess asks, for server operators'
    logs. Every request carries pychess.org's capability header: its event stream
    refuses a bot without it (it reads it nowhere else; lichess ignores it)."""
    session = _Session(config.token)
    session.headers["User-Agent"] = f"quantum-lichess-bridge/{USER_AGENT_VERSION} user:{username}"
    session.headers[CAPABILITIES_HEADER] = policy.pychess_capabilities(
        config.challenges.variants)
    base = config.url.rstrip("/") + "/"
    return berserk.Client(session, base_url=base), _Api(session, base_url=base)


def _retry_delay(failures: int, exc: Exception | None = None) -> float:
    """Seconds to wait before the next attempt: a growing pause; after HTTP 429 what the
    server's Retry-After says, else a full minute (as lichess asks)."""
    if isinstance(exc, ResponseError) and exc.status_code == 429:
        return policy.retry_after(exc.response.headers.get("Retry-After"), RATE_LIMIT_PAUSE)
    return BACKOFF[min(failures, len(BACKOFF)) - 1]


def _is_final(exc: Exception) -> bool:
    """An HTTP 4xx answer that retrying the same request cannot change: not 429, nor 409,
    pychess.org's answer to a reopened game stream while it still counts the dropped one
    as open."""
    return (isinstance(exc, ResponseError) and 400 <= exc.status_code < 500
            and exc.status_code not in (409, 429))


def _brief(exc: Exception) -> str:
    """An error in a word or two: the HTTP status, or the exception's type."""
    return f"HTTP {exc.status_code}" if isinstance(exc, ResponseError) else type(exc).__name__


def _describe(exc: Exception) -> str:
    """An error for the log, with the server's own words when it answered in plain text
    (as pychess.org does to say why it refuses an event stream)."""
    if isinstance(exc, ResponseError) and exc.cause is None:
        said = " ".join(exc.response.text.split())[:300]
        if said:
            return f"{exc}: {said}"
    return str(exc)


class _Server:
    """What the bridge learns about the server as it plays, shared by all its games."""

    def __init__(self, url: str):
        self.url = url
        self.lock = threading.Lock()
        self.draw_answers = True            # False once the draw endpoint proved missing

    def lacks_draw_endpoint(self, exc: Exception) -> None:
        """The draw answer got 404 or 405: the server has no such endpoint (pychess.org
        has none). Say so once; no more draw answers go to it."""
        with self.lock:
            if self.draw_answers:
                self.draw_answers = False
                log.warning("%s takes no draw answers (%s); draw offers are declined by "
                            "playing on from now on", self.url, _brief(exc))


class Game:
    """One game. A reader thread follows the game's stream (``_read``) and hands its events
    to ``run``, which plays them with the game's own engine. The reader sees the game end
    even while the engine thinks, and then stops the search: its move could not be played.
    """

    def __init__(self, config: Config, game_id: str, username: str, server: _Server):
        self.config, self.id, self.username, self.server = config, game_id, username, server
        self.me = username.lower()
        self.client, self.api = make_client(config, username)
        self.engine: UciEngine | None = None
        self.color = "white"
        self.initial_fen = "startpos"
        self.chess960 = False                   # UCI_Chess960, castles king-takes-rook
        self.score: policy.Score | None = None
        self.moved_at: int | None = None        # plies on the board when we last moved
        self.draw_answered_at: int | None = None
        self.status = "started"
        self.done = False                       # nothing more to play
        self.unplayable = False                 # withdrawn (a variant or an engine that
                                                # cannot play): being left
        self.inbox: queue.Queue = queue.Queue()  # the reader's events; None when it stops
        self.over = threading.Event()           # the game is over or left: stop reading,
                                                # reconnecting and thinking
        self.lock = threading.Lock()            # engine and thinking, shared with the reader
        self.thinking = False
        self.finished_as: str | None = None     # the status the event stream's gameFinish gave

    def run(self) -> str:
        """Play until the game ends (or cannot go on); return its last status."""
        threading.Thread(target=self._read, name=f"stream-{self.id}", daemon=True).start()
        try:
            while not self.done:
                event = self.inbox.get()
                if event is None:
                    break
                try:
                    self.handle(event)
                except EngineError as exc:
                    log.error("game %s: the engine cannot play: %s", self.id, exc)
                    self.withdraw("the engine cannot play")
        finally:
            self._stop()
            with self.lock:
                engine = self.engine
            if engine is not None:
                engine.quit()
        if self.status == "started" and self.finished_as:
            self.status = self.finished_as
            log.info("game %s: over, %s (from the event stream)", self.id, self.status)
        return self.status

    def finish(self, status: str) -> None:
        """The event stream says the game is over (its stream may not, or not yet)."""
        self.finished_as = status
        self._stop()

    def _stop(self) -> None:
        """The game is over: no more reading, reconnecting or thinking; a search in
        progress is stopped at once (its move could not be played)."""
        with self.lock:
            self.over.set()
            if self.thinking and self.engine is not None:
                log.info("game %s: over while the engine thinks; stopping it", self.id)
                self.engine.kill()

    def _read(self) -> None:
        """Follow the game's stream into the inbox until the game ends, reopening it when
        it drops, after a pause. MAX_RECONNECTS streams in a row that end with their
        gameFull give the game up; one that lives on (a keep-alive or a state after it)
        resets the count, however long the game. A stream the server closes ends the game
        unless the server still lists it in progress (lichess closes a game's stream at its
        end)."""
        _, api = make_client(self.config, self.username)
        failures = 0
        try:
            while not self.over.is_set():
                error = None
                try:
                    with contextlib.closing(api.game_stream(self.id)) as stream:
                        for lines, event in enumerate(stream):
                            if lines:
                                failures = 0        # this stream lives past its gameFull
                            if event is not None:
                                self.inbox.put(event)
                                if policy.game_over(event):
                                    self._stop()
                                    return
                            if self.over.is_set():
                                return
                    if not self._in_progress(api):
                        log.info("game %s: its stream was closed and it is not in progress "
                                 "any more; leaving it", self.id)
                        return
                    log.info("game %s: stream ended, reconnecting", self.id)
                except (ApiError, requests.RequestException) as exc:
                    if _is_final(exc):
                        log.warning("game %s: %s; leaving the game", self.id, _describe(exc))
                        return
                    log.info("game %s: stream dropped (%s), reconnecting", self.id, _brief(exc))
                    error = exc
                failures += 1
                if failures > MAX_RECONNECTS:
                    log.error("game %s: gave up after %d reconnections", self.id, MAX_RECONNECTS)
                    return
                self.over.wait(_retry_delay(failures, error))
        finally:
            self.inbox.put(None)

    def _in_progress(self, api: _Api) -> bool:
        """Whether the server lists the game among the account's games in progress; True
        when it cannot tell, so that the stream is tried again."""
        try:
            return self.id in api.playing()
        except (ApiError, requests.RequestException) as exc:
            log.info("game %s: cannot list the games in progress (%s)", self.id,
                     _describe(exc))
            return True

    def handle(self, event: dict) -> None:
        """One event of the game's stream, in the game thread."""
        over = policy.game_over(event)
        if over is not None:
            self.status, winner = over
            self.done = True
            log.info("game %s: over, %s%s", self.id, self.status,
                     f", {winner} wins" if winner else "")
            return
        kind = event.get("type")
        if kind == "gameFull":
            self.start(event)
            if not self.done:
                self.on_state(policy.obj(event.get("state")))
        elif kind == "gameState":
            self.on_state(event)
        elif kind == "opponentGone":
            log.info("game %s: opponent gone: %s", self.id, event.get("gone"))

    def start(self, full: dict) -> None:
        """Our colour and the start position from a gameFull; the engine, once."""
        key = policy.variant_key(full.get("variant"), full.get("chess960"))
        variant = policy.VARIANTS.get(key)
        self.chess960 = key in policy.CHESS960
        white = policy.obj(full.get("white"))
        white_id = (policy.text(white.get("id")) or policy.text(white.get("name"))).lower()
        self.color = "white" if white_id == self.me else "black"
        self.initial_fen = policy.text(full.get("initialFen")) or "startpos"
        if variant is None:
            if not self.unplayable:
                self.withdraw(f"variant {key} is not supported")
            return
        if self.engine is None:             # a reconnection keeps the engine
            chess960 = {"UCI_Chess960": "true"} if self.chess960 else {}
            engine = UciEngine(self.config.engine,
                               options={**self.config.options, "UCI_Variant": variant,
                                        **chess960})
            engine.new_game()
            with self.lock:
                self.engine = engine
            opponent = policy.obj(full.get("black" if self.color == "white" else "white"))
            log.info("game %s: %s as %s against %s", self.id, key, self.color,
                     policy.text(opponent.get("name")) or "?")

    def withdraw(self, why: str) -> None:
        """Abort a game we cannot play (a variant not accepted here, an engine that does
        not run), or resign it when it can no longer be aborted, so that the opponent is
        not left waiting for our clock; its stream then brings the end. If neither works,
        just leave it."""
        self.unplayable = True
        for verb, request in (("aborting", self.client.bots.abort_game),
                              ("resigning", self.client.bots.resign_game)):
            try:
                request(self.id)
            except (ApiError, requests.RequestException) as exc:
                log.info("game %s: %s failed: %s", self.id, verb, _describe(exc))
                continue
            log.warning("game %s: %s; %s it", self.id, why, verb)
            return
        log.warning("game %s: %s; leaving it", self.id, why)
        self.done = True

    def on_state(self, state: dict) -> None:
        """Answer a standing draw offer, and move when it is our turn (once per position)."""
        if self.unplayable:
            return
        moves = policy.text(state.get("moves")).split()
        offered = state.get("bdraw" if self.color == "white" else "wdraw") is True
        if offered and self.draw_answered_at != len(moves):
            self.answer_draw(len(moves))
        if (policy.side_to_move(self.initial_fen, moves) == self.color
                and self.moved_at != len(moves)):
            self.play(state, moves)

    def answer_draw(self, plies: int) -> None:
        """Accept or decline the offer by ``policy.accept_draw``, where the server can."""
        self.draw_answered_at = plies
        if not self.server.draw_answers:
            log.debug("game %s: draw offer at ply %d left to the next move", self.id, plies)
            return
        accept = policy.accept_draw(self.score, plies)
        log.info("game %s: draw offer %s (score %s)", self.id,
                 "accepted" if accept else "declined", self.score)
        try:
            self.api.answer_draw(self.id, accept)
        except (ApiError, requests.RequestException) as exc:
            if isinstance(exc, ResponseError) and exc.status_code in (404, 405):
                self.server.lacks_draw_endpoint(exc)
            else:
                log.warning("game %s: draw answer failed: %s", self.id, _describe(exc))

    def play(self, state: dict, moves: list) -> None:
        """Search the position (unless the game is over) and post the move."""
        go_args = policy.go_command(state, self.config.movetime_ms)
        position = policy.position_command(
            self.initial_fen, policy.engine_moves(self.initial_fen, moves, self.chess960))
        with self.lock:
            if self.over.is_set():
                return                          # the reader has seen the end already
            self.thinking = True
        try:
            found = self._search(position, go_args)
        finally:
            with self.lock:
                self.thinking = False
        if found is None or self.over.is_set():
            return                              # over during the search: nothing to post
        best, _, _, info = found
        self.score = policy.parse_score(info) or self.score
        self.moved_at = len(moves)
        if best in ("", "(none)", "0000"):
            return
        if (self.config.resign_when_mated and self.score is not None
                and self.score.mate is not None and self.score.mate < 0):
            log.info("game %s: mated in %d; resigning", self.id, -self.score.mate)
            try:
                self.client.bots.resign_game(self.id)
            except (ApiError, requests.RequestException) as exc:
                log.warning("game %s: resigning failed: %s", self.id, _describe(exc))
            return
        self.post_move(best)

    def _search(self, position: str, go_args: str):
        """The engine's ``go`` answer, restarting a failed engine once (a second failure
        is an EngineError: the game is withdrawn); None when the game ended meanwhile."""
        timeout = policy.think_timeout(go_args, self.color)
        for attempt in (1, 2):
            try:
                return self.engine.go(position, go_args, timeout)
            except EngineError as exc:
                if self.over.is_set():
                    return None                 # stopped by the reader
                if attempt == 2:
                    raise
                log.error("game %s: engine failed (%s); restarting it", self.id, exc)
                self.engine.kill()
                engine = UciEngine(self.config.engine, options=self.engine.options)
                with self.lock:
                    self.engine = engine
                if self.over.is_set():
                    return None
        return None

    def post_move(self, move: str) -> None:
        """Post the move, trying again after a dropped request, twice at most."""
        for attempt in (1, 2, 3):
            try:
                self.client.bots.make_move(self.id, move)
                return
            except (ApiError, requests.RequestException) as exc:
                if _is_final(exc) or attempt == 3:
                    log.warning("game %s: move %s refused: %s", self.id, move, _describe(exc))
                    return
                if self.over.wait(_retry_delay(attempt, exc)):
                    return


class Bot:
    def __init__(self, config: Config):
        self.config = config
        self.client, self.api = make_client(config)
        self.server = _Server(config.url)
        self.events: queue.Queue = queue.Queue()
        self.games: dict[str, tuple[Game, threading.Thread]] = {}
        self.accepted: set[str] = set()     # accepted challenges whose game has not begun
        self.results: dict[str, str] = {}
        self.me = ""                        # account id (lower case)
        self.username = ""

    def run(self) -> int:
        """Serve until ``max_games`` games are over (forever without it); exit status."""
        try:
            account = self.api.account()
        except (ApiError, requests.RequestException) as exc:
            log.error("cannot log in to %s: %s", self.config.url, _describe(exc))
            return 1
        account = policy.obj(account)
        self.username = policy.text(account.get("username")) or policy.text(account.get("id"))
        self.me = (policy.text(account.get("id")) or self.username).lower()
        log.info("connected as %s to %s", self.username, self.config.url)
        self.client, self.api = make_client(self.config, self.username)
        threading.Thread(target=self._read_events, daemon=True).start()
        while not self._finished():
            try:
                event = self.events.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(event, Exception):
                log.error("event stream refused: %s", _describe(event))
                return 1
            self.handle(event)
        for _, thread in self.games.values():
            thread.join()
        return 1 if "error" in self.results.values() else 0

    def _finished(self) -> bool:
        limit = self.config.max_games
        return (limit is not None and len(self.results) >= limit
                and not any(t.is_alive() for _, t in self.games.values()))

    def _read_events(self) -> None:
        _, api = make_client(self.config, self.username)
        failures = 0
        while True:
            error = None
            try:
                for event in api.events():
                    if event is None:
                        continue
                    failures = 0
                    self.events.put(event)
                log.info("event stream ended, reconnecting")
            except (ApiError, requests.RequestException) as exc:
                if _is_final(exc):
                    self.events.put(exc)
                    return
                log.info("event stream dropped (%s), reconnecting", _brief(exc))
                error = exc
            failures += 1
            time.sleep(_retry_delay(failures, error))

    def _active(self) -> int:
        return sum(t.is_alive() for _, t in self.games.values())

    def handle(self, event: dict) -> None:
        kind = event.get("type")
        if kind in ("challenge", "challengeCanceled", "challengeDeclined"):
            challenge = policy.obj(event.get("challenge"))
            cid = policy.valid_id(challenge.get("id"))
            if not cid:
                log.warning("ignoring a %s event without a valid challenge id: %.200s",
                            kind, event)
            elif kind == "challenge":
                self.on_challenge(cid, challenge)
            else:
                self.accepted.discard(cid)
                log.info("%s: %s", kind, cid)
        elif kind in ("gameStart", "gameFinish"):
            game = policy.obj(event.get("game"))
            gid = policy.valid_id(game.get("gameId") or game.get("id"))
            if not gid:
                log.warning("ignoring a %s event without a valid game id: %.200s", kind, event)
            elif kind == "gameStart":
                self.start_game(gid)
            else:
                self.on_game_finish(gid, game)

    def on_challenge(self, cid: str, challenge: dict) -> None:
        challenger = policy.obj(challenge.get("challenger"))
        challenger = policy.text(challenger.get("id")) or policy.text(challenger.get("name"))
        if challenger.lower() == self.me:
            return                              # our own outgoing challenge
        reason = policy.decline_reason(challenge, self.config.challenges)
        # A challenge's game keeps its id; until its gameStart, it holds a slot too.
        busy = self._active() + len(self.accepted)
        limit = self.config.max_games
        if reason is None and (busy >= self.config.concurrency or (
                limit is not None and len(self.games) + len(self.accepted) >= limit)):
            reason = "later"
        variant = policy.variant_key(challenge.get("variant"), challenge.get("chess960"))
        try:
            if reason is None:
                log.info("accepting challenge %s (%s) from %s", cid, variant, challenger)
                self.accepted.add(cid)
                self.client.bots.accept_challenge(cid)
            else:
                log.info("declining challenge %s (%s) from %s: %s", cid, variant,
                         challenger, reason)
                self.client.bots.decline_challenge(cid, reason=reason)
        except (ApiError, requests.RequestException) as exc:
            self.accepted.discard(cid)
            log.warning("challenge %s: %s", cid, _describe(exc))

    def on_game_finish(self, game_id: str, game: dict) -> None:
        status = policy.text(policy.obj(game.get("status")).get("name"))
        status = status if status and status != "started" else "finished"
        log.info("game %s finished (%s)", game_id, status)
        if game_id in self.games:
            self.games[game_id][0].finish(status)

    def start_game(self, game_id: str) -> None:
        self.accepted.discard(game_id)
        if game_id in self.games:
            return                              # a replay after the stream reconnected
        limit = self.config.max_games
        if limit is not None and len(self.games) >= limit:
            log.info("game %s: not played (max games reached)", game_id)
            return

        game = Game(self.config, game_id, self.username, self.server)

        def play():
            try:
                self.results[game_id] = game.run()
            except Exception:
                log.exception("game %s: failed", game_id)
                self.results[game_id] = "error"

        thread = threading.Thread(target=play, name=f"game-{game_id}", daemon=True)
        self.games[game_id] = game, thread
        thread.start()
