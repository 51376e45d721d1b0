"""Learning environments on the LudoGame engines.

- ``ludo_v0``: the PettingZoo environment (AEC API): ``ludo_v0.env(rules=..., players=4)``;
- ``LudoEnv``: the Gymnasium environment of one learning seat against bots, registered as
  ``"LudoGame/Ludo-v0"`` (``gymnasium.make("LudoGame/Ludo-v0", rules="cs162")``);
- ``LudoVectorEnv``: a ``gymnasium.vector.VectorEnv`` whose whole batch steps in Rust;
- ``onitama_v0``: two-player Onitama with a movable wall (or standard Onitama,
  ``rules="standard"``), the PettingZoo environment
  (``onitama_v0.env(setup=..., max_plies=...)``).

They need NumPy, Gymnasium and PettingZoo: the ``rl`` extra, whose command
``LudoGame._install.install_hint("rl")`` gives (``pip install ".[rl]"`` in the LudoGame
source folder). The observation, action and reward are documented in ``docs/envs.md`` (Ludo) and
``docs/envs-onitama.md`` (Onitama).
"""

from importlib.util import find_spec

from LudoGame._install import install_hint

_missing = [name for name in ("numpy", "gymnasium", "pettingzoo") if find_spec(name) is None]
if _missing:  # pragma: no cover - depends on what is installed
    raise ImportError(f"LudoGame.envs needs {', '.join(_missing)}: {install_hint('rl')}")

import gymnasium  # noqa: E402

from LudoGame._core import EnvActionError  # noqa: E402
from LudoGame.envs import ludo_v0, onitama_v0  # noqa: E402
from LudoGame.envs.gym_ludo import LudoEnv  # noqa: E402
from LudoGame.envs.vector import LudoVectorEnv  # noqa: E402

LUDO_ID = "LudoGame/Ludo-v0"
"""The Gymnasium id of `LudoEnv`."""

if LUDO_ID not in gymnasium.registry:
    gymnasium.register(
        id=LUDO_ID,
        entry_point="LudoGame.envs.gym_ludo:LudoEnv",
        vector_entry_point="LudoGame.envs.vector:LudoVectorEnv",
    )

__all__ = ["LUDO_ID", "EnvActionError", "LudoEnv", "LudoVectorEnv", "ludo_v0", "onitama_v0"]
