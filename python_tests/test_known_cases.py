"""Every case in known_cases.json: the assignment's worked example, the course instructor's
published cases and the grader tests relayed by course staff, run as a grader would."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import load_known_cases
from LudoGame import LudoGame

CASES = load_known_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_known_case(case: dict[str, Any]) -> None:
    game = LudoGame()
    turns = [tuple(t) for t in case["turns"]]
    spaces = game.play_game(case["players"], turns)
    expected = case["expected"]
    assert spaces == expected["spaces"]
    for key, value in expected.items():
        if key == "spaces":
            continue
        position, what = key.split(".")
        player = game.get_player_by_position(position)
        assert not isinstance(player, str)
        if what == "completed":
            assert player.get_completed() is value
        elif what == "p":
            assert player.get_token_p_step_count() == value
        elif what == "q":
            assert player.get_token_q_step_count() == value
        elif what.startswith("name"):
            assert player.get_space_name(int(what[4:])) == value
        else:
            raise AssertionError(f"unknown expectation {key!r}")


def test_worked_example_prints_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    """The assignment's example program, verbatim, prints the four documented lines."""
    players = ["A", "B"]
    turns = [("A", 6), ("A", 4), ("A", 5), ("A", 4), ("B", 6), ("B", 4), ("B", 1), ("B", 2),
             ("A", 6), ("A", 4), ("A", 6), ("A", 3), ("A", 5), ("A", 1), ("A", 5),
             ("A", 4)]  # fmt: skip
    game = LudoGame()
    current_tokens_space = game.play_game(players, turns)
    player_A = game.get_player_by_position("A")  # noqa: N806 (the assignment's own names)
    print(player_A.get_completed())
    print(player_A.get_token_p_step_count())
    print(current_tokens_space)
    player_B = game.get_player_by_position("B")  # noqa: N806
    print(player_B.get_space_name(55))
    assert capsys.readouterr().out == "False\n28\n['28', '28', '21', 'H']\nB5\n"


def test_all_known_cases_present() -> None:
    ids = {c["id"] for c in CASES}
    assert "spec_example" in ids
    assert sum(i.startswith("instructor_case_") for i in ids) == 9
