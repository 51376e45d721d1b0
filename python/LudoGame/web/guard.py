"""What keeps a server open to strangers from being crashed, filled or misused: the host
names it answers for and the origins that may change its games (`RequestGuard`), how many
games one client may start a minute (`CreateLimit`), and how long a connection may take to
send a request and how many it may hold (`guarded_protocol`). `LudoGame.web_limits` holds
the defaults; docs/web.md (Limits) explains them."""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import json
import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import Any

from fastapi import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from LudoGame.web.errors import ApiError, error_body, excerpt
from LudoGame.web_limits import (
    CREATE_RATE,
    MAX_CLIENT_CONNECTIONS,
    MAX_CLIENTS,
    MAX_CONNECTIONS,
    MAX_HEAD,
    REQUEST_TIMEOUT,
)

_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_HOST = re.compile(
    r"(?:\[(?P<v6>[0-9A-Fa-f:.]{2,45})\]|(?P<name>[A-Za-z0-9._-]{1,253}))(?::(?P<port>[0-9]{1,5}))?"
)
_DEFAULT_PORTS = {"http": 80, "https": 443}


def client_of(address: str | None) -> str:
    """The client a request comes from, for the per-client limits: its IP address, an
    IPv6 address's /64 network (one home's or host's), or "" when unknown."""
    if not address:
        return ""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class CreateLimit:
    """A token bucket per client: `rate` new games a minute, in a burst of at most `rate`.
    `take` answers 429 `TooManyRequests` with ``Retry-After`` (whole seconds until the
    next game may be started) once a client's allowance is spent."""

    def __init__(self, rate: float, clients: int = MAX_CLIENTS) -> None:
        if not (math.isfinite(rate) and rate > 0):
            raise ValueError(f"the create rate must be a positive number, not {rate}")
        self.rate = rate
        self.clients = clients
        #: each client's tokens and when they were counted (time.monotonic()), least
        #: recently seen first
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, client: str, now: float | None = None) -> None:
        """Take one game from `client`'s allowance, or refuse (429)."""
        now = time.monotonic() if now is None else now
        per_second = self.rate / 60.0
        tokens, then = self._buckets.pop(client, (self.rate, now))
        tokens = min(self.rate, tokens + (now - then) * per_second)
        if tokens >= 1.0:
            self._buckets[client] = (tokens - 1.0, now)
        else:
            self._buckets[client] = (tokens, now)
        while len(self._buckets) > self.clients:
            self._buckets.popitem(last=False)
        if tokens < 1.0:
            wait = max(1, math.ceil((1.0 - tokens) / per_second))
            raise TooManyRequestsError(
                f"this address started {self.rate:g} games in the last minute, the most a "
                f"client may: try again in {wait} s",
                wait,
            )


class TooManyRequestsError(ApiError):
    """429: a client past its allowance; `retry_after` whole seconds until it may again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(429, "TooManyRequests", message, {"Retry-After": str(retry_after)})
        self.retry_after = retry_after


def charge_creation(request: Request) -> None:
    """A FastAPI dependency of the routes that start a game: one game off the client's
    allowance (`CreateLimit`, ``app.state.create_limit``; None: no limit)."""
    limit: CreateLimit | None = request.app.state.create_limit
    if limit is not None:
        limit.take(client_of(request.client.host if request.client else None))


def split_host(value: str) -> tuple[str, int | None] | None:
    """A Host header's (or an origin's authority's) host name, lowercased (an IPv6 address
    without brackets), and port; None if it is not a host name or address with a port."""
    m = _HOST.fullmatch(value)
    if m is None:
        return None
    port = None if m["port"] is None else int(m["port"])
    if port is not None and not 0 < port < 65536:
        return None
    if m["v6"] is not None:
        try:
            return str(ipaddress.IPv6Address(m["v6"])), port
        except ValueError:
            return None
    return m["name"].lower().rstrip("."), port


def _host_name(text: str) -> str:
    """An allowlist entry as `split_host` reads a Host header's name (``[::1]`` as ``::1``,
    a name lowercased); ``*`` and what is not a host name as given."""
    found = split_host(text.strip())
    if found is None:
        try:  # an IPv6 address without brackets
            return str(ipaddress.IPv6Address(text.strip()))
        except ValueError:
            return text.strip().lower()
    return found[0]


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


#: In an allowlist of host names: any IP address (a server bound to every address of its
#: machine answers for each; an address cannot be a DNS name pointed at it).
ANY_ADDRESS = ("0.0.0.0", "::")


class RequestGuard:
    """ASGI middleware: a request whose ``Host`` is not a host name is refused (400), one
    whose host is not among `allowed_hosts` (None: any; ``"*"`` among them: any;
    ``0.0.0.0`` or ``::``: any IP address) is refused 421 `MisdirectedRequest` (a page of
    another site that a DNS name was pointed at this server cannot read or change it); a
    state-changing request (POST, PUT, PATCH, DELETE) whose ``Origin`` (else ``Referer``)
    is a page of another origin than the request's own host and port is refused 403
    `CrossOrigin`. A request with neither header (curl, a script) is not a browser's
    cross-site one and passes."""

    def __init__(self, app: ASGIApp, allowed_hosts: Collection[str] | None = None) -> None:
        self.app = app
        names = None if allowed_hosts is None else {_host_name(h) for h in allowed_hosts}
        self.allowed = None if names is None or "*" in names else names
        self.any_address = names is not None and any(a in names for a in ANY_ADDRESS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: dict[bytes, bytes] = {}
        for name, value in scope.get("headers", []):
            headers.setdefault(name, value)
        problem = self._check(scope, headers)
        if problem is None:
            await self.app(scope, receive, send)
            return
        status, kind, message = problem
        payload = json.dumps(error_body(status, kind, message)).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    def allows(self, scope: Scope) -> bool:
        """Would this guard let the request `scope` through (its Host, and its Origin if it
        changes something)?"""
        headers: dict[bytes, bytes] = {}
        for name, value in scope.get("headers", []):
            headers.setdefault(name, value)
        return self._check(scope, headers) is None

    def _check(self, scope: Scope, headers: dict[bytes, bytes]) -> tuple[int, str, str] | None:
        raw = headers.get(b"host")
        host = None
        if raw is not None:
            text = raw.decode("latin-1")
            host = split_host(text)
            if host is None:
                return 400, "BadRequest", f"the Host header {_quoted(text)} is not a host name"
            name = host[0]
            if not (
                self.allowed is None or name in self.allowed or (self.any_address and _is_ip(name))
            ):
                shown = ", ".join(sorted(self.allowed))
                return (
                    421,
                    "MisdirectedRequest",
                    f"this server answers for {shown}, not {_quoted(name)}: start it with "
                    f"--allowed-host {excerpt(name)} to answer for that name too",
                )
        if scope.get("method") not in _CHANGING:
            return None
        source = headers.get(b"origin") or headers.get(b"referer")
        if source is None:
            return None
        origin = _origin(source.decode("latin-1"), scope.get("scheme", "http"))
        own = None if host is None else _normal(host, scope.get("scheme", "http"))
        if origin is None or origin != own:
            return (
                403,
                "CrossOrigin",
                "a page of another site cannot change this server's games (the request's "
                "Origin is not this server's address)",
            )
        return None


def _quoted(text: str) -> str:
    return repr(excerpt(text))


def _normal(host: tuple[str, int | None], scheme: str) -> tuple[str, int | None]:
    """A host and port with the scheme's default port left out (``:80`` of http)."""
    name, port = host
    return (name, None) if port == _DEFAULT_PORTS.get(scheme) else (name, port)


def _origin(value: str, scheme: str) -> tuple[str, int | None] | None:
    """The host and port of an Origin or Referer header (None: none readable, as the
    opaque origin ``null``)."""
    found = re.fullmatch(r"(?P<scheme>https?)://(?P<auth>[^/?#]*)(?:[/?#].*)?", value, re.S)
    if found is None:
        return None
    host = split_host(found["auth"])
    return None if host is None else _normal(host, found["scheme"])


# ---- connections ----------------------------------------------------------------------------


@dataclasses.dataclass
class _GuardState:
    """The limits of `guarded_protocol`'s connections and what they count (shared by every
    connection of one server)."""

    request_timeout: float
    max_head: int
    max_connections: int | None
    max_client_connections: int | None
    trusted: Callable[[str], bool]
    counts: dict[str, int] = dataclasses.field(default_factory=dict)
    open_now: set[Any] = dataclasses.field(default_factory=set)
    #: the one timer that closes the connections past their deadline (`_GuardedConnection`),
    #: running while any is open
    sweeping: asyncio.TimerHandle | None = None

    @property
    def sweep_every(self) -> float:
        """How often (seconds) the connections' deadlines are checked: a connection is
        closed at most a quarter of `request_timeout` (and at most 1 s) after its own."""
        return min(1.0, self.request_timeout / 4)

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Check the deadlines from now on (if not already)."""
        if self.sweeping is None:
            self.sweeping = loop.call_later(self.sweep_every, self._sweep, loop)

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        self.sweeping = None
        now = loop.time()
        late = [c for c in self.open_now if 0.0 < c._guard_deadline <= now]
        for c in late:
            c._guard_expired()
        if self.open_now:
            self.watch(loop)


class _GuardedConnection:
    """What `guarded_protocol` adds to uvicorn's HTTP protocol (placed before it in the
    class's bases; `_guard` is the server's `_GuardState`)."""

    _guard: _GuardState
    _guard_client = ""
    #: when (the loop's time) the request awaited must have come whole, or 0.0: none
    #: awaited (one timer per server checks them: `_GuardState.watch`)
    _guard_deadline = 0.0
    _guard_cycle: Any = None
    _guard_head = 0
    # uvicorn's protocol's own attributes
    transport: Any
    cycle: Any
    scope: Any
    loop: asyncio.AbstractEventLoop

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        g = self._guard
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) and peer else None
        client = "" if address is None or g.trusted(str(address)) else client_of(str(address))
        if g.max_connections is not None and len(g.open_now) >= g.max_connections:
            self._guard_refuse(503, "the server has as many connections open as it takes")
            return
        if client and g.max_client_connections is not None:
            if g.counts.get(client, 0) >= g.max_client_connections:
                self._guard_refuse(
                    429, "this address has as many connections open as one client may"
                )
                return
            g.counts[client] = g.counts.get(client, 0) + 1
            self._guard_client = client
        g.open_now.add(self)
        self._guard_arm()

    def _guard_refuse(self, status: int, message: str) -> None:
        kind = "TooManyRequests" if status == 429 else "ServiceUnavailable"
        body = json.dumps(error_body(status, kind, message)).encode()
        reason = b"Too Many Requests" if status == 429 else b"Service Unavailable"
        head = b"HTTP/1.1 %d %s\r\n" % (status, reason)
        self.transport.write(
            head + b"content-type: application/json\r\nconnection: close\r\n"
            b"retry-after: 1\r\ncontent-length: %d\r\n\r\n" % len(body) + body
        )
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        g = self._guard
        if self in g.open_now:
            g.open_now.discard(self)
            client = self._guard_client
            if client:
                left = g.counts.get(client, 1) - 1
                if left > 0:
                    g.counts[client] = left
                else:
                    g.counts.pop(client, None)
        self._guard_deadline = 0.0
        super().connection_lost(exc)  # type: ignore[misc]

    def _guard_arm(self) -> None:
        """A new request may start now: it has `request_timeout` seconds to arrive."""
        self._guard_cycle = self.cycle
        self._guard_head = 0
        self._guard_deadline = self.loop.time() + self._guard.request_timeout
        self._guard.watch(self.loop)

    def _guard_expired(self) -> None:
        self._guard_deadline = 0.0
        cycle = self.cycle
        if cycle is self._guard_cycle:  # no new request began
            idle = cycle is None or cycle.response_complete
        else:  # a new request began: is its body still coming?
            idle = cycle.more_body and not cycle.response_complete
        if idle:
            self.transport.close()

    # httptools' callbacks (h11 bounds a head itself: h11_max_incomplete_event_size)
    def on_message_begin(self) -> None:
        self._guard_head = 0
        super().on_message_begin()  # type: ignore[misc]

    def on_url(self, url: bytes) -> None:
        self._guard_count(len(url))
        super().on_url(url)  # type: ignore[misc]

    def on_header(self, name: bytes, value: bytes) -> None:
        self._guard_count(len(name) + len(value) + 4)
        super().on_header(name, value)  # type: ignore[misc]

    def _guard_count(self, size: int) -> None:
        self._guard_head += size
        if self._guard_head > self._guard.max_head:  # the parser's error: 400, and closed
            raise ValueError(f"a request head over {self._guard.max_head} bytes")

    def on_response_complete(self) -> None:
        done = self.cycle
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            if done is not None and self.cycle is done:
                # no next request began: the answered one (its cycle and scope, which the
                # app filled) is not kept while the connection waits (uvicorn's protocols
                # start from None, as for a new connection)
                self.cycle = None
                if getattr(self, "scope", None) is done.scope:
                    self.scope = None
            self._guard_arm()


def guarded_protocol(
    base: type[asyncio.Protocol],
    *,
    request_timeout: float = REQUEST_TIMEOUT,
    max_head: int = MAX_HEAD,
    max_connections: int | None = MAX_CONNECTIONS,
    max_client_connections: int | None = MAX_CLIENT_CONNECTIONS,
    trusted: Callable[[str], bool] = lambda host: False,
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class `base` (httptools' or h11's) with what uvicorn does not
    do itself: a connection must send each request's head and body within
    `request_timeout` seconds (from its opening, or the end of the previous answer) and a
    head of at most `max_head` bytes, else it is closed; at most `max_connections` are
    open at once (503 and closed past it) and at most `max_client_connections` from one
    client (429 and closed past it; a `trusted` address, a proxy that speaks for many
    clients, is not counted)."""
    state = _GuardState(request_timeout, max_head, max_connections, max_client_connections, trusted)
    guarded: type[asyncio.Protocol] = type(
        f"Guarded{base.__name__}", (_GuardedConnection, base), {"_guard": state}
    )
    return guarded


__all__ = [
    "CREATE_RATE",
    "MAX_CLIENT_CONNECTIONS",
    "MAX_CLIENTS",
    "MAX_CONNECTIONS",
    "MAX_HEAD",
    "REQUEST_TIMEOUT",
    "CreateLimit",
    "RequestGuard",
    "TooManyRequestsError",
    "charge_creation",
    "client_of",
    "guarded_protocol",
    "split_host",
]
