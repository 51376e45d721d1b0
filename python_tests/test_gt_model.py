"""The GT rule set against an independent model of the Glamorous Toolkit Ludo game.

The model below is written from the GT tutorial's own code (`computeTargetFor:`,
`moveToken:`, `tokensToMove`) and docs/rules.md, in the original's square numbering, and
shares nothing with the engine. Seeded random games are played on both, and after every
roll and move the squares, the tokens offered, the status line and the winner must agree.
"""

from __future__ import annotations

import random

import pytest

from LudoGame import Game, IllegalMoveError

SEATS = "ABCD"


class GtModel:
    """The GT game: squares 1-40 play, 41-48 start slots, 49-56 goals."""

    def __init__(self) -> None:
        # token name -> square; A/a start on slots 41/42, B/b on 43/44, ...
        self.square = {}
        for i, p in enumerate(SEATS):
            self.square[p] = 41 + 2 * i
            self.square[p.lower()] = 42 + 2 * i
        self.current = 0
        self.pending: int | None = None
        self.status = "Player A to roll the die."
        self.winner: str | None = None

    @staticmethod
    def route(i: int) -> list[int]:
        entry = 1 + 10 * i
        return [(entry - 1 + k) % 40 + 1 for k in range(40)] + [49 + 2 * i, 50 + 2 * i]

    def tokens(self, i: int) -> list[str]:
        return [SEATS[i], SEATS[i].lower()]

    @staticmethod
    def parked(square: int) -> bool:
        return 41 <= square <= 48

    @staticmethod
    def in_play(square: int) -> bool:
        return 1 <= square <= 40

    def tokens_to_move(self) -> set[str]:
        if self.pending is None:
            return set()
        own = self.tokens(self.current)
        parked = {t for t in own if self.parked(self.square[t])}
        if self.pending == 6 and parked:
            return parked
        return {t for t in own if self.in_play(self.square[t])}

    def next_player(self) -> None:
        self.current = (self.current + 1) % 4

    def roll(self, value: int) -> None:
        self.pending = value
        if self.tokens_to_move():
            self.status = f"Player {SEATS[self.current]} to move."
            return
        mover = SEATS[self.current]
        self.pending = None
        self.next_player()
        self.status = f"Player {mover} cannot move. Player {SEATS[self.current]} to roll the die."

    def owner(self, token: str) -> int:
        return SEATS.index(token.upper())

    def occupant(self, square: int) -> str | None:
        return next((t for t, s in self.square.items() if s == square), None)

    def send_to_start(self, token: str) -> None:
        i = self.owner(token)
        for slot in (41 + 2 * i, 42 + 2 * i):
            if self.occupant(slot) is None:
                self.square[token] = slot
                return
        raise AssertionError("no free start slot")

    def move(self, token: str) -> None:
        assert self.pending is not None and token in self.tokens_to_move()
        route = self.route(self.current)
        here = self.square[token]
        if self.pending == 6 and self.parked(here):
            target = route[0]
        else:
            index = route.index(here) + self.pending
            target = route[index] if index < len(route) else here
        while (other := self.occupant(target)) is not None and target != here:
            if self.owner(other) == self.current:
                index = route.index(target) + 1
                target = route[index] if index < len(route) else here
            else:
                self.send_to_start(other)
        self.square[token] = target
        mover = SEATS[self.current]
        if all(self.square[t] >= 49 for t in self.tokens(self.current)):
            self.winner = mover
            self.pending = None
            self.status = f"Player {mover} has won!"
            return
        if self.pending != 6:
            self.next_player()
        self.pending = None
        self.status = f"Player {SEATS[self.current]} to roll the die."


def agree(game: Game, model: GtModel, where: str) -> None:
    squares = {t: int(game.squares[t.upper()][0 if t.isupper() else 1]) for t in model.square}
    assert squares == model.square, where
    assert set(game.tokens_to_move) == model.tokens_to_move(), where
    assert game.status == model.status, where
    assert game.winner == model.winner, where


@pytest.mark.parametrize("seed", range(40))
def test_gt_games_agree_with_an_independent_model(seed: int) -> None:
    rng = random.Random(seed)
    game, model = Game("gt", seed=seed), GtModel()
    # Low rolls and lots of 6s reach the goal squares with tokens left to move often.
    faces = [1, 2, 3, 4, 5, 6, 6] if seed % 2 else [1, 2, 3, 4, 5, 6]
    for step in range(5000):
        if model.winner is not None:
            break
        value = rng.choice(faces)
        game.roll(value)
        model.roll(value)
        agree(game, model, f"seed {seed}, step {step}, after rolling {value}")
        if model.pending is not None:
            token = rng.choice(sorted(model.tokens_to_move()))
            game.play(token)
            model.move(token)
            agree(game, model, f"seed {seed}, step {step}, after moving {token}")
    assert model.winner is not None and game.is_over()


def test_gt_goal_token_is_refused_d_gt() -> None:
    """A token on a goal square cannot be played even by name (GT: only tokens in play)."""
    game = Game("gt", seed=1)
    game.roll(6)
    game.play("A")
    for _ in range(7):
        game.roll(6)
        game.play("a")
    game.roll(3)
    game.play("a")
    assert game.squares["A"] == ["1", "49"]
    for _ in range(3):
        game.roll(1)
    game.roll(6)
    assert game.tokens_to_move == ["A"]
    before = game.to_notation()
    with pytest.raises(IllegalMoveError):
        game.play("a")
    assert game.to_notation() == before
