"""``ludo serve`` played together online: games kept in a real SQLite file (and back after
``kill -9`` of a real server), seats on other devices with their keys, live events
(Server-Sent Events read by a streaming HTTP client from a real server), and bots the
server plays by itself at each game's pace."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

import httpx  # noqa: E402
import uvicorn  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from LudoGame import Game  # noqa: E402
from LudoGame.fair import commitment  # noqa: E402
from LudoGame.onitama import Onitama  # noqa: E402
from LudoGame.web import create_app  # noqa: E402
from LudoGame.web.database import SqliteStorage, open_storage  # noqa: E402

LUDO = "/api/ludo/games"
ONI = "/api/onitama/games"
KEYS = ("seat_keys", "links", "host_key")


def check_error(r: httpx.Response, status: int, kind: str | None = None) -> str:
    """`r` is the error answer `status` in the one shape; returns its message."""
    assert r.status_code == status, r.text[:300]
    err = r.json()["error"]
    assert set(err) == {"status", "type", "message"} and err["status"] == status
    if kind is not None:
        assert err["type"] == kind, err
    return str(err["message"])


def created(r: httpx.Response) -> tuple[dict[str, Any], dict[str, Any]]:
    """A new game's answer split into its state and its keys (seat keys, links, host key)."""
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return {k: v for k, v in body.items() if k not in KEYS}, {k: body[k] for k in KEYS}


def ludo_step(c: Any, s: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    """One step of a person (the last legal move) with `key`, or of a bot."""
    headers = {} if key is None else {"X-Seat-Key": key}
    gid = s["id"]
    if s["to_act"] == "bot":
        r = c.post(f"{LUDO}/{gid}/bot", json={}, headers=headers)
    elif s["phase"] == "roll":
        r = c.post(f"{LUDO}/{gid}/roll", json={"version": s["version"]}, headers=headers)
    else:
        body = {"move": s["legal_moves"][-1]["name"], "version": s["version"]}
        r = c.post(f"{LUDO}/{gid}/move", json=body, headers=headers)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    assert out["version"] == s["version"] + 1
    return out


def mirror_of(history: list[dict[str, Any]], seed: int, players: str = "AB") -> Game:
    """The engine's game after `history` (rolls from the seed, moves by name)."""
    g = Game("cs162", players, seed)
    for e in history:
        if e["kind"] == "roll":
            assert g.roll() == e["value"]
        else:
            g.play(e["move"])
    return g


# ---- a real server -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def live_server(**options: Any) -> Iterator[tuple[str, FastAPI]]:
    """`create_app(**options)` on uvicorn on a free loopback port, in a thread of this
    process (so a test may set a short heartbeat); yields its address and the app."""
    app = create_app(**options)
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()


def start_serve(*args: str) -> tuple[subprocess.Popen[str], str]:
    """The real `ludo serve` (with `args`) on a free port once it answers; its address."""
    port = free_port()
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", str(port), *args]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    line = p.stdout.readline()
    assert line == f"LudoGame is serving at http://127.0.0.1:{port}/\n", line
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx.get(base + "/api", timeout=5).raise_for_status()
            return p, base
        except httpx.HTTPError:
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)


def apply_change(state: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The state a `change` event's data makes of `state` (the version before it), as a
    page does it (docs/web.md, Live events)."""
    assert change["version"] == state["version"] + 1, (change["version"], state["version"])
    out = {**state, **change.get("set", {}), "version": change["version"]}
    for name, (kept, items) in change.get("append", {}).items():
        assert kept <= len(state[name])
        out[name] = state[name][:kept] + items
    for name, edits in change.get("edit", {}).items():
        text = state[name]
        for start, end, new in reversed(edits):
            assert 0 <= start <= end <= len(text)
            text = text[:start] + new + text[end:]
        out[name] = text
    return out


class Events:
    """A game's event stream read by httpx: `next()` is the next event as a dict of its
    fields (`id`, `event`, `data`), comments counted in `comments`; a `state` or `change`
    event also as `state`, the whole state the stream has shown so far (a change applied to
    the state before it, as a page does; presence events are applied too)."""

    def __init__(
        self,
        client: httpx.Client,
        url: str,
        start: dict[str, Any] | None = None,
        **headers: str,
    ) -> None:
        """`start`: the state a client resuming (``Last-Event-ID``) has."""
        self._cm = client.stream("GET", url, headers=headers, timeout=httpx.Timeout(10.0))
        self.response = self._cm.__enter__()
        self._lines = self.response.iter_lines()
        self.comments: list[str] = []
        self.state: dict[str, Any] | None = start

    def next(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        for line in self._lines:
            if line == "":
                if "data" in fields or "event" in fields:
                    kind = fields.get("event")
                    if kind == "state":
                        self.state = fields["state"] = json.loads(fields["data"])
                    elif kind == "change":
                        assert self.state is not None, "a change before any state"
                        fields["change"] = json.loads(fields["data"])
                        self.state = apply_change(self.state, fields["change"])
                        fields["state"] = self.state
                    elif kind == "presence" and self.state is not None:
                        self.state = {**self.state, **json.loads(fields["data"])}
                    return fields
                continue
            if line.startswith(":"):
                self.comments.append(line)
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
        raise EOFError("the stream ended")

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


# ---- A: games kept in a store ------------------------------------------------------------


@pytest.mark.slow
def test_a_game_is_back_after_kill_9_with_every_acknowledged_move(tmp_path: Path) -> None:
    """A real server on a temp SQLite file, moves played over HTTP as fast as it answers,
    killed with SIGKILL right after an answer, started again: every acknowledged move is
    there (and at most the one request in flight besides), with seats, keys and seed (kept
    secret until the game is over, then the one committed to)."""
    store = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    p, base = start_serve("--store", store)
    try:
        with httpx.Client(base_url=base) as c:
            body = {"players": "ABCD", "seats": {"B": "remote", "D": "remote"}}
            s, keys = created(c.post(LUDO, json=body))
            key = dict.fromkeys("AC", keys["host_key"]) | keys["seat_keys"]
            acked: list[dict[str, Any]] = [s]
            for _ in range(40):
                s = ludo_step(c, s, key[s["current_player"]])
                acked.append(s)
            # one more, killed at once after its answer
            s = ludo_step(c, s, key[s["current_player"]])
            acked.append(s)
            p.send_signal(signal.SIGKILL)
            p.wait(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
        p.communicate(timeout=20)
    assert p.returncode == -signal.SIGKILL and len(acked) > 20
    p, base = start_serve("--store", store)
    try:
        with httpx.Client(base_url=base) as c:
            back = c.get(f"{LUDO}/{s['id']}").json()
            assert back == acked[-1]  # the whole state: version, history, seats, seed, board
            assert back["seats"] == {"A": "human", "B": "remote", "C": "human", "D": "remote"}
            assert back["seed"] is None and back["dice_commitment"] == s["dice_commitment"]
            # the keys still act for their seats, and only they
            wrong = "B" if back["current_player"] != "B" else "A"
            check_error(
                c.post(f"{LUDO}/{s['id']}/roll", headers={"X-Seat-Key": key[wrong]}),
                403,
                "NotYourSeat",
            )
            while back["to_act"] is not None:
                back = ludo_step(c, back, key[back["current_player"]])
            assert back["dice_commitment"] == commitment(back["seed"])
            mirror = mirror_of(back["history"], back["seed"], "ABCD")
            assert mirror.to_notation() == back["position"] and mirror.is_over()
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    assert p.returncode == 0 and "Traceback" not in err, err


@pytest.mark.slow
def test_kill_9_at_any_moment_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """Requests sent without pause from a thread; the server killed at a moment the test
    does not choose: the game after a restart holds every answered change, and at most the
    one unanswered request besides."""
    store = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    p, base = start_serve("--store", store)
    acked: list[dict[str, Any]] = []
    gid = ""

    def play() -> None:
        nonlocal gid
        with httpx.Client(base_url=base) as c:
            s, _ = created(c.post(LUDO, json={"players": "ABCD", "seed": 5}))
            gid = s["id"]
            acked.append(s)
            with contextlib.suppress(httpx.HTTPError):
                while s["to_act"] is not None:
                    s = ludo_step(c, s)
                    acked.append(s)

    try:
        worker = threading.Thread(target=play)
        worker.start()
        time.sleep(1.2)
        p.send_signal(signal.SIGKILL)
        worker.join(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
        p.communicate(timeout=20)
    assert len(acked) > 10
    p, base = start_serve("--store", store)
    try:
        back = httpx.get(f"{base}{LUDO}/{gid}").json()
        last = acked[-1]
        assert back["version"] in (last["version"], last["version"] + 1)
        assert back["history"][: len(last["history"])] == last["history"]
    finally:
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)


def test_every_game_comes_back_from_the_sqlite_file_as_it_was(tmp_path: Path) -> None:
    """Games of both kinds, from every start (new, position, saved game), with remote
    seats, bots, a pace and undo history: a second app on the same file answers the same
    states, takes the same keys and undoes the same way."""
    path = tmp_path / "games.sqlite3"
    first = TestClient(create_app(store=f"sqlite:///{path}"))
    saved = Game("cs162", "AC", 4)
    saved.roll()
    bodies = [
        (LUDO, {"players": "ABC", "seats": {"B": "remote", "C": "random"}}),
        (LUDO, {"position": saved.to_notation(), "seats": {"C": "remote"}, "pace": 2}),
        (LUDO, {"json": saved.to_json()}),
        (ONI, {"setup": "random", "sides": {"B": {"kind": "remote"}}}),
        (ONI, {"setup": "22", "sides": {"B": {"kind": "ai", "level": 0}}, "pace": 5}),
    ]
    games = []
    for url, body in bodies:
        s, keys = created(first.post(url, json=body))
        games.append((url, s["id"], keys))
    # some play in the first game, up to a person's move (which an online game's undo takes
    # back; not a roll), a ply in the fourth, an undo
    url, gid, keys = games[0]
    s = first.get(f"{url}/{gid}").json()
    states = [s]
    while len(states) < 7 or (states[-2]["to_act"], states[-2]["phase"]) != ("human", "move"):
        assert len(states) < 1000, "no person's move in 1,000 steps"
        seat = s["current_player"]
        key = keys["seat_keys"].get(seat, keys["host_key"])
        s = ludo_step(first, s, key)
        states.append(s)
    url, gid, keys = games[3]
    o = first.post(
        f"{url}/{gid}/action",
        json={"action": first.get(f"{url}/{gid}").json()["legal_moves"][0]["text"]},
        headers={"X-Seat-Key": keys["host_key"]},
    )
    assert o.status_code == 200, o.text
    before = {gid: first.get(f"{url}/{gid}").json() for url, gid, _ in games}
    second = TestClient(create_app(store=f"sqlite:///{path}"))
    for url, gid, _ in games:
        assert second.get(f"{url}/{gid}").json() == before[gid]
        assert second.get(f"{url}/{gid}/save").text == first.get(f"{url}/{gid}/save").text
    # the restored first game: undo takes back the last person's decision (only with that
    # person's key), as the first server would have
    url, gid, keys = games[0]
    last = max(k for k, st in enumerate(states[:-1]) if st["to_act"] == "human")
    whose = states[last]["current_player"]
    key = keys["seat_keys"].get(whose, keys["host_key"])
    other = keys["host_key"] if whose == "B" else keys["seat_keys"]["B"]
    check_error(second.post(f"{url}/{gid}/undo", json={}, headers={"X-Seat-Key": other}), 403)
    b = second.post(f"{url}/{gid}/undo", json={}, headers={"X-Seat-Key": key})
    assert b.status_code == 200, b.text
    assert b.json()["history"] == states[last]["history"]
    assert b.json()["position"] == states[last]["position"]
    # the first app still holds the older version: its change is refused, nothing lost
    a = first.post(f"{url}/{gid}/undo", json={}, headers={"X-Seat-Key": key})
    check_error(a, 409, "StaleVersion")
    assert first.get(f"{url}/{gid}").json() == second.get(f"{url}/{gid}").json()
    # the saved game's loaded events are still a person's to undo
    url, gid, _ = games[2]
    assert second.get(f"{url}/{gid}").json()["can_undo"] is True
    # the paces are kept
    assert second.get(f"{games[1][0]}/{games[1][1]}").json()["pace"] == 2
    assert second.get(f"{games[4][0]}/{games[4][1]}").json()["pace"] == 5


def test_the_sqlite_file_is_in_wal_mode_and_a_store_url_is_checked(tmp_path: Path) -> None:
    storage = open_storage(f"sqlite:///{tmp_path / 'x' / 'g.db'}")
    assert isinstance(storage, SqliteStorage)
    mode = storage._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    storage.close()
    for url in ("mysql://x", "sqlite:///", "x" * 200):
        with pytest.raises(ValueError) as e:
            open_storage(url)
        assert len(str(e.value)) < 120
    r = subprocess.run(
        [sys.executable, "-m", "LudoGame", "serve", "--store", "nosuch://x", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("ludo: cannot use the store: ") and r.stderr.count("\n") == 1


def test_ludo_serve_keeps_its_games_in_the_data_directory_by_default(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONUNBUFFERED="1", XDG_DATA_HOME=str(tmp_path))
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", "0"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout is not None
        first = p.stdout.readline()
        where = tmp_path / "LudoGame" / "games.sqlite3"
        assert p.stdout.readline() == f"Games are stored in {where}\n"
        assert where.exists()
        base = first.split()[-1]
        deadline = time.monotonic() + 20
        while True:  # answering: past its start-up, so Ctrl-C stops a running server
            try:
                httpx.get(f"{base}api", timeout=5).raise_for_status()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)
    assert p.returncode == 0


# ---- B: seats on other devices -----------------------------------------------------------


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(max_games=50))


def test_a_remote_seat_acts_only_with_its_key(client: TestClient) -> None:
    s, keys = created(client.post(LUDO, json={"players": "AB", "seats": {"B": "remote"}}))
    gid, host, bkey = s["id"], keys["host_key"], keys["seat_keys"]["B"]
    assert set(keys["seat_keys"]) == {"B"} and s["seats"] == {"A": "human", "B": "remote"}
    link = keys["links"]["B"]
    assert (
        link.startswith("http://testserver/ludo?game=") and f"game={gid}&seat=B#key={bkey}" in link
    )
    # nothing a spectator reads shows a key
    for path in (f"{LUDO}/{gid}", f"{LUDO}/{gid}/save", f"{LUDO}/{gid}/save?format=notation"):
        text = client.get(path).text
        assert bkey not in text and host not in text
    # A's turn (a person on the host's screen): neither no key, nor B's key, nor junk acts
    for headers in ({}, {"X-Seat-Key": bkey}, {"X-Seat-Key": "x" * 5000}):
        msg = check_error(client.post(f"{LUDO}/{gid}/roll", headers=headers), 403, "NotYourSeat")
        assert bkey not in msg and host not in msg and "xxxxxxxxxx" not in msg
        assert client.get(f"{LUDO}/{gid}").json() == s
    while s["current_player"] == "A":
        s = ludo_step(client, s, host)
    # B's turn: only B's key
    for headers in ({}, {"X-Seat-Key": host}):
        before = client.get(f"{LUDO}/{gid}").json()
        msg = check_error(client.post(f"{LUDO}/{gid}/roll", headers=headers), 403, "NotYourSeat")
        assert "seat B" in msg and "another device" in msg
        assert client.get(f"{LUDO}/{gid}").json() == before
    s = ludo_step(client, s, bkey)
    # B's roll is not taken back (online, a roll's value is known), even by B
    r = client.post(f"{LUDO}/{gid}/undo", json={}, headers={"X-Seat-Key": bkey})
    check_error(r, 409, "UndoPastRoll")
    # B's move may only be taken back by B; a spectator may not delete the game
    while (s["current_player"], s["phase"]) != ("B", "move"):
        s = ludo_step(client, s, bkey if s["current_player"] == "B" else host)
    s = ludo_step(client, s, bkey)
    check_error(client.post(f"{LUDO}/{gid}/undo", json={}, headers={"X-Seat-Key": host}), 403)
    check_error(client.delete(f"{LUDO}/{gid}", headers={"X-Seat-Key": bkey}), 403, "NotYourSeat")
    check_error(client.delete(f"{LUDO}/{gid}"), 403, "NotYourSeat")
    r = client.post(f"{LUDO}/{gid}/undo", json={}, headers={"X-Seat-Key": bkey})
    assert r.status_code == 200 and r.json()["version"] == s["version"] + 1
    assert client.delete(f"{LUDO}/{gid}", headers={"X-Seat-Key": host}).status_code == 204


def test_remote_onitama_sides_and_bots_in_online_games(client: TestClient) -> None:
    sides = {"A": {"kind": "remote"}, "B": {"kind": "remote"}}
    s, keys = created(client.post(ONI, json={"setup": "21", "sides": sides}))
    gid = s["id"]
    assert set(keys["seat_keys"]) == {"A", "B"} and set(keys["links"]) == {"A", "B"}
    assert keys["seat_keys"]["A"] != keys["seat_keys"]["B"]
    assert keys["links"]["A"].startswith("http://testserver/onitama?game=")
    assert s["sides"]["A"]["kind"] == "remote" and s["to_act"] == "human"
    action = {"action": s["legal_moves"][0]["text"]}
    for key in (None, keys["seat_keys"]["B"], keys["host_key"]):
        headers = {} if key is None else {"X-Seat-Key": key}
        check_error(client.post(f"{ONI}/{gid}/action", json=action, headers=headers), 403)
    r = client.post(
        f"{ONI}/{gid}/action", json=action, headers={"X-Seat-Key": keys["seat_keys"]["A"]}
    )
    assert r.status_code == 200 and r.json()["turn"] == "B"
    # a game with a remote seat and a bot: a bot's step needs the host's key
    t, tk = created(client.post(LUDO, json={"seats": {"A": "random", "C": "remote"}}))
    check_error(client.post(f"{LUDO}/{t['id']}/bot", json={}), 403, "NotYourSeat")
    r = client.post(f"{LUDO}/{t['id']}/bot", json={}, headers={"X-Seat-Key": tk["host_key"]})
    assert r.status_code == 200
    # a game with no remote seat needs no key, as before (one shared screen)
    u, uk = created(client.post(LUDO, json={"seed": 1}))
    assert uk["seat_keys"] == {} and uk["links"] == {}
    assert client.post(f"{LUDO}/{u['id']}/roll").status_code == 200


def test_bad_fields_and_paces_are_refused(client: TestClient) -> None:
    s, _ = created(client.post(LUDO, json={"seed": 1}))
    o, _ = created(client.post(ONI, json={}))
    for url in (f"{LUDO}/{s['id']}?fields=bogus", f"{ONI}/{o['id']}?fields=history"):
        msg = check_error(client.get(url), 400, "BadRequest")
        assert "choose among" in msg
    check_error(client.get(f"{LUDO}/{s['id']}?fields={'y' * 10_000}"), 400, "BadRequest")
    check_error(client.post(f"{LUDO}/{s['id']}/roll?fields=x"), 400, "BadRequest")
    assert client.get(f"{LUDO}/{s['id']}").json()["version"] == 0
    for pace in (-1, 61, "fast"):
        check_error(client.post(LUDO, json={"pace": pace}), 422, "ValidationError")
    check_error(client.post(LUDO, json={"seats": {"A": "remote", "B": "robot"}}), 400)
    # an unknown id is quoted by a short prefix only
    msg = check_error(client.get(f"{LUDO}/{'z' * 5000}"), 404, "NotFound")
    assert len(msg) < 250
    assert client.get("/api").json()["games"] == 2


# ---- C: live events ----------------------------------------------------------------------


def test_events_push_every_change_with_its_version_and_resume(tmp_path: Path) -> None:
    with live_server(store=f"sqlite:///{tmp_path / 'g.db'}", heartbeat=0.3) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            s, _ = created(c.post(LUDO, json={"players": "AB", "seed": 6}))
            gid = s["id"]
            watch = Events(c, f"{LUDO}/{gid}/events?fields=")
            assert watch.response.headers["content-type"].startswith("text/event-stream")
            first = watch.next()
            assert first["id"] == "0" and first["event"] == "state"
            assert "svg" not in first["state"] and "history" not in first["state"]
            assert first["state"] == {k: v for k, v in s.items() if k not in ("svg", "history")}
            full = Events(c, f"{LUDO}/{gid}/events")
            assert full.next()["state"] == s
            states = [s]
            for _ in range(8):
                t0 = time.monotonic()
                s = ludo_step(c, s)
                states.append(s)
                e = watch.next()
                assert time.monotonic() - t0 < 1.0
                assert e["id"] == str(s["version"]) and e["state"]["version"] == s["version"]
                assert e["state"]["position"] == s["position"]
                # a change carries what changed: the new history entry, edits of the board
                f = full.next()
                assert f["event"] == "change" and f["state"] == s
                assert len(f["data"]) < len(json.dumps(s)) / 4
                assert f["change"]["append"]["history"] == [
                    len(s["history"]) - 1,
                    s["history"][-1:],
                ]
            # a heartbeat comment while nothing happens
            time.sleep(0.8)
            s = ludo_step(c, s)
            states.append(s)
            assert watch.next()["id"] == str(s["version"])
            assert any("heartbeat" in line for line in watch.comments)
            watch.close()
            # a client that saw version 3 gets 4, 5, ... exactly, then the live ones
            had = {k: v for k, v in states[3].items() if k != "svg"}
            back = Events(c, f"{LUDO}/{gid}/events?fields=history", had, **{"Last-Event-ID": "3"})
            for k in range(4, s["version"] + 1):
                e = back.next()
                assert e["id"] == str(k) and e["state"]["history"] == states[k]["history"]
                assert "svg" not in e["state"]
            s = ludo_step(c, s)
            assert back.next()["id"] == str(s["version"])
            back.close()
            # one that is up to date gets nothing until the next change
            up = Events(
                c, f"{LUDO}/{gid}/events?fields=", s, **{"Last-Event-ID": str(s["version"])}
            )
            s = ludo_step(c, s)
            assert up.next()["id"] == str(s["version"])
            up.close()
            # junk or a version from the future: the state now
            for last in ("junk", "999999"):
                odd = Events(c, f"{LUDO}/{gid}/events?fields=", **{"Last-Event-ID": last})
                assert odd.next()["id"] == str(s["version"])
                odd.close()
            # a bad ?fields= or an unknown game is refused before any stream
            check_error(c.get(f"{LUDO}/{gid}/events?fields=bogus"), 400, "BadRequest")
            check_error(c.get(f"{LUDO}/nope/events"), 404, "NotFound")
            check_error(c.get(f"{ONI}/{gid}/events"), 404, "NotFound")
            # deleting the game ends its streams
            assert c.delete(f"{LUDO}/{gid}").status_code == 204
            seen = [full.next() for _ in range(s["version"] - 8)]  # the changes since
            assert [e["id"] for e in seen] == [str(v) for v in range(9, s["version"] + 1)]
            assert full.next()["event"] == "gone"
            with pytest.raises(EOFError):
                full.next()
            full.close()


def test_a_reconnect_after_many_changes_gets_one_full_state() -> None:
    with live_server(heartbeat=5) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            s, _ = created(c.post(LUDO, json={"players": "AB", "seed": 6}))
            w = Events(c, f"{LUDO}/{s['id']}/events?fields=")
            w.next()
            for _ in range(30):  # more than the server remembers
                s = ludo_step(c, s)
            w.close()
            back = Events(c, f"{LUDO}/{s['id']}/events", **{"Last-Event-ID": "1"})
            e = back.next()
            assert e["id"] == str(s["version"]) and e["state"] == s
            back.close()


def test_onitama_events_follow_the_plies() -> None:
    with live_server(heartbeat=5) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            sides = {"B": {"kind": "remote"}}
            s, keys = created(c.post(ONI, json={"setup": "21", "sides": sides}))
            w = Events(c, f"{ONI}/{s['id']}/events?fields=svg")
            assert w.next()["state"] == s
            for k in range(1, 5):
                key = keys["host_key"] if s["turn"] == "A" else keys["seat_keys"]["B"]
                r = c.post(
                    f"{ONI}/{s['id']}/action",
                    json={"action": s["legal_moves"][0]["text"]},
                    headers={"X-Seat-Key": key},
                )
                s = r.json()
                e = w.next()
                assert e["id"] == str(k) and e["state"] == s
            w.close()


# ---- D: the server's bots ----------------------------------------------------------------


@pytest.mark.slow
def test_a_game_of_bots_plays_to_its_end_with_no_client_driving_it() -> None:
    """Bots at pace 0: the game reaches its end by itself; the server's game is the one a
    client stepping /bot gets with the same seed (the same bot choices)."""
    body = {"players": "ABCD", "seats": dict.fromkeys("ABCD", "cs162"), "seed": 12}
    with live_server(heartbeat=5) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as c:
            s, _ = created(c.post(LUDO, json={**body, "pace": 0}))
            assert s["pace"] == 0
            w = Events(c, f"{LUDO}/{s['id']}/events?fields=")
            while True:
                e = w.next()
                if e["state"]["to_act"] is None:
                    break
            w.close()
            final = c.get(f"{LUDO}/{s['id']}").json()
            assert final["phase"] == "over" and len(final["ranking"]) == 4
    stepped = TestClient(create_app())
    t, _ = created(stepped.post(LUDO, json=body))
    while t["to_act"] is not None:
        t = ludo_step(stepped, t)
    assert t["history"] == final["history"] and t["position"] == final["position"]


def test_an_ai_game_plays_itself_at_its_pace_and_stops_when_deleted() -> None:
    ai = {"kind": "ai", "level": 0, "time": 0.1}
    with live_server(heartbeat=5) as (base, app):
        with httpx.Client(base_url=base, timeout=30) as c:
            s, _ = created(
                c.post(ONI, json={"setup": "21", "sides": {"A": ai, "B": ai}, "pace": 0.3})
            )
            w = Events(c, f"{ONI}/{s['id']}/events?fields=")
            w.next()
            times = []
            for _ in range(3):
                w.next()
                times.append(time.monotonic())
            gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
            assert all(g >= 0.25 for g in gaps), gaps
            assert c.delete(f"{ONI}/{s['id']}").status_code == 204
            assert w.next()["event"] == "gone"
            w.close()
            time.sleep(0.5)
            assert app.state.games.bots.drivers == {}
            check_error(c.get(f"{ONI}/{s['id']}"), 404, "NotFound")


def test_bot_thinking_runs_on_a_bounded_pool() -> None:
    """Six AI-only games at once, thinking 0.2 s a ply, on a server of 2 workers: never
    more than two searches at once, and every game moves on."""
    ai = {"kind": "ai", "level": 1, "time": 0.2}
    with live_server(heartbeat=5, workers=2) as (base, app):
        with httpx.Client(base_url=base, timeout=30) as c:
            ids = []
            for _ in range(6):
                s, _ = created(
                    c.post(ONI, json={"setup": "21", "sides": {"A": ai, "B": ai}, "pace": 0})
                )
                ids.append(s["id"])
            deadline = time.monotonic() + 60
            while True:
                versions = [c.get(f"{ONI}/{i}?fields=").json()["version"] for i in ids]
                if all(v >= 2 for v in versions):
                    break
                assert time.monotonic() < deadline, versions
                time.sleep(0.1)
            assert app.state.games.bots.most_thinking == 2
            for i in ids:
                assert c.delete(f"{ONI}/{i}").status_code == 204


@pytest.mark.slow
def test_bots_go_on_after_a_restart(tmp_path: Path) -> None:
    """A bot game at a slow pace, the server killed mid-game and started again: the game
    goes on by itself to its end."""
    store = f"sqlite:///{tmp_path / 'g.db'}"
    p, base = start_serve("--store", store)
    body = {"players": "AB", "seats": {"A": "random", "B": "random"}, "seed": 4, "pace": 0.05}
    try:
        s, _ = created(httpx.post(f"{base}{LUDO}", json=body))
        time.sleep(0.5)
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
        p.communicate(timeout=20)
    p, base = start_serve("--store", store)
    try:
        mid = httpx.get(f"{base}{LUDO}/{s['id']}?fields=").json()
        assert mid["version"] > 0
        deadline = time.monotonic() + 60
        while mid["to_act"] is not None:
            assert time.monotonic() < deadline, "the bots did not go on"
            time.sleep(0.2)
            mid = httpx.get(f"{base}{LUDO}/{s['id']}?fields=history").json()
        assert mirror_of(mid["history"], 4).is_over()
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    assert p.returncode == 0 and "Traceback" not in err, err


def test_onitama_from_a_saved_game_keeps_its_setup_after_a_restart(tmp_path: Path) -> None:
    path = f"sqlite:///{tmp_path / 'g.db'}"
    game = Onitama.setup("23")
    game.play(game.legal_moves[0])
    first = TestClient(create_app(store=path))
    s, _ = created(first.post(ONI, json={"json": game.to_json()}))
    again = TestClient(create_app(store=path)).get(f"{ONI}/{s['id']}").json()
    assert (
        again == s
        and again["setup"] == "case23"
        and again["history"] == [str(a) for a in game.history]
    )


def test_a_sessions_signal_wakes_its_waiters_as_an_asyncio_event() -> None:
    """`Signal` (a session's `settled` and `wake`): a wait returns at once while it is set;
    `set` wakes every waiter; after `clear` a wait waits again; a waiter cancelled (a
    `wait_for` that timed out) leaves no trace and a later `set` still wakes the others."""
    import asyncio

    from LudoGame.web.session import Signal

    async def run() -> list[str]:
        seen: list[str] = []
        s = Signal()
        assert not s.is_set()

        async def waiter(name: str) -> None:
            await s.wait()
            seen.append(name)

        tasks = [asyncio.create_task(waiter(n)) for n in "ab"]
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(s.wait(), 0.01)  # times out: its waiter goes
        await asyncio.sleep(0)
        assert seen == [] and s._waiters is not None and len(s._waiters) == 2
        s.set()
        await asyncio.gather(*tasks)
        assert sorted(seen) == ["a", "b"] and s.is_set() and await s.wait()
        s.clear()
        late = asyncio.create_task(waiter("c"))
        await asyncio.sleep(0.01)
        assert seen.count("c") == 0 and not late.done()
        s.set()
        s.set()  # (twice: once woken)
        await late
        return seen

    assert sorted(asyncio.run(run())) == ["a", "b", "c"]
