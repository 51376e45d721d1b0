"""The stores' history of each game's last versions, SQLite's group commit, and what they
give the event streams: a client resuming after a restart gets every version it missed from
the store, a process that learnt of another's changes late sends every version in order,
a game nobody watches keeps no events in memory (and an idle one is dropped from memory and
read again), and who is connected is shared by the processes on one PostgreSQL database.
Real SQLite files, a real PostgreSQL server, real server processes."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from LudoGame.web import create_app  # noqa: E402
from LudoGame.web.cluster import Cluster  # noqa: E402
from LudoGame.web.database import (  # noqa: E402
    KEPT,
    SCHEMA_VERSION,
    Row,
    SqliteStorage,
    Storage,
    StorageError,
    open_storage,
)
from LudoGame.web.events import Event  # noqa: E402
from LudoGame.web.games import Games  # noqa: E402
from pg_support import Postgres  # noqa: E402
from test_web_online import LUDO, Events, created, live_server, ludo_step, start_serve  # noqa: E402


def fresh(pg: Postgres) -> str:
    return pg.new_database(f"t_{uuid.uuid4().hex[:12]}")


def stores(tmp_path: Path, pg: Postgres | None) -> list[Storage]:
    out = [open_storage("memory"), open_storage(f"sqlite:///{tmp_path / 'h.db'}")]
    if pg is not None:
        out.append(open_storage(fresh(pg)))
    return out


def check_history(storage: Storage) -> None:
    """A game's last KEPT versions are kept with their records, oldest first; a failed
    update keeps nothing; deleting the game deletes its history."""
    assert storage.insert(Row("g", "ludo", 0, False, False, '{"v": 0}'))
    for v in range(1, KEPT + 5):
        assert storage.update(Row("g", "ludo", v, False, False, f'{{"v": {v}}}'), v - 1)
    last = KEPT + 4
    assert not storage.update(Row("g", "ludo", 99, False, False, '{"v": 99}'), 0)
    kept = storage.history("g", -1)
    assert [v for v, _ in kept] == list(range(last - KEPT + 1, last + 1))
    assert all(json.loads(r) == {"v": v} for v, r in kept)
    assert [v for v, _ in storage.history("g", last - 3)] == [last - 2, last - 1, last]
    assert storage.history("g", last) == [] and storage.history("nope", -1) == []
    assert storage.delete("g")
    assert storage.history("g", -1) == []
    storage.close()


def test_every_store_keeps_the_last_versions_of_a_game(tmp_path: Path) -> None:
    for storage in stores(tmp_path, None):
        check_history(storage)


def test_postgres_keeps_the_last_versions_of_a_game(postgres: Postgres) -> None:
    check_history(open_storage(fresh(postgres)))


def test_sqlite_commits_concurrent_changes_together(tmp_path: Path) -> None:
    """Many threads changing games at once: every change is committed (and read back from
    another handle on the file), in fewer transactions than changes; a change the store
    refuses (a second game of one id) fails alone, not the others of its transaction."""
    path = tmp_path / "group.db"
    storage = SqliteStorage(path)
    n = 32
    for k in range(n):
        assert storage.insert(Row(f"g{k}", "ludo", 0, False, False, "{}"))
    barrier = threading.Barrier(n + 1)
    results: list[bool] = []
    errors: list[BaseException] = []

    def play(k: int) -> None:
        barrier.wait()
        for v in range(1, 21):
            results.append(storage.update(Row(f"g{k}", "ludo", v, False, False, f"[{v}]"), v - 1))

    def twice() -> None:
        barrier.wait()
        try:
            storage.insert(Row("g0", "ludo", 0, False, False, "{}"))
        except StorageError as e:
            errors.append(e)

    threads = [threading.Thread(target=play, args=(k,)) for k in range(n)]
    threads.append(threading.Thread(target=twice))
    before = storage.commits
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * (n * 20)
    assert len(errors) == 1 and "refused" in str(errors[0])
    assert storage.commits - before < n * 20 + 1  # several changes shared a commit
    other = SqliteStorage(path)  # what is on the file
    for k in range(n):
        row = other.load(f"g{k}")
        assert row is not None and row.version == 20 and row.record == "[20]"
        assert [v for v, _ in other.history(f"g{k}", 0)] == list(range(20 - KEPT + 1, 21))
    other.close()
    storage.close()
    with pytest.raises(StorageError):
        storage.update(Row("g1", "ludo", 21, False, False, "{}"), 20)


def test_a_client_resuming_after_a_restart_gets_every_missed_version(tmp_path: Path) -> None:
    """Last-Event-ID is answered from the store's history: after the server restarts on
    its SQLite file, a client that saw version 2 gets 3, 4, ... as they were (not one
    state), then the live ones; one older than the history gets the state now."""
    url = f"sqlite:///{tmp_path / 'g.db'}"
    states = []
    with live_server(store=url, heartbeat=5) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            s, _ = created(c.post(LUDO, json={"players": "AB", "seed": 11}))
            states.append(s)
            for _ in range(10):
                s = ludo_step(c, s)
                states.append(s)
    with live_server(store=url, heartbeat=5) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            back = Events(c, f"{LUDO}/{s['id']}/events", states[2], **{"Last-Event-ID": "2"})
            for k in range(3, s["version"] + 1):
                e = back.next()
                want = {k: v for k, v in states[k].items() if k != "connected"}
                assert e["id"] == str(k)
                assert {k: v for k, v in e["state"].items() if k != "connected"} == want
            s = ludo_step(c, s)
            assert back.next()["id"] == str(s["version"])
            back.close()
            for _ in range(KEPT + 2):  # version 1 leaves the history
                s = ludo_step(c, s)
            old = Events(c, f"{LUDO}/{s['id']}/events?fields=", **{"Last-Event-ID": "1"})
            assert old.next()["id"] == str(s["version"])
            old.close()


def test_an_unwatched_game_keeps_no_events_and_an_idle_one_is_dropped(tmp_path: Path) -> None:
    """Once its last stream closes a game keeps no event in memory; a game idle for long
    enough is dropped from memory and read from the store again when asked for."""
    with TestClient(create_app(store=f"sqlite:///{tmp_path / 'g.db'}")) as c:
        s, _ = created(c.post(LUDO, json={"players": "AB", "seed": 3}))
        for _ in range(4):
            s = ludo_step(c, s)
        games: Games = c.app.state.games  # type: ignore[attr-defined]
        assert s["id"] in games.cache.sessions and not games.hub.feeds
        assert c.portal.call(games.cache.forget_idle, 3600.0) == 0  # type: ignore[union-attr]
        assert c.portal.call(games.cache.forget_idle, 0.0) == 1  # type: ignore[union-attr]
        assert s["id"] not in games.cache.sessions
        assert c.get(f"{LUDO}/{s['id']}").json() == s
        s = ludo_step(c, s)
        assert c.get(f"{LUDO}/{s['id']}").json() == s


def test_one_encoding_per_version_and_fields_and_nothing_kept_once_unwatched(
    tmp_path: Path,
) -> None:
    """An event's text is made once per choice of fields (every stream asking for the same
    fields shares it); a watched game keeps the shape of its last state (no event), and
    nothing once its last stream closes."""
    e = Event(3, "state", {"version": 3, "svg": "<svg/>", "history": [1]})
    some, none = frozenset({"svg"}), frozenset[str]()
    assert e.text(some, ("svg", "history")) is e.text(some, ("svg", "history"))
    assert e.text(none, ("svg", "history")) == b'id: 3\nevent: state\ndata: {"version":3}\n\n'
    with live_server(store=f"sqlite:///{tmp_path / 'g.db'}", heartbeat=5) as (base, app):
        games: Games = app.state.games
        with httpx.Client(base_url=base, timeout=10) as c:
            s, _ = created(c.post(LUDO, json={"players": "AB", "seed": 2}))
            one = Events(c, f"{LUDO}/{s['id']}/events?fields=")
            two = Events(c, f"{LUDO}/{s['id']}/events?fields=")
            one.next(), two.next()
            for _ in range(5):
                s = ludo_step(c, s)
                assert one.next()["data"] == two.next()["data"]
            feed = games.hub.feeds[s["id"]]
            assert list(games.hub.feeds) == [s["id"]] and feed.shape is not None
            assert feed.shape.version == s["version"] and len(feed.streams) == 2
            assert not any(st.pending for st in feed.streams)
            one.close()
            two.close()
            wait_for(lambda: not games.hub.feeds)


def test_a_process_that_learns_late_sends_every_version_in_order(
    postgres: Postgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Process B does not hear of A's changes (its feed of notifications is stopped, as
    when it falls behind); when it next reads the game it sends its stream every version it
    missed, in order, from the store's history; past the history, from the oldest kept."""

    async def deaf(self: Cluster) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(Cluster, "follow", deaf)
    url = fresh(postgres)
    with TestClient(create_app(store=url)) as a, live_server(store=url) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as b:
            s, _ = created(a.post(LUDO, json={"players": "AB", "seed": 8}))
            watch = Events(b, f"{LUDO}/{s['id']}/events")
            assert watch.next()["id"] == "0"
            states = [s]
            for _ in range(5):
                s = ludo_step(a, s)
                states.append(s)
            assert b.get(f"{LUDO}/{s['id']}").json()["version"] == s["version"]
            for k in range(1, s["version"] + 1):
                e = watch.next()
                assert e["id"] == str(k) and e["state"]["history"] == states[k]["history"]
            for _ in range(KEPT + 4):
                s = ludo_step(a, s)
            assert b.get(f"{LUDO}/{s['id']}").json()["version"] == s["version"]
            ids = [int(watch.next()["id"]) for _ in range(KEPT)]
            assert ids == list(range(s["version"] - KEPT + 1, s["version"] + 1))
            watch.close()


def wait_for(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)


def test_who_is_connected_is_shared_by_two_processes(postgres: Postgres) -> None:
    """Two real servers on one database: a seat's page open on one shows as connected on
    the other (its state and a `presence` event on its streams), and leaves both when it
    closes."""
    url = fresh(postgres)
    p1, base1 = start_serve("--store", url)
    p2, base2 = start_serve("--store", url)
    try:
        with (
            httpx.Client(base_url=base1, timeout=10) as c1,
            httpx.Client(base_url=base2, timeout=10) as c2,
        ):
            body = {"players": "AB", "seats": {"A": "remote", "B": "remote"}}
            s, keys = created(c1.post(LUDO, json=body))
            gid, seat = s["id"], keys["seat_keys"]
            assert s["connected"] == {"A": False, "B": False}
            b = Events(c2, f"{LUDO}/{gid}/events?fields=&seat_key={seat['B']}")
            assert b.next()["state"]["connected"] == {"A": False, "B": True}
            wait_for(lambda: c1.get(f"{LUDO}/{gid}").json()["connected"]["B"])
            a = Events(c1, f"{LUDO}/{gid}/events?fields=&seat_key={seat['A']}")
            assert a.next()["state"]["connected"] == {"A": True, "B": True}
            e = b.next()
            assert e["event"] == "presence"
            assert json.loads(e["data"]) == {"connected": {"A": True, "B": True}}
            assert c2.get(f"{LUDO}/{gid}").json()["connected"] == {"A": True, "B": True}
            a.close()
            e = b.next()
            assert json.loads(e["data"]) == {"connected": {"A": False, "B": True}}
            wait_for(lambda: not c2.get(f"{LUDO}/{gid}").json()["connected"]["A"])
            b.close()
            wait_for(
                lambda: c1.get(f"{LUDO}/{gid}").json()["connected"] == {"A": False, "B": False}
            )
            # a process stopped normally takes its seats with it at once
            a = Events(c1, f"{LUDO}/{gid}/events?fields=&seat_key={seat['A']}")
            assert a.next()["state"]["connected"]["A"]
            wait_for(lambda: c2.get(f"{LUDO}/{gid}").json()["connected"]["A"])
            p1.send_signal(signal.SIGINT)
            _, err = p1.communicate(timeout=30)
            assert p1.returncode == 0 and "Traceback" not in err, err
            wait_for(lambda: not c2.get(f"{LUDO}/{gid}").json()["connected"]["A"], 2.0)
    finally:
        for p in (p1, p2):
            p.kill()
            p.communicate(timeout=20)


def test_presence_rows_expire_unless_renewed(postgres: Postgres) -> None:
    """A process's presence rows (PostgreSQL) are seen by another connection pool, expire
    when not renewed (a process killed), live on when renewed, and go when it stops."""
    url = fresh(postgres)
    one, two = open_storage(url), open_storage(url)
    one.set_present("p1", "g", ["A", "B"], 0.6)
    two.set_present("p2", "g", ["B"], 30)
    two.set_present("p2", "h", ["A"], 30)
    assert two.present(["g"]) == {"g": {"A", "B"}}
    assert one.present(None) == {"g": {"A", "B"}, "h": {"A"}}
    time.sleep(1.0)  # p1 was killed: its rows expire
    assert two.present(["g", "h"]) == {"g": {"B"}, "h": {"A"}}
    one.set_present("p1", "g", ["A"], 0.6)
    for _ in range(3):  # renewed: alive
        time.sleep(0.3)
        one.refresh_present("p1", 0.6)
    assert two.present(["g"]) == {"g": {"A", "B"}}
    two.set_present("p2", "g", [], 30)
    assert one.present(["g"]) == {"g": {"A"}}
    two.drop_present("p2")
    assert one.present(None) == {"g": {"A"}}
    one.close()
    two.close()


def test_an_update_notification_carries_a_short_row(postgres: Postgres) -> None:
    """The other processes get an update's row in its notification (no read of the table)
    when the record is short enough, else only its id and version."""
    from LudoGame.web.database.postgres_feed import NOTE_RECORD

    storage = open_storage(fresh(postgres))
    long = json.dumps({"pad": "x" * NOTE_RECORD})

    async def main() -> list[tuple[str, int, Row | None]]:
        feed = storage.notes()
        seen = [await anext(feed)]
        await asyncio.to_thread(storage.insert, Row("g", "ludo", 0, False, True, "{}"))
        await asyncio.to_thread(storage.update, Row("g", "ludo", 1, True, False, '{"a": ":"}'), 0)
        await asyncio.to_thread(storage.update, Row("g", "ludo", 2, False, True, long), 1)
        for _ in range(3):
            seen.append(await asyncio.wait_for(anext(feed), 5))
        await feed.aclose()  # type: ignore[attr-defined]
        return seen

    seen = asyncio.run(main())
    assert [(i, v) for i, v, _ in seen] == [("", 0), ("g", 0), ("g", 1), ("g", 2)]
    row = seen[2][2]
    assert row is not None and (row.kind, row.version, row.over, row.active) == (
        "ludo",
        1,
        True,
        False,
    )
    assert row.record == '{"a": ":"}'
    assert seen[3][2] is None
    storage.close()


def test_a_schema_1_sqlite_file_is_taken_up(tmp_path: Path) -> None:
    """A file written before the history (schema 1) opens: its games are read, the history
    table is made and kept from the next change on, and the file says the current schema."""
    import sqlite3

    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, version INTEGER NOT "
        "NULL, over INTEGER NOT NULL, active INTEGER NOT NULL, created REAL NOT NULL, updated "
        "REAL NOT NULL, record TEXT NOT NULL);"
        "INSERT INTO games VALUES ('g', 'ludo', 7, 0, 0, 0, 0, '{}');"
        "PRAGMA user_version=1;"
    )
    db.commit()
    db.close()
    storage = SqliteStorage(path)
    row = storage.load("g")
    assert row is not None and row.version == 7 and storage.history("g", 0) == []
    assert storage.update(Row("g", "ludo", 8, False, False, "[8]"), 7)
    assert storage.history("g", 0) == [(8, "[8]")]
    storage.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
