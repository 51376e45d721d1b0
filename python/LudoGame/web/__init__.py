"""``ludo serve``: play, watch and replay LudoGame's games in a browser.

A FastAPI app on uvicorn (``pip install "LudoGame[web]"``). The pages are one static HTML
file and plain JavaScript; the JSON API under ``/api`` holds games in memory and asks the
engine for every legal move, status and board (docs/web.md describes it)::

    from LudoGame.web import create_app, serve

    app = create_app(max_games=100)   # an ASGI app for any server
    serve(port=8000)                  # or run it on uvicorn at http://127.0.0.1:8000/
"""

from __future__ import annotations

import socket
import threading
import webbrowser
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from LudoGame._core import __version__
from LudoGame.web import errors, ludo, onitama, replay
from LudoGame.web.store import Store

STATIC = Path(__file__).parent / "static"

#: The default number of games (and replays) held at once.
MAX_GAMES = 1_000


class ReplayError(ValueError):
    """A file given to replay at start-up that is not a game file."""


def create_app(max_games: int = MAX_GAMES) -> FastAPI:
    """The web app: its pages, static files and JSON API, holding at most `max_games`
    games and replays (the least recently used evicted first)."""
    store = Store(max_games)
    app = FastAPI(
        title="LudoGame",
        version=__version__,
        description="Play, watch and replay Ludo and Onitama: every rule is the engine's.",
    )
    app.state.store = store
    errors.install(app)
    app.add_middleware(errors.BodyLimit)
    app.include_router(ludo.router(store))
    app.include_router(onitama.router(store))
    app.include_router(replay.router(store))

    @app.get("/api", include_in_schema=False)
    async def about() -> JSONResponse:
        return JSONResponse(
            {"name": "LudoGame", "version": __version__, "games": len(store), "limit": store.limit}
        )

    page = STATIC / "index.html"

    async def index() -> FileResponse:
        return FileResponse(page, media_type="text/html")

    for path in ("/", "/ludo", "/onitama", "/replay"):
        app.add_api_route(path, index, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    max_games: int = MAX_GAMES,
    replay_file: str | None = None,
) -> None:
    """Serve the app on uvicorn until Ctrl-C. Prints the address to open (the replay's page
    with `replay_file`, which is loaded first) and, with `open_browser`, opens it.

    The address is bound before anything is printed, so a port in use or an unknown host
    raises `OSError` and port 0 prints the port the system chose."""
    import uvicorn

    app = create_app(max_games)
    page = ""
    if replay_file is not None:
        try:
            text = Path(replay_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ReplayError(getattr(e, "strerror", None) or str(e)) from e
        try:
            page = f"replay?id={replay.load(app.state.store, text).id}"
        except errors.ApiError as e:
            raise ReplayError(e.message) from e
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/{page}"
    print(f"LudoGame is serving at {url}", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=1,  # Ctrl-C: stop at once, even while an AI thinks
    )
    with sock:
        uvicorn.Server(config).run(sockets=[sock])


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port` (IPv4 or IPv6, as the host name resolves)."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]
    return socket.create_server((host, port), family=family)


__all__ = ["MAX_GAMES", "ReplayError", "create_app", "serve"]
