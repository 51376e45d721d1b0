"""The PettingZoo books both games' AEC environments keep, opened the same way."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv  # type: ignore[import-untyped]


class BookedAECEnv(AECEnv):  # type: ignore[misc]
    """An ``AECEnv`` with its per-agent books typed, and opened by ``open_books``."""

    rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]

    def open_books(self) -> None:
        """Start a new game's books: every agent in play, with no reward, no ending and
        empty infos."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
