"""Ludo as a PettingZoo environment (AEC API), played by the Rust engine.

``env(rules="cs162", players=4, skip_forced=False, max_rolls=10_000, render_mode=None,
flatten_obs=False, **options)`` makes it with PettingZoo's usual wrappers; ``raw_env(...)``
without them. Agents are ``"player_0"``... in turn order (seats A, B, C, D that play). The
environment rolls the dice; an agent acts only when its roll leaves it a choice of token
(with ``skip_forced=True``, a choice of two or more). Observations are dicts
``{"observation": float32 vector, "action_mask": int8 vector}`` (with ``flatten_obs=True``,
one float32 vector: the observation then the mask, for wrappers that take a ``Box`` such
as SuperSuit's; the mask is also in ``infos[agent]["action_mask"]``); the action is the
token index. Rewards come at the end (see ``docs/envs.md``).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # PettingZoo has no types
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from LudoGame._core import ENV_MAX_ROLLS, ENV_TABLE_PLAYERS, LudoEnvCore
from LudoGame.envs._books import BookedAECEnv
from LudoGame.envs._render import rgb_frame
from LudoGame.envs.gym_ludo import TokenSpace

__all__ = ["env", "raw_env"]

# The constructor's own arguments (the others are rule options).
_OWN = {"rules", "players", "skip_forced", "max_rolls", "render_mode", "flatten_obs"}


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's order checks. (An illegal action raises
    `EnvActionError` and changes nothing, rather than ending the game as PettingZoo's
    `TerminateIllegalWrapper` would.)"""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(BookedAECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Ludo for 1-4 agents over the "cs162", "standard" or "gt" rules (any rule options)."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "svg", "rgb_array"],
        "name": "ludo_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rules: str = "cs162",
        players: int | str | list[str] = ENV_TABLE_PLAYERS,
        skip_forced: bool = False,
        max_rolls: int = ENV_MAX_ROLLS,
        render_mode: str | None = None,
        flatten_obs: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        self._kwargs: dict[str, Any] = dict(
            rules=rules,
            players=players,
            skip_forced=skip_forced,
            max_rolls=max_rolls,
            render_mode=render_mode,
            flatten_obs=flatten_obs,
            **options,
        )
        self._flat = bool(flatten_obs)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"not {render_mode!r}"
            )
        self.render_mode = render_mode
        self._core = LudoEnvCore(
            rules, players, skip_forced=skip_forced, max_rolls=max_rolls, **options
        )
        n = len(self._core.players)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_len, tokens = self._core.observation_len, self._core.tokens
        obs_space: spaces.Space[Any]
        if self._flat:
            obs_space = spaces.Box(0.0, 1.0, (obs_len + tokens,), dtype=np.float32)
        else:
            obs_space = spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (obs_len,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (tokens,), dtype=np.int8),
                }
            )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces: dict[str, TokenSpace] = {
            a: TokenSpace(self._core.tokens) for a in self.possible_agents
        }
        self._link_spaces()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of `agent` (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of `agent`: Discrete(tokens per player)."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Any:
        """`agent`'s observation and action mask (one vector with ``flatten_obs``)."""
        i = self._index[agent]
        obs, mask = self._core.observe(i), self._core.action_mask(i)
        if self._flat:
            return np.concatenate([obs, mask.astype(np.float32)])
        return {"observation": obs, "action_mask": mask}

    def _link_spaces(self) -> None:
        """Let each agent's action space sample among that agent's legal actions."""
        for agent, space in self.action_spaces.items():
            space._mask = functools.partial(self._mask_of, agent)

    def _mask_of(self, agent: str) -> np.ndarray:
        return self._core.action_mask(self._index[agent])

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the engine's environment, which is saved as its snapshot."""
        state = dict(self.__dict__)
        state["_core"] = self._core.snapshot()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        snapshot = state.pop("_core")
        self.__dict__.update(state)
        self._core = LudoEnvCore(
            self._kwargs["rules"],
            self._kwargs["players"],
            skip_forced=self._kwargs["skip_forced"],
            max_rolls=self._kwargs["max_rolls"],
            **{k: v for k, v in self._kwargs.items() if k not in _OWN},
        )
        self._core.load_snapshot(snapshot)
        self._link_spaces()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game (seeded, or the next game of the environment's own generator)."""
        self._core.reset(seed)
        self.open_books()
        self.agent_selection = self.agents[0]
        self._sync()

    def step(self, action: Any) -> None:
        """Move token `action` of the agent to act (None for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._core.step(action)
        self._cumulative_rewards[agent] = 0.0
        self._sync()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _sync(self) -> None:
        """Read who acts, and the end of the game, from the engine."""
        status, mover = self._core.status, self._core.to_move
        if self._flat:
            for agent, i in self._index.items():
                self.infos[agent]["action_mask"] = self._core.action_mask(i)
        if mover is not None:
            self.agent_selection = self.possible_agents[mover]
        else:
            ended = self.terminations if status == "terminated" else self.truncations
            for agent, reward in zip(self.possible_agents, self._core.rewards, strict=True):
                self.rewards[agent] = reward
                ended[agent] = True
        if self.render_mode == "svg":
            picture = self._core.render_svg()
            for info in self.infos.values():
                info["svg"] = picture

    def render(self) -> Any:
        """The board: text ("ansi"; printed for "human"), an SVG picture ("svg") or an
        ``H x W x 3`` uint8 image ("rgb_array")."""
        if self.render_mode is None:
            return None
        if self.render_mode == "svg":
            return self._core.render_svg()
        if self.render_mode == "rgb_array":
            return rgb_frame(self._core.render_svg())
        text = self._core.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
