"""Where a played and watched online game's server memory goes, step by step.

Usage::

    python benches/online_memory_steps.py [--games N] [--store memory]

Starts one ``ludo serve`` (as ``bench_online.py`` does, with its client) and prints its
resident memory (VmRSS) after each step, and the step's growth divided by N (400): N new
two-player games with two remote seats; an event stream for each (the game's first, which
makes its `Feed` and `Shape`); a second stream for each; a kept-alive connection for each,
on which one roll is made. The streams and connections stay open until the end. Run it on
two checkouts (each with its own ``PYTHONPATH``) to compare them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_online as b  # noqa: E402


async def steps(port: int, pid: int, n: int) -> None:
    gate = asyncio.Semaphore(32)
    last = [0.0]

    def show(label: str) -> None:
        time.sleep(1.0)  # (the server is done with the step)
        now = b.rss_mb(pid)
        grew = f"  +{(now - last[0]) * 1024 / n:5.1f} KB a game" if last[0] else ""
        print(f"  {label:48s} {now:7.1f} MB{grew}")
        last[0] = now

    warm = await b.create_games(port, 1)  # (the first game's imports are not counted)
    await b.fetch_all(port, warm, 1)
    show("started, one game made and read")

    async def create() -> dict[str, Any]:
        async with gate:
            _, body = await b.one_request(
                port,
                "POST",
                f"{b.LUDO}?fields=",
                {"players": "AB", "seats": {"A": "remote", "B": "remote"}},
            )
        made: dict[str, Any] = json.loads(body)
        return made

    games = await asyncio.gather(*(create() for _ in range(n)))
    show(f"{n} games made")
    held: list[b.Http] = []

    async def stream(g: dict[str, Any], seat: str) -> None:
        http = b.Http(port)
        async with gate:
            await http.open()
            http.send("GET", f"{b.LUDO}/{g['id']}/events?seat_key={g['seat_keys'][seat]}")
            status, _ = await http.head()
            if status != 200:
                raise SystemExit(f"error: events answered {status}")
            await http.chunk()  # the state whole
        held.append(http)

    await asyncio.gather(*(stream(g, "A") for g in games))
    show("a first event stream for each")
    await asyncio.gather(*(stream(g, "B") for g in games))
    show("a second event stream for each")

    async def roll(g: dict[str, Any]) -> None:
        http = b.Http(port)
        key = {"X-Seat-Key": g["seat_keys"][g["current_player"]]}
        async with gate:
            status, _ = await http.request(
                "POST", f"{b.LUDO}/{g['id']}/roll?fields=", {"version": g["version"]}, key
            )
        if status != 200:
            raise SystemExit(f"error: a roll answered {status}")
        held.append(http)

    await asyncio.gather(*(roll(g) for g in games))
    show("a kept-alive connection for each, one roll on it")
    for http in held:
        http.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--store", default="memory", help="a --store URL (memory)")
    args = parser.parse_args()
    server = b.start_server(args.store, 2 * args.games + 10)
    print(f"ludo serve --store {args.store}, {args.games} games (load {os.getloadavg()[0]:.2f})")
    try:
        b.run_async(steps(server.port, server.proc.pid, args.games))
    finally:
        b.stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
