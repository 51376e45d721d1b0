"""`outcome()` on both games, as python-chess has it: None while the game goes on, then
the termination, the winner and the finishing order, in one `Outcome` type."""

from __future__ import annotations

import pytest

import LudoGame
from LudoGame import Game, Outcome, Reason, onitama


@pytest.mark.parametrize(
    ("rules", "termination"),
    [("cs162", "all_ranked"), ("standard", "all_ranked"), ("gt", "first_home")],
)
def test_a_ludo_games_outcome(rules: str, termination: str) -> None:
    game = Game(rules, seed=4)
    assert game.outcome() is None
    game.autoplay("cs162", seed=1)
    outcome = game.outcome()
    assert isinstance(outcome, Outcome)
    assert outcome.termination == Reason(termination)
    assert outcome.winner == game.winner and outcome.ranking == tuple(game.ranking)
    assert outcome.result() == f"{game.winner} won"
    if termination == "all_ranked":
        assert sorted(outcome.ranking) == sorted(game.players)
    else:
        assert outcome.ranking == (game.winner,)


def test_an_onitama_games_outcome() -> None:
    game = onitama.Onitama.setup(13)
    assert game.outcome() is None
    for action in ("1 b5 a5 d", "1 XX XX s", "1 XX XX r"):
        game.play(action)
    tie = game.outcome()
    assert tie == Outcome(Reason.PLY_LIMIT, None, ())
    assert tie is not None and tie.result() == "tie"
    won = onitama.play_match(onitama.builtin_ai(2, nodes=300), onitama.builtin_ai(0), 21)
    game = won.game()
    outcome = game.outcome()
    assert outcome is not None and outcome.termination == game.result_reason
    if won.winner is not None:
        loser = "B" if won.winner == "A" else "A"
        assert outcome.winner == won.winner and outcome.ranking == (won.winner, loser)


def test_one_outcome_type_for_both() -> None:
    assert LudoGame.Outcome is onitama.Outcome
