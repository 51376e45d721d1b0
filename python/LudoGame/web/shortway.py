"""The short way in for what a game's players send all the time: a plain event stream
request, answered before FastAPI (`plain_events`), and a plain action, answered without
FastAPI's routing (`ShortWay`)."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl

from fastapi import Response
from pydantic import BaseModel
from starlette.types import ASGIApp, Receive, Scope, Send

from LudoGame.web.errors import ApiError, error_response, replay_body
from LudoGame.web.guard import TAKE_OVER

if TYPE_CHECKING:
    from LudoGame.web.games import Games


#: A person's action a `ShortWay` may answer: its body's model, and its route's function
#: (called with ``game_id``, ``body``, ``fields`` and ``x_seat_key``).
Action = tuple[type[BaseModel], Callable[..., Awaitable[Response]]]


#: A game's address and what follows it: its kind, its id and the last part.
PATH = re.compile(r"/api/([a-z]+)/games/([^/]+)/([a-z]+)")


async def plain_events(
    games: Games, scope: Scope, receive: Receive, send: Send, host_ok: Callable[[Scope], bool]
) -> bool:
    """Answer a plain event stream request (``GET /api/KIND/games/ID/events`` with
    ``?fields=``, ``?seat_key=`` and ``Last-Event-ID`` at most once, nothing else asked, no
    body, and a Host `host_ok` accepts) with `EventHub.events`, before FastAPI and its
    middleware: True if answered. On a connection of `guard.guarded_protocol` the stream
    takes the connection over once its answer's head is written (`events.Wire`: uvicorn's
    request cycle, flow control and task are dropped). An open stream holds the coroutines
    of every layer it went through for its whole life (hours); this way it holds none of
    FastAPI's.
    Anything else, and a stream `EventHub.events` refuses, is left to the app (False): its
    checks and its route (the one the API documents) answer it, saying why."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return False
    found = PATH.fullmatch(scope["path"])
    if found is None:
        return False
    kind, ident, what = found.groups()
    cls = games.kinds.get(kind)
    if what != "events" or cls is None:
        return False
    query = _plain(scope, {"fields", "seat_key"}, {b"last-event-id"})
    if query is None or not host_ok(scope):
        return False
    for name, _ in scope["headers"]:
        if name in (b"content-length", b"transfer-encoding"):
            return False  # a body: the app's body checks see it
    try:
        stream = await games.hub.events(
            cls,
            ident,
            f"{kind} game",
            query.get("fields"),
            query.get("last-event-id"),
            query.get("seat_key"),
        )
    except ApiError:
        return False  # the route answers it (a 4xx or 503), saying why
    take = scope.get("extensions", {}).get(TAKE_OVER)
    connection = None if take is None else take()
    if connection is None or not connection.take_over(scope, stream.raw_headers, stream.wire()):
        await stream(scope, receive, send)  # (no connection to take over: a plain response)
    return True


class ShortWay:
    """ASGI middleware (inside the Host, Origin and body-size checks), the short way in for
    what a game's players send all the time: a plain action (``POST
    /api/KIND/games/ID/ACTION`` of `Games.actions`: a JSON body its model accepts) is
    answered by its route's own function, without FastAPI's routing and request machinery
    (the plain event streams are answered before the app, by `plain_events`). An action is
    plain when ``?fields=``, ``X-Seat-Key`` and ``Content-Type`` come at most once and
    nothing else is asked. Anything else, and a body its model refuses, goes on to the app:
    its route (the one the API documents) answers it, saying why; an action refused is
    answered here, in the one error shape."""

    PATH = PATH

    def __init__(self, app: ASGIApp, games: Games) -> None:
        self.app = app
        self.games = games

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if found is not None and scope["method"] == "POST":
            kind, ident, what = found.groups()
            if (kind, what) in self.games.actions:
                action = self.games.actions[kind, what]
                rest = await self._act(action, ident, scope, receive, send)
                if rest is None:
                    return
                receive = rest
        await self.app(scope, receive, send)

    async def _act(
        self, action: Action, ident: str, scope: Scope, receive: Receive, send: Send
    ) -> Receive | None:
        """Answer the action if it is plain (None); else the `receive` the app reads its
        body from."""
        query = _plain(scope, {"fields"}, {b"x-seat-key", b"content-type"})
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return receive  # (the client went: the app sees it)
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        raw = b"".join(chunks)
        replay = replay_body(raw, receive)
        if query is None or query.get("content-type") != "application/json" or not raw:
            return replay
        model, route = action
        try:
            body = model.model_validate(json.loads(raw))
        except (ValueError, RecursionError):  # not JSON, or not the body: the route says why
            return replay
        try:
            response = await route(
                game_id=ident,
                body=body,
                fields=query.get("fields"),
                x_seat_key=query.get("x-seat-key"),
            )
        except ApiError as e:
            response = error_response(e.status, e.kind, e.message)
            response.headers.update(e.headers)
        await response(scope, replay, send)
        return None


def _plain(scope: Scope, params: set[str], headers: set[bytes]) -> dict[str, str] | None:
    """The query parameters (of `params`) and headers (of `headers`, by their lower-case
    names) of a request that has each at most once and no other query parameter; None for
    any other request."""
    try:
        query = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
    except ValueError:
        return None
    out = dict(query)
    if len(out) != len(query) or not set(out) <= params:
        return None
    for name, value in scope["headers"]:
        if name in headers:
            key = name.decode("latin-1")
            if key in out:
                return None
            out[key] = value.decode("latin-1")
    return out
