"""Benchmark ``ludo serve`` under load: many people playing Ludo at once.

Usage::

    python benches/bench_web.py [--quick] [--games N] [--moves M] [--think MS] [--fields F]
                                [--store URL]

Starts the real ``ludo serve`` in a subprocess on a free loopback port, then an async HTTP
client (httpx) plays N (200) all-human two-player Ludo games at once, each making M (50)
roll or move requests in turn (a finished game starts a new one). Each game has a client (a
kept-alive connection) of its own, as a browser tab has, starts within the first MS
milliseconds and waits between 0.5 and 1.5 times MS (seeded, so the games do not ask in
step) after each answer before its next request, as a person does: MS is 1,000 by default
(a click a second, quick for a person). ``--think 0`` is the stress case: every game asks
again the moment it has its answer, so a request waits for the queue of all the others
(latency = games / throughput) and the run measures the throughput.

Prints the latency of the roll and move requests (game creation excluded) at p50, p90 and
p99, the request rate, the error count and the server's resident memory (VmRSS) before and
after. ``--fields`` sends ``?fields=F`` with every request (e.g. ``svg`` to leave out the
history, empty for neither history nor board); by default the whole state is answered, as
the page asks for it. ``--store`` is the server's store: by default a new SQLite file in a
temporary directory (as ``ludo serve`` keeps games by default: every change committed to
disk before it is answered), or ``memory``. Exits 1 if any request failed. ``--quick`` is
20 games x 10 requests, 200 ms apart.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    import httpx
except ImportError:  # pragma: no cover - depends on the installation
    print('error: the benchmark needs httpx: pip install ".[test]"', file=sys.stderr)
    sys.exit(1)


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    """The resident memory of process `pid` in MB (from /proc; 0 where there is none)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def start_server(games: int, store: str) -> tuple[subprocess.Popen[str], str]:
    """`ludo serve` on a free port with `store`, once it answers."""
    port = free_port()
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", str(port), "--store", store]
    cmd += ["--max-games", str(max(1_000, 2 * games))]
    # every client is on this machine's one address: no per-client or connection limits
    cmd += ["--create-rate", "0", "--max-client-connections", "0", "--max-connections", "0"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("LudoGame is serving at "):
        proc.kill()
        raise SystemExit(f"error: the server did not start: {line!r}")
    base = line.split()[-1]
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(base + "api", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("error: the server did not answer within 30 s")
        time.sleep(0.05)


class Load:
    """The client side: games played at once, latencies and errors counted."""

    def __init__(self, base: str, fields: str | None, think: float) -> None:
        self.base = base
        self.query = "" if fields is None else f"?fields={fields}"
        self.think = think
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.games = 0

    async def new_game(self, client: httpx.AsyncClient, seed: int) -> dict[str, Any] | None:
        r = await client.post(
            f"{self.base}api/ludo/games{self.query}", json={"players": ["A", "B"], "seed": seed}
        )
        if r.status_code != 201:
            self.errors.append(f"new game: {r.status_code} {r.text[:200]}")
            return None
        self.games += 1
        state: dict[str, Any] = r.json()
        return state

    async def play(self, client: httpx.AsyncClient, seed: int, requests: int) -> None:
        """Make `requests` roll or move requests, in one game after another."""
        state = await self.new_game(client, seed)
        rng = random.Random(seed)
        n = 0
        while state is not None and n < requests:
            if state["phase"] == "over":
                state = await self.new_game(client, seed + 1_000_000 * (n + 1))
                continue
            gid, version = state["id"], state["version"]
            if state["phase"] == "roll":
                url, body = f"{self.base}api/ludo/games/{gid}/roll{self.query}", {}
            else:
                move = state["legal_moves"][0]["name"]
                url, body = f"{self.base}api/ludo/games/{gid}/move{self.query}", {"move": move}
            body["version"] = version
            t = time.perf_counter()
            try:
                r = await client.post(url, json=body)
            except httpx.HTTPError as e:
                self.errors.append(f"{url}: {type(e).__name__} {e}")
                return
            self.latencies.append(time.perf_counter() - t)
            n += 1
            if r.status_code != 200:
                self.errors.append(f"{url}: {r.status_code} {r.text[:200]}")
                return
            state = r.json()
            if self.think:
                await asyncio.sleep(self.think * rng.uniform(0.5, 1.5))

    async def player(self, client: httpx.AsyncClient, seed: int, requests: int) -> None:
        """One person, with a client of their own (one kept-alive connection, as a browser
        tab; one pool shared by hundreds of connections costs the client more than the
        server), playing `requests` requests."""
        if self.think:  # people do not all start in the same millisecond either
            await asyncio.sleep(self.think * random.Random(-seed).random())
        async with client:
            await self.play(client, seed, requests)

    async def run(self, games: int, requests: int) -> float:
        """Play `games` games at once; returns the seconds it took."""
        # made before the clock starts: making a client takes milliseconds of CPU
        clients = [httpx.AsyncClient(timeout=httpx.Timeout(60.0)) for _ in range(games)]
        start = time.perf_counter()
        await asyncio.gather(*(self.player(c, k, requests) for k, c in enumerate(clients)))
        return time.perf_counter() - start


def percentile(values: list[float], q: float) -> float:
    """The `q`-quantile (0-1) of `values`, by the nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 games x 10 requests")
    parser.add_argument("--games", type=int, default=200, help="games at once (200)")
    parser.add_argument("--moves", type=int, default=50, help="requests per game (50)")
    parser.add_argument("--fields", default=None, help="?fields= of every request")
    parser.add_argument(
        "--think", type=float, default=None, help="ms between a game's requests (1000)"
    )
    parser.add_argument("--store", default=None, help="the server's store (a temp SQLite file)")
    args = parser.parse_args()
    temp = tempfile.TemporaryDirectory(prefix="bench-web-")
    store = args.store or f"sqlite:///{Path(temp.name) / 'games.sqlite3'}"
    games, moves = (20, 10) if args.quick else (args.games, args.moves)
    if args.think is None:
        args.think = 200.0 if args.quick else 1000.0
    proc, base = start_server(games, store)
    try:
        before = rss_mb(proc.pid)
        load = Load(base, args.fields, args.think / 1000)
        seconds = asyncio.run(load.run(games, moves))
        after = rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        temp.cleanup()
    lat = [x * 1000 for x in load.latencies]
    fields = "all" if args.fields is None else repr(args.fields)
    py = f"{platform.python_implementation()} {platform.python_version()}"
    print(f"ludo serve under load  ({py}, {os.cpu_count()} CPUs), store {store}")
    print(f"  {games} games at once x {moves} roll/move requests, fields {fields}, "
          f"think {args.think:g} ms; {load.games} games started")  # fmt: skip
    if lat:
        print(
            f"  latency ms: p50 {percentile(lat, 0.5):.1f}  p90 {percentile(lat, 0.9):.1f}  "
            f"p99 {percentile(lat, 0.99):.1f}  max {max(lat):.1f}  "
            f"mean {statistics.fmean(lat):.1f}"
        )
    print(f"  {len(lat):,} requests in {seconds:.2f} s ({len(lat) / seconds:,.0f}/s)")
    print(f"  errors: {len(load.errors)}")
    for e in load.errors[:5]:
        print(f"    {e}")
    print(f"  server memory (VmRSS): {before:.1f} MB before, {after:.1f} MB after")
    return 1 if load.errors or len(lat) < games * moves else 0


if __name__ == "__main__":
    sys.exit(main())
