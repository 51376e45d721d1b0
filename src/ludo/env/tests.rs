use super::*;
use crate::ludo::rules::Preset;
use crate::ludo::seat::{seat_list, seat_no};

const PRESETS: [Rules; 3] = [Rules::CS162, Rules::STANDARD, Rules::GT];

fn seats(n: usize) -> Vec<Seat> {
    Rules::CS162.default_seats(n).unwrap()
}

/// A new environment with its first episode started.
fn started(config: EnvConfig, seed: u64) -> LudoEnv {
    let mut env = LudoEnv::new(config, seed).unwrap();
    assert_eq!(env.status(), Status::Idle);
    env.reset(None, None).unwrap();
    env
}

/// A random legal action of `env`, drawn with `rng`.
fn random_action(env: &LudoEnv, rng: &mut Rng) -> i64 {
    let mask = env.legal_mask();
    if mask == 0 {
        return 0; // no decision: the action is ignored
    }
    let k = rng.below(mask.count_ones());
    (0..8)
        .filter(|t| mask & (1 << t) != 0)
        .nth(k as usize)
        .unwrap() as i64
}

/// Play episodes with random actions, calling `each` at every decision.
fn explore(config: EnvConfig, episodes: u64, mut each: impl FnMut(&LudoEnv)) -> Vec<LudoEnv> {
    let mut ends = Vec::new();
    let mut rng = Rng::new(7);
    let mut env = started(config, 1);
    for _ in 0..episodes {
        while env.status() == Status::Decision {
            each(&env);
            let a = random_action(&env, &mut rng);
            env.step(a, None).unwrap();
        }
        ends.push(env.clone());
        env.reset(None, None).unwrap();
    }
    ends
}

#[test]
fn masks_match_legal_moves_and_turns_without_a_choice_pass() {
    for rules in PRESETS {
        for n in [2, 4] {
            for skip in [false, true] {
                let mut config = EnvConfig::agents(rules, &seats(n), 100_000);
                config.skip_forced = skip;
                let mut decisions = 0;
                let ends = explore(config, 20, |env| {
                    decisions += 1;
                    let g = env.game();
                    let legal = g.legal_moves();
                    assert!(legal.len() >= if skip { 2 } else { 1 });
                    let bits = legal.iter().fold(0u8, |m, mv| m | mv.token.bit());
                    assert_eq!(env.legal_mask(), bits);
                    let mover = env.to_move().unwrap();
                    assert_eq!(mover, g.current_player());
                    for seat in g.seats() {
                        let mut mask = [9i8; 4];
                        env.action_mask(seat, &mut mask);
                        let t = rules.tokens as usize;
                        for (k, &m) in mask[..t].iter().enumerate() {
                            let want = seat == mover && bits & (1 << k) != 0;
                            assert_eq!(m, i8::from(want));
                        }
                        assert!(mask[t..].iter().all(|&m| m == 9), "wrote past the tokens");
                    }
                });
                assert!(ends.iter().all(|e| e.status() == Status::Terminated));
                assert!(decisions > 100);
            }
        }
    }
}

#[test]
fn skip_forced_plays_single_moves_for_the_agent() {
    // The same dice and the same choices wherever there is a choice: skipping forced moves
    // only hides decisions, so both runs end in the same game.
    for rules in PRESETS {
        let mut plain = started(EnvConfig::agents(rules, &seats(2), 100_000), 3);
        let mut config = EnvConfig::agents(rules, &seats(2), 100_000);
        config.skip_forced = true;
        let mut skipping = started(config, 3);
        let (mut forced, mut chosen) = (0, 0);
        let mut rng = Rng::new(5);
        while plain.status() == Status::Decision {
            let a = if plain.legal_mask().count_ones() == 1 {
                forced += 1;
                plain.legal_mask().trailing_zeros() as i64
            } else {
                chosen += 1;
                let a = random_action(&plain, &mut rng);
                assert_eq!(skipping.game(), plain.game());
                skipping.step(a, None).unwrap();
                a
            };
            plain.step(a, None).unwrap();
        }
        assert!(forced > 0 && chosen > 0);
        assert_eq!(skipping.status(), Status::Terminated);
        assert_eq!(skipping.game(), plain.game());
    }
}

#[test]
fn rewards_follow_the_ranking() {
    for rules in PRESETS {
        for n in [2, 3, 4] {
            let ends = explore(EnvConfig::agents(rules, &seats(n), 100_000), 5, |_| {});
            for env in ends {
                let g = env.game();
                assert!(g.is_over());
                let ranking: Vec<Seat> = g.ranking().collect();
                let rewards: Vec<f32> = g.seats().map(|s| env.reward(s)).collect();
                if rules.end == EndCondition::FullRanking {
                    assert_eq!(ranking.len(), n);
                    for (rank, &seat) in ranking.iter().enumerate() {
                        let want = 1.0 - 2.0 * rank as f32 / (n - 1) as f32;
                        assert!((env.reward(seat) - want).abs() < 1e-6);
                    }
                    assert!(rewards.iter().sum::<f32>().abs() < 1e-5);
                } else {
                    for s in g.seats() {
                        let want = if Some(s) == g.winner() { 1.0 } else { -1.0 };
                        assert_eq!(env.reward(s), want);
                    }
                }
                let best = rewards.iter().cloned().fold(f32::MIN, f32::max);
                assert_eq!(best, 1.0);
                assert_eq!(env.reward(ranking[0]), 1.0);
            }
        }
    }
}

#[test]
fn rewards_are_zero_before_the_end_and_on_truncation() {
    let mut env = started(EnvConfig::agents(Rules::STANDARD, &seats(4), 40), 9);
    let mut rng = Rng::new(1);
    while env.status() == Status::Decision {
        assert!(env.game().seats().all(|s| env.reward(s) == 0.0));
        let a = random_action(&env, &mut rng);
        env.step(a, None).unwrap();
    }
    assert_eq!(env.status(), Status::Truncated);
    assert_eq!(env.rolls(), 40);
    assert!(env.game().seats().all(|s| env.reward(s) == 0.0));
    assert!(matches!(env.step(0, None), Err(EnvError::EpisodeOver(_))));
}

#[test]
fn bad_actions_change_nothing() {
    let mut env = started(EnvConfig::agents(Rules::CS162, &seats(2), 1000), 4);
    let mut rng = Rng::new(2);
    for _ in 0..30 {
        let before = env.clone();
        let mask = env.legal_mask();
        for bad in [-1, 2, 7, 8, 1 << 40]
            .into_iter()
            .chain((0..2).filter(|t| mask & (1 << t) == 0))
        {
            let err = env.step(bad, None).unwrap_err();
            let EnvError::IllegalAction {
                action,
                legal,
                env: None,
            } = &err
            else {
                panic!("{err:?}");
            };
            assert_eq!(*action, bad);
            let want: Vec<u8> = (0..2).filter(|t| mask & (1 << t) != 0).collect();
            assert_eq!(legal, &want);
            assert!(err.to_string().contains(&format!("action {bad} ")));
            assert_eq!(env.game(), before.game());
            assert_eq!(
                (env.status(), env.rolls()),
                (before.status(), before.rolls())
            );
        }
        let a = random_action(&env, &mut rng);
        env.step(a, None).unwrap();
    }
}

#[test]
fn observation_layout() {
    let env = started(
        EnvConfig::agents(Rules::STANDARD, &seat_list(&[1, 3]), 1000),
        11,
    );
    let len = observation_len(&Rules::STANDARD);
    assert_eq!(len, 4 * 4 * 3 + 6 + 8);
    let mover = env.to_move().unwrap();
    let Phase::Move(roll) = env.game().phase() else {
        panic!("no decision")
    };
    for observer in seat_list(&[1, 3]) {
        let mut obs = vec![5.0; len + 1];
        env.observe(observer, &mut obs);
        assert_eq!(obs[len], 5.0, "wrote past the observation");
        // Every token in its yard at the first decision (the first move enters a token).
        for k in 0..4 {
            let present = matches!(observer.offset(k).index(), 1 | 3);
            for t in 0..4 {
                let f = &obs[(k * 4 + t) * 3..(k * 4 + t + 1) * 3];
                assert_eq!(f, if present { [0.0, 1.0, 0.0] } else { [0.0; 3] });
            }
            assert_eq!(obs[48 + 6 + k], f32::from(u8::from(present)));
            let moving = observer.offset(k) == mover;
            assert_eq!(obs[48 + 10 + k], f32::from(u8::from(moving)));
        }
        let die: Vec<f32> = (1..=6).map(|r| f32::from(u8::from(r == roll))).collect();
        assert_eq!(&obs[48..54], die.as_slice());
    }
    // Later on: progress and home flags read the board.
    let mut env = env;
    let mut rng = Rng::new(3);
    while env.status() == Status::Decision {
        let a = random_action(&env, &mut rng);
        env.step(a, None).unwrap();
    }
    let mut obs = vec![0.0; len];
    env.observe(seat_no(1), &mut obs);
    let winner = env.game().winner().unwrap();
    let k = winner.seats_after(seat_no(1));
    for t in 0..4 {
        assert_eq!(&obs[(k * 4 + t) * 3..(k * 4 + t + 1) * 3], [1.0, 0.0, 1.0]);
    }
    assert!(obs[48..54].iter().all(|&v| v == 0.0), "no die once over");
    assert!(
        obs[58..62].iter().all(|&v| v == 0.0),
        "nobody to move once over"
    );
}

#[test]
fn bots_play_their_seats() {
    for rules in PRESETS {
        let mut config = EnvConfig::agents(rules, &seats(4), 100_000);
        for (s, bot) in [
            (0, Bot::Random),
            (1, Bot::Cs162),
            (3, Bot::Mcts { playouts: 20 }),
        ] {
            config.roles[s] = Role::Bot(bot);
        }
        let ends = explore(config, 3, |env| assert_eq!(env.to_move(), Some(seat_no(2))));
        assert!(ends.iter().all(|e| e.status() == Status::Terminated));
    }
    let mut config = EnvConfig::agents(Rules::CS162, &seats(2), 100);
    config.roles = [Role::Bot(Bot::Random); 4];
    assert!(LudoEnv::new(config, 0).is_err());
}

#[test]
fn seeded_resets_repeat() {
    let config = EnvConfig::agents(Rules::GT, &seats(4), 100_000);
    let a = explore(config.clone(), 3, |_| {});
    let b = explore(config, 3, |_| {});
    let games = |v: &[LudoEnv]| v.iter().map(|e| *e.game()).collect::<Vec<_>>();
    assert_eq!(games(&a), games(&b));
    assert_ne!(a[0].game(), a[1].game());
    let mut env = started(EnvConfig::agents(Rules::GT, &seats(4), 100), 8);
    let first = *env.game();
    env.reset(None, None).unwrap();
    assert_ne!(*env.game(), first);
    env.reset(Some(8), None).unwrap();
    assert_eq!(*env.game(), first);
}

/// Buffers for a batch of `n` environments of `rules`.
struct Buffers {
    obs: Vec<f32>,
    masks: Vec<i8>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    final_obs: Vec<f32>,
    seats: Vec<u8>,
    final_rewards: Vec<f32>,
}

impl Buffers {
    fn new(rules: &Rules, n: usize) -> Buffers {
        let len = observation_len(rules);
        Buffers {
            obs: vec![0.0; n * len],
            masks: vec![0; n * rules.tokens as usize],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            final_obs: vec![0.0; n * len],
            seats: vec![0; n],
            final_rewards: vec![0.0; n * MAX_SEATS],
        }
    }

    fn batch(&mut self) -> Batch<'_> {
        Batch {
            obs: &mut self.obs,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            final_obs: &mut self.final_obs,
            seats: &mut self.seats,
            final_rewards: &mut self.final_rewards,
        }
    }
}

#[test]
fn vector_env_agrees_with_single_envs_on_any_thread_count() {
    for (rules, players, max_rolls) in [
        (Rules::CS162, 2, 120),
        (Rules::STANDARD, 4, 500),
        (Rules::GT, 3, 150),
    ] {
        let n = 7;
        let mut config = EnvConfig::agents(rules, &seats(players), max_rolls);
        for &s in &seats(players)[1..] {
            config.roles[s] = Role::Bot(Bot::Random);
        }
        config.skip_forced = rules.preset == Preset::Gt;
        let len = observation_len(&rules);
        let tokens = rules.tokens as usize;
        let mut singles: Vec<LudoEnv> = (0..n)
            .map(|i| started(config.clone(), 100 + i as u64))
            .collect();
        let mut vectors: Vec<(VectorEnv, Buffers)> = [1, 2, 3]
            .iter()
            .map(|_| {
                let mut v = VectorEnv::new(
                    config.clone(),
                    Some(seat_no(0)),
                    n,
                    100,
                    Autoreset::SameStep,
                )
                .unwrap();
                let mut b = Buffers::new(&rules, n);
                v.reset(None, 1, None, b.batch()).unwrap();
                (v, b)
            })
            .collect();
        let mut rng = Rng::new(4);
        let (mut ended, mut truncated) = (0, 0);
        for _ in 0..2000 {
            let actions: Vec<i64> = singles.iter().map(|e| random_action(e, &mut rng)).collect();
            for (threads, (v, b)) in vectors.iter_mut().enumerate() {
                v.step(&actions, threads + 1, None, b.batch()).unwrap();
            }
            for (i, env) in singles.iter_mut().enumerate() {
                // An episode that ended before the learner's first decision takes no action.
                let status = match env.status() {
                    Status::Decision => env.step(actions[i], None).unwrap(),
                    other => other,
                };
                let mut obs = vec![0.0; len];
                let mut mask = vec![0i8; tokens];
                let done = status != Status::Decision;
                let reward = env.reward(seat_no(0));
                if done {
                    env.observe(seat_no(0), &mut obs);
                    for (_, b) in &vectors {
                        assert_eq!(&b.final_obs[i * len..(i + 1) * len], obs.as_slice());
                    }
                    ended += 1;
                    truncated += usize::from(status == Status::Truncated);
                    env.reset(None, None).unwrap();
                }
                env.observe(seat_no(0), &mut obs);
                env.action_mask(seat_no(0), &mut mask);
                for (_, b) in &vectors {
                    assert_eq!(&b.obs[i * len..(i + 1) * len], obs.as_slice());
                    assert_eq!(&b.masks[i * tokens..(i + 1) * tokens], mask.as_slice());
                    assert_eq!(b.rewards[i], if done { reward } else { 0.0 });
                    assert_eq!(b.terminated[i], status == Status::Terminated);
                    assert_eq!(b.truncated[i], status == Status::Truncated);
                }
            }
        }
        assert!(ended > truncated && truncated > 0, "{ended} {truncated}");
        for (v, _) in &vectors[1..] {
            let games = |v: &VectorEnv| v.envs().iter().map(|e| *e.game()).collect::<Vec<_>>();
            assert_eq!(games(v), games(&vectors[0].0));
        }
    }
}

#[test]
fn vector_env_refuses_a_bad_batch_whole() {
    let mut config = EnvConfig::agents(Rules::CS162, &seats(2), 1000);
    config.roles[2] = Role::Bot(Bot::Random);
    let mut v =
        VectorEnv::new(config.clone(), Some(seat_no(0)), 3, 5, Autoreset::SameStep).unwrap();
    let mut b = Buffers::new(&Rules::CS162, 3);
    assert!(
        v.step(&[0, 0, 0], 1, None, b.batch()).is_err(),
        "no reset yet"
    );
    v.reset(None, 1, None, b.batch()).unwrap();
    let before: Vec<Game> = v.envs().iter().map(|e| *e.game()).collect();
    let mut actions: Vec<i64> = v
        .envs()
        .iter()
        .map(|e| e.legal_mask().trailing_zeros() as i64)
        .collect();
    actions[1] = 5;
    let err = v.step(&actions, 1, None, b.batch()).unwrap_err();
    assert!(
        err.to_string().starts_with("environment 1: action 5 "),
        "{err}"
    );
    assert!(v.step(&actions[..2], 1, None, b.batch()).is_err());
    let after: Vec<Game> = v.envs().iter().map(|e| *e.game()).collect();
    assert_eq!(before, after);
    // A stop request interrupts the batch; only a reset continues.
    let stop = Stop::new();
    stop.request();
    actions[1] = actions[0];
    let actions: Vec<i64> = v
        .envs()
        .iter()
        .map(|e| e.legal_mask().trailing_zeros() as i64)
        .collect();
    assert!(v.step(&actions, 1, Some(&stop), b.batch()).is_err());
    assert!(v.step(&actions, 1, None, b.batch()).is_err());
    v.reset(Some(&[1, 2, 3]), 2, None, b.batch()).unwrap();
    let actions: Vec<i64> = v
        .envs()
        .iter()
        .map(|e| e.legal_mask().trailing_zeros() as i64)
        .collect();
    v.step(&actions, 1, None, b.batch()).unwrap();
    // The learner's seat must play, and only it is an agent.
    assert!(VectorEnv::new(config.clone(), Some(seat_no(1)), 3, 5, Autoreset::NextStep).is_err());
    assert!(VectorEnv::new(config.clone(), Some(seat_no(2)), 3, 5, Autoreset::NextStep).is_err());
    assert!(VectorEnv::new(config, Some(seat_no(0)), 0, 5, Autoreset::NextStep).is_err());
}

/// An opponents' policy for tests: the lowest legal token of every waiting environment,
/// counting its calls.
struct Lowest(usize);

impl BatchOpponent for Lowest {
    type Error = EnvError;

    fn choose(
        &mut self,
        envs: &[usize],
        _: &[Seat],
        _: &[f32],
        masks: &[i8],
        actions: &mut [i64],
    ) -> Result<(), EnvError> {
        self.0 += 1;
        let tokens = masks.len() / envs.len();
        for (a, m) in actions.iter_mut().zip(masks.chunks(tokens)) {
            *a = m
                .iter()
                .position(|&x| x == 1)
                .expect("a waiting seat has a move") as i64;
        }
        Ok(())
    }
}

/// The lowest legal token of `env`'s seat to move.
fn lowest(env: &LudoEnv, _: Seat) -> Result<i64, EnvError> {
    Ok(env.legal_mask().trailing_zeros() as i64)
}

#[test]
fn an_episode_always_starts_with_a_learner_decision() {
    // Games the opponents finish (or the roll limit cuts off) before the learner's first
    // decision are played out and counted, never handed out.
    for (rules, max_rolls) in [(Rules::CS162, 10_000), (Rules::CS162, 6), (Rules::GT, 9)] {
        let mut config = EnvConfig::agents(rules, &seats(2), max_rolls);
        config.roles[0] = Role::Bot(Bot::Cs162);
        config.learner = Some(seat_no(2));
        let mut env = LudoEnv::new(config, 3).unwrap();
        for _ in 0..3000 {
            env.reset(None, None).unwrap();
            assert_eq!(env.to_move(), Some(seat_no(2)));
            assert_ne!(env.legal_mask(), 0);
        }
        if max_rolls < 100 {
            assert!(env.skipped().games > 100, "{:?}", env.skipped());
            // A truncated game gives nobody a reward; the few finished ones do.
            assert!(env.skipped().rewards[0] >= 0.0);
        }
    }
    // A roll limit that never reaches the learner: a clear error after a bounded search.
    let mut config = EnvConfig::agents(Rules::CS162, &seats(2), 1);
    config.roles[0] = Role::Bot(Bot::Random);
    let mut env = LudoEnv::new(config, 3).unwrap();
    let err = env.reset(Some(1), None).unwrap_err();
    assert!(matches!(
        err,
        EnvError::NoDecision {
            games: MAX_GAMES_PER_RESET,
            max_rolls: 1
        }
    ));
    assert!(
        err.to_string().contains("max_rolls=1 is too small"),
        "{err}"
    );
    assert_eq!(env.status(), Status::Idle);
}

#[test]
fn opponents_played_by_a_callback_and_skipped_games() {
    // The learner is C; A is an agent seat played by a callback.
    let mut config = EnvConfig::agents(Rules::CS162, &seats(2), 12);
    config.learner = Some(seat_no(2));
    let mut env = LudoEnv::new(config.clone(), 5).unwrap();
    let mut starts = 0;
    for _ in 0..2000 {
        env.reset_with(None, None, lowest).unwrap();
        assert_eq!(env.to_move(), Some(seat_no(2)));
        starts += 1;
        while env.status() == Status::Decision {
            let a = env.legal_mask().trailing_zeros() as i64;
            env.step_with(a, None, lowest).unwrap();
            assert!(env.status() != Status::Decision || env.to_move() == Some(seat_no(2)));
        }
    }
    assert_eq!(starts, 2000);
    assert!(env.skipped().games > 0);
    // A callback's bad action is refused (its error comes back).
    let mut env = LudoEnv::new(config, 5).unwrap();
    let mut bad = |_: &LudoEnv, _: Seat| Ok::<i64, EnvError>(7);
    let mut refused = false;
    for _ in 0..50 {
        match env.reset_with(None, None, &mut bad) {
            Err(EnvError::IllegalAction { action: 7, .. }) => refused = true,
            other => other.unwrap(),
        }
    }
    assert!(refused);
}

#[test]
fn a_snapshot_restores_the_environment_exactly() {
    let mut config = EnvConfig::agents(Rules::STANDARD, &seats(4), 300);
    config.roles[1] = Role::Bot(Bot::Random);
    config.roles[3] = Role::Bot(Bot::Cs162);
    let mut env = LudoEnv::new(config.clone(), 77).unwrap();
    let idle = LudoEnv::restore(config.clone(), &env.snapshot()).unwrap();
    assert_eq!(idle.status(), Status::Idle);
    let mut rng = Rng::new(3);
    env.reset(None, None).unwrap();
    for step in 0..2000 {
        let text = env.snapshot();
        let mut copy = LudoEnv::restore(config.clone(), &text).unwrap();
        assert_eq!(copy.snapshot(), text);
        assert_eq!(copy.game(), env.game());
        // Both go on alike, across resets too.
        let a = random_action(&env, &mut rng);
        for e in [&mut env, &mut copy] {
            if e.status() == Status::Decision {
                e.step(a, None).unwrap();
            } else {
                e.reset(None, None).unwrap();
            }
        }
        assert_eq!(copy.snapshot(), env.snapshot(), "step {step}");
    }
    let text = env.snapshot();
    for bad in [
        String::new(),
        text.replace("ludoenv/1", "ludoenv/2"),
        text.replacen(" | ", " ", 1),
        text.replacen(" d ", " t ", 1)
            .replacen(" u ", " t ", 1)
            .replacen(" i ", " t ", 1),
        text.replace("standard", "cs162"),
        format!("{text} junk"),
    ] {
        if bad != text {
            assert!(LudoEnv::restore(config.clone(), &bad).is_err(), "{bad}");
        }
    }
    // Another configuration's environment.
    let other = EnvConfig::agents(Rules::STANDARD, &seats(2), 300);
    assert!(LudoEnv::restore(other, &text).is_err());
}

#[test]
fn next_step_autoreset_agrees_with_single_envs_and_opponents_policies() {
    for (rules, max_rolls, policy) in [
        (Rules::CS162, 200, false),
        (Rules::STANDARD, 400, true),
        (Rules::CS162, 30, true),
    ] {
        let n = 6;
        let mut config = EnvConfig::agents(rules, &seats(2), max_rolls);
        if !policy {
            config.roles[2] = Role::Bot(Bot::Random);
        }
        config.learner = Some(seat_no(0));
        let len = observation_len(&rules);
        let tokens = rules.tokens as usize;
        let mut singles: Vec<LudoEnv> = (0..n)
            .map(|i| {
                let mut e = LudoEnv::new(config.clone(), 50 + i as u64).unwrap();
                e.reset_with(None, None, lowest).unwrap();
                e
            })
            .collect();
        let mut pending = vec![false; n];
        let mut v =
            VectorEnv::new(config.clone(), Some(seat_no(0)), n, 50, Autoreset::NextStep).unwrap();
        let mut b = Buffers::new(&rules, n);
        let mut calls = Lowest(0);
        if policy {
            assert!(
                v.reset(None, 1, None, b.batch()).is_err(),
                "the policy is needed"
            );
            v.reset_with(None, 2, None, b.batch(), &mut calls).unwrap();
        } else {
            v.reset(None, 2, None, b.batch()).unwrap();
        }
        let mut rng = Rng::new(4);
        let mut ended = 0;
        for step in 0..1500 {
            let actions: Vec<i64> = singles.iter().map(|e| random_action(e, &mut rng)).collect();
            if policy {
                v.step_with(&actions, 2, None, b.batch(), &mut calls)
                    .unwrap();
            } else {
                v.step(&actions, 2, None, b.batch()).unwrap();
            }
            for (i, env) in singles.iter_mut().enumerate() {
                let (mut obs, mut mask) = (vec![0.0; len], vec![0i8; tokens]);
                let status = if pending[i] {
                    pending[i] = false;
                    env.reset_with(None, None, lowest).unwrap();
                    Status::Decision
                } else {
                    env.step_with(actions[i], None, lowest).unwrap()
                };
                let done = status != Status::Decision;
                pending[i] = done;
                ended += usize::from(done);
                env.observe(seat_no(0), &mut obs);
                env.action_mask(seat_no(0), &mut mask);
                assert_eq!(
                    &b.obs[i * len..(i + 1) * len],
                    obs.as_slice(),
                    "{rules} env {i} step {step}: {:?} {:?}",
                    v.envs()[i].game().to_notation(),
                    env.game().to_notation()
                );
                assert_eq!(&b.masks[i * tokens..(i + 1) * tokens], mask.as_slice());
                assert_eq!(
                    b.rewards[i],
                    if done { env.reward(seat_no(0)) } else { 0.0 }
                );
                assert_eq!(b.terminated[i], status == Status::Terminated);
                assert_eq!(b.truncated[i], status == Status::Truncated);
                // Every row that did not just end is a decision with a legal action.
                assert_eq!(done, !mask.contains(&1));
            }
        }
        assert!(ended > 20, "{ended}");
        assert_eq!(policy, calls.0 > 0);
        let games = |v: &VectorEnv| v.envs().iter().map(|e| *e.game()).collect::<Vec<_>>();
        assert_eq!(
            games(&v),
            singles.iter().map(|e| *e.game()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn every_seat_learns_in_turn() {
    // seat 'all': each row is a decision of the seat to act, from its point of view; when an
    // episode ends, the seat that acted last sees it, and every seat's reward is given.
    for mode in [Autoreset::NextStep, Autoreset::SameStep] {
        let rules = Rules::STANDARD;
        let config = EnvConfig::agents(rules, &seats(2), 2000);
        let n = 5;
        let mut v = VectorEnv::new(config.clone(), None, n, 70, mode).unwrap();
        let mut b = Buffers::new(&rules, n);
        v.reset(None, 1, None, b.batch()).unwrap();
        let mut singles: Vec<LudoEnv> = (0..n)
            .map(|i| started(config.clone(), 70 + i as u64))
            .collect();
        let (len, tokens) = (observation_len(&rules), rules.tokens as usize);
        let mut rng = Rng::new(9);
        let (mut ended, mut movers) = (0, [0usize; MAX_SEATS]);
        let mut pending = vec![false; n];
        for _ in 0..3000 {
            let actions: Vec<i64> = singles.iter().map(|e| random_action(e, &mut rng)).collect();
            v.step(&actions, 2, None, b.batch()).unwrap();
            for (i, env) in singles.iter_mut().enumerate() {
                let acting = env.to_move();
                let status = if pending[i] {
                    pending[i] = false;
                    env.reset(None, None).unwrap();
                    Status::Decision
                } else {
                    env.step(actions[i], None).unwrap()
                };
                let done = status != Status::Decision;
                let seat = match env.to_move() {
                    Some(s) => s,
                    None => acting.unwrap(),
                };
                movers[seat.index()] += 1;
                let mut obs = vec![0.0; len];
                if done {
                    ended += 1;
                    for s in env.game().seats() {
                        assert_eq!(b.final_rewards[i * MAX_SEATS + s.index()], env.reward(s));
                    }
                    assert_eq!(b.rewards[i], env.reward(seat));
                    if mode == Autoreset::SameStep {
                        env.observe(seat, &mut obs);
                        assert_eq!(&b.final_obs[i * len..(i + 1) * len], obs.as_slice());
                        env.reset(None, None).unwrap();
                    } else {
                        pending[i] = true;
                    }
                }
                let seat = env.to_move().unwrap_or(seat);
                assert_eq!(b.seats[i] as usize, seat.index());
                env.observe(seat, &mut obs);
                let mut mask = vec![0i8; tokens];
                env.action_mask(seat, &mut mask);
                assert_eq!(&b.obs[i * len..(i + 1) * len], obs.as_slice());
                assert_eq!(&b.masks[i * tokens..(i + 1) * tokens], mask.as_slice());
            }
        }
        assert!(ended > 10, "{ended}");
        assert!(movers[0] > 1000 && movers[2] > 1000, "{movers:?}");
    }
}

/// A front end's arguments become the engine's configuration: roles per player, player
/// numbers to seats and back (a seat that does not play is an error, not player 0), the
/// learner and its opponents of a vector environment.
#[test]
fn front_end_arguments_make_the_configuration() {
    let config = EnvConfig::from_args(Rules::CS162, None, None, false, None).unwrap();
    assert_eq!(config.seats, seats(DEFAULT_PLAYERS));
    assert_eq!(config.max_rolls, DEFAULT_MAX_ROLLS);
    let [a, b, c, _] = Seat::ALL;
    assert_eq!(
        (config.seat_of(1).unwrap(), config.player_of(c).unwrap()),
        (c, 1)
    );
    assert!(matches!(config.seat_of(2), Err(EnvError::InvalidArgument(m)) if m.contains("0 to 1")));
    let unknown = config.player_of(b).unwrap_err();
    assert!(
        unknown.to_string().contains("'B' is not playing"),
        "{unknown}"
    );
    assert!(!config.searches());
    // roles in turn order, whatever order the seats were given in
    let roles = [None, Some(Bot::Mcts { playouts: 5 })];
    let config =
        EnvConfig::from_args(Rules::CS162, Some(vec![c, a]), Some(&roles), true, Some(9)).unwrap();
    assert_eq!(
        (config.roles[a], config.roles[c]),
        (Role::Agent, Role::Bot(roles[1].unwrap()))
    );
    assert!(config.searches() && config.skip_forced && config.max_rolls == 9);
    let wrong = EnvConfig::from_args(Rules::CS162, None, Some(&roles[..1]), false, None);
    assert!(
        wrong
            .unwrap_err()
            .to_string()
            .contains("1 roles for 2 players")
    );

    let four = EnvConfig::from_args(Rules::STANDARD, Some(seats(4)), None, false, None).unwrap();
    let v = VectorEnv::with_learner(four.clone(), None, None, 2, 0, None).unwrap();
    assert_eq!(
        (v.learner(), v.autoreset(), v.has_opponents()),
        (Some(a), Autoreset::NextStep, false)
    );
    assert!(
        v.envs()[0].config().seats[1..]
            .iter()
            .all(|&s| v.envs()[0].config().roles[s] == Role::Bot(DEFAULT_OPPONENT))
    );
    let each = Opponents::Each(vec![None, Some(Bot::Safe), None]);
    let v = VectorEnv::with_learner(
        four.clone(),
        Some(Learner::Player(1)),
        Some(each),
        1,
        0,
        None,
    )
    .unwrap();
    assert!(v.learner() == Some(b) && v.has_opponents());
    let all = VectorEnv::with_learner(four.clone(), Some(Learner::All), None, 1, 0, None).unwrap();
    assert_eq!(all.learner(), None);
    let refused = [
        (
            Some(Learner::All),
            Some(Opponents::Everyone(Bot::Safe)),
            "has no opponents",
        ),
        (
            Some(Learner::Player(4)),
            None,
            "player must be an int from 0 to 3",
        ),
        (
            None,
            Some(Opponents::Each(vec![None])),
            "1 opponents for 3 other players",
        ),
    ];
    for (learner, opponents, says) in refused {
        let e = VectorEnv::with_learner(four.clone(), learner, opponents, 1, 0, None).unwrap_err();
        assert!(e.to_string().contains(says), "{e}");
    }
}

/// The autoreset modes by name, as Gymnasium writes them or in snake case.
#[test]
fn autoreset_modes_by_name() {
    for (name, mode) in [
        ("next_step", Autoreset::NextStep),
        ("NextStep", Autoreset::NextStep),
        ("SAME-STEP", Autoreset::SameStep),
    ] {
        assert_eq!(Autoreset::from_name(name).unwrap(), mode);
        assert_eq!(Autoreset::from_name(mode.name()).unwrap(), mode);
    }
    let e = Autoreset::from_name("Disabled").unwrap_err();
    assert!(e.to_string().contains("not 'Disabled'"), "{e}");
    assert_eq!(Status::Decision.name(), "decision");
}

#[test]
fn refused_action_arguments_say_what_an_action_is() {
    let text = |e: EnvError| e.to_string();
    let bool_given = text(EnvError::NotAnInt("bool (True)".into()));
    assert_eq!(
        bool_given,
        "action bool (True) is not an int: an action is a token index"
    );
    let big = text(EnvError::OutOfRange("int (2**70)".into()));
    assert_eq!(
        big,
        "action int (2**70) is out of range: an action is a token index"
    );
    let batch = text(EnvError::NotActions("list ([1])".into()));
    assert!(
        batch.starts_with("actions must be a 1-D int64 array"),
        "{batch}"
    );
    let policy = EnvError::PolicyAnswer {
        rows: 3,
        given: "NoneType (None)".into(),
    };
    assert_eq!(
        text(policy),
        "the opponents' policy must return 3 ints (one per row of its observations), not \
         NoneType (None)"
    );
}
