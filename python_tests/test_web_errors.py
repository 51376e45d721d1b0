"""Refusals and start-up of the web app as a user meets them: deeply nested JSON, unknown
`?fields=` names, 64-bit seeds, huge inputs quoted in messages, the addresses printed for
`--host 0.0.0.0`, and Ctrl-C while an AI thinks. Real `ludo serve` processes and real HTTP
where the command itself is what is tested."""

from __future__ import annotations

import ipaddress
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402
from test_web_api import check_error  # noqa: E402

from LudoGame import Game  # noqa: E402
from LudoGame.web import create_app  # noqa: E402

LUDO = "/api/ludo/games"
ONI = "/api/onitama/games"
NESTED = "[" * 50_000 + "]" * 50_000
BIG_SEED = 6602659055284519226


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(max_games=50))


def serve(*args: str) -> tuple[subprocess.Popen[str], list[str]]:
    """The real `ludo serve` (games in memory) on a free port; its start-up lines, up to
    where it says where games are stored."""
    cmd = [sys.executable, "-m", "LudoGame", "serve", "--port", "0", "--store", "memory", *args]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert p.stdout is not None
    lines = []
    while not lines or not lines[-1].startswith("Games are stored"):
        line = p.stdout.readline()
        assert line, p.stderr.read() if p.stderr else ""
        lines.append(line.rstrip("\n"))
    return p, lines


def answer(url: str, body: Any = None, timeout: float = 30) -> tuple[int, Any]:
    """The status and JSON of a GET (or, with `body`, a POST) to `url`."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def ctrl_c(p: subprocess.Popen[str]) -> tuple[float, str]:
    """Ctrl-C the server; the seconds it took to exit, and its stderr."""
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    return time.monotonic() - t, err


# ---- deeply nested JSON --------------------------------------------------------------------


@pytest.mark.parametrize("route", [LUDO, ONI, "/api/replays", f"{LUDO}/G/move"])
def test_deeply_nested_json_is_a_400_never_a_500(client: TestClient, route: str) -> None:
    gid = client.post(LUDO, json={}).json()["id"]
    url = route.replace("/G/", f"/{gid}/")
    for body in (NESTED, '{"text": ' + NESTED + "}"):
        r = client.post(url, content=body, headers={"content-type": "application/json"})
        assert "JSON" in check_error(r, 400)


def test_a_replayed_text_of_deeply_nested_json_is_a_400(client: TestClient) -> None:
    msg = check_error(client.post("/api/replays", json={"text": NESTED}), 400)
    assert "nests too deep" in msg


def test_ludo_serve_replay_of_deeply_nested_json_is_one_line_and_exit_2(tmp_path: Path) -> None:
    nested = tmp_path / "nested.json"
    nested.write_text(NESTED)
    r = subprocess.run(
        [sys.executable, "-m", "LudoGame", "serve", "--replay", str(nested), "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (r.returncode, r.stdout) == (2, ""), r.stderr[-500:]
    assert r.stderr == f"ludo: cannot replay {nested}: the file's JSON nests too deep\n"


# ---- bodies of other types, trailing slashes, strict fields --------------------------------


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_a_body_that_is_not_json_is_400_whatever_its_type(
    client: TestClient, content_type: str | None
) -> None:
    """Not JSON: 400, as with a JSON type; JSON sent as another type (or none): 415, which
    says how to send it. Neither changes anything."""
    gid = client.post(LUDO, json={"players": "AB", "seed": 1}).json()["id"]
    headers = {} if content_type is None else {"content-type": content_type}
    for url in (LUDO, f"{LUDO}/{gid}/move", f"{LUDO}/{gid}/roll", ONI, "/api/replays"):
        for junk in (b"{junk", b"players=AB", "\u00e9\u00e9".encode("latin-1"), NESTED.encode()):
            msg = check_error(client.post(url, content=junk, headers=headers), 400, "BadRequest")
            assert "JSON" in msg
        r = client.post(url, content=b'{"version": 0}', headers=headers)
        msg = check_error(r, 415, "UnsupportedMediaType")
        assert msg.endswith("send it as application/json"), msg
        assert ("no Content-Type" in msg) == (content_type is None)
    assert client.get(f"{LUDO}/{gid}").json()["version"] == 0
    assert client.get("/api").json()["games"] == 1
    # the same requests sent as JSON are read (and an empty body needs no type)
    as_json = {"content-type": "application/json; charset=utf-8"}
    assert client.post(f"{LUDO}/{gid}/roll", content=b'{"version": 0}', headers=as_json).is_success
    assert client.post(f"{LUDO}/{gid}/undo", content=b"", headers=headers).is_success


def test_a_trailing_slash_is_404_in_the_api_never_a_redirect(client: TestClient) -> None:
    gid = client.post(LUDO, json={}).json()["id"]
    for method, url in (
        ("DELETE", f"{LUDO}/{gid}/"),
        ("GET", f"{LUDO}/{gid}/"),
        ("POST", f"{LUDO}/"),
        ("GET", f"{ONI}/"),
        ("GET", "/api/onitama/setups/"),
    ):
        r = client.request(method, url, follow_redirects=False)
        assert url in check_error(r, 404, "NotFound")
    assert client.get(f"{LUDO}/{gid}").status_code == 200  # the DELETE deleted nothing
    # a page's address with a slash is the page itself
    for page in ("/ludo/", "/onitama/", "/replay/"):
        r = client.get(page, follow_redirects=False)
        assert (r.status_code, r.headers["content-type"][:9]) == (200, "text/html")


@pytest.mark.parametrize("setup", [21, 21.0, True, ["21"], {"id": "21"}])
def test_an_onitama_setup_is_a_string_only(client: TestClient, setup: Any) -> None:
    msg = check_error(client.post(ONI, json={"setup": setup}), 422, "ValidationError")
    assert msg.startswith("bad request: setup:")
    assert client.get("/api").json()["games"] == 0
    assert client.post(ONI, json={"setup": "21"}).json()["setup"] == "case21"


# ---- ?fields= ------------------------------------------------------------------------------


def test_unknown_fields_are_refused_naming_each(client: TestClient) -> None:
    gid = client.post(LUDO, json={}).json()["id"]
    for url in (f"{LUDO}/{gid}?fields=svg,bogus,worse", f"{LUDO}/{gid}/roll?fields=bogus,worse"):
        r = client.post(url) if "roll" in url else client.get(url)
        msg = check_error(r, 400, "BadRequest")
        assert "'bogus'" in msg and "'worse'" in msg and "history, svg" in msg
    assert client.get(f"{LUDO}/{gid}").json()["version"] == 0  # the roll changed nothing
    for ok in ("", "svg", "history,svg"):
        assert client.get(f"{LUDO}/{gid}?fields={ok}").status_code == 200


# ---- 64-bit seeds ----------------------------------------------------------------------------


def test_a_64_bit_seed_travels_as_text_both_ways(client: TestClient) -> None:
    for seed in (BIG_SEED, str(BIG_SEED), float(2**40)):
        r = client.post(LUDO, json={"seed": seed})
        assert r.status_code == 201, r.text
        s = r.json()
        want = int(seed)
        assert (s["seed"], s["seed_text"]) == (want, str(want))
        # the text is what a browser reads without rounding (JSON numbers are doubles there)
        assert json.loads(r.text, parse_int=float)["seed_text"] == str(want)
    same = client.post(LUDO, json={"seed": str(BIG_SEED)}).json()
    assert same["position"] == Game(seed=BIG_SEED).to_notation()
    assert client.post(LUDO, json={"position": same["position"]}).json()["seed_text"] is None
    dealt = client.post(ONI, json={"setup": "random", "seed": str(BIG_SEED)})
    assert dealt.status_code == 201
    by_number = client.post(ONI, json={"setup": "random", "seed": BIG_SEED}).json()
    assert dealt.json()["cards"] == by_number["cards"]


@pytest.mark.parametrize(
    "seed,status",
    [("18446744073709551616", 400), (2**64, 400), ("-1", 422), ("12a", 422), (True, 422)],
)
def test_a_seed_out_of_range_or_not_a_number_is_refused(
    client: TestClient, seed: Any, status: int
) -> None:
    check_error(client.post(LUDO, json={"seed": seed}), status)
    assert client.get("/api").json()["games"] == 0


# ---- huge inputs are quoted by a short prefix ------------------------------------------------

HUGE = "x" * 100_000


@pytest.mark.parametrize(
    "route,body",
    [
        (LUDO, {"rules": HUGE}),
        (LUDO, {"position": HUGE}),
        (LUDO, {"json": HUGE}),
        (LUDO, {"seats": {HUGE: "human"}}),
        (LUDO, {"seats": {"A": HUGE}}),
        (LUDO, {"options": {HUGE: 1}}),
        (LUDO, {"options": {"overshoot": HUGE}}),
        (LUDO, {"players": [HUGE]}),
        (LUDO, {HUGE: 1}),
        (ONI, {"setup": HUGE}),
        (ONI, {"position": HUGE}),
        (ONI, {"sides": {"A": {"kind": "ai", "level": HUGE}}}),
        (ONI, {"sides": {HUGE: {"kind": "ai"}}}),
        ("/api/replays", {"text": HUGE}),
        ("/api/replays", {"text": json.dumps({"format": "ludogame-game/1", "start": HUGE})}),
    ],
)
def test_a_huge_input_is_quoted_by_a_short_prefix(
    client: TestClient, route: str, body: dict[str, Any]
) -> None:
    r = client.post(route, json=body)
    assert 400 <= r.status_code < 500
    msg = check_error(r, r.status_code)
    assert "x" * 101 not in msg and len(msg) < 1000, msg[:300]


def test_a_huge_move_or_action_is_quoted_by_a_short_prefix(client: TestClient) -> None:
    oid = client.post(ONI, json={}).json()["id"]
    gid = client.post(LUDO, json={"seed": 1}).json()["id"]
    client.post(f"{LUDO}/{gid}/roll")
    for r in (
        client.post(f"{ONI}/{oid}/action", json={"action": HUGE}),
        client.post(f"{LUDO}/{gid}/move", json={"move": HUGE}),
        client.get(f"{LUDO}/{'y' * 5000}"),
    ):
        msg = check_error(r, r.status_code)
        assert "x" * 101 not in msg and "y" * 101 not in msg and len(msg) < 1000


def test_ludo_serve_replay_of_a_file_that_is_no_game_quotes_a_short_prefix(
    tmp_path: Path,
) -> None:
    big = tmp_path / "big.txt"
    big.write_text("root:x:0:0:root:/root:/bin/bash\n" + "z" * 2_400_000)
    for path in (Path("/etc/passwd"), big):
        if not path.exists():
            continue
        r = subprocess.run(
            [sys.executable, "-m", "LudoGame", "serve", "--replay", str(path), "--port", "0"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (r.returncode, r.stdout) == (2, "")
        assert r.stderr.startswith(f"ludo: cannot replay {path}: ") and r.stderr.count("\n") == 1
        assert len(r.stderr) < 1000 and "z" * 100 not in r.stderr, r.stderr[:300]
        lines = path.read_text().splitlines()
        assert sum(line in r.stderr for line in lines[1:] if len(line) > 8) == 0


# ---- the addresses printed -------------------------------------------------------------------


def test_host_0000_prints_addresses_another_device_can_open() -> None:
    p, lines = serve("--host", "0.0.0.0")
    try:
        assert "0.0.0.0" not in "\n".join(lines)
        urls = [line.split("at ", 1)[1] for line in lines if " at http://" in line]
        assert urls[-1].startswith("http://localhost:"), lines
        port = int(urls[0].rsplit(":", 1)[1].strip("/"))
        for url in urls:
            host = url.removeprefix("http://").rsplit(":", 1)[0]
            if host != "localhost":
                ip = ipaddress.ip_address(host)
                assert not (ip.is_loopback or ip.is_unspecified or ip.is_link_local), host
                with socket.socket() as own:  # an address of this machine
                    own.bind((host, 0))
            status, setups = answer(f"{url}api/onitama/setups")
            assert status == 200 and setups["setups"]
            assert url.endswith(f":{port}/")
    finally:
        _, err = ctrl_c(p)
    assert p.returncode == 0 and "Traceback" not in err


def test_a_named_host_is_printed_as_it_is() -> None:
    p, lines = serve("--host", "127.0.0.1")
    try:
        assert lines[0].startswith("LudoGame is serving at http://127.0.0.1:")
        assert not any("localhost" in line for line in lines)
    finally:
        ctrl_c(p)


# ---- Ctrl-C ----------------------------------------------------------------------------------


def test_ctrl_c_while_an_ai_thinks_answers_503_and_stops_cleanly() -> None:
    p, lines = serve()
    base = lines[0].split()[-1]
    try:
        sides = {"A": {"kind": "ai", "level": 2, "time": 10}}
        status, state = answer(f"{base}api/onitama/games", {"setup": "21", "sides": sides})
        assert status == 201
        gid = state["id"]
        answers: list[Any] = []

        def ask() -> None:
            try:
                answers.append(answer(f"{base}api/onitama/games/{gid}/ai", {}))
            except OSError as e:  # the connection closed: also clean
                answers.append(e)

        thinking = threading.Thread(target=ask)
        thinking.start()
        # a live event stream open too: it must end, not hold the server
        events = urllib.request.urlopen(f"{base}api/onitama/games/{gid}/events", timeout=30)
        assert events.readline().startswith(b"retry:")
        time.sleep(1.0)  # the search has started
    finally:
        seconds, err = ctrl_c(p)
    thinking.join(timeout=30)
    events.close()
    assert p.returncode == 0, err
    assert "Traceback" not in err and "ERROR" not in err, err[:2000]
    assert seconds < 5, f"the server took {seconds:.1f} s to stop"
    assert len(answers) == 1
    if not isinstance(answers[0], OSError):
        status, body = answers[0]
        assert status == 503 and body["error"]["type"] == "ServerStopping", body
