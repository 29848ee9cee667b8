"""The web server of ``quantum serve`` (docs/web.md): the pages, their static files and
one WebSocket per page, on aiohttp.

Every page plays its own games (``adapters.web.game.WebGame``), kept by id so that a
reloaded page can ``resume``; a game whose pages have all closed is forgotten (its
engine stopped) KEEP_S later. At most MAX_GAMES run at once. A message that is not a JSON
object of at most MAX_MESSAGE bytes, or that the game refuses, is answered with an
``error`` and changes nothing; nothing a page sends can stop the server.
"""
from __future__ import annotations

import asyncio
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from aiohttp import WSMsgType, web

from adapters.session import IllegalAnswer
from adapters.web.game import GAMES, QUANTUM, Setup, WebError, WebGame

STATIC = Path(__file__).with_name("static")
DEFAULT_PORT = 8765
MAX_GAMES = 64
MAX_MESSAGE = 64 * 1024
KEEP_S = 600.0              # a game without pages is kept this long, for a reload
SWEEP_S = 30.0
SWEEPER = web.AppKey("sweeper", asyncio.Task)


class Page:
    """One open page: its WebSocket and the game it plays."""

    def __init__(self, ws: web.WebSocketResponse):
        self.ws = ws
        self.game: WebGame | None = None

    async def send(self, data: dict) -> None:
        if not self.ws.closed:
            try:
                await self.ws.send_str(json.dumps(data, separators=(",", ":")))
            except (ConnectionResetError, RuntimeError):
                pass                    # the page went away meanwhile

    async def send_state(self, state: dict) -> None:
        await self.send(state)

    async def error(self, text: str) -> None:
        await self.send({"t": "error", "text": text[:300]})


class Server:
    """The games and the thread pool their engines run in."""

    def __init__(self, engine: str = QUANTUM, workers: int = 32):
        self.engine = engine
        self.games: dict[str, WebGame] = {}
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="quantum-web")

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.index)
        for game in GAMES:
            app.router.add_get(f"/{game}", self.play)
        app.router.add_get("/ws", self.websocket)
        app.router.add_static("/static/", STATIC, follow_symlinks=False)
        app.on_startup.append(self._start_sweeper)
        app.on_shutdown.append(self._shutdown)
        return app

    # -- pages ---------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def play(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "play.html")

    # -- the WebSocket -------------------------------------------------------------------
    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        page = Page(ws)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self.handle(page, msg.data)
        finally:
            self.leave(page)
        return ws

    async def handle(self, page: Page, text: str) -> None:
        """One message of a page; a refused one is answered with an error."""
        try:
            msg = json.loads(text)
        except ValueError:
            await page.error("a message is one JSON object")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
            await page.error("a message is a JSON object with a type 't'")
            return
        try:
            if msg["t"] == "new":
                await self.new_game(page, Setup.parse(msg))
            elif msg["t"] == "resume":
                await self.resume(page, msg.get("id"))
            elif page.game is None:
                raise WebError("no game: send 'new' first")
            else:
                await page.game.act(msg, page)
        except (WebError, IllegalAnswer) as exc:
            await page.error(str(exc))

    async def new_game(self, page: Page, setup: Setup) -> None:
        self.leave(page)
        if len(self.games) >= MAX_GAMES:
            raise WebError(f"the server runs {MAX_GAMES} games already; try again later")
        game = WebGame(setup, self.pool, self.engine)
        self.games[game.id] = game
        try:
            await game.start()
        except WebError:
            self.games.pop(game.id, None)
            await asyncio.get_running_loop().run_in_executor(self.pool, game.close)
            raise
        self.join(page, game)
        await page.send(game.layout())
        await page.send(game.state())

    async def resume(self, page: Page, game_id) -> None:
        game = self.games.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise WebError("that game is over or unknown here")
        self.leave(page)
        self.join(page, game)
        await page.send(game.layout())
        await page.send(game.state())

    def join(self, page: Page, game: WebGame) -> None:
        page.game = game
        game.pages.add(page)
        game.left_at = None

    def leave(self, page: Page) -> None:
        game, page.game = page.game, None
        if game is not None:
            game.pages.discard(page)
            if not game.pages:
                game.left_at = time.monotonic()

    # -- forgetting games ----------------------------------------------------------------
    async def _start_sweeper(self, app: web.Application) -> None:
        app[SWEEPER] = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            now = time.monotonic()
            for game_id, game in list(self.games.items()):
                if game.left_at is not None and now - game.left_at > KEEP_S:
                    del self.games[game_id]
                    await asyncio.get_running_loop().run_in_executor(self.pool, game.close)

    async def _shutdown(self, app: web.Application) -> None:
        app[SWEEPER].cancel()
        for game in list(self.games.values()):
            game.close()
        self.games.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)


def serve(host: str, port: int, engine: str | None = None) -> int:
    """Run the server until interrupted; prints its address once it listens. ``engine``:
    the command of the engine to play (None: this Python's Quantum)."""
    engine = engine or QUANTUM
    async def run() -> None:
        runner = web.AppRunner(Server(engine).app(), handle_signals=True)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = runner.addresses[0][1]
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        print(f"Quantum is serving at http://{shown}:{bound}/ (Ctrl-C stops it)", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        print(f"quantum serve: error: {exc}", file=sys.stderr)
        return 1
    return 0
