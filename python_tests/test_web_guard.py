"""A server that strangers cannot crash or fill (``ludo serve`` against hostile clients):
arbitrary header, query and body bytes on every route (straight into the ASGI app, and
through a raw socket to the real server, since HTTP clients refuse non-ASCII header
values), seat keys kept as digests in a real SQLite file, the per-client limit on new
games, expiring games, the Host allowlist and the Origin check, request timeouts and
connection caps held against raw sockets, the store file's mode, and searches that stop
when their game is deleted or the server stops. Each test asserts what is contained (a
status, a count, a file's bytes), never only that nothing crashed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

import httpx  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from LudoGame.web import KEEP_ALIVE, create_app  # noqa: E402
from LudoGame.web.database import SCHEMA_VERSION, MemoryStorage, Row, SqliteStorage  # noqa: E402
from LudoGame.web.errors import ApiError  # noqa: E402
from LudoGame.web.guard import (  # noqa: E402
    CreateLimit,
    TooManyRequestsError,
    _GuardState,
    _Idle,
    client_of,
)
from LudoGame.web_limits import CREATE_RATE, MAX_CLIENT_CONNECTIONS  # noqa: E402
from test_web_online import check_error, created, free_port  # noqa: E402

LUDO = "/api/ludo/games"
ONI = "/api/onitama/games"


# ---- a raw ASGI client: any bytes at all ---------------------------------------------------


async def _raw(
    app: FastAPI,
    method: str,
    path: str,
    query: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
    body: bytes = b"",
    client: tuple[str, int] = ("127.0.0.1", 50000),
) -> tuple[int, dict[bytes, bytes], bytes]:
    """One request straight into the ASGI `app` (its status, headers and body; of a stream,
    its first part, then the client goes away)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query,
        "headers": headers or [],
        "client": client,
        "server": ("127.0.0.1", 8000),
    }
    sent = False
    gone = asyncio.Event()
    first = asyncio.Event()
    status = 0
    answer: dict[bytes, bytes] = {}
    parts: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            answer.update(dict(message.get("headers", [])))
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))
            if message.get("body") or not message.get("more_body", False):
                first.set()

    task = asyncio.ensure_future(app(scope, receive, send))  # type: ignore[arg-type]
    done = asyncio.ensure_future(first.wait())
    await asyncio.wait({task, done}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    gone.set()
    await asyncio.wait_for(task, 30)
    done.cancel()
    return status, answer, b"".join(parts)


def raw(c: TestClient, *args: Any, **kwargs: Any) -> tuple[int, dict[bytes, bytes], bytes]:
    """`_raw` on the event loop of the test client `c` (where the app's lifespan runs)."""
    return c.portal.call(lambda: _raw(c.app, *args, **kwargs))  # type: ignore[arg-type]


def error_of(status: int, body: bytes) -> dict[str, Any]:
    """The error of an answer in the one shape."""
    err: dict[str, Any] = json.loads(body)["error"]
    assert err["status"] == status and set(err) == {"status", "type", "message"}
    return err


# ---- online games on both stores ------------------------------------------------------------


class Online:
    """A test client on `create_app(store=...)` with an online Ludo game and an online
    Onitama game (a remote seat each), one step into each (so that undo has a person's
    step to take back), and their keys."""

    def __init__(self, store: str) -> None:
        self.client = TestClient(create_app(store=store, create_rate=None))
        c = self.client.__enter__()
        s, keys = created(c.post(LUDO, json={"players": "AB", "seats": {"B": "remote"}}))
        self.ludo, self.ludo_keys = s["id"], keys
        r = c.post(f"{LUDO}/{s['id']}/roll", headers={"X-Seat-Key": keys["host_key"]})
        assert r.status_code == 200, r.text
        s, keys = created(c.post(ONI, json={"setup": "21", "sides": {"B": {"kind": "remote"}}}))
        self.oni, self.oni_keys = s["id"], keys
        ply = s["legal_moves"][0]["text"]
        r = c.post(
            f"{ONI}/{s['id']}/action",
            json={"action": ply},
            headers={"X-Seat-Key": keys["host_key"]},
        )
        assert r.status_code == 200, r.text

    def versions(self) -> tuple[int, int]:
        c = self.client
        return (
            c.get(f"{LUDO}/{self.ludo}?fields=").json()["version"],
            c.get(f"{ONI}/{self.oni}?fields=").json()["version"],
        )

    def routes(self) -> list[tuple[str, str, bytes]]:
        """Every keyed route of both games: method, path, a body that fits it."""
        g, o = self.ludo, self.oni
        return [
            ("POST", f"{LUDO}/{g}/roll", b"{}"),
            ("POST", f"{LUDO}/{g}/move", b'{"move": "Ap"}'),
            ("POST", f"{LUDO}/{g}/bot", b"{}"),
            ("POST", f"{LUDO}/{g}/undo", b"{}"),
            ("POST", f"{LUDO}/{g}/rematch", b"{}"),
            ("DELETE", f"{LUDO}/{g}", b""),
            ("POST", f"{ONI}/{o}/action", b'{"action": "1 e1 d1 u"}'),
            ("POST", f"{ONI}/{o}/ai", b"{}"),
            ("POST", f"{ONI}/{o}/undo", b"{}"),
            ("POST", f"{ONI}/{o}/rematch", b"{}"),
            ("DELETE", f"{ONI}/{o}", b""),
        ]

    def close(self) -> None:
        self.client.__exit__(None, None, None)


@pytest.fixture(scope="module", params=["memory", "sqlite"])
def online(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Online]:
    store = "memory"
    if request.param == "sqlite":
        store = f"sqlite:///{tmp_path_factory.mktemp('guard') / 'games.sqlite3'}"
    held = Online(store)
    yield held
    held.close()


_JSON = [(b"content-type", b"application/json")]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(key=st.binary(max_size=64), route=st.integers(0, 10))
def test_any_key_bytes_on_every_keyed_route_are_a_403_and_change_nothing(
    online: Online, key: bytes, route: int
) -> None:
    """X-Seat-Key of any bytes (non-ASCII, control characters, empty), on every keyed route
    of both games and both stores: 403 `NotYourSeat`, and both games unchanged."""
    before = online.versions()
    method, path, body = online.routes()[route]
    status, _, answer = raw(
        online.client, method, path, headers=[*_JSON, (b"x-seat-key", key)], body=body
    )
    assert status == 403, answer[:300]
    assert error_of(status, answer)["type"] == "NotYourSeat"
    assert online.versions() == before


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(key=st.binary(max_size=64), encoded=st.booleans(), onitama=st.booleans())
def test_any_seat_key_in_an_event_stream_query_marks_no_seat(
    online: Online, key: bytes, encoded: bool, onitama: bool
) -> None:
    """``?seat_key=`` of any bytes (percent-encoded or raw): the stream opens (200) and its
    first state shows no seat connected."""
    path = f"{ONI}/{online.oni}/events" if onitama else f"{LUDO}/{online.ludo}/events"
    query = b"fields=&seat_key=" + (urllib.parse.quote_from_bytes(key).encode() if encoded else key)
    status, headers, answer = raw(online.client, "GET", path, query=query)
    assert status == 200 and headers[b"content-type"].startswith(b"text/event-stream")
    data = [line for line in answer.decode().splitlines() if line.startswith("data: ")]
    if data:  # the first part may be the stream's opening comment alone
        assert not any(json.loads(data[0][6:])["connected"].values())


def test_a_non_ascii_key_is_a_wrong_key_on_every_keyed_route(online: Online) -> None:
    """The issue's own cases: ``X-Seat-Key: ü`` (UTF-8 bytes and Latin-1) and
    ``?seat_key=%C3%BC``: a 403 on every keyed route, nothing changed."""
    before = online.versions()
    for method, path, body in online.routes():
        for key in ("ü".encode(), "ü".encode("latin-1"), b"\xff\xfe"):
            status, _, answer = raw(
                online.client, method, path, headers=[*_JSON, (b"x-seat-key", key)], body=body
            )
            assert status == 403 and error_of(status, answer)["type"] == "NotYourSeat", path
    status, _, _ = raw(
        online.client, "GET", f"{LUDO}/{online.ludo}/events", query=b"seat_key=%C3%BC"
    )
    assert status == 200 and online.versions() == before


_NAMES = st.sampled_from(
    [
        b"host",
        b"origin",
        b"referer",
        b"content-type",
        b"content-length",
        b"last-event-id",
        b"x-seat-key",
        b"x-forwarded-for",
        b"accept",
        b"cookie",
        b"transfer-encoding",
    ]
) | st.binary(min_size=1, max_size=20)
_HEADERS = st.lists(st.tuples(_NAMES, st.binary(max_size=80)), max_size=6)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    route=st.integers(0, 17),
    headers=_HEADERS,
    query=st.binary(max_size=60),
    body=st.binary(max_size=200) | st.sampled_from([b"{}", b"[]", b"null", b'{"version": 1}']),
)
def test_any_header_query_or_body_bytes_on_every_route_are_never_a_500(
    online: Online, route: int, headers: list[tuple[bytes, bytes]], query: bytes, body: bytes
) -> None:
    """Arbitrary header names and values (Host, Origin, Content-Length, Last-Event-ID, ...),
    query and body bytes, on every route: never a 5xx, every refusal in the one error shape
    (or the HTML page for an unknown page), and the online games unchanged (each change
    needs a key no example has)."""
    before = online.versions()
    g, o = online.ludo, online.oni
    method, path = [
        ("GET", f"{LUDO}/{g}"),
        ("GET", f"{LUDO}/{g}/save"),
        ("GET", f"{LUDO}/{g}/events"),
        ("GET", f"{ONI}/{o}"),
        ("GET", f"{ONI}/{o}/events"),
        ("GET", "/api"),
        ("GET", "/api/onitama/setups"),
        ("GET", "/"),
        ("POST", LUDO),
        ("POST", ONI),
        ("POST", "/api/replays"),
        ("GET", "/api/replays/nope"),
        *[(m, p) for m, p, _ in online.routes()[:6]],
    ][route]
    status, answer_headers, answer = raw(
        online.client,
        method,
        path,
        query=query,
        headers=[(n.lower(), v) for n, v in headers],
        body=body,
    )
    assert 200 <= status < 500, (status, answer[:300])
    if status >= 400 and answer_headers.get(b"content-type", b"").startswith(b"application/json"):
        error_of(status, answer)
    assert online.versions() == before


def test_an_id_that_is_no_id_is_404_without_asking_the_store(online: Online) -> None:
    """Ids with a NUL, non-ASCII or over 100 characters: 404 (a PostgreSQL store would
    refuse a NUL in a query: never a 503 for that)."""
    for junk in ("%00", "%C3%BC", "a" * 101, "..%2F..", "%FF"):
        status, _, answer = raw(online.client, "GET", urllib.parse.unquote(f"{LUDO}/{junk}"))
        assert status == 404 and error_of(status, answer)["type"] == "NotFound"


# ---- keys kept as digests -------------------------------------------------------------------


def _file_bytes(path: Path) -> bytes:
    return b"".join(
        p.read_bytes() for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")) if p.exists()
    )


def test_the_store_holds_digests_of_the_keys_and_the_keys_act(tmp_path: Path) -> None:
    """A real SQLite file: the keys of an online game (a remote seat's and the host's)
    appear nowhere in the file or its write-ahead log, its record holds their SHA-256;
    shown once, they act (200), a wrong one is 403; after a restart they still act."""
    path = tmp_path / "games.sqlite3"
    store = f"sqlite:///{path}"
    with TestClient(create_app(store=store, create_rate=None)) as c:
        s, keys = created(c.post(LUDO, json={"players": "AB", "seats": {"B": "remote"}}))
        gid, host, seat_b = s["id"], keys["host_key"], keys["seat_keys"]["B"]
        assert keys["links"]["B"].endswith(f"#key={seat_b}")
        check_error(c.post(f"{LUDO}/{gid}/roll", headers={"X-Seat-Key": seat_b}), 403)
        assert c.post(f"{LUDO}/{gid}/roll", headers={"X-Seat-Key": host}).status_code == 200
        assert c.get(f"{LUDO}/{gid}").text.count(host) == 0
        held = c.app.state.games.cache.sessions[gid]  # type: ignore[attr-defined]
        assert held.issued == {} and held.issued_host == ""  # shown once, then forgotten
        data = _file_bytes(path)
        assert gid.encode() in data
        assert host.encode() not in data and seat_b.encode() not in data
    record = json.loads(
        sqlite3.connect(path).execute("SELECT record FROM games WHERE id = ?", (gid,)).fetchone()[0]
    )
    import hashlib

    assert record["host_key"] == "sha256:" + hashlib.sha256(host.encode()).hexdigest()
    assert record["keys"] == {"B": "sha256:" + hashlib.sha256(seat_b.encode()).hexdigest()}
    with TestClient(create_app(store=store, create_rate=None)) as c:
        check_error(c.delete(f"{LUDO}/{gid}", headers={"X-Seat-Key": seat_b}), 403)
        assert c.delete(f"{LUDO}/{gid}", headers={"X-Seat-Key": host}).status_code == 204


def test_a_schema_2_file_with_keys_in_clear_is_hashed_and_its_keys_still_act(
    tmp_path: Path,
) -> None:
    """A file written before digests (schema 2: the keys in clear in the game and its
    history): opened, every record holds digests, no key is left in the file, and the old
    keys act as before."""
    path = tmp_path / "old.sqlite3"
    store = f"sqlite:///{path}"
    with TestClient(create_app(store=store, create_rate=None)) as c:
        s, keys = created(c.post(LUDO, json={"players": "AB", "seats": {"B": "remote"}}))
        gid = s["id"]
    host, seat_b = "H" * 22, "B" * 22  # keys as the old format kept them
    db = sqlite3.connect(path)
    for table in ("games", "history"):
        for (text,) in db.execute(f"SELECT record FROM {table} WHERE id = ?", (gid,)).fetchall():
            record = json.loads(text)
            record["host_key"], record["keys"] = host, {"B": seat_b}
            db.execute(
                f"UPDATE {table} SET record = ? WHERE id = ? AND record = ?",
                (json.dumps(record), gid, text),
            )
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    assert host.encode() in _file_bytes(path)
    with TestClient(create_app(store=store, create_rate=None)) as c:
        assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert host.encode() not in _file_bytes(path) and seat_b.encode() not in _file_bytes(path)
        check_error(c.post(f"{LUDO}/{gid}/roll", headers={"X-Seat-Key": "nope"}), 403)
        assert c.post(f"{LUDO}/{gid}/roll", headers={"X-Seat-Key": host}).status_code == 200


def test_the_sqlite_file_and_its_folder_are_its_owners_only(tmp_path: Path) -> None:
    """A new store: the folder 0700, the file and its -wal and -shm 0600 (whatever the
    umask allows beyond)."""
    path = tmp_path / "new" / "games.sqlite3"
    old = os.umask(0o022)
    try:
        storage = SqliteStorage(path)
    finally:
        os.umask(old)
    try:
        assert storage.insert(Row("g", "ludo", 0, False, False, "{}"))
        modes = {
            p.name: stat.S_IMODE(p.stat().st_mode)
            for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"))
        }
    finally:
        storage.close()
    assert modes == {
        "games.sqlite3": 0o600,
        "games.sqlite3-wal": 0o600,
        "games.sqlite3-shm": 0o600,
    }
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


# ---- new games: a limit per client, and expiry --------------------------------------------------


def test_a_client_past_its_create_rate_gets_429_with_retry_after() -> None:
    """create_rate=3: three new games (either kind, a rematch too), the fourth 429 with
    `Retry-After` in whole seconds and no game made; another client's allowance is its
    own."""
    with TestClient(create_app(create_rate=3)) as c:
        ids = [created(c.post(LUDO, json={}))[0]["id"] for _ in range(2)]
        ids.append(created(c.post(ONI, json={}))[0]["id"])
        held = c.get("/api").json()["games"]
        for path in (LUDO, ONI, f"{LUDO}/{ids[0]}/rematch"):
            r = c.post(path, json={})
            check_error(r, 429, "TooManyRequests")
            assert int(r.headers["Retry-After"]) >= 1
        assert c.get("/api").json()["games"] == held == 3
        status, _, _ = raw(c, "POST", LUDO, headers=_JSON, body=b"{}", client=("10.1.2.3", 1))
        assert status == 201


def _long_save(moves: int) -> str:
    """A saved two-player game of `moves` rolls of 1 (no token can leave the yard)."""
    start = "cs162 A-1.-1/B-1.-1 A:r:0:0 - - 0000000000000001"
    doc = {"format": "ludogame-game/1", "seed": None, "start": start, "moves": "=1 " * moves}
    return json.dumps(doc)


def test_a_loaded_file_holds_at_most_max_loaded_moves() -> None:
    """A replay or a saved game to play on is refused 413 past `MAX_LOADED_MOVES` moves,
    before any is replayed (330,000 moves in a 1 MB body once held the event loop for
    seconds and 75 MB a replay); one at the limit loads."""
    from LudoGame.web_limits import MAX_LOADED_MOVES

    with TestClient(create_app(create_rate=None)) as c:
        big = _long_save(MAX_LOADED_MOVES + 1)
        started = time.monotonic()
        message = check_error(c.post("/api/replays", json={"text": big}), 413, "BodyTooLarge")
        assert f"at most {MAX_LOADED_MOVES:,}" in message
        check_error(c.post(LUDO, json={"saved": big}), 413, "BodyTooLarge")
        games = json.dumps({"format": "ludogame-games/1", "games": [json.loads(big)] * 2})
        check_error(c.post("/api/replays", json={"text": games}), 413, "BodyTooLarge")
        assert time.monotonic() - started < 5  # refused unread (each load takes ~0.15 s)
        r = c.post("/api/replays", json={"text": _long_save(MAX_LOADED_MOVES)})
        assert r.status_code == 201, r.text
        assert r.json()["games"][0]["frames"] == MAX_LOADED_MOVES + 1
        assert c.get("/api").json()["games"] == 0


def test_a_game_stops_growing_at_max_loaded_moves() -> None:
    """A game's history stops at `MAX_LOADED_MOVES` (409 `GameTooLong`, nothing changed;
    two seats of one hostile client could otherwise play a game, and grow its row, for
    ever): what the server holds it can always load again. Undo still works, and no bot or
    timer drives a full game."""
    from LudoGame.web_limits import MAX_LOADED_MOVES

    with TestClient(create_app(create_rate=None)) as c:
        r = c.post(LUDO, json={"saved": _long_save(MAX_LOADED_MOVES - 1)})
        assert r.status_code == 201, r.text
        game = r.json()
        key = {"X-Host-Key": game["host_key"]}
        r = c.post(f"{LUDO}/{game['id']}/roll", json={}, headers=key)
        assert r.status_code == 200, r.text
        full = c.get(f"{LUDO}/{game['id']}").json()
        message = check_error(
            c.post(f"{LUDO}/{game['id']}/roll", json={}, headers=key), 409, "GameTooLong"
        )
        assert f"{MAX_LOADED_MOVES:,} moves" in message
        assert c.get(f"{LUDO}/{game['id']}").json() == full
        saved = c.get(f"{LUDO}/{game['id']}/save").text
        r = c.post(f"{LUDO}/{game['id']}/undo", json={}, headers=key)
        assert r.status_code == 200 and len(r.json()["history"]) == MAX_LOADED_MOVES - 1
        again = c.post("/api/replays", json={"text": saved})
        assert (
            again.status_code == 201 and again.json()["games"][0]["frames"] == MAX_LOADED_MOVES + 1
        )


def test_replays_hold_at_most_their_moves_and_count_against_the_create_rate() -> None:
    """The loaded replays hold at most `REPLAY_MOVES` moves together (the least recently
    used dropped, never the one just loaded), and loading one takes from the client's
    allowance as a new game does."""
    from LudoGame.web.replay import Replays, load
    from LudoGame.web_limits import GAME_MOVES, MAX_LOADED_MOVES

    replays = Replays(limit=100, moves=1_000)
    first = load(replays, _long_save(400))
    second = load(replays, _long_save(400))
    assert len(replays) == 2 and replays.held_moves == 2 * (400 + GAME_MOVES)
    third = load(replays, _long_save(400))
    assert len(replays) == 2 and replays.held_moves == 2 * (400 + GAME_MOVES)
    assert replays.evicted == 1
    with pytest.raises(ApiError):
        replays.get(type(first), first.id, "replay")
    assert replays.get(type(third), second.id, "replay") is second
    huge = load(Replays(limit=100, moves=10), _long_save(400))  # alone: kept
    assert huge.moves == 400 + GAME_MOVES
    # a file of many games without moves counts each game too
    empty = json.loads(_long_save(0))
    many = json.dumps(
        {"format": "ludogame-games/1", "games": [empty] * (MAX_LOADED_MOVES // GAME_MOVES + 1)}
    )
    with pytest.raises(ApiError) as refused:
        load(replays, many)
    assert refused.value.status == 413
    with TestClient(create_app(create_rate=2)) as c:
        for _ in range(2):
            assert c.post("/api/replays", json={"text": _long_save(3)}).status_code == 201
        check_error(c.post("/api/replays", json={"text": _long_save(3)}), 429, "TooManyRequests")


def test_the_allowance_refills_and_the_client_table_is_bounded() -> None:
    """A bucket of 30 a minute: 30 at once, then one every 2 s; an IPv6 /64 is one client;
    20,000 clients leave at most `clients` remembered."""
    limit = CreateLimit(30, clients=100)
    for _ in range(30):
        limit.take("a", now=0.0)
    with pytest.raises(TooManyRequestsError) as refused:
        limit.take("a", now=0.0)
    assert refused.value.retry_after == 2 and refused.value.status == 429
    limit.take("a", now=2.0)
    with pytest.raises(ApiError):
        limit.take("a", now=2.5)
    assert client_of("2001:db8::1") == client_of("2001:db8::ffff:1") != client_of("2001:db9::1")
    assert client_of("::ffff:10.0.0.1") == "10.0.0.1"
    for k in range(20_000):
        limit.take(f"10.{k // 256}.{k % 256}.1", now=3.0)
    assert len(limit) == 100


def test_expired_games_make_room_and_max_games_counts_live_ones() -> None:
    """A server of 2 games, both held: a third is 409 `TooManyGames` while the unfinished
    ones count as live; once they count as abandoned (`idle_days`), the new game takes
    their room at once (they are deleted, 404)."""
    with TestClient(create_app(max_games=2, create_rate=None)) as c:
        a = created(c.post(LUDO, json={}))[0]["id"]
        b = created(c.post(LUDO, json={}))[0]["id"]
        check_error(c.post(LUDO, json={}), 409, "TooManyGames")
        games = c.app.state.games  # type: ignore[attr-defined]
        games.idle_days = 1e-12  # every unfinished game unchanged for longer than this
        created(c.post(LUDO, json={}))
        assert c.get("/api").json()["games"] == 1
        check_error(c.get(f"{LUDO}/{a}"), 404)
        check_error(c.get(f"{LUDO}/{b}"), 404)


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_expire_deletes_finished_and_idle_games_by_their_own_ages(
    kind: str, tmp_path: Path
) -> None:
    """The store's expiry: finished games unchanged since `before`, unfinished ones since
    `idle_before` (None: kept), each kind by its own age."""
    storage = MemoryStorage() if kind == "memory" else SqliteStorage(tmp_path / "g.db")
    try:
        assert storage.insert(Row("over", "ludo", 0, True, False, "{}"))
        assert storage.insert(Row("live", "ludo", 0, False, False, "{}"))
        later = time.time() + 10
        assert storage.expire(None, None) == []
        assert storage.expire(later, None) == ["over"]
        assert storage.expire(None, time.time() - 3600) == []
        assert storage.expire(None, later) == ["live"] and storage.count() == 0
    finally:
        storage.close()


# ---- Host and Origin --------------------------------------------------------------------------


def test_hosts_outside_the_allowlist_are_421_and_bad_hosts_400() -> None:
    with TestClient(
        create_app(allowed_hosts=["games.example", "127.0.0.1"], create_rate=None)
    ) as c:
        assert c.get("/api", headers={"Host": "games.example:8000"}).status_code == 200
        assert c.get("/api", headers={"Host": "GAMES.example"}).status_code == 200
        assert c.get("/api", headers={"Host": "127.0.0.1:8000"}).status_code == 200
        made = c.post(LUDO, json={"players": "AB"}, headers={"Host": "games.example"})
        events = f"{LUDO}/{made.json()['id']}/events"
        for host in ("evil.example", "games.example.evil.example", "10.0.0.1"):
            message = check_error(c.get("/api", headers={"Host": host}), 421, "MisdirectedRequest")
            assert "--allowed-host" in message
            check_error(c.post(LUDO, json={}, headers={"Host": host}), 421)
            # a plain event stream (answered before FastAPI's middleware) is checked too
            with c.stream("GET", events, headers={"Host": host}) as r:
                assert r.status_code == 421
                r.read()
                assert r.json()["error"]["type"] == "MisdirectedRequest"
        for host in ("[", "a b", "x:99999", "a/b", "a@b"):
            check_error(c.get("/api", headers={"Host": host}), 400, "BadRequest")
        assert c.get("/api", headers={"Host": "127.0.0.1"}).json()["games"] == 1
    with TestClient(create_app(allowed_hosts=["0.0.0.0", "localhost"])) as c:
        assert c.get("/api", headers={"Host": "192.0.2.7:8000"}).status_code == 200
        assert c.get("/api", headers={"Host": "[2001:db8::1]:8000"}).status_code == 200
        check_error(c.get("/api", headers={"Host": "evil.example"}), 421)


def test_a_state_change_from_another_origin_is_403_and_changes_nothing() -> None:
    """A POST or DELETE whose Origin (or, without one, Referer) is another site's, another
    port's, or ``null``: 403 `CrossOrigin`, no game made or changed; the server's own
    origin and requests with neither header (curl) pass; reads are not checked."""
    with TestClient(create_app(create_rate=None)) as c:
        s = created(c.post(LUDO, json={}))[0]
        gid = s["id"]
        host = {"Host": "127.0.0.1:8000"}
        for bad in (
            {"Origin": "http://evil.example"},
            {"Origin": "http://127.0.0.1:3000"},
            {"Origin": "http://localhost:8000"},
            {"Origin": "null"},
            {"Referer": "http://evil.example/page"},
        ):
            headers = {**host, **bad}
            check_error(c.post(LUDO, json={}, headers=headers), 403, "CrossOrigin")
            check_error(c.post(f"{LUDO}/{gid}/roll", headers=headers), 403, "CrossOrigin")
            check_error(c.delete(f"{LUDO}/{gid}", headers=headers), 403, "CrossOrigin")
            assert c.get(f"{LUDO}/{gid}", headers=headers).status_code == 200
        assert c.get("/api").json()["games"] == 1
        assert c.get(f"{LUDO}/{gid}?fields=").json()["version"] == 0
        same = {**host, "Origin": "http://127.0.0.1:8000"}
        assert c.post(f"{LUDO}/{gid}/roll", headers=same).status_code == 200
        referer = {**host, "Referer": "http://127.0.0.1:8000/ludo?game=x"}
        assert c.post(f"{LUDO}/{gid}/roll", headers=referer).status_code in (200, 409)
        assert c.post(LUDO, json={}, headers=host).status_code == 201


# ---- the real server: raw sockets -----------------------------------------------------------


@contextlib.contextmanager
def serve(*args: str) -> Iterator[int]:
    """The real `ludo serve` (games in memory) with `args` on a free port; its port."""
    port = free_port()
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", str(port), "--store", "memory"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen(
        [*cmd, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert line.startswith("LudoGame is serving at"), line + (
            p.stderr.read() if p.stderr else ""
        )
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"http://127.0.0.1:{port}/api", timeout=5).raise_for_status()
                break
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)
        yield port
    finally:
        p.terminate()
        try:
            p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate(timeout=20)


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to the server from the loopback address `source` (each of
    127.0.0.0/8 is a client of its own)."""
    s = socket.socket()
    s.settimeout(30)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def answer_of(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a connection still
    open after 30 s fails the test: `TimeoutError`)."""
    out = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := s.recv(65536):
            out += chunk
    return out


def request(port: int, head: bytes, body: bytes = b"") -> tuple[int, bytes]:
    """One raw request (`head` without its blank line), answered with Connection: close."""
    with connect(port) as s:
        s.sendall(head + b"\r\nConnection: close\r\n\r\n" + body)
        out = answer_of(s)
    status = int(out.split(b" ", 2)[1]) if out.startswith(b"HTTP/1.1 ") else 0
    return status, out.partition(b"\r\n\r\n")[2]


@pytest.fixture(scope="module")
def real() -> Iterator[tuple[int, str, str]]:
    """The real server with an online Ludo game: its port, the game's id and host key."""
    with serve("--create-rate", "0") as port:
        r = httpx.post(
            f"http://127.0.0.1:{port}{LUDO}", json={"players": "AB", "seats": {"B": "remote"}}
        )
        s, keys = created(r)
        rolled = httpx.post(
            f"http://127.0.0.1:{port}{LUDO}/{s['id']}/roll",
            headers={"X-Seat-Key": keys["host_key"]},
        )
        assert rolled.json()["version"] == 1  # (so that undo has a person's step)
        yield port, s["id"], keys["host_key"]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(key=st.binary(max_size=40), route=st.sampled_from(["roll", "bot", "undo", "rematch"]))
def test_raw_header_bytes_on_the_real_server_are_403_or_400(
    real: tuple[int, str, str], key: bytes, route: str
) -> None:
    """X-Seat-Key of any bytes through a raw socket to the real `ludo serve` (its HTTP
    parser first): a value it reads is a wrong key (403); one it cannot read (a control
    character, a line break) is a 400 of the parser. Never a 5xx, the game unchanged."""
    port, gid, _ = real
    head = (
        f"POST {LUDO}/{gid}/{route} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 2\r\nX-Seat-Key: "
    ).encode() + key
    status, body = request(port, head, b"{}")
    readable = all(b >= 0x20 and b != 0x7F or b == 0x09 for b in key)
    assert status == 403 if readable and key.strip(b" \t") else status in (400, 403), (
        status,
        body[:200],
    )
    version = httpx.get(f"http://127.0.0.1:{port}{LUDO}/{gid}?fields=").json()["version"]
    assert version == 1


def test_the_real_server_answers_only_its_own_addresses(real: tuple[int, str, str]) -> None:
    """Served on 127.0.0.1: Host 127.0.0.1 and localhost pass, another name is 421."""
    port, _, _ = real
    assert request(port, f"GET /api HTTP/1.1\r\nHost: 127.0.0.1:{port}".encode())[0] == 200
    assert request(port, f"GET /api HTTP/1.1\r\nHost: localhost:{port}".encode())[0] == 200
    status, body = request(port, f"GET /api HTTP/1.1\r\nHost: rebound.example:{port}".encode())
    assert status == 421 and error_of(421, body)["type"] == "MisdirectedRequest"


def test_x_forwarded_for_is_not_trusted_unless_configured() -> None:
    """`ludo serve --create-rate 2`: two games, then 429 even when each request names
    another client in X-Forwarded-For."""
    with serve("--create-rate", "2") as port:
        base = f"http://127.0.0.1:{port}"
        statuses = [
            httpx.post(
                f"{base}{LUDO}", json={}, headers={"X-Forwarded-For": f"10.0.0.{k}"}
            ).status_code
            for k in range(4)
        ]
        assert statuses == [201, 201, 429, 429]
        assert httpx.get(f"{base}/api").json()["games"] == 2


def test_the_default_create_rate_holds_on_the_real_server() -> None:
    """`ludo serve` as it starts: the documented default allowance, then 429."""
    with serve() as port:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base) as c:
            statuses = [c.post(LUDO, json={}).status_code for _ in range(CREATE_RATE + 1)]
            assert statuses == [201] * CREATE_RATE + [429]
            assert c.get("/api").json()["games"] == CREATE_RATE


def test_slow_or_silent_connections_are_closed_and_answers_in_progress_are_not() -> None:
    """`--request-timeout 1`: a connection that sends nothing, one that trickles its head a
    byte at a time, and one that sends half its body are each closed (the peer reads the
    end of the stream) while an event stream opened before them still gets its events; a
    head over 64 KB is a 400."""
    with serve("--request-timeout", "1", "--create-rate", "0") as port:
        base = f"http://127.0.0.1:{port}"
        s, keys = created(httpx.post(f"{base}{LUDO}", json={}))
        stream = connect(port)
        stream.sendall(
            f"GET {LUDO}/{s['id']}/events?fields= HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        )
        silent = connect(port)
        trickle = connect(port)
        half = connect(port)
        half.sendall(
            f"POST {LUDO} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{".encode()
        )
        closed_while_trickling = False
        for byte in b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 40:
            try:
                trickle.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed_while_trickling = True
                break
            time.sleep(0.1)
        assert answer_of(silent) == b""
        assert closed_while_trickling or answer_of(trickle) == b""
        assert answer_of(half) == b""
        assert httpx.post(f"{base}{LUDO}/{s['id']}/roll").status_code == 200
        seen = b""
        while b"id: 1\n" not in seen:
            chunk = stream.recv(65536)
            assert chunk, "the event stream was closed"
            seen += chunk
        for c in (stream, silent, trickle, half):
            c.close()
        big = b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 70_000
        assert request(port, big)[0] == 400
        assert keys["host_key"]


def test_connection_caps_per_client_and_in_all() -> None:
    """`--max-client-connections 4 --max-connections 10`: a client holding 4 connections
    gets its fifth answered 429 and closed; 10 held by three clients leave the next
    client's connection answered 503; once they close, a request is served again."""
    with serve("--max-client-connections", "4", "--max-connections", "10") as port:
        held = [connect(port, "127.0.0.2") for _ in range(4)]
        time.sleep(0.2)  # (the server takes them in)
        extra = connect(port, "127.0.0.2")
        out = answer_of(extra)
        assert out.startswith(b"HTTP/1.1 429 ") and b"TooManyRequests" in out
        held += [connect(port, "127.0.0.3") for _ in range(4)]
        held += [connect(port, "127.0.0.4") for _ in range(2)]
        time.sleep(0.2)
        out = answer_of(connect(port, "127.0.0.5"))
        assert out.startswith(b"HTTP/1.1 503 ")
        for c in held:
            c.close()
        deadline = time.monotonic() + 20
        while request(port, b"GET /api HTTP/1.1\r\nHost: 127.0.0.1")[0] != 200:
            assert time.monotonic() < deadline, "the server did not take connections again"
            time.sleep(0.1)


def test_idle_kept_alive_connections_make_room_for_new_ones() -> None:
    """`--max-client-connections 2 --max-connections 3`: a new connection past a cap closes
    the kept-alive connection that has waited longest for its next request (its client's,
    for the per-client cap) and is served; one that has sent nothing yet is never taken for
    idle (past the caps with none idle, a new one is refused as before), and a client
    refused at its own cap closes no other client's connection."""
    get = b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    def served(c: socket.socket) -> Reader:
        c.sendall(get)
        answers = Reader(c)
        assert answers.answer()[0].startswith(b"HTTP/1.1 200 ")
        return answers

    with serve("--max-client-connections", "2", "--max-connections", "3") as port:
        k1, k2 = connect(port, "127.0.0.2"), connect(port, "127.0.0.2")
        served(k1)
        served(k2)  # both idle now, k1 the longer
        k3 = connect(port, "127.0.0.2")
        served(k3)  # the client's cap: k1 made room
        assert answer_of(k1) == b""
        m1 = connect(port, "127.0.0.3")
        time.sleep(0.2)  # (the server takes it in: k2, k3 and m1 open)
        m2 = connect(port, "127.0.0.3")
        served(m2)  # the server's cap: k2, idle longest, made room
        assert answer_of(k2) == b""
        m2.sendall(b"GET /api HTTP/1.1\r\n")  # m2 busy (a request begun), m1 silent
        time.sleep(0.2)
        # a client at its own cap with none idle is refused, and closes nobody else's
        assert answer_of(connect(port, "127.0.0.3")).startswith(b"HTTP/1.1 429 ")
        served(k3)
        k3.sendall(b"GET /api HTTP/1.1\r\n")  # none idle now
        time.sleep(0.2)
        assert answer_of(connect(port, "127.0.0.4")).startswith(b"HTTP/1.1 503 ")
        for c in (k1, k2, k3, m1, m2):
            c.close()


def test_a_connection_whose_answer_is_still_being_sent_is_never_taken_for_idle() -> None:
    """A client that asked for an answer and does not read it: its connection waits for
    its next request while its answer still waits to be sent (`get_write_buffer_size`).
    Closed to make room, it would hold its socket, no longer counted, until the client
    read; so room is made with the longest-idle connection that has sent everything (the
    same client's for its own cap), and none if there is no such one."""

    class Transport:
        def __init__(self, unsent: int) -> None:
            self.unsent = unsent
            self.closed = False

        def get_write_buffer_size(self) -> int:
            return self.unsent

        def close(self) -> None:
            self.closed = True

    g = _GuardState(10.0, 8192, 3, 2, lambda host: False)

    class Idle(_Idle):
        _guard = g

    def waiting(client: str, unsent: int) -> Any:
        idle = Idle(Transport(unsent), client, 0.0)
        g.counts[client] = g.counts.get(client, 0) + 1
        g.open_now.add(idle)
        g.connections.add(idle)
        g.rest(idle)
        return idle

    never_reads, other, own = waiting("x", 30_000), waiting("y", 0), waiting("x", 0)
    sending = never_reads.transport
    assert g.reclaim("x") and own.transport is None and g.counts["x"] == 1
    assert g.reclaim() and other.transport is None and "y" not in g.counts
    assert not g.reclaim() and not g.reclaim("x")  # only the one still sending is left
    assert never_reads.transport is sending and not sending.closed and g.counts == {"x": 1}
    sending.unsent = 0  # its client read it all
    assert g.reclaim() and sending.closed and g.counts == {} and not g.idle and not g.client_idle


class Reader:
    """A connection's bytes, read as they are needed: what comes after an answer (a
    pipelined answer, a stream's events) stays for the next read."""

    def __init__(self, s: socket.socket) -> None:
        self.s = s
        self.data = b""

    def _more(self, why: str) -> None:
        chunk = self.s.recv(65536)
        assert chunk, f"the connection was closed {why}"
        self.data += chunk

    def answer(self) -> tuple[bytes, bytes]:
        """The next answer, which must have a Content-Length: its head and body."""
        while True:
            head, sep, rest = self.data.partition(b"\r\n\r\n")
            if sep:
                found = re.search(rb"(?i)content-length: *(\d+)", head)
                assert found, head
                size = int(found[1])
                if len(rest) >= size:
                    self.data = rest[size:]
                    return head, rest[:size]
            self._more("within an answer")

    def until(self, text: bytes) -> bytes:
        """Everything not read as an answer once `text` has come (it stays unread)."""
        while text not in self.data:
            self._more(f"before {text!r}")
        return self.data


def test_streams_and_idle_connections_on_the_real_server() -> None:
    """`ludo serve` hands an event stream's connection over from uvicorn once its head is
    written, and keeps an idle kept-alive connection without uvicorn's protocol: one
    kept-alive connection answers three requests with pauses between them; a stream says
    `Connection: close`, gets each change as it is made and counts among its client's
    connections (`--max-client-connections 3`: a fourth closes the idle one to make room,
    a fifth is 429) while open; when its game
    is deleted it ends with `gone` and the last chunk, and the connection is closed; a
    stream whose client goes leaves its seat away."""
    with serve("--create-rate", "0", "--max-client-connections", "3") as port:
        base = f"http://127.0.0.1:{port}"
        r = httpx.post(f"{base}{LUDO}", json={"players": "AB", "seats": {"B": "remote"}})
        s, keys = created(r)
        gid, host = s["id"], {"X-Seat-Key": keys["host_key"]}
        kept = connect(port, "127.0.0.2")
        answers = Reader(kept)
        for _ in range(3):
            kept.sendall(f"GET {LUDO}/{gid}?fields= HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            head, body = answers.answer()
            assert head.startswith(b"HTTP/1.1 200 ") and json.loads(body)["id"] == gid
            time.sleep(0.3)
        assert answers.data == b"", "one answer a request"
        b_key = keys["seat_keys"]["B"]
        watcher = connect(port, "127.0.0.3")
        watcher.sendall(
            f"GET {LUDO}/{gid}/events?fields=&seat_key={b_key} HTTP/1.1\r\n"
            "Host: 127.0.0.1\r\n\r\n".encode()
        )
        Reader(watcher).until(b"id: 0\n")
        assert httpx.get(f"{base}{LUDO}/{gid}?fields=").json()["connected"]["B"]
        watcher.close()
        deadline = time.monotonic() + 10
        while httpx.get(f"{base}{LUDO}/{gid}?fields=").json()["connected"]["B"]:
            assert time.monotonic() < deadline, "the seat of a stream whose client went"
            time.sleep(0.05)
        stream = connect(port, "127.0.0.2")
        stream.sendall(
            f"GET {LUDO}/{gid}/events?fields= HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        )
        events = Reader(stream)
        seen = events.until(b"id: 0\n").lower()
        assert seen.startswith(b"http/1.1 200 ")
        assert b"connection: close\r\n" in seen and b"transfer-encoding: chunked\r\n" in seen
        assert b"content-type: text/event-stream; charset=utf-8\r\n" in seen
        third = connect(port, "127.0.0.2")
        time.sleep(0.2)
        # past the client's cap its kept-alive connection, idle, makes room: closed
        fourth = connect(port, "127.0.0.2")
        assert answer_of(kept) == b""
        fifth = connect(port, "127.0.0.2")  # none idle: refused
        assert answer_of(fifth).startswith(b"HTTP/1.1 429 ")
        assert httpx.post(f"{base}{LUDO}/{gid}/roll", headers=host).status_code == 200
        events.until(b"id: 1\nevent: change\n")
        assert httpx.delete(f"{base}{LUDO}/{gid}", headers=host).status_code == 204
        rest = answer_of(stream)
        assert b"event: gone" in rest and rest.endswith(b"0\r\n\r\n")
        for c in (kept, stream, third, fourth, fifth):
            c.close()


def test_pipelined_requests_are_each_answered_on_the_real_server() -> None:
    """Requests written together on one kept-alive connection are answered in order, one
    answer each (the connection going idle only once the last is answered); an event
    stream asked for behind a pipelined request is still served (its connection is not
    handed over while another request is queued, nor taken for an idle one)."""
    with serve("--create-rate", "0") as port:
        base = f"http://127.0.0.1:{port}"
        r = httpx.post(f"{base}{LUDO}", json={"players": "AB", "seats": {"B": "remote"}})
        made, keys = created(r)
        gid, host = made["id"], {"X-Seat-Key": keys["host_key"]}
        one = f"GET {LUDO}/{gid}?fields= HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        events = f"GET {LUDO}/{gid}/events?fields= HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        c = connect(port, "127.0.0.2")
        got = Reader(c)

        def answered() -> None:
            head, body = got.answer()
            assert head.startswith(b"HTTP/1.1 200 ") and json.loads(body)["id"] == gid, head

        for _ in range(2):
            c.sendall(one * 3)
            for _ in range(3):
                answered()
            time.sleep(0.2)
            assert got.data == b"", "one answer a request"
        c.sendall(one + events.encode())
        answered()
        seen = got.until(b"id: 0\n")
        assert seen.startswith(b"HTTP/1.1 200 ")
        assert b"content-type: text/event-stream; charset=utf-8\r\n" in seen.lower()
        # the stream outlives a kept-alive connection's wait (it is not taken for idle)
        time.sleep(KEEP_ALIVE + 1)
        assert httpx.post(f"{base}{LUDO}/{gid}/roll", headers=host).status_code == 200
        got.until(b"id: 1\nevent: change\n")
        c.close()
        assert httpx.get(f"{base}{LUDO}/{gid}?fields=").status_code == 200


@pytest.mark.slow
def test_many_held_connections_leave_other_clients_served() -> None:
    """The issue's case: one client opens 500 connections and holds them; the server keeps
    at most `MAX_CLIENT_CONNECTIONS` of them (the rest answered 429 and closed), and every
    one of 20 fresh requests from another client is answered 200."""
    with serve() as port:
        held = []
        for _ in range(500):
            held.append(connect(port, "127.0.0.2"))
        time.sleep(0.5)
        refused = 0
        for c in held:
            c.settimeout(0.05)
            with contextlib.suppress(TimeoutError):
                if c.recv(16).startswith(b"HTTP/1.1 429"):
                    refused += 1
        assert refused == 500 - MAX_CLIENT_CONNECTIONS
        statuses = [request(port, b"GET /api HTTP/1.1\r\nHost: 127.0.0.1")[0] for _ in range(20)]
        assert statuses == [200] * 20
        for c in held:
            c.close()


# ---- searches stop ------------------------------------------------------------------------------


def thinking_threads() -> int:
    return sum(t.name == "ludogame-think" and t.is_alive() for t in threading.enumerate())


def wait_until(check: Any, what: str, seconds: float = 8.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def until_stopped(stop: Any) -> str:
    """A search that runs until its stop flag is requested (and only then ends)."""
    while not stop.requested:
        time.sleep(0.005)
    return "stopped"


def test_a_search_stops_when_its_game_is_deleted_and_when_the_server_stops() -> None:
    """A search that ends only when stopped: deleting its game ends its thread and its
    wait answers 404; the server stopping ends another's (503); none is left."""
    assert thinking_threads() == 0
    with TestClient(create_app(create_rate=None)) as c:
        games = c.app.state.games  # type: ignore[attr-defined]
        gid = created(c.post(LUDO, json={}))[0]["id"]
        first = c.portal.start_task_soon(
            lambda: games.bots.think(until_stopped, game=gid, stop=True)
        )
        wait_until(lambda: thinking_threads() == 1, "the search did not start")
        assert c.delete(f"{LUDO}/{gid}").status_code == 204
        wait_until(lambda: thinking_threads() == 0, "the deleted game's search runs on")
        with pytest.raises(ApiError) as gone:
            first.result(timeout=10)
        assert gone.value.status == 404
        other = created(c.post(LUDO, json={}))[0]["id"]
        second = c.portal.start_task_soon(
            lambda: games.bots.think(until_stopped, game=other, stop=True)
        )
        wait_until(lambda: thinking_threads() == 1, "the search did not start")
        c.portal.call(lambda: asyncio.sleep(0, games.stop()))
        wait_until(lambda: thinking_threads() == 0, "the search runs on after the stop")
        with pytest.raises(ApiError) as stopping:
            second.result(timeout=10)
        assert stopping.value.status == 503
        # the pool's count is settled on the event loop just after the thread ends
        wait_until(lambda: games.bots.thinking == 0, "a place in the pool stays taken")


def test_the_worker_limit_holds_while_a_search_that_cannot_stop_runs_on() -> None:
    """Two searches that do not look at a stop flag (as Ludo's bots, which are short) on a
    pool of 2: their game deleted, their waits answer at once, but their threads hold their
    places until they end, so a third search starts only then: never more than 2 threads."""
    release = threading.Event()
    started: list[str] = []

    def stubborn(name: str) -> str:
        started.append(name)
        release.wait(30)
        return name

    with TestClient(create_app(create_rate=None, workers=2)) as c:
        games = c.app.state.games  # type: ignore[attr-defined]
        gid = created(c.post(LUDO, json={}))[0]["id"]
        waits = [
            c.portal.start_task_soon(lambda n=n: games.bots.think(stubborn, n, game=gid))
            for n in "ab"
        ]
        wait_until(lambda: thinking_threads() == 2, "the two searches did not start")
        assert c.delete(f"{LUDO}/{gid}").status_code == 204
        for w in waits:
            with pytest.raises(ApiError):
                w.result(timeout=10)
        third = c.portal.start_task_soon(lambda: games.bots.think(stubborn, "c"))
        time.sleep(0.3)
        assert started == ["a", "b"] and thinking_threads() == 2 and games.bots.thinking == 2
        release.set()
        assert third.result(timeout=10) == "c"
        wait_until(lambda: thinking_threads() == 0, "a search thread is left")
        assert games.bots.most_thinking == 2 and games.bots.thinking == 0


def test_deleting_an_onitama_game_stops_its_ai_mid_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """An AI given a day a ply (the server's cap lifted for the test), asked to
    play: deleting the game answers the AI's request 404 and its search thread ends (the
    engine's stop flag: it would not end by itself)."""
    from LudoGame.web import onitama

    monkeypatch.setattr(onitama, "MAX_AI_TIME", 86_400.0)
    with TestClient(create_app(create_rate=None)) as c:
        ai = {"kind": "ai", "level": 2, "time": 86_400.0}
        s = created(c.post(ONI, json={"setup": "21", "sides": {"A": ai}}))[0]
        answers: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: answers.append(c.post(f"{ONI}/{s['id']}/ai")))
        asking.start()
        wait_until(lambda: thinking_threads() == 1, "the AI did not start thinking")
        assert c.delete(f"{ONI}/{s['id']}").status_code == 204
        wait_until(lambda: thinking_threads() == 0, "the AI thinks on", seconds=60.0)
        asking.join(timeout=60)
        check_error(answers[0], 404, "NotFound")
        bots = c.app.state.games.bots  # type: ignore[attr-defined]
        # (the thread's end frees its place in the pool on the event loop, a moment later)
        wait_until(lambda: bots.thinking == 0, "the AI's place in the pool is not freed")


# ---- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--expire-idle", "0"],
        ["--expire-finished", "soon"],
        ["--trusted-proxy", "not-an-address"],
        ["--request-timeout", "-1"],
        ["--create-rate", "-3"],
    ],
)
def test_bad_limits_are_usage_errors(args: list[str]) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "LudoGame", "serve", "--port", "0", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "error: argument" in r.stderr and r.stdout == ""
