"""Train a Ludo agent with NumPy alone, on the vector environment, and measure it.

An actor-critic (A2C with generalised advantage estimation) whose policy and value share
one small tanh layer learns to play two-player ``cs162`` Ludo against the ``random`` bot.
Every game runs in the Rust engine (``LudoVectorEnv``: 256 games stepped together); the
learning is a hundred lines of NumPy: forward pass, hand-written gradients, Adam.

    python examples/train_ludo.py                 # train, then evaluate over 10,000 games
    python examples/train_ludo.py --updates 20 --eval-games 1000      # a quick look

It prints the win rate of the untrained policy (uniformly random legal tokens), the trained
policy's win rate over the evaluation games with its 95% interval, the wall time, and for
comparison the win rate of the CS162 priority-rule bot in the same seat. The evaluation games
are seeded apart from the training games, and each evaluation environment plays the same
number of games, so short games are not favoured. Everything is seeded: the same arguments
give the same figures on any machine.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np

from LudoGame import simulate
from LudoGame.envs import LudoVectorEnv
from LudoGame.standings import wilson_interval

Array = np.ndarray


@dataclass
class Net:
    """A tanh layer feeding a policy head (one logit per token) and a value head."""

    w1: Array
    b1: Array
    wp: Array
    bp: Array
    wv: Array
    bv: Array
    names: tuple[str, ...] = field(default=("w1", "b1", "wp", "bp", "wv", "bv"), repr=False)

    @staticmethod
    def new(inputs: int, hidden: int, actions: int, rng: np.random.Generator) -> Net:
        """Small random weights (policy head near zero, so the first policy is uniform)."""
        return Net(
            w1=rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32),
            b1=np.zeros(hidden, np.float32),
            wp=rng.normal(0, 0.01, (hidden, actions)).astype(np.float32),
            bp=np.zeros(actions, np.float32),
            wv=rng.normal(0, 0.01, hidden).astype(np.float32),
            bv=np.zeros(1, np.float32),
        )

    def params(self) -> list[Array]:
        return [getattr(self, n) for n in self.names]

    def forward(self, obs: Array, mask: Array) -> tuple[Array, Array, Array]:
        """Hidden layer, action probabilities (zero where the mask forbids) and values."""
        h = np.tanh(obs @ self.w1 + self.b1)
        logits = h @ self.wp + self.bp
        # A row without a choice (an environment whose game ended before the agent had one)
        # gets a uniform policy; its action is ignored by the environment.
        mask = np.where(mask.any(axis=1, keepdims=True), mask, 1)
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits) * (mask > 0)
        p /= p.sum(axis=1, keepdims=True)
        return h, p, h @ self.wv + self.bv[0]


class Adam:
    """The Adam optimiser over a list of arrays, updated in place."""

    def __init__(self, params: list[Array], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, params: list[Array], grads: list[Array]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self.t)
            vh = v / (1 - b2**self.t)
            p -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def gradients(
    net: Net, obs: Array, mask: Array, act: Array, adv: Array, ret: Array, entropy: float
) -> list[Array]:
    """Gradients of the A2C loss: -log pi(a) * advantage - entropy bonus + value error."""
    n = len(obs)
    h, p, v = net.forward(obs, mask)
    # d(-log p[a])/d logits = p - onehot(a), weighted by the advantage.
    dlogits = p.copy()
    dlogits[np.arange(n), act] -= 1.0
    dlogits *= adv[:, None]
    # Entropy bonus: d(-H)/d logits = p * (log p + H), over the legal actions only.
    logp = np.log(np.where(p > 0, p, 1.0))
    ent = -(p * logp).sum(axis=1, keepdims=True)
    dlogits += entropy * p * (logp + ent)
    dlogits /= n
    dv = 0.5 * (v - ret) / n
    dh = (dlogits @ net.wp.T + np.outer(dv, net.wv)) * (1 - h * h)
    return [
        obs.T @ dh,
        dh.sum(axis=0),
        h.T @ dlogits,
        dlogits.sum(axis=0),
        h.T @ dv,
        np.array([dv.sum()], np.float32),
    ]


def choose(net: Net, obs: Array, mask: Array, rng: np.random.Generator, greedy: bool) -> Array:
    """One token per environment: sampled from the policy, or its most likely one."""
    _, p, _ = net.forward(obs, mask)
    if greedy:
        return p.argmax(axis=1)
    u = rng.random((len(p), 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


def evaluate(net: Net | None, games: int, envs: int, seed: int, rules: str) -> tuple[int, int]:
    """Wins and games of the policy (greedy; None: uniformly random legal tokens) against
    `random`, each environment playing `games // envs` whole games."""
    env = LudoVectorEnv(
        envs,
        rules=rules,
        players=2,
        opponents="random",
        skip_forced=True,
        autoreset_mode="same_step",
    )
    per_env = games // envs
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played = np.zeros(envs, np.int64)
    wins = 0
    while (played < per_env).any():
        mask = info["action_mask"]
        if net is None:
            act = choose_uniform(mask, rng)
        else:
            act = choose(net, obs, mask, rng, greedy=True)
        obs, reward, term, trunc, info = env.step(act)
        done = (term | trunc) & (played < per_env)
        wins += int((reward[done] > 0).sum())
        played += term | trunc
    # Games the opponent finished before the policy's first decision were played too (and
    # lost): the environment skipped them, and they count here.
    return wins, per_env * envs + env.skipped_games


def choose_uniform(mask: Array, rng: np.random.Generator) -> Array:
    """A uniformly random legal token per environment."""
    scores = rng.random(mask.shape) * (mask > 0)
    return scores.argmax(axis=1)


def train(args: argparse.Namespace) -> Net:
    """Run `args.updates` A2C updates of `args.steps` steps on `args.envs` games."""
    # Same-step autoreset: every row of every step is a decision to learn from.
    env = LudoVectorEnv(
        args.envs,
        rules=args.rules,
        players=2,
        opponents="random",
        skip_forced=True,
        autoreset_mode="same_step",
    )
    rng = np.random.default_rng(args.seed)
    obs, info = env.reset(seed=args.seed)
    d, a = env.single_observation_space.shape[0], env.single_action_space.n
    net = Net.new(d, args.hidden, int(a), rng)
    opt = Adam(net.params(), args.lr)
    t_steps, n = args.steps, args.envs
    buf_obs = np.zeros((t_steps, n, d), np.float32)
    buf_mask = np.zeros((t_steps, n, int(a)), np.int8)
    buf_act = np.zeros((t_steps, n), np.int64)
    buf_rew = np.zeros((t_steps, n), np.float32)
    buf_done = np.zeros((t_steps, n), np.float32)
    buf_val = np.zeros((t_steps + 1, n), np.float32)
    finished, won, total = 0, 0, 0
    for update in range(1, args.updates + 1):
        for t in range(t_steps):
            mask = info["action_mask"]
            _, _, value = net.forward(obs, mask)
            act = choose(net, obs, mask, rng, greedy=False)
            buf_obs[t], buf_mask[t], buf_act[t], buf_val[t] = obs, mask, act, value
            obs, reward, term, trunc, info = env.step(act)
            buf_rew[t], buf_done[t] = reward, term | trunc
            finished += int((term | trunc).sum())
            total += int((term | trunc).sum())
            won += int((reward > 0).sum())
        buf_val[t_steps] = net.forward(obs, info["action_mask"])[2]
        # Generalised advantage estimation; an ended game does not look past its end.
        adv = np.zeros((t_steps, n), np.float32)
        last = np.zeros(n, np.float32)
        for t in reversed(range(t_steps)):
            live = 1.0 - buf_done[t]
            delta = buf_rew[t] + args.gamma * buf_val[t + 1] * live - buf_val[t]
            last = delta + args.gamma * args.lam * live * last
            adv[t] = last
        ret = (adv + buf_val[:t_steps]).reshape(-1)
        flat_adv = adv.reshape(-1)
        flat_adv = (flat_adv - flat_adv.mean()) / (flat_adv.std() + 1e-8)
        flat_adv *= buf_mask.reshape(-1, int(a)).any(axis=1)  # no choice, nothing to learn
        grads = gradients(
            net,
            buf_obs.reshape(-1, d),
            buf_mask.reshape(-1, int(a)),
            buf_act.reshape(-1),
            flat_adv,
            ret,
            args.entropy,
        )
        opt.step(net.params(), grads)
        if update % args.report == 0 or update == args.updates:
            rate = won / max(finished, 1)
            print(f"update {update:4d}: {finished:6,} training games, win rate {rate:.3f}")
            finished, won = 0, 0
    print(f"training games in all: {total:,} (and {env.skipped_games:,} skipped)")
    return net


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="cs162", help="rule set (default: cs162)")
    p.add_argument("--updates", type=int, default=1000, help="policy updates (1000)")
    p.add_argument("--envs", type=int, default=256, help="games stepped together (256)")
    p.add_argument("--steps", type=int, default=32, help="steps per update and game (32)")
    p.add_argument("--hidden", type=int, default=64, help="hidden units (64)")
    p.add_argument("--lr", type=float, default=3e-3, help="Adam step size (3e-3)")
    p.add_argument("--gamma", type=float, default=0.995, help="discount (0.995)")
    p.add_argument("--lam", type=float, default=0.95, help="GAE lambda (0.95)")
    p.add_argument("--entropy", type=float, default=0.01, help="entropy bonus (0.01)")
    p.add_argument("--eval-games", type=int, default=10_000, help="evaluation games (10,000)")
    p.add_argument("--report", type=int, default=25, help="print every N updates (25)")
    p.add_argument("--seed", type=int, default=1, help="seed (1)")
    args = p.parse_args()

    start = time.perf_counter()
    eval_envs = min(1000, args.eval_games)
    eval_seed = 1_000_000_007 + args.seed
    wins, games = evaluate(None, args.eval_games, eval_envs, eval_seed, args.rules)
    print(f"untrained (uniform legal tokens) vs random: {wins / games:.3f} over {games:,} games")
    net = train(args)
    wins, games = evaluate(net, args.eval_games, eval_envs, eval_seed, args.rules)
    lo, hi = wilson_interval(wins, games)
    elapsed = time.perf_counter() - start
    print(
        f"trained policy vs random: {wins:,} wins in {games:,} games = {wins / games:.3f} "
        f"(95% interval {lo:.3f}-{hi:.3f}); {elapsed:.0f} s in all"
    )
    ref = simulate(args.rules, 2, ["cs162", "random"], games=games, seed=eval_seed)
    first = ref.players[0]
    print(
        f"for comparison, the CS162 priority-rule bot in the same seat vs random: "
        f"{ref.wins[first] / games:.3f}"
    )


if __name__ == "__main__":
    main()
