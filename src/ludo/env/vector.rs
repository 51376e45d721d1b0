//! [`VectorEnv`]: many [`LudoEnv`]s of one learner stepped together, on any number of
//! threads, with same-step autoreset.

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
    /// For environments whose episode ended in this step, the last observation before the
    /// automatic reset (`num_envs * observation_len`; other rows are left as they are).
    pub final_obs: &'a mut [f32],
}

/// Many single-learner environments stepped together, with same-step autoreset: an
/// environment whose episode ends in a step is reset at once, and the step shows the new
/// episode's first observation (the last one is kept in [`Batch::final_obs`]).
#[derive(Clone, Debug)]
pub struct VectorEnv {
    envs: Vec<LudoEnv>,
    learner: Seat,
    needs_reset: bool,
    /// Worker threads for steps on more than one thread, kept between steps.
    pool: Pool,
}

impl VectorEnv {
    /// `num_envs` environments of `config` (whose agent seat is `learner`; every other
    /// seat must be a bot), environment `i` seeded with `seed + i`; no episode runs until
    /// [`VectorEnv::reset`].
    pub fn new(
        config: EnvConfig,
        learner: Seat,
        num_envs: usize,
        seed: u64,
    ) -> Result<VectorEnv, EnvError> {
        if !config.seats.contains(&learner) {
            return Err(LudoError::PositionNotPlaying(
                config.rules.seat_labels[learner].to_string(),
            )
            .into());
        }
        if config
            .seats
            .iter()
            .any(|&s| s != learner && config.roles[s] == Role::Agent)
            || config.roles[learner] != Role::Agent
        {
            return Err(LudoError::InvalidBot(
                "a vector environment has one agent seat: every other seat needs a bot".into(),
            )
            .into());
        }
        if num_envs == 0 {
            return Err(EnvError::InvalidArgument(
                "num_envs must be at least 1".into(),
            ));
        }
        let first = LudoEnv::new(config, seed)?;
        let mut envs = vec![first; num_envs];
        for (i, env) in envs.iter_mut().enumerate() {
            env.episodes = Rng::new(seed.wrapping_add(i as u64));
        }
        Ok(VectorEnv {
            envs,
            learner,
            needs_reset: true,
            pool: Pool::default(),
        })
    }

    /// The environments.
    pub fn envs(&self) -> &[LudoEnv] {
        &self.envs
    }

    /// The learner's seat.
    pub fn learner(&self) -> Seat {
        self.learner
    }

    /// Reset every environment: environment `i` with `seeds[i]` (or, without seeds, each
    /// going on with its own episode generator). Writes the observations and masks; the
    /// rewards and flags of `out` are cleared.
    pub fn reset(
        &mut self,
        seeds: Option<&[u64]>,
        threads: usize,
        stop: Option<&Stop>,
        out: Batch<'_>,
    ) -> Result<(), EnvError> {
        if let Some(seeds) = seeds
            && seeds.len() != self.envs.len()
        {
            return Err(EnvError::InvalidArgument(format!(
                "{} seeds for {} environments",
                seeds.len(),
                self.envs.len()
            )));
        }
        self.needs_reset = true;
        let learner = self.learner;
        let first = &self.envs[0];
        over_geometry!(first, geo => self.for_each(threads, out, |i, env, row| {
            if stop.is_some_and(Stop::requested) {
                return;
            }
            env.reset_in(geo, seeds.map(|s| s[i]), stop);
            row.write(geo, env, learner, 0.0, false, false);
        }));
        if stop.is_some_and(Stop::requested) {
            return Err(EnvError::EpisodeOver("a reset was interrupted"));
        }
        self.needs_reset = false;
        Ok(())
    }

    /// Check every action, then step every environment with its action; an environment
    /// whose episode ends is reset at once. One refused action refuses the batch, and
    /// nothing changes.
    pub fn step(
        &mut self,
        actions: &[i64],
        threads: usize,
        stop: Option<&Stop>,
        out: Batch<'_>,
    ) -> Result<(), EnvError> {
        if self.needs_reset {
            return Err(EnvError::EpisodeOver("no episode is running"));
        }
        if actions.len() != self.envs.len() {
            return Err(EnvError::InvalidArgument(format!(
                "{} actions for {} environments",
                actions.len(),
                self.envs.len()
            )));
        }
        // An episode that ended before the learner's first decision takes no action.
        let refused = self
            .envs
            .iter()
            .zip(actions)
            .position(|(env, &a)| env.status == Status::Decision && !env.accepts(a));
        if let Some(i) = refused {
            return Err(match self.envs[i].check(actions[i]) {
                Err(EnvError::IllegalAction { action, legal, .. }) => EnvError::IllegalAction {
                    env: Some(i),
                    action,
                    legal,
                },
                Err(other) => other,
                Ok(()) => EnvError::EpisodeOver("no move is awaited"),
            });
        }
        self.needs_reset = true;
        let learner = self.learner;
        // Set when a step leaves an environment without an episode (a stop cut it short).
        let idle = AtomicBool::new(false);
        let first = &self.envs[0];
        // Every environment has the same rules: the geometry is chosen once for the batch.
        over_geometry!(first, geo => self.for_each(threads, out, |i, env, row| {
            if stop.is_some_and(Stop::requested) {
                return;
            }
            let status = if env.status == Status::Decision {
                // Checked above: the action is legal.
                env.step_in(geo, actions[i], stop)
            } else {
                env.status
            };
            if matches!(status, Status::Terminated | Status::Truncated) {
                end_episode(geo, env, learner, status, stop, row);
            } else {
                row.write(geo, env, learner, 0.0, false, false);
            }
            if env.status == Status::Idle {
                idle.store(true, Ordering::Relaxed);
            }
        }));
        if stop.is_some_and(Stop::requested) || idle.load(Ordering::Relaxed) {
            return Err(EnvError::EpisodeOver("a step was interrupted"));
        }
        self.needs_reset = false;
        Ok(())
    }

    /// Run `f` on every environment and its output row, over `threads` threads (each
    /// taking a contiguous share; the result does not depend on the split).
    fn for_each<F>(&mut self, threads: usize, out: Batch<'_>, f: F)
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
            .enumerate()
            .map(|(i, ((((((env, obs), fin), mask), rew), term), trunc))| {
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
                    },
                )
            });
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

/// The autoreset of an environment whose episode ended with `status` (kept out of the
/// step's loop, which it would slow): the final observation and the reward are written,
/// then the next episode starts.
#[inline(never)]
fn end_episode<G: Geometry>(
    geo: &G,
    env: &mut LudoEnv,
    learner: Seat,
    status: Status,
    stop: Option<&Stop>,
    row: Row<'_>,
) {
    env.observe_in(geo, learner, row.final_obs);
    let reward = env.reward(learner);
    env.reset_in(geo, None, stop);
    row.write(
        geo,
        env,
        learner,
        reward,
        status == Status::Terminated,
        status == Status::Truncated,
    );
}

/// One environment's share of a [`Batch`].
struct Row<'a> {
    obs: &'a mut [f32],
    final_obs: &'a mut [f32],
    mask: &'a mut [i8],
    reward: &'a mut f32,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
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
        }
    }

    #[inline(always)]
    fn write<G: Geometry>(
        self,
        geo: &G,
        env: &LudoEnv,
        learner: Seat,
        reward: f32,
        terminated: bool,
        truncated: bool,
    ) {
        env.observe_in(geo, learner, self.obs);
        env.action_mask_in(geo, learner, self.mask);
        *self.reward = reward;
        *self.terminated = terminated;
        *self.truncated = truncated;
    }
}
