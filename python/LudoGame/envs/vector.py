"""A Gymnasium vector environment whose whole batch steps in Rust."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from LudoGame._core import (
    ENV_MAX_ROLLS,
    ENV_PLAYERS,
    ENV_THREADS,
    EnvActionError,
    LudoEnvCore,
    LudoVectorCore,
)

__all__ = ["BatchPolicy", "LudoVectorEnv"]

_INT64 = np.dtype(np.int64)

BatchPolicy = Callable[[np.ndarray, np.ndarray], Any]
"""A policy for a whole batch: ``policy(obs, masks) -> actions``, with ``obs`` a float32
array ``(k, observation length)``, ``masks`` an int8 array ``(k, tokens)`` and one action
(an int) per row back."""


class LudoVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """`num_envs` games of one learner against opponents, stepped together in Rust with
    the interpreter released.

    ``LudoVectorEnv(num_envs, rules="cs162", players=2, seat=0, opponents="random",
    seed=None, skip_forced=False, max_rolls=10_000, threads=1,
    autoreset_mode=AutoresetMode.NEXT_STEP, **options)``. Environment ``i`` plays the
    games of a `LudoEnv` reset with ``seed + i`` (then reset without a seed after each
    episode), the same on any thread count.

    ``opponents`` (``"random"`` when None): a built-in bot's name for every other player,
    a list of names, or a
    batched policy ``f(obs, masks) -> actions`` (self-play: called once per round for all
    the environments where an opponent must move, with the observations from that
    opponent's point of view).

    ``seat="all"``: every player learns. Each row is then a decision of the player to act,
    from its point of view (``infos["player"]`` says whose); a row's reward is that of the
    player whose observation it is, and when an episode ends ``infos["final_rewards"]``
    (``num_envs x players``, flagged by ``infos["_final_rewards"]``) gives every player's.

    Autoreset (``metadata["autoreset_mode"]``): ``NEXT_STEP`` by default, as Gymnasium's
    vector wrappers expect: the step that ends an episode returns its last observation;
    the next step ignores that environment's action and starts a new episode.
    ``SAME_STEP``: the new episode starts at once, and the last observation is in
    ``infos["final_obs"]`` (rows flagged by ``infos["_final_obs"]``). ``infos["action_mask"]``
    holds the masks.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        rules: str = "cs162",
        players: int | str | list[str] = ENV_PLAYERS,
        seat: int | Literal["all"] = 0,
        opponents: str | Sequence[str] | BatchPolicy | None = None,
        seed: int | None = None,
        skip_forced: bool = False,
        max_rolls: int = ENV_MAX_ROLLS,
        threads: int = ENV_THREADS,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **options: Any,
    ) -> None:
        self._kwargs: dict[str, Any] = dict(
            num_envs=num_envs,
            rules=rules,
            players=players,
            seat=seat,
            opponents=opponents,
            seed=seed,
            skip_forced=skip_forced,
            max_rolls=max_rolls,
            threads=threads,
            autoreset_mode=autoreset_mode,
            **options,
        )
        self._policy: BatchPolicy | None = None
        names: Any = opponents
        if callable(opponents) and seat != "all":
            # Every other player is played by the policy (no bot: None).
            self._policy = opponents
            names = [None] * (len(LudoEnvCore(rules, players, **options).players) - 1)
        self._core = LudoVectorCore(
            num_envs,
            rules,
            players,
            seat=seat,
            opponents=names,
            seed=seed,
            skip_forced=skip_forced,
            max_rolls=max_rolls,
            threads=threads,
            autoreset=autoreset_mode,
            **options,
        )
        mode = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}[
            self._core.autoreset
        ]
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(
            0.0, 1.0, (self._core.observation_len,), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(self._core.tokens)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks = np.zeros((num_envs, self._core.tokens), dtype=np.int8)
        self._all = np.ones(num_envs, dtype=bool)
        self._shape = (num_envs,)

    @property
    def threads(self) -> int:
        """The threads a step uses."""
        return self._core.threads

    @property
    def skipped_games(self) -> int:
        """Games played out but not handed out as episodes, over all the environments:
        they ended before the learner's first decision (see docs/envs.md)."""
        return self._core.skipped_games

    @property
    def skipped_reward(self) -> float:
        """The learner's rewards in the skipped games, added up."""
        return self._core.skipped_reward

    def action_masks(self) -> np.ndarray:
        """The current action masks (num_envs x tokens, int8). A row of an environment
        whose episode just ended (next-step autoreset) is all 0: its next action is
        ignored."""
        return self._masks

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every environment: with an int seed, environment ``i`` with ``seed + i``;
        with a list, one seed each; without, each goes on with its own generator (seeded
        with the constructor's ``seed + i``)."""
        seeds: list[int] | None
        if seed is None:
            seeds = None
        elif isinstance(seed, int):
            seeds = [(seed + i) % 2**64 for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        obs, _, _, _, masks, _, _, _, players = self._core.reset(seeds, opponents=self._policy)
        self._masks = masks
        infos: dict[str, Any] = {"action_mask": masks, "_action_mask": self._all}
        if players is not None:
            infos["player"], infos["_player"] = players, self._all
        return obs, infos

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every environment with its action (one token index each). A refused action
        raises `EnvActionError` naming the environment, and nothing changes."""
        a = actions
        # The usual case (a NumPy array of int64, one per environment) goes straight to the
        # core, which checks every action.
        if type(a) is not np.ndarray or a.dtype is not _INT64 or a.shape != self._shape:
            a = self._actions(a)
        obs, rewards, terminated, truncated, masks, final_obs, ended, final_rewards, players = (
            self._core.step(a, opponents=self._policy)
        )
        self._masks = masks
        infos: dict[str, Any] = {"action_mask": masks, "_action_mask": self._all}
        if players is not None:
            infos["player"], infos["_player"] = players, self._all
        if final_rewards is not None:
            infos["final_rewards"], infos["_final_rewards"] = final_rewards, ended
        if final_obs is not None and ended is not None:
            # Gymnasium's same-step convention: an object array holding the last
            # observation of each environment that ended (None elsewhere), and its info.
            rows = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                rows[i] = final_obs[i]
            infos["final_obs"] = rows
            infos["_final_obs"] = ended
            infos["final_info"] = {
                "action_mask": np.zeros_like(masks),
                "_action_mask": ended,
            }
            infos["_final_info"] = ended
        return obs, rewards, terminated, truncated, infos

    def __getstate__(self) -> dict[str, Any]:
        """The constructor's arguments and every environment's snapshot (a Python
        opponents' policy is pickled with them if pickle can)."""
        return {"kwargs": self._kwargs, "snapshots": self._core.snapshots(), "masks": self._masks}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state["kwargs"])  # type: ignore[misc]
        self._core.load_snapshots(state["snapshots"])
        self._masks = state["masks"]

    def _actions(self, actions: Any) -> np.ndarray:
        """`actions` as an int64 array of one action per environment, or `EnvActionError`."""
        a = np.asarray(actions)
        if a.dtype.kind not in "iu" or a.shape != self._shape:
            raise EnvActionError(
                f"actions must be {self.num_envs} ints (one per environment), "
                f"not an array of {a.dtype} with shape {a.shape}"
            )
        if a.dtype != np.int64:
            if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
                raise EnvActionError(f"actions out of range: {a.max()}")
            a = a.astype(np.int64)
        return a
