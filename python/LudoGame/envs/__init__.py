"""Learning environments for Ludo, played by the Rust engine.

- ``ludo_v0``: the PettingZoo environment (AEC API): ``ludo_v0.env(rules=..., players=4)``;
- ``LudoEnv``: the Gymnasium environment of one learning seat against bots, registered as
  ``"LudoGame/Ludo-v0"`` (``gymnasium.make("LudoGame/Ludo-v0", rules="cs162")``);
- ``LudoVectorEnv``: a ``gymnasium.vector.VectorEnv`` whose whole batch steps in Rust.

They need NumPy, Gymnasium and PettingZoo (``pip install "ludogame[rl]"``). The observation,
action and reward are documented in ``docs/envs.md``.
"""

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on what is installed
    raise ImportError(
        "LudoGame.envs needs numpy, gymnasium and pettingzoo: pip install 'ludogame[rl]'"
    ) from e

from LudoGame._core import EnvActionError
from LudoGame.envs import ludo_v0
from LudoGame.envs.gym_ludo import LudoEnv
from LudoGame.envs.vector import LudoVectorEnv

LUDO_ID = "LudoGame/Ludo-v0"
"""The Gymnasium id of `LudoEnv`."""

if LUDO_ID not in gymnasium.registry:
    gymnasium.register(id=LUDO_ID, entry_point="LudoGame.envs.gym_ludo:LudoEnv")

__all__ = ["LUDO_ID", "EnvActionError", "LudoEnv", "LudoVectorEnv", "ludo_v0"]
