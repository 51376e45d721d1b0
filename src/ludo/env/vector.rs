//! [`VectorEnv`]: many [`LudoEnv`]s of one learner stepped together, on any number of
//! threads, with automatic resets; the learner's opponents are built-in bots, or a batched
//! policy of the caller's ([`BatchOpponent`]) called once for every environment waiting
//! for one.

use std::sync::atomic::{AtomicBool, Ordering};

use super::pool::{Pool, ScopedJob};
use super::*;

/// Where a [`VectorEnv`] writes one batch: every slice holds one row per environment.
pub struct Batch<'a> {
    /// Observations of the learner (`num_envs * observation_len`).
    pub obs: &'a mut [f32],
    /// Action masks of the learner (`num_envs * tokens`).
    pub masks: &'a mut [i8],
    /// Rewards of the learner.
    pub rewards: &'a mut [f32],
    /// Episodes that ended with the game.
    pub terminated: &'a mut [bool],
    /// Episodes cut off by the roll limit.
    pub truncated: &'a mut [bool],
    /// With [`Autoreset::SameStep`], for environments whose episode ended in this step, the
    /// last observation before the automatic reset (`num_envs * observation_len`; other
    /// rows are left as they are).
    pub final_obs: &'a mut [f32],
    /// The seat each row's observation is of (the learner's, or with every seat learning,
    /// the seat to act; once an episode ended, the seat that acted last).
    pub seats: &'a mut [u8],
    /// Every seat's reward in the episode that ended in this step (`num_envs *
    /// MAX_SEATS`, by seat; other rows are left as they are).
    pub final_rewards: &'a mut [f32],
}

impl Batch<'_> {
    /// Environment `i`'s row.
    fn row(&mut self, i: usize, obs_len: usize, tokens: usize) -> Row<'_> {
        Row {
            obs: &mut self.obs[i * obs_len..(i + 1) * obs_len],
            final_obs: &mut self.final_obs[i * obs_len..(i + 1) * obs_len],
            mask: &mut self.masks[i * tokens..(i + 1) * tokens],
            reward: &mut self.rewards[i],
            terminated: &mut self.terminated[i],
            truncated: &mut self.truncated[i],
            seat: &mut self.seats[i],
            final_rewards: &mut self.final_rewards[i * MAX_SEATS..(i + 1) * MAX_SEATS],
        }
    }
}

/// When an environment whose episode ended starts its next episode (Gymnasium's
/// `AutoresetMode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Autoreset {
    /// The step that ends an episode shows its last observation (with the reward and the
    /// flags); the next step ignores that environment's action and starts the next
    /// episode (reward 0, flags clear).
    #[default]
    NextStep,
    /// The step that ends an episode starts the next one at once: it shows the new
    /// episode's first observation with the ended one's reward and flags, and writes the
    /// last observation in [`Batch::final_obs`].
    SameStep,
}

impl Autoreset {
    /// The mode's name: `next_step` or `same_step`.
    pub fn name(self) -> &'static str {
        match self {
            Autoreset::NextStep => "next_step",
            Autoreset::SameStep => "same_step",
        }
    }

    /// The mode named `name` (`next_step` or `same_step`, in any case, with or without
    /// `_` or `-`).
    pub fn from_name(name: &str) -> Result<Autoreset, EnvError> {
        match name.to_lowercase().replace(['-', '_'], "").as_str() {
            "nextstep" => Ok(Autoreset::NextStep),
            "samestep" => Ok(Autoreset::SameStep),
            _ => Err(EnvError::InvalidArgument(format!(
                "autoreset must be AutoresetMode.NEXT_STEP or SAME_STEP ('next_step', \
                 'same_step'), not '{name}'"
            ))),
        }
    }
}

/// Who learns in a vector environment ([`VectorEnv::with_learner`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learner {
    /// Player number `n` (turn order) learns; the others are its opponents.
    Player(usize),
    /// Every player learns: there are no opponents, and each row is a decision of the
    /// player to act.
    All,
}

/// The learner's opponents as a front end gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponents {
    /// One bot for every other player.
    Everyone(Bot),
    /// One per other player, in turn order: a bot, or `None` where the opponents' policy
    /// ([`BatchOpponent`]) plays.
    Each(Vec<Option<Bot>>),
}

/// A policy outside the engine for the learner's opponents (agent seats other than the
/// learner's), asked once for every environment that waits for one.
pub trait BatchOpponent {
    /// What the policy may fail with (and what a refused action becomes).
    type Error: From<EnvError>;

    /// Choose an action for each waiting environment `envs[k]`, whose seat `seats[k]` must
    /// move: `obs` holds their observations from that seat's point of view
    /// (`envs.len() * observation_len`), `masks` its action masks (`envs.len() * tokens`);
    /// write the actions into `actions` (one per environment).
    fn choose(
        &mut self,
        envs: &[usize],
        seats: &[Seat],
        obs: &[f32],
        masks: &[i8],
        actions: &mut [i64],
    ) -> Result<(), Self::Error>;
}

/// The opponent policy of a vector environment whose opponents are all built-in bots: it
/// is never asked.
pub struct BotsOnly;

impl BatchOpponent for BotsOnly {
    type Error = EnvError;

    fn choose(
        &mut self,
        _: &[usize],
        _: &[Seat],
        _: &[f32],
        _: &[i8],
        _: &mut [i64],
    ) -> Result<(), EnvError> {
        Err(EnvError::InvalidArgument(
            "an opponent seat waits for a policy, but none was given".into(),
        ))
    }
}

/// Many single-learner environments stepped together, with automatic resets
/// ([`Autoreset`]).
#[derive(Clone, Debug)]
pub struct VectorEnv {
    envs: Vec<LudoEnv>,
    /// The learner's seat; `None`: every agent seat learns (each row is a decision of the
    /// seat to act, from its point of view).
    learner: Option<Seat>,
    autoreset: Autoreset,
    /// Some seat is played by a policy outside the engine.
    opponents: bool,
    needs_reset: bool,
    /// Worker threads for steps on more than one thread, kept between steps.
    pool: Pool,
}

impl VectorEnv {
    /// `num_envs` environments of `config`, whose learner plays `learner` (its other agent
    /// seats are the opponents a [`BatchOpponent`] plays; bot seats play themselves), or
    /// with `learner` `None`, whose agent seats all learn; environment `i` seeded with
    /// `seed + i`; no episode runs until [`VectorEnv::reset`].
    pub fn new(
        mut config: EnvConfig,
        learner: Option<Seat>,
        num_envs: usize,
        seed: u64,
        autoreset: Autoreset,
    ) -> Result<VectorEnv, EnvError> {
        if num_envs == 0 {
            return Err(EnvError::InvalidArgument(
                "num_envs must be at least 1".into(),
            ));
        }
        let Some(learner) = learner else {
            config.learner = None;
            let first = LudoEnv::new(config, seed)?;
            return Ok(VectorEnv::of(first, None, num_envs, seed, autoreset, false));
        };
        if !config.seats.contains(&learner) {
            return Err(LudoError::PositionNotPlaying(
                config.rules.seat_labels[learner].to_string(),
            )
            .into());
        }
        if config.roles[learner] != Role::Agent {
            return Err(LudoError::InvalidBot(
                "the learner's seat cannot be played by a bot".into(),
            )
            .into());
        }
        let opponents = config
            .seats
            .iter()
            .any(|&s| s != learner && config.roles[s] == Role::Agent);
        config.learner = Some(learner);
        let first = LudoEnv::new(config, seed)?;
        Ok(VectorEnv::of(
            first,
            Some(learner),
            num_envs,
            seed,
            autoreset,
            opponents,
        ))
    }

    /// [`VectorEnv::new`] from a front end's arguments: `learner` (`None`: player 0) plays
    /// against `opponents` (`None`: [`DEFAULT_OPPONENT`] for every other player), or every
    /// player learns ([`Learner::All`], which has no opponents); `autoreset` `None` is
    /// the default mode.
    pub fn with_learner(
        mut config: EnvConfig,
        learner: Option<Learner>,
        opponents: Option<Opponents>,
        num_envs: usize,
        seed: u64,
        autoreset: Option<Autoreset>,
    ) -> Result<VectorEnv, EnvError> {
        let learner = match learner.unwrap_or(Learner::Player(0)) {
            Learner::All if opponents.is_some() => {
                return Err(LudoError::InvalidBot(
                    "seat='all' has no opponents: every player learns".into(),
                )
                .into());
            }
            Learner::All => None,
            Learner::Player(n) => Some(config.seat_of(n)?),
        };
        if let Some(learner) = learner {
            let others: Vec<Seat> = (config.seats.iter().copied())
                .filter(|&s| s != learner)
                .collect();
            let roles = match opponents {
                None => vec![Some(DEFAULT_OPPONENT); others.len()],
                Some(Opponents::Everyone(bot)) => vec![Some(bot); others.len()],
                Some(Opponents::Each(roles)) if roles.len() == others.len() => roles,
                Some(Opponents::Each(roles)) => {
                    return Err(LudoError::InvalidBot(format!(
                        "{} opponents for {} other players",
                        roles.len(),
                        others.len()
                    ))
                    .into());
                }
            };
            for (&s, role) in others.iter().zip(roles) {
                config.roles[s] = role.map_or(Role::Agent, Role::Bot);
            }
        }
        let autoreset = autoreset.unwrap_or_default();
        VectorEnv::new(config, learner, num_envs, seed, autoreset)
    }

    /// `num_envs` copies of `first`, environment `i` seeded with `seed + i`.
    fn of(
        first: LudoEnv,
        learner: Option<Seat>,
        num_envs: usize,
        seed: u64,
        autoreset: Autoreset,
        opponents: bool,
    ) -> VectorEnv {
        let mut envs = vec![first; num_envs];
        for (i, env) in envs.iter_mut().enumerate() {
            env.episodes = Rng::new(seed.wrapping_add(i as u64));
        }
        VectorEnv {
            envs,
            learner,
            autoreset,
            opponents,
            needs_reset: true,
            pool: Pool::default(),
        }
    }

    /// The environments.
    pub fn envs(&self) -> &[LudoEnv] {
        &self.envs
    }

    /// Every environment's [`LudoEnv::snapshot`], in order.
    pub fn snapshot(&self) -> Vec<String> {
        self.envs.iter().map(LudoEnv::snapshot).collect()
    }

    /// Put every environment in the state of `snapshots` (one per environment, as
    /// [`VectorEnv::snapshot`] wrote them); a text that does not fit changes nothing.
    pub fn restore(&mut self, snapshots: &[String]) -> Result<(), EnvError> {
        if snapshots.len() != self.envs.len() {
            return Err(EnvError::InvalidArgument(format!(
                "{} snapshots for {} environments",
                snapshots.len(),
                self.envs.len()
            )));
        }
        let config = self.envs[0].config.clone();
        let envs = snapshots
            .iter()
            .enumerate()
            .map(|(i, text)| {
                LudoEnv::restore(config.clone(), text).map_err(|e| match e {
                    EnvError::InvalidSnapshot(why) => {
                        EnvError::InvalidSnapshot(format!("environment {i}: {why}"))
                    }
                    other => other,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        // A vector environment steps only when every environment awaits its step.
        self.needs_reset = envs.iter().any(|e| {
            e.status == Status::Idle || (e.ended() && self.autoreset == Autoreset::SameStep)
        });
        self.envs = envs;
        Ok(())
    }

    /// The learner's seat (`None`: every agent seat learns).
    pub fn learner(&self) -> Option<Seat> {
        self.learner
    }

    /// When an ended episode's environment starts the next one.
    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }

    /// Check that a caller's opponents' policy is given when some seat needs one
    /// ([`VectorEnv::has_opponents`]), and only then.
    pub fn check_policy(&self, given: bool) -> Result<(), EnvError> {
        match (given, self.opponents) {
            (false, true) => Err(EnvError::InvalidArgument(
                "some opponents have no bot: pass their policy as opponents=".into(),
            )),
            (true, false) => Err(EnvError::InvalidArgument(
                "every opponent is a built-in bot: there is no seat for the opponents= policy"
                    .into(),
            )),
            _ => Ok(()),
        }
    }

    /// The player numbers (turn order) of a batch's rows, from its [`Batch::seats`] (-1 for
    /// a seat that does not play): what a learner of every seat needs to know whose
    /// observation each row is, so `None` when one seat learns.
    pub fn players_of(&self, seats: &[u8]) -> Option<Vec<i64>> {
        self.learner.is_none().then_some(())?;
        let playing = &self.envs[0].config.seats;
        let number = |s: u8| playing.iter().position(|p| p.index() == usize::from(s));
        Some(
            seats
                .iter()
                .map(|&s| number(s).map_or(-1, |n| n as i64))
                .collect(),
        )
    }

    /// Every player's final reward by player number (a row of one per player), from a
    /// batch's [`Batch::final_rewards`] (by seat): what a learner of every seat needs (one
    /// learner's own reward is in the rewards), so `None` when one seat learns.
    pub fn final_rewards_by_player(&self, final_rewards: &[f32]) -> Option<Vec<f32>> {
        self.learner.is_none().then_some(())?;
        let playing = &self.envs[0].config.seats;
        let rows = final_rewards.chunks_exact(MAX_SEATS);
        Some(
            rows.flat_map(|row| playing.iter().map(|s| row[s.index()]))
                .collect(),
        )
    }

    /// Does a batch hand out the last observations of the episodes that ended in it? Only
    /// under same-step autoreset (under next-step autoreset, the step that ends an episode
    /// shows its last observation as the observation).
    pub fn has_final_obs(&self) -> bool {
        self.autoreset == Autoreset::SameStep
    }

    /// Games played out and not handed out as episodes, over every environment.
    pub fn skipped_games(&self) -> u64 {
        self.envs.iter().map(|e| e.skipped().games).sum()
    }

    /// The learner's rewards in the skipped games, over every environment (0 when every
    /// seat learns).
    pub fn skipped_reward(&self) -> f64 {
        let Some(learner) = self.learner else {
            return 0.0;
        };
        let rewards = self
            .envs
            .iter()
            .map(|e| f64::from(e.skipped().rewards[learner]));
        rewards.sum()
    }

    /// Does some seat need a [`BatchOpponent`]?
    pub fn has_opponents(&self) -> bool {
        self.opponents
    }

    /// Reset every environment: environment `i` with `seeds[i]` (or, without seeds, each
    /// going on with its own episode generator). Writes the observations and masks; the
    /// rewards and flags of `out` are cleared. Games that end before the learner's first
    /// decision are skipped ([`LudoEnv::reset`]).
    pub fn reset(
        &mut self,
        seeds: Option<&[u64]>,
        threads: usize,
        stop: Option<&Stop>,
        out: Batch<'_>,
    ) -> Result<(), EnvError> {
        self.bots_only()?;
        self.reset_with(seeds, threads, stop, out, &mut BotsOnly)
    }

    /// [`VectorEnv::reset`], with the opponents played by `opponents`.
    pub fn reset_with<O: BatchOpponent>(
        &mut self,
        seeds: Option<&[u64]>,
        threads: usize,
        stop: Option<&Stop>,
        mut out: Batch<'_>,
        opponents: &mut O,
    ) -> Result<(), O::Error> {
        if let Some(seeds) = seeds
            && seeds.len() != self.envs.len()
        {
            return Err(EnvError::InvalidArgument(format!(
                "{} seeds for {} environments",
                seeds.len(),
                self.envs.len()
            ))
            .into());
        }
        self.needs_reset = true;
        let (learner, autoreset) = (self.learner, self.autoreset);
        let waiting = AtomicBool::new(false);
        let first = &self.envs[0];
        over_geometry!(first, geo => {
            self.for_each(threads, &mut out, |i, env, mut row| {
                if stop.is_some_and(Stop::requested) {
                    return;
                }
                env.reset_in(geo, seeds.map(|s| s[i]), stop);
                row.clear();
                settle_row(geo, env, learner, autoreset, stop, row, &waiting);
            });
            if waiting.load(Ordering::Relaxed) {
                self.play_opponents(geo, stop, &mut out, opponents)?;
            }
        });
        self.finish(stop, "a reset was interrupted")?;
        Ok(())
    }

    /// Check every action, then step every environment with its action (an environment
    /// whose episode ended in the last step with [`Autoreset::NextStep`] ignores its
    /// action and starts its next episode). One refused action refuses the batch, and
    /// nothing changes.
    pub fn step(
        &mut self,
        actions: &[i64],
        threads: usize,
        stop: Option<&Stop>,
        out: Batch<'_>,
    ) -> Result<(), EnvError> {
        self.bots_only()?;
        self.step_with(actions, threads, stop, out, &mut BotsOnly)
    }

    /// [`VectorEnv::step`], with the opponents played by `opponents`, called once for all
    /// the environments that wait for an opponent, as often as some do. An action the
    /// opponents' policy gives that is not legal raises an error naming the environment,
    /// and the vector environment then needs a reset.
    pub fn step_with<O: BatchOpponent>(
        &mut self,
        actions: &[i64],
        threads: usize,
        stop: Option<&Stop>,
        mut out: Batch<'_>,
        opponents: &mut O,
    ) -> Result<(), O::Error> {
        if self.needs_reset {
            return Err(EnvError::EpisodeOver("no episode is running").into());
        }
        if actions.len() != self.envs.len() {
            return Err(EnvError::InvalidArgument(format!(
                "{} actions for {} environments",
                actions.len(),
                self.envs.len()
            ))
            .into());
        }
        // An environment whose episode ended in the last step takes no action.
        let refused = self
            .envs
            .iter()
            .zip(actions)
            .position(|(env, &a)| env.status == Status::Decision && !env.accepts(a));
        if let Some(i) = refused {
            return Err(in_batch(i, self.envs[i].check(actions[i])).into());
        }
        self.needs_reset = true;
        let (learner, autoreset) = (self.learner, self.autoreset);
        let waiting = AtomicBool::new(false);
        let first = &self.envs[0];
        // Every environment has the same rules: the geometry is chosen once for the batch.
        over_geometry!(first, geo => {
            self.for_each(threads, &mut out, |i, env, mut row| {
                if stop.is_some_and(Stop::requested) {
                    return;
                }
                row.clear();
                match env.status {
                    // Checked above: the action is legal.
                    Status::Decision => {
                        env.step_in(geo, actions[i], stop);
                    }
                    // The episode ended in the last step (next-step autoreset).
                    Status::Terminated | Status::Truncated => env.reset_in(geo, None, stop),
                    Status::Idle => {}
                }
                settle_row(geo, env, learner, autoreset, stop, row, &waiting);
            });
            if waiting.load(Ordering::Relaxed) {
                self.play_opponents(geo, stop, &mut out, opponents)?;
            }
        });
        self.finish(stop, "a step was interrupted")?;
        Ok(())
    }

    /// An error unless every opponent is a built-in bot.
    fn bots_only(&self) -> Result<(), EnvError> {
        if self.opponents {
            return Err(EnvError::InvalidArgument(
                "the opponents' seats need a policy (reset_with, step_with)".into(),
            ));
        }
        Ok(())
    }

    /// After a batch: an error if a stop request cut it short or an environment could not
    /// start an episode; else the environments are ready for the next step.
    fn finish(&mut self, stop: Option<&Stop>, what: &'static str) -> Result<(), EnvError> {
        if stop.is_some_and(Stop::requested) {
            return Err(EnvError::EpisodeOver(what));
        }
        for (i, env) in self.envs.iter().enumerate() {
            if env.starved {
                return Err(in_batch(i, env.starved_error()));
            }
            if env.status == Status::Idle {
                return Err(EnvError::EpisodeOver(what));
            }
        }
        self.needs_reset = false;
        Ok(())
    }

    /// Ask `opponents` for the moves of every environment waiting for an opponent, play
    /// them, and again, until no environment waits; then write the rows of those that did.
    #[inline(never)]
    fn play_opponents<G: Geometry, O: BatchOpponent>(
        &mut self,
        geo: &G,
        stop: Option<&Stop>,
        out: &mut Batch<'_>,
        opponents: &mut O,
    ) -> Result<(), O::Error> {
        let (learner, autoreset) = (self.learner, self.autoreset);
        let (obs_len, tokens) = (observation_len(geo.rules()), geo.rules().tokens as usize);
        let mut touched = vec![false; self.envs.len()];
        let (mut envs, mut seats, mut obs, mut masks, mut actions) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        loop {
            envs.clear();
            seats.clear();
            for (i, env) in self.envs.iter().enumerate() {
                if let Some(seat) = env.to_move().filter(|&s| learner.is_some_and(|l| s != l)) {
                    envs.push(i);
                    seats.push(seat);
                    touched[i] = true;
                }
            }
            if envs.is_empty() || stop.is_some_and(Stop::requested) {
                break;
            }
            let k = envs.len();
            obs.clear();
            obs.resize(k * obs_len, 0.0);
            masks.clear();
            masks.resize(k * tokens, 0);
            actions.clear();
            actions.resize(k, -1);
            for (j, (&i, &seat)) in envs.iter().zip(&seats).enumerate() {
                let env = &self.envs[i];
                env.observe_in(geo, seat, &mut obs[j * obs_len..(j + 1) * obs_len]);
                env.action_mask_in(geo, seat, &mut masks[j * tokens..(j + 1) * tokens]);
            }
            opponents.choose(&envs, &seats, &obs, &masks, &mut actions)?;
            if let Some(j) = (0..k).find(|&j| !self.envs[envs[j]].accepts(actions[j])) {
                let i = envs[j];
                let err = in_batch(i, self.envs[i].check(actions[j]));
                return Err(EnvError::OpponentAction(Box::new(err)).into());
            }
            for (&i, &a) in envs.iter().zip(&actions) {
                let env = &mut self.envs[i];
                env.step_in(geo, a, stop);
                settle(
                    geo,
                    env,
                    learner,
                    autoreset,
                    stop,
                    &mut out.row(i, obs_len, tokens),
                );
            }
        }
        for (i, _) in touched.iter().enumerate().filter(|(_, t)| **t) {
            let env = &self.envs[i];
            out.row(i, obs_len, tokens).write(geo, env, learner);
        }
        Ok(())
    }

    /// Run `f` on every environment and its output row, over `threads` threads (each
    /// taking a contiguous share; the result does not depend on the split).
    fn for_each<F>(&mut self, threads: usize, out: &mut Batch<'_>, f: F)
    where
        F: Fn(usize, &mut LudoEnv, Row<'_>) + Sync,
    {
        let n = self.envs.len();
        let (obs_len, tokens) = {
            let r = self.envs[0].game.rules();
            (observation_len(r), r.tokens as usize)
        };
        let rows = self
            .envs
            .iter_mut()
            .zip(out.obs.chunks_exact_mut(obs_len))
            .zip(out.final_obs.chunks_exact_mut(obs_len))
            .zip(out.masks.chunks_exact_mut(tokens))
            .zip(out.rewards.iter_mut())
            .zip(out.terminated.iter_mut())
            .zip(out.truncated.iter_mut())
            .zip(out.seats.iter_mut())
            .zip(out.final_rewards.chunks_exact_mut(MAX_SEATS))
            .enumerate()
            .map(
                |(i, ((((((((env, obs), fin), mask), rew), term), trunc), seat), finr))| {
                    (
                        i,
                        env,
                        Row {
                            obs,
                            final_obs: fin,
                            mask,
                            reward: rew,
                            terminated: term,
                            truncated: trunc,
                            seat,
                            final_rewards: finr,
                        },
                    )
                },
            );
        let threads = threads.clamp(1, n);
        if threads == 1 {
            for (i, env, row) in rows {
                f(i, env, row);
            }
            return;
        }
        let mut work: Vec<_> = rows.collect();
        let share = n.div_ceil(threads);
        let f = &f;
        let run = move |part: &mut [(usize, &mut LudoEnv, Row<'_>)]| {
            for (i, env, row) in part.iter_mut() {
                f(*i, env, row.reborrow());
            }
        };
        // The calling thread takes the first share itself, the pool's workers the others.
        let mut parts = work.chunks_mut(share);
        let first = parts.next().expect("at least one environment");
        let rest: Vec<ScopedJob<'_>> = parts
            .map(|part| Box::new(move || run(part)) as ScopedJob<'_>)
            .collect();
        self.pool.scope(|| run(first), rest);
    }
}

/// An error of environment `i` of a batch (from [`LudoEnv::check`] or a reset).
fn in_batch(i: usize, checked: Result<(), EnvError>) -> EnvError {
    match checked {
        Err(EnvError::IllegalAction { action, legal, .. }) => EnvError::IllegalAction {
            env: Some(i),
            action,
            legal,
        },
        Err(EnvError::NoDecision { games, max_rolls }) => EnvError::InvalidArgument(format!(
            "environment {i}: {}",
            EnvError::NoDecision { games, max_rolls }
        )),
        Err(other) => other,
        Ok(()) => EnvError::EpisodeOver("no move is awaited"),
    }
}

/// [`settle`] `env`, then write its row, or (an opponent outside the engine must move
/// first) flag `waiting` and leave the row for [`VectorEnv::play_opponents`].
#[inline(always)]
fn settle_row<G: Geometry>(
    geo: &G,
    env: &mut LudoEnv,
    learner: Option<Seat>,
    autoreset: Autoreset,
    stop: Option<&Stop>,
    mut row: Row<'_>,
    waiting: &AtomicBool,
) {
    if settle(geo, env, learner, autoreset, stop, &mut row) {
        waiting.store(true, Ordering::Relaxed);
    } else {
        row.write(geo, env, learner);
    }
}

/// Bring `env` to where its row can be written: the learner's decision, or (next-step
/// autoreset) the end of a reported episode. An episode that ends is reported in `row`
/// (reward and flags; with same-step autoreset also its last observation, and the next
/// episode starts); one that ends before the learner's first decision is skipped. Returns
/// whether an opponent outside the engine must move first.
#[inline(always)]
fn settle<G: Geometry>(
    geo: &G,
    env: &mut LudoEnv,
    learner: Option<Seat>,
    autoreset: Autoreset,
    stop: Option<&Stop>,
    row: &mut Row<'_>,
) -> bool {
    loop {
        match env.status {
            Status::Decision => {
                return learner.is_some_and(|l| env.game.current_player() != l);
            }
            Status::Idle => return false,
            Status::Terminated | Status::Truncated => {
                if !episode_end(geo, env, learner, autoreset, stop, row) {
                    return false;
                }
            }
        }
    }
}

/// The end of `env`'s episode (kept out of line: the step's loop would slow): a skipped
/// game is replaced by the next; an episode is reported in `row` and, with same-step
/// autoreset, the next one starts. Returns whether the environment plays on.
#[inline(never)]
fn episode_end<G: Geometry>(
    geo: &G,
    env: &mut LudoEnv,
    learner: Option<Seat>,
    autoreset: Autoreset,
    stop: Option<&Stop>,
    row: &mut Row<'_>,
) -> bool {
    if !env.offered {
        env.skip_episode();
        env.reset_in(geo, None, stop);
        return true;
    }
    // The episode is seen by the learner, or by the seat that acted last.
    let seat = learner.unwrap_or(env.actor);
    *row.reward = env.reward(seat);
    *row.terminated = env.status == Status::Terminated;
    *row.truncated = env.status == Status::Truncated;
    row.final_rewards.fill(0.0);
    for &s in &env.config.seats {
        row.final_rewards[s.index()] = env.reward(s);
    }
    if autoreset == Autoreset::NextStep {
        return false;
    }
    env.observe_in(geo, seat, row.final_obs);
    env.reset_in(geo, None, stop);
    true
}

/// One environment's share of a [`Batch`].
struct Row<'a> {
    obs: &'a mut [f32],
    final_obs: &'a mut [f32],
    mask: &'a mut [i8],
    reward: &'a mut f32,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    seat: &'a mut u8,
    final_rewards: &'a mut [f32],
}

impl Row<'_> {
    fn reborrow(&mut self) -> Row<'_> {
        Row {
            obs: self.obs,
            final_obs: self.final_obs,
            mask: self.mask,
            reward: self.reward,
            terminated: self.terminated,
            truncated: self.truncated,
            seat: self.seat,
            final_rewards: self.final_rewards,
        }
    }

    /// No reward, no episode ended.
    #[inline(always)]
    fn clear(&mut self) {
        *self.reward = 0.0;
        *self.terminated = false;
        *self.truncated = false;
    }

    /// The observation and mask of the learner (or, when every seat learns, of the seat
    /// to act, or that acted last).
    #[inline(always)]
    fn write<G: Geometry>(self, geo: &G, env: &LudoEnv, learner: Option<Seat>) {
        let seat = learner.unwrap_or(env.actor);
        *self.seat = seat.index() as u8;
        env.observe_in(geo, seat, self.obs);
        env.action_mask_in(geo, seat, self.mask);
    }
}
