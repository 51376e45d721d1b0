"""The short way in for what a game's players send all the time (`ShortWay`): a plain
event stream request and a plain action, answered without FastAPI's routing."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from fastapi import Response
from pydantic import BaseModel
from starlette.types import ASGIApp, Receive, Scope, Send

from LudoGame.web.errors import ApiError, error_response

if TYPE_CHECKING:
    from LudoGame.web.games import Games


#: A person's action a `ShortWay` may answer: its body's model, and its route's function
#: (called with ``game_id``, ``body``, ``fields`` and ``x_seat_key``).
Action = tuple[type[BaseModel], Callable[..., Awaitable[Response]]]


class ShortWay:
    """ASGI middleware (inside the Host, Origin and body-size checks), the short way in for
    what a game's players send all the time: a plain event stream request (``GET
    /api/KIND/games/ID/events``) is answered by `EventHub.events`, and a plain action (``POST
    /api/KIND/games/ID/ACTION`` of `Games.actions`: a JSON body its model accepts) by its
    route's own function, without FastAPI's routing and request machinery (which an open
    stream would hold for hours). A request is plain when ``?fields=``, ``?seat_key=``,
    ``Last-Event-ID`` and ``X-Seat-Key`` come at most once and nothing else is asked.
    Anything else, and a stream `EventHub.events` refuses or a body its model refuses, goes
    on to the app: its route (the one the API documents) answers it, saying why; an
    action refused is answered here, in the one error shape."""

    PATH = re.compile(r"/api/([a-z]+)/games/([^/]+)/([a-z]+)")

    def __init__(self, app: ASGIApp, games: Games) -> None:
        self.app = app
        self.games = games

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if found is not None:
            kind, ident, what = found.groups()
            method = scope["method"]
            if method == "GET" and what == "events":
                if await self._events(kind, ident, scope, receive, send):
                    return
            elif method == "POST" and (kind, what) in self.games.actions:
                action = self.games.actions[kind, what]
                rest = await self._act(action, ident, scope, receive, send)
                if rest is None:
                    return
                receive = rest
        await self.app(scope, receive, send)

    async def _events(
        self, kind: str, ident: str, scope: Scope, receive: Receive, send: Send
    ) -> bool:
        cls = self.games.kinds.get(kind)
        query = _plain(scope, {"fields", "seat_key"}, {b"last-event-id"})
        if cls is None or query is None:
            return False
        last = query.get("last-event-id")
        try:
            stream = await self.games.hub.events(
                cls, ident, f"{kind} game", query.get("fields"), last, query.get("seat_key")
            )
        except ApiError:
            return False  # the route answers it (a 4xx or 503), saying why
        await stream(scope, receive, send)
        return True

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
        sent = False

        async def replay() -> Any:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

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
