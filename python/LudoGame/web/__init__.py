"""``ludo serve``: play, watch and replay LudoGame's games in a browser.

A FastAPI app on uvicorn (``pip install ".[web]"``). The pages are one static HTML
file and plain JavaScript; the JSON API under ``/api`` keeps games in a store (an SQLite
file by default, or memory), pushes each change as a Server-Sent Event, plays the bots at
each game's pace, and asks the engine for every legal move, status and board (docs/web.md
describes it)::

    from LudoGame.web import create_app, serve

    app = create_app(max_games=100)            # an ASGI app for any server (games in memory)
    serve(port=8000, store="sqlite:///g.db")   # or run it on uvicorn at http://127.0.0.1:8000/
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import ipaddress
import os
import socket
import threading
import webbrowser
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from LudoGame._core import __version__
from LudoGame.matlab import DEFAULT_POOL_SIZE, POOL_IDLE, OctavePool
from LudoGame.untrusted import log_visibly
from LudoGame.web import errors, ludo, models, onitama, replay
from LudoGame.web.config import WebConfig
from LudoGame.web.database import Storage, StorageError, StoreUrlError, default_url, open_storage
from LudoGame.web.games import HEARTBEAT, TAKE_UP, WORKERS, Games
from LudoGame.web.guard import CreateLimit, RequestGuard, guarded_protocol
from LudoGame.web.replay import Replays
from LudoGame.web.shortway import ShortWay, plain_events
from LudoGame.web_limits import (
    CREATE_RATE,
    FINISHED_DAYS,
    IDLE_DAYS,
    MAX_CLIENT_CONNECTIONS,
    MAX_CONNECTIONS,
    MAX_HEAD,
    REQUEST_TIMEOUT,
)

STATIC = Path(__file__).parent / "static"
#: The loggers whose lines `serve` prints (uvicorn's), each line made visible.
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")

#: The default number of games held at once (and of replays, which are kept in memory).
MAX_GAMES = 1_000


class ReplayError(ValueError):
    """A file given to replay at start-up that is not a game file."""


class _App(FastAPI):
    """The app: FastAPI's, with a plain event stream request answered before FastAPI and its
    middleware (`shortway.plain_events`), once the Host is one the app answers for."""

    #: `plain_events` for this app's games and hosts (set by `create_app`)
    stream_door: Callable[[Scope, Receive, Send], Awaitable[bool]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        door = self.stream_door
        if door is not None and scope["type"] == "http" and await door(scope, receive, send):
            return
        await super().__call__(scope, receive, send)


def create_app(
    max_games: int = MAX_GAMES,
    store: str | Storage = "memory",
    *,
    heartbeat: float = HEARTBEAT,
    workers: int = WORKERS,
    public_url: str | None = None,
    expire_days: float | None = FINISHED_DAYS,
    idle_days: float | None = IDLE_DAYS,
    take_up: float = TAKE_UP,
    ai_dir: str | os.PathLike[str] | None = None,
    octave_workers: int = DEFAULT_POOL_SIZE,
    octave_idle: float = POOL_IDLE,
    allowed_hosts: Collection[str] | None = None,
    create_rate: float | None = CREATE_RATE,
) -> FastAPI:
    """The web app: its pages, static files and JSON API.

    `store` is where the games are kept (a `--store` URL: ``memory``, ``sqlite:///PATH``, or
    a `Storage`); at most `max_games` games are (a new game past the limit is refused, none
    is ever dropped), and at most `max_games` replays (the least recently used dropped).
    `heartbeat` is the longest silence of an event stream in seconds, `workers` how many bot
    and AI searches run at once, `public_url` the address invite links start with (by
    default the one the request came to), `expire_days` how many days a finished game is kept
    after its last change and `idle_days` an unfinished one nobody changes (None: for
    ever), `take_up` how often (in seconds) a server on a shared store (a
    PostgreSQL one) takes up the bots of games whose server stopped. `ai_dir` is a folder of
    MATLAB AI files offered as Onitama AIs; they play in at most `octave_workers` Octave
    processes at once (`LudoGame.matlab.OctavePool`), each closed after `octave_idle`
    seconds unused.

    `allowed_hosts` are the host names (and addresses) the app answers for: a request for
    another is refused 421 (None, the default here: any, as for a test client; ``serve``
    passes the addresses it serves). `create_rate` is how many games one client (an IP
    address) may start a minute (None: no limit, as for tests and benchmarks that start
    many games from one address). A state-changing request from a page of another origin
    is refused 403 (`guard.RequestGuard`)."""
    octave = OctavePool(octave_workers, octave_idle)
    config = WebConfig(None if ai_dir is None else Path(ai_dir).resolve(), octave)
    storage = open_storage(store) if isinstance(store, str) else store
    games = Games(
        storage,
        {"ludo": ludo.LudoSession, "onitama": onitama.OnitamaSession},
        max_games,
        heartbeat=heartbeat,
        workers=workers,
        finished_days=expire_days,
        idle_days=idle_days,
        config=config,
    )
    games.release_hooks.append(octave.release)
    replays = Replays(max_games)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(games.sweep()), asyncio.create_task(games.cache.tidy())]
        if storage.shared:
            tasks.append(asyncio.create_task(games.cluster.follow()))
            tasks.append(asyncio.create_task(games.cluster.take_up(take_up)))
            tasks.append(asyncio.create_task(games.presence.keep()))
        await games.resume()
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await games.close()
            octave.close()

    app = _App(
        title="LudoGame",
        version=__version__,
        description="Play, watch and replay Ludo and Onitama: every rule is the engine's.",
        lifespan=lifespan,
        # an address with a trailing slash is no address of the app (404), not a redirect
        redirect_slashes=False,
    )
    base_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        first = app.openapi_schema is None
        schema = base_openapi()
        return models.add_links(schema) if first else schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.state.games = games
    app.state.config = config
    app.state.replays = replays
    app.state.public_url = public_url
    app.state.create_limit = None if create_rate is None else CreateLimit(create_rate)
    errors.install(app, STATIC / "index.html")
    app.add_middleware(ShortWay, games=games)  # (inside the two below)
    app.add_middleware(errors.BodyLimit)
    app.add_middleware(RequestGuard, allowed_hosts=allowed_hosts)  # the outermost
    app.stream_door = functools.partial(
        plain_events,
        games,
        host_ok=RequestGuard(app, allowed_hosts).allows,  # (only its check)
    )
    app.include_router(ludo.router(games))
    app.include_router(onitama.router(games))
    app.include_router(replay.router(replays))

    @app.get("/api", include_in_schema=False)
    async def about() -> JSONResponse:
        return JSONResponse(
            {
                "name": "LudoGame",
                "version": __version__,
                "games": await games.cache.count(),
                "limit": games.limit,
                "replays": len(replays),
            }
        )

    page = STATIC / "index.html"

    async def index() -> FileResponse:
        return FileResponse(page, media_type="text/html")

    # a page's address with a trailing slash is the same page (the API has no such
    # addresses: there a trailing slash is 404)
    for path in ("/", "/ludo", "/onitama", "/replay", "/ludo/", "/onitama/", "/replay/"):
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
    store: str | None = None,
    expire_days: float | None = FINISHED_DAYS,
    idle_days: float | None = IDLE_DAYS,
    ai_dir: str | None = None,
    octave_workers: int = DEFAULT_POOL_SIZE,
    allowed_hosts: Sequence[str] = (),
    create_rate: float | None = CREATE_RATE,
    trusted_proxies: Sequence[str] = (),
    max_connections: int | None = MAX_CONNECTIONS,
    max_client_connections: int | None = MAX_CLIENT_CONNECTIONS,
    request_timeout: float = REQUEST_TIMEOUT,
) -> None:
    """Serve the app on uvicorn until Ctrl-C. Once it answers, prints the address to open
    (the replay's page with `replay_file`, which is loaded first) and where the games are
    stored and, with `open_browser`, opens it. `store` is a `--store` URL (by default an
    SQLite file in the user's data directory, `storage.default_url()`); `ai_dir` a folder
    of MATLAB AI files offered as Onitama AIs, played in at most `octave_workers` Octave
    processes at once.

    The app answers for the addresses it serves (`served_hosts`) and `allowed_hosts`
    (``*``: any name); `create_rate` games a minute per client (None: no limit); the
    clients' addresses are read from ``X-Forwarded-For`` only on connections from
    `trusted_proxies` (addresses or networks; such a proxy is not held to
    `max_client_connections`). A connection must send each request within
    `request_timeout` seconds; at most `max_connections` are open at once, at most
    `max_client_connections` from one client (None: no such limit).

    The address is bound before anything is printed, so a port in use or an unknown host
    raises `OSError` and port 0 prints the port the system chose; a store that cannot be
    opened raises `StoreError`."""
    import uvicorn

    try:
        storage = open_storage(store or default_url())
    except (StoreUrlError, StorageError) as e:
        raise StoreError(str(e)) from e
    sock = _bind(host, port)
    port = sock.getsockname()[1]
    shown = _shown_hosts(host)
    public = f"http://{_url_host(shown[0])}:{port}/"
    app = create_app(
        max_games,
        storage,
        public_url=public,
        expire_days=expire_days,
        idle_days=idle_days,
        ai_dir=ai_dir,
        octave_workers=octave_workers,
        allowed_hosts=[*served_hosts(host, shown), *allowed_hosts],
        create_rate=create_rate,
    )
    page = ""
    if replay_file is not None:
        try:
            text = Path(replay_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            sock.close()
            raise ReplayError(getattr(e, "strerror", None) or str(e)) from e
        try:
            page = f"replay?id={replay.load(app.state.replays, text).id}"
        except errors.ApiError as e:
            sock.close()
            raise ReplayError(e.message) from e
    url = f"{public}{page}"

    def announce() -> None:
        print(f"LudoGame is serving at {url}", flush=True)
        for other in shown[1:]:
            print(f"  and at http://{_url_host(other)}:{port}/{page}", flush=True)
        print(f"Games are stored in {storage.where}", flush=True)
        if open_browser:
            threading.Timer(1.0, webbrowser.open, (url,)).start()

    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    proxies = _networks(trusted_proxies)
    max_connections = _room_for(max_connections)
    protocol = guarded_protocol(
        AutoHTTPProtocol,
        request_timeout=request_timeout,
        max_connections=max_connections,
        max_client_connections=max_client_connections,
        trusted=lambda address: _within(address, proxies),
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=1,  # Ctrl-C: stop at once, even while an AI thinks
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD,
        # X-Forwarded-For and -Proto are read only from the proxies named
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies) or None,
    )
    # the server's log lines may quote a client or an AI: no escape reaches the terminal
    log_visibly(SERVER_LOGGERS)
    games: Games = app.state.games
    server = uvicorn.Server(config)
    shutdown = server.shutdown

    async def stop_searches_first(sockets: list[socket.socket] | None = None) -> None:
        games.stop()  # answer what waits on a search before uvicorn would cancel it
        await shutdown(sockets)

    server.shutdown = stop_searches_first  # type: ignore[method-assign]
    startup = server.startup

    async def announce_once_serving(sockets: list[socket.socket] | None = None) -> None:
        # The address is printed once the server answers (the app started): whoever waits
        # for the line can use the server at once, or stop it with Ctrl-C.
        await startup(sockets)
        if server.started:
            announce()

    server.startup = announce_once_serving  # type: ignore[method-assign]
    # What is made by now (modules, the app, its routes) lives as long as the server: the
    # cyclic collector's full passes need not walk it again and again.
    gc.freeze()
    try:
        with sock:
            server.run(sockets=[sock])
    finally:
        storage.close()


#: How long (seconds) uvicorn keeps a connection open with no request after an answer: a
#: player's device acts every few seconds, and a request on a kept connection needs no
#: connection made and closed; idle ones make room for new connections past a cap
#: (`guard._GuardState.reclaim`). A connection waits at most `--request-timeout` either way.
KEEP_ALIVE = 10


def served_hosts(host: str, shown: Sequence[str]) -> list[str]:
    """The host names and addresses a server bound to `host` answers for by default: the
    addresses it prints (`shown`) and `host` itself; a loopback one's names too
    (``localhost``, 127.0.0.1, ::1); for a wildcard (0.0.0.0, ::) any IP address, this
    machine's host name and ``localhost``."""
    names = [host, *shown]
    loopback = host == "localhost"
    with contextlib.suppress(ValueError):
        loopback = loopback or ipaddress.ip_address(host).is_loopback
    if host in ("0.0.0.0", "::", ""):
        names += ["0.0.0.0", socket.gethostname()]
        loopback = True
    if loopback:
        names += ["localhost", "127.0.0.1", "::1"]
    return [n for n in dict.fromkeys(names) if n]


def _networks(entries: Sequence[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The networks of `--trusted-proxy` entries (an address or a network; ``*``: all)."""
    found: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    for entry in entries:
        if entry.strip() == "*":
            found += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
        else:
            found.append(ipaddress.ip_network(entry.strip(), strict=False))
    return found


def _within(
    address: str, networks: Sequence[ipaddress.IPv4Network | ipaddress.IPv6Network]
) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return any(ip in n for n in networks)


def _room_for(connections: int | None) -> int | None:
    """`connections`, as many as this process may hold open: its open-file limit is raised
    (to its hard limit at most) to make room for them and the files a server needs beside
    (`FILES_BESIDE`); if it cannot be, fewer."""
    if connections is None:
        return None
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + FILES_BESIDE
    if soft != resource.RLIM_INFINITY and soft < want:
        raised = want if hard == resource.RLIM_INFINITY else min(want, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        connections = max(1, min(connections, soft - FILES_BESIDE))
    return connections


#: Open files a server needs beside its connections (the store, threads, Octave pipes).
FILES_BESIDE = 256


class StoreError(ValueError):
    """A `--store` that cannot be used (an unknown URL, a file that cannot be opened)."""


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _shown_hosts(host: str) -> list[str]:
    """The addresses to print for a server bound to `host`: the host itself, or for a
    wildcard (0.0.0.0, ::) this machine's own addresses that another device can open (its
    host name's, and the one its default route leaves from), then ``localhost``."""
    if host not in ("0.0.0.0", "::", ""):
        return [host]
    family = socket.AF_INET6 if host == "::" else socket.AF_INET
    candidates: list[str] = []
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM):
            candidates.append(str(info[4][0]))
    # the address a packet to the outside would leave from (a UDP connect sends nothing)
    probe = "2001:db8::1" if family == socket.AF_INET6 else "192.0.2.1"
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as udp:
        udp.connect((probe, 9))
        candidates.append(str(udp.getsockname()[0]))
    found: list[str] = []
    for addr in candidates:
        try:
            ip = ipaddress.ip_address(addr.split("%")[0])
        except ValueError:
            continue
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and addr not in found:
            found.append(addr)
    return [*found, "localhost"]


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket on `host`:`port` (IPv4 or IPv6, as the host name resolves)."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]
    return socket.create_server((host, port), family=family)


__all__ = ["MAX_GAMES", "ReplayError", "StoreError", "create_app", "serve"]
