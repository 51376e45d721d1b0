"""Parity with the coursework referee: a game between two MATLAB AIs under our referee is
the game ``AIvsAI.m`` plays under Octave, answer for answer, with the same result (errors
included, in the coursework's words).

Always (with Octave): against the coursework referee's transcripts of our own test AIs,
recorded once (data/matlab/coursework_transcripts.json). Opt-in, with
LUDOGAME_COURSEWORK_MATLAB pointing at the coursework's folder: against ``AIvsAI.m`` run
live, and the student's AI shipped there (AI1155126361.m) playing unchanged through our
compatibility folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import matlab_support as ms

RECORDED = ms.TEST_AIS / "coursework_transcripts.json"
STUDENT = "AI1155126361.m"


def recorded() -> dict[str, list[str]]:
    games: dict[str, list[str]] = json.loads(RECORDED.read_text(encoding="utf-8"))["games"]
    return games


def test_the_recording_covers_every_parity_game_and_every_way_to_end() -> None:
    games = recorded()
    assert sorted(games) == sorted(f"{a} {b} {s}" for a, b, s in ms.PARITY_GAMES)
    ends = {lines[-1].split(" as ")[-1] for lines in games.values()}
    assert {"Player A win.", "Player B win.", "player A has programming error.",
            "player A input invalid.", "player B input invalid."} <= ends  # fmt: skip
    invalid = [lines[-2] for lines in games.values() if lines[-1].endswith("input invalid.")]
    assert any(a.startswith("Card 7,") for a in invalid)  # each wrong output of AIBad
    assert any("->z9," in a for a in invalid)
    assert any(a.endswith("W x") for a in invalid)


@pytest.mark.parametrize(("a", "b", "setup"), ms.PARITY_GAMES)
def test_our_referee_plays_the_recorded_coursework_game(a: str, b: str, setup: int) -> None:
    ms.require()
    ours, record = ms.our_transcript(ms.TEST_AIS / f"AI{a}.m", ms.TEST_AIS / f"AI{b}.m", setup)
    assert ours == recorded()[f"{a} {b} {setup}"]
    if record.reason == "programming_error":
        assert "Error in function AIOops() at line 4." in record.detail
        assert "out of ideas with 16 turns left" in record.detail


def test_live_coursework_referee_plays_the_same_games() -> None:
    ms.require()
    folder = ms.coursework_folder()
    ais = sorted(ms.TEST_AIS.glob("AI*.m"))
    for a, b, setup in ms.PARITY_GAMES:
        live = ms.coursework_transcript(folder, ais, a, b, setup)
        assert live == recorded()[f"{a} {b} {setup}"], (a, b, setup)


@pytest.mark.parametrize("setup", [21, 22, 23])
def test_the_students_ai_plays_unchanged_and_as_under_the_coursework_referee(setup: int) -> None:
    ms.require()
    folder = ms.coursework_folder()
    student = folder / STUDENT
    sid = student.stem[2:]
    for other in ("First", "Wall"):
        ai = ms.TEST_AIS / f"AI{other}.m"
        for a, b, pa, pb in ((sid, other, student, ai), (other, sid, ai, student)):
            live = ms.coursework_transcript(folder, [student, ai], a, b, setup)
            ours, record = ms.our_transcript(pa, pb, setup)
            assert ours == live, (a, b, setup)
            # the compat folder works: no MATLAB function is missing (on setup 23 the AI has
            # a real bug, length() of a 1x2 char, in both referees alike)
            assert "undefined" not in record.detail, record.detail


def record(folder: Path) -> None:
    """Record the coursework referee's transcripts of the parity games."""
    ais = sorted(ms.TEST_AIS.glob("AI*.m"))
    games = {
        f"{a} {b} {s}": ms.coursework_transcript(folder, ais, a, b, s)
        for a, b, s in ms.PARITY_GAMES
    }
    data = json.loads(RECORDED.read_text(encoding="utf-8"))
    data["games"] = games
    RECORDED.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    import os

    if sys.argv[1:] != ["--record"] or not os.environ.get(ms.COURSEWORK_ENV):
        sys.exit(f"usage: {ms.COURSEWORK_ENV}=FOLDER python3 {sys.argv[0]} --record")
    record(Path(os.environ[ms.COURSEWORK_ENV]))
