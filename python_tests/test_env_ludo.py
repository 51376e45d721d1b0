"""The PettingZoo and Gymnasium Ludo environments: their own test suites, the rules of
stepping, and refused actions."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from LudoGame import (  # noqa: E402
    Game,
    GameOverError,
    InvalidArgumentError,
    InvalidBotError,
    LudoError,
)
from LudoGame._core import LudoEnvCore  # noqa: E402
from LudoGame.envs import EnvActionError, LudoEnv, ludo_v0  # noqa: E402

pytestmark = [
    # PettingZoo's checks warn about the dict observations of every classic environment.
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]

CASES = [(rules, n) for rules in ("cs162", "standard", "gt") for n in (2, 4)]


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_pettingzoo_api_and_seed(rules: str, players: int) -> None:
    api_test(ludo_v0.env(rules=rules, players=players), num_cycles=200)
    seed_test(lambda **kw: ludo_v0.env(rules=rules, players=players, **kw), num_cycles=200)


def test_pettingzoo_api_with_rule_options() -> None:
    # Rule options leave the presets (the engine then reads the rules at run time).
    make = ludo_v0.env
    api_test(make(rules="standard", players=3, own_tokens="block", safe_squares=True), 200)
    api_test(make(rules="cs162", skip_forced=True, six_bonus="always", capture_bonus=True), 200)
    seed_test(lambda **kw: make(rules="gt", tokens=1, end="full-ranking", **kw), num_cycles=200)
    e = ludo_v0.raw_env(rules="gt", players=3, tokens=1, end="full-ranking")
    _, totals = play_out(e, 4)
    assert sorted(totals.values()) == [-1.0, 0.0, 1.0]


def test_pettingzoo_render_modes() -> None:
    render_test(lambda render_mode=None: ludo_v0.env(rules="standard", render_mode=render_mode))
    e = ludo_v0.raw_env(rules="gt", players=2, render_mode="svg")
    e.reset(seed=1)
    assert e.render().startswith("<svg")
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(info["svg"].startswith("<svg") for info in e.infos.values())
    frame = ludo_v0.raw_env(rules="gt", players=2, render_mode="rgb_array")
    frame.reset(seed=1)
    picture = frame.render()
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
    with pytest.raises(ValueError, match="render_mode"):
        ludo_v0.raw_env(render_mode="rgb")


def play_out(e: ludo_v0.raw_env, seed: int) -> tuple[int, dict[str, float]]:
    """Play a game with random legal actions; return the steps and the final rewards."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = 0
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps, totals


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_games_end_with_ranked_rewards(rules: str, players: int) -> None:
    e = ludo_v0.raw_env(rules=rules, players=players)
    steps, totals = play_out(e, 3)
    assert steps > 10 and not e.agents
    values = sorted(totals.values(), reverse=True)
    if rules == "gt":  # the first player home wins; the rest lose
        assert values == [1.0] + [-1.0] * (players - 1)
    else:  # everyone is ranked: +1 down to -1 in even steps
        assert values == pytest.approx(list(np.linspace(1, -1, players)))


def test_skip_forced_hides_single_choices_and_max_rolls_truncates() -> None:
    e = ludo_v0.raw_env(rules="standard", players=4, skip_forced=True)
    e.reset(seed=5)
    for _, (obs, *_rest) in zip(range(300), iter(lambda: e.last(), None), strict=False):
        if not e.agents or e.terminations[e.agent_selection]:
            break
        assert obs["action_mask"].sum() >= 2
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    e = ludo_v0.raw_env(rules="cs162", players=2, max_rolls=30)
    _, totals = play_out(e, 2)
    assert totals == {"player_0": 0.0, "player_1": 0.0}
    e.reset(seed=2)
    while not e.truncations["player_0"]:
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert e._core.rolls == 30 and not any(e.terminations.values())


def test_observation_layout_matches_the_engine() -> None:
    e = ludo_v0.raw_env(rules="standard", players=["B", "D"])
    e.reset(seed=4)
    core = e._core
    assert core.players == ["B", "D"]
    obs = e.observe("player_0")["observation"]
    assert obs.dtype == np.float32 and obs.shape == (4 * 4 * 3 + 6 + 8,)
    # B first, C (absent), D, A (absent): all tokens in the yard.
    assert obs[:48].reshape(4, 4, 3)[:, 0].tolist() == [[0, 1, 0], [0] * 3, [0, 1, 0], [0] * 3]
    assert list(obs[54:58]) == [1, 0, 1, 0]
    # A 6 entered the first token: the die shows it to both players.
    assert list(obs[48:54]) == [0, 0, 0, 0, 0, 1]
    mover = core.to_move
    assert obs[58 + 2 * mover] == 1
    for bad in (2, -1, 2**64):
        with pytest.raises(InvalidArgumentError, match="player"):
            core.observe(bad)
        with pytest.raises(InvalidArgumentError, match="player"):
            core.action_mask(bad)


def test_bad_actions_raise_and_change_nothing() -> None:
    e = ludo_v0.env(rules="cs162", players=2)
    e.reset(seed=9)
    raw = e.unwrapped
    before = (raw._core.observe(0).copy(), raw._core.action_mask(0).copy(), e.agent_selection)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = [int(t) for t in np.flatnonzero(mask == 0)]
    with pytest.raises(EnvActionError, match="out of range"):
        e.step(2**70)
    for bad in [-1, 2, 99, *illegal]:
        with pytest.raises(EnvActionError, match=rf"action {bad} is not legal now") as info:
            e.step(bad)
        assert "legal actions are [" in str(info.value)
    for bad in [1.0, "0", True, [0], object()]:
        with pytest.raises(EnvActionError, match="not an int"):
            e.step(bad)
    assert isinstance(EnvActionError("x"), LudoError)
    after = (raw._core.observe(0), raw._core.action_mask(0), e.agent_selection)
    for x, y in zip(before, after, strict=True):
        assert np.array_equal(x, y)
    e.step(np.int64(np.flatnonzero(mask)[0]))  # NumPy integers are ints


def test_a_finished_aec_env_takes_only_none() -> None:
    e = ludo_v0.raw_env(rules="gt", players=2)
    play_out(e, 1)
    e.reset(seed=1)
    rng = np.random.default_rng(0)
    while not e.terminations[e.agent_selection]:
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    with pytest.raises(ValueError, match="None"):
        e.step(0)


@pytest.mark.parametrize("rules", ["cs162", "standard", "gt"])
def test_gymnasium_check_env(rules: str) -> None:
    check_env(gymnasium.make("LudoGame/Ludo-v0", rules=rules).unwrapped)
    mixed = gymnasium.make(
        "LudoGame/Ludo-v0",
        rules=rules,
        players=4,
        seat=2,
        opponents=["random", "mcts:20", lambda obs, mask: int(np.flatnonzero(mask)[-1])],
    )
    check_env(mixed.unwrapped)


def test_gym_env_plays_whole_games_against_bots_and_callables() -> None:
    seen = []

    def last_token(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append(obs.shape)
        return int(np.flatnonzero(mask)[-1])

    env = LudoEnv(rules="standard", players=3, seat=1, opponents=["cs162", last_token])
    rewards = []
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            assert info["action_mask"].any() and env.core.to_move == 1
            action = env.action_space.sample()
            assert info["action_mask"][action] == 1
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        rewards.append(reward)
        with pytest.raises(GameOverError, match="reset"):
            env.step(0)
    assert seen and set(rewards) <= {1.0, 0.0, -1.0}
    with pytest.raises(InvalidBotError):
        LudoEnv(opponents=["random", "random"])
    with pytest.raises(InvalidBotError):
        LudoEnv(opponents="nobody")
    with pytest.raises(InvalidBotError):
        LudoEnv(seat=2)


def test_gym_env_is_seeded_and_refuses_bad_actions() -> None:
    a, b = LudoEnv(rules="gt"), LudoEnv(rules="gt")
    oa, _ = a.reset(seed=3)
    ob, _ = b.reset(seed=3)
    for _ in range(200):
        assert np.array_equal(oa, ob)
        mask = a.action_masks()
        bad = int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else 7
        with pytest.raises(EnvActionError):
            a.step(bad)
        assert np.array_equal(a.core.observe(0), ob)
        act = int(np.flatnonzero(mask)[0])
        oa, ra, ta, ua, _ = a.step(act)
        ob, rb, tb, ub, _ = b.step(act)
        assert (ra, ta, ua) == (rb, tb, ub)
        if ta or ua:
            oa, _ = a.reset()
            ob, _ = b.reset()


def test_env_agrees_with_the_engine_game() -> None:
    # The dice and moves of an episode replay on a Game with the same rules.
    e = ludo_v0.raw_env(rules="cs162", players=2)
    e.reset(seed=12)
    text = e.render() if e.render_mode else e._core.render_text()
    assert "Player" in text
    assert e._core.rules_notation == Game(rules="cs162").rules_notation


def test_the_package_works_without_numpy() -> None:
    # NumPy and the RL libraries are optional: the games import without them, and the
    # environments say what is missing (never a crash inside the compiled core).
    import subprocess
    import sys

    code = """
import sys
sys.modules["numpy"] = None
import LudoGame
print(LudoGame.Game(seed=1).status)
from LudoGame._core import LudoEnvCore, LudoVectorCore
for make in (lambda: LudoEnvCore(seed=1), lambda: LudoVectorCore(2, seed=1)):
    try:
        make()
    except ImportError as e:
        print("ImportError", '".[rl]"' in str(e))
try:
    import LudoGame.envs
except ImportError as e:
    print("ImportError", '".[rl]"' in str(e))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:4] == ["Player A to roll the die."] + ["ImportError True"] * 3


ANY_ACTION = st.one_of(
    st.integers(0, 3),
    st.integers(-(2**70), 2**70),
    st.booleans(),
    st.floats(allow_nan=True),
    st.none(),
    st.text(max_size=2),
    st.builds(np.int8, st.integers(-128, 127)),
    st.builds(np.uint64, st.integers(0, 2**64 - 1)),
)


@given(
    rules=st.sampled_from(["cs162", "standard", "gt"]),
    players=st.integers(1, 4),
    seed=st.integers(0, 2**64 - 1),
    actions=st.lists(ANY_ACTION, max_size=60),
)
@settings(max_examples=80, deadline=None)
def test_any_action_is_played_or_refused_cleanly(
    rules: str, players: int, seed: int, actions: list[object]
) -> None:
    core = LudoEnvCore(rules, players, seed=seed, max_rolls=300)
    core.reset()
    for action in actions:
        if core.status != "decision":
            core.reset()
            continue
        mover = core.to_move
        assert mover is not None
        legal = {int(t) for t in np.flatnonzero(core.action_mask(mover))}
        assert legal
        before = [core.observe(p) for p in range(players)], core.rolls, mover
        is_int = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
        try:
            core.step(action)
        except EnvActionError as e:
            assert not is_int or int(action) not in legal  # type: ignore[call-overload]
            assert repr(action) in str(e) or str(action) in str(e)
            after = [core.observe(p) for p in range(players)], core.rolls, core.to_move
            assert all(np.array_equal(x, y) for x, y in zip(before[0], after[0], strict=True))
            assert before[1:] == after[1:]
        else:
            assert is_int and int(action) in legal  # type: ignore[call-overload]
