"""What keeps a server open to strangers from being crashed, filled or misused: the host
names it answers for and the origins that may change its games (`RequestGuard`), how many
games one client may start a minute (`CreateLimit`), and how long a connection may take to
send a request and how many it may hold (`guarded_protocol`). `LudoGame.web_limits` holds
the defaults; docs/web.md (Limits) explains them."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import ipaddress
import json
import math
import re
import time
import weakref
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

#: The extension of an event stream request's scope (on `guarded_protocol`'s connections
#: served by httptools): a weak reference to its connection, whose `take_over` hands the
#: connection over to the stream.
TAKE_OVER = "ludogame.take_over"


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
    #: the connections handed over to a protocol of the app's (an event stream's `Wire`):
    #: counted, without a deadline
    handed: int = 0
    #: the one timer that closes the connections past their deadline (`_GuardedConnection`),
    #: running while any is open
    sweeping: asyncio.TimerHandle | None = None
    #: a new protocol of the server's, for a kept-alive connection's next request (`_Idle`;
    #: set by the first connection)
    factory: Callable[[], Any] | None = None
    #: uvicorn's connections (its server's state: `_Idle` stands in for its protocol)
    connections: set[Any] = dataclasses.field(default_factory=set)
    #: how long (seconds) a kept-alive connection waits for its next request
    keep_alive: float = 5.0
    #: the kept-alive connections waiting for their next request (`_Idle`), the one that
    #: has waited longest first: closed to make room when a new connection would be past a
    #: limit (`reclaim`)
    idle: dict[Any, None] = dataclasses.field(default_factory=dict)
    #: the same, by client (a client at its own cap looks at its own only)
    client_idle: dict[str, dict[Any, None]] = dataclasses.field(default_factory=dict)

    def rest(self, idle: Any) -> None:
        """`idle` (an `_Idle`) waits for its next request from now on."""
        self.idle[idle] = None
        self.client_idle.setdefault(idle.client, {})[idle] = None

    def wake(self, idle: Any) -> None:
        """`idle` waits no more (its next request came, or it closed)."""
        self.idle.pop(idle, None)
        mine = self.client_idle.get(idle.client)
        if mine is not None:
            mine.pop(idle, None)
            if not mine:
                del self.client_idle[idle.client]

    def reclaim(self, client: str | None = None) -> bool:
        """Close the kept-alive connection that has waited longest for a request (of
        `client` if given) to make room for a new one, as HTTP lets a server close an idle
        connection at any time: True if there was one. One whose answer is still being sent
        is left alone (closed, it would hold its socket, uncounted, until its client read
        the answer)."""
        for idle in self.idle if client is None else self.client_idle.get(client, {}):
            transport = idle.transport
            if transport is not None and not transport.get_write_buffer_size():
                idle.reclaim()
                return True
        return False

    @property
    def sweep_every(self) -> float:
        """How often (seconds) the connections' deadlines are checked: a connection is
        closed at most a quarter of `request_timeout` (and at most 1 s) after its own."""
        return min(1.0, self.request_timeout / 4)

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Check the deadlines from now on (if not already)."""
        if self.sweeping is None:
            self.sweeping = loop.call_later(self.sweep_every, self._sweep, loop)

    def release(self, client: str) -> None:
        """A connection handed over (`take_over`) from `client` ("": not counted) closed."""
        self.handed -= 1
        self._forget(client)

    def _forget(self, client: str) -> None:
        if client:
            left = self.counts.get(client, 1) - 1
            if left > 0:
                self.counts[client] = left
            else:
                self.counts.pop(client, None)

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
    _Idle: type[_Idle]
    # uvicorn's protocol's own attributes
    transport: Any
    cycle: Any
    scope: Any
    pipeline: Any
    headers: Any
    parser: Any
    flow: Any
    server_state: Any
    loop: asyncio.AbstractEventLoop

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        g = self._guard
        if g.factory is None:
            cls: Any = type(self)
            g.factory = functools.partial(
                cls,
                config=self.config,  # type: ignore[attr-defined]
                server_state=self.server_state,
                app_state=self.app_state,  # type: ignore[attr-defined]
                _loop=self.loop,
            )
            g.connections = self.server_state.connections
            g.keep_alive = self.timeout_keep_alive  # type: ignore[attr-defined]
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) and peer else None
        client = "" if address is None or g.trusted(str(address)) else client_of(str(address))
        cap = g.max_client_connections if client else None  # (None: not counted)
        # (the client's own cap first: a client refused anyway closes nobody's connection,
        # and one at the server's cap gives up its own idle connection before another's)
        if cap is not None and g.counts.get(client, 0) >= cap and not g.reclaim(client):
            self._guard_refuse(429, "this address has as many connections open as one client may")
            return
        if (
            g.max_connections is not None
            and len(g.open_now) + g.handed >= g.max_connections
            and not (client and g.reclaim(client))
            and not g.reclaim()
        ):
            self._guard_refuse(503, "the server has as many connections open as it takes")
            return
        if cap is not None:
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
            g._forget(self._guard_client)
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

    def take_over(self, scope: Any, headers: list[tuple[bytes, bytes]], wire: Any) -> bool:
        """Answer the request of `scope` (this connection's, under way) with status 200,
        `headers` and a chunked body that `wire` (an `asyncio.Protocol`, an event stream's
        `events.Wire`) writes: the head is written, and the connection is handed over to
        `wire` (its `connection_made`), with its place among the connections counted
        (`wire.guard`, told when it closes); this protocol, its parser, the request's cycle
        and scope are dropped (the app's task answering the request must end without
        sending anything). False (nothing done) unless the request is still being
        answered, nothing of its answer was sent and nothing is pipelined after it."""
        cycle = self.cycle
        transport = self.transport
        if (
            cycle is None
            or cycle.scope is not scope
            or cycle.response_started
            or cycle.disconnected
            or cycle.more_body
            or getattr(self, "pipeline", None)
            or transport is None
            or transport.is_closing()
            or self not in self._guard.open_now
        ):
            return False
        head = [b"HTTP/1.1 200 OK\r\n"]
        for name, value in [*self.server_state.default_headers, *headers]:
            head += [name, b": ", value, b"\r\n"]
        head.append(b"transfer-encoding: chunked\r\nconnection: close\r\n\r\n")
        # the cycle is done: uvicorn's task sends nothing more once the app returns
        cycle.response_started = cycle.response_complete = True
        cycle.keep_alive = False
        transport.write(b"".join(head))
        g = self._guard
        g.open_now.discard(self)
        g.handed += 1
        wire.guard, wire.client, self._guard_client = g, self._guard_client, ""
        self._guard_deadline = 0.0
        self.server_state.connections.discard(self)
        if self.flow.read_paused:
            transport.resume_reading()  # (the client's going is seen by the wire)
        self.cycle = self._guard_cycle = None
        self.scope = None
        self.headers = None
        self.parser = None  # (which refers to this protocol)
        self.transport = None
        transport.set_protocol(wire)
        wire.connection_made(transport)
        return True

    def on_headers_complete(self) -> None:
        super().on_headers_complete()  # type: ignore[misc]
        scope = self.scope
        if (
            scope.get("method") == "GET"
            and scope["http_version"] == "1.1"
            and scope.get("path", "").endswith("/events")
        ):
            # an event stream's request: the app may take its connection over
            scope["extensions"] = {TAKE_OVER: weakref.ref(self)}

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
        if self.transport is None:  # (handed over: `take_over`, `_guard_idle`)
            return
        done = self.cycle
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            # (a pipelined request's cycle, started just now, is the protocol's cycle already
            # when the one before it completes: it is not the answered one)
            if done is not None and self.cycle is done and done.response_complete:
                # no next request began: the answered one (its cycle and scope, which the
                # app filled) is not kept while the connection waits (uvicorn's protocols
                # start from None, as for a new connection)
                self.cycle = None
                if getattr(self, "scope", None) is done.scope:
                    self.scope = None
                    if getattr(self, "parser", None) is not None and not self.pipeline:
                        self._guard_idle()
                        return
            self._guard_arm()

    def _guard_idle(self) -> None:
        """No request under way or begun (httptools'): the connection waits for the next as
        an `_Idle`, without this protocol (its parser, flow control, pipeline and timer)."""
        self._unset_keepalive_if_required()  # type: ignore[attr-defined]
        g = self._guard
        transport = self.transport
        g.open_now.discard(self)
        g.connections.discard(self)
        now = self.loop.time()
        idle = self._Idle(transport, self._guard_client, now)
        self._guard_client = ""
        self._guard_deadline = 0.0
        self.parser = None  # (which refers to this protocol)
        self.transport = None
        self.headers = None
        transport.set_protocol(idle)
        g.open_now.add(idle)
        g.connections.add(idle)
        g.rest(idle)
        g.watch(self.loop)

    def _guard_resume(self, transport: Any, client: str, since: float) -> None:
        """Take a kept-alive connection back from its `_Idle` (counted already, waiting
        for a request since `since`, the loop's time)."""
        super().connection_made(transport)  # type: ignore[misc]  # (uvicorn's own)
        self._guard_client = client
        self._guard.open_now.add(self)
        self._guard_cycle = self.cycle
        self._guard_head = 0
        self._guard_deadline = since + self._guard.request_timeout


class _Idle(asyncio.Protocol):
    """A kept-alive connection of `guarded_protocol` between two requests: its transport,
    its client (counted by the limits) and since when it waits; closed once it waited
    `keep_alive` seconds (uvicorn's --timeout-keep-alive) or `request_timeout`, whichever is
    shorter (checked with the other connections' deadlines, `_GuardState.watch`), or sooner
    to make room for a new connection past a limit (`_GuardState.reclaim`). The server's
    protocol is made again for its next request (its first bytes), so that an
    idle connection holds none of it (its parser, flow control, pipeline and timer)."""

    __slots__ = ("transport", "client", "since", "_guard_deadline")

    _guard: _GuardState

    def __init__(self, transport: Any, client: str, since: float) -> None:
        self.transport = transport
        self.client = client
        self.since = since
        g = self._guard
        self._guard_deadline = since + min(g.keep_alive, g.request_timeout)

    def data_received(self, data: bytes) -> None:
        transport, self.transport = self.transport, None
        g = self._guard
        g.open_now.discard(self)
        g.connections.discard(self)
        g.wake(self)
        assert g.factory is not None
        protocol = g.factory()
        protocol._guard_resume(transport, self.client, self.since)
        transport.set_protocol(protocol)
        protocol.data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.transport = None
            self._let_go()

    def _let_go(self) -> None:
        g = self._guard
        g.open_now.discard(self)
        g.connections.discard(self)
        g.wake(self)
        g._forget(self.client)

    def reclaim(self) -> None:
        """Close the connection to make room for a new one: it stops counting now."""
        transport, self.transport = self.transport, None
        if transport is not None:
            self._let_go()
            transport.close()

    def _guard_expired(self) -> None:
        self._guard_deadline = 0.0
        if self.transport is not None:
            self.transport.close()

    def shutdown(self) -> None:
        """(uvicorn's server stops: an idle connection is closed at once.)"""
        if self.transport is not None:
            self.transport.close()


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
        f"Guarded{base.__name__}",
        (_GuardedConnection, base),
        {"_guard": state, "_Idle": type("Idle", (_Idle,), {"__slots__": (), "_guard": state})},
    )
    return guarded


__all__ = [
    "CREATE_RATE",
    "MAX_CLIENT_CONNECTIONS",
    "MAX_CLIENTS",
    "MAX_CONNECTIONS",
    "MAX_HEAD",
    "REQUEST_TIMEOUT",
    "TAKE_OVER",
    "CreateLimit",
    "RequestGuard",
    "TooManyRequestsError",
    "charge_creation",
    "client_of",
    "guarded_protocol",
    "split_host",
]
