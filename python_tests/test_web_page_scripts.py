"""The page scripts as files: every script the pages import is served under /static (the
wheel ships the package's folder whole, static/ with it), both games' views take what they
share from game-page.js, and no run of code is written out in both views again.
(That the pages load game-page.js in a real browser: test_web_pages_browser.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient  # noqa: E402
from import_graph import js_graph  # noqa: E402

import LudoGame.web  # noqa: E402
from LudoGame.web import create_app  # noqa: E402

STATIC = Path(LudoGame.web.__file__).parent / "static"
VIEWS = ("ludo.js", "onitama.js")
#: Lines shorter than this (a brace, `return;`, a blank line) count as nothing in a run.
SHORT = 12
#: The longest run of lines both views may hold (of lines of `SHORT` characters or more).
MOST_SHARED = 2


def shared_runs(a: str, b: str, least: int) -> list[list[str]]:
    """The runs of consecutive lines (stripped) that `a` and `b` both hold, each with at
    least `least` lines of `SHORT` characters or more, longest first."""
    x = [line.strip() for line in a.splitlines()]
    y = [line.strip() for line in b.splitlines()]
    runs: list[list[str]] = []
    # run[j]: the length of the common run ending at x[i], y[j]
    previous = [0] * (len(y) + 1)
    for i in range(len(x)):
        current = [0] * (len(y) + 1)
        for j in range(len(y)):
            if x[i] == y[j]:
                current[j + 1] = previous[j] + 1
        for j in range(len(y)):
            length = current[j + 1]
            # a run ends here: the next lines differ (or either text ends)
            if length and (i + 1 == len(x) or j + 1 == len(y) or x[i + 1] != y[j + 1]):
                lines = x[i + 1 - length : i + 1]
                if sum(len(line) >= SHORT for line in lines) >= least:
                    runs.append(lines)
        previous = current
    return sorted(runs, key=len, reverse=True)


def test_every_page_script_imported_is_served() -> None:
    graph = js_graph(STATIC)
    wanted = set(graph) | {name for targets in graph.values() for name in targets}
    assert "game-page.js" in wanted
    client = TestClient(create_app(max_games=5))
    for name in sorted(wanted):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert "javascript" in r.headers["content-type"], (name, r.headers["content-type"])
        assert r.text == (STATIC / name).read_text(encoding="utf-8")


def test_both_games_views_import_the_shared_page_script() -> None:
    graph = js_graph(STATIC)
    for view in VIEWS:
        assert "game-page.js" in graph[view], view
    # the shared script is the games' frame: it imports no view
    assert not graph["game-page.js"] & set(VIEWS)


def test_no_run_of_code_is_written_in_both_views() -> None:
    ludo, onitama = ((STATIC / v).read_text(encoding="utf-8") for v in VIEWS)
    found = shared_runs(ludo, onitama, MOST_SHARED + 1)
    assert not found, "written in both ludo.js and onitama.js (share it in game-page.js):\n" + (
        "\n---\n".join("\n".join(run) for run in found[:5])
    )


def test_the_run_finder_finds_a_shared_run() -> None:
    common = "  const seats = new Seats(kind, id);\n  status.textContent = state.status;\n"
    role = "  role.textContent = seats.role(state);\n}\n"
    a = "function a() {\n" + common + "  drawLudo(state);\n" + role
    b = "function b() {\n  drawOnitama();\n" + common + role
    assert shared_runs(a, b, 2) == [common.strip().split("\n  ")]
    assert shared_runs(a, b, 3) == []
    # short lines alone make no run
    assert shared_runs("}\n}\n}\nreturn;\n", "}\n}\n}\nreturn;\n", 1) == []
