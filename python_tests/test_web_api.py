"""The web API of ``ludo serve``, through FastAPI's test client: every route, every error
answer (a 4xx in the one shape, the game unchanged), whole games to their end, eviction,
per-game serialisation, junk bodies, and the real ``ludo serve`` command."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from LudoGame import Game  # noqa: E402
from LudoGame.onitama import Onitama  # noqa: E402
from LudoGame.onitama_cli import main as onitama_main  # noqa: E402
from LudoGame.web import create_app  # noqa: E402

LUDO = "/api/ludo/games"
ONI = "/api/onitama/games"


@pytest.fixture
def client() -> TestClient:
    """A client of a fresh app (server errors raise in the test)."""
    return TestClient(create_app(max_games=50))


def check_error(r: httpx.Response, status: int, kind: str | None = None) -> str:
    """`r` is the error answer `status` in the one shape; returns its message."""
    assert r.status_code == status, r.text[:300]
    body = r.json()
    assert set(body) == {"error"}
    err = body["error"]
    assert set(err) == {"status", "type", "message"}
    assert err["status"] == status
    if kind is not None:
        assert err["type"] == kind, err
    assert isinstance(err["message"], str) and len(err["message"]) > 5
    return str(err["message"])


#: What only the answer to a new game carries, beside the state: the keys and invite links.
CREATED_ONLY = {"seat_keys", "links", "host_key"}


def state_of(r: httpx.Response) -> dict[str, Any]:
    """The state in a new game's answer (201), without the keys only that answer shows."""
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    assert CREATED_ONLY <= set(answer)
    return {k: v for k, v in answer.items() if k not in CREATED_ONLY}


def held(c: TestClient) -> tuple[int, int]:
    """How many games and replays the server holds."""
    about = c.get("/api").json()
    return about["games"], about["replays"]


def new_ludo(c: TestClient, **body: Any) -> dict[str, Any]:
    return state_of(c.post(LUDO, json=body))


def new_onitama(c: TestClient, **body: Any) -> dict[str, Any]:
    return state_of(c.post(ONI, json=body))


def snapshot(c: TestClient, kind: str, gid: str) -> dict[str, Any]:
    """Everything that tells a game's state (to compare before and after a refused request)."""
    r = c.get(f"/api/{kind}/games/{gid}")
    assert r.status_code == 200
    state: dict[str, Any] = r.json()
    return state


def ludo_step(c: TestClient, s: dict[str, Any]) -> dict[str, Any]:
    """One step of a game where people play the first legal move: a roll, a move or a bot's."""
    gid = s["id"]
    if s["to_act"] == "bot":
        r = c.post(f"{LUDO}/{gid}/bot", json={})
    elif s["phase"] == "roll":
        r = c.post(f"{LUDO}/{gid}/roll", json={"version": s["version"]})
    else:
        r = c.post(f"{LUDO}/{gid}/move", json={"move": s["legal_moves"][-1]["name"]})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    assert out["version"] == s["version"] + 1
    return out


# ---- pages -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/ludo", "/ludo?game=x", "/onitama", "/replay?id=y"])
def test_every_page_is_the_one_html_file(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "<html" in r.text.lower()


def test_static_files_and_the_api_description_are_served(client: TestClient) -> None:
    assert client.get("/static/index.html").status_code == 200
    check_error(client.get("/static/nothing.js"), 404, "NotFound")
    spec = client.get("/openapi.json").json()
    assert "/api/ludo/games/{game_id}/move" in spec["paths"]


# ---- Ludo --------------------------------------------------------------------------------


def test_a_new_ludo_game_is_the_engines_game(client: TestClient) -> None:
    s = new_ludo(client, rules="standard", players="AC", seed=5, options={"six_limit": 3})
    g = Game("standard", "AC", 5, six_limit=3)
    assert s["kind"] == "ludo" and s["version"] == 0 and len(s["id"]) >= 20
    assert s["rules_notation"] == g.rules_notation == "standard[six_limit=3]"
    assert (s["players"], s["seed"], s["phase"], s["to_act"]) == (["A", "C"], 5, "roll", "human")
    assert s["seats"] == {"A": "human", "C": "human"}
    assert s["position"] == g.to_notation() and s["status"] == g.status
    assert s["svg"] == g._repr_svg_() and s["history"] == [] and s["can_undo"] is False
    assert s["options"] == g.options and s["squares"] == g.squares and s["steps"] == g.steps
    # the page sends the options as the rules notation, which the engine reads
    by_notation = new_ludo(client, rules="standard[six_limit=3]", players="AC", seed=5)
    assert by_notation["rules_notation"] == "standard[six_limit=3]"
    assert by_notation["position"] == s["position"]


def test_a_person_plays_a_whole_game_against_random_to_its_end(client: TestClient) -> None:
    s = new_ludo(client, players=["A", "B"], seats={"B": "random"}, seed=11)
    mirror = Game("cs162", ["A", "B"], 11)
    steps = 0
    while s["to_act"] is not None:
        before = s
        s = ludo_step(client, s)
        steps += 1
        # the server's game is the engine's: replay the same step on a mirror
        event = s["history"][-1]
        if event["kind"] == "roll":
            assert mirror.roll() == event["value"]
        else:
            mirror.play(event["move"])
        assert s["position"] == mirror.to_notation() and s["status"] == mirror.status
        if before["to_act"] == "human" and before["phase"] == "move":
            assert event["move"] == before["legal_moves"][-1]["name"]
        assert steps < 2_000
    assert s["phase"] == "over" and s["current_player"] is None
    assert s["winner"] == mirror.winner and s["ranking"] == mirror.ranking
    assert len(s["history"]) == steps == len(mirror.history)
    assert s["legal_moves"] == []
    gid = s["id"]
    for route, body in (("roll", {}), ("move", {"move": "Ap"}), ("bot", {})):
        check_error(client.post(f"{LUDO}/{gid}/{route}", json=body), 409, "GameOverError")
    assert snapshot(client, "ludo", gid) == s


def test_legal_moves_are_the_engines(client: TestClient) -> None:
    s = new_ludo(client, rules="gt", seed=2)
    g = Game("gt", None, 2)
    while s["phase"] != "move":
        s = ludo_step(client, s)
        g.roll()
    assert [m["name"] for m in s["legal_moves"]] == [m.name for m in g.legal_moves]
    assert all(m["roll"] == g.pending_roll for m in s["legal_moves"])
    assert s["pending_roll"] == g.pending_roll


def test_bots_step_one_event_at_a_time_and_watch_mode_plays_to_the_end(
    client: TestClient,
) -> None:
    s = new_ludo(client, players="AB", seats={"A": "cs162", "B": "expectimax:2"}, seed=4)
    assert s["to_act"] == "bot"
    n = 0
    while s["to_act"] == "bot":
        s = ludo_step(client, s)
        n += 1
        assert len(s["history"]) == n
    assert s["to_act"] is None and s["winner"] in ("A", "B")
    # a bot-only game has nothing of a person's to undo
    check_error(client.post(f"{LUDO}/{s['id']}/undo", json={}), 409, "NothingToUndo")


def test_bot_moves_are_repeatable(client: TestClient) -> None:
    def play() -> list[Any]:
        s = new_ludo(client, players="AB", seats={"A": "mcts:50", "B": "random"}, seed=9)
        for _ in range(60):
            if s["to_act"] is None:
                break
            s = ludo_step(client, s)
        return list(s["history"])

    assert play() == play()


def test_undo_takes_a_person_back_to_their_own_decision(client: TestClient) -> None:
    s = new_ludo(client, players="AB", seats={"B": "random"}, seed=3)
    check_error(client.post(f"{LUDO}/{s['id']}/undo"), 409, "NothingToUndo")
    # play until a person's move has been followed by bot events
    while True:
        s = ludo_step(client, s)
        h = s["history"]
        if len(h) >= 3 and h[-1]["player"] == "B" and any(e["player"] == "A" for e in h):
            break
    last_a = max(i for i, e in enumerate(s["history"]) if e["player"] == "A")
    r = client.post(f"{LUDO}/{s['id']}/undo", json={"version": s["version"]})
    assert r.status_code == 200
    u = r.json()
    assert u["version"] == s["version"] + 1
    assert u["history"] == s["history"][:last_a]
    assert u["to_act"] == "human" and u["current_player"] == "A"


def test_undo_in_an_all_human_game_takes_back_one_event(client: TestClient) -> None:
    s = new_ludo(client, seed=8)
    states = [s]
    for _ in range(6):
        states.append(ludo_step(client, states[-1]))
    for back in reversed(states[:-1]):
        u = client.post(f"{LUDO}/{s['id']}/undo").json()
        assert (u["position"], u["history"]) == (back["position"], back["history"])
    assert u["can_undo"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"position": "cs162 A-1.-1/B-1.-1 A:r:0:0 - - 0000000000000003", "seats": {"B": "cs162"}},
        {"json": Game("standard", seed=1).to_json()},
    ],
)
def test_a_game_starts_from_a_position_or_a_saved_game(client: TestClient, body: Any) -> None:
    s = new_ludo(client, **body)
    text = body.get("position")
    g = Game.from_notation(text) if text else Game.from_json(body["json"])
    assert s["position"] == g.to_notation()
    if text:
        assert s["seed"] is None and s["seats"] == {"A": "human", "B": "cs162"}


def test_a_saved_game_downloads_and_continues(client: TestClient) -> None:
    s = new_ludo(client, players="AB", seed=21)
    for _ in range(9):
        s = ludo_step(client, s)
    r = client.get(f"{LUDO}/{s['id']}/save?format=json")
    assert r.status_code == 200
    assert r.headers["content-disposition"].startswith("attachment; filename=")
    assert r.headers["content-disposition"].endswith('.json"')
    assert Game.from_json(r.text).to_notation() == s["position"]
    again = new_ludo(client, json=r.text, seats={"B": "random"})
    assert again["history"] == s["history"] and again["position"] == s["position"]
    assert again["can_undo"] is True
    r = client.get(f"{LUDO}/{s['id']}/save?format=notation")
    assert r.text.strip() == s["position"] and r.headers["content-type"].startswith("text/plain")
    assert new_ludo(client, position=r.text.strip())["position"] == s["position"]
    check_error(client.get(f"{LUDO}/{s['id']}/save?format=pdf"), 422, "ValidationError")


def test_fields_leaves_out_the_large_parts(client: TestClient) -> None:
    s = new_ludo(client, seed=1)
    slim = client.post(f"{LUDO}/{s['id']}/roll?fields=").json()
    assert "svg" not in slim and "history" not in slim and slim["version"] == 1
    some = client.get(f"{LUDO}/{s['id']}?fields=svg").json()
    assert "svg" in some and "history" not in some


@pytest.mark.parametrize(
    ("body", "status", "kind"),
    [
        ({"rules": "chess"}, 400, "InvalidRulesError"),
        ({"rules": 3}, 422, "ValidationError"),
        ({"players": "AAB"}, 400, "InvalidPlayersError"),
        ({"options": {"six_limit": "lots"}}, 400, "InvalidRulesError"),
        ({"options": {"no_such_option": True}}, 400, "InvalidRulesError"),
        ({"seed": -1}, 422, "ValidationError"),
        ({"seed": 2**70}, 400, None),
        ({"seats": {"A": "greedy"}}, 400, "InvalidBotError"),
        ({"seats": {"A": "mcts:100000"}}, 400, "InvalidBotError"),
        ({"seats": {"A": "MCTS:100000"}}, 400, "InvalidBotError"),
        ({"seats": {"A": "expectimax:9"}}, 400, "InvalidBotError"),
        ({"seats": {"D": "random"}}, 400, "InvalidSeatError"),
        ({"position": "junk"}, 400, "InvalidNotationError"),
        ({"json": "{}"}, 400, "InvalidNotationError"),
        ({"json": "not json"}, 400, "InvalidNotationError"),
        ({"position": "x", "json": "y"}, 400, "BadRequest"),
        ({"position": "x", "rules": "gt"}, 400, "BadRequest"),
        ({"colour": "red"}, 422, "ValidationError"),
        ([1, 2], 422, "ValidationError"),
    ],
)
def test_a_bad_new_game_is_refused(client: TestClient, body: Any, status: int, kind: Any) -> None:
    check_error(client.post(LUDO, json=body), status, kind)
    assert held(client) == (0, 0)


def test_every_refused_ludo_request_leaves_the_game_as_it_was(client: TestClient) -> None:
    s = new_ludo(client, players="AB", seats={"B": "random"}, seed=5)
    gid = s["id"]
    refused = [
        ("post", f"{LUDO}/{gid}/move", {"move": "Ap"}, 409, "WrongPhase"),
        ("post", f"{LUDO}/{gid}/bot", {}, 409, "NotBotTurn"),
        ("post", f"{LUDO}/{gid}/roll", {"version": 7}, 409, "StaleVersion"),
        ("post", f"{LUDO}/{gid}/roll", {"extra": 1}, 422, "ValidationError"),
        ("post", f"{LUDO}/{gid}/move", {}, 422, "ValidationError"),
        ("post", f"{LUDO}/{gid}/move", {"move": 5}, 422, "ValidationError"),
        ("get", f"{LUDO}/{gid}/roll", None, 405, "MethodNotAllowed"),
        ("post", f"{LUDO}/{gid}x/roll", {}, 404, "NotFound"),
        ("post", f"{ONI}/{gid}/ai", {}, 404, "NotFound"),  # a Ludo id is not an Onitama game
    ]
    before = snapshot(client, "ludo", gid)
    for method, url, body, status, kind in refused:
        check_error(client.request(method, url, json=body), status, kind)
        assert snapshot(client, "ludo", gid) == before, (url, body)
    # now in the move phase: a roll, an illegal move, a made-up move
    s = before
    while s["phase"] != "move" or s["to_act"] != "human":
        s = ludo_step(client, s)
    legal = {m["name"] for m in s["legal_moves"]}
    illegal = next(n for n in ("Ap", "Aq", "Bp") if n not in legal)
    for method, url, body, status, kind in [
        ("post", f"{LUDO}/{gid}/roll", {}, 409, "WrongPhase"),
        ("post", f"{LUDO}/{gid}/move", {"move": illegal}, 400, "IllegalMoveError"),
        ("post", f"{LUDO}/{gid}/move", {"move": "Zz"}, 400, None),
        ("post", f"{LUDO}/{gid}/move", {"move": ""}, 400, None),
    ]:
        check_error(client.request(method, url, json=body), status, kind)
        assert snapshot(client, "ludo", gid) == s
    # a bot's turn: a person may not roll for it
    t = new_ludo(client, players="AB", seats={"A": "random"}, seed=5)
    check_error(client.post(f"{LUDO}/{t['id']}/roll"), 409, "BotTurn")
    assert snapshot(client, "ludo", t["id"]) == t


def test_junk_and_oversize_bodies_are_refused(client: TestClient) -> None:
    headers = {"content-type": "application/json"}
    msg = check_error(client.post(LUDO, content=b"{junk", headers=headers), 400, "BadRequest")
    assert "JSON" in msg
    check_error(client.post(LUDO, content=b"{junk"), 400, "BadRequest")  # (no Content-Type)
    big = json.dumps({"position": "x" * 1_100_000})
    check_error(client.post(LUDO, content=big, headers=headers), 413, "BodyTooLarge")
    check_error(client.post("/api/replays", json={"text": "y" * 1_000_001}), 413)
    assert held(client) == (0, 0)


def test_unknown_routes_are_404_in_the_error_shape(client: TestClient) -> None:
    assert "/api/nothing" in check_error(client.get("/api/nothing"), 404, "NotFound")
    check_error(client.post("/api/ludo/games/x/fly", json={}), 404, "NotFound")
    check_error(client.delete(LUDO), 405, "MethodNotAllowed")


def test_past_the_limit_a_new_game_is_refused_and_no_game_is_ever_dropped() -> None:
    c = TestClient(create_app(max_games=3))
    ids = [new_ludo(c, seed=k)["id"] for k in range(2)]
    ids.append(new_onitama(c)["id"])
    for body, url in (({"seed": 3}, LUDO), ({}, ONI)):
        msg = check_error(c.post(url, json=body), 409, "TooManyGames")
        assert "3 games" in msg and "--max-games" in msg
    for k, kind in enumerate(("ludo", "ludo", "onitama")):
        assert c.get(f"/api/{kind}/games/{ids[k]}").status_code == 200
    # deleting a game makes room for a new one
    r = c.delete(f"{LUDO}/{ids[0]}")
    assert r.status_code == 204 and r.content == b""
    check_error(c.get(f"{LUDO}/{ids[0]}"), 404, "NotFound")
    check_error(c.delete(f"{LUDO}/{ids[0]}"), 404, "NotFound")
    check_error(c.delete(f"{ONI}/{ids[1]}"), 404, "NotFound")  # a Ludo game's id
    new_ludo(c, seed=4)
    # replays are kept apart, at most as many, the least recently used dropped
    loaded = [
        c.post("/api/replays", json={"text": Game(seed=k).to_json()}).json()["id"] for k in range(4)
    ]
    check_error(c.get(f"/api/replays/{loaded[0]}"), 404, "NotFound")
    assert c.get(f"/api/replays/{loaded[3]}").status_code == 200
    assert c.get("/api").json()["games"] == 3


def test_requests_for_one_game_are_serialised() -> None:
    """Twenty bot steps of one game at once: each is applied exactly once, in turn."""
    app = create_app()

    async def run() -> tuple[list[int], dict[str, Any]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            r = await c.post(LUDO, json={"seats": {"A": "mcts:200", "C": "expectimax"}, "seed": 1})
            gid = r.json()["id"]
            answers = await asyncio.gather(
                *(c.post(f"{LUDO}/{gid}/bot", json={}) for _ in range(20))
            )
            versions = [a.json()["version"] for a in answers if a.status_code == 200]
            final = (await c.get(f"{LUDO}/{gid}")).json()
            return versions, final

    versions, final = asyncio.run(run())
    assert sorted(versions) == list(range(1, len(versions) + 1))
    assert final["version"] == len(versions) == len(final["history"])
    mirror = Game("cs162", None, 1)
    for e in final["history"]:
        if e["kind"] == "roll":
            assert mirror.roll() == e["value"]
        else:
            mirror.play(e["move"])
    assert mirror.to_notation() == final["position"]


# ---- Onitama -----------------------------------------------------------------------------


def test_a_new_onitama_game_is_the_engines_game(client: TestClient) -> None:
    s = new_onitama(client, setup="21")
    g = Onitama.setup(21)
    assert (s["kind"], s["setup"], s["turn"], s["to_act"]) == ("onitama", "case21", "A", "human")
    assert s["board"] == g.board and s["plies_left"] == 20 and s["plies"] == 0
    assert s["position"] == g.to_notation() and s["svg"] == g._repr_svg_()
    assert s["cards"]["A1"] == {"name": g.cards["A1"].name, "rows": g.cards["A1"].rows}
    assert [a["text"] for a in s["legal_moves"]] == [str(a) for a in g.legal_moves]
    r = new_onitama(client, setup="random", seed=4, max_plies=30)
    assert r["position"] == Onitama.dealt(4, 30).to_notation() and r["setup"] == "random"
    p = new_onitama(client, position=g.to_notation(), sides={"B": {"kind": "ai", "level": 0}})
    assert p["position"] == g.to_notation() and p["sides"]["B"]["kind"] == "ai"


def test_the_setups_listed_are_the_engines_and_each_starts_a_game(client: TestClient) -> None:
    answer = client.get("/api/onitama/setups")
    assert answer.status_code == 200
    ids = answer.json()["setups"]
    assert ids == Onitama.setup_ids()
    for setup in ids:
        assert new_onitama(client, setup=setup)["position"] == Onitama.setup(setup).to_notation()


def test_a_person_plays_onitama_against_ai_level_1_to_its_end(client: TestClient) -> None:
    s = new_onitama(
        client, setup="21", sides={"B": {"kind": "ai", "level": "baseline", "time": 0.2}}
    )
    mirror = Onitama.setup(21)
    while s["to_act"] is not None:
        gid = s["id"]
        if s["to_act"] == "ai":
            r = client.post(f"{ONI}/{gid}/ai", json={"version": s["version"]})
        else:
            a = s["legal_moves"][0]
            parts = {"card": a["card"], "from": a["from"], "to": a["to"], "wall": a["wall"]}
            r = client.post(f"{ONI}/{gid}/action", json=parts)
        assert r.status_code == 200, r.text
        s = r.json()
        mirror.play(s["history"][-1])
        assert s["position"] == mirror.to_notation() and s["plies"] == len(mirror.history)
    assert s["status"] == mirror.status and s["winner"] == mirror.winner
    assert s["reason"] == (mirror.result_reason and str(mirror.result_reason))
    if mirror.winner is None:
        assert s["message"] == "This is the last turn. The game is tied."
    else:
        assert s["message"].startswith(f"Player {mirror.winner}, ")  # the coursework's words
        assert s["message"].endswith(". You win.")
    assert s["legal_moves"] == []
    check_error(client.post(f"{ONI}/{s['id']}/ai"), 409, "GameOverError")
    check_error(client.post(f"{ONI}/{s['id']}/action", json={"action": "1 e1 d1 u"}), 409)


def test_every_refused_onitama_request_leaves_the_game_as_it_was(client: TestClient) -> None:
    s = new_onitama(client, setup="21")
    gid = s["id"]
    cases = [
        ({"card": 1, "from": "a1", "to": "b1", "wall": "u"}, 400, "IllegalActionError"),
        ({"card": 3, "from": "e1", "to": "d1", "wall": "u"}, 400, "IllegalActionError"),
        ({"card": 1, "from": "e1", "to": "d1", "wall": "x"}, 400, "IllegalActionError"),
        ({"card": 1, "from": "z9", "to": "d1"}, 400, "IllegalActionError"),
        ({"action": "junk"}, 400, "InvalidActionError"),
        ({"action": "1 e1 a1 u"}, 400, "IllegalActionError"),
        ({"action": "1 e1 d1 u", "card": 1}, 400, "BadRequest"),
        ({}, 400, "BadRequest"),
        ({"action": 5}, 422, "ValidationError"),
        ({"action": "1 e1 d1 u", "version": 3}, 409, "StaleVersion"),
    ]
    for body, status, kind in cases:
        msg = check_error(client.post(f"{ONI}/{gid}/action", json=body), status, kind)
        assert snapshot(client, "onitama", gid) == s, body
        if body.get("from") == "a1":
            assert msg == "You have no pawn at a1."  # the coursework referee's words
    check_error(client.post(f"{ONI}/{gid}/ai"), 409, "NotAITurn")
    check_error(client.post(f"{ONI}/{gid}/undo"), 409, "NothingToUndo")
    assert snapshot(client, "onitama", gid) == s
    t = new_onitama(client, setup="21", sides={"A": {"kind": "ai", "level": 0}})
    check_error(client.post(f"{ONI}/{t['id']}/action", json={"action": "1 e1 d1 u"}), 409)
    assert snapshot(client, "onitama", t["id"]) == t


@pytest.mark.parametrize(
    ("body", "status", "kind"),
    [
        ({"setup": "99"}, 400, "UnknownSetupError"),
        ({"setup": "21", "max_plies": -3}, 400, None),
        ({"position": "junk"}, 400, "OnitamaNotationError"),
        ({"json": "{}"}, 400, "OnitamaNotationError"),
        ({"setup": "21", "position": "x"}, 400, "BadRequest"),
        ({"sides": {"A": {"kind": "ai", "level": 3}}}, 400, "InvalidAIError"),
        ({"sides": {"A": {"kind": "ai", "level": 2, "time": 60}}}, 400, "InvalidAIError"),
        ({"sides": {"A": {"kind": "ai", "level": 2, "time": 0}}}, 400, "InvalidAIError"),
        ({"sides": {"C": {"kind": "human"}}}, 422, "ValidationError"),
        ({"sides": {"A": {"kind": "robot"}}}, 422, "ValidationError"),
    ],
)
def test_a_bad_new_onitama_game_is_refused(
    client: TestClient, body: Any, status: int, kind: Any
) -> None:
    check_error(client.post(ONI, json=body), status, kind)


def test_a_standard_onitama_game_is_the_engines_deal(client: TestClient) -> None:
    answer = client.get("/api/onitama/setups").json()
    assert answer["card_sets"] == ["base", "sensei", "all"]
    s = new_onitama(client, rules="standard", seed=7, card_set="sensei", max_plies=40)
    g = Onitama.standard(seed=7, card_set="sensei", max_plies=40)
    assert (s["rules"], s["setup"], s["card_set"]) == ("standard", "standard", "sensei")
    assert s["position"] == g.to_notation() and s["turn"] == g.turn
    assert all("W" not in row for row in s["board"])
    assert [a["text"] for a in s["legal_moves"]] == [str(a) for a in g.legal_moves]
    assert all(len(a["text"].split()) == 3 and a["wall"] is None for a in s["legal_moves"])
    names = {c["name"] for c in s["cards"].values()}
    assert names == {c.name for c in g.cards.values()}
    # A person plays by text and by parts (the wall part 's' or left out).
    gid = s["id"]
    a = s["legal_moves"][0]
    r = client.post(f"{ONI}/{gid}/action", json={"action": a["text"]})
    assert r.status_code == 200, r.text
    g.play(a["text"])
    assert r.json()["position"] == g.to_notation()
    a = r.json()["legal_moves"][-1]
    parts = {"card": a["card"], "from": a["from"], "to": a["to"]}
    r = client.post(f"{ONI}/{gid}/action", json=parts)
    assert r.status_code == 200, r.text
    g.play(a["text"])
    assert r.json()["position"] == g.to_notation()
    r = client.post(f"{ONI}/{gid}/action", json={"action": "1 e1 d1 u"})
    assert "wall" in check_error(r, 400, "InvalidActionError")
    assert client.get(f"{ONI}/{gid}").json()["position"] == g.to_notation()
    # Without a seed: the base cards dealt from a fresh seed the server chose, shown in the
    # state (a one-screen game); each game gets its own.
    d = new_onitama(client, rules="standard")
    assert d["card_set"] == "base" and d["seed_text"] == str(d["seed"])
    assert d["position"] == Onitama.standard(seed=d["seed"]).to_notation()
    assert new_onitama(client, rules="standard")["seed"] != d["seed"]
    t = new_onitama(client, rules="standard", card_set="ALL", seed=3)
    assert (t["card_set"], t["seed"], t["seed_text"]) == ("all", 3, "3")
    assert t["position"] == Onitama.standard(seed=3, card_set="all").to_notation()
    # A standard position given by its notation is a standard game too.
    p = new_onitama(client, position=g.to_notation())
    assert p["rules"] == "standard" and p["setup"] is None and p["card_set"] is None
    w = new_onitama(client, setup="21")
    assert (w["rules"], w["card_set"]) == ("wall", None)


@pytest.mark.parametrize(
    ("body", "status", "kind"),
    [
        ({"rules": "standard", "card_set": "promo"}, 400, "InvalidCardError"),
        ({"rules": "standard", "setup": "21"}, 400, "BadRequest"),
        ({"rules": "standard", "position": "x"}, 400, "BadRequest"),
        ({"card_set": "all"}, 400, "BadRequest"),
        ({"setup": "21", "card_set": "base"}, 400, "BadRequest"),
        ({"rules": "chess"}, 422, "ValidationError"),
        ({"rules": "standard", "card_set": 3}, 422, "ValidationError"),
        ({"rules": "standard", "seed": -1}, 422, "ValidationError"),
    ],
)
def test_a_bad_new_standard_game_is_refused(
    client: TestClient, body: Any, status: int, kind: Any
) -> None:
    check_error(client.post(ONI, json=body), status, kind)


def test_onitama_undo_save_and_pass(client: TestClient) -> None:
    s = new_onitama(client, setup="readme_no_move", sides={"B": {"kind": "ai", "level": 0}})
    passes = [a for a in s["legal_moves"] if a["is_pass"]]
    assert passes and len(passes) == len(s["legal_moves"])
    r = client.post(f"{ONI}/{s['id']}/action", json={"action": passes[0]["text"]})
    assert r.status_code == 200 and r.json()["history"] == [passes[0]["text"]]
    t = client.post(f"{ONI}/{s['id']}/ai").json()
    assert t["plies"] == 2 and t["can_undo"]
    u = client.post(f"{ONI}/{s['id']}/undo").json()  # back over the AI's ply and the pass
    assert u["position"] == s["position"] and u["history"] == [] and u["version"] == 3
    r = client.get(f"{ONI}/{s['id']}/save?format=json")
    assert "attachment" in r.headers["content-disposition"]
    assert Onitama.from_json(r.text).to_notation() == s["position"]
    r = client.get(f"{ONI}/{s['id']}/save?format=notation")
    assert r.text.strip() == s["position"]


# ---- replays -----------------------------------------------------------------------------


def frames(c: TestClient, rid: str, g: int, n: int) -> list[dict[str, Any]]:
    out = []
    for k in range(n):
        r = c.get(f"/api/replays/{rid}/games/{g}/frames/{k}")
        assert r.status_code == 200, r.text
        out.append(r.json())
    return out


def test_a_ludo_game_replays_frame_by_frame(client: TestClient) -> None:
    g = Game("gt", seed=6)
    g.autoplay("random", seed=1, max_rolls=40)
    r = client.post("/api/replays", json={"text": g.to_json()})
    assert r.status_code == 201
    summary = r.json()
    n = len(g.history) + 1
    assert [(x["kind"], x["frames"]) for x in summary["games"]] == [("ludo", n)]
    got = frames(client, summary["id"], 0, n)
    # the replay's steps are worded as the play view's history: one wording of an event
    state = client.post(LUDO, json={"json": g.to_json()}).json()
    texts = [e["text"] for e in state["history"]]
    assert [f["label"] for f in got[1:]] == texts
    assert all(t.startswith(f"{e['player']} ") for e, t in zip(g.history, texts, strict=True))
    back = g.copy()
    for k in reversed(range(n)):
        assert got[k]["position"] == back.to_notation() and got[k]["svg"] == back._repr_svg_()
        assert (got[k]["index"], got[k]["count"]) == (k, n)
        if k:
            event = back.undo()
            assert got[k]["label"].startswith(f"{event['player']} ")
    assert got[0]["label"] == "start"
    check_error(client.get(f"/api/replays/{summary['id']}/games/0/frames/{n}"), 404)
    check_error(client.get(f"/api/replays/{summary['id']}/games/1/frames/0"), 404)
    check_error(client.get(f"/api/replays/{summary['id']}/games/0/frames/-1"), 404)
    check_error(client.get("/api/replays/nope/games/0/frames/0"), 404, "NotFound")


def test_positions_and_onitama_games_replay(client: TestClient) -> None:
    ludo = Game(seed=3).to_notation()
    assert client.post("/api/replays", json={"text": ludo}).json()["games"][0]["frames"] == 1
    o = Onitama.setup(22)
    for _ in range(3):
        o.play(o.legal_moves[0])
    r = client.post("/api/replays", json={"text": o.to_json()}).json()
    assert r["games"][0]["kind"] == "onitama" and r["games"][0]["frames"] == 4
    got = frames(client, r["id"], 0, 4)
    assert got[3]["position"] == o.to_notation() and got[1]["label"] == f"A plays {o.history[0]}"
    r = client.post("/api/replays", json={"text": Onitama.setup(1).to_notation()}).json()
    assert r["games"][0]["frames"] == 1


def test_a_tournament_saved_by_the_onitama_command_replays(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.json"
    argv = ["tournament", "0", "1", "--setups", "21", "--nodes", "50", "--save", str(path)]
    assert onitama_main(argv) == 0
    saved = json.loads(path.read_text())
    assert saved["format"] == "ludogame-games/1" and len(saved["games"]) == 2
    assert {g["a"] for g in saved["games"]} == {"L0", "L1"}
    r = client.post("/api/replays", json={"text": path.read_text()})
    assert r.status_code == 201
    games = r.json()["games"]
    assert len(games) == 2 and all(g["kind"] == "onitama" for g in games)
    for k, (g, rec) in enumerate(zip(games, saved["games"], strict=True)):
        assert rec["result"] in g["title"] and g["frames"] == len(rec["actions"]) + 1
        last = frames(client, r.json()["id"], k, g["frames"])[-1]
        assert last["position"] == rec["position"]
    match = tmp_path / "match.json"
    assert onitama_main(["match", "1", "0", "--time", "0.05", "--save", str(match)]) == 0
    one = json.loads(match.read_text())["games"][0]
    r = client.post("/api/replays", json={"text": json.dumps(one)})  # a lone match record
    assert r.status_code == 201 and one["result"] in r.json()["games"][0]["title"]
    capsys.readouterr()


def test_records_saved_from_python_replay(client: TestClient, tmp_path: Path) -> None:
    from LudoGame import onitama

    ais = {"L0": onitama.builtin_ai(0, seed=3), "L1": onitama.builtin_ai(1, seed=4)}
    standings = onitama.round_robin(ais, setups=[22])
    record = onitama.play_match(ais["L1"], ais["L0"], 21)
    path = tmp_path / "games.json"
    onitama.save_games(path, [*standings.games, record])
    saved = json.loads(path.read_text())
    assert saved["format"] == onitama.GAMES_FORMAT and len(saved["games"]) == 3
    assert [g["a"] for g in saved["games"]] == [g.a for g in standings.games] + [None]
    r = client.post("/api/replays", json={"text": path.read_text()})
    assert r.status_code == 201
    games = r.json()["games"]
    records = [g.record for g in standings.games] + [record]
    for k, (g, rec) in enumerate(zip(games, records, strict=True)):
        assert g["frames"] == len(rec.actions) + 1
        last = frames(client, r.json()["id"], k, g["frames"])[-1]
        assert last["position"] == rec.end
    with pytest.raises(TypeError, match="MatchRecord or Game"):
        onitama.save_games(tmp_path / "bad.json", ["not a record"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("junk", "neither"),
        ("{broken", "not valid JSON"),
        ('{"format": "other/1"}', "other/1"),
        ('{"format": "ludogame-games/1", "games": []}', "no games"),
        ('{"format": "ludogame-games/1", "games": [3]}', "game 1"),
        ('{"format": "ludogame-game/1", "moves": "x"}', "field"),
        ("[1, 2]", "object"),
    ],
)
def test_a_file_that_is_not_a_game_is_refused(client: TestClient, text: str, words: str) -> None:
    msg = check_error(client.post("/api/replays", json={"text": text}), 400)
    assert words in msg


# ---- junk --------------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4)
    ),
    max_leaves=12,
)
_keys = st.sampled_from(
    ["rules", "players", "seats", "options", "seed", "position", "json", "move", "version",
     "setup", "sides", "max_plies", "action", "card", "from", "to", "wall", "text"]
)  # fmt: skip
_bodies = _json | st.dictionaries(_keys, _json, max_size=5)
_routes = st.sampled_from(
    [
        LUDO,
        ONI,
        "/api/replays",
        f"{LUDO}/G/roll",
        f"{LUDO}/G/move",
        f"{LUDO}/G/bot",
        f"{LUDO}/G/undo",
        f"{ONI}/O/action",
        f"{ONI}/O/ai",
        f"{ONI}/O/undo",
    ]
)


@pytest.fixture(scope="module")
def junk_app() -> tuple[TestClient, str, str]:
    c = TestClient(create_app())
    g = new_ludo(c, players="AB", seats={"B": "random"}, seed=1)["id"]
    o = new_onitama(c, setup="21", sides={"B": {"kind": "ai", "level": 0}})["id"]
    return c, g, o


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(route=_routes, body=_bodies, raw=st.booleans())
def test_junk_bodies_never_get_a_500(
    junk_app: tuple[TestClient, str, str], route: str, body: Any, raw: bool
) -> None:
    c, g, o = junk_app
    url = route.replace("/G/", f"/{g}/").replace("/O/", f"/{o}/")
    content = json.dumps(body).encode()
    if raw:
        content = content[: len(content) // 2]
    r = c.post(url, content=content, headers={"content-type": "application/json"})
    assert r.status_code < 500
    if r.status_code >= 400:
        check_error(r, r.status_code)


# ---- the real command --------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_serve() -> tuple[subprocess.Popen[str], str]:
    """The real `ludo serve` on a free port, once it answers; and its address."""
    port = free_port()
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", str(port), "--store", "memory"]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    line = p.stdout.readline()
    assert line == f"LudoGame is serving at http://127.0.0.1:{port}/\n"
    base = line.split()[-1]
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(base, timeout=5) as r:
                assert r.status == 200 and b"<html" in r.read().lower()
            return p, base
        except OSError:
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)


def post(url: str, body: Any) -> Any:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, json.loads(r.read())


def stop(p: subprocess.Popen[str]) -> tuple[float, str]:
    """Ctrl-C the server; the seconds it took to exit, and its stderr."""
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    return time.monotonic() - t, err


def test_ludo_serve_serves_and_stops_cleanly_on_ctrl_c() -> None:
    p, base = start_serve()
    try:
        status, state = post(base + "api/ludo/games", {"seed": 1})
        assert status == 201 and state["seed"] == 1
    finally:
        _, err = stop(p)
    assert p.returncode == 0, err
    assert "Traceback" not in err


def test_ctrl_c_stops_the_server_at_once_while_an_ai_thinks() -> None:
    p, base = start_serve()
    try:
        sides = {"A": {"kind": "ai", "level": 2, "time": 10}}
        _, state = post(base + "api/onitama/games", {"setup": "21", "sides": sides})
        url = f"{base}api/onitama/games/{state['id']}/ai"
        answers: list[object] = []

        def ask() -> None:
            try:
                answers.append(post(url, {}))
            except OSError as e:  # the server went away mid-request, as it should
                answers.append(e)

        thinking = threading.Thread(target=ask)
        thinking.start()
        time.sleep(1.0)  # the search has started
    finally:
        seconds, err = stop(p)
    thinking.join(timeout=30)
    assert answers and isinstance(answers[0], OSError)  # stopped before the AI answered
    assert p.returncode == 0, err
    assert seconds < 5, f"the server took {seconds:.1f} s to stop"


def test_ludo_serve_refuses_a_file_that_is_not_a_game(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("junk")
    for path in (bad, tmp_path / "missing.json"):
        r = subprocess.run(
            [sys.executable, "-m", "LudoGame", "serve", "--replay", str(path), "--port", "0"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr.startswith(f"ludo: cannot replay {path}: ") and r.stderr.count("\n") == 1


def test_onitama_messages_are_the_courseworks(client: TestClient) -> None:
    """An AI-vs-AI game watched ply by ply: a soldier's capture is announced in the
    coursework's words exactly when the opponent has one soldier fewer."""
    ai = {"kind": "ai", "level": 0}
    announced = 0
    for setup in ("21", "22", "23"):
        s = new_onitama(client, setup=setup, sides={"A": ai, "B": ai}, max_plies=40)
        while s["to_act"] == "ai":
            mover = s["turn"]
            enemy = "b" if mover == "A" else "a"
            before = "".join(s["board"]).count(enemy)
            s = client.post(f"{ONI}/{s['id']}/ai").json()
            lost = before - "".join(s["board"]).count(enemy)
            if s["winner"] is None and s["to_act"] is not None:
                captured = s["message"] is not None
                assert captured == (lost == 1), (s["history"][-1], s["message"])
                if captured:
                    announced += 1
                    assert s["message"] == (
                        f"Player {mover}, you capture opponent's soldier. "
                        "The soldier is removed from the board."
                    )
    assert announced > 0


def test_ludo_serve_without_the_web_extra_says_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['fastapi'] = None; "  # as if FastAPI were not installed
        "from LudoGame.cli import main; sys.exit(main(['serve']))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert (
        r.stderr
        == 'ludo: install the web extra: pip install ".[web]" in the LudoGame source folder\n'
    )


def test_ludo_serve_on_a_port_in_use_or_an_unknown_host_says_so_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for host, where in (("127.0.0.1", port), ("no-such-host.invalid", 8000)):
            r = subprocess.run(
                [sys.executable, "-m", "LudoGame", "serve", "--host", host, "--port", str(where)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert r.returncode == 2 and r.stdout == "", (r.stdout, r.stderr)
            assert r.stderr.startswith(f"ludo: cannot serve on {host}:{where}: ")
            assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_ludo_serve_on_port_0_prints_the_port_it_listens_on() -> None:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", "0"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        port = int(line.rsplit(":", 1)[1].strip("/\n"))
        assert port > 0 and line == f"LudoGame is serving at http://127.0.0.1:{port}/\n"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/onitama/setups") as r:
            assert json.loads(r.read())["setups"] == Onitama.setup_ids()
    finally:
        _, err = stop(p)
    assert p.returncode == 0, err


@pytest.mark.parametrize("seed", [-1, "12x", True, "", 2.5, [1]])
@pytest.mark.parametrize("path", ["/api/ludo/games", "/api/onitama/games"])
def test_a_bad_seed_is_one_clear_refusal(client: TestClient, path: str, seed: object) -> None:
    """Neither a number from 0 nor its decimal text: one sentence naming both forms (not
    one complaint per form of the schema's union)."""
    body: dict[str, object] = {"seed": seed}
    if path.endswith("onitama/games"):
        body["rules"] = "standard"
    r = client.post(path, json=body)
    assert r.status_code == 422
    message = r.json()["error"]["message"]
    assert message == (
        "bad request: seed: a seed is a whole number from 0 to 2**64 - 1, "
        "or the same as decimal text"
    ), message


def test_an_empty_part_of_an_action_is_judged_not_taken_for_missing(client: TestClient) -> None:
    s = new_onitama(client, setup="21")
    url = f"/api/onitama/games/{s['id']}/action"
    for body, words in (
        ({"card": 1, "from": "e2", "to": "d2", "wall": ""}, "the wall direction ''"),
        ({"card": 1, "from": "", "to": "d2"}, "the start position is invalid"),
    ):
        r = client.post(url, json=body)
        assert r.status_code == 400 and words in r.json()["error"]["message"], r.json()
    assert client.get(f"/api/onitama/games/{s['id']}").json()["version"] == s["version"]
