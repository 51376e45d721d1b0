"""Train one Ludo policy by self-play with PPO (PyTorch, CPU), then measure it against the
built-in bots.

Two-player standard Ludo (``rules="standard"``: four tokens each, observation of 62
values). One policy plays both seats: the learner's games run in two `LudoVectorEnv`s (half
of ``--envs`` with the learner in seat 0, half in seat 1), and the other seat is played by
the same network through the environments' batched-policy opponent
(``opponents=f(obs, masks) -> actions``, called once per round for every environment where
the opponent moves, with the observations from the opponent's point of view).
League-lite: every ``--snapshot-every`` (10) updates a frozen copy of the policy joins a
pool (the last ``--pool``, 20, are kept); each rollout's opponent is the current policy
with probability ``--p-current`` (0.5), else a snapshot drawn from the pool. Both sides
sample their moves; the learner's side alone is trained on.

The policy scores every token with the same small network (masked logits: an illegal
token gets -inf) from the observation plus features worked out from it in NumPy: for each
token, where its move lands, whether it leaves the yard, captures, reaches the home column
or finishes, how many opponent tokens stand 1-6 and 7-12 squares behind it before and
after the move (they could hit it), and how many stand 1-6 squares ahead (it could hit
them). Rollouts act with a NumPy copy of the weights; PPO (clip 0.2, 4 epochs of
minibatches of 4,096, Adam 1e-3, no discount, GAE lambda 0.95, entropy bonus 0.01) trains
the torch network on ``--envs`` x ``--steps`` learner steps per update. With
``skip_forced=True`` the environments play forced moves themselves, so the learner only
sees real choices.

    python examples/selfplay_ludo.py                    # the default run (about 12 min)
    python examples/selfplay_ludo.py --updates 30 --eval-games 1000      # a short look
    python examples/selfplay_ludo.py --quick            # a few seconds (the test's run)
    python examples/selfplay_ludo.py --save policy.pt   # keep the trained weights

At the end the trained policy plays greedily (its most likely legal token) ``--eval-games``
games against each of ``random``, ``cs162``, ``aggressive``, ``safe`` and ``expectimax:1``,
half with the learner in seat 0 and half in seat 1. Each evaluation environment plays the
same number of whole games, every one counted, so short games are not favoured; games the
environment played out before the learner's first decision (``env.skipped_games``) count
as played, with their result. It prints each win rate with its 95% Wilson interval, the
learner's environment steps per second over the training's wall time, the wall times of
training (curve included) and of evaluation, and a training curve (every ``--report``
updates: the learner's win rate in its training games since the last point, and the greedy
policy's win rates against ``random`` and ``aggressive`` over ``--curve-games`` games).

Everything is seeded from ``--seed`` (torch's initial weights and minibatch order, the
NumPy generators of both sides' moves, the opponent choice, the environments; the
evaluations use seeds apart from the training's), with one thread for torch
(``--torch-threads``) and for NumPy's BLAS: the same arguments give the same figures on
the same machine.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

# One BLAS thread: the many small NumPy products of a rollout run ten times slower when
# OpenBLAS shares each one out among threads (set before NumPy loads).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

from LudoGame.envs import LudoVectorEnv  # noqa: E402
from LudoGame.standings import wilson_interval  # noqa: E402

RULES = "standard"
TOKENS = 4
SEATS = 4  # the observation always describes four seats (those that do not play are 0)
FINISH = 56  # standard: steps 0-50 on the track, 51-55 the home column, 56 home
LAST_TRACK = 50
TRACK = 52
SPACING = 13  # squares between the start squares of neighbouring seats
BOTS = ("random", "cs162", "aggressive", "safe", "expectimax:1")
EVAL_SEED = 1_000_000_007  # evaluation games are seeded far from the training games
CURVE_SEED = 2_000_000_011
OBS_LEN = SEATS * TOKENS * 3 + 6 + 4 + 4  # 62

Tensor = torch.Tensor


def features(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Global features (B, 70) and one row of move features per own token (B, 4, 20),
    worked out in NumPy from a batch of observations (layout: docs/envs.md). They do not
    depend on the weights, so a rollout computes them once for acting and training."""
    b = obs.shape[0]
    tok = obs[:, : SEATS * TOKENS * 3].reshape(b, SEATS, TOKENS, 3)
    prog, yard = tok[..., 0], tok[..., 1] > 0.5
    base = SEATS * TOKENS * 3
    dice = obs[:, base : base + 6]
    plays = obs[:, base + 6 : base + 10] > 0.5
    step = np.where(yard, -1, np.rint(prog * FINISH)).astype(np.int32)  # (B, seats, tokens)
    roll = (dice.argmax(1) + 1) * (dice.sum(1) > 0.5)  # 0 when no roll is pending

    # The opponents' tokens on the track, as squares counted from the observer's start.
    seat_no = np.arange(1, SEATS).reshape(1, SEATS - 1, 1)
    ostep3 = step[:, 1:]
    on_track3 = (ostep3 >= 0) & (ostep3 <= LAST_TRACK) & plays[:, 1:, None]
    osq = np.where(on_track3, (SPACING * seat_no + ostep3) % TRACK, -100).reshape(b, 1, -1)
    ostep = ostep3.reshape(b, 1, -1)
    live0 = on_track3.reshape(b, 1, -1)
    # Opponents with tokens in the yard threaten their start square (entering captures).
    oyard = ((ostep3 < 0) & plays[:, 1:, None]).any(2)[:, None, :]  # (B, 1, seats-1)
    ostart = (SPACING * seat_no.reshape(1, 1, -1)) % TRACK

    own = step[:, 0]  # (B, tokens)
    r = roll[:, None]
    new = np.where(own < 0, np.where(r == 6, 0, -1), own + r)
    movable = (new != own) & (new <= FINISH) & (r > 0)
    new = np.where(movable, new, own)
    before = np.where((own >= 0) & (own <= LAST_TRACK), own, -1000)[:, :, None]
    after = np.where((new >= 0) & (new <= LAST_TRACK), new, -1000)[:, :, None]
    hit = (osq == after) & (after >= 0)  # (B, tokens, opponent tokens)
    alive = live0 & ~hit  # opponents still on the track after the move

    def behind(x: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Opponent tokens 1-6 and 7-12 squares behind square x that can get there."""
        d = (x - osq) % TRACK
        ok = (ostep + d <= LAST_TRACK) & live & (x >= 0)
        return (ok & (d >= 1) & (d <= 6)).sum(2), (ok & (d >= 7) & (d <= 12)).sum(2)

    def ahead(x: np.ndarray, s: np.ndarray, live: np.ndarray) -> np.ndarray:
        """Opponent tokens 1-6 squares ahead of square x that a token on step s can hit."""
        d = (osq - x) % TRACK
        return ((d >= 1) & (d <= 6) & (s[:, :, None] + d <= LAST_TRACK) & live & (x >= 0)).sum(2)

    def at_start(x: np.ndarray) -> np.ndarray:
        """1 where x is the start square of an opponent with tokens in its yard."""
        return ((x == ostart) & oyard).any(2)

    near0, far0 = behind(before, live0)
    near1, far1 = behind(after, alive)
    ownc = np.maximum(own, 0)
    move = np.stack(
        [
            movable,
            (own < 0) & movable,  # leaves the yard
            ownc / FINISH,
            np.maximum(new, 0) / FINISH,
            (new - ownc) * movable / 6,
            hit.sum(2),  # captures
            (new == FINISH) & movable,  # finishes
            (own <= LAST_TRACK) & (new > LAST_TRACK) & movable,  # reaches the home column
            own < 0,
            own > LAST_TRACK,
            near0 / 2,
            far0 / 2,
            at_start(before),
            near1 / 2,
            far1 / 2,
            at_start(after),
            ahead(before, own, live0) / 2,
            ahead(after, new, alive) / 2,
            before[:, :, 0] >= 0,
            after[:, :, 0] >= 0,
        ],
        axis=2,
        dtype=np.float32,
    )
    them = plays[:, 1:, None]
    oprog = (prog[:, 1:] * them).sum((1, 2)) / TOKENS
    mine = prog[:, 0].sum(1) / TOKENS
    extra = np.stack(
        [
            mine,
            oprog,
            mine - oprog,
            (own < 0).sum(1) / TOKENS,
            (yard[:, 1:] & them).sum((1, 2)) / TOKENS,
            (own == FINISH).sum(1) / TOKENS,
            ((ostep3 == FINISH) & them).sum((1, 2)) / TOKENS,
            near0.sum(1) / 2,  # own tokens' danger now
        ],
        axis=1,
        dtype=np.float32,
    )
    return np.concatenate([obs, extra], axis=1), move


class Policy(nn.Module):
    """A trunk over the global features; each token's logit from the trunk and that token's
    move features (the same weights for every token); a value head on the trunk."""

    def __init__(self, obs_len: int, hidden: int = 128) -> None:
        super().__init__()
        g, f = features(np.zeros((1, obs_len), np.float32))
        self.trunk = nn.Sequential(
            nn.Linear(g.shape[1], hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.from_trunk = nn.Linear(hidden, hidden)
        self.from_move = nn.Linear(f.shape[2], hidden, bias=False)
        self.logit = nn.Linear(hidden, 1)
        self.value = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        with torch.no_grad():  # start near the uniform policy
            self.logit.weight.mul_(0.01)
            self.logit.bias.zero_()

    def forward(self, glob: Tensor, move: Tensor, mask: Tensor) -> tuple[Tensor, Tensor]:
        """Masked logits (-inf for illegal tokens; a row without a legal token, a finished
        episode's last observation, gets 0s) and values."""
        h = self.trunk(glob)
        x = torch.relu(self.from_trunk(h)[:, None, :] + self.from_move(move))
        logits = self.logit(x).squeeze(2)
        legal = mask > 0
        legal = legal | ~legal.any(1, keepdim=True)
        logits = logits.masked_fill(~legal, float("-inf"))
        return logits, self.value(h).squeeze(1)


class Frozen:
    """A NumPy copy of a policy's weights, to act with in rollouts and evaluations (small
    batches, many calls: NumPy's overhead per call is far below torch's)."""

    def __init__(self, net: Policy) -> None:
        w = {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}
        self.t1, self.c1 = w["trunk.0.weight"].T, w["trunk.0.bias"]
        self.t2, self.c2 = w["trunk.2.weight"].T, w["trunk.2.bias"]
        self.ft, self.cf = w["from_trunk.weight"].T, w["from_trunk.bias"]
        self.fm = w["from_move.weight"].T
        self.lo, self.cl = w["logit.weight"][0], w["logit.bias"][0]
        self.v1, self.d1 = w["value.0.weight"].T, w["value.0.bias"]
        self.v2, self.d2 = w["value.2.weight"][0], w["value.2.bias"][0]

    def __call__(
        self, glob: np.ndarray, move: np.ndarray, mask: np.ndarray, value: bool = False
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """Masked logits (as `Policy.forward`) and, if asked, values."""
        h = np.maximum(glob @ self.t1 + self.c1, 0)
        h = np.maximum(h @ self.t2 + self.c2, 0)
        x = np.maximum((h @ self.ft + self.cf)[:, None, :] + move @ self.fm, 0)
        logits = x @ self.lo + self.cl
        legal = mask > 0
        legal |= ~legal.any(1, keepdims=True)
        logits = np.where(legal, logits, -np.inf)
        if not value:
            return logits, None
        return logits, np.maximum(h @ self.v1 + self.d1, 0) @ self.v2 + self.d2


def choose(logits: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
    """One token per row: sampled with `rng` (Gumbel-max), or the most likely one."""
    if rng is None:
        return logits.argmax(1)
    return (logits - np.log(-np.log(rng.random(logits.shape)))).argmax(1)


class Opponent:
    """The batched policy the environments call for the opponent's seat: `net` (a frozen
    policy, swapped between rollouts) samples with `rng`, or plays greedily (rng None)."""

    def __init__(self, net: Frozen, rng: np.random.Generator | None) -> None:
        self.net, self.rng = net, rng

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        glob, move = features(obs)
        return choose(self.net(glob, move, masks)[0], self.rng)


def evaluate(
    net: Frozen,
    opponent: str | Callable[[np.ndarray, np.ndarray], np.ndarray],
    games: int,
    seed: int,
    max_envs: int = 1000,
) -> tuple[int, int]:
    """Wins and games of the greedy policy against `opponent`, half the games in each
    seat. Each environment plays the same number of whole games; games that ended before
    the learner's first decision (skipped) count with their result."""
    learner = Opponent(net, None)
    wins = played = 0
    for seat in (0, 1):
        n_games = games // 2 + (games % 2 if seat == 0 else 0)
        if n_games == 0:
            continue
        envs = min(max_envs, n_games)
        while n_games % envs:
            envs -= 1
        per_env = n_games // envs
        env = LudoVectorEnv(
            envs,
            rules=RULES,
            players=2,
            seat=seat,
            opponents=opponent,
            seed=seed + 100_000 * seat,
            skip_forced=True,
        )
        obs, info = env.reset()
        done = np.zeros(envs, np.int64)
        while (done < per_env).any():
            obs, reward, term, trunc, info = env.step(learner(obs, info["action_mask"]))
            ended = (term | trunc) & (done < per_env)
            wins += int((reward[ended] > 0).sum())
            played += int(ended.sum())
            done += term | trunc
        # Skipped games: each reward is +1 (won) or -1 (lost); 0 if cut off by max_rolls
        # after 10,000 rolls, which never happens here.
        played += env.skipped_games
        wins += int(env.skipped_games + env.skipped_reward) // 2
    return wins, played


def rate(wins: int, games: int) -> str:
    lo, hi = wilson_interval(wins, games)
    return f"{wins / games:.3f} ({lo:.3f}-{hi:.3f})"


def train(args: argparse.Namespace) -> tuple[Policy, int, float]:
    """PPO by self-play; prints the curve. Returns the policy, the learner's environment
    steps and the training time."""
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)  # minibatch order
    rng = np.random.default_rng(args.seed)  # the learner's moves in rollouts
    pick = random.Random(args.seed)  # each rollout's opponent
    half = args.envs // 2
    net = Policy(OBS_LEN, args.hidden)
    optim = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)
    current = Frozen(net)
    opponent = Opponent(current, np.random.default_rng(args.seed + 1))
    envs = [
        LudoVectorEnv(
            half,
            rules=RULES,
            players=2,
            seat=seat,
            opponents=opponent,
            seed=args.seed * 1_000_003 + 10_000 * seat,
            skip_forced=True,
        )
        for seat in (0, 1)
    ]
    pool: list[Frozen] = [current]
    n, t_steps = 2 * half, args.steps
    g_len, f_len = net.trunk[0].in_features, net.from_move.in_features
    buf_glob = np.zeros((t_steps, n, g_len), np.float32)
    buf_move = np.zeros((t_steps, n, TOKENS, f_len), np.float32)
    buf_mask = np.zeros((t_steps, n, TOKENS), np.int8)
    buf_act = np.zeros((t_steps, n), np.int64)
    buf_logp = np.zeros((t_steps, n), np.float32)
    buf_val = np.zeros((t_steps + 1, n), np.float32)
    buf_rew = np.zeros((t_steps, n), np.float32)
    buf_done = np.zeros((t_steps, n), np.float32)
    states = [e.reset() for e in envs]
    obs = np.concatenate([s[0] for s in states])
    mask = np.concatenate([s[1]["action_mask"] for s in states])
    steps = games = won = 0
    start = time.perf_counter()
    clock = {"rollouts": 0.0, "PPO": 0.0, "curve": 0.0}
    for update in range(1, args.updates + 1):
        t0 = time.perf_counter()
        # League-lite: this rollout's opponent, the current policy or a past snapshot.
        opponent.net = current if pick.random() < args.p_current else pick.choice(pool)
        for t in range(t_steps):
            glob, move = features(obs)
            logits, value = current(glob, move, mask, value=True)
            a = choose(logits, rng)
            top = logits.max(1, keepdims=True)
            logz = top[:, 0] + np.log(np.exp(logits - top).sum(1))
            buf_glob[t], buf_move[t], buf_mask[t], buf_act[t] = glob, move, mask, a
            buf_logp[t] = logits[np.arange(n), a] - logz
            buf_val[t] = value
            out = [e.step(a[i * half : (i + 1) * half]) for i, e in enumerate(envs)]
            obs = np.concatenate([o[0] for o in out])
            mask = np.concatenate([o[4]["action_mask"] for o in out])
            reward = np.concatenate([o[1] for o in out])
            done = np.concatenate([o[2] | o[3] for o in out])
            buf_rew[t], buf_done[t] = reward, done
            games += int(done.sum())
            won += int((reward > 0).sum())
            steps += n
        buf_val[t_steps] = current(*features(obs), mask, value=True)[1]
        t1 = time.perf_counter()
        clock["rollouts"] += t1 - t0
        # A row whose mask is all 0 is an ended episode's last observation: no decision
        # (its action was ignored). It is left out of the loss, and its value is 0.
        valid = (buf_mask > 0).any(2)
        buf_val[:t_steps] *= valid
        adv = np.zeros((t_steps, n), np.float32)
        last = np.zeros(n, np.float32)
        for t in reversed(range(t_steps)):
            live = 1.0 - buf_done[t]
            delta = buf_rew[t] + args.gamma * buf_val[t + 1] * live - buf_val[t]
            last = delta + args.gamma * args.lam * live * last
            adv[t] = last
        ret = adv + buf_val[:t_steps]
        keep = valid.reshape(-1)
        b_glob = torch.from_numpy(buf_glob.reshape(-1, g_len)[keep])
        b_move = torch.from_numpy(buf_move.reshape(-1, TOKENS, f_len)[keep])
        b_mask = torch.from_numpy(buf_mask.reshape(-1, TOKENS)[keep])
        b_act = torch.from_numpy(buf_act.reshape(-1)[keep])
        b_logp = torch.from_numpy(buf_logp.reshape(-1)[keep])
        b_adv = torch.from_numpy(adv.reshape(-1)[keep])
        b_ret = torch.from_numpy(ret.reshape(-1)[keep])
        b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
        net.train()
        size = len(b_act)
        for _ in range(args.epochs):
            order = torch.randperm(size, generator=gen)
            for lo in range(0, size, args.minibatch):
                idx = order[lo : lo + args.minibatch]
                logits, value = net(b_glob[idx], b_move[idx], b_mask[idx])
                logp_all = torch.log_softmax(logits, 1)
                logp = logp_all.gather(1, b_act[idx, None]).squeeze(1)
                ratio = torch.exp(logp - b_logp[idx])
                a_ = b_adv[idx]
                pg = -torch.min(ratio * a_, ratio.clamp(1 - args.clip, 1 + args.clip) * a_)
                p = logp_all.exp()
                ent = -(p * logp_all.masked_fill(p == 0, 0.0)).sum(1)
                loss = (
                    pg.mean()
                    + args.vf * (value - b_ret[idx]).pow(2).mean()
                    - args.entropy * ent.mean()
                )
                optim.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                optim.step()
        current = Frozen(net)
        t2 = time.perf_counter()
        clock["PPO"] += t2 - t1
        if update % args.snapshot_every == 0:
            pool.append(current)
            del pool[: -args.pool]
        if update % args.report == 0 or update == args.updates:
            elapsed = time.perf_counter() - start
            line = (
                f"| {update:5d} | {steps:11,} | {elapsed:6.0f} | "
                f"{won / max(games, 1):.3f} ({games:,}) |"
            )
            if args.curve_games:
                for bot in ("random", "aggressive"):
                    w, g = evaluate(current, bot, args.curve_games, CURVE_SEED)
                    line += f" {w / g:.3f} |"
            print(line, flush=True)
            games = won = 0
        clock["curve"] += time.perf_counter() - t2
    print(", ".join(f"{k} {v:.0f} s" for k, v in clock.items()))
    return net, steps, time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--updates", type=int, default=150, help="PPO updates (150)")
    p.add_argument("--envs", type=int, default=512, help="learner games stepped together (512)")
    p.add_argument("--steps", type=int, default=64, help="rollout steps per update (64)")
    p.add_argument("--eval-games", type=int, default=2000, help="games per bot (2000)")
    p.add_argument("--seed", type=int, default=1, help="seed (1)")
    p.add_argument("--quick", action="store_true", help="a tiny run for tests")
    p.add_argument("--save", metavar="PATH", help="save the trained policy's weights")
    p.add_argument("--hidden", type=int, default=128, help="hidden units (128)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam step size (1e-3)")
    p.add_argument("--gamma", type=float, default=1.0, help="discount (1.0)")
    p.add_argument("--lam", type=float, default=0.95, help="GAE lambda (0.95)")
    p.add_argument("--clip", type=float, default=0.2, help="PPO clip (0.2)")
    p.add_argument("--epochs", type=int, default=4, help="PPO epochs per update (4)")
    p.add_argument("--minibatch", type=int, default=4096, help="minibatch size (4096)")
    p.add_argument("--vf", type=float, default=0.5, help="value loss weight (0.5)")
    p.add_argument("--entropy", type=float, default=0.01, help="entropy bonus (0.01)")
    p.add_argument("--p-current", type=float, default=0.5, help="P(current policy) (0.5)")
    p.add_argument("--snapshot-every", type=int, default=10, help="snapshot period (10)")
    p.add_argument("--pool", type=int, default=20, help="snapshots kept (20)")
    p.add_argument("--report", type=int, default=15, help="curve point every N updates (15)")
    p.add_argument("--curve-games", type=int, default=400, help="curve games per bot (400)")
    p.add_argument("--torch-threads", type=int, default=1, help="torch threads (1)")
    args = p.parse_args()
    if args.quick:
        args.updates, args.envs, args.steps = 3, 32, 16
        args.eval_games, args.report, args.curve_games = 20, 1, 20
        args.minibatch, args.snapshot_every = 256, 1
    if args.envs < 2:
        p.error("--envs must be at least 2 (one per seat)")
    torch.set_num_threads(args.torch_threads)
    print(
        f"self-play PPO on two-player {RULES} Ludo: {args.updates} updates x {args.envs} "
        f"games x {args.steps} steps, seed {args.seed}, torch threads {args.torch_threads}"
    )
    print("training curve (win rates of the greedy policy over the curve games):")
    print("| update | learner steps | s | training win rate (games) | vs random | vs aggressive |")
    print("|---:|---:|---:|---:|---:|---:|")
    net, steps, train_time = train(args)
    print(
        f"training: {steps:,} learner steps in {train_time:.0f} s = "
        f"{steps / train_time:,.0f} learner steps/s"
    )
    if args.save:
        torch.save(net.state_dict(), args.save)
        print(f"saved the policy's weights to {args.save}")
    start = time.perf_counter()
    print(f"evaluation: greedy policy, {args.eval_games:,} games per bot, half in each seat")
    for i, bot in enumerate(BOTS):
        wins, games = evaluate(Frozen(net), bot, args.eval_games, EVAL_SEED + 1_000_000 * i)
        print(f"vs {bot:<13} {wins:5,} wins in {games:5,} games = {rate(wins, games)}")
    print(f"evaluation time: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
