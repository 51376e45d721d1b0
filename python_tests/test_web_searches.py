"""A built-in Onitama AI's search in the web app ends at once when its game is deleted
(its stop flag, `SearchStop`): the ply is answered 409 `AIStopped` and nothing is played,
where the search would otherwise have thought for its whole 10 s."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402

from LudoGame.web import create_app  # noqa: E402

ONI = "/api/onitama/games"
#: How long the test waits for what should happen at once (never reached when it works).
PATIENCE = 30.0


def test_deleting_a_game_stops_its_builtin_ais_search() -> None:
    app = create_app()
    with TestClient(app) as client:
        r = client.post(
            ONI,
            json={
                "setup": "21",
                "sides": {"A": {"kind": "ai", "level": 2, "time": 10}, "B": {"kind": "remote"}},
            },
        )
        s = r.json()
        host = {"X-Seat-Key": s["host_key"]}
        answers: list[Any] = []
        ply = threading.Thread(
            target=lambda: answers.append(client.post(f"{ONI}/{s['id']}/ai", headers=host))
        )
        ply.start()
        deadline = time.monotonic() + PATIENCE
        while app.state.games.thinking == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        # without the host's key the game stays, and so does its search
        assert client.delete(f"{ONI}/{s['id']}").status_code == 403
        assert ply.is_alive()
        assert client.delete(f"{ONI}/{s['id']}", headers=host).status_code == 204
        ply.join(PATIENCE)
        assert answers[0].status_code == 409, answers[0].text
        assert answers[0].json()["error"]["type"] == "AIStopped"
        assert client.get(f"{ONI}/{s['id']}").status_code == 404
