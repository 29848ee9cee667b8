"""The web board: ``quantum serve`` (docs/web.md).

``server`` is the aiohttp application (pages, static files, one WebSocket per page);
``game`` is one game as a page plays it (a ``GameSession``, the engine opponent run in
threads, the state each page is sent); ``static/`` holds the page's scripts, style and
piece images, shipped in the wheel.
"""
