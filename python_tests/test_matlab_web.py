"""`ludo serve --ai-dir DIR`: the folder's MATLAB AI files are offered in the Onitama AI
choice and play web games (sandboxed, through Octave, in the server's bounded pool of
processes): a failing AI loses its game with the referee's reason, and a finished,
deleted or idle game leaves no Octave process behind (counted in /proc). Skipped without
Octave and bubblewrap (a failure in CI), and without the web extra."""

from __future__ import annotations

import json
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

import matlab_support as ms  # noqa: E402
from LudoGame import sandbox  # noqa: E402
from LudoGame._core import ONITAMA_TEXTS  # noqa: E402
from LudoGame.cli import main as ludo_main  # noqa: E402
from LudoGame.onitama import Onitama  # noqa: E402
from LudoGame.web import create_app  # noqa: E402

ONI = "/api/onitama/games"
HEADER = (
    "function [cardPicked, moveFrom, moveTo, wDir] = {name}(currentPlayer, board, "
    "cardA1, cardA2, cardB1, cardB2, sideCard, turn)\n"
)
#: Our failing test AIs: an error, an endless loop, an invalid answer (card 7).
FAILING = {
    "AIErr.m": "error('no move for %s', currentPlayer);",
    "AILoop.m": "while true\nend",
    "AISeven.m": "cardPicked = 7; moveFrom = 'e1'; moveTo = 'd1'; wDir = 's';",
    "AILong.m": "error(repmat('x', 1, 100000));",
}
#: How long a test waits for what should happen at once (never reached when it works).
PATIENCE = 30.0


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    ms.require()
    ais = tmp_path / "ais"
    ais.mkdir()
    for name in ("AIWall.m", "AIBad.m"):
        shutil.copyfile(ms.TEST_AIS / name, ais / name)
    for name, body in FAILING.items():
        text = HEADER.format(name=name[:-2]) + body + "\nend\n"
        (ais / name).write_text(text, encoding="utf-8")
    (ais / "notes.txt").write_text("not an AI", encoding="utf-8")
    (ais / "bad-name.m").write_text("x", encoding="utf-8")
    (ais / "AILink.m").symlink_to(ais / "AIWall.m")  # a link is neither offered nor played
    with open(ais / "AIHuge.m", "wb") as f:  # nor a file over sandbox.MAX_SOURCE_BYTES
        f.truncate(sandbox.MAX_SOURCE_BYTES + 1)
    return ais


def until(check: Callable[[], bool]) -> None:
    """Wait until `check()` holds (a failure after PATIENCE seconds)."""
    deadline = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)


def new_game(client: TestClient, a: Any, b: Any, **body: Any) -> dict[str, Any]:
    """A game on setup 21: A and B each a side (an AI's level, or a side's body)."""
    sides = {
        p: s if isinstance(s, dict) else {"kind": "ai", "level": s, "time": 5}
        for p, s in (("A", a), ("B", b))
    }
    r = client.post(ONI, json={"setup": "21", "sides": sides, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_the_folders_ais_are_offered_and_play(folder: Path) -> None:
    with TestClient(create_app(max_games=10, ai_dir=folder)) as client:
        assert client.get("/api/onitama/ais").json() == {
            "ais": ["AIBad.m", "AIErr.m", "AILong.m", "AILoop.m", "AISeven.m", "AIWall.m"]
        }
        s = new_game(client, "AIWall.m", {"kind": "ai", "level": 1, "time": 0.1})
        mirror = Onitama.setup(21)
        while s["to_act"] is not None:
            r = client.post(f"{ONI}/{s['id']}/ai", json={"version": s["version"]})
            assert r.status_code == 200, r.text
            s = r.json()
            mirror.play(s["history"][-1])
            # A's process lives through the game, and not past its end
            assert len(ms.octave_processes()) == (0 if mirror.is_over() else 1)
        assert s["status"] == mirror.status and mirror.is_over()
        assert s["failed"] is None and s["detail"] is None


def test_an_ai_outside_the_folder_is_refused(folder: Path) -> None:
    client = TestClient(create_app(max_games=10, ai_dir=folder))
    for level in ("../AIWall.m", "/etc/AIWall.m", "AINone.m", "bad-name.m", "AILink.m", "AIHuge.m"):
        r = client.post(ONI, json={"sides": {"A": {"kind": "ai", "level": level}}})
        assert r.status_code == 400, (level, r.text)


@pytest.mark.parametrize(
    ("ai", "time", "reason", "words", "why", "detail"),
    [
        (
            "AIErr.m",
            5,
            "programming_error",
            "ai_error",
            "raised an error",
            "Error in function AIErr() at line 2.\n\nError Message:\nno move for A",
        ),
        (
            "AILoop.m",
            0.5,
            "timeout",
            "ai_error",
            "gave no answer in time",
            "Time limit exceeded: the AI gave no answer within 0.5 s",
        ),
        ("AISeven.m", 5, "invalid_move", "ai_invalid", "gave an invalid answer", "card"),
        # a long message is cut short (the state and the store keep 600 characters of it)
        ("AILong.m", 5, "programming_error", "ai_error", "raised an error", "xxx... (2"),
    ],
)
def test_a_failing_matlab_ai_loses_the_game_with_its_reason(
    folder: Path, tmp_path: Path, ai: str, time: float, reason: str, words: str, why: str,
    detail: str,
) -> None:  # fmt: skip
    store = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(store=store, ai_dir=folder)) as client:
        s = new_game(client, {"kind": "ai", "level": ai, "time": time}, "AIWall.m")
        r = client.post(f"{ONI}/{s['id']}/ai", json={"version": s["version"]})
        assert r.status_code == 200, r.text
        over = r.json()
        assert ms.octave_processes() == []  # A's process is closed with the game
        again = client.post(f"{ONI}/{s['id']}/ai", json={})
        assert again.status_code == 409 and again.json()["error"]["type"] == "GameOverError"
        assert why in again.json()["error"]["message"]
    assert over["version"] == s["version"] + 1 and over["history"] == []
    assert (over["to_act"], over["turn"], over["legal_moves"]) == (None, None, [])
    assert (over["winner"], over["failed"], over["reason"]) == ("B", "A", reason)
    assert detail in over["detail"] and len(over["detail"]) < 700
    assert over["message"] == ONITAMA_TEXTS[words].format(winner="B", loser="A")
    assert over["status"] == f"Player B won: player A's AI {why}."
    # stored as it was answered: another server on the store reads the same
    with TestClient(create_app(store=store, ai_dir=folder)) as client:
        assert client.get(f"{ONI}/{s['id']}").json() == over


def test_an_undo_takes_the_failure_back_with_the_persons_ply(folder: Path) -> None:
    with TestClient(create_app(ai_dir=folder)) as client:
        s = new_game(client, {"kind": "human"}, "AIErr.m")
        r = client.post(f"{ONI}/{s['id']}/action", json={"action": s["legal_moves"][0]["text"]})
        r = client.post(f"{ONI}/{s['id']}/ai", json={})
        assert r.json()["failed"] == "B" and r.json()["winner"] == "A"
        back = client.post(f"{ONI}/{s['id']}/undo", json={}).json()
        assert (back["failed"], back["winner"], back["reason"], back["message"]) == (
            None,
            None,
            None,
            None,
        )
        assert back["to_act"] == "human" and back["history"] == [] and back["legal_moves"]


def test_an_undone_failure_gives_the_turn_back_with_its_timer(folder: Path) -> None:
    """Undoing an AI's failure gives the remote side its turn back with its turn timer
    running (the failure is taken back before the version goes up and the timer starts)."""
    with TestClient(create_app(ai_dir=folder)) as client:
        timer = {"seconds": 60, "bot": "1"}
        s = new_game(client, {"kind": "remote"}, "AIErr.m", turn_timer=timer)
        a, host = {"X-Seat-Key": s["seat_keys"]["A"]}, {"X-Seat-Key": s["host_key"]}
        ply = {"action": s["legal_moves"][0]["text"]}
        assert client.post(f"{ONI}/{s['id']}/action", json=ply, headers=a).status_code == 200
        over = client.post(f"{ONI}/{s['id']}/ai", json={}, headers=host).json()
        assert over["failed"] == "B" and over["turn_timer"]["deadline"] is None
        back = client.post(f"{ONI}/{s['id']}/undo", json={}, headers=a).json()
        assert back["failed"] is None and back["turn"] == "A" and back["history"] == []
        assert back["turn_timer"]["deadline"] is not None and back["turn_timer"]["left"] > 50


def test_deleting_a_game_stops_its_thinking_ai_and_frees_its_octave(folder: Path) -> None:
    with TestClient(create_app(ai_dir=folder)) as client:
        s = new_game(client, {"kind": "ai", "level": "AILoop.m", "time": 10}, {"kind": "remote"})
        host = {"X-Seat-Key": s["host_key"]}
        answers: list[Any] = []
        ply = threading.Thread(
            target=lambda: answers.append(client.post(f"{ONI}/{s['id']}/ai", headers=host))
        )
        ply.start()
        until(lambda: len(ms.octave_processes()) == 1)
        # without the host's key: refused, and the AI goes on thinking
        assert client.delete(f"{ONI}/{s['id']}").status_code == 403
        assert ply.is_alive() and len(ms.octave_processes()) == 1
        assert client.delete(f"{ONI}/{s['id']}", headers=host).status_code == 204
        ply.join(PATIENCE)
        # stopped, not timed out (which would lose the game in 10 s): its game is gone
        assert answers[0].status_code == 404, answers[0].text
        assert answers[0].json()["error"]["type"] == "NotFound"
        assert ms.octave_processes() == []
        assert client.get(f"{ONI}/{s['id']}").status_code == 404


def test_a_stopping_server_stops_a_thinking_ai(folder: Path) -> None:
    app = create_app(ai_dir=folder)
    with TestClient(app) as client:
        s = new_game(client, {"kind": "ai", "level": "AILoop.m", "time": 10}, "AIWall.m")
        answers: list[Any] = []
        ply = threading.Thread(
            target=lambda: answers.append(client.post(f"{ONI}/{s['id']}/ai", json={}))
        )
        ply.start()
        until(lambda: len(ms.octave_processes()) == 1)
        client.portal.call(app.state.games.stop)  # type: ignore[union-attr]
        ply.join(PATIENCE)
        assert answers[0].status_code == 503, answers[0].text
        assert ms.octave_processes() == []
        # nothing changed: the game waits for its AI (the server's restart plays it)
        assert client.get(f"{ONI}/{s['id']}").json()["version"] == s["version"]


def test_the_games_share_at_most_octave_workers_processes(folder: Path) -> None:
    with TestClient(create_app(ai_dir=folder, octave_workers=1)) as client:
        games = [new_game(client, "AIWall.m", "AIWall.m") for _ in range(2)]
        for _ in range(3):
            for g in games:
                r = client.post(f"{ONI}/{g['id']}/ai", json={})
                assert r.status_code == 200, r.text
                assert len(ms.octave_processes()) <= 1
        assert client.app.state.config.octave.most == 1  # type: ignore[attr-defined]
    assert ms.octave_processes() == []  # the server stopped: its processes too


def test_an_idle_process_is_closed(folder: Path) -> None:
    with TestClient(create_app(ai_dir=folder, octave_idle=0.2)) as client:
        s = new_game(client, "AIWall.m", {"kind": "human"})
        assert client.post(f"{ONI}/{s['id']}/ai", json={}).status_code == 200
        until(lambda: ms.octave_processes() == [])


def test_without_a_folder_there_are_no_matlab_ais() -> None:
    client = TestClient(create_app(max_games=10))
    assert client.get("/api/onitama/ais").json() == {"ais": []}


def test_serve_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ludo_main(["serve", "--ai-dir", str(tmp_path / "nope"), "--port", "0"]) == 2
    assert "not a folder" in capsys.readouterr().err


@pytest.mark.parametrize("workers", ["0", "-2", "x"])
def test_serve_refuses_a_bad_number_of_octave_workers(
    workers: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        ludo_main(["serve", "--octave-workers", workers, "--port", "0"])
    assert done.value.code == 2 and "--octave-workers" in capsys.readouterr().err


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _call(base: str, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
    """The real server's answer: (status, JSON or None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if key is not None:
        request.add_header("X-Seat-Key", key)
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as r:
            text = r.read()
            return r.status, json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.mark.slow
def test_a_real_server_shows_the_failure_and_leaves_no_octave_behind(folder: Path) -> None:
    import web_browser_support as wbs

    if wbs.missing_reason() is not None:
        wbs.require_browser()  # (a skip, or a failure in CI)
    with wbs.running_server("--ai-dir", str(folder), "--store", "memory") as base:
        # the server plays A's failing AI by itself (a pace): the game is lost at once
        sides = {
            "A": {"kind": "ai", "level": "AIErr.m", "time": 5},
            "B": {"kind": "ai", "level": "AIWall.m", "time": 5},
        }
        code, s = _call(base, "POST", ONI[1:], {"setup": "21", "sides": sides, "pace": 0})
        assert code == 201
        until(lambda: _call(base, "GET", f"{ONI[1:]}/{s['id']}")[1]["to_act"] is None)
        assert ms.octave_processes() == []  # (the server's, under this test's process)
        browser = wbs.start_browser()
        try:
            browser.get(f"{base}onitama?game={s['id']}")
            failure = wbs.wait_until(lambda: wbs.shown_element(browser, "failure"))
            assert "Error in function AIErr() at line 2." in failure.text
            assert "no move for A" in failure.text
            result = wbs.shown_element(browser, "result").text
            assert result == "B wins, as the other side's AI raised an error."
            assert wbs.page_errors(browser) == []
        finally:
            browser.quit()
        # a thinking AI whose game is deleted: stopped at once, its Octave gone
        sides = {"A": {"kind": "ai", "level": "AILoop.m", "time": 10}, "B": {"kind": "human"}}
        code, g = _call(base, "POST", ONI[1:], {"setup": "21", "sides": sides})
        answers: list[Any] = []
        ply = threading.Thread(
            target=lambda: answers.append(_call(base, "POST", f"{ONI[1:]}/{g['id']}/ai", {}))
        )
        ply.start()
        until(lambda: len(ms.octave_processes()) == 1)
        assert _call(base, "DELETE", f"{ONI[1:]}/{g['id']}")[0] == 204
        ply.join(PATIENCE)
        assert answers[0][0] == 404 and answers[0][1]["error"]["type"] == "NotFound"
        assert ms.octave_processes() == []
        # one left thinking when the server stops
        code, g = _call(base, "POST", ONI[1:], {"setup": "21", "sides": sides})
        ply = threading.Thread(target=_call, args=(base, "POST", f"{ONI[1:]}/{g['id']}/ai", {}))
        ply.start()
        until(lambda: len(ms.octave_processes()) == 1)
        thinking = ms.octave_processes()
    ply.join(PATIENCE)
    assert not any(_alive(p) for p in thinking)
