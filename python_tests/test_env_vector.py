"""The vector environment: the same games as single environments seeded the same way, on
any thread count, and a refused batch changes nothing."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from LudoGame import LudoError  # noqa: E402
from LudoGame.envs import EnvActionError, LudoEnv, LudoVectorEnv  # noqa: E402

SAME = AutoresetMode.SAME_STEP


def final_rows(info: dict) -> np.ndarray:
    """The final observations of a same-step batch as one 2-D array (zeros where none)."""
    rows = info["final_obs"]
    width = next(len(r) for r in rows if r is not None)
    return np.stack([np.zeros(width, np.float32) if r is None else r for r in rows])


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One random legal action per row of `masks` (0 where no action is legal)."""
    scores = rng.random(masks.shape) * masks
    return scores.argmax(axis=1).astype(np.int64)


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP])
@pytest.mark.parametrize(
    ("rules", "players", "opponents", "max_rolls"),
    [
        ("cs162", 2, "random", 120),
        ("standard", 4, ["cs162", "random", "aggressive"], 700),
        ("gt", 3, "safe", 10_000),
    ],
)
def test_vector_env_agrees_with_single_envs(
    rules: str, players: int, opponents: str | list[str], max_rolls: int, mode: AutoresetMode
) -> None:
    n, seed, steps = 6, 40, 1500
    kw = dict(rules=rules, players=players, opponents=opponents, max_rolls=max_rolls)
    vectors = [LudoVectorEnv(n, seed=seed, threads=t, autoreset_mode=mode, **kw) for t in (1, 2)]
    pending = [False] * n
    singles = [LudoEnv(**kw) for _ in range(n)]
    firsts = [v.reset() for v in vectors]
    obs = np.stack([s.reset(seed=seed + i)[0] for i, s in enumerate(singles)])
    for vobs, _ in firsts:
        assert np.array_equal(vobs, obs)
    masks = np.stack([s.action_masks() for s in singles])
    rng = np.random.default_rng(1)
    ends = truncations = 0
    for _ in range(steps):
        actions = random_actions(rng, masks)
        results = [v.step(actions) for v in vectors]
        for i, s in enumerate(singles):
            if pending[i]:  # next-step autoreset: this step starts the next episode
                o, info = s.reset()
                r, te, tr, pending[i] = 0.0, False, False, False
            else:
                o, r, te, tr, info = s.step(int(actions[i]))
            for _, vr, vte, vtr, vinfo in results:
                assert (vr[i], vte[i], vtr[i]) == (r, te, tr)
                if (te or tr) and mode == SAME:
                    assert vinfo["_final_obs"][i] and vinfo["_final_info"][i]
                    assert np.array_equal(vinfo["final_obs"][i], o)
            if te or tr:
                ends += 1
                truncations += tr
                if mode == SAME:
                    o, info = s.reset()
                else:
                    pending[i] = True
                    assert not info["action_mask"].any()
            obs[i], masks[i] = o, info["action_mask"]
        for vo, _, _, _, vinfo in results:
            assert np.array_equal(vo, obs)
            assert np.array_equal(vinfo["action_mask"], masks)
    assert ends > 10
    if max_rolls < 1000:
        assert 0 < truncations < ends


def test_vector_env_spaces_and_errors() -> None:
    v = LudoVectorEnv(4, rules="standard", seed=1)
    obs, info = v.reset()
    assert obs.shape == (4, 62) and obs.dtype == np.float32
    assert v.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (4, 4)
    assert v.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert LudoVectorEnv(2, autoreset_mode="same_step").metadata["autoreset_mode"] == SAME
    assert type(v).metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    with pytest.raises(LudoError, match="autoreset"):
        LudoVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)
    before = obs.copy()
    good = random_actions(np.random.default_rng(0), info["action_mask"])
    bad = good.copy()
    bad[2] = 9
    with pytest.raises(EnvActionError, match=r"environment 2: action 9 is not legal now"):
        v.step(bad)
    for wrong in [good[:3], good.astype(float), ["0"] * 4]:
        with pytest.raises(EnvActionError):
            v.step(wrong)
    assert issubclass(EnvActionError, LudoError)
    # Nothing changed: the good actions give what a fresh twin gives.
    twin = LudoVectorEnv(4, rules="standard", seed=1)
    twin.reset()
    a, b = v.step(good.astype(np.int32)), twin.step(good)
    assert np.array_equal(before, twin.reset(seed=1)[0])
    assert np.array_equal(a[0], b[0])
    with pytest.raises(TypeError, match="built-in bot name"):
        LudoVectorEnv(2, opponents=[print])  # type: ignore[list-item]
    with pytest.raises(LudoError):
        LudoVectorEnv(0)


def test_vector_env_action_forms_and_final_obs() -> None:
    # An int64 array, a strided one and a list give the same steps; final_obs and its
    # flags come only with a step where an episode ended, zeros in the other rows.
    envs = [LudoVectorEnv(4, seed=3, autoreset_mode=SAME) for _ in range(3)]
    infos = [e.reset()[1] for e in envs]
    rng = np.random.default_rng(2)
    quiet = ends = 0
    for _ in range(300):
        good = random_actions(rng, infos[0]["action_mask"])
        forms = [good, np.repeat(good, 2)[::2], good.tolist()]
        results = [e.step(f) for e, f in zip(envs, forms, strict=True)]
        _, _, te, tr, info = results[0]
        for other in results[1:]:
            assert all(np.array_equal(x, y) for x, y in zip(other[:4], results[0][:4], strict=True))
            assert other[4].keys() == info.keys()
            if "final_obs" in info:
                assert np.array_equal(final_rows(other[4]), final_rows(info))
        if "final_obs" in info:
            ends += 1
            assert np.array_equal(info["_final_obs"], te | tr)
            assert np.array_equal(info["_final_info"], te | tr)
            rows = info["final_obs"]
            assert rows.dtype == object and rows.shape == (4,)
            assert all((r is None) == (not f) for r, f in zip(rows, te | tr, strict=True))
        else:
            quiet += 1
            assert not (te | tr).any()
        infos = [r[4] for r in results]
    assert quiet > 10 and ends > 10


def test_vector_env_arrays_held_by_the_caller_never_change() -> None:
    # A batch may fill the arrays of an earlier batch that nothing holds any more; arrays
    # still held (and their views) keep their values, and a refilled array is whole.
    v = LudoVectorEnv(8, seed=4, autoreset_mode=SAME)
    twin = LudoVectorEnv(8, seed=4, autoreset_mode=SAME)
    obs, info = v.reset()
    twin.reset()
    rng = np.random.default_rng(5)
    held: list[tuple[np.ndarray, np.ndarray]] = []
    for k in range(60):
        actions = random_actions(rng, info["action_mask"])
        obs, _, _, _, info = v.step(actions)
        tobs, _, _, _, tinfo = twin.step(actions)
        assert np.array_equal(obs, tobs)
        assert ("final_obs" in info) == ("final_obs" in tinfo)
        if "final_obs" in info:
            assert np.array_equal(final_rows(info), final_rows(tinfo))
        if k % 3 == 0:
            view = obs[1:]
            held.append((view, view.copy()))
            if "final_obs" in info:
                row = next(r for r in info["final_obs"] if r is not None)
                held.append((row, row.copy()))
    assert all(np.array_equal(a, b) for a, b in held)


def test_arrays_written_into_by_the_caller_and_dropped_never_leak_into_later_batches() -> None:
    # A usual loop normalises observations in place and drops them; a batch that fills a
    # dropped array again must give exactly what fresh arrays would.
    v = LudoVectorEnv(8, seed=6, autoreset_mode=SAME)
    twin = LudoVectorEnv(8, seed=6, autoreset_mode=SAME)
    _, info = v.reset()
    twin.reset()
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(200):
        actions = random_actions(rng, info["action_mask"])
        obs, _, _, _, info = v.step(actions)
        tobs, _, _, _, tinfo = twin.step(actions)
        assert np.array_equal(obs, tobs)
        if "final_obs" in tinfo:
            ended += 1
            assert np.array_equal(final_rows(info), final_rows(tinfo))
            for row in info["final_obs"]:
                if row is not None:
                    row += 7.0
        obs -= 3.0
        del obs, tobs
    assert ended > 5


CHILD = """
import time
import numpy as np
from LudoGame import LudoError
from LudoGame.envs import LudoVectorEnv
v = LudoVectorEnv(8, opponents="mcts:200000", seed=1)
actions = np.zeros(8, dtype=np.int64)
print("STARTED", flush=True)
try:
    v.reset()  # several seconds of searching opponents
except KeyboardInterrupt as e:
    print("stopped", type(e).__name__, flush=True)
try:
    v.step(actions)
except LudoError as e:
    print("refused:", e, flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_stops_a_reset_of_searching_bots() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True, bufsize=1
    )
    try:
        assert child.stdout is not None
        assert "STARTED" in child.stdout.readline()
        time.sleep(0.3)
        assert child.poll() is None, "the step ended before it was interrupted"
        t0 = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=30)
        elapsed = time.monotonic() - t0
    finally:
        if child.poll() is None:
            child.kill()
    assert "stopped Interrupted" in out or "stopped KeyboardInterrupt" in out, out
    assert "refused: no episode is running: call reset() first" in out
    assert elapsed < 2.5
