"""Onitama with a movable wall, or standard Onitama (``rules="standard"``: no wall, cards
dealt from the seed), as a PettingZoo AEC environment, on the Rust engine.

::

    from LudoGame.envs import onitama_v0

    env = onitama_v0.env(setup=None, max_plies=40)     # random cards from the seed
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

The agents are ``"A"`` and ``"B"``, the players. Actions are ``Discrete(7510)``: a fixed
numbering of (card slot, from, to, wall step or none) in the mover's view, then the passes
(``Onitama.action_index`` documents it). Observations are a dict: ``"observation"``, the
(11, 5, 5) float32 planes of ``Onitama.observation`` from the agent's point of view, and
``"action_mask"``, int8, 1 at every legal action (all 0 for the agent not to move). A win
gives +1 to the winner and -1 to the loser; everything else gives 0. The ply limit ends the
game as a truncation (a tie). The engine numbers, masks, encodes and plays; this module only
keeps PettingZoo's books.

Standard Onitama (``env(rules="standard", card_set="base")``) has the same spaces: its pawn
moves are numbered with the wall part 4 (``s``) and its winning moves with 5, its passes
with the wall part 4, and the wall plane of the observation is all 0 (docs/envs-onitama.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from LudoGame.envs._books import BookedAECEnv
from LudoGame.onitama import CARD_SETS, Card, InvalidBoardError, InvalidCardError, Onitama

__all__ = ["env", "raw_env", "SetupArg"]

#: A setup id (``21``, ``"aitest1_A"``; the wall variant only), five cards (A1, A2, B1, B2,
#: side: names, patterns or ``Card``s, or a mapping with those keys), or None for five
#: standard cards dealt from the seed at every reset.
SetupArg = int | str | Sequence[Card | str | Sequence[str]] | Mapping[str, Any] | None

_RENDER_MODES = ["human", "ansi", "rgb_array", "svg"]


def env(
    setup: SetupArg = None,
    max_plies: int | None = None,
    render_mode: Literal["human", "ansi", "rgb_array", "svg"] | None = None,
    rules: Literal["wall", "standard"] = "wall",
    card_set: str | None = None,
) -> AECEnv:
    """The Onitama environment wrapped as PettingZoo's classic environments are (order
    enforced). Bad actions are not turned into losses: they raise ``OnitamaError``s
    (``InvalidActionError``, ``IllegalActionError``) naming the legal action numbers."""
    return wrappers.OrderEnforcingWrapper(
        raw_env(
            setup=setup,
            max_plies=max_plies,
            render_mode=render_mode,
            rules=rules,
            card_set=card_set,
        )
    )


class raw_env(BookedAECEnv):  # noqa: N801 (PettingZoo's name)
    """Onitama with a movable wall, or standard Onitama: two agents, ``"A"`` and ``"B"``.

    ``setup``: a setup id, a set of five cards on the default start board, or None (cards
    dealt from the seed). ``max_plies``: the ply limit (both players' plies count); None
    keeps the setup's own (20 for the default board). ``render_mode``: "ansi" (the
    coursework's text drawing), "human" (that drawing printed), "rgb_array" (a picture) or
    "svg" (an SVG string). ``rules="standard"``: standard Onitama (no wall, 1000 plies
    unless ``max_plies``), five given cards (A moves first) or, with ``setup=None``, a
    deal from ``card_set`` ("base", the default, "sensei" or "all") at every reset, the
    side card's colour deciding who moves first.
    """

    metadata = {
        "name": "onitama_v0",
        "render_modes": _RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        setup: SetupArg = None,
        max_plies: int | None = None,
        render_mode: Literal["human", "ansi", "rgb_array", "svg"] | None = None,
        rules: Literal["wall", "standard"] = "wall",
        card_set: str | None = None,
    ) -> None:
        super().__init__()
        if rules not in ("wall", "standard"):
            raise ValueError(f"rules must be 'wall' or 'standard', not {rules!r}")
        if card_set is not None and (rules != "standard" or setup is not None):
            raise InvalidCardError(
                "card_set chooses the cards of a standard deal: give rules='standard' and "
                "setup=None"
            )
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {_RENDER_MODES} or None, not {render_mode!r}"
            )
        if isinstance(max_plies, bool) or not (max_plies is None or isinstance(max_plies, int)):
            raise TypeError(f"max_plies must be an int or None, not {type(max_plies).__name__}")
        if max_plies is not None and max_plies < 1:
            raise InvalidBoardError(f"max_plies must be at least 1, not {max_plies}")
        self.setup = setup
        self.rules = rules
        self.card_set = CARD_SETS[0] if card_set is None else card_set
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.game = self._new_game(0)  # checks the setup at once
        self.possible_agents = ["A", "B"]
        self.agents: list[str] = []
        n = Onitama.ACTION_COUNT
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=-1.0, high=1.0, shape=Onitama.OBSERVATION_SHAPE, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete[Any]] = {
            a: spaces.Discrete(n) for a in self.possible_agents
        }
        self.np_random, self.np_random_seed = seeding.np_random(None)

    def _new_game(self, deal_seed: int) -> Onitama:
        """The start of a game: the setup, the given cards, or cards dealt from `deal_seed`."""
        s = self.setup
        if self.rules == "standard":
            if s is None:
                return Onitama.standard(
                    seed=deal_seed, max_plies=self.max_plies, card_set=self.card_set
                )
            if isinstance(s, (int, str)):
                raise InvalidBoardError(
                    f"setup {s!r} is a wall-variant setup: standard Onitama takes five cards "
                    "or None (a deal from card_set)"
                )
            return Onitama.standard(cards=s, max_plies=self.max_plies)
        if s is None:
            return Onitama.dealt(deal_seed, max_plies=self.max_plies)
        if isinstance(s, (int, str)):
            return Onitama.setup(s, max_plies=self.max_plies)
        return Onitama(cards=s, max_plies=self.max_plies)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation dict's space (the same for both agents)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(7510)``, the fixed action numbering."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """`agent`'s view: its planes, and its mask (all 0 unless it is to move)."""
        game = self.game
        if agent == game.turn:
            mask = game.action_mask()
        else:
            mask = np.zeros(Onitama.ACTION_COUNT, dtype=np.int8)
        return {"observation": game.observation(agent), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; with `seed`, the dealt cards (and everything after) repeat."""
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        deal_seed = int(self.np_random.integers(0, 2**63))
        self.game = self._new_game(deal_seed)
        self.open_books()
        self.agent_selection = self.game.turn

    def step(self, action: Any) -> None:
        """Play action number `action` for the agent to move. A bad number raises (nothing
        changes); a finished agent must step None, as PettingZoo requires."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        played = self.game.play_index(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        game = self.game
        if game.is_over():
            winner = game.winner
            if winner is None:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.terminations = dict.fromkeys(self.agents, True)
                for a in self.agents:
                    self.rewards[a] = 1.0 if a == winner else -1.0
        for a in self.agents:
            self.infos[a] = {"last_action": str(played)}
        self.agent_selection = game.turn
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The position: text ("ansi"), printed ("human"), an RGB picture ("rgb_array",
        uint8 of shape (216, 320, 3)) or an SVG string ("svg")."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing drawn.")
            return None
        if self.render_mode == "rgb_array":
            return self.game.rgb_array()
        if self.render_mode == "svg":
            return self.game._repr_svg_()
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
