"""The engines say what callers used to work out by taking games back (#37): a Ludo move's
squares by the board's names on its event, an Onitama game's start and first mover."""

from __future__ import annotations

import pytest

from LudoGame import Game, MoveEvent
from LudoGame.onitama import Onitama


def squares_by_taking_back(game: Game) -> list[tuple[str, str] | None]:
    """For each event, the squares of the mover's tokens that changed, found by undoing."""
    back = game.copy()
    found: list[tuple[str, str] | None] = []
    for event in reversed(game.history):
        after = back.squares
        back.undo()
        if event["kind"] != "move":
            found.append(None)
            continue
        before = back.squares[event["player"]]
        changed = [(b, a) for b, a in zip(before, after[event["player"]], strict=True) if b != a]
        found.append(changed[0] if changed else None)
    return found[::-1]


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        ("cs162", {}),
        ("standard", {}),
        ("gt", {}),
        ("standard", {"own_tokens": "bump", "overshoot": "stay"}),
        ("cs162", {"tokens": 4, "overshoot": "bounce"}),
    ],
)
def test_a_moves_squares_are_on_its_event(rules: str, options: dict[str, str | int]) -> None:
    moves = stayed = 0
    for seed in range(4):
        game = Game(rules, seed=seed, **options)
        game.autoplay("random", seed=seed, max_rolls=400)
        for event, taken_back in zip(game.history, squares_by_taking_back(game), strict=True):
            if not isinstance(event, MoveEvent):
                assert "from_square" not in event and "to_square" not in event
                continue
            moves += 1
            if event.from_square is None:
                # the tokens ended where they were: no squares, as taking back finds none
                stayed += 1
                assert event.from_step == event.to_step
                assert "from_square" not in event and "to_square" not in event
                assert taken_back is None
                continue
            squares = (event.from_square, event.to_square)
            assert (event["from_square"], event["to_square"]) == squares
            assert event.from_square != event.to_square
            changed = taken_back is not None and set(taken_back) == {
                event.from_square,
                event.to_square,
            }
            # the mover's token changed square (a capture of its own other token may
            # change another of its squares first: the event names the mover's)
            assert changed or event["captured"], (event, taken_back)
    assert moves > 50
    if options.get("overshoot") == "stay":
        assert stayed > 0  # the case without squares was met


def test_an_undone_move_returns_its_squares_too() -> None:
    game = Game("cs162", "AC", seed=3)
    game.roll(6)
    game.play("Ap")
    event = game.undo()
    assert isinstance(event, MoveEvent)
    assert (event.from_square, event.to_square) == ("H", "R")
    assert game.squares["A"][0] == "H"


def onitama_games() -> list[Onitama]:
    cards = ["Tiger", "Crab", "Monkey", "Crane", "Dragon"]
    return [
        Onitama.setup(21),
        Onitama.setup("aitest1_A"),
        Onitama.dealt(5),
        Onitama.standard(seed=11),
        Onitama.standard(cards=cards, first="B"),
        Onitama.from_notation(Onitama.setup(23).to_notation()),
    ]


@pytest.mark.parametrize("index", range(len(onitama_games())))
def test_an_onitama_game_knows_its_start_and_first_mover(index: int) -> None:
    game = onitama_games()[index]
    first, start_json = game.turn, game.to_json()
    assert game.first_turn == first
    for k in range(9):
        if game.is_over():
            break
        game.play(game.best_move(level=0, seed=k))
    assert game.first_turn == first
    back = game.copy()
    while back.history:
        back.undo()
    start = game.at_start()
    assert start.history == [] and start.turn == first == back.turn
    assert start.to_json() == back.to_json() == start_json
    assert start.setup_id == game.setup_id
    assert start.first_turn == first
    # the game itself is untouched, and a saved game knows its start as well
    assert len(game.history) > 0
    assert Onitama.from_json(game.to_json()).at_start().to_json() == start_json
