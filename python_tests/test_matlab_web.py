"""`ludo serve --ai-dir DIR`: the folder's MATLAB AI files are offered in the Onitama AI
choice and play web games (sandboxed, through Octave). Skipped without Octave and
bubblewrap (a failure in CI), and without the web extra."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

import matlab_support as ms  # noqa: E402
from LudoGame.cli import main as ludo_main  # noqa: E402
from LudoGame.onitama import Onitama  # noqa: E402
from LudoGame.web import create_app  # noqa: E402

ONI = "/api/onitama/games"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    ms.require()
    for name in ("AIWall.m", "AIBad.m"):
        shutil.copyfile(ms.TEST_AIS / name, tmp_path / name)
    (tmp_path / "notes.txt").write_text("not an AI", encoding="utf-8")
    (tmp_path / "bad-name.m").write_text("x", encoding="utf-8")
    return tmp_path


def test_the_folders_ais_are_offered_and_play(folder: Path) -> None:
    client = TestClient(create_app(max_games=10, ai_dir=folder))
    assert client.get("/api/onitama/ais").json() == {"ais": ["AIBad.m", "AIWall.m"]}
    r = client.post(
        ONI,
        json={
            "setup": "21",
            "sides": {
                "A": {"kind": "ai", "level": "AIWall.m", "time": 5},
                "B": {"kind": "ai", "level": 1, "time": 0.1},
            },
        },
    )
    assert r.status_code == 201, r.text
    s: dict[str, Any] = r.json()
    mirror = Onitama.setup(21)
    while s["to_act"] is not None:
        r = client.post(f"{ONI}/{s['id']}/ai", json={"version": s["version"]})
        assert r.status_code == 200, r.text
        s = r.json()
        mirror.play(s["history"][-1])
    assert s["status"] == mirror.status and mirror.is_over()


def test_an_ai_outside_the_folder_is_refused_and_a_failing_ai_is_reported(folder: Path) -> None:
    client = TestClient(create_app(max_games=10, ai_dir=folder))
    for level in ("../AIWall.m", "/etc/AIWall.m", "AINone.m", "bad-name.m"):
        r = client.post(ONI, json={"sides": {"A": {"kind": "ai", "level": level}}})
        assert r.status_code == 400, (level, r.text)
    r = client.post(
        ONI,
        json={
            "setup": "21",
            "sides": {
                "A": {"kind": "ai", "level": "AIBad.m"},
                "B": {"kind": "ai", "level": "AIBad.m"},
            },
        },
    )
    s = r.json()
    failed = None
    for _ in range(20):
        r = client.post(f"{ONI}/{s['id']}/ai", json={"version": s["version"]})
        if r.status_code != 200:
            failed = r.json()["error"]["message"]
            break
        s = r.json()
    assert failed is not None and "the MATLAB AI AIBad.m failed" in failed


def test_without_a_folder_there_are_no_matlab_ais() -> None:
    client = TestClient(create_app(max_games=10))
    assert client.get("/api/onitama/ais").json() == {"ais": []}


def test_serve_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ludo_main(["serve", "--ai-dir", str(tmp_path / "nope"), "--port", "0"]) == 2
    assert "not a folder" in capsys.readouterr().err
