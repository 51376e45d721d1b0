"""The referee from Python: the coursework's AI contract (arguments in, answer out), the
loss rules (an exception, a wrong type, an invalid answer, a timeout), all 258 logged
tournament games replayed through `play_match`, the built-in AIs in the contract, and a
short seeded round robin in which the search (level 2, node budget) beats the baseline."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from LudoGame import onitama as o

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "onitama"

Answer = tuple[int, str, str, str]


def first_legal(*args: Any) -> Answer:
    """An AI playing the first legal action, built from its arguments alone."""
    player, board, a1, a2, b1, b2, side, turn = args
    game = o.Onitama(board, [a1, a2, b1, b2, side], player, turn)
    return game.legal_moves[0].answer


def test_the_ai_is_called_with_the_contract_arguments() -> None:
    calls: list[tuple[Any, ...]] = []

    def spy(*args: Any) -> Answer:
        calls.append(args)
        return first_legal(*args)

    record = o.play_match(spy, spy, 1, max_plies=4)
    assert record.reason == "ply_limit" and record.winner is None and record.plies == 4
    assert [c[0] for c in calls] == ["A", "B", "A", "B"]
    assert [c[7] for c in calls] == [4, 3, 2, 1]
    player, board, a1, a2, b1, b2, side, turn = calls[0]
    start = o.Onitama.setup(1)
    assert board == start.board and isinstance(board, list)
    assert [a1, a2, b1, b2, side] == [c.rows for c in start.cards.values()]
    game = record.game()
    assert game.history == record.actions and game.to_notation() == record.end
    assert record.points == {"A": 1, "B": 1}


def test_an_exception_loses_with_its_message() -> None:
    def broken(*args: Any) -> Answer:
        raise ZeroDivisionError("oops")

    record = o.play_match(first_legal, broken, 21)
    assert (record.winner, record.reason, record.failed) == ("A", "programming_error", "B")
    assert record.detail == "ZeroDivisionError: oops"
    assert record.plies == 2 and len(record.actions) == 1
    assert record.points == {"A": 2, "B": 0}


@pytest.mark.parametrize(
    "answer",
    [None, (1, "e2", "d2"), [1, "e2", "d2", "s", "x"], ("1", "e2", "d2", "s"),
     (True, "e2", "d2", "s"), (1.0, "e2", "d2", "s"), (1, 52, "d2", "s"), (1, "e2", "d2", None),
     "1 e2 d2 s", {"card": 1}],
)  # fmt: skip
def test_a_wrong_type_loses(answer: Any) -> None:
    record = o.play_match(lambda *a: answer, first_legal, 21)
    assert (record.winner, record.reason, record.failed) == ("B", "invalid_move", "A")
    assert "not a tuple (card: int" in record.detail
    assert record.actions == [] and record.plies == 1


def test_an_invalid_answer_loses_with_the_referees_reason() -> None:
    record = o.play_match(lambda *a: (1, "XX", "XX", "s"), first_legal, 21)
    assert (record.winner, record.reason, record.failed) == ("B", "invalid_move", "A")
    assert record.detail == "Invalid input, the start position is invalid."
    assert record.invalid_answer == (1, "XX", "XX", "s")
    record = o.play_match(first_legal, lambda *a: (*first_legal(*a)[:3], "q"), 21)
    assert record.reason == "invalid_move" and record.failed == "B"
    assert record.detail.startswith("Invalid input, the wall direction 'q'")
    # A list answer is accepted like a tuple; a huge card number is simply invalid.
    record = o.play_match(lambda *a: list(first_legal(*a)), lambda *a: (10**30, "a", "b", "c"))
    assert record.reason == "invalid_move" and record.failed == "B"


def test_a_slow_answer_loses_on_a_time_budget() -> None:
    def slow(*args: Any) -> Answer:
        time.sleep(0.03)
        return first_legal(*args)

    record = o.play_match(first_legal, slow, 21, time_budget=0.01)
    assert (record.winner, record.reason, record.failed) == ("A", "timeout", "B")
    assert "time budget" in record.detail
    fast = o.play_match(o.builtin_ai(2, time=1.0), o.builtin_ai(1), 21, time_budget=0.2)
    assert fast.reason != "timeout"


def test_an_interrupt_is_not_a_loss() -> None:
    def interrupted(*args: Any) -> Answer:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        o.play_match(first_legal, interrupted, 21)


def test_play_match_arguments() -> None:
    g = o.Onitama.setup(23)
    g.play(g.legal_moves[0])
    record = o.play_match(first_legal, first_legal, g, max_plies=None)
    # A game already under way is no longer the setup (its JSON could not say setup 23).
    assert record.start == g.to_notation() and record.setup is None
    assert o.Onitama.from_json(record.game().to_json()) == record.game()
    fresh = o.play_match(first_legal, first_legal, o.Onitama.setup(23), max_plies=7)
    assert fresh.setup == "case23" and fresh.start == o.Onitama.setup(23, 7).to_notation()
    assert o.Onitama.from_json(fresh.game().to_json()).setup_id == "case23"
    assert record.plies <= 19
    for bad_ai in [None, 3, "level 2"]:
        with pytest.raises(TypeError):
            o.play_match(bad_ai, first_legal)  # type: ignore[arg-type]
    with pytest.raises(o.UnknownSetupError):
        o.play_match(first_legal, first_legal, 99)
    with pytest.raises(o.InvalidAIError):
        o.play_match(first_legal, first_legal, 21, time_budget=-1)
    with pytest.raises(o.InvalidBoardError):
        o.play_match(first_legal, first_legal, 21, max_plies=-5)


def test_every_logged_tournament_game_replays() -> None:
    with open(GOLDEN / "tournament.json", encoding="utf-8") as f:
        games = json.load(f)["games"]
    assert len(games) == 258
    for g in games:
        moves = [tuple(m) for m in g["moves"]]
        message = g.get("error", {}).get("message", "no more answers")

        def logged(*args: Any, moves: list[Any] = moves, message: str = message) -> Any:
            if not moves:
                raise RuntimeError(message)
            return moves.pop(0)

        record = o.play_match(logged, logged, g["setup"])
        name = f"{g['log']} game {g['game']}"
        assert record.winner == g["winner"], name
        assert record.reason == g["reason"], name
        assert record.plies == g["plies"], name
        assert len(record.actions) == g["plies_completed"], name


# ---- built-in AIs -----------------------------------------------------------------------


def test_builtin_ais_answer_in_the_contract() -> None:
    for sid in ["21", "aitest1_B", "aitest2_A", "basic42_A"]:
        game = o.Onitama.setup(sid)
        for level in range(3):
            ai = o.builtin_ai(level, nodes=2000, seed=5)
            answer = ai(*game.ai_arguments())
            assert isinstance(answer, tuple) and len(answer) == 4
            action = game.judge(*answer)
            assert action in game.legal_moves
            assert action == ai.choose(game)
            assert action == game.best_move(level=level, nodes=2000, seed=5)
    passing = o.builtin_ai(2, nodes=1000)(*o.Onitama.setup("aitest2_A").ai_arguments())
    assert passing[1:3] == ("XX", "XX")
    winning = o.builtin_ai(1)(*o.Onitama.setup("basic43_B").ai_arguments())
    assert o.Onitama.setup("basic43_B").judge(*winning).is_win
    ai = o.builtin_ai(2, time=0.5, seed=1)
    assert (ai.level, ai.time, ai.seed, ai.nodes) == (2, 0.5, 1, None)
    assert repr(o.builtin_ai(2, nodes=100)) == "BuiltinAI(level=2, nodes=100, seed=0)"
    with pytest.raises(o.GameOverError):
        ai(*o.Onitama.setup(21, max_plies=0).ai_arguments())
    with pytest.raises(o.InvalidBoardError):
        ai("C", *o.Onitama.setup(21).ai_arguments()[1:])
    with pytest.raises(TypeError):
        ai(*o.Onitama.setup(21).ai_arguments()[:7], "20")  # type: ignore[arg-type]


def test_a_builtin_ai_analyses_as_the_game_does() -> None:
    game = o.Onitama.standard(seed=3)
    for level in range(3):
        ai = o.builtin_ai(level, nodes=3000, seed=4)
        found = ai.analyse(game)
        assert found == game.analyse(level=level, nodes=3000, seed=4)
        assert found["action"] == ai.choose(game)
    with pytest.raises(o.GameOverError):
        ai.analyse(o.Onitama.setup(21, max_plies=0))
    # a time-limited AI's searches share its table: the second search of a position
    # (to the same depth, the time never reached) takes far fewer nodes than the first,
    # while under a node budget every search starts afresh
    timed = o.builtin_ai(2, time=600, depth=8)
    first, again = timed.analyse(game), timed.analyse(game)
    assert first == game.analyse(time=None, depth=8)
    assert again["depth"] == 8 and again["nodes"] * 4 < first["nodes"], (first, again)
    budgeted = o.builtin_ai(2, nodes=20_000)
    assert budgeted.analyse(game) == budgeted.analyse(game)


def test_the_search_is_deterministic_with_a_node_budget() -> None:
    a = o.play_match(o.builtin_ai(2, nodes=3000, seed=2), o.builtin_ai(1, seed=2), 22)
    b = o.play_match(o.builtin_ai(2, nodes=3000, seed=2), o.builtin_ai(1, seed=2), 22)
    assert a.actions == b.actions and a.reason == b.reason


def test_round_robin_level_2_beats_level_1() -> None:
    ais = {
        "search": o.builtin_ai(2, nodes=4000, seed=1),
        "baseline": o.builtin_ai(1, seed=1),
        "random": o.builtin_ai(0, seed=1),
    }
    standings = o.round_robin(ais, setups=[21, 22, 23], max_plies=20)
    assert [s.name for s in standings.table][0] == "search"
    search, baseline = standings["search"], standings["baseline"]
    assert search.games == baseline.games == 12 and len(standings.games) == 18
    assert search.points > baseline.points
    assert search.losses == 0
    head_to_head = [
        g.record.points["A" if g.a == "search" else "B"]
        for g in standings.games
        if {g.a, g.b} == {"search", "baseline"}
    ]
    assert sum(head_to_head) >= 9  # of 12
    assert sum(s.points for s in standings.table) == 2 * 18
    text = str(standings)
    assert text.splitlines()[0].split() == [
        "rank", "name", "games", "wins", "ties", "losses", "points", "score",
    ]  # fmt: skip


def test_round_robin_errors() -> None:
    with pytest.raises(o.InvalidAIError):
        o.round_robin({"one": first_legal})
    with pytest.raises(TypeError):
        o.round_robin({"one": first_legal, "two": 5})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        o.round_robin([first_legal, first_legal])  # type: ignore[arg-type]
    with pytest.raises(o.UnknownSetupError):
        o.round_robin({"a": first_legal, "b": first_legal}, setups=[21, 77])
    with pytest.raises(o.UnknownSetupError):
        o.round_robin({"a": first_legal, "b": first_legal}, setups=[])
