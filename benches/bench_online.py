"""Benchmark ``ludo serve`` played online: many games, a device per seat, live events.

Usage::

    python benches/bench_online.py [--quick] [--games N[,N...]] [--seconds S]
                                   [--think LO:HI] [--stores sqlite,postgresql]
                                   [--held K] [--fields F]

For each store and each N (default 200 and 500 games):

- **Live games.** Starts real ``ludo serve`` processes: one on a new SQLite file, or two on
  one new PostgreSQL database (a private server made with ``initdb`` in a temporary folder,
  as the tests do, removed afterwards). Creates N two-player Ludo games whose seats A and B
  are both ``"remote"``; each seat is a device of its own: an event stream
  (``GET .../events?seat_key=KEY``, every large field as the page asks for them, unless
  ``--fields``; each `change` event applied to the state it holds, as the page does) and a
  kept-alive connection for its requests, A's to the first process and B's to the second
  (PostgreSQL: every move reaches the other device through LISTEN/NOTIFY).
  A device acts (a roll or a seeded random legal move, with ``X-Seat-Key``) a random LO to
  HI seconds (1 to 3, seeded) after its own stream shows that its turn came, as a person
  does, for S seconds (60). The figure is the time from the sending of a request to the
  arrival of its event (``id:`` the version it made) on the *other* device's stream: p50,
  p99, max. Every stream's event ids must go up by exactly one from the first state it got
  and end at the game's final version: any event lost, duplicated or out of order is
  counted and fails the run (on a second process too: one that learns of a change late
  sends the versions it missed from the store's history), and so does a stream whose state
  is not the game's at the end (read whole with GET, who is connected left out).
- **Memory per held game** (SQLite): the resident memory (VmRSS) of a new server before and
  after K (1,000) new online games are created through it, divided by K.
- **Restart**: that server is stopped (SIGTERM) and started again on the same file; the
  time from the new process's start until it answers, and until all K games (fetched 32 at
  once, each checked at its stored version) have been served; games restored per second is
  K divided by the time from its first answer to the last game served (a game is read from
  the file when it is first asked for).

The clients are plain asyncio streams speaking HTTP/1.1 (no client library: with thousands
of streams the client must cost the server's cores as little as possible) on uvloop if
installed. The client's own event-loop lag (a 10 ms timer's lateness) is printed beside the
latencies: a large lag means the figures include the client's queue. Beside them, the load
average at the start and end of the run, the server processes' CPU time per move while the
games are played (from /proc, a figure a busy machine disturbs far less; the play starts once
the servers are done with the games made and joined) and their resident memory at the end of
play, every game still played and watched. Exits
1 on any error, lost or duplicated event. ``--quick`` (CI): 20 games, 4 s, moves 0.2 to 0.6
s apart, 100 held games; the PostgreSQL run is skipped when PostgreSQL is not installed (fails under
``LUDOGAME_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from LudoGame.web import KEEP_ALIVE

LUDO = "/api/ludo/games"


# ---- servers -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    """The resident memory of process `pid` in MB (0 if it has none)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_s(pid: int) -> float:
    """The CPU time (user and system) process `pid` has used, in seconds (0 if gone)."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """The user and the system CPU time process `pid` has used, in seconds (0 if gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


@dataclass
class Server:
    proc: subprocess.Popen[str]
    port: int
    started: float  # perf_counter when the process was started
    ready: float  # perf_counter when it first answered


def start_server(store: str, max_games: int) -> Server:
    """`ludo serve` on `store` and a free port, once it answers."""
    port = free_port()
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", str(port), "--store", store]
    cmd += ["--max-games", str(max_games)]
    # every client is on this machine's one address: no per-client or connection limits
    cmd += ["--create-rate", "0", "--max-client-connections", "0", "--max-connections", "0"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()  # printed once the app answers
    if not line.startswith("LudoGame is serving at "):
        proc.kill()
        raise SystemExit(f"error: the server did not start: {line!r}")
    deadline = time.monotonic() + 30
    while True:
        try:
            status, _ = asyncio.run(one_request(port, "GET", "/api"))
            if status == 200:
                return Server(proc, port, t0, time.perf_counter())
        except OSError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("error: the server did not answer within 30 s")
        time.sleep(0.01)


def stop_server(server: Server) -> None:
    server.proc.send_signal(signal.SIGTERM)
    try:
        server.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        server.proc.wait(timeout=30)


# ---- a minimal HTTP/1.1 client on asyncio streams ----------------------------------------


#: The server closes a kept-alive connection idle for `KEEP_ALIVE` seconds: one idle
#: longer than this is made again before a request (as a browser would, the connection's
#: setup then counted in the request's time).
IDLE = KEEP_ALIVE - 1.0


class Http:
    """One kept-alive HTTP/1.1 connection to 127.0.0.1:`port`; requests one at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0  # perf_counter of its last answer
        self.retried = 0  # requests sent again after the server closed a kept-alive one

    async def open(self) -> None:
        self.close()
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.used = time.perf_counter()

    def send(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> None:
        assert self.writer is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        for k, v in (headers or {}).items():
            head += f"{k}: {v}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)

    async def head(self) -> tuple[int, dict[str, str]]:
        assert self.reader is not None
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            if line:
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
        return status, headers

    async def chunk(self) -> bytes:
        """The next chunk of a chunked body (b"" at its end)."""
        assert self.reader is not None
        size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        reused = not (self.writer is None or time.perf_counter() - self.used > IDLE)
        if not reused:
            await self.open()
        assert self.reader is not None
        self.send(method, path, body, headers)
        try:
            status, hdrs = await self.head()
        except (ConnectionError, asyncio.IncompleteReadError):
            if not reused:
                raise
            # the server closed the kept-alive connection as the request went out (its wait
            # ran out first: a loaded client reads its answers late): sent again on a new
            # one, as a browser does (a change carries its version: never made twice)
            self.retried += 1
            await self.open()
            self.send(method, path, body, headers)
            status, hdrs = await self.head()
        if "content-length" in hdrs:
            data = await self.reader.readexactly(int(hdrs["content-length"]))
        else:
            out = []
            while piece := await self.chunk():
                out.append(piece)
            data = b"".join(out)
        self.used = time.perf_counter()
        return status, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


async def one_request(port: int, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
    http = Http(port)
    await http.open()
    try:
        return await http.request(method, path, body)
    finally:
        http.close()


# ---- the live games ----------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, to the other device
    errors: list[str] = field(default_factory=list)
    skipped: int = 0  # versions a stream went past (its ids went up by more than one)
    lost: int = 0  # versions a stream never reached (30 s after the last move)
    duplicated: int = 0  # a version again or going back
    events: int = 0
    moves: int = 0
    play_cpu: float = 0.0  # the servers' CPU time while the games were played (s)
    play_system: float = 0.0  # the part of it in the kernel (s)
    retried: int = 0  # requests sent again on a new connection (see `Http.request`)
    rss: list[float] = field(default_factory=list)  # each server's MB at the end of play


class Device:
    """One seat of one game on a device of its own: its event stream and its requests."""

    def __init__(self, game: Match, seat: str, key: str, port: int, rng: random.Random) -> None:
        self.game, self.seat, self.key, self.port, self.rng = game, seat, key, port, rng
        self.stream = Http(port)
        self.http = Http(port)
        self.seen = -1  # the last version its stream showed
        self.acted = -1  # the version it last acted on
        self.state: dict[str, Any] = {}
        self.first = asyncio.get_running_loop().create_future()
        self.reading: asyncio.Task[None] | None = None
        self.acting: asyncio.Task[None] | None = None

    async def connect(self, fields: str | None) -> None:
        await self.stream.open()
        query = f"?seat_key={self.key}" + ("" if fields is None else f"&fields={fields}")
        self.stream.send("GET", f"{LUDO}/{self.game.id}/events{query}")
        status, _ = await self.stream.head()
        if status != 200:
            raise SystemExit(f"error: events answered {status}")
        self.reading = asyncio.create_task(self.read())
        await self.first

    async def read(self) -> None:
        buf = b""
        stats = self.game.stats
        try:
            while piece := await self.stream.chunk():
                now = time.perf_counter()
                buf += piece
                while b"\n\n" in buf:
                    raw, buf = buf.split(b"\n\n", 1)
                    self.event(raw.decode(), now, stats)
        except (OSError, asyncio.IncompleteReadError) as e:
            stats.errors.append(f"the events of {self.game.id} ended: {type(e).__name__}")
            return
        stats.errors.append(f"the events of {self.game.id} ended")

    def event(self, raw: str, now: float, stats: Stats) -> None:
        ident, kind, data = None, None, ""
        for line in raw.split("\n"):
            if line.startswith("id: "):
                ident = int(line[4:])
            elif line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
        if kind == "presence" and self.state:
            self.state = {**self.state, **json.loads(data)}
            return
        if kind not in ("state", "change") or ident is None:
            return
        stats.events += 1
        if self.seen >= 0:
            if ident <= self.seen:
                stats.duplicated += 1
                return
            if ident != self.seen + 1:
                stats.skipped += ident - self.seen - 1
            sent = self.game.sent.get(ident)
            if sent is not None and sent[0] != self.seat:
                stats.latencies.append(now - sent[1])
        self.seen = ident
        if kind == "state":
            self.state = json.loads(data)
        else:
            changed = apply_change(self.state, json.loads(data))
            if changed is None:
                stats.errors.append(f"a change of {self.game.id} did not follow its state")
                return
            self.state = changed
        if not self.first.done():
            self.first.set_result(None)
        self.consider()

    def consider(self) -> None:
        """Act (after thinking) if the state last seen is this seat's turn."""
        state = self.state
        if (
            self.game.playing
            and state["current_player"] == self.seat
            and state["phase"] in ("roll", "move")
            and state["version"] > self.acted
        ):
            self.acted = state["version"]
            self.acting = asyncio.create_task(self.act(state))

    async def act(self, state: dict[str, Any]) -> None:
        """A person's turn: think LO to HI seconds, then roll or move."""
        await asyncio.sleep(self.rng.uniform(*self.game.think))
        if not self.game.playing:
            return
        version = state["version"]
        if state["phase"] == "roll":
            path, body = f"{LUDO}/{self.game.id}/roll?fields=", {"version": version}
        else:
            move = self.rng.choice(state["legal_moves"])["name"]
            path, body = f"{LUDO}/{self.game.id}/move?fields=", {"move": move, "version": version}
        self.game.sent[version + 1] = (self.seat, time.perf_counter())
        self.game.stats.moves += 1
        try:
            status, answer = await self.http.request("POST", path, body, {"X-Seat-Key": self.key})
        except (OSError, asyncio.IncompleteReadError) as e:
            self.game.stats.errors.append(f"{path}: {type(e).__name__} {e}")
            return
        if status != 200:
            self.game.stats.errors.append(f"{path}: {status} {answer[:200]!r}")

    def close(self) -> None:
        for task in (self.reading, self.acting):
            if task is not None:
                task.cancel()
        self.stream.close()
        self.http.close()


def apply_change(state: dict[str, Any], change: dict[str, Any]) -> dict[str, Any] | None:
    """The state a `change` event's data makes of `state` (the version before it), as a
    page does it (docs/web.md, Live events); None if it does not follow `state`."""
    if not state or change.get("version") != state["version"] + 1:
        return None
    out = {**state, **change.get("set", {}), "version": change["version"]}
    for name, (kept, items) in change.get("append", {}).items():
        out[name] = state[name][:kept] + items
    for name, edits in change.get("edit", {}).items():
        text = state[name]
        for start, end, new in reversed(edits):
            text = text[:start] + new + text[end:]
        out[name] = text
    return out


class Match:
    """One online game: its id and two devices."""

    def __init__(self, ident: str, stats: Stats, think: tuple[float, float]) -> None:
        self.id = ident
        self.stats = stats
        self.think = think
        self.playing = False
        #: version made -> (seat that sent the request, perf_counter at its sending)
        self.sent: dict[int, tuple[str, float]] = {}
        self.devices: list[Device] = []


async def settle(pids: list[int], most: float = 30.0) -> None:
    """Wait (at most `most` seconds) until the server processes `pids` are done with the
    games made and joined (on a shared store, every seat's arrival is told to the others):
    until they use less than a tenth of a core for half a second."""
    deadline = time.perf_counter() + most
    while time.perf_counter() < deadline:
        before = sum(cpu_s(pid) for pid in pids)
        await asyncio.sleep(0.5)
        if sum(cpu_s(pid) for pid in pids) - before < 0.05:
            return


async def loop_lag(lags: list[float], stop: asyncio.Event) -> None:
    """The client's event-loop lag: how late a 10 ms sleep wakes."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - t - 0.01)


async def live(
    ports: list[int],
    games: int,
    seconds: float,
    think: tuple[float, float],
    fields: str | None,
    seed: int,
    pids: list[int],
) -> tuple[Stats, list[str], list[float]]:
    """Play `games` online games for `seconds`: their stats (with the CPU time the server
    processes `pids` used while they were played), ids and the client's loop lags."""
    stats = Stats()
    rng = random.Random(seed)
    gate = asyncio.Semaphore(32)  # connections opened at once

    async def create(k: int) -> Match:
        async with gate:
            status, body = await one_request(
                ports[k % len(ports)],
                "POST",
                f"{LUDO}?fields=",
                {"players": "AB", "seats": {"A": "remote", "B": "remote"}},  # the server's die
            )
        if status != 201:
            raise SystemExit(f"error: a new game answered {status}: {body[:200]!r}")
        made = json.loads(body)
        m = Match(made["id"], stats, think)
        for j, seat in enumerate("AB"):
            port = ports[j % len(ports)]
            m.devices.append(
                Device(m, seat, made["seat_keys"][seat], port, random.Random(rng.random()))
            )
        return m

    async def connect(d: Device) -> None:
        async with gate:
            await d.connect(fields)

    matches = await asyncio.gather(*(create(k) for k in range(games)))
    await asyncio.gather(*(connect(d) for m in matches for d in m.devices))
    await settle(pids)
    stop = asyncio.Event()
    lags: list[float] = []
    lagging = asyncio.create_task(loop_lag(lags, stop))
    cpu = [cpu_split(pid) for pid in pids]
    for m in matches:  # play: the device whose turn it is starts thinking now
        m.playing = True
        for d in m.devices:
            d.consider()
    await asyncio.sleep(seconds)
    for m in matches:
        m.playing = False
    # the requests in flight finish, their events arrive
    acting = [d.acting for m in matches for d in m.devices if d.acting is not None]
    await asyncio.gather(*acting, return_exceptions=True)
    now = [cpu_split(pid) for pid in pids]
    stats.play_cpu = sum(sum(b) - sum(a) for a, b in zip(cpu, now, strict=True))
    stats.play_system = sum(b[1] - a[1] for a, b in zip(cpu, now, strict=True))
    stats.rss = [rss_mb(pid) for pid in pids]  # every game still played and watched
    stop.set()
    await lagging
    # every stream ends at the game's final version (waiting up to 30 s for late events),
    # showing the game's final state
    finals = await asyncio.gather(*(final_state(m, gate, fields) for m in matches))
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and any(
        d.seen < v["version"] for m, v in zip(matches, finals, strict=True) for d in m.devices
    ):
        await asyncio.sleep(0.1)
    stats.retried = sum(d.http.retried for m in matches for d in m.devices)
    for m, final in zip(matches, finals, strict=True):
        for d in m.devices:
            if d.seen < final["version"]:
                stats.lost += final["version"] - d.seen
            elif final and _shown(d.state) != _shown(final):
                stats.errors.append(f"the stream of {m.id} shows another state than the game's")
            d.close()
    return stats, [m.id for m in matches], lags


def _shown(state: dict[str, Any]) -> dict[str, Any]:
    """What a state shows of the game (who is connected left out: the devices come and go)."""
    return {k: v for k, v in state.items() if k != "connected"}


async def final_state(m: Match, gate: asyncio.Semaphore, fields: str | None) -> dict[str, Any]:
    """The game's state now, with the `fields` the streams asked for ({"version": -1} if it
    cannot be read)."""
    query = "" if fields is None else f"?fields={fields}"
    async with gate:
        status, body = await one_request(m.devices[0].port, "GET", f"{LUDO}/{m.id}{query}")
    if status != 200:
        m.stats.errors.append(f"GET {m.id}: {status}")
        return {"version": -1}
    state: dict[str, Any] = json.loads(body)
    return state


# ---- memory and restart ------------------------------------------------------------------


async def create_games(port: int, k: int) -> list[str]:
    gate = asyncio.Semaphore(32)

    async def one(j: int) -> str:
        async with gate:
            status, body = await one_request(
                port,
                "POST",
                f"{LUDO}?fields=",
                {"players": "AB", "seats": {"A": "remote", "B": "remote"}},
            )
        if status != 201:
            raise SystemExit(f"error: a new game answered {status}: {body[:200]!r}")
        ident: str = json.loads(body)["id"]
        return ident

    return list(await asyncio.gather(*(one(j) for j in range(k))))


async def fetch_all(port: int, ids: list[str], at_once: int = 32) -> int:
    """GET every game in `ids` (`at_once` kept-alive connections); how many failed."""
    queue = list(ids)
    failed = 0

    async def worker() -> None:
        nonlocal failed
        http = Http(port)
        await http.open()
        try:
            while queue:
                ident = queue.pop()
                status, body = await http.request("GET", f"{LUDO}/{ident}")
                if status != 200 or json.loads(body)["id"] != ident:
                    failed += 1
        finally:
            http.close()

    await asyncio.gather(*(worker() for _ in range(at_once)))
    return failed


@dataclass
class Held:
    games: int
    before: float
    after: float
    start_s: float  # process start to first answer
    all_s: float  # process start to the last game served
    failed: int

    @property
    def per_game_kb(self) -> float:
        return (self.after - self.before) * 1024 / self.games

    @property
    def rate(self) -> float:
        return self.games / (self.all_s - self.start_s)


def held_games(store: str, k: int) -> Held:
    """Memory per held game, then the restart (see the module's docstring)."""
    server = start_server(store, k + 10)
    try:
        # warm up: one game made and read, so the first game's imports are not counted
        ids = asyncio.run(create_games(server.port, 1))
        asyncio.run(fetch_all(server.port, ids, 1))
        time.sleep(0.5)
        before = rss_mb(server.proc.pid)
        ids = asyncio.run(create_games(server.port, k))
        time.sleep(0.5)
        after = rss_mb(server.proc.pid)
    finally:
        stop_server(server)
    server = start_server(store, k + 10)
    try:
        failed = asyncio.run(fetch_all(server.port, ids))
        done = time.perf_counter()
    finally:
        stop_server(server)
    return Held(k, before, after, server.ready - server.started, done - server.started, failed)


# ---- the report --------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The `q`-quantile (0-1) of `values`, by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def run_live(
    label: str,
    stores: list[str],
    games: int,
    args: argparse.Namespace,
    think: tuple[float, float],
) -> bool:
    """One live run on `stores` (one server per URL); prints its figures; True if clean."""
    servers = [start_server(url, 2 * games + 10) for url in stores]
    load = os.getloadavg()[0]
    try:
        before = [rss_mb(s.proc.pid) for s in servers]
        cpu = sum(cpu_s(s.proc.pid) for s in servers)
        pids = [s.proc.pid for s in servers]
        ports = [s.port for s in servers]
        stats, _, lags = run_async(
            live(ports, games, args.seconds, think, args.fields, args.seed, pids)
        )
        cpu = sum(cpu_s(s.proc.pid) for s in servers) - cpu
        after = stats.rss
    finally:
        for s in servers:
            stop_server(s)
    lat = [x * 1000 for x in stats.latencies]
    lag = [x * 1000 for x in lags]
    print(
        f"  {label}, {games} games x 2 devices, {args.seconds:g} s, "
        f"think {think[0]:g}-{think[1]:g} s (load {load:.2f} -> {os.getloadavg()[0]:.2f}):"
    )
    if lat:
        print(
            f"    move -> other device's event, ms: p50 {percentile(lat, 0.5):.1f}  "
            f"p90 {percentile(lat, 0.9):.1f}  p99 {percentile(lat, 0.99):.1f}  "
            f"max {max(lat):.1f}  ({len(lat):,} moves, {len(lat) / args.seconds:.0f}/s)"
        )
    print(
        f"    events {stats.events:,}, skipped {stats.skipped}, lost {stats.lost}, "
        f"duplicated {stats.duplicated}, errors {len(stats.errors)} (requests sent again on "
        f"a new connection: {stats.retried}); client loop lag p99 {percentile(lag, 0.99):.1f} ms"
    )
    for e in stats.errors[:5]:
        print(f"      {e}")
    mem = ", ".join(
        f"{b:.0f} -> {a:.0f} MB ({(a - b) * 1024 / games:.0f} KB a game)"
        for b, a in zip(before, after, strict=True)
    )
    print(f"    server memory (VmRSS) at the end of play, games played and watched: {mem}")
    if stats.moves:
        print(
            f"    server CPU (user + system, all its processes) while the games were played: "
            f"{stats.play_cpu * 1000 / stats.moves:.2f} ms a move "
            f"({stats.play_system * 1000 / stats.moves:.2f} ms of it in the kernel); "
            f"{cpu:.1f} s in all, "
            f"{cpu * 1000 / stats.moves:.2f} ms a move with the games made and joined"
        )
    clean = not (stats.errors or stats.skipped or stats.lost or stats.duplicated)
    return clean and bool(lat)


def run_async(coro: Any) -> Any:
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def commit_ms(folder: str, n: int = 200) -> tuple[float, float]:
    """p50 and p99 of one SQLite commit in `folder` as the store makes it (WAL, a full sync,
    one row of 10 KB updated): the disk's floor under every SQLite move, and its ceiling,
    since the store commits one change at a time (1 / commit time changes a second)."""
    import sqlite3

    db = sqlite3.connect(Path(folder) / "commit.sqlite3", isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, record TEXT)")
        db.execute("INSERT INTO t VALUES (1, '')")
        times = []
        for k in range(n):
            t = time.perf_counter()
            db.execute("UPDATE t SET record = ? WHERE id = 1", (f"{k:010d}" * 1000,))
            times.append((time.perf_counter() - t) * 1000)
    finally:
        db.close()
    return percentile(times, 0.5), percentile(times, 0.99)


def postgres_available() -> bool:
    return bool(shutil.which("initdb") or list(Path("/usr/lib/postgresql").glob("*/bin/initdb")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds, for CI")
    parser.add_argument("--games", default="200,500", help="games at once, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play (60)")
    parser.add_argument("--think", default="1:3", help="seconds before a move, LO:HI (1:3)")
    parser.add_argument(
        "--stores",
        default="memory,sqlite,postgresql",
        help="of memory (the baseline), sqlite, postgresql",
    )
    parser.add_argument("--held", type=int, default=1000, help="games for memory/restart")
    parser.add_argument("--fields", default=None, help="?fields= of the event streams")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.quick:
        args.games, args.seconds, args.think, args.held = "20", 4.0, "0.2:0.6", 100
        args.stores = args.stores.replace("memory,", "")
    counts = [int(n) for n in args.games.split(",")]
    lo, hi = (float(x) for x in args.think.split(":"))
    kinds = args.stores.split(",")
    py = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"ludo serve online ({py}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f})")
    ok = True
    with tempfile.TemporaryDirectory(prefix="bench-online-") as temp:
        if "memory" in kinds:  # the baseline: no store to commit to
            for n in counts:
                ok &= run_live("memory, 1 process", ["memory"], n, args, (lo, hi))
        if "sqlite" in kinds:
            p50, p99 = commit_ms(temp)
            print(
                f"  SQLite commit here (WAL, full sync, 10 KB row): p50 {p50:.1f} ms, "
                f"p99 {p99:.1f} ms (one at a time: at most ~{1000 / p50:,.0f} changes/s)"
            )
            for n in counts:
                url = f"sqlite:///{Path(temp) / f'live-{n}.sqlite3'}"
                ok &= run_live("SQLite, 1 process", [url], n, args, (lo, hi))
            held = held_games(f"sqlite:///{Path(temp) / 'held.sqlite3'}", args.held)
            print(f"  SQLite, {held.games:,} games held (new, two remote seats each):")
            print(
                f"    server memory (VmRSS) {held.before:.1f} -> {held.after:.1f} MB: "
                f"{held.per_game_kb:.1f} KB per game"
            )
            print(
                f"    restart: answers {held.start_s:.2f} s after its start, all {held.games:,} "
                f"games served {held.all_s:.2f} s after its start: "
                f"{held.rate:,.0f} games/s restored ({held.failed} failed)"
            )
            ok &= held.failed == 0
        if "postgresql" in kinds:
            if not postgres_available():
                if os.environ.get("LUDOGAME_REQUIRE_POSTGRES") == "1":
                    print("error: PostgreSQL is required (LUDOGAME_REQUIRE_POSTGRES=1)")
                    return 1
                print("  PostgreSQL: skipped (initdb is not installed)")
            else:
                sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python_tests"))
                from pg_support import start_postgres

                pgdir = Path(tempfile.mkdtemp(prefix="bench-online-pg-"))
                os.chmod(pgdir, 0o755)
                try:
                    pg = start_postgres(pgdir)
                    try:
                        # the tests' server runs without fsync; measure with it, as deployed
                        with open(pg.data / "postgresql.conf", "a", encoding="utf-8") as conf:
                            conf.write("\nfsync = on\nsynchronous_commit = on\n")
                        pg.stop()
                        pg.start()
                        for n in counts:
                            url = pg.new_database(f"live{n}")
                            label = "PostgreSQL, 2 processes (seats on different ones)"
                            ok &= run_live(label, [url, url], n, args, (lo, hi))
                    finally:
                        pg.stop()
                finally:
                    shutil.rmtree(pgdir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
