"""The Onitama learning environment `LudoGame.envs.onitama_v0` and the engine calls under it.

1. PettingZoo's own checks (api_test, seed_test, render_test) on the dealt-cards start, a
   few coursework setups and a given card set. (max_cycles_test needs a parallel env with
   a `max_cycles` argument; a turn-based game has neither, its ply limit is tested here.)
2. The action numbering as documented, the mask and the observation from both sides.
3. Rewards, truncation by the ply limit, and stepping a finished env.
4. Bad actions (out of range, wrong type, not in the mask) raise an `OnitamaError` naming
   the legal numbers and change nothing; a hypothesis test that every masked action plays
   and every unmasked one raises.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from LudoGame.envs import onitama_v0  # noqa: E402
from LudoGame.onitama import (  # noqa: E402
    IllegalActionError,
    InvalidActionError,
    InvalidBoardError,
    Onitama,
    OnitamaError,
    UnknownSetupError,
)

CARD_SET = ["Tiger", "Crab", "Monkey", "Crane", "Dragon"]
SETUPS: list[Any] = [None, 21, "aitest1_B", "readme_no_move", CARD_SET]


def quiet(check: Callable[[], None]) -> None:
    """Run a PettingZoo check without its style recommendations (agent names 'A'/'B')."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check()


def play_random(env: Any, rng: Any, plies: int) -> None:
    """Play up to `plies` random legal actions (fewer if the game ends)."""
    for _ in range(plies):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def snapshot(env: Any) -> tuple[Any, ...]:
    """Everything a refused step must leave as it was."""
    obs = env.observe(env.agent_selection)
    return (
        env.unwrapped.game.to_json(),
        env.agent_selection,
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        {a: dict(i) for a, i in env.infos.items()},
        obs["observation"].tobytes(),
        obs["action_mask"].tobytes(),
    )


# ---- 1. PettingZoo's own test suite ----


@pytest.mark.parametrize("setup", SETUPS, ids=str)
def test_pettingzoo_api(setup: Any) -> None:
    quiet(lambda: api_test(onitama_v0.env(setup=setup, max_plies=30), num_cycles=200))


@pytest.mark.parametrize("setup", [None, 22, CARD_SET], ids=str)
def test_pettingzoo_seed(setup: Any) -> None:
    quiet(lambda: seed_test(lambda: onitama_v0.env(setup=setup), num_cycles=60))


def test_pettingzoo_render(capsys: pytest.CaptureFixture[str]) -> None:
    quiet(lambda: render_test(lambda render_mode=None: onitama_v0.env(render_mode=render_mode)))
    assert "Player A" in capsys.readouterr().out  # "human" printed the drawing
    env = onitama_v0.env(render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == str(env.unwrapped.game)
    env = onitama_v0.env(render_mode="svg")
    env.reset(seed=3)
    assert env.render().startswith("<svg")
    env = onitama_v0.env(render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert first.shape == (216, 320, 3) and first.dtype == np.uint8
    play_random(env, np.random.default_rng(3), 1)
    assert not np.array_equal(env.render(), first)


def test_bad_construction() -> None:
    with pytest.raises(UnknownSetupError):
        onitama_v0.env(setup=99)
    with pytest.raises(OnitamaError):
        onitama_v0.env(setup=["Tiger", "Crab"])
    with pytest.raises(InvalidBoardError):
        onitama_v0.env(max_plies=0)
    with pytest.raises(ValueError, match="render_mode"):
        onitama_v0.env(render_mode="rgb")


def test_import_without_the_rl_packages() -> None:
    code = (
        "import sys\n"
        "for m in ('numpy', 'gymnasium', 'pettingzoo'): sys.modules[m] = None\n"
        "import LudoGame, LudoGame.onitama\n"
        "g = LudoGame.onitama.Onitama.dealt(1)\n"
        "print(g.legal_action_indices()[:1], g.play_index(g.legal_action_indices()[0]))\n"
        "try:\n"
        "    import LudoGame.envs\n"
        "except ImportError as e:\n"
        "    print('refused:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    # The games work; the environments say which extra they need.
    assert "refused:" in out.stdout and '".[rl]"' in out.stdout, out.stdout


# ---- 2. Numbering, mask, observation ----


def test_numbering_as_documented() -> None:
    game = Onitama.setup(22)  # A to move
    sq = {f"{r}{c}": i for i, (r, c) in enumerate((r, c) for r in "abcde" for c in "12345")}
    legal = game.legal_moves
    for action in legal:
        slot = action.card - 1
        if action.is_pass:
            continue
        wall = 5 if action.wall is None else "urdls".index(action.wall)
        want = ((slot * 25 + sq[action.move_from]) * 25 + sq[action.move_to]) * 6 + wall
        assert game.action_index(action) == want
        assert game.action_of(want) == action
    assert sorted(game.action_index(a) for a in legal) == game.legal_action_indices()
    game.play(legal[0])  # B to move: squares turned 180 degrees, u/d and r/l swapped
    turn = {"u": "d", "d": "u", "r": "l", "l": "r", "s": "s"}
    for action in game.legal_moves:
        wall = 5 if action.wall is None else "urdls".index(turn[action.wall])
        f, t = 24 - sq[action.move_from], 24 - sq[action.move_to]
        assert game.action_index(action) == ((action.card - 1) * 25 + f) * 25 * 6 + t * 6 + wall
    # Passes: 7500 + slot * 5 + wall (setup readme_no_move has only passes).
    stuck = Onitama.setup("readme_no_move")
    assert all(a.is_pass for a in stuck.legal_moves)
    for action in stuck.legal_moves:
        want = 7500 + (action.card - 1) * 5 + "urdls".index(action.wall)
        assert stuck.action_index(action) == want


def test_mask_and_observation_follow_the_game() -> None:
    env = onitama_v0.env(setup=None, max_plies=40)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    game = env.unwrapped.game
    for _ in range(25):
        agent = env.agent_selection
        obs, *_ = env.last()
        assert agent == game.turn
        assert list(np.flatnonzero(obs["action_mask"])) == game.legal_action_indices()
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (7510,)
        other = env.observe("B" if agent == "A" else "A")
        assert not other["action_mask"].any()
        assert np.array_equal(obs["observation"], game.observation(agent))
        planes = obs["observation"]
        assert planes.shape == (11, 5, 5) and planes.dtype == np.float32
        # Pieces: one own general on the board, the wall once; 1 / plies left.
        assert planes[0].sum() == 1 and planes[4].sum() == 1
        assert np.allclose(planes[10], 1 / game.plies_left)
        # Seen from the other side, the board is turned 180 degrees.
        theirs = game.observation("B" if agent == "A" else "A")
        assert np.array_equal(theirs[4], planes[4][::-1, ::-1])
        assert np.array_equal(theirs[0], planes[2][::-1, ::-1])
        play_random(env, rng, 1)
        if game.is_over():
            break


def test_seeded_deals() -> None:
    env = onitama_v0.env()
    decks = []
    for seed in range(8):
        env.reset(seed=seed)
        decks.append(env.unwrapped.game.to_notation())
        env.reset(seed=seed)
        assert env.unwrapped.game.to_notation() == decks[-1]
    assert len(set(decks)) == len(decks)
    assert Onitama.dealt(7).to_notation() == Onitama.dealt(7).to_notation()


# ---- 3. Rewards, ply limit, finished env ----


def finish(env: Any, seed: int) -> None:
    env.reset(seed=seed)
    play_random(env, np.random.default_rng(seed), 10_000)


def test_rewards_and_terminations() -> None:
    env = onitama_v0.env(max_plies=200)
    wins = 0
    for seed in range(30):
        finish(env, seed)
        game = env.unwrapped.game
        if game.winner is None:
            continue
        wins += 1
        winner, loser = game.winner, "B" if game.winner == "A" else "A"
        assert env.terminations == {"A": True, "B": True}
        assert env.truncations == {"A": False, "B": False}
        assert env.rewards == {winner: 1.0, loser: -1.0}
        assert env._cumulative_rewards == {winner: 1.0, loser: -1.0}
        # The dead steps: a real action is refused, None removes each agent.
        with pytest.raises(ValueError, match="None"):
            env.step(0)
        env.step(None)
        env.step(None)
        assert env.agents == []
    assert wins > 10


def test_ply_limit_truncates() -> None:
    env = onitama_v0.env(max_plies=4)
    ties = 0
    for seed in range(20):
        finish(env, seed)
        game = env.unwrapped.game
        if game.winner is not None:
            continue
        ties += 1
        assert len(game.history) == 4
        assert env.truncations == {"A": True, "B": True}
        assert env.terminations == {"A": False, "B": False}
        assert env.rewards == {"A": 0.0, "B": 0.0}
        _, reward, term, trunc, _ = env.last()
        assert (reward, term, trunc) == (0.0, False, True)
    assert ties > 10


# ---- 4. Bad actions ----


@pytest.mark.parametrize(
    ("action", "error"),
    [
        (7510, InvalidActionError),
        (-1, InvalidActionError),
        (10**30, InvalidActionError),
        ("3102", InvalidActionError),
        (3102.0, InvalidActionError),
        (True, InvalidActionError),
        (None, InvalidActionError),
        (0, IllegalActionError),
    ],
)
def test_bad_actions_raise_and_change_nothing(action: Any, error: type[Exception]) -> None:
    env = onitama_v0.env(setup=21)
    env.reset(seed=0)
    play_random(env, np.random.default_rng(0), 3)
    before = snapshot(env)
    legal = env.unwrapped.game.legal_action_indices()
    with pytest.raises(error) as info:
        env.step(action)
    message = str(info.value)
    assert "legal action numbers are" in message and str(legal[0]) in message
    if isinstance(action, int) and not isinstance(action, bool):
        assert str(action) in message
    assert snapshot(env) == before
    want = env.unwrapped.game.action_of(legal[-1])
    env.step(np.int64(legal[-1]))  # the env is still usable; NumPy integers are fine
    assert env.unwrapped.game.history[-1] == want


def test_numpy_integers_play() -> None:
    env = onitama_v0.env(setup=21)
    env.reset(seed=0)
    legal = env.unwrapped.game.legal_action_indices()
    env.step(np.int32(legal[0]))
    assert len(env.unwrapped.game.history) == 1
    assert env.agent_selection == "B"


@settings(
    max_examples=25,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(
    setup=st.sampled_from(SETUPS),
    seed=st.integers(0, 2**32),
    plies=st.integers(0, 30),
    probes=st.lists(st.integers(0, 7509), min_size=20, max_size=60),
)
def test_every_masked_action_plays_and_every_other_raises(
    setup: Any, seed: int, plies: int, probes: list[int]
) -> None:
    env = onitama_v0.env(setup=setup, max_plies=40)
    env.reset(seed=seed)
    play_random(env, np.random.default_rng(seed), plies)
    obs, _, term, trunc, _ = env.last()
    if term or trunc:
        return
    mask = obs["action_mask"]
    game = env.unwrapped.game
    for index in np.flatnonzero(mask):
        trial = game.copy()
        action = trial.play_index(int(index))
        assert trial.history[-1] == action == game.action_of(int(index))
    before = snapshot(env)
    for index in probes:
        if mask[index]:
            continue
        with pytest.raises(IllegalActionError, match=f"illegal action {index} "):
            env.step(index)
    assert snapshot(env) == before
    # Every unmasked number is refused by the engine too.
    refused = [i for i in range(0, 7510, 7) if not mask[i]]
    for index in refused:
        with pytest.raises(IllegalActionError):
            game.copy().play_index(index)


# ---- 5. Standard Onitama (rules="standard") ----

#: Standard options: deals from each card set, and five given cards.
STANDARD: list[dict[str, Any]] = [
    {"rules": "standard"},
    {"rules": "standard", "card_set": "sensei"},
    {"rules": "standard", "card_set": "all"},
    {"rules": "standard", "setup": ["Sea Snake", "Kirin", "Ox", "Boar", "Crab"]},
]


@pytest.mark.parametrize("options", STANDARD, ids=str)
def test_standard_pettingzoo_api_and_seed(options: dict[str, Any]) -> None:
    quiet(lambda: api_test(onitama_v0.env(max_plies=30, **options), num_cycles=200))
    quiet(lambda: seed_test(lambda: onitama_v0.env(**options), num_cycles=60))


def test_standard_render() -> None:
    def make(render_mode: Any = None) -> Any:
        return onitama_v0.env(render_mode=render_mode, rules="standard")

    quiet(lambda: render_test(make))
    env = onitama_v0.env(rules="standard", render_mode="ansi")
    env.reset(seed=2)
    assert "W" not in env.render().replace("Wall", "")


@pytest.mark.parametrize("options", STANDARD[:3], ids=str)
def test_standard_numbering_mask_and_observation(options: dict[str, Any]) -> None:
    env = onitama_v0.env(max_plies=60, **options)
    rng = np.random.default_rng(11)
    for seed in range(6):
        env.reset(seed=seed)
        game = env.unwrapped.game
        want = Onitama.standard(
            seed=game_seed(env, seed), card_set=options.get("card_set", "base"), max_plies=60
        )
        assert game.to_notation() == want.to_notation()
        while not game.is_over():
            obs, *_ = env.last()
            legal = game.legal_action_indices()
            assert list(np.flatnonzero(obs["action_mask"])) == legal
            # No wall: a pawn move's wall part is 4 ('s'), a win's 5; a pass's 4.
            for i in legal:
                a = game.action_of(i)
                part = (i - 7500) % 5 if a.is_pass else i % 6
                assert part == (5 if a.is_win else 4), (i, a)
                assert len(str(a).split()) == 3
            planes = obs["observation"]
            assert planes.shape == (11, 5, 5) and not planes[4].any()
            assert planes[0].sum() == 1
            play_random(env, rng, 1)


def game_seed(env: Any, seed: int) -> int:
    """The deal seed `env.reset(seed=seed)` drew (its first draw from the seeded generator)."""
    return int(np.random.Generator(np.random.PCG64(seed)).integers(0, 2**63))


def test_standard_rewards_and_truncation() -> None:
    env = onitama_v0.env(rules="standard", card_set="all")
    wins = 0
    for seed in range(10):
        finish(env, seed)
        game = env.unwrapped.game
        assert game.rules == "standard"
        if game.winner is not None:
            wins += 1
            loser = "B" if game.winner == "A" else "A"
            assert env.rewards == {game.winner: 1.0, loser: -1.0}
    assert wins >= 8  # random play ends standard games long before 1000 plies
    env = onitama_v0.env(rules="standard", max_plies=2)
    finish(env, 1)
    assert env.truncations == {"A": True, "B": True}


def test_bad_standard_construction_and_actions() -> None:
    with pytest.raises(InvalidBoardError, match="wall-variant setup"):
        onitama_v0.env(rules="standard", setup=21)
    with pytest.raises(OnitamaError, match="card_set"):
        onitama_v0.env(card_set="sensei")
    with pytest.raises(OnitamaError, match="card_set"):
        onitama_v0.env(rules="standard", card_set="all", setup=CARD_SET)
    with pytest.raises(OnitamaError, match="base, sensei, all"):
        onitama_v0.env(rules="standard", card_set="promo")
    with pytest.raises(OnitamaError):
        onitama_v0.env(rules="standard", setup=["Ox", "ox", "Boar", "Crab", "Tiger"])
    with pytest.raises(ValueError, match="rules"):
        onitama_v0.env(rules="chess")  # type: ignore[arg-type]
    env = onitama_v0.env(rules="standard")
    env.reset(seed=4)
    before = snapshot(env)
    legal = env.unwrapped.game.legal_action_indices()
    wall_step = next(i - 4 for i in legal if i % 6 == 4)  # the same move with the wall 'u'
    with pytest.raises(IllegalActionError):
        env.step(wall_step)
    with pytest.raises(InvalidActionError):
        env.step(7510)
    assert snapshot(env) == before
