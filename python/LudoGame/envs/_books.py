"""The PettingZoo books both games' AEC environments keep, opened the same way."""

from __future__ import annotations

from typing import Any


def open_books(env: Any) -> None:
    """Start a new game's books on `env`: every agent in play, with no reward, no ending
    and empty infos."""
    env.agents = env.possible_agents[:]
    env.rewards = dict.fromkeys(env.agents, 0.0)
    env._cumulative_rewards = dict.fromkeys(env.agents, 0.0)
    env.terminations = dict.fromkeys(env.agents, False)
    env.truncations = dict.fromkeys(env.agents, False)
    env.infos = {a: {} for a in env.agents}
