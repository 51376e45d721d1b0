"""The live events of a game as its event streams send them (Server-Sent Events): the whole
state once, when a stream starts, then one `change` per version that carries only what
changed (`diff`), each encoded once for every stream that asked for the same fields; and
the stream itself (`EventStream`), a plain ASGI response that writes what it is handed.

A change's data is ``{"version": V, "set": {...}, "append": {...}, "edit": {...}}`` against
version V - 1 (docs/web.md, Live events): `set` gives the fields whose values changed, whole;
`append` the large list fields that grew at their end (``[kept, [items...]]``: the list keeps
its first `kept` items, then the items follow); `edit` the large text fields (a board's SVG)
as edits of the previous text (``[[start, end, text], ...]``, ascending: the characters from
`start` to `end` become `text`). A field left out did not change."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from starlette.background import BackgroundTask
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from LudoGame._core import TextPieces

#: JSON as the events carry it: compact, ASCII only (so that text offsets count the same
#: characters in Python and in a browser's JavaScript).
encode = json.JSONEncoder(separators=(",", ":")).encode

#: Where a large text field is cut into pieces to find what changed: the boards' SVGs draw a
#: rectangle for each square, and a move changes the pieces of a few squares (the pieces only
#: make edits small; any text is edited correctly).
PIECE = "<rect "

#: What an edit costs in a change's JSON beside its text (``[start,end,""]``, about): the
#: edits are sent only when they are shorter than the text whole.
EDIT_OVERHEAD = 16


class Shape:
    """What the last state a game's streams were sent held, enough to say what the next one
    changed: its version, its small fields' values, each large list's length and last item,
    and each large text's pieces (`Pieces`: their hashes, not the text)."""

    __slots__ = ("version", "small", "lists", "texts")

    def __init__(self, version: int) -> None:
        self.version = version
        self.small: dict[str, Any] = {}
        self.lists: dict[str, tuple[int, Any]] = {}
        self.texts: dict[str, Pieces] = {}

    @classmethod
    def of(cls, state: dict[str, Any], large: tuple[str, ...]) -> Shape:
        """The shape of a whole `state`."""
        shape = cls(int(state["version"]))
        for k, v in state.items():
            shape._keep(k, v, large)
        return shape

    def learn(self, state: dict[str, Any], large: tuple[str, ...]) -> None:
        """Take from `state` (whole, at this shape's version) the large fields it does not
        know yet (a stream that asks for them joined)."""
        if int(state["version"]) != self.version:
            return
        for k in large:
            if k in state and k not in self.lists and k not in self.texts:
                self._keep(k, state[k], large)

    def _keep(self, k: str, v: Any, large: tuple[str, ...]) -> None:
        if k not in large:
            self.small[k] = v
        elif isinstance(v, list):
            self.lists[k] = (len(v), v[-1] if v else None)
        elif isinstance(v, str):
            self.texts[k] = Pieces(v)
        else:
            self.small[k] = v

    def since(self, fields: frozenset[str]) -> int:
        """From which item on a state must hold its large lists (of `fields`) for `diff`:
        the last item the streams have, to check that the list only grew."""
        known = [n for k, (n, _) in self.lists.items() if k in fields]
        if len(known) < len(fields & set(self.lists)) or not known:
            return 0
        return max(0, min(known) - 1)

    def diff(self, state: dict[str, Any], large: tuple[str, ...], since: int = 0) -> Event:
        """The change from this shape to `state` (the next version, its large lists holding
        their items from index `since` on), and this shape moved on to it. A large field
        this shape does not know (no stream asked for it before) is set whole."""
        version = int(state["version"])
        sets: dict[str, Any] = {}
        appends: dict[str, list[Any]] = {}
        edits: dict[str, list[list[Any]]] = {}
        small, lists, texts = self.small, self.lists, self.texts
        for k in large:  # a large field not in `state` now: the streams' copy is forgotten
            if k not in state:
                lists.pop(k, None)
                texts.pop(k, None)
        for k, v in state.items():
            if k == "version":
                continue
            if k not in large or not isinstance(v, (list, str)):
                old = small.get(k, _NONE)
                if old != v:
                    small[k] = v
                    if isinstance(v, list) and isinstance(old, list) and v[: len(old)] == old:
                        appends[k] = [len(old), v[len(old) :]]  # a small list that grew
                    else:
                        sets[k] = v
            elif isinstance(v, list):
                had = lists.get(k)
                n = since + len(v)
                lists[k] = (n, v[-1] if v else None)
                if had is not None and since <= had[0] <= n:
                    kept = had[0]
                    if kept == since == 0 or (kept > since and v[kept - 1 - since] == had[1]):
                        if n > kept:  # the list grew at its end
                            appends[k] = [kept, v[kept - since :]]
                        continue
                if since:  # not the list the streams have, and only its tail at hand
                    raise ValueError(f"{k} changed before its item {since}")
                sets[k] = v  # new to the streams, or changed otherwise (an undo)
            else:
                old_text = texts.get(k)
                new_text = texts[k] = Pieces(v)
                if old_text is None:
                    sets[k] = v
                elif not old_text.same(new_text):
                    found = new_text.edits_from(old_text, v)
                    if found is None:
                        sets[k] = v
                    else:
                        edits[k] = found
        self.version = version
        parts = {"set": sets, "append": appends, "edit": edits}
        return Event(version, "change", {k: v for k, v in parts.items() if v})


_NONE = object()


class Pieces:
    """A large text (a board's SVG) as a shape remembers it: the hash and length of each of
    its pieces (cut at `PIECE`), from which the edits to the next text are found without
    keeping the text (the engine's `TextPieces`)."""

    __slots__ = ("_pieces",)

    def __init__(self, text: str) -> None:
        self._pieces = TextPieces(text, PIECE)

    def same(self, other: Pieces) -> bool:
        """Do both texts have the same pieces?"""
        return self._pieces.same(other._pieces)

    def edits_from(self, old: Pieces, text: str) -> list[list[Any]] | None:
        """The edits that make this text (`text`) of `old`'s: ``[start, end, text]``,
        ascending, in the old text's character offsets (neighbouring pieces that changed
        make one edit); None when the text whole is as short, or a text is not ASCII (a
        browser counts offsets in UTF-16 units)."""
        return self._pieces.edits_from(old._pieces, text, EDIT_OVERHEAD)


class Event:
    """One event of a game's streams: the whole `state` (``event: state``) or a `change`
    (``event: change``, made by `Shape.diff`), at `version`; encoded once per choice of the
    large fields a stream asked for (shared by every stream of the game)."""

    __slots__ = ("version", "kind", "data", "_texts")

    def __init__(self, version: int, kind: str, data: dict[str, Any]) -> None:
        self.version = version
        self.kind = kind
        self.data = data
        self._texts: dict[frozenset[str], bytes] = {}

    def text(self, fields: frozenset[str], large: tuple[str, ...]) -> bytes:
        """The event as a stream that asked for the large `fields` sends it."""
        text = self._texts.get(fields)
        if text is None:
            data = self.data
            if self.kind == "state":
                body = {k: v for k, v in data.items() if k in fields or k not in large}
            else:
                body = {"version": self.version}
                for part, found in data.items():
                    kept = {k: v for k, v in found.items() if k in fields or k not in large}
                    if kept:
                        body[part] = kept
            head = f"id: {self.version}\nevent: {self.kind}\ndata: "
            text = self._texts[fields] = (head + encode(body) + "\n\n").encode()
        return text


def presence_text(connected: dict[str, bool]) -> bytes:
    """A `presence` event: which people's seats have a page open now."""
    return ("event: presence\ndata: " + encode({"connected": connected}) + "\n\n").encode()


#: What a stream sends when its game is deleted (then it ends).
GONE = b'event: gone\ndata: {"gone":true}\n\n'
#: A comment line, sent to a stream silent for a while (so that proxies keep it open).
HEARTBEAT_LINE = b": heartbeat\n\n"
#: Handed to a stream to end it without a word (the server stops).
END = b""


class Stream:
    """One open event stream: the large fields it asked for, the last version it was sent,
    the seats its key holds, and what waits to be written to it (or, once its connection is
    a `Wire`, that wire: what it is handed is written at once)."""

    __slots__ = ("fields", "sent", "seats", "pending", "waiter", "written", "wire")

    def __init__(self, fields: frozenset[str], seats: list[str]) -> None:
        self.fields = fields
        self.sent = -1
        self.seats = seats
        self.pending: list[bytes | Event] = []
        self.waiter: asyncio.Future[None] | None = None
        #: when (`time.monotonic()`) something was last written to it
        self.written = 0.0
        self.wire: Wire | None = None

    def push(self, item: bytes | Event) -> None:
        """Hand `item` to the stream (written in order, soon)."""
        wire = self.wire
        if wire is not None and not wire.paused:
            wire.send(item)
            return
        self.pending.append(item)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


def _nothing() -> None:
    pass


class Wire(asyncio.Protocol):
    """An event stream's connection once the head of its answer is written (HTTP/1.1,
    chunked): the server's HTTP protocol (uvicorn's, with its parser, request cycle, flow
    control and task) hands its transport over to it (`guard.take_over`), and what the
    `Stream` is handed is written at once, as one chunk, with no task. The client's going
    (`connection_lost`), the game's deletion or the server's stopping ends the stream; a
    client that reads too slowly (the transport's buffer full) gets what was handed
    meanwhile once it reads again. `guard` (the server's connection limits, or None) is
    told when the connection closes."""

    __slots__ = ("transport", "stream", "first", "large", "left", "paused", "guard", "client")

    def __init__(
        self, stream: Stream, first: bytes, large: tuple[str, ...], left: Callable[[], None]
    ) -> None:
        self.transport: asyncio.Transport | None = None
        self.stream: Stream | None = stream
        self.first = first
        self.large = large
        self.left = left
        self.paused = False
        self.guard: Any = None
        self.client = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # (uvloop's is no subclass)
        stream = self.stream
        assert stream is not None
        first, self.first = self.first, b""
        self._write(first)
        stream.wire = self
        items, stream.pending = stream.pending, []
        for item in items:
            self.send(item)

    def send(self, item: bytes | Event) -> None:
        """Write `item` (what the stream is handed), or end the stream (`END`, `GONE`)."""
        stream = self.stream
        if stream is None:
            return
        body, ended = _joined([item], stream, self.large)
        self._write(body)
        if ended:
            self._end()

    def _write(self, body: bytes) -> None:
        transport = self.transport
        if body and transport is not None and not transport.is_closing():
            transport.write(b"%x\r\n%b\r\n" % (len(body), body))
            if self.stream is not None:
                self.stream.written = time.monotonic()

    def _end(self) -> None:
        """The stream ends: its last chunk is written and the connection closed (then
        `connection_lost` tells the stream's game)."""
        stream, self.stream = self.stream, None
        if stream is not None:
            stream.wire = None
            stream.pending = []
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.write(b"0\r\n\r\n")
            transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        stream, self.stream = self.stream, None
        if stream is not None:
            stream.wire = None
            stream.pending = []
        self.transport = None
        left, self.left = self.left, _nothing
        left()
        guard, self.guard = self.guard, None
        if guard is not None:
            guard.release(self.client)

    def data_received(self, data: bytes) -> None:
        """(A stream's connection takes no more requests: what the client sends is
        dropped.)"""

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        stream = self.stream
        if stream is not None:
            items, stream.pending = stream.pending, []
            for item in items:
                if self.paused:  # (full again: the rest waits)
                    stream.pending.append(item)
                else:
                    self.send(item)


#: The headers of an event stream's answer (shared by every stream).
HEADERS = [
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
    (b"content-type", b"text/event-stream; charset=utf-8"),
]


class EventStream(Response):
    """The answer of ``GET .../events``: a Server-Sent Events stream that writes what is
    handed to its `Stream` (events, encoded once per game for every stream; presence;
    heartbeats) until the client goes, the game is deleted or the server stops. A plain ASGI
    response: one task, no queue of its own, nothing kept of an event once written."""

    media_type = "text/event-stream"

    def __init__(
        self,
        stream: Stream,
        first: bytes,
        large: tuple[str, ...],
        left: Callable[[], None],
    ) -> None:
        self.stream = stream
        self.first = first
        self.large = large
        self.left = left
        self.status_code = 200
        self.background: BackgroundTask | None = None
        self.raw_headers = HEADERS

    def wire(self) -> Wire:
        """The `Wire` that writes this stream once the head of its answer (status 200 and
        `raw_headers`) is written."""
        return Wire(self.stream, self.first, self.large, self.left)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        stream, large = self.stream, self.large
        loop = asyncio.get_running_loop()

        async def until_gone() -> None:  # the client went (or the server stopped)
            while (await receive())["type"] != "http.disconnect":
                pass

        watch = loop.create_task(until_gone())
        watch.add_done_callback(lambda _: stream.push(END))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            body = self.first
            self.first = b""
            while True:
                if body:
                    await send({"type": "http.response.body", "body": body, "more_body": True})
                    stream.written = time.monotonic()
                    body = b""  # (not kept while the stream waits)
                while not stream.pending:
                    stream.waiter = loop.create_future()
                    await stream.waiter
                    stream.waiter = None
                items, stream.pending = stream.pending, []
                body, ended = _joined(items, stream, large)
                if ended:
                    if body:
                        await send({"type": "http.response.body", "body": body, "more_body": True})
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
        finally:
            watch.cancel()
            self.left()


def _joined(
    items: list[bytes | Event], stream: Stream, large: tuple[str, ...]
) -> tuple[bytes, bool]:
    """The bytes of `items` for `stream` (events it was sent already left out), and whether
    the stream ends after them."""
    out: list[bytes] = []
    for item in items:
        if isinstance(item, Event):
            if item.version <= stream.sent:
                continue  # sent already (the stream started from a later state)
            stream.sent = item.version
            out.append(item.text(stream.fields, large))
        elif item is END:
            return b"".join(out), True
        else:
            out.append(item)
            if item is GONE:
                return b"".join(out), True
    return b"".join(out), False
