"""What players expect around an online game, for both games: a rematch (same seats, the
same keys and invite links), a turn timer for absent remote seats (played by a named bot,
kept with the game across a restart), and who is connected (event streams holding a key)."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from LudoGame.fair import commitment  # noqa: E402
from LudoGame.web import create_app  # noqa: E402
from test_web_online import (  # noqa: E402
    LUDO,
    ONI,
    Events,
    check_error,
    created,
    live_server,
    ludo_step,
    start_serve,
)


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(max_games=50))


def headers(key: str) -> dict[str, str]:
    return {"X-Seat-Key": key}


def ludo_to_the_end(c: Any, s: dict[str, Any], keys: dict[str, Any]) -> dict[str, Any]:
    """Plays a Ludo game to its end, each seat with its key (the host's for the others)."""
    while s["to_act"] is not None:
        s = ludo_step(c, s, keys["seat_keys"].get(s["current_player"], keys["host_key"]))
    return s


def onitama_to_the_end(c: Any, s: dict[str, Any], keys: dict[str, Any]) -> dict[str, Any]:
    while s["to_act"] is not None:
        key = keys["seat_keys"].get(s["turn"], keys["host_key"])
        body = {"action": s["legal_moves"][0]["text"], "version": s["version"]}
        r = c.post(f"{ONI}/{s['id']}/action?fields=", json=body, headers=headers(key))
        assert r.status_code == 200, r.text
        s = r.json()
    return s


# ---- rematch -----------------------------------------------------------------------------


def test_a_rematch_keeps_the_seats_and_their_keys(client: TestClient) -> None:
    body = {"players": "AB", "seats": {"B": "remote"}, "pace": 2}
    s, keys = created(client.post(LUDO, json=body))
    gid, host, bkey = s["id"], keys["host_key"], keys["seat_keys"]["B"]
    assert s["rematch"] is None and s["rematch_of"] is None
    # not before the end, and only for a player (or the host)
    check_error(client.post(f"{LUDO}/{gid}/rematch", headers=headers(bkey)), 409, "GameNotOver")
    s = ludo_to_the_end(client, s, keys)
    for wrong in ({}, headers("x" * 40), headers(bkey[:-1])):
        msg = check_error(client.post(f"{LUDO}/{gid}/rematch", headers=wrong), 403, "NotYourSeat")
        assert bkey not in msg and host not in msg
    assert client.get(f"{LUDO}/{gid}").json()["version"] == s["version"]
    check_error(client.post(f"{LUDO}/nope/rematch", headers=headers(bkey)), 404, "NotFound")
    check_error(client.post(f"{ONI}/{gid}/rematch", headers=headers(bkey)), 404, "NotFound")
    # B asks: a new game with the same seats, pace and a new seed
    r = client.post(f"{LUDO}/{gid}/rematch", headers=headers(bkey))
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["id"] != gid and new["rematch_of"] == gid and new["version"] == 0
    assert new["seats"] == s["seats"] and new["players"] == s["players"] and new["pace"] == 2
    assert new["seed"] is None and new["dice_commitment"] not in (None, s["dice_commitment"])
    assert new["phase"] == "roll" and new["history"] == []
    assert not {"seat_keys", "links", "host_key"} & set(new)
    old = client.get(f"{LUDO}/{gid}").json()
    assert old["rematch"] == new["id"] and old["version"] == s["version"] + 1
    # asked again (by the host too): the same rematch, nothing changes
    for key in (bkey, host):
        again = client.post(f"{LUDO}/{gid}/rematch", headers=headers(key))
        assert again.status_code == 200 and again.json()["id"] == new["id"]
    assert client.get(f"{LUDO}/{gid}").json()["version"] == old["version"]
    # the old keys act in the rematch, each for its own seat only
    rid = new["id"]
    check_error(client.post(f"{LUDO}/{rid}/roll", headers=headers(bkey)), 403, "NotYourSeat")
    t = ludo_step(client, new, host)
    while t["current_player"] == "A":
        t = ludo_step(client, t, host)
    check_error(client.post(f"{LUDO}/{rid}/roll", headers=headers(host)), 403, "NotYourSeat")
    ludo_step(client, t, bkey)
    # a rematch of the rematch: a seed given is refused (the game is online), none is not
    u = ludo_to_the_end(client, client.get(f"{LUDO}/{rid}").json(), keys)
    r = client.post(f"{LUDO}/{u['id']}/rematch", json={"seed": 77}, headers=headers(host))
    check_error(r, 400, "SeedRefused")
    assert client.get(f"{LUDO}/{rid}").json()["rematch"] is None
    r = client.post(f"{LUDO}/{u['id']}/rematch", headers=headers(host))
    assert r.status_code == 201 and r.json()["seed"] is None and r.json()["rematch_of"] == rid
    check_error(client.post(f"{LUDO}/{rid}/rematch", json={"seed": "x"}), 422)


def test_an_onitama_rematch_starts_where_the_game_started(client: TestClient) -> None:
    sides = {"A": {"kind": "remote"}, "B": {"kind": "remote"}}
    for body in ({"setup": "22", "max_plies": 6}, {"setup": "random", "max_plies": 6}):
        s, keys = created(client.post(ONI, json={**body, "sides": sides}))
        start = s["position"]
        s = onitama_to_the_end(client, s, keys)
        r = client.post(f"{ONI}/{s['id']}/rematch", headers=headers(keys["seat_keys"]["B"]))
        assert r.status_code == 201, r.text
        new = r.json()
        assert new["setup"] == s["setup"] and new["sides"] == s["sides"]
        assert new["plies"] == 0 and new["plies_left"] == 6 and new["to_act"] == "human"
        if body["setup"] == "22":
            assert new["position"] == start
        else:  # new cards from a new seed, kept secret (the old one is shown: it is over)
            assert s["seed_commitment"] == commitment(s["seed"])
            assert new["seed"] is None
            assert new["seed_commitment"] not in (None, s["seed_commitment"])
        # A's old key plays A's first ply of the rematch
        action = {"action": new["legal_moves"][0]["text"]}
        b_key = headers(keys["seat_keys"]["B"])
        check_error(client.post(f"{ONI}/{new['id']}/action", json=action, headers=b_key), 403)
        a_key = headers(keys["seat_keys"]["A"])
        assert client.post(f"{ONI}/{new['id']}/action", json=action, headers=a_key).is_success
    # a one-screen game (no remote seat): anyone at the screen may ask, as for its moves
    s, keys = created(client.post(ONI, json={"setup": "21", "max_plies": 2}))
    s = onitama_to_the_end(client, s, keys)
    assert client.post(f"{ONI}/{s['id']}/rematch").status_code == 201


def test_the_old_games_events_announce_the_rematch() -> None:
    with live_server(heartbeat=5) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            body = {"players": "AB", "seats": {"B": "remote"}}
            s, keys = created(c.post(LUDO, json=body))
            s = ludo_to_the_end(c, s, keys)
            w = Events(c, f"{LUDO}/{s['id']}/events?fields=")
            assert w.next()["state"]["rematch"] is None
            r = c.post(f"{LUDO}/{s['id']}/rematch", headers=headers(keys["seat_keys"]["B"]))
            e = w.next()
            assert e["id"] == str(s["version"] + 1) and e["state"]["rematch"] == r.json()["id"]
            w.close()


# ---- turn timer --------------------------------------------------------------------------


def test_bad_turn_timers_are_refused_with_400(client: TestClient) -> None:
    remote = {"players": "AB", "seats": {"B": "remote"}}
    for timer, kind in (
        ({"seconds": 0, "bot": "random"}, "InvalidTurnTimer"),
        ({"seconds": -3, "bot": "random"}, "InvalidTurnTimer"),
        ({"seconds": 10**9, "bot": "random"}, "InvalidTurnTimer"),
        ({"seconds": 5, "bot": "robot"}, "InvalidBotError"),
        ({"seconds": 5, "bot": "mcts:999999"}, "InvalidBotError"),
    ):
        msg = check_error(client.post(LUDO, json={**remote, "turn_timer": timer}), 400, kind)
        assert len(msg) < 300
    msg = check_error(
        client.post(LUDO, json={"turn_timer": {"seconds": 5, "bot": "random"}}),
        400,
        "InvalidTurnTimer",
    )
    assert "remote seat" in msg
    sides = {"B": {"kind": "remote"}}
    check_error(
        client.post(ONI, json={"sides": sides, "turn_timer": {"seconds": 5, "bot": "7"}}),
        400,
        "InvalidAIError",
    )
    # a wrong shape is a 422, as for every body
    for timer in ({"seconds": 5}, {"seconds": "x", "bot": "random"}, {"s": 1, "bot": "random"}):
        check_error(client.post(LUDO, json={**remote, "turn_timer": timer}), 422)
    assert client.get("/api").json()["games"] == 0
    s, _ = created(
        client.post(ONI, json={"sides": sides, "turn_timer": {"seconds": 5, "bot": "baseline"}})
    )
    assert s["turn_timer"] == {"seconds": 5, "bot": "baseline", "deadline": None, "left": None}


@pytest.mark.slow
def test_an_absent_remote_seat_is_played_by_the_timers_bot() -> None:
    """A 1-second timer: A (on the host's screen) is never timed; B's turn is played by the
    bot after a second (its whole turn), and B acting in time keeps the turn B's."""
    timer = {"seconds": 1, "bot": "random"}
    with live_server(heartbeat=5) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            body = {"players": "AB", "seats": {"B": "remote"}, "turn_timer": timer}
            s, keys = created(c.post(LUDO, json=body))
            host, bkey = keys["host_key"], keys["seat_keys"]["B"]
            assert s["turn_timer"]["left"] is None  # A's turn: A plays on this screen
            time.sleep(1.2)
            assert c.get(f"{LUDO}/{s['id']}?fields=").json()["version"] == 0
            w = Events(c, f"{LUDO}/{s['id']}/events?fields=history")
            w.next()
            while s["current_player"] == "A":
                s = ludo_step(c, s, host)
                w.next()
            t0 = time.monotonic()
            assert 0.5 < s["turn_timer"]["left"] <= 1 and s["turn_timer"]["deadline"] > 0
            # B is away: after a second the bot plays B's whole turn
            while True:
                e = w.next()["state"]
                assert time.monotonic() - t0 < 5, "the timer did not play B's turn"
                if e["current_player"] != "B" or e["phase"] == "over":
                    break
            took = time.monotonic() - t0
            assert 0.9 < took < 4, took
            played = e["history"][len(s["history"]) :]
            assert played and all(ev["player"] == "B" for ev in played)
            # every entry the bot played is the timer's, none before
            assert e["timer_entries"] == list(range(len(s["history"]), len(e["history"])))
            assert s["timer_entries"] == []
            assert e["turn_timer"]["left"] is None  # A's turn: not timed
            # (an undo would take back the bot's rolls: refused in a game played online)
            assert e["can_undo"] is False and e["undo_seat"] is None
            # B back in time: each of B's decisions gets a new second
            s = c.get(f"{LUDO}/{s['id']}?fields=history").json()
            while s["current_player"] == "A":
                s = ludo_step(c, s, host)
            time.sleep(0.6)
            s = ludo_step(c, s, bkey)
            if s["current_player"] == "B":
                assert s["turn_timer"]["left"] > 0.7
            history = c.get(f"{LUDO}/{s['id']}?fields=history").json()["history"]
            assert history[-1]["player"] == "B" and len(history) == len(s["history"])
            w.close()


@pytest.mark.slow
def test_onitama_timer_and_a_turn_timer_survives_kill_9(tmp_path: Path) -> None:
    """A game with a 1-second timer on a real SQLite file: the server is killed while B's
    timer runs; started again, the timer (stored with the game) plays B's ply."""
    store = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    p, base = start_serve("--store", store)
    try:
        with httpx.Client(base_url=base, timeout=10) as c:
            body = {
                "setup": "21",
                "sides": {"B": {"kind": "remote"}},
                "turn_timer": {"seconds": 1, "bot": "0"},
            }
            s, keys = created(c.post(ONI, json=body))
            r = c.post(
                f"{ONI}/{s['id']}/action",
                json={"action": s["legal_moves"][0]["text"]},
                headers=headers(keys["host_key"]),
            )
            assert r.status_code == 200 and r.json()["turn"] == "B"
            assert r.json()["turn_timer"]["left"] > 0.5
            p.send_signal(signal.SIGKILL)
            p.wait(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
        p.communicate(timeout=20)
    time.sleep(1.0)  # the timer runs out while no server runs
    p, base = start_serve("--store", store)
    try:
        deadline = time.monotonic() + 20
        while True:
            back = httpx.get(f"{base}{ONI}/{s['id']}?fields=").json()
            if back["plies"] == 2:
                break
            assert back["plies"] == 1 and time.monotonic() < deadline, back
            time.sleep(0.05)
        assert back["turn"] == "A" and back["turn_timer"]["left"] is None
        assert back["turn_timer"]["seconds"] == 1 and back["turn_timer"]["bot"] == "0"
        assert back["can_undo"] is True  # the timer's ply is a machine's: undo skips it
        assert back["timer_entries"] == [1] and back["undo_seat"] == "A"
        assert back["history_players"] == ["A", "B"]
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    assert p.returncode == 0 and "Traceback" not in err, err


# ---- whose undo it is ----------------------------------------------------------------------


def test_the_state_names_the_seat_an_undo_gives_the_turn_back_to(client: TestClient) -> None:
    """`undo_seat` is the seat whose key an undo needs (the host's for a seat on its screen):
    A after A's ply, B after B's, nobody before the first; the other device is refused."""
    sides = {"A": {"kind": "human"}, "B": {"kind": "remote"}}
    s, keys = created(client.post(ONI, json={"setup": "21", "sides": sides}))
    gid, host, bkey = s["id"], keys["host_key"], keys["seat_keys"]["B"]
    assert (s["can_undo"], s["undo_seat"], s["timer_entries"]) == (False, None, [])
    for seat, key, other in (("A", host, bkey), ("B", bkey, host)):
        body = {"action": s["legal_moves"][0]["text"], "version": s["version"]}
        s = client.post(f"{ONI}/{gid}/action", json=body, headers=headers(key)).json()
        assert (s["can_undo"], s["undo_seat"]) == (True, seat)
        check_error(client.post(f"{ONI}/{gid}/undo", headers=headers(other)), 403, "NotYourSeat")
    r = client.post(f"{ONI}/{gid}/undo", headers=headers(bkey))
    assert r.status_code == 200 and r.json()["undo_seat"] == "A" and r.json()["turn"] == "B"
    # against a bot: the person's seat, the bot's steps after it taken back too
    s = client.post(LUDO, json={"players": "AB", "seats": {"B": "random"}, "seed": 4}).json()
    while s["current_player"] == "A":
        s = ludo_step(client, s, None)
    while s["current_player"] == "B" and s["to_act"] is not None:
        s = client.post(f"{LUDO}/{s['id']}/bot", json={}).json()
    assert s["undo_seat"] == "A" and s["timer_entries"] == []


# ---- who is connected --------------------------------------------------------------------


def test_event_streams_with_a_key_show_who_is_connected() -> None:
    with live_server(heartbeat=5) as (base, _):
        with httpx.Client(base_url=base, timeout=10) as c:
            sides = {"A": {"kind": "human"}, "B": {"kind": "remote"}}
            s, keys = created(c.post(ONI, json={"setup": "21", "sides": sides}))
            gid = s["id"]
            assert s["connected"] == {"A": False, "B": False}
            watcher = Events(c, f"{ONI}/{gid}/events?fields=")
            assert watcher.next()["state"]["connected"] == {"A": False, "B": False}
            # a wrong key watches, read-only, and connects nobody
            junk = Events(c, f"{ONI}/{gid}/events?fields=&seat_key=nonsense")
            assert junk.next()["state"]["connected"] == {"A": False, "B": False}
            b = Events(c, f"{ONI}/{gid}/events?fields=&seat_key={keys['seat_keys']['B']}")
            assert b.next()["state"]["connected"] == {"A": False, "B": True}
            e = watcher.next()
            assert e["event"] == "presence" and "id" not in e
            assert json.loads(e["data"]) == {"connected": {"A": False, "B": True}}
            host = Events(c, f"{ONI}/{gid}/events?fields=&seat_key={keys['host_key']}")
            host.next()
            assert json.loads(watcher.next()["data"]) == {"connected": {"A": True, "B": True}}
            assert c.get(f"{ONI}/{gid}").json()["connected"] == {"A": True, "B": True}
            b.close()
            deadline = time.monotonic() + 5
            while c.get(f"{ONI}/{gid}").json()["connected"]["B"]:
                assert time.monotonic() < deadline, "B stayed connected"
                time.sleep(0.05)
            assert json.loads(watcher.next()["data"]) == {"connected": {"A": True, "B": False}}
            for stream in (watcher, junk, host):
                stream.close()
            # a one-screen game has nobody to connect
            t, _ = created(c.post(LUDO, json={"seed": 1}))
            assert t["connected"] == {}
