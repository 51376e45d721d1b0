"""Results, records and built-in AIs survive pickling (what multiprocessing and Ray do)."""

from __future__ import annotations

import json
import pickle

import pytest

from conftest import assert_same_results
from LudoGame import Simulation, onitama
from LudoGame._core import InvalidArgumentError, SimResult


@pytest.mark.parametrize(
    ("rules", "players", "options"),
    [("cs162", "AC", {}), ("standard", "ABCD", {"six_limit": 2}), ("gt", None, {})],
)
def test_sim_result_round_trip(rules: str, players: str | None, options: dict) -> None:
    sim = Simulation(rules, players, "cs162", 7, **options)
    r = sim.run(10, 40)
    back = pickle.loads(pickle.dumps(r))
    assert_same_results(r, back)
    assert back.options == r.options
    # A rebuilt result adds to the next games exactly as the original does.
    nxt = sim.run(50, 30)
    assert_same_results(back + nxt, r + nxt)


def test_empty_sim_result_round_trip() -> None:
    r = Simulation("cs162", "AC", "random", 1).run(0, 0)
    assert_same_results(pickle.loads(pickle.dumps(r)), r)


def test_malformed_sim_result_state_is_refused() -> None:
    r = Simulation("cs162", "AC", "random", 1).run(0, 5)
    rebuild, (data,) = r.__reduce__()
    assert isinstance(data, bytes)
    with pytest.raises(InvalidArgumentError, match="end too early"):
        rebuild(data[:-1])
    with pytest.raises(InvalidArgumentError, match="bytes after the data"):
        rebuild(data + b"\0")
    with pytest.raises(InvalidArgumentError, match="format tag"):
        rebuild(b"LGSIM\0\0\2" + data[8:])
    # The seats byte follows the tag and the rules notation: seat 7 does not exist.
    notation = len(b"".join([data[8:16], data[16 : 16 + int.from_bytes(data[8:16], "little")]]))
    seats_at = 8 + notation
    assert data[seats_at : seats_at + 3] == bytes([2, 0, 2])
    bad_seat = data[: seats_at + 1] + bytes([7]) + data[seats_at + 2 :]
    with pytest.raises(InvalidArgumentError, match="seat is out of range"):
        rebuild(bad_seat)


def test_builtin_ai_round_trip_plays_the_same() -> None:
    ai = onitama.builtin_ai(2, nodes=800, seed=5, depth=6)
    back = pickle.loads(pickle.dumps(ai))
    assert repr(back) == repr(ai)
    game = onitama.Onitama.setup(22)
    assert back.choose(game) == ai.choose(game)


def _raises(*_: object) -> tuple[int, str, str, str]:
    raise RuntimeError("no answer")


def _bad_card(*_: object) -> tuple[int, str, str, str]:
    return (3, "e2", "d3", "u")


def _wrong_type(*_: object) -> object:
    return "nonsense"


@pytest.mark.parametrize(
    "other",
    [onitama.builtin_ai(0, seed=2), onitama.builtin_ai(1), _raises, _bad_card, _wrong_type],
)
def test_match_record_round_trip(other: onitama.AIFunction) -> None:
    ai = onitama.builtin_ai(2, nodes=400, seed=1)
    for a, b in ((ai, other), (other, ai)):
        record = onitama.play_match(a, b, 21)
        back = pickle.loads(pickle.dumps(record))
        for attr in (
            "setup", "start", "end", "actions", "winner", "result", "reason", "detail",
            "failed", "invalid_answer", "plies", "points",
        ):  # fmt: skip
            assert getattr(back, attr) == getattr(record, attr), attr
        assert back.game().to_notation() == record.game().to_notation()


def test_malformed_match_record_state_is_refused() -> None:
    record = onitama.play_match(onitama.builtin_ai(0), onitama.builtin_ai(1), 21)
    rebuild, (text,) = record.__reduce__()
    saved = json.loads(text)
    with pytest.raises(onitama.OnitamaError):
        rebuild(json.dumps({**saved, "actions": ["1 a1 a2 u"]}))  # not a legal action
    with pytest.raises(onitama.OnitamaError, match="unknown reason 'resigned'"):
        rebuild(json.dumps({**saved, "reason": "resigned"}))
    with pytest.raises(onitama.OnitamaError, match="not 'A' or 'B'"):
        rebuild(json.dumps({**saved, "winner": "C"}))


def test_a_match_record_round_trips_through_its_saved_text() -> None:
    """`MatchRecord.to_json` is the saved games' format (`record_json`), and `from_json`
    reads it back whole: an invalid answer is judged again from the saved answer."""
    bad = lambda *args: (7, "e3", "d3", "u")  # noqa: E731 - card 7 is invalid
    record = onitama.play_match(onitama.builtin_ai(1), bad, 21)
    assert record.reason == "invalid_move" and record.invalid_answer == (7, "e3", "d3", "u")
    text = record.to_json("mine", "theirs")
    assert json.loads(text) == onitama.record_json(record, "mine", "theirs")
    back = onitama.MatchRecord.from_json(text)
    for attr in ("start", "end", "actions", "winner", "reason", "detail", "failed", "plies"):
        assert getattr(back, attr) == getattr(record, attr), attr
    assert back.invalid_answer == record.invalid_answer


def test_join_is_the_sum() -> None:
    sim = Simulation("standard", "ABCD", "random", 2)
    parts = [sim.run(0, 7), sim.run(7, 0), sim.run(7, 20), sim.run(27, 3)]
    assert_same_results(SimResult._join(parts), parts[0] + parts[1] + parts[2] + parts[3])
    assert_same_results(SimResult._join(parts), sim.run(0, 30))
    with pytest.raises(InvalidArgumentError):
        SimResult._join([])
    with pytest.raises(ValueError, match="different bots"):
        SimResult._join([parts[0], Simulation("standard", "ABCD", "cs162", 2).run(0, 3)])
