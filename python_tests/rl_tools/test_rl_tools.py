"""The RL tools people already use, as they are written, on our environments:
Stable-Baselines3 and sb3-contrib, RLlib's and Tianshou's PettingZoo wrappers, SuperSuit.
Run by `bash .ci/check-rl-tools` (they need PyTorch)."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import supersuit  # type: ignore[import-untyped]
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv as RllibPettingZooEnv
from sb3_contrib import MaskablePPO  # type: ignore[import-untyped]
from sb3_contrib.common.maskable.utils import get_action_masks  # type: ignore[import-untyped]
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecVideoRecorder
from tianshou.env import PettingZooEnv as TianshouPettingZooEnv  # type: ignore[import-untyped]

import LudoGame.envs  # noqa: F401  (registers the ids)
from LudoGame.envs import LUDO_ID, LudoEnv, ludo_v0


@pytest.fixture(autouse=True)
def sb3_logs_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SB3's `learn` makes a log folder; without SB3_LOGDIR, a new one in /tmp each run."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3"))


def masked_actions(masks: np.ndarray) -> np.ndarray:
    """The first legal action of each row; 0 for a row whose episode just ended (next-step
    autoreset ignores its action)."""
    return masks.argmax(axis=1)


def test_make_vec_env_with_its_defaults_steps() -> None:
    venv = make_vec_env(LUDO_ID, n_envs=8)
    venv.seed(1)
    venv.reset()
    assert venv.render_mode == "rgb_array"
    for _ in range(300):
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(masks.argmax(axis=1))
    frame = venv.env_method("render", indices=[0])[0]
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    venv.close()


def test_maskable_ppo_learns_saves_loads_and_predicts(tmp_path: Path) -> None:
    venv = make_vec_env(LUDO_ID, n_envs=4, env_kwargs={"rules": "standard"}, seed=3)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, seed=0, device="cpu")
    model.learn(512)
    path = tmp_path / "ludo_ppo.zip"
    model.save(path)
    loaded = MaskablePPO.load(path, device="cpu")
    assert loaded.action_space == model.action_space
    obs = venv.reset()
    for _ in range(100):
        masks = get_action_masks(venv)
        actions, _ = loaded.predict(obs, action_masks=masks, deterministic=True)
        assert all(m[a] for m, a in zip(masks, actions, strict=True))
        obs, _, _, _ = venv.step(actions)
    venv.close()


def test_plain_ppo_with_skip_forced_runs() -> None:
    venv = make_vec_env(LUDO_ID, n_envs=2, env_kwargs={"skip_forced": True}, seed=1)
    PPO("MlpPolicy", venv, n_steps=32, batch_size=32, device="cpu").learn(64)


def test_subproc_vec_env_runs_the_env_in_worker_processes() -> None:
    venv = make_vec_env(
        LudoEnv, n_envs=2, vec_env_cls=SubprocVecEnv, seed=2, env_kwargs={"opponents": "cs162"}
    )
    venv.reset()
    for _ in range(200):
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(masks.argmax(axis=1))
    venv.close()


def test_vec_video_recorder_records(tmp_path: Path) -> None:
    venv = DummyVecEnv([lambda: LudoEnv(render_mode="rgb_array")])
    rec = VecVideoRecorder(
        venv,
        str(tmp_path),
        record_video_trigger=lambda s: s == 0,
        video_length=20,
        name_prefix="ludo",
    )
    rec.seed(4)
    rec.reset()
    for _ in range(25):
        masks = np.stack(rec.env_method("action_masks"))
        rec.step(masks.argmax(axis=1))
    rec.close()
    videos = list(tmp_path.glob("ludo*.mp4"))
    assert videos and videos[0].stat().st_size > 1000


def test_gymnasium_async_vector_env() -> None:
    envs = gym.make_vec(LUDO_ID, num_envs=2, vectorization_mode="async")
    _, info = envs.reset(seed=1)
    for _ in range(300):
        _, _, te, tr, info = envs.step(masked_actions(info["action_mask"]))
        assert np.array_equal(info["action_mask"].any(axis=1), ~(te | tr))
    envs.close()


def test_rllib_pettingzoo_wrapper_steps() -> None:
    env = RllibPettingZooEnv(ludo_v0.env(rules="cs162", players=2))
    obs, infos = env.reset(seed=2)
    steps = 0
    while steps < 2000:
        (agent,) = obs.keys()
        action = int(np.flatnonzero(obs[agent]["action_mask"])[0])
        obs, rewards, terms, truncs, infos = env.step({agent: action})
        steps += 1
        if terms["__all__"] or truncs["__all__"]:
            assert sum(rewards.values()) == 0
            obs, infos = env.reset()


def test_tianshou_pettingzoo_wrapper_steps() -> None:
    env = TianshouPettingZooEnv(ludo_v0.env(rules="standard", players=2))
    obs, info = env.reset(seed=3)
    for _ in range(2000):
        mask = np.asarray(obs["mask"])
        obs, rew, term, trunc, info = env.step(int(np.flatnonzero(mask)[0]))
        if term or trunc:
            obs, info = env.reset()


def test_supersuit_wrappers_take_the_flattened_observation() -> None:
    env = ludo_v0.env(rules="cs162", flatten_obs=True)
    env = supersuit.dtype_v0(supersuit.normalize_obs_v0(env, env_min=0, env_max=1), np.float32)
    env = supersuit.frame_stack_v1(env, 2)
    env.reset(seed=1)
    for _ in env.agent_iter(2000):
        obs, _, term, trunc, info = env.last()
        assert obs.shape == (2 * 40,)
        action = None if term or trunc else int(np.flatnonzero(info["action_mask"])[0])
        env.step(action)
