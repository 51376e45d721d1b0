"""Ludo as a Gymnasium environment: one learning seat against opponents that play inside
``step`` (built-in bots by name, or Python callables)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from LudoGame._core import (
    ENV_MAX_ROLLS,
    ENV_OPPONENT,
    ENV_PLAYERS,
    GameOverError,
    InvalidBotError,
    LudoEnvCore,
)
from LudoGame.envs._render import rgb_frame

__all__ = ["LudoEnv", "Opponent", "TokenSpace"]

Opponent = str | Callable[[np.ndarray, np.ndarray], int]
"""A built-in bot's name ("random", "cs162", "mcts:200", ...) or a callable taking the
opponent's observation and action mask and returning its action."""


class TokenSpace(spaces.Discrete):
    """The action space: ``Discrete(tokens per player)`` whose ``sample()`` without a mask
    draws among the legal actions of its environment (so that random agents and
    Gymnasium's checker only play legal moves).

    A pickled or copied space is a plain ``Discrete`` space of the same size: the link to
    its environment stays behind (an environment rebuilds its own space when it is
    unpickled)."""

    def __init__(self, n: int, mask: Callable[[], np.ndarray] | None = None) -> None:
        super().__init__(n)
        self._mask = mask

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A random action: among the legal ones unless a mask or probabilities are given."""
        if mask is None and probability is None and self._mask is not None:
            legal = self._mask()
            if legal.any():
                mask = legal
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_mask"] = None
        return state


class LudoEnv(gym.Env[np.ndarray, np.int64]):
    """One learner against opponents, over the "cs162", "standard" or "gt" rules.

    ``LudoEnv(rules="cs162", players=2, seat=0, opponents="random", skip_forced=False,
    max_rolls=10_000, render_mode=None, **options)``: the learner plays player `seat` (in
    turn order); `opponents` is one opponent for every other player or a list of them, in
    turn order. The observation is a float32 vector, the action a token index; the info
    dict holds the ``action_mask`` (also given by ``action_masks()``).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "svg", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        rules: str = "cs162",
        players: int | str | list[str] = ENV_PLAYERS,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] = ENV_OPPONENT,
        skip_forced: bool = False,
        max_rolls: int = ENV_MAX_ROLLS,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"not {render_mode!r}"
            )
        self.render_mode = render_mode
        # What a pickled environment is rebuilt from (with its snapshot).
        self._kwargs: dict[str, Any] = dict(
            rules=rules,
            players=players,
            seat=seat,
            opponents=opponents,
            skip_forced=skip_forced,
            max_rolls=max_rolls,
            render_mode=render_mode,
            **options,
        )
        probe = LudoEnvCore(rules, players, **options)
        n = len(probe.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidBotError(f"seat must be a player index from 0 to {n - 1}, not {seat!r}")
        if isinstance(opponents, str) or callable(opponents):
            others: list[Opponent] = [opponents] * (n - 1)
        else:
            others = list(opponents)
        if len(others) != n - 1:
            raise InvalidBotError(f"{len(others)} opponents for {n - 1} other players")
        roles: list[str | None] = []
        self._callables: dict[int, Callable[[np.ndarray, np.ndarray], int]] = {}
        for player in range(n):
            if player == seat:
                roles.append(None)
                continue
            opponent = others.pop(0)
            if isinstance(opponent, str):
                roles.append(opponent)
            elif callable(opponent):
                roles.append(None)
                self._callables[player] = opponent
            else:
                raise InvalidBotError(
                    f"an opponent must be a bot name or a callable, not {opponent!r}"
                )
        self._seat = seat
        self._core = LudoEnvCore(
            rules,
            players,
            opponents=roles,
            skip_forced=skip_forced,
            max_rolls=max_rolls,
            learner=seat,
            **options,
        )
        self.observation_space = spaces.Box(
            0.0, 1.0, (self._core.observation_len,), dtype=np.float32
        )
        self.action_space = TokenSpace(self._core.tokens, self.action_masks)
        self._done = True

    @property
    def core(self) -> LudoEnvCore:
        """The engine's environment underneath."""
        return self._core

    def action_masks(self) -> np.ndarray:
        """The learner's action mask (int8, one per token), as sb3-contrib's masking
        algorithms ask for it."""
        return self._core.action_mask(self._seat)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game (seeded, or the next game of the environment's own generator) and
        play to the learner's first decision."""
        super().reset(seed=seed)
        skipped = self._core.skipped_games
        self._done = True  # until the reset succeeds
        self._core.reset(seed, opponent=self._opponent if self._callables else None)
        self._done = False
        info = self._info()
        info["skipped_games"] = self._core.skipped_games - skipped
        return self._core.observe(self._seat), info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Move token `action`, then let the opponents play up to the learner's next
        decision or the end. A refused action raises `EnvActionError` and changes nothing."""
        if self._done:
            raise GameOverError("the episode is over: call reset() first")
        opponent = self._opponent if self._callables else None
        self._core.check(action)
        try:
            self._core.step(action, opponent=opponent)
        except BaseException:
            self._done = True  # a Python opponent failed: the episode cannot go on
            raise
        status = self._core.status
        terminated, truncated = status == "terminated", status == "truncated"
        self._done = terminated or truncated
        reward = float(self._core.rewards[self._seat])
        return self._core.observe(self._seat), reward, terminated, truncated, self._info()

    def _opponent(self, player: int, obs: np.ndarray, mask: np.ndarray) -> Any:
        """The action of the Python opponent playing `player` (the engine asks)."""
        return self._callables[player](obs, mask)

    @property
    def skipped_games(self) -> int:
        """Games played out but not handed out as episodes since the environment was made:
        they ended before the learner's first decision (see docs/envs.md)."""
        return self._core.skipped_games

    @property
    def skipped_reward(self) -> float:
        """The learner's rewards in the skipped games, added up (count them as played when
        measuring a win rate)."""
        return float(self._core.skipped_rewards[self._seat])

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._core.action_mask(self._seat)}
        if self.render_mode == "svg":
            info["svg"] = self._core.render_svg()
        return info

    def render(self) -> Any:
        """The board as text ("ansi"), an SVG picture ("svg") or an ``H x W x 3`` uint8
        image ("rgb_array")."""
        if self.render_mode == "ansi":
            return self._core.render_text()
        if self.render_mode == "svg":
            return self._core.render_svg()
        if self.render_mode == "rgb_array":
            return rgb_frame(self._core.render_svg())
        return None

    def __getstate__(self) -> dict[str, Any]:
        """The constructor's arguments, the generator's state and the game (a Python
        opponent is pickled with them if pickle can; else pickling fails naming it)."""
        return {
            "kwargs": self._kwargs,
            "snapshot": self._core.snapshot(),
            "done": self._done,
            "np_random": self._np_random,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state["kwargs"])  # type: ignore[misc]
        self._core.load_snapshot(state["snapshot"])
        self._done = state["done"]
        self._np_random = state["np_random"]
