"""The conventions the standard RL tools check, on our environments: PettingZoo's own test
suite for every rule set and option, Gymnasium's vector API and wrappers, pickling and
copies, and no observation without a legal action."""

from __future__ import annotations

import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import vector as vector_wrappers
from pettingzoo.test import api_test, render_test, seed_test  # type: ignore[import-untyped]

import LudoGame.envs  # noqa: F401  (registers the ids)
from LudoGame.envs import LUDO_ID, EnvActionError, LudoEnv, LudoVectorEnv, ludo_v0
from LudoGame.envs.gym_ludo import TokenSpace

VARIANTS = [
    dict(rules="cs162"),
    dict(rules="standard", players=3),
    dict(rules="gt", skip_forced=True),
    dict(rules="standard[six_limit=3]", players=2),
    dict(rules="cs162", max_rolls=5),
    dict(rules="standard", max_rolls=2, players=4),
    dict(rules="cs162", flatten_obs=True),
]


@pytest.mark.parametrize("kwargs", VARIANTS, ids=str)
def test_pettingzoo_api_seed_and_render_tests(kwargs: dict) -> None:
    api_test(ludo_v0.env(**kwargs), num_cycles=300)
    seed_test(lambda: ludo_v0.env(**kwargs), num_cycles=100)
    render_test(lambda render_mode=None: ludo_v0.env(render_mode=render_mode, **kwargs))


@pytest.mark.parametrize("max_rolls", [2, 5, 10_000])
def test_pettingzoo_reset_never_hands_out_a_finished_game(max_rolls: int) -> None:
    env = ludo_v0.env(rules="cs162", players=2, max_rolls=max_rolls)
    for seed in range(300):
        env.reset(seed=seed)
        agent = env.agent_selection
        _, _, term, trunc, _ = env.last()
        assert not (term or trunc)
        assert env.observe(agent)["action_mask"].any()


def test_gym_env_every_reset_has_a_legal_action() -> None:
    # The seed first: its opponents once finished before the learner could move.
    for opponents in ["random", "cs162"]:
        env = gym.make(LUDO_ID, opponents=opponents)
        _, info = env.reset(seed=1000056)
        assert info["action_mask"].any()
    env = LudoEnv(opponents="cs162", max_rolls=15)
    skipped = 0
    for seed in range(10_000):
        _, info = env.reset(seed=seed) if seed % 100 == 0 else env.reset()
        assert info["action_mask"].any()
        skipped += info["skipped_games"]
    assert skipped == env.skipped_games > 0
    # The skipped games' results are kept for a fair count of wins.
    assert env.skipped_reward <= 0


def test_vector_env_a_million_steps_without_an_observation_lacking_a_legal_action() -> None:
    for mode, rules, max_rolls in [
        (AutoresetMode.NEXT_STEP, "cs162", 10_000),
        (AutoresetMode.SAME_STEP, "standard", 40),
    ]:
        n = 1000
        v = LudoVectorEnv(
            n, rules=rules, opponents="random", seed=9, max_rolls=max_rolls, autoreset_mode=mode
        )
        _, info = v.reset()
        rng = np.random.default_rng(0)
        for _ in range(500):
            masks = info["action_mask"]
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            _, _, te, tr, info = v.step(actions)
            ended = te | tr
            has_legal = info["action_mask"].any(axis=1)
            if mode == AutoresetMode.NEXT_STEP:
                assert np.array_equal(has_legal, ~ended)
            else:
                assert has_legal.all()
        assert v.skipped_games >= 0


def test_make_vec_gives_the_fast_vector_env_and_the_wrappers_accept_it() -> None:
    envs = gym.make_vec(LUDO_ID, num_envs=4, vectorization_mode="vector_entry_point", seed=1)
    assert isinstance(envs.unwrapped, LudoVectorEnv)
    assert isinstance(gym.make_vec(LUDO_ID, num_envs=3).unwrapped, LudoVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    wrapped = vector_wrappers.RecordEpisodeStatistics(
        vector_wrappers.NormalizeObservation(vector_wrappers.NormalizeReward(envs))
    )
    obs, info = wrapped.reset(seed=3)
    episodes = 0
    for _ in range(3000):
        mask = wrapped.unwrapped.action_masks()
        actions = wrapped.action_space.sample(mask=tuple(m for m in mask))
        obs, _, te, tr, info = wrapped.step(actions)
        assert obs.shape == (4, 38)
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 20


def test_sync_and_async_gymnasium_vectors_run_the_single_env() -> None:
    for mode in ["sync", "async"]:
        envs = gym.make_vec(LUDO_ID, num_envs=2, vectorization_mode=mode, opponents="cs162")
        obs, info = envs.reset(seed=5)
        for _ in range(200):
            actions = np.array(
                [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in info["action_mask"]]
            )
            obs, _, _, _, info = envs.step(actions)
        envs.close()


def test_envs_and_spaces_pickle_and_copy_exactly() -> None:
    env = LudoEnv(rules="standard", players=4, opponents=["cs162", "random", "safe"], seat=1)
    env.reset(seed=12)
    for _ in range(30):
        env.step(env.action_space.sample())
    clones = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    for clone in clones:
        assert clone.core.snapshot() == env.core.snapshot()
    for _ in range(200):
        a = env.action_space.sample()
        r1 = env.step(a)
        for clone in clones:
            r2 = clone.step(a)
            assert np.array_equal(r1[0], r2[0]) and r1[1:4] == r2[1:4]
        if r1[2] or r1[3]:
            first = env.reset()[0]
            assert all(np.array_equal(first, c.reset()[0]) for c in clones)
    assert all(c.action_space.sample() in range(4) for c in clones)
    space = pickle.loads(pickle.dumps(env.action_space))
    assert isinstance(space, TokenSpace) and space == gym.spaces.Discrete(4)
    assert space.sample(mask=np.array([0, 0, 1, 0], dtype=np.int8)) == 2
    # The PettingZoo environment too.
    aec = ludo_v0.raw_env(rules="gt")
    aec.reset(seed=3)
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    twin = pickle.loads(pickle.dumps(aec))
    assert twin.agent_selection == aec.agent_selection
    assert np.array_equal(
        twin.observe(twin.agent_selection)["observation"],
        aec.observe(aec.agent_selection)["observation"],
    )


def _module_level_opponent(obs: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[-1])


def test_python_opponents_pickle_when_pickle_can() -> None:
    env = LudoEnv(opponents=_module_level_opponent)
    env.reset(seed=1)
    clone = pickle.loads(pickle.dumps(env))
    assert clone.core.snapshot() == env.core.snapshot()
    lam = LudoEnv(opponents=lambda o, m: int(np.flatnonzero(m)[0]))
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(lam)


def test_batched_opponents_policy_self_play() -> None:
    calls = []

    def policy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        calls.append(len(obs))
        assert obs.dtype == np.float32 and masks.dtype == np.int8
        assert masks.any(axis=1).all()
        return masks.argmax(axis=1)

    v = LudoVectorEnv(64, rules="standard", opponents=policy, seed=2)
    _, info = v.reset()
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        masks = info["action_mask"]
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        _, r, te, tr, info = v.step(actions)
        ended += int((te | tr).sum())
        assert np.array_equal(info["action_mask"].any(axis=1), ~(te | tr))
    assert ended > 10 and len(calls) > 400
    # The same policy named as bots would be: a bad answer is a clear error.
    bad = LudoVectorEnv(4, opponents=lambda o, m: np.full(len(o), 7), seed=2)
    with pytest.raises(EnvActionError, match="the opponents' policy: environment"):
        for _ in range(50):
            _, info = bad.reset()
    short = LudoVectorEnv(4, opponents=lambda o, m: [0], seed=2)
    with pytest.raises(EnvActionError, match=r"must return \d+ ints"):
        for _ in range(50):
            short.reset()
