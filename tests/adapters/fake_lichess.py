"""A small Lichess-compatible Bot API server for tests, on 127.0.0.1 in a thread.

It speaks HTTP/1.1 as lichess does: the event stream and the game streams are NDJSON
with chunked transfer encoding and keep-alive newlines. It checks the bearer token,
validates every move of the bot (python-chess for lichess's variants,
``engine.board.Board`` for grand; an illegal move, one out of turn or one in a finished
game gets 400 and is listed in ``rejected``), runs both clocks from the second
move on as lichess does (a flag falls while the bot thinks, too), ends games by the
board's outcome, and plays the opponent itself: scripted moves first, then random legal
ones from a seeded generator; it may resign, offer a draw or abort.
``drop_stream_at_ply`` cuts each game stream once, mid game, without the closing chunk,
to test reconnection; ``end_stream`` ends each game stream at the game's end without
its final state (``"close"``: with the closing chunk; ``"cut"``: without);
``stream_lines`` closes each game stream once it has sent this many lines, its gameFull
and keep-alives included (a server that cannot hold a stream open); ``noise``
sends lines a bot must skip (malformed JSON, JSON that is no object, events of odd shape
or unknown type) on every stream it opens; ``refuse`` answers an endpoint's next
requests with an HTTP error. ``requests`` counts the requests to each endpoint,
``not_found`` lists the requests to no endpoint.

``pychess=True`` makes it behave as pychess.org's Bot API does (its server/bot_api.py):
the event stream wants the ``X-PyChess-Bot-Capabilities`` header (400 without it) and
announces only challenges in the variants it names; there is no draw endpoint (404);
a wrong token gets 403; events carry pychess's fields only (a gameFull's variant has
just its ``name``, players just theirs); game states always say ``started`` and a
game's end is a ``gameEnd`` line, after which the stream stays open; keep-alives are
``{"type":"ping"}`` lines; there is no gameFinish and no game in ``account/playing``;
and a game stream opened while another is open, or once after one was cut (the server
counts it open until a write to it fails), gets 409. Unlike pychess, the fake's
opponent can still offer draws (``wdraw``/``bdraw``), to test the missing endpoint.

Also enough of the rest of the API for the real lichess-bot: token test, account,
``account/playing``, chat, abort, resign, and ``offeringDraw`` on moves.

    server = FakeLichess(token="t").start()
    cid = server.challenge("standard", opponent=Opponent(resign_at_ply=30))
    ...                       # run the bot against server.url
    game = server.game_of(cid); game.status, game.moves, game.rejected
    server.stop()
"""
from __future__ import annotations

import collections
import itertools
import json
import random
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import chess
import chess.variant
from engine.board import Board

BOT_ID, BOT_NAME = "quantumbot", "QuantumBot"
OPP_ID, OPP_NAME = "randomopp", "RandomOpp"
# Lines a bot must survive: at the head of each event stream and after each gameFull.
EVENT_NOISE = (b'{"type": "challenge", "challenge": {"id": ', b"[1, 2]", b'"hello"', b"null",
               b"\xff\xfe{}", b'{"type": "challenge"}', b'{"type": "gameStart", "game": 7}',
               b'{"type": "challenge", "challenge": {"id": "../../api/x", "variant": "grand"}}',
               b'{"type": "gameFinish", "game": {"id": ["x"]}}', b'{"type": "somethingNew"}')
GAME_NOISE = (b'{"type": "gameState", "moves": ', b"[]", b"42", b"\xc3\x28", b'{"no": "type"}',
              b'{"type": "chatLine", "username": "x", "text": "hi", "room": "player"}',
              b'{"type": "opponentGone", "gone": true, "claimWinInSeconds": 30}')
CAPABILITIES_HEADER = "X-PyChess-Bot-Capabilities"
# pychess.org's names of a few of its variants, and of the lichess keys that differ.
PYCHESS_VARIANTS = {"chess", "chess960", "crazyhouse", "crazyhouse960", "grand", "grandhouse",
                    "makruk", "shogi", "xiangqi"}
PYCHESS_NAME = {"standard": "chess"}
VARIANT_NAMES = {"standard": ("Standard", "Std"), "grand": ("Grand", "Grand"),
                 "crazyhouse": ("Crazyhouse", "ZH"), "chess960": ("Chess960", "960")}


@dataclass
class Opponent:
    """What the server's own player does."""

    seed: int = 1
    script: tuple = ()                      # its first moves, played while legal
    resign_at_ply: int | None = None        # resigns on its turn once this many plies stand
    offer_draw_at_ply: int | None = None    # offers a draw with the move that brings
                                            # the game to this many plies,
    draw_offers: int = 1                    # and again with its next moves, this many
                                            # offers in all
    abort_on_start: bool = False            # aborts as soon as the bot opens the game stream


class Rules:
    """The referee's board: python-chess for lichess's variants (standard, crazyhouse...),
    Quantum's Board otherwise (grand)."""

    def __init__(self, variant: str, chess960_position: int | None = None):
        if variant == "chess960":           # lichess: X-FEN, castles king-to-rook (e1h1)
            self.chess = chess.Board.from_chess960_pos(chess960_position or 0)
        else:
            try:
                self.chess = chess.variant.find_variant(variant)()
            except ValueError:
                self.chess = None
        self.board = None if self.chess else Board(variant)
        self.initial_fen = (self.board.fen() if not self.chess else
                            self.chess.fen() if self.chess.chess960 else "startpos")

    def legal_moves(self) -> list:
        if self.chess:
            return sorted(m.uci() for m in self.chess.legal_moves)
        return sorted(self.board.legal_moves())

    def push(self, uci: str) -> None:
        if self.chess:
            self.chess.push_uci(uci)
        else:
            self.board.push(uci)

    def turn(self) -> str:
        if self.chess:
            return "white" if self.chess.turn else "black"
        return "white" if self.board.turn == "w" else "black"

    def outcome(self):
        """(status, winner or None) when the game is over by the rules, else None."""
        if self.chess:
            out = self.chess.outcome(claim_draw=True)
            if out is None:
                return None
            status = {chess.Termination.CHECKMATE: "mate",
                      chess.Termination.STALEMATE: "stalemate"}.get(out.termination, "draw")
            return status, None if out.winner is None else ("white" if out.winner else "black")
        out = self.board.outcome()
        if out is None:
            return None
        status = {"checkmate": "mate", "stalemate": "stalemate"}.get(out.termination, "draw")
        return status, None if out.winner is None else ("white", "black")[out.winner]


@dataclass
class FakeGame:
    id: str
    variant: str
    bot_color: str
    limit_ms: int
    inc_ms: int
    opponent: Opponent
    rated: bool
    speed: str
    rules: Rules = None
    moves: list = field(default_factory=list)
    bot_moves: list = field(default_factory=list)
    rejected: list = field(default_factory=list)     # (move, reason) the server refused
    draw_answers: list = field(default_factory=list)  # (plies, "yes"/"no") from the bot
    status: str = "started"
    winner: str | None = None
    clocks: dict = field(default_factory=dict)
    turn_started: float = 0.0
    draw_offer: str | None = None           # colour whose offer stands
    draw_offers_made: int = 0
    states: list = field(default_factory=list)   # every gameState sent, as dicts
    stream_opened: int = 0
    dropped: bool = False
    pychess: bool = False                   # speak as pychess.org does
    open_streams: int = 0
    stale_stream: bool = False              # pychess: a cut stream still counts as open
    created_ms: int = 0
    rng: random.Random | None = None

    @property
    def opp_color(self) -> str:
        return "black" if self.bot_color == "white" else "white"

    def state(self) -> dict:
        s = {"type": "gameState", "moves": " ".join(self.moves),
             "wtime": max(int(self.clocks["white"]), 0), "btime": max(int(self.clocks["black"]), 0),
             "winc": self.inc_ms, "binc": self.inc_ms, "status": self.status,
             "wdraw": self.draw_offer == "white", "bdraw": self.draw_offer == "black"}
        if self.winner:
            s["winner"] = self.winner
        return s

    def wire(self, state: dict) -> dict:
        """A recorded state as the stream sends it: as it is, or pychess's way (the state
        says ``started`` for ever; the end is a ``gameEnd`` line)."""
        if not self.pychess:
            return state
        if state["status"] != "started":
            return {"type": "gameEnd", "game": {"id": self.id}}
        return self._pychess_state(state)

    @staticmethod
    def _pychess_state(state: dict) -> dict:
        fields = ("type", "moves", "wtime", "btime", "winc", "binc", "wdraw", "bdraw")
        return {**{k: state[k] for k in fields}, "wtakeback": False, "btakeback": False,
                "status": "started"}

    def player(self, color: str) -> dict:
        if self.pychess:
            return {"name": BOT_NAME if color == self.bot_color else OPP_NAME}
        if color == self.bot_color:
            return {"id": BOT_ID, "name": BOT_NAME, "title": "BOT", "rating": 2000}
        return {"id": OPP_ID, "name": OPP_NAME, "title": "BOT", "rating": 1500}

    def full(self) -> dict:
        if self.pychess:
            fen = (chess.STARTING_FEN if self.rules.initial_fen == "startpos"
                   else self.rules.initial_fen)
            return {"type": "gameFull", "id": self.id,
                    "variant": {"name": PYCHESS_NAME.get(self.variant, self.variant)},
                    "white": self.player("white"), "black": self.player("black"),
                    "initialFen": fen, "createdAt": self.created_ms // 1000,
                    "state": self._pychess_state(self.state())}
        name, short = VARIANT_NAMES.get(self.variant, (self.variant, self.variant))
        return {"type": "gameFull", "id": self.id, "rated": self.rated,
                "variant": {"key": self.variant, "name": name, "short": short},
                "clock": {"initial": self.limit_ms, "increment": self.inc_ms},
                "speed": self.speed, "perf": {"name": self.speed.title()},
                "createdAt": self.created_ms,
                "white": self.player("white"), "black": self.player("black"),
                "initialFen": self.rules.initial_fen, "state": self.state()}

    def start_event(self) -> dict:
        if self.pychess:        # (pychess writes both values as strings)
            return {"type": "gameStart",
                    "game": {"id": self.id, "skill_level": "0", "chess960": "False"}}
        name, _ = VARIANT_NAMES.get(self.variant, (self.variant, self.variant))
        return {"type": "gameStart", "game": {
            "gameId": self.id, "fullId": self.id + "abcd", "id": self.id,
            "color": self.bot_color, "fen": self.rules.initial_fen, "hasMoved": False,
            "isMyTurn": self.rules.turn() == self.bot_color, "lastMove": "",
            "opponent": {"id": OPP_ID, "username": OPP_NAME, "rating": 1500},
            "perf": self.speed, "rated": self.rated, "secondsLeft": self.limit_ms // 1000,
            "source": "friend", "speed": self.speed, "status": {"id": 20, "name": "started"},
            "variant": {"key": self.variant, "name": name}, "compat": {"bot": True, "board": True}}}


class FakeLichess:
    def __init__(self, token: str = "test-token", keepalive: float = 0.5,
                 drop_stream_at_ply: int | None = None, port: int = 0, noise: bool = False,
                 end_stream: str | None = None, pychess: bool = False):
        self.token = token
        self.pychess = pychess
        self.draw_endpoint = not pychess
        self.capabilities: set | None = None    # pychess: what the bot last advertised
        self.not_found: list = []               # (method, path) of requests to no endpoint
        self.keepalive = keepalive              # seconds between keep-alive lines
        self.drop_stream_at_ply = drop_stream_at_ply
        self.noise = noise
        self.end_stream = end_stream            # None, "close" or "cut"
        self.stream_lines: int | None = None
        self.requests: collections.Counter = collections.Counter()  # endpoint -> count
        self.refusals: list = []                # see refuse()
        self.cond = threading.Condition()
        self.events: list = []                  # every event stream line ever sent
        self.challenges: dict = {}              # id -> {"json", "status", "reason", ...}
        self.games: dict = {}
        self.chat: list = []
        self.user_agents: set = set()
        self.stopped = False
        self._ids = itertools.count(1)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.fake = self
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    # -- test side -------------------------------------------------------------------

    def start(self) -> FakeLichess:
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1},
                         daemon=True).start()
        return self

    def stop(self) -> None:
        with self.cond:
            self.stopped = True
            self.cond.notify_all()
        self.httpd.shutdown()
        self.httpd.server_close()

    def challenge(self, variant: str = "standard", bot_color: str = "white",
                  limit_s: float = 10, inc_s: float = 0.1, rated: bool = False,
                  opponent: Opponent | None = None, speed: str | None = None,
                  correspondence: bool = False, start: bool = False,
                  chess960_position: int | None = None) -> str:
        """Send the bot a challenge from the opponent; returns the challenge id
        (``chess960``: its game starts from ``chess960_position``, default 0). With
        ``start``, start its game at once instead, unasked (as one the bot's owner
        accepted in a browser)."""
        cid = f"g{next(self._ids):07d}"   # accepted, the game keeps the challenge's id
        name, short = VARIANT_NAMES.get(variant, (variant, variant))
        estimate = limit_s + 40 * inc_s
        speed = speed or ("correspondence" if correspondence else
                          "ultraBullet" if estimate < 30 else "bullet" if estimate < 180 else
                          "blitz" if estimate < 480 else "rapid" if estimate < 1500
                          else "classical")
        tc = ({"type": "correspondence", "daysPerTurn": 2} if correspondence else
              {"type": "clock", "limit": limit_s, "increment": inc_s,
               "show": f"{limit_s:g}+{inc_s:g}"})
        opp_color = "black" if bot_color == "white" else "white"
        body = {"id": cid, "url": f"{self.url}/{cid}", "status": "created",
                "challenger": {"id": OPP_ID, "name": OPP_NAME, "title": "BOT",
                               "rating": 1500, "online": True},
                "destUser": {"id": BOT_ID, "name": BOT_NAME, "title": "BOT",
                             "rating": 2000, "online": True},
                "variant": {"key": variant, "name": name, "short": short},
                "rated": rated, "speed": speed, "timeControl": tc,
                "color": opp_color, "finalColor": opp_color,
                "perf": {"icon": "", "name": name if variant != "standard" else speed.title()}}
        if self.pychess:
            body = {**{k: body[k] for k in ("id", "rated", "speed", "timeControl", "color",
                                            "finalColor", "perf")},
                    "challenger": {"name": OPP_NAME, "rating": 1500, "title": "BOT"},
                    "variant": {"key": variant}, "level": 0, "chess960": False}
        with self.cond:
            self.challenges[cid] = {"json": body, "status": "created", "reason": None,
                                    "bot_color": bot_color, "opponent": opponent or Opponent(),
                                    "limit_ms": int(limit_s * 1000), "inc_ms": int(inc_s * 1000),
                                    "game": None, "chess960_position": chess960_position}
            if start:
                self._accept(cid)
            else:
                self._event({"type": "challenge", "challenge": body})
        return cid

    def refuse(self, endpoint: str, status: int, times: int | None = 1, after: int = 0,
               headers: dict | None = None) -> None:
        """Answer ``times`` requests to ``endpoint`` (a handler's name: ``game_stream``,
        ``event_stream``, ``move``, ``end``...; ``times`` None: all) with ``status``, once
        ``after`` more requests to it have been served."""
        with self.cond:
            self.refusals.append({"endpoint": endpoint, "status": status, "times": times,
                                  "after": after, "headers": headers or {}})

    def _refusal(self, endpoint: str) -> dict | None:
        """The refusal due for this request to ``endpoint``, if any (counts it down)."""
        with self.cond:
            for rule in self.refusals:
                if rule["endpoint"] != endpoint or rule["times"] == 0:
                    continue
                if rule["after"] > 0:
                    rule["after"] -= 1
                    return None
                if rule["times"] is not None:
                    rule["times"] -= 1
                return rule
        return None

    def keepalive_line(self) -> bytes:
        return b'{"type":"ping"}\n' if self.pychess else b"\n"

    def offered(self, event: dict) -> bool:
        """Whether the event stream sends the event: pychess announces a challenge only in
        a variant the bot advertised."""
        if not self.pychess or event.get("type") != "challenge":
            return True
        key = event["challenge"]["variant"]["key"]
        return PYCHESS_NAME.get(key, key) in (self.capabilities or ())

    def game_of(self, challenge_id: str) -> FakeGame | None:
        gid = self.challenges[challenge_id]["game"]
        return self.games.get(gid) if gid else None

    def wait(self, predicate, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self.cond:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
        return True

    # -- server side (called with self.cond held) -------------------------------------

    def _event(self, event: dict) -> None:
        self.events.append(event)
        self.cond.notify_all()

    def _publish(self, game: FakeGame) -> None:
        game.states.append(game.state())
        self.cond.notify_all()

    def _finish(self, game: FakeGame, status: str, winner: str | None) -> None:
        game.status, game.winner, game.draw_offer = status, winner, None
        self._publish(game)
        if self.pychess:
            return                      # pychess has no gameFinish
        finished = {**game.start_event()["game"], "status": {"name": status}}
        if winner:
            finished["winner"] = winner
        self._event({"type": "gameFinish", "game": finished})

    def _accept(self, cid: str) -> FakeGame:
        ch = self.challenges[cid]
        ch["status"] = "accepted"
        gid = cid
        variant = ch["json"]["variant"]["key"]
        unlimited = ch["json"]["timeControl"]["type"] != "clock"
        limit = 2_147_483_647 if unlimited else ch["limit_ms"]
        game = FakeGame(gid, variant, ch["bot_color"], limit, ch["inc_ms"], ch["opponent"],
                        ch["json"]["rated"], ch["json"]["speed"], rules=Rules(variant, ch["chess960_position"]),
                        clocks={"white": limit, "black": limit}, turn_started=time.monotonic(),
                        created_ms=int(time.time() * 1000),
                        rng=random.Random(ch["opponent"].seed), pychess=self.pychess)
        self.games[gid] = game
        ch["game"] = gid
        if game.rules.turn() != game.bot_color:
            self._opponent_turn(game)
        self._event(game.start_event())
        return game

    def _check_flag(self, game: FakeGame) -> bool:
        """End the game if the side to move ran out of time; True if it did."""
        if (game.status != "started" or game.limit_ms >= 2_147_483_647
                or len(game.moves) < 2):        # as on lichess: no clock before move 2
            return False
        side = game.rules.turn()
        if game.clocks[side] - (time.monotonic() - game.turn_started) * 1000 <= 0:
            game.clocks[side] = 0
            self._finish(game, "outoftime", "black" if side == "white" else "white")
            return True
        return False

    def _push(self, game: FakeGame, move: str) -> None:
        side = game.rules.turn()
        now = time.monotonic()
        if game.limit_ms < 2_147_483_647 and len(game.moves) >= 2:
            game.clocks[side] += game.inc_ms - (now - game.turn_started) * 1000
        game.turn_started = now
        game.rules.push(move)
        game.moves.append(move)
        end = game.rules.outcome()
        if end:
            self._finish(game, *end)
        else:
            self._publish(game)

    def _opponent_turn(self, game: FakeGame) -> None:
        opp = game.opponent
        if opp.resign_at_ply is not None and len(game.moves) >= opp.resign_at_ply:
            self._finish(game, "resign", game.bot_color)
            return
        legal = game.rules.legal_moves()
        ply = len(game.moves) // 2      # the opponent's own move number, from 0
        scripted = opp.script[ply] if ply < len(opp.script) else None
        # A draw offer goes with the move (lichess's ``offeringDraw``): the move's
        # gameState already carries it.
        if (opp.offer_draw_at_ply is not None and game.draw_offers_made < opp.draw_offers
                and len(game.moves) + 1 >= opp.offer_draw_at_ply):
            game.draw_offers_made += 1
            game.draw_offer = game.opp_color
        self._push(game, scripted if scripted in legal else game.rng.choice(legal))

    def _bot_move(self, game: FakeGame, move: str, offering_draw: bool) -> tuple:
        if game.status != "started":
            game.rejected.append((move, "game over"))
            return 400, {"error": "This game is over"}
        if self._check_flag(game):
            return 400, {"error": "Time is up"}
        if game.rules.turn() != game.bot_color:
            game.rejected.append((move, "not your turn"))
            return 400, {"error": "Not your turn, or game already over"}
        if move not in game.rules.legal_moves():
            game.rejected.append((move, "illegal"))
            return 400, {"error": f"Piece on {move[:2]} cannot move to {move[2:]}"}
        agreed = offering_draw and game.draw_offer == game.opp_color
        game.draw_offer = None          # moving declines a standing offer, as on lichess
        game.bot_moves.append(move)
        self._push(game, move)
        if agreed and game.status == "started":
            self._finish(game, "draw", None)
        elif game.status == "started":
            self._opponent_turn(game)
        return 200, {"ok": True}

    def _draw(self, game: FakeGame, answer: str) -> tuple:
        if game.status != "started":
            return 400, {"error": "This game is over"}
        game.draw_answers.append((len(game.moves), answer))
        if game.draw_offer == game.opp_color:
            if answer == "yes":
                self._finish(game, "draw", None)
            else:
                game.draw_offer = None
                self._publish(game)
        return 200, {"ok": True}


ROUTES_GET = [
    (re.compile(r"^/api/account$"), "account"),
    (re.compile(r"^/api/account/playing$"), "playing"),
    (re.compile(r"^/api/stream/event$"), "event_stream"),
    (re.compile(r"^/api/bot/game/stream/(\w+)$"), "game_stream"),
]
ROUTES_POST = [
    (re.compile(r"^/api/token/test$"), "token_test"),
    (re.compile(r"^/api/challenge/(\w+)/(accept|decline)$"), "challenge_answer"),
    (re.compile(r"^/api/bot/game/(\w+)/move/(\w+)$"), "move"),
    (re.compile(r"^/api/bot/game/(\w+)/draw/(yes|no|true|false)$"), "draw"),
    (re.compile(r"^/api/bot/game/(\w+)/(abort|resign)$"), "end"),
    (re.compile(r"^/api/bot/game/(\w+)/chat$"), "chat"),
]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:      # quiet
        pass

    @property
    def fake(self) -> FakeLichess:
        return self.server.fake

    # -- plumbing ----------------------------------------------------------------------

    def _send_json(self, code: int, body, headers: dict | None = None,
                   content_type: str = "application/json") -> None:
        data = body.encode() if content_type == "text/plain" else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _line(self, obj) -> None:
        self._chunk(json.dumps(obj).encode() + b"\n")

    def _send_text(self, code: int, text: str) -> None:
        self._send_json(code, text, content_type="text/plain")

    def _route(self, routes):
        path = urlsplit(self.path).path
        for pattern, name in routes:
            found = pattern.match(path)
            if found and (name != "draw" or self.fake.draw_endpoint):
                return getattr(self, "h_" + name), found.groups()
        return None, ()

    def _dispatch(self, routes) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.body = self.rfile.read(length) if length else b""
        handler, groups = self._route(routes)
        fake = self.fake
        if handler is None:
            with fake.cond:
                fake.not_found.append((self.command, urlsplit(self.path).path))
            if fake.pychess:
                self._send_text(404, "404: Not Found")
            else:
                self._send_json(404, {"error": "Not found"})
            return
        endpoint = handler.__name__[2:]
        with fake.cond:
            fake.requests[endpoint] += 1
            fake.cond.notify_all()              # for wait() on the counts
        self.fake.user_agents.add(self.headers.get("User-Agent", ""))
        if self.headers.get("Authorization") != f"Bearer {self.fake.token}":
            if fake.pychess:
                self._send_text(403, "403: Forbidden")
            else:
                self._send_json(401, {"error": "No such token"})
            return
        refusal = self.fake._refusal(endpoint)
        if refusal:
            self._send_json(refusal["status"], {"error": "Refused by the test"},
                            refusal["headers"])
            return
        try:
            handler(*groups)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def do_GET(self) -> None:
        self._dispatch(ROUTES_GET)

    def do_POST(self) -> None:
        self._dispatch(ROUTES_POST)

    # -- endpoints ---------------------------------------------------------------------

    def h_account(self) -> None:
        if self.fake.pychess:
            self._send_json(200, {"id": BOT_NAME, "username": BOT_NAME, "title": "BOT"})
            return
        self._send_json(200, {"id": BOT_ID, "username": BOT_NAME, "title": "BOT",
                              "perfs": {}, "createdAt": 1600000000000})

    def h_playing(self) -> None:
        fake = self.fake
        if fake.pychess:
            self._send_json(200, {"nowPlaying": []})
            return
        with fake.cond:
            now = [g.start_event()["game"] for g in fake.games.values()
                   if g.status == "started"]
        self._send_json(200, {"nowPlaying": now})

    def h_token_test(self) -> None:
        # lichess-bot sends the bare token as the body and reads its scopes.
        scopes = "bot:play,challenge:read,challenge:write"
        self._send_json(200, {self.fake.token: {"userId": BOT_ID, "expires": None,
                                                "scopes": scopes}})

    def h_challenge_answer(self, cid: str, answer: str) -> None:
        fake = self.fake
        with fake.cond:
            ch = fake.challenges.get(cid)
            if ch is None or ch["status"] != "created":
                code, body = 404, {"error": "Challenge not found"}
            elif answer == "accept":
                fake._accept(cid)
                code, body = 200, {"ok": True}
            else:
                form = self.body.decode(errors="replace")
                try:
                    reason = json.loads(form).get("reason", "generic")
                except ValueError:
                    reason = dict(p.partition("=")[::2] for p in form.split("&")).get(
                        "reason", "generic")
                # (challengeDeclined goes to the challenger only, not to the bot.)
                ch["status"], ch["reason"] = "declined", reason
                code, body = 200, {"ok": True}
        self._send_json(code, body)

    def _game(self, gid: str) -> FakeGame | None:
        game = self.fake.games.get(gid)
        if game is None:
            self._send_json(404, {"error": "No such game"})
        return game

    def h_move(self, gid: str, move: str) -> None:
        offering = "offeringDraw=true" in (urlsplit(self.path).query or "")
        with self.fake.cond:
            game = self._game(gid)
            if game is None:
                return
            code, body = self.fake._bot_move(game, move, offering)
        self._send_json(code, body)

    def h_draw(self, gid: str, answer: str) -> None:
        with self.fake.cond:
            game = self._game(gid)
            if game is None:
                return
            code, body = self.fake._draw(game, "yes" if answer in ("yes", "true") else "no")
        self._send_json(code, body)

    def h_end(self, gid: str, what: str) -> None:
        fake = self.fake
        with fake.cond:
            game = self._game(gid)
            if game is None:
                return
            if game.status != "started":
                code, body = 400, {"error": "This game is over"}
            elif what == "abort" and len(game.moves) >= 2:
                code, body = 400, {"error": "This game can no longer be aborted"}
            else:
                fake._finish(game, "aborted" if what == "abort" else "resign",
                             None if what == "abort" else game.opp_color)
                code, body = 200, {"ok": True}
        self._send_json(code, body)

    def h_chat(self, gid: str) -> None:
        with self.fake.cond:
            self.fake.chat.append((gid, self.body.decode(errors="replace")))
        self._send_json(200, {"ok": True})

    def _capabilities(self) -> set | str:
        """The pychess variants the bot's header advertises (those pychess knows), or the
        reason why pychess refuses the header."""
        raw = self.headers.get(CAPABILITIES_HEADER)
        if raw is None:
            return f"Missing required {CAPABILITIES_HEADER} header."
        try:
            caps = json.loads(raw)
        except ValueError:
            return "Invalid BOT capability header."
        if not isinstance(caps, dict) or caps.get("version") != 1:
            return "Unsupported BOT capability version."
        names = caps.get("variants")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            return "BOT capabilities must contain a variant list."
        known = {PYCHESS_NAME.get(n, n) for n in names} & PYCHESS_VARIANTS
        return known or "BOT does not advertise any PyChess-supported variants."

    def h_event_stream(self) -> None:
        fake = self.fake
        if fake.pychess:
            caps = self._capabilities()
            if isinstance(caps, str):
                self._send_text(400, caps)
                return
            with fake.cond:
                fake.capabilities = caps
        self._start_stream()
        with fake.cond:
            # On connection lichess repeats the games in progress and open challenges.
            backlog = [g.start_event() for g in fake.games.values() if g.status == "started"]
            backlog += [{"type": "challenge", "challenge": c["json"]}
                        for c in fake.challenges.values() if c["status"] == "created"]
            sent = len(fake.events)
        for line in EVENT_NOISE if fake.noise else ():
            self._chunk(line + b"\n")
        for event in backlog:
            if fake.offered(event):
                self._line(event)
        while True:
            with fake.cond:
                if len(fake.events) == sent and not fake.stopped:
                    fake.cond.wait(fake.keepalive)
                if fake.stopped:
                    break
                new = fake.events[sent:]
                sent = len(fake.events)
            for event in new:
                if fake.offered(event):
                    self._line(event)
            if not new:
                self._chunk(fake.keepalive_line())
        self._chunk(b"")
        self.close_connection = True

    def h_game_stream(self, gid: str) -> None:
        fake = self.fake
        with fake.cond:
            game = self._game(gid)
            if game is None:
                return
            conflict = game.pychess and (game.open_streams > 0 or game.stale_stream)
            game.stale_stream = False
            if not conflict:
                game.open_streams += 1
        if conflict:
            self._send_text(409, "game stream already active")
            return
        try:
            self._game_stream(game)
        finally:
            with fake.cond:
                game.open_streams -= 1

    def _game_stream(self, game: FakeGame) -> None:
        fake = self.fake
        with fake.cond:
            fake._check_flag(game)
            game.stream_opened += 1
            first = game.full()
            sent = len(game.states)
            abort = game.opponent.abort_on_start and game.status == "started"
        self._start_stream()
        self._line(first)
        for line in GAME_NOISE if fake.noise else ():
            self._chunk(line + b"\n")
        if abort:
            with fake.cond:
                fake._finish(game, "aborted", None)
        if first["state"]["status"] != "started":
            self._chunk(b"")                # its end is in the gameFull already
            return
        lines = 1
        while fake.stream_lines is None or lines < fake.stream_lines:
            with fake.cond:
                if len(game.states) == sent and not fake.stopped:
                    fake.cond.wait(fake.keepalive)
                fake._check_flag(game)
                if fake.stopped:
                    break
                new = game.states[sent:]
                sent = len(game.states)
                drop = (not game.dropped and fake.drop_stream_at_ply is not None
                        and any(len(s["moves"].split()) >= fake.drop_stream_at_ply
                                for s in new))
                if drop:
                    game.dropped = game.stale_stream = True
            if drop:
                self.close_connection = True    # no closing chunk: the stream just stops
                return
            over = bool(new) and new[-1]["status"] != "started"
            for state in new[:-1] if over and fake.end_stream else new:
                self._line(game.wire(state))
                lines += 1
            if over and fake.end_stream == "cut":
                self.close_connection = True
                return
            if over and (fake.end_stream or not game.pychess):
                break                           # (pychess keeps the stream open)
            if not new:
                self._chunk(fake.keepalive_line())
                lines += 1
        self._chunk(b"")                        # lichess closes the stream after the end


def main(argv=None) -> int:
    """Serve challenges to a bot by hand, e.g. to try the real lichess-bot (its ``url:``
    pointed here) or the bridge; prints each game's end and exits when all are over."""
    import argparse

    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("challenges", nargs="+", metavar="VARIANT[:BOTCOLOUR]",
                   help="e.g. standard standard:black grand crazyhouse")
    p.add_argument("--token", default="test-token")
    p.add_argument("--port", type=int, default=0, help="default: any free port")
    p.add_argument("--tc", default="30+0.5", help="seconds+increment")
    p.add_argument("--resign-at-ply", type=int, default=80)
    p.add_argument("--offer-draw-at-ply", type=int)
    p.add_argument("--timeout", type=float, default=900)
    args = p.parse_args(argv)
    base, _, inc = args.tc.partition("+")
    fake = FakeLichess(token=args.token, keepalive=2.0, port=args.port).start()
    print(f"serving {fake.url}/ (token {args.token!r})", flush=True)
    ids = []
    for i, spec in enumerate(args.challenges):
        variant, _, colour = spec.partition(":")
        ids.append(fake.challenge(variant, bot_color=colour or "white", limit_s=float(base),
                                  inc_s=float(inc or 0), opponent=Opponent(
                                      seed=i, resign_at_ply=args.resign_at_ply,
                                      offer_draw_at_ply=args.offer_draw_at_ply)))

    def settled():
        return all(fake.challenges[c]["status"] == "declined"
                   or (fake.game_of(c) and fake.game_of(c).status != "started") for c in ids)

    fake.wait(settled, args.timeout)
    for cid in ids:
        ch, game = fake.challenges[cid], fake.game_of(cid)
        print(cid, ch["json"]["variant"]["key"], ch["status"], ch["reason"] or "",
              f"{game.status} winner={game.winner} plies={len(game.moves)} "
              f"refused={game.rejected} draw_answers={game.draw_answers} "
              f"moves={' '.join(game.moves)}" if game else "")
    fake.stop()
    return 0 if settled() else 1


if __name__ == "__main__":
    import sys

    sys.exit(main())
