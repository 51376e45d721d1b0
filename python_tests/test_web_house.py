"""How the web layer is built (docs/architecture.md, the web app): an app's configuration is
its own (two apps in one process do not share their MATLAB AI folders or Octave
processes), and what fails in the background (a store write of the server's bots, a bot
step) is logged, never dropped."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from LudoGame.web import create_app  # noqa: E402
from LudoGame.web.database import MemoryStorage, Row, StorageError  # noqa: E402
from LudoGame.web.ludo import LudoSession  # noqa: E402
from test_web_online import LUDO, check_error, created  # noqa: E402

#: A game of two bots that the server plays by itself, as fast as it can.
BOTS = {"players": "AB", "seats": {"A": "random", "B": "random"}, "pace": 0, "seed": 5}


def wait_until(check: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_two_apps_in_one_process_each_see_their_own_ai_folder(tmp_path: Path) -> None:
    """Each app lists (and plays) the MATLAB AIs of its own folder, also once another app
    was made with another folder, and has Octave processes of its own."""
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, name in ((one, "AIOne.m"), (two, "AITwo.m")):
        folder.mkdir()
        (folder / name).write_text("function out = f()\nend\n")
    first = create_app(ai_dir=one)
    second = create_app(ai_dir=two, octave_workers=2)
    bare = create_app()
    with TestClient(first) as a, TestClient(second) as b, TestClient(bare) as c:
        assert a.get("/api/onitama/ais").json() == {"ais": ["AIOne.m"]}
        assert b.get("/api/onitama/ais").json() == {"ais": ["AITwo.m"]}
        assert c.get("/api/onitama/ais").json() == {"ais": []}
        # a game of one app may not name the other's AI (400), its own is accepted
        side = {"kind": "ai", "level": "AITwo.m"}
        refused = a.post("/api/onitama/games", json={"sides": {"B": side}})
        assert "AITwo.m" in check_error(refused, 400, "InvalidAIError")
        assert b.post("/api/onitama/games", json={"sides": {"B": side}}).status_code == 201
    pools = [app.state.config.octave for app in (first, second, bare)]
    assert len({id(p) for p in pools}) == 3 and pools[1].size == 2


class FailingWrites(MemoryStorage):
    """A store in memory whose updates fail (as a full disk's), counting them."""

    def __init__(self) -> None:
        super().__init__()
        self.refused = 0

    def update(self, row: Row, previous: int) -> bool:
        self.refused += 1
        raise StorageError("the disk is full")


def test_a_failing_background_write_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    """The server's bots step a game nobody acts in; when the store refuses the step's
    write, the step is undone (the game stays at its stored version) and a warning naming
    the game and the store's error is logged."""
    caplog.set_level(logging.WARNING, logger="LudoGame.web")
    store = FailingWrites()
    with TestClient(create_app(store=store)) as client:
        s, _ = created(client.post(LUDO, json=BOTS))
        wait_until(lambda: store.refused >= 2, "the bots did not try to step")
        wait_until(lambda: _records(caplog, "LudoGame.web.bots"), "nothing was logged")
        assert client.get(f"{LUDO}/{s['id']}").json()["version"] == 0
        record = _records(caplog, "LudoGame.web.bots")[0]
        assert record.levelno == logging.WARNING
        text = record.getMessage()
        assert s["id"][:12] in text and "StoreUnavailable" in text and "disk is full" in text
        client.delete(f"{LUDO}/{s['id']}")


def test_a_failing_bot_is_logged(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot step that fails with an error of the server's own is logged with its
    traceback (and that game's bots stop): no error of a background task is dropped."""

    async def broken(self: LudoSession, think: Any, bot: str | None = None) -> None:
        raise RuntimeError("a bug in a bot step")

    monkeypatch.setattr(LudoSession, "machine_step", broken)
    caplog.set_level(logging.WARNING, logger="LudoGame.web")
    with TestClient(create_app()) as client:
        s, _ = created(client.post(LUDO, json=BOTS))
        wait_until(lambda: _records(caplog, "LudoGame.web.bots"), "nothing was logged")
        record = _records(caplog, "LudoGame.web.bots")[0]
        assert record.levelno == logging.ERROR and s["id"][:12] in record.getMessage()
        assert record.exc_info is not None and record.exc_info[0] is RuntimeError
        assert client.get(f"{LUDO}/{s['id']}").json()["version"] == 0


def _records(caplog: pytest.LogCaptureFixture, logger: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == logger]
