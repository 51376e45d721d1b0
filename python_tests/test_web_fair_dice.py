"""Fair dice online: in a game with a person on another device the seed and the die's state
stay on the server while it is played (not in the states, events, saves, rematch, errors or
logs), the state carries the commitment (SHA-256 of ``seed_text``), and once the game is
over the seed is shown and ``ludo verify`` checks it and every roll. A client's seed is
refused online; undo never rolls again; one-screen games show their seed as before, and a
game asked for without a seed gets a fresh one."""

from __future__ import annotations

import hashlib
import json
import random
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from LudoGame import Game  # noqa: E402
from LudoGame.fair import verify_save  # noqa: E402
from LudoGame.onitama import Onitama  # noqa: E402
from LudoGame.web import create_app  # noqa: E402
from test_web_online import LUDO, ONI, check_error, created, ludo_step, start_serve  # noqa: E402

#: Sixteen hex digits standing alone: how a die state is written (an id, a key or the
#: 64-digit commitment never holds one).
DIE_STATE = re.compile(r"(?<![0-9a-fA-F])[0-9a-f]{16}(?![0-9a-fA-F])")
#: A position near the end of a CS162 game, its die's state written (the last field).
NEAR_THE_END = "cs162 A29.57/B48.57 B:r:0:0 - - 96af9ccb49675254"


def headers(key: str) -> dict[str, str]:
    return {"X-Seat-Key": key}


class Stream:
    """A game's event stream read on a thread of its own, every byte kept, until the
    stream ends (the game deleted, the server stopped)."""

    def __init__(self, base: str, path: str) -> None:
        self.text = ""
        self.first = threading.Event()
        self._thread = threading.Thread(target=self._read, args=(base, path), daemon=True)
        self._thread.start()
        assert self.first.wait(20), "the stream did not start"

    def _read(self, base: str, path: str) -> None:
        with httpx.Client(base_url=base, timeout=httpx.Timeout(30.0)) as c:
            with c.stream("GET", path) as r:
                for chunk in r.iter_text():
                    self.text += chunk
                    if re.search(r"event: state\ndata: .*\n\n", self.text):
                        self.first.set()

    def join(self) -> None:
        self._thread.join(20)
        assert not self._thread.is_alive(), "the stream did not end"

    def events(self) -> list[str]:
        return [e for e in self.text.split("\n\n") if e.strip()]


def states_in(text: str) -> list[dict[str, Any]]:
    """The game states in an answer's text or an event (a state, or a new game's answer),
    and the fields a `change` event sets."""
    try:
        data = json.loads(text.split("data: ", 1)[1] if "data: " in text else text)
    except ValueError:
        return []
    if isinstance(data, dict) and "version" in data and "kind" not in data:
        return [data.get("set", {})]  # a change event
    return [data] if isinstance(data, dict) and "kind" in data and "phase" in data else []


def played(texts: list[str]) -> list[str]:
    """The texts that show the game while it is played (not once it is over)."""
    return [t for t in texts if all(s.get("phase") != "over" for s in states_in(t))]


def assert_no_secret(texts: list[str], secrets: list[str]) -> None:
    """Nothing in `texts` holds a secret (the seed's decimal or hex text, a die state) or
    any die state at all; every state in them hides its seed and its die."""
    for text in texts:
        for secret in secrets:
            assert secret not in text, f"{secret} in {text[:200]}"
        assert not DIE_STATE.search(text), DIE_STATE.search(text)
        for s in states_in(text):  # (a change event: the fields it sets)
            assert s.get("seed") is None and s.get("seed_text") is None
            assert s.get("position", "-").split()[-1] == "-"
            if "kind" in s or "dice_commitment" in s:
                assert re.fullmatch(r"[0-9a-f]{64}", s["dice_commitment"])


def die_secrets(seed: int, history: list[dict[str, Any]], players: str) -> list[str]:
    """The seed's decimal and hex text and the die's state before each event and after the
    last one, replaying `history` with the engine from `seed` (every die roll checked)."""
    g = Game("cs162", players, seed)
    states = [g.to_notation().split()[-1]]
    for e in history:
        if e["kind"] == "roll":
            assert e["die"] and g.roll() == e["value"], "a roll is not the die's"
        else:
            g.play(e["move"])
        states.append(g.to_notation().split()[-1])
    return [str(seed), f"{seed:x}", f"{seed:016x}", *states]


def cards_of(game: Onitama) -> dict[str, list[str]]:
    """The cards of an Onitama game, slot by slot."""
    return {slot: card.rows for slot, card in game.cards.items()}


def verify_cli(path: Path) -> subprocess.CompletedProcess[str]:
    """`ludo verify PATH`, as typed."""
    return subprocess.run(
        [sys.executable, "-m", "LudoGame", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_a_remote_player_cannot_predict_the_dice_and_checks_them_after_the_game(
    tmp_path: Path,
) -> None:
    """A real `ludo serve`: seat B on another device gets every answer it may (states, its
    own actions and refusals, saves in both formats, the event stream, the rematch); the
    host (A, and the bot C) too. Until the end none holds the seed or a die state; at the
    end the seed shown hashes to the commitment B saw first, gives every roll (undo of a
    move included), `ludo verify` accepts the save, and the server logged no secret."""
    p, base = start_serve("--store", "memory")
    streams: list[Stream] = []
    mine: list[str] = []  # every answer B's device got (its stream's are in `streams`)
    host_got: list[str] = []
    try:
        with httpx.Client(base_url=base, timeout=30) as host, httpx.Client(base_url=base) as b:

            def as_b(method: str, path: str, **kw: Any) -> httpx.Response:
                r = b.request(method, path, headers=headers(bkey), **kw)
                mine.append(r.text)
                return r

            body = {"players": "ABC", "seats": {"B": "remote", "C": "random"}}
            r = host.post(LUDO, json=body)
            host_got.append(r.text)
            s, keys = created(r)
            gid, hkey, bkey = s["id"], keys["host_key"], keys["seat_keys"]["B"]
            streams.append(Stream(base, f"{LUDO}/{gid}/events?seat_key={bkey}"))
            first = states_in(streams[0].events()[1])[0]
            committed = first["dice_commitment"]
            # B acting out of turn, or asking for a rematch now: refused
            check_error(as_b("POST", f"{LUDO}/{gid}/roll"), 403, "NotYourSeat")
            check_error(as_b("POST", f"{LUDO}/{gid}/rematch"), 409, "GameNotOver")
            pick = random.Random(5)
            undone_move = False
            over_at = 0
            while s["to_act"] is not None:
                if s["version"] % 20 == 0:
                    as_b("GET", f"{LUDO}/{gid}")
                    as_b("GET", f"{LUDO}/{gid}/save")
                    as_b("GET", f"{LUDO}/{gid}/save?format=notation")
                if s["current_player"] != "B" or s["to_act"] == "bot":
                    r = host.post(
                        f"{LUDO}/{gid}/{'bot' if s['to_act'] == 'bot' else s['phase']}",
                        json={} if s["phase"] == "roll" or s["to_act"] == "bot" else
                        {"move": pick.choice(s["legal_moves"])["name"]},
                        headers=headers(hkey),
                    )  # fmt: skip
                    host_got.append(r.text)
                    assert r.status_code == 200, r.text
                    s = r.json()
                    continue
                if s["phase"] == "roll":
                    s = as_b("POST", f"{LUDO}/{gid}/roll").json()
                    # B's roll cannot be taken back (B would decide again knowing it)
                    r = as_b("POST", f"{LUDO}/{gid}/undo")
                    check_error(r, 409, "UndoPastRoll")
                    continue
                moves = [m["name"] for m in s["legal_moves"]]
                s = as_b("POST", f"{LUDO}/{gid}/move", json={"move": pick.choice(moves)}).json()
                if not undone_move and len(moves) > 1 and s["to_act"] is not None:
                    # B's move may be taken back (before anyone rolls), and played otherwise
                    back = as_b("POST", f"{LUDO}/{gid}/undo").json()
                    assert back["phase"] == "move" and back["pending_roll"] is not None
                    other = [m for m in moves if m != s["history"][-1]["move"]]
                    s = as_b("POST", f"{LUDO}/{gid}/move", json={"move": other[0]}).json()
                    undone_move = True
            assert undone_move, "no move of B's was taken back (the game had no choice)"
            over_at = len(mine)
            # over: the seed is shown, it is the one committed to, and it gives every roll
            end = as_b("GET", f"{LUDO}/{gid}").json()
            seed = int(end["seed_text"])
            assert end["seed"] == seed and end["dice_commitment"] == committed
            assert hashlib.sha256(end["seed_text"].encode()).hexdigest() == committed
            secrets = die_secrets(seed, end["history"], "ABC")
            assert end["position"].split()[-1] == secrets[-1]  # the die shown at the end
            saved = as_b("GET", f"{LUDO}/{gid}/save").text
            path = tmp_path / "saved.json"
            path.write_text(saved, encoding="utf-8")
            done = verify_cli(path)
            assert done.returncode == 0, done
            assert done.stdout.startswith(f"{path}: verified: seed {seed} ")
            # over: no undo (the seed is shown); a seed asked for the rematch is refused
            check_error(as_b("POST", f"{LUDO}/{gid}/undo"), 409, "GameOverError")
            r = as_b("POST", f"{LUDO}/{gid}/rematch", json={"seed": 7})
            check_error(r, 400, "SeedRefused")
            again = as_b("POST", f"{LUDO}/{gid}/rematch")
            assert again.status_code == 201
            rid = again.json()["id"]
            streams.append(Stream(base, f"{LUDO}/{rid}/events?seat_key={bkey}"))
            as_b("GET", f"{LUDO}/{rid}/save")
            as_b("GET", f"{LUDO}/{rid}/save?format=notation")
            for ident in (gid, rid):
                assert host.delete(f"{LUDO}/{ident}", headers=headers(hkey)).status_code == 204
            for stream in streams:
                stream.join()
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    # everything shown while a game was played: no seed, no die state
    old_events = streams[0].events()
    assert any("event: gone" in e for e in old_events)
    assert len(played(old_events)) > 100 and len(played(mine[:over_at])) > 50
    shown = played(mine[:over_at]) + played(old_events) + played(host_got)
    assert_no_secret(shown, secrets)
    # the rematch (its state, events and saves): its own seed hidden, and a new commitment
    assert_no_secret([again.text, *mine[-2:], *streams[1].events()], [])
    assert states_in(again.text)[0]["dice_commitment"] != committed
    assert not Game.from_json(mine[-2]).history and json.loads(mine[-2])["seed"] is None
    # the server's output: no secret at all
    for secret in secrets:
        assert secret not in out + err
    assert not DIE_STATE.search(out + err)


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(max_games=100))


def test_undo_never_rolls_again(client: TestClient) -> None:
    """One screen: a roll taken back and rolled again is the same value, each time. Online:
    a roll is never taken back, nor anything once the game is over; a move taken back and
    played otherwise leaves the die as it was (the rolls after it are the seed's)."""
    s, _ = created(client.post(LUDO, json={"players": "AB", "seed": 31}))
    gid = s["id"]
    checked = 0
    while s["to_act"] is not None and checked < 15:
        if s["phase"] == "roll":
            value = ludo_step(client, s)["history"][-1]["value"]
            for _ in range(3):
                back = client.post(f"{LUDO}/{gid}/undo").json()
                assert back["history"] == s["history"] and back["phase"] == "roll"
                again = client.post(f"{LUDO}/{gid}/roll").json()
                assert again["history"][-1]["value"] == value
            checked += 1
            s = again
        else:
            s = ludo_step(client, s)
    assert checked == 15
    # online: B's roll stays, whoever asks, and the game is unchanged
    s, keys = created(client.post(LUDO, json={"players": "AB", "seats": {"B": "remote"}}))
    gid, hkey, bkey = s["id"], keys["host_key"], keys["seat_keys"]["B"]
    key = {"A": hkey, "B": bkey}
    while s["to_act"] is not None:
        s = ludo_step(client, s, key[s["current_player"]])
        if s["history"][-1]["kind"] == "roll":
            who = key[s["history"][-1]["player"]]
            check_error(client.post(f"{LUDO}/{gid}/undo", headers=headers(who)), 409)
            assert client.get(f"{LUDO}/{gid}").json() == s
            assert s["can_undo"] is False
        elif s["to_act"] is not None:
            assert s["can_undo"] is True
            mover = key[s["history"][-1]["player"]]
            back = client.post(f"{LUDO}/{gid}/undo", headers=headers(mover)).json()
            assert back["phase"] == "move"
            s = ludo_step(client, back, mover)  # the last legal move: perhaps another
    check_error(client.post(f"{LUDO}/{gid}/undo", headers=headers(hkey)), 409, "GameOverError")
    check_error(client.post(f"{LUDO}/{gid}/undo", headers=headers(bkey)), 409, "GameOverError")
    # every roll, with the moves taken back, is the die's from the seed shown now
    die_secrets(s["seed"], s["history"], "AB")
    assert verify_save(client.get(f"{LUDO}/{gid}/save").text).verified


@pytest.mark.parametrize(
    ("url", "body"),
    [
        (LUDO, {"players": "AC", "seats": {"C": "remote"}, "seed": 7}),
        (LUDO, {"players": "AB", "seats": {"B": "remote"}, "seed": "6602659055284519226"}),
        (LUDO, {"players": "AB", "seats": {"A": "remote"}, "seed": 0}),
        (ONI, {"setup": "random", "seed": 3, "sides": {"B": {"kind": "remote"}}}),
        (ONI, {"rules": "standard", "seed": "5", "sides": {"A": {"kind": "remote"}}}),
        (ONI, {"setup": "21", "seed": 1, "sides": {"B": {"kind": "remote"}}}),
    ],
)
def test_a_seed_from_the_client_is_refused_when_a_seat_is_remote(
    client: TestClient, url: str, body: dict[str, Any]
) -> None:
    msg = check_error(client.post(url, json=body), 400, "SeedRefused")
    assert "server" in msg
    assert client.get("/api").json()["games"] == 0
    del body["seed"]
    s, _ = created(client.post(url, json=body))
    assert s["seed"] is None and s["seed_text"] is None


@pytest.mark.parametrize("url", [LUDO, ONI])
def test_a_rematch_seed_is_refused_when_a_seat_is_remote(client: TestClient, url: str) -> None:
    if url == LUDO:
        body: dict[str, Any] = {"players": "AB", "seats": {"B": "remote"}}
    else:
        body = {"setup": "random", "max_plies": 2, "sides": {"B": {"kind": "remote"}}}
    s, keys = created(client.post(url, json=body))
    key = {"A": keys["host_key"], "B": keys["seat_keys"]["B"]}
    while s["to_act"] is not None:
        if url == LUDO:
            s = ludo_step(client, s, key[s["current_player"]])
        else:
            action = {"action": s["legal_moves"][0]["text"]}
            r = client.post(f"{url}/{s['id']}/action", json=action, headers=headers(key[s["turn"]]))
            s = r.json()
    r = client.post(f"{url}/{s['id']}/rematch", json={"seed": 9}, headers=headers(key["B"]))
    check_error(r, 400, "SeedRefused")
    assert client.get(f"{url}/{s['id']}").json()["rematch"] is None
    new = client.post(f"{url}/{s['id']}/rematch", headers=headers(key["B"])).json()
    assert new["seed"] is None and new["rematch_of"] == s["id"]


def test_one_screen_games_show_their_seed_and_no_seed_means_a_fresh_one(
    client: TestClient,
) -> None:
    """As before, a one-screen game shows its seed and its die; without a seed the server
    picks a fresh one (each game its own) and shows it; the same for Onitama's deals."""
    s, _ = created(client.post(LUDO, json={"seed": "6602659055284519226"}))
    assert (s["seed"], s["seed_text"]) == (6602659055284519226, "6602659055284519226")
    assert s["position"].endswith(f" {6602659055284519226:016x}")
    assert s["dice_commitment"] == hashlib.sha256(b"6602659055284519226").hexdigest()
    fresh = [created(client.post(LUDO, json={}))[0] for _ in range(2)]
    for f in fresh:
        assert f["seed_text"] == str(f["seed"]) and f["position"].endswith(f" {f['seed']:016x}")
    assert fresh[0]["seed"] != fresh[1]["seed"]
    # a position shows its die (the one given), no seed
    p, _ = created(client.post(LUDO, json={"position": NEAR_THE_END}))
    assert p["position"] == NEAR_THE_END and p["seed"] is None and p["dice_commitment"] is None
    assert client.get(f"{LUDO}/{p['id']}/save?format=notation").text == NEAR_THE_END + "\n"
    # Onitama: random cards and standard deals from a fresh seed, shown; setups have none
    for body in ({"setup": "random"}, {"rules": "standard", "card_set": "sensei"}):
        deals = [created(client.post(ONI, json=body))[0] for _ in range(2)]
        for d in deals:
            assert d["seed_text"] == str(d["seed"])
            assert d["seed_commitment"] == hashlib.sha256(d["seed_text"].encode()).hexdigest()
            if "rules" in body:
                dealt = Onitama.standard(seed=d["seed"], card_set="sensei")
            else:
                dealt = Onitama.dealt(d["seed"])
            assert d["position"] == dealt.to_notation()
        assert deals[0]["seed"] != deals[1]["seed"]
    w, _ = created(client.post(ONI, json={"setup": "21"}))
    assert (w["seed"], w["seed_text"], w["seed_commitment"]) == (None, None, None)


def test_an_online_game_from_a_position_or_a_saved_game_rolls_the_servers_die(
    client: TestClient, tmp_path: Path
) -> None:
    """The die state a position (or saved game) brings is the creator's choice: online, the
    game plays on with a die of the server's instead (hidden, committed to, shown at the
    end); a saved game's rolls become given values, which `ludo verify` names."""
    s, keys = created(client.post(LUDO, json={"position": NEAR_THE_END, "seats": {"B": "remote"}}))
    assert s["position"] == NEAR_THE_END.rsplit(" ", 1)[0] + " -" and s["seed"] is None
    key = {"A": keys["host_key"], "B": keys["seat_keys"]["B"]}
    while s["to_act"] is not None:
        s = ludo_step(client, s, key[s["current_player"]])
    start = json.loads(client.get(f"{LUDO}/{s['id']}/save").text)["start"]
    assert start.split()[-1] == f"{s['seed']:016x}" != NEAR_THE_END.split()[-1]
    verdict = verify_save(client.get(f"{LUDO}/{s['id']}/save").text)
    assert verdict.verified and "given" not in verdict.message, verdict
    # a saved game of 12 events continued online: its rolls are given, the rest the die's
    g = Game("cs162", "AB", 4)
    while len(g.history) < 12:
        if g.phase == "roll":
            g.roll()
        else:
            g.play(g.legal_moves[0])
    s, keys = created(client.post(LUDO, json={"json": g.to_json(), "seats": {"A": "remote"}}))
    # online, a loaded roll is not taken back either (a loaded move may be)
    assert s["can_undo"] is (g.history[-1]["kind"] == "move")
    assert [e["die"] for e in s["history"] if e["kind"] == "roll"] == [False] * sum(
        e["kind"] == "roll" for e in g.history
    )
    key = {"A": keys["seat_keys"]["A"], "B": keys["host_key"]}
    while s["to_act"] is not None:
        s = ludo_step(client, s, key[s["current_player"]])
    saved = client.get(f"{LUDO}/{s['id']}/save").text
    verdict = verify_save(saved)
    rolls = sum(e["kind"] == "roll" for e in g.history)
    assert verdict.verified and f"the {rolls} rolls before them were given" in verdict.message
    # `ludo verify`: a changed roll, seed or commitment is not verified (1); a one-screen
    # game's save, a file that is not JSON or not there cannot be verified (2)
    data = json.loads(saved)
    die_roll = next(w for w in data["moves"].split() if not w.startswith("=") and w.isdigit())
    at = data["moves"].index(f" {die_roll} ")
    changed = data["moves"][:at] + f" {7 - int(die_roll)} " + data["moves"][at + 3 :]
    other_seed = str((int(data["seed_text"]) + 1) % 2**64)
    cases = [
        ({**data, "moves": changed}, 1),
        ({**data, "seed_text": other_seed}, 1),
        ({**data, "dice_commitment": hashlib.sha256(other_seed.encode()).hexdigest()}, 1),
        ({**data, "moves": data["moves"] + " =3"}, 1),
        (json.loads(g.to_json()), 2),
    ]
    for k, (content, code) in enumerate(cases):
        path = tmp_path / f"case{k}.json"
        path.write_text(json.dumps(content), encoding="utf-8")
        r = verify_cli(path)
        assert r.returncode == code, (k, r)
        assert "Traceback" not in r.stderr and len((r.stdout + r.stderr).splitlines()) == 1
        assert ("not verified" in r.stdout) if code == 1 else ("cannot verify" in r.stderr)
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    for path in (tmp_path / "junk.json", tmp_path / "missing.json"):
        r = verify_cli(path)
        assert r.returncode == 2 and "cannot verify" in r.stderr and r.stdout == "", r


def test_an_online_onitama_deal_is_hidden_then_verified(client: TestClient) -> None:
    """Random cards and a standard deal online: the seed hidden while it is played, shown at
    the end with its commitment, and the save holds what `verify_save` needs to check the
    deal (a changed seed is caught)."""
    for body in ({"setup": "random", "max_plies": 4}, {"rules": "standard", "max_plies": 4}):
        sides = {"A": {"kind": "remote"}, "B": {"kind": "remote"}}
        s, keys = created(client.post(ONI, json={**body, "sides": sides}))
        assert s["seed"] is None and s["seed_text"] is None and s["seed_commitment"]
        r = client.get(f"{ONI}/{s['id']}/save")
        assert "seed_text" not in r.text and "seed_commitment" not in r.text
        while s["to_act"] is not None:
            action = {"action": s["legal_moves"][0]["text"]}
            key = headers(keys["seat_keys"][s["turn"]])
            s = client.post(f"{ONI}/{s['id']}/action", json=action, headers=key).json()
        assert hashlib.sha256(s["seed_text"].encode()).hexdigest() == s["seed_commitment"]
        saved = client.get(f"{ONI}/{s['id']}/save").text
        verdict = verify_save(saved)
        assert verdict.verified and "deals the start's cards" in verdict.message, verdict
        # another seed (one dealing other cards), committed to: not the deal
        data = json.loads(saved)
        start = cards_of(Onitama.from_notation(data["start"]))
        standard = "rules" in body
        other = next(
            str(x)
            for x in range(100)
            if cards_of(Onitama.standard(seed=x) if standard else Onitama.dealt(x)) != start
        )
        bad = {**data, "seed_text": other}
        bad["seed_commitment"] = hashlib.sha256(other.encode()).hexdigest()
        verdict = verify_save(json.dumps(bad))
        assert not verdict.verified and "does not deal" in verdict.message, verdict
