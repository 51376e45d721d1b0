"""``ludo serve --store postgresql://...`` on a real PostgreSQL server (pg_support.py): the
store's version check done by the database, and several real server processes on one
database (games seen by all, moves pushed to every process's event streams through
LISTEN/NOTIFY, concurrent writes of one version, kill -9), a store unreachable at start,
and a store lost while running."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
import time
import uuid
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from LudoGame.web import create_app  # noqa: E402
from LudoGame.web.database import PostgresStorage, Row, open_storage  # noqa: E402
from pg_support import Postgres, free_port  # noqa: E402
from test_web_online import (  # noqa: E402
    LUDO,
    Events,
    check_error,
    created,
    live_server,
    ludo_step,
    start_serve,
)

# slow: run by CI, left out of a quick `pytest -m "not slow"`
pytestmark = pytest.mark.slow


def fresh(pg: Postgres) -> str:
    """A new empty database on `pg`; its URL."""
    return pg.new_database(f"t_{uuid.uuid4().hex[:12]}")


def stop(p: subprocess.Popen[str]) -> str:
    """Stop a `ludo serve` with Ctrl-C; its stderr."""
    if p.poll() is None:
        p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate(timeout=30)
    return err


def test_the_database_lets_one_of_two_writes_of_a_version_through(postgres: Postgres) -> None:
    storage = open_storage(fresh(postgres))
    assert isinstance(storage, PostgresStorage) and storage.shared
    row = Row("g1", "ludo", 0, False, True, '{"a": 1}')
    storage.insert(row)
    assert storage.count() == 1 and [r.id for r in storage.active()] == ["g1"]
    results: list[bool] = []
    barrier = threading.Barrier(8)

    def write(n: int) -> None:
        barrier.wait()
        results.append(storage.update(Row("g1", "ludo", 1, False, True, f'{{"n": {n}}}'), 0))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False] * 7 + [True]
    back = storage.load("g1")
    assert back is not None and back.version == 1 and back.record.startswith('{"n": ')
    assert storage.load("nope") is None
    assert storage.update(Row("g1", "ludo", 2, True, False, "{}"), 1)
    assert storage.expire(time.time() + 1) == ["g1"] and storage.count() == 0
    assert not storage.delete("g1")
    storage.close()


def race_to_the_limit(stores: list[Any], limit: int, tries: int) -> int:
    """`tries` new games stored at once through `stores` (as many processes would), with
    the game limit `limit`; how many were stored."""
    barrier = threading.Barrier(tries)
    stored: list[bool] = []

    def add(n: int) -> None:
        barrier.wait()
        row = Row(f"g{n}", "ludo", 0, False, False, "{}")
        stored.append(stores[n % len(stores)].insert(row, limit))

    threads = [threading.Thread(target=add, args=(n,)) for n in range(tries)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(stored)


def test_the_game_limit_holds_across_processes(postgres: Postgres, tmp_path: Any) -> None:
    """--max-games: the count and the insert are one step, so servers sharing a store
    never pass the limit together (two PostgreSQL connections pools, two SQLite handles)."""
    url = fresh(postgres)
    stores = [open_storage(url), open_storage(url)]
    assert race_to_the_limit(stores, limit=5, tries=16) == 5
    assert stores[0].count() == 5
    for s in stores:
        s.close()
    path = f"sqlite:///{tmp_path / 'games.db'}"
    stores = [open_storage(path), open_storage(path)]
    assert race_to_the_limit(stores, limit=5, tries=16) == 5
    assert stores[1].count() == 5
    for s in stores:
        s.close()


def test_changes_are_announced_with_notify(postgres: Postgres) -> None:
    url = fresh(postgres)
    storage = open_storage(url)

    async def main() -> list[tuple[str, int]]:
        seen: list[tuple[str, int]] = []
        feed = storage.changes()
        seen.append(await anext(feed))  # listening
        await asyncio.to_thread(storage.insert, Row("g", "ludo", 0, False, False, "{}"))
        await asyncio.to_thread(storage.update, Row("g", "ludo", 1, False, False, "{}"), 0)
        await asyncio.to_thread(storage.update, Row("g", "ludo", 9, False, False, "{}"), 0)
        await asyncio.to_thread(storage.delete, "g")
        for _ in range(3):
            seen.append(await asyncio.wait_for(anext(feed), 5))
        await feed.aclose()  # type: ignore[attr-defined]
        return seen

    assert asyncio.run(main()) == [("", 0), ("g", 0), ("g", 1), ("g", -1)]
    storage.close()


def test_an_unreachable_store_at_start_is_one_line_and_exit_2() -> None:
    url = f"postgresql://nobody@127.0.0.1:{free_port()}/nothing"
    r = subprocess.run(
        [sys.executable, "-m", "LudoGame", "serve", "--store", url, "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert r.stderr.startswith("ludo: cannot use the store: ") and r.stderr.count("\n") == 1
    assert "127.0.0.1" in r.stderr


def test_two_processes_on_one_database(postgres: Postgres) -> None:
    """Two real servers on one database: a game made through A is read through B, a move
    through A is on B's event stream within a second, two writes of one version (one
    through each) give one 200 and one 409, and kill -9 of A loses no acknowledged move."""
    url = fresh(postgres)
    a, base_a = start_serve("--store", url)
    b, base_b = start_serve("--store", url)
    try:
        with (
            httpx.Client(base_url=base_a, timeout=10) as ca,
            httpx.Client(base_url=base_b, timeout=10) as cb,
        ):
            s, _ = created(ca.post(LUDO, json={"players": "AB", "seed": 5}))
            gid = s["id"]
            assert cb.get(f"{LUDO}/{gid}").json() == s
            # B's event stream follows the moves made through A
            watch = Events(cb, f"{LUDO}/{gid}/events?fields=")
            assert watch.next()["id"] == "0"
            for _ in range(6):
                t0 = time.monotonic()
                s = ludo_step(ca, s)
                e = watch.next()
                assert time.monotonic() - t0 < 1.0
                assert e["id"] == str(s["version"]) and e["state"]["position"] == s["position"]
            # and moves made through B are seen through A
            s = ludo_step(cb, s)
            assert ca.get(f"{LUDO}/{gid}").json() == s
            assert watch.next()["id"] == str(s["version"])
            watch.close()
            # two writes of one version, one through each server: one 200, one 409
            for _ in range(8):
                if s["phase"] == "roll":
                    path, body = "roll", {"version": s["version"]}
                else:
                    path = "move"
                    body = {"move": s["legal_moves"][0]["name"], "version": s["version"]}
                answers: list[httpx.Response] = []
                barrier = threading.Barrier(2)

                def post(
                    c: httpx.Client,
                    barrier: threading.Barrier,
                    answers: list[httpx.Response],
                    path: str = path,
                    body: Any = body,
                ) -> None:
                    barrier.wait()
                    answers.append(c.post(f"{LUDO}/{gid}/{path}", json=body))

                threads = [
                    threading.Thread(target=post, args=(c, barrier, answers)) for c in (ca, cb)
                ]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                assert sorted(r.status_code for r in answers) == [200, 409], [
                    r.text for r in answers
                ]
                won = next(r for r in answers if r.status_code == 200).json()
                check_error(next(r for r in answers if r.status_code == 409), 409, "StaleVersion")
                assert won["version"] == s["version"] + 1
                s = won
                assert ca.get(f"{LUDO}/{gid}").json() == cb.get(f"{LUDO}/{gid}").json() == s
            # moves acknowledged by A, then A killed: all of them are in B
            for _ in range(10):
                s = ludo_step(ca, s)
            a.send_signal(signal.SIGKILL)
            a.wait(timeout=20)
            assert cb.get(f"{LUDO}/{gid}").json() == s
            s = ludo_step(cb, s)
    finally:
        if a.poll() is None:
            a.kill()
        a.communicate(timeout=20)
        err = stop(b)
    assert b.returncode == 0 and "Traceback" not in err, err


def test_a_lost_store_answers_503_and_comes_back(postgres: Postgres) -> None:
    """The database stops while a server runs: a change is 503 and not made; once the
    database is back, the server goes on (new connections), with every acknowledged move."""
    url = fresh(postgres)
    app = create_app(store=url)
    with TestClient(app) as c:
        s, _ = created(c.post(LUDO, json={"players": "AB", "seed": 8}))
        gid = s["id"]
        for _ in range(5):
            s = ludo_step(c, s)
        postgres.stop()
        try:
            body = {"version": s["version"]}
            path = "roll" if s["phase"] == "roll" else "move"
            if path == "move":
                body["move"] = s["legal_moves"][0]["name"]
            check_error(c.post(f"{LUDO}/{gid}/{path}", json=body), 503, "StoreUnavailable")
            check_error(c.get(f"{LUDO}/{gid}"), 503, "StoreUnavailable")
        finally:
            postgres.start()
        deadline = time.monotonic() + 20
        while True:
            r = c.get(f"{LUDO}/{gid}")
            if r.status_code == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert r.status_code == 200 and r.json() == s
        for _ in range(5):
            s = ludo_step(c, s)
        assert c.get(f"{LUDO}/{gid}").json() == s


def test_without_postgres_the_tests_skip_or_fail_if_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pg_support import unavailable

    monkeypatch.delenv("LUDOGAME_REQUIRE_POSTGRES", raising=False)
    with pytest.raises(pytest.skip.Exception):
        unavailable("none here")
    monkeypatch.setenv("LUDOGAME_REQUIRE_POSTGRES", "1")
    with pytest.raises(pytest.fail.Exception):
        unavailable("none here")


def test_event_streams_follow_other_processes_again_after_the_store_comes_back(
    postgres: Postgres,
) -> None:
    """The database restarts under two servers: B's open event stream is still fed with
    the changes made through A (its LISTEN connection is made again)."""
    url = fresh(postgres)
    with (
        live_server(store=url, heartbeat=0.5) as (base_a, _),
        live_server(store=url, heartbeat=0.5) as (base_b, _),
    ):
        with (
            httpx.Client(base_url=base_a, timeout=10) as ca,
            httpx.Client(base_url=base_b, timeout=10) as cb,
        ):
            s, _ = created(ca.post(LUDO, json={"players": "AB", "seed": 3}))
            gid = s["id"]
            watch = Events(cb, f"{LUDO}/{gid}/events?fields=")
            assert watch.next()["id"] == "0"
            s = ludo_step(ca, s)
            assert watch.next()["id"] == "1"
            postgres.stop()
            postgres.start()
            deadline = time.monotonic() + 20
            while True:  # A's first request after the restart may be 503
                r = ca.get(f"{LUDO}/{gid}")
                if r.status_code == 200 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert r.json() == s
            time.sleep(1.5)  # B's feed is back (it retries every half second)
            for _ in range(3):
                t0 = time.monotonic()
                s = ludo_step(ca, s)
                e = watch.next()
                assert time.monotonic() - t0 < 1.0
                assert e["id"] == str(s["version"])
            watch.close()


def test_the_bots_of_a_killed_process_are_played_on_by_another(postgres: Postgres) -> None:
    """A bot game at a pace, played by process A, watched through B; A is killed with
    SIGKILL: B takes its bots up and the game ends as a client stepping the same seed ends
    it (no step lost or made twice)."""
    url = fresh(postgres)
    body = {"players": "AB", "seats": dict.fromkeys("AB", "cs162"), "seed": 17}
    a, base_a = start_serve("--store", url)
    try:
        with live_server(store=url, heartbeat=1, take_up=0.5) as (base_b, _):
            with httpx.Client(base_url=base_b, timeout=30) as cb:
                s, _ = created(httpx.post(base_a + LUDO, json={**body, "pace": 0.02}))
                w = Events(cb, f"{LUDO}/{s['id']}/events?fields=")
                while int(w.next()["id"]) < 20:
                    pass
                a.send_signal(signal.SIGKILL)
                a.wait(timeout=20)
                killed_at = time.monotonic()
                while True:
                    e = w.next()
                    if e["state"]["to_act"] is None:
                        break
                    assert time.monotonic() - killed_at < 60
                w.close()
                final = cb.get(f"{LUDO}/{s['id']}").json()
                assert final["phase"] == "over" and int(e["id"]) == final["version"]
    finally:
        if a.poll() is None:
            a.kill()
        a.communicate(timeout=20)
    stepped = TestClient(create_app())
    t, _ = created(stepped.post(LUDO, json=body))
    while t["to_act"] is not None:
        t = ludo_step(stepped, t)
    assert t["history"] == final["history"] and t["position"] == final["position"]


def test_the_turn_timer_of_a_killed_process_is_played_by_another(postgres: Postgres) -> None:
    """A game with a 1-second turn timer, changed last through process A, which is killed
    with SIGKILL while remote seat B's timer runs: B takes the game up and plays B's turn."""
    url = fresh(postgres)
    timer = {"seconds": 1, "bot": "random"}
    body = {"players": "AB", "seats": {"B": "remote"}, "turn_timer": timer}
    a, base_a = start_serve("--store", url)
    try:
        with live_server(store=url, heartbeat=1, take_up=0.5) as (base_b, _):
            with httpx.Client(base_url=base_b, timeout=30) as cb:
                s, keys = created(httpx.post(base_a + LUDO, json=body))
                with httpx.Client(base_url=base_a, timeout=30) as ca:
                    while s["current_player"] == "A":
                        s = ludo_step(ca, s, keys["host_key"])
                assert s["turn_timer"]["left"] > 0
                a.send_signal(signal.SIGKILL)
                a.wait(timeout=20)
                killed_at = time.monotonic()
                while True:
                    now = cb.get(f"{LUDO}/{s['id']}?fields=history").json()
                    if now["current_player"] != "B" or now["phase"] == "over":
                        break
                    assert time.monotonic() - killed_at < 20, "B's timer was not taken up"
                    time.sleep(0.1)
                played = now["history"][len(s["history"]) :]
                assert played and all(e["player"] == "B" for e in played)
    finally:
        if a.poll() is None:
            a.kill()
        a.communicate(timeout=20)


def test_keys_on_postgresql_are_digests_and_any_key_bytes_are_a_403(postgres: Postgres) -> None:
    """A PostgreSQL store: any X-Seat-Key bytes (non-ASCII, NUL) on the keyed routes are
    403 and change nothing, an id with a NUL is 404 (not a 503 from the database), the
    tables hold digests of the keys; tables of schema 2 with keys in clear are hashed when
    a server opens them, and those keys act."""
    import hashlib
    import json

    import psycopg
    from test_web_guard import raw

    url = fresh(postgres)
    with TestClient(create_app(store=url, create_rate=None)) as c:
        s, keys = created(c.post(LUDO, json={"players": "AB", "seats": {"B": "remote"}}))
        gid, host = s["id"], keys["host_key"]
        assert c.post(f"{LUDO}/{gid}/roll", headers={"X-Seat-Key": host}).status_code == 200
        json_body = [(b"content-type", b"application/json")]
        for key in ("ü".encode(), "ü".encode("latin-1"), b"\x00\xff", b""):
            for method, path in [
                ("POST", f"{LUDO}/{gid}/roll"),
                ("POST", f"{LUDO}/{gid}/undo"),
                ("POST", f"{LUDO}/{gid}/rematch"),
                ("DELETE", f"{LUDO}/{gid}"),
            ]:
                status, _, _ = raw(
                    c, method, path, headers=[*json_body, (b"x-seat-key", key)], body=b"{}"
                )
                assert status == 403, (key, path)
        status, _, _ = raw(c, "GET", f"{LUDO}/a\x00b")
        assert status == 404
        assert c.get(f"{LUDO}/{gid}?fields=").json()["version"] == 1
    with psycopg.connect(url) as conn:
        texts = [r for (r,) in conn.execute("SELECT record FROM ludogame_games").fetchall()]
        texts += [r for (r,) in conn.execute("SELECT record FROM ludogame_history").fetchall()]
        assert texts and not any(host in t or keys["seat_keys"]["B"] in t for t in texts)
        digest = "sha256:" + hashlib.sha256(host.encode()).hexdigest()
        assert all(json.loads(t)["host_key"] == digest for t in texts)
        clear = "K" * 22  # the tables as schema 2 kept them: the keys themselves
        for table in ("ludogame_games", "ludogame_history"):
            conn.execute(
                f"UPDATE {table} SET record = jsonb_set(record::jsonb, '{{host_key}}', "
                "to_jsonb(%s::text))::text",
                (clear,),
            )
        conn.execute("UPDATE ludogame_schema SET version = 2")
    with TestClient(create_app(store=url, create_rate=None)) as c:
        with psycopg.connect(url) as conn:
            texts = [r for (r,) in conn.execute("SELECT record FROM ludogame_games").fetchall()]
            assert texts and not any(clear in t for t in texts)
            assert conn.execute("SELECT version FROM ludogame_schema").fetchone() == (3,)
        check_error(c.delete(f"{LUDO}/{gid}", headers={"X-Seat-Key": host}), 403)
        assert c.delete(f"{LUDO}/{gid}", headers={"X-Seat-Key": clear}).status_code == 204


def test_expiry_on_postgresql_counts_finished_and_idle_games_apart(postgres: Postgres) -> None:
    storage = open_storage(fresh(postgres))
    assert storage.insert(Row("over", "ludo", 0, True, False, "{}"))
    assert storage.insert(Row("live", "ludo", 0, False, False, "{}"))
    later = time.time() + 10
    assert storage.expire(None, None) == []
    assert storage.expire(later, None) == ["over"]
    assert storage.expire(None, later) == ["live"] and storage.count() == 0
    storage.close()
