"""The one error shape of the web API: every refused request is a 4xx answer whose body is
``{"error": {"status": ..., "type": ..., "message": ...}}``, never a 500."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from LudoGame._core import GameOverError, LudoError

#: The largest request body the server reads (1 MB).
MAX_BODY = 1_000_000

_HTTP_TYPES = {
    400: "BadRequest",
    404: "NotFound",
    405: "MethodNotAllowed",
    409: "Conflict",
    413: "BodyTooLarge",
    415: "UnsupportedMediaType",
    422: "ValidationError",
    429: "TooManyRequests",
}


class ApiError(Exception):
    """A refused request: its HTTP status, a type name and a readable sentence."""

    def __init__(
        self, status: int, kind: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message
        #: headers of the answer (``Retry-After`` of a 429)
        self.headers = headers or {}


def not_found(what: str, ident: str) -> ApiError:
    """The answer for an id that is not (or no longer) held."""
    return ApiError(
        404,
        "NotFound",
        f"the {what} {short(ident)} is not (or no longer) on this server: "
        "start a new one, or load it from a saved file or its position",
    )


#: The most characters of an input a message quotes (as the engine's `common::excerpt`).
EXCERPT_CHARS = 60
#: The longest message an error answer carries: a last guard against a message that quotes
#: a whole input (the engine's and this server's messages quote excerpts).
MAX_MESSAGE = 600


def excerpt(text: str) -> str:
    """`text` as a message quotes it, in the engine's way (`common::excerpt`, which the
    binding does not expose): whole when it is one line of at most `EXCERPT_CHARS`
    characters, else its first characters up to the first line break, ``...`` and its
    length."""
    first = text.split("\n", 1)[0]
    if first == text and len(text) <= EXCERPT_CHARS:
        return text
    return f"{first[:EXCERPT_CHARS]}... ({len(text)} characters)"


def short(text: str) -> str:
    """`text` quoted for a message: its `excerpt`, in quotes."""
    return repr(excerpt(text))


def conflict(kind: str, message: str) -> ApiError:
    """A request that does not fit the game's state now (out of turn, wrong phase, ...)."""
    return ApiError(409, kind, message)


def engine_error(e: LudoError) -> ApiError:
    """The answer for an error the engine raised on bad input, by its type in the engine's
    exception family: 409 for a move after the game is over (a `GameOverError`, Ludo's or
    Onitama's), else 400, with the engine's own message and exception name."""
    status = 409 if isinstance(e, GameOverError) else 400
    return ApiError(status, type(e).__name__, str(e))


#: What the engine raises for input it refuses: its own exception family. Anything else
#: (a plain `TypeError`, ...) is a bug of the server, not the client's doing.
ENGINE_ERRORS = (LudoError,)


def error_body(status: int, kind: str, message: str) -> dict[str, Any]:
    """The JSON body of an error answer."""
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + f"... ({len(message)} characters)"
    return {"error": {"status": status, "type": kind, "message": message}}


def error_response(status: int, kind: str, message: str) -> JSONResponse:
    """An error answer."""
    return JSONResponse(error_body(status, kind, message), status_code=status)


#: The answers (400) to a request body that is not JSON, and to JSON nested too deep to read.
NOT_JSON = "the request body is not valid JSON"
TOO_DEEP = "the request body cannot be read as JSON (it may nest too deep)"

_UNION_MEMBER = re.compile(
    r"^(constrained-|function-|list\[|dict\[|literal\[|nullable\[|model\b)|^(int|str|float|bool)$"
)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = []
        for x in err.get("loc", ()):
            if isinstance(x, str) and _UNION_MEMBER.match(x):
                break  # which member of a union failed: pydantic's names, not the field's
            if x != "body":
                loc.append(excerpt(str(x)))
        where = ".".join(loc) if loc else "the body"
        msg = str(err.get("msg", "is not valid"))
        if err.get("type") == "json_invalid":
            return NOT_JSON
        if err.get("type") == "missing" and not loc:
            return "the request needs a JSON body"
        if f"{where}: {msg}" not in parts:  # the same refusal by two forms of a union
            parts.append(f"{where}: {msg}")
    return "bad request: " + "; ".join(parts) if parts else "bad request"


def install(app: FastAPI, page: Path | None = None) -> None:
    """Make every error of `app` answer in the one shape; an unknown address outside the
    API (``/api``) and the static files answers 404 with the HTML `page` if given (its
    script says there is no such page)."""

    @app.exception_handler(ApiError)
    async def _api(request: Request, exc: ApiError) -> JSONResponse:
        answer = error_response(exc.status, exc.kind, exc.message)
        answer.headers.update(exc.headers)
        return answer

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        message = _validation_message(exc)
        status = 400 if message == NOT_JSON else 422
        return error_response(status, _HTTP_TYPES[status], message)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> JSONResponse:
        status = exc.status_code
        path = request.url.path
        if status == 404 and page is not None and not path.startswith(("/api/", "/static/")):
            if path != "/api":
                return FileResponse(page, status_code=404, media_type="text/html")  # type: ignore[return-value]
        if status == 404:
            message = f"there is nothing at {request.url.path}"
        elif status == 400 and exc.detail == "There was an error parsing the body":
            # FastAPI's answer when json.loads itself fails, as on JSON nested too deep
            message = TOO_DEEP
        else:
            message = str(exc.detail)
        answer = error_response(status, _HTTP_TYPES.get(status, "HTTPError"), message)
        answer.headers.update(exc.headers or {})
        if status == 405:
            answer.headers["Allow"] = ", ".join(sorted(_allowed(request)))
        return answer


def _allowed(request: Request) -> set[str]:
    """Every method some route serves at the request's path (Starlette's own 405 names
    only the first route's)."""
    allowed: set[str] = set()
    for route in request.app.router.routes:
        methods = getattr(route, "methods", None)
        if methods and route.matches(request.scope)[0] != Match.NONE:
            allowed |= methods
    return allowed


def _is_json_type(content_type: str) -> bool:
    """Does a Content-Type name JSON (``application/json`` or ``application/...+json``,
    with any parameters)?"""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def body_type_refusal(content_type: str | None, body: bytes) -> tuple[int, str, str] | None:
    """Why a request body sent to the API with `content_type` (None: no such header) is
    refused before any route reads it, as (status, type, message), or None when it is not.
    A body is read as JSON only when sent as JSON (as FastAPI does, so that a page of
    another site cannot post JSON through a plain form); but whatever its type, a body
    that is not JSON at all is 400 (the same answer as for a JSON type), and only JSON
    sent under another type is 415."""
    if not body or (content_type is not None and _is_json_type(content_type)):
        return None
    try:
        json.loads(body)
    except RecursionError:
        return 400, "BadRequest", TOO_DEEP
    except ValueError:
        return 400, "BadRequest", NOT_JSON
    given = "no Content-Type" if content_type is None else f"Content-Type {short(content_type)}"
    return (
        415,
        "UnsupportedMediaType",
        f"the request body is JSON but was sent with {given}: send it as application/json",
    )


#: The methods whose body the API reads (as JSON).
_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the request body already read, `body`, whole, then whatever
    `receive` gives (the client leaving)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class BodyLimit:
    """ASGI middleware: a body over `limit` bytes gets 413 before any route sees it, and a
    body sent to the API (``/api/``) that is not JSON, or JSON not sent as JSON, its 400 or
    415 (`body_type_refusal`)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = False
                if too_big:
                    await self._refuse(send)
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if scope.get("method") in _WITH_BODY and scope.get("path", "").startswith("/api/"):
            types = [v for n, v in scope.get("headers", []) if n == b"content-type"]
            given = types[0].decode("latin-1") if types else None
            refusal = body_type_refusal(given, body)
            if refusal is not None:
                await self._answer(send, *refusal)
                return
        await self.app(scope, replay_body(body, receive), send)

    async def _refuse(self, send: Send) -> None:
        await self._answer(
            send, 413, "BodyTooLarge", f"the request body is over {self.limit:,} bytes", True
        )

    @staticmethod
    async def _answer(
        send: Send, status: int, kind: str, message: str, close: bool = False
    ) -> None:
        """Send an error answer from the middleware (`close`: and end the connection, whose
        body may not have been read)."""
        payload = json.dumps(error_body(status, kind, message)).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
        ]
        if close:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})
