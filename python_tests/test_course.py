"""The course's tournament format (LudoGame.course): qualification against a reference AI
(more than K errors disqualifies), then the round robin of the qualified AIs, with every
game kept and each AI's errors listed. Built-in and Python AIs: no Octave needed."""

from __future__ import annotations

import re
from typing import Any

import pytest

from LudoGame import onitama
from LudoGame.course import REFERENCE, course_tournament, qualification_schedule
from LudoGame.matlab import DEFAULT_QUALIFY_GAMES, DEFAULT_QUALIFY_MAX_ERRORS


def broken(*args: Any) -> Any:
    """An AI that always raises (module level: it pickles for the process pool)."""
    raise RuntimeError("no idea")


def sometimes(*args: Any) -> Any:
    """An AI that fails only when it moves first with 20 plies left (as A)."""
    if args[7] == 20:
        return (7, "a1", "a2", "s")
    return onitama.builtin_ai(0, seed=1)(*args)


def test_the_defaults_are_the_courses() -> None:
    assert (DEFAULT_QUALIFY_GAMES, DEFAULT_QUALIFY_MAX_ERRORS) == (6, 2)


def test_qualification_schedule_alternates_sides_and_cycles_the_setups() -> None:
    assert qualification_schedule(["x"], 6) == [
        ("x", REFERENCE, 21), (REFERENCE, "x", 21),
        ("x", REFERENCE, 22), (REFERENCE, "x", 22),
        ("x", REFERENCE, 23), (REFERENCE, "x", 23),
    ]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_errors_disqualify_and_the_qualified_play_the_round_robin(jobs: int) -> None:
    ais = {
        "good": onitama.builtin_ai(1, seed=1),
        "bad": broken,
        "shaky": sometimes,
        "fine": onitama.builtin_ai(0, seed=2),
    }
    result = course_tournament(ais, onitama.builtin_ai(1, seed=9), jobs=jobs)
    verdict = {q.name: (len(q.games), len(q.errors), q.qualified) for q in result.qualification}
    assert verdict == {
        "good": (6, 0, True),
        "bad": (6, 6, False),
        "shaky": (6, 3, False),  # 3 errors: more than 2
        "fine": (6, 0, True),
    }
    assert result.standings is not None
    assert sorted(s.name for s in result.standings.table) == ["fine", "good"]
    assert len(result.games) == 4 * 6 + 3 * 2
    assert len(result.errors("bad")) == 6
    text = str(result)
    assert re.search(r"bad +6 games +6 errors +DISQUALIFIED", text)
    assert "RuntimeError: no idea" in text and "card 7 does not exist" in text
    with_one_more_error_allowed = course_tournament(
        ais, onitama.builtin_ai(1, seed=9), max_errors=3, jobs=jobs
    )
    assert [q.qualified for q in with_one_more_error_allowed.qualification] == [
        True, False, True, True,
    ]  # fmt: skip


def test_fewer_than_two_qualified_means_no_round_robin() -> None:
    result = course_tournament(
        {"bad": broken, "good": onitama.builtin_ai(0)}, onitama.builtin_ai(0), games=2, max_errors=0
    )
    assert result.standings is None
    assert "no round robin" in str(result)


def test_the_reference_name_is_reserved() -> None:
    with pytest.raises(onitama.InvalidAIError):
        course_tournament({REFERENCE: broken, "x": broken}, broken)
