//! The learning environments' core (`ludo::env`) for the Python package's PettingZoo,
//! Gymnasium and vector environments (`LudoGame.envs`): arguments in, NumPy arrays out.
//! Players are numbered by their place in turn order (0 = the first seat that plays).

use numpy::{
    PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use super::convert::{MaxRolls, Threads, parse_rules, parse_seats};
use crate::common::rng::fresh_seed;
use crate::ludo::env::{
    self, Autoreset, BatchOpponent, DEFAULT_THREADS, EnvConfig, EnvError, Learner, LudoEnv,
    Opponents, VectorEnv,
};
use crate::ludo::rules::MAX_SEATS;
use crate::ludo::{Bot, Rules, Seat, render};
use crate::python::convert::Seed;
use crate::python::interrupt::interruptible_or_raise;
use crate::python::{describe, type_error};
use crate::stop::Stop;

/// An environment's configuration from its Python arguments (see [`EnvConfig::from_args`]).
/// `opponents` lists, for each player in turn order, a bot name or None (an agent plays).
fn config(
    rules: Option<&Bound<'_, PyAny>>,
    players: Option<&Bound<'_, PyAny>>,
    opponents: Option<&Bound<'_, PyAny>>,
    skip_forced: bool,
    max_rolls: Option<MaxRolls>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<EnvConfig> {
    let rules = parse_rules(rules, options)?;
    let seats = players.map(|p| parse_seats(&rules, Some(p))).transpose()?;
    let roles = opponents
        .map(|o| bot_roles(o, ["a list of bot names or None", "a bot name or None"]))
        .transpose()?;
    let max_rolls = max_rolls.map(|m| m.0);
    Ok(EnvConfig::from_args(
        rules,
        seats,
        roles.as_deref(),
        skip_forced,
        max_rolls,
    )?)
}

/// A list of bot names or None (an agent, or the opponents' policy), as roles; `expected`
/// says what the list and what an item must be.
fn bot_roles(list: &Bound<'_, PyAny>, expected: [&str; 2]) -> PyResult<Vec<Option<Bot>>> {
    let items = (list.try_iter()).map_err(|_| type_error("opponents", expected[0], list))?;
    items
        .map(|item| {
            let item = item?;
            if item.is_none() {
                return Ok(None);
            }
            let name = (item.cast::<PyString>())
                .map_err(|_| type_error("an opponent", expected[1], &item))?;
            Ok(Some(name.to_string_lossy().parse::<Bot>()?))
        })
        .collect()
}

/// Make sure NumPy can be imported, and load its array API once (every later array is
/// made with it): without NumPy the environments raise `ImportError`, never fail later.
fn numpy_ready(py: Python<'_>) -> PyResult<()> {
    crate::python::need_numpy(py, "the learning environments need")?;
    PyArray1::<f32>::zeros(py, 0, false);
    Ok(())
}

/// A seed argument: an int from 0 to 2**64 - 1, or None for a random one.
fn seed_or_random(seed: Option<Seed>) -> u64 {
    seed.map_or_else(fresh_seed, |s| s.0)
}

/// An action: an int (a Python or NumPy integer, anything with `__index__` but a bool),
/// else an `EnvActionError` ([`EnvError::NotAnInt`], [`EnvError::OutOfRange`]).
fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<i64> {
    let index = if action.is_instance_of::<PyBool>() {
        None
    } else if action.is_instance_of::<PyInt>() {
        Some(action.clone())
    } else {
        action.call_method0("__index__").ok()
    };
    let Some(index) = index.filter(|i| !i.is_instance_of::<PyBool>()) else {
        return Err(EnvError::NotAnInt(describe(action)).into());
    };
    (index.extract::<i64>()).map_err(|_| EnvError::OutOfRange(describe(action)).into())
}

/// Ask the Python callable `f` for the action of `seat` in `env`, from any thread: it is
/// called with the player number, that player's observation and its action mask.
fn call_opponent(f: &Py<PyAny>, env: &LudoEnv, seat: Seat) -> PyResult<i64> {
    let player = env.config().player_of(seat)?;
    let (obs, mask) = env.observation_and_mask(seat);
    Python::attach(|py| {
        let (o, m) = (PyArray1::from_vec(py, obs), PyArray1::from_vec(py, mask));
        action_arg(f.bind(py).call1((player, o, m))?.as_any())
    })
}

/// The environment core: one game whose agents' decisions are the steps.
///
/// `LudoEnvCore(rules="cs162", players=None, seed=None, opponents=None,
/// skip_forced=False, max_rolls=None, **options)`: `opponents` gives each player (in turn
/// order) a bot name, or None where an agent plays (all agents when omitted).
#[pyclass(module = "LudoGame._core", name = "LudoEnvCore")]
pub struct PyLudoEnv {
    env: LudoEnv,
}

impl PyLudoEnv {
    fn seat(&self, player: PlayerNumber) -> PyResult<Seat> {
        Ok(self.env.config().seat_of(player.0)?)
    }

    /// Run `work` on the environment with the Python `opponent` as its engine callback: on
    /// a worker thread that honours Ctrl-C when a bot searches or Python plays, else here.
    fn drive(
        &mut self,
        py: Python<'_>,
        opponent: Option<Py<PyAny>>,
        work: impl FnOnce(&mut LudoEnv, Option<&Stop>, Option<Opponent<'_>>) -> PyResult<()> + Send,
    ) -> PyResult<()> {
        let f = opponent
            .as_ref()
            .map(|f| move |e: &LudoEnv, s| call_opponent(f, e, s));
        if f.is_none() && !self.env.config().searches() {
            return work(&mut self.env, None, None);
        }
        let env = &mut self.env;
        interruptible_or_raise(py, |stop| {
            work(env, Some(stop), f.map(|f| Box::new(f) as _))
        })?
    }
}

/// A Python opponent as the engine calls it.
type Opponent<'a> = Box<dyn FnMut(&LudoEnv, Seat) -> PyResult<i64> + Send + 'a>;

#[pymethods]
impl PyLudoEnv {
    #[new]
    #[pyo3(signature = (rules = None, players = None, seed = None, opponents = None,
                        skip_forced = false, max_rolls = None, learner = None, **options))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        seed: Option<Seed>,
        opponents: Option<&Bound<'_, PyAny>>,
        skip_forced: bool,
        max_rolls: Option<MaxRolls>,
        learner: Option<PlayerNumber>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        numpy_ready(py)?;
        let mut config = config(rules, players, opponents, skip_forced, max_rolls, options)?;
        if let Some(learner) = learner {
            config.learner = Some(config.seat_of(learner.0)?);
        }
        let env = LudoEnv::new(config, seed_or_random(seed))?;
        Ok(PyLudoEnv { env })
    }

    /// Start a new episode (seeded, or going on with the episode generator) and play to the
    /// first decision; games that end before it are skipped. With `opponent`, a callable
    /// `opponent(player, observation, mask) -> action`, the agent players other than the learner are played
    /// by it, and the episode starts at the learner's first decision.
    #[pyo3(signature = (seed = None, opponent = None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seed: Option<Seed>,
        opponent: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        let seed = seed.map(|s| s.0);
        self.drive(py, opponent, |env, stop, f| match f {
            Some(f) => env.reset_with(seed, stop, f),
            None => Ok(env.reset(seed, stop)?),
        })
    }

    /// Move token `action` of the player to move, then play on to the next decision or
    /// the end (with `opponent`, as in `reset`, to the learner's next decision). A refused
    /// action raises `EnvActionError` and changes nothing.
    #[pyo3(signature = (action, opponent = None))]
    fn step(
        &mut self,
        py: Python<'_>,
        action: &Bound<'_, PyAny>,
        opponent: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        let action = action_arg(action)?;
        self.env.check(action)?;
        self.drive(py, opponent, |env, stop, f| match f {
            Some(f) => env.step_with(action, stop, f).map(drop),
            None => Ok(env.step(action, stop).map(drop)?),
        })
    }

    /// Check `action` for the player to move, changing nothing: `EnvActionError` if it is
    /// not legal now, `GameOverError` when no decision waits.
    fn check(&self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        Ok(self.env.check(action_arg(action)?)?)
    }

    /// The environment's state as one line of text (see `load_snapshot`).
    fn snapshot(&self) -> String {
        self.env.snapshot()
    }

    /// Put the environment in the state `snapshot()` wrote (for an environment made with
    /// the same arguments); a text that does not fit raises `ValueError` and changes
    /// nothing.
    fn load_snapshot(&mut self, text: &str) -> PyResult<()> {
        self.env = LudoEnv::restore(self.env.config().clone(), text)?;
        Ok(())
    }

    /// Games played out and not handed out as episodes (they ended before the learner's
    /// first decision), since the environment was made.
    #[getter]
    fn skipped_games(&self) -> u64 {
        self.env.skipped().games
    }

    /// Every player's rewards in the skipped games, added up.
    #[getter]
    fn skipped_rewards(&self) -> Vec<f32> {
        self.env.by_player(|s| self.env.skipped().rewards[s])
    }

    /// Where the episode stands: 'decision', 'terminated', 'truncated' or 'idle' (no
    /// episode: before the first reset, or after an interrupted call).
    #[getter]
    fn status(&self) -> &'static str {
        self.env.status().name()
    }

    /// The player who must choose, or None once the episode is over.
    #[getter]
    fn to_move(&self) -> PyResult<Option<usize>> {
        let to_move = self.env.to_move();
        Ok(to_move
            .map(|s| self.env.config().player_of(s))
            .transpose()?)
    }

    /// The positions that play, in turn order ('A'...).
    #[getter]
    fn players(&self) -> Vec<String> {
        let labels = self.env.game().rules().seat_labels;
        self.env.by_player(|s| labels[s].to_string())
    }

    /// Tokens per player (the number of actions).
    #[getter]
    fn tokens(&self) -> usize {
        self.env.game().rules().tokens as usize
    }

    /// The length of an observation.
    #[getter]
    fn observation_len(&self) -> usize {
        env::observation_len(self.env.game().rules())
    }

    /// Die rolls made in this episode.
    #[getter]
    fn rolls(&self) -> u64 {
        self.env.rolls()
    }

    /// `player`'s observation (float32).
    fn observe<'py>(
        &self,
        py: Python<'py>,
        player: PlayerNumber,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat(player)?;
        Ok(PyArray1::from_vec(
            py,
            self.env.observation_and_mask(seat).0,
        ))
    }

    /// `player`'s action mask (int8, one per token; all 0 unless `player` must choose).
    fn action_mask<'py>(
        &self,
        py: Python<'py>,
        player: PlayerNumber,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let seat = self.seat(player)?;
        Ok(PyArray1::from_vec(
            py,
            self.env.observation_and_mask(seat).1,
        ))
    }

    /// Every player's reward (0 until the game is over and on truncation).
    #[getter]
    fn rewards(&self) -> Vec<f32> {
        self.env.by_player(|s| self.env.reward(s))
    }

    /// The board as text.
    fn render_text(&self) -> String {
        render::text(self.env.game())
    }

    /// The board as an SVG picture.
    fn render_svg(&self) -> String {
        render::svg(self.env.game())
    }

    /// The rule set as notation (e.g. 'standard[six_limit=3]').
    #[getter]
    fn rules_notation(&self) -> String {
        self.env.game().rules().to_string()
    }
}

/// Many single-learner environments stepped together in Rust, with same-step autoreset.
///
/// `LudoVectorCore(num_envs, rules="cs162", players=None, seat=None, opponents=None,
/// seed=None, skip_forced=False, max_rolls=None, threads=None, **options)`: the learner
/// plays player `seat` (0 when None); `opponents` gives every other player, in turn order, a bot name
/// ("random" for all when omitted). Environment `i` is seeded with `seed + i`.
#[pyclass(module = "LudoGame._core", name = "LudoVectorCore")]
pub struct PyVectorEnv {
    envs: VectorEnv,
    threads: usize,
    search: bool,
    obs_len: usize,
    tokens: usize,
    /// The observation and final-observation arrays of the last batches, kept to serve
    /// again once nothing else holds them (see [`Spares`]).
    spare_obs: Spares,
    spare_final: Spares,
    /// The engine's per-row seats and final rewards, kept from call to call.
    scratch_seats: Vec<u8>,
    scratch_final: Vec<f32>,
}

/// Arrays of observations returned by the last batches ([`Spares::KEPT`] at most), kept to
/// serve again: an array that nothing else holds any more cannot be seen to change, so a
/// batch may fill it instead of a new zeroed one (a usual loop drops a batch's arrays
/// when it gets the next one, so the arrays of two batches back are free again).
#[derive(Default)]
struct Spares(Vec<Spare>);

/// A kept array and where its data was.
struct Spare {
    array: Py<PyArray2<f32>>,
    /// Only compared, never followed.
    data: usize,
}

impl Spares {
    const KEPT: usize = 2;

    /// A kept array that nothing else holds and that is as it was made (of shape `dims`,
    /// float32, C-contiguous, writable, with the same data), made zeros again if `clear`
    /// (whole: its last holder may have written anywhere in it); None if there is none.
    fn take<'py>(
        &mut self,
        py: Python<'py>,
        dims: [usize; 2],
        clear: bool,
    ) -> Option<Bound<'py, PyArray2<f32>>> {
        let free = self.0.iter().position(|s| {
            // SAFETY: the kept array is a live object (held by the spare).
            unsafe { pyo3::ffi::Py_REFCNT(s.array.as_ptr()) == 1 }
        })?;
        let spare = self.0.remove(free);
        let array = spare.array.into_bound(py);
        let intact = array.shape() == dims
            && array.dtype().is_equiv_to(&numpy::dtype::<f32>(py))
            && array.is_c_contiguous()
            && array.data() as usize == spare.data;
        let mut w = array.try_readwrite().ok().filter(|_| intact)?;
        let values = w.as_slice_mut().ok()?;
        if clear {
            values.fill(0.0);
        }
        drop(w);
        Some(array)
    }

    /// Keep `array`, dropping the oldest beyond [`Spares::KEPT`].
    fn keep(&mut self, array: &Bound<'_, PyArray2<f32>>) {
        if self.0.len() == Self::KEPT {
            self.0.remove(0);
        }
        self.0.push(Spare {
            array: array.clone().unbind(),
            data: array.data() as usize,
        });
    }
}

/// A Python callable `f(obs, masks) -> actions` as the opponents' policy of a vector
/// environment.
struct PyPolicy {
    f: Py<PyAny>,
    obs_len: usize,
    tokens: usize,
}

impl BatchOpponent for PyPolicy {
    type Error = PyErr;

    fn choose(
        &mut self,
        envs: &[usize],
        _seats: &[Seat],
        obs: &[f32],
        masks: &[i8],
        actions: &mut [i64],
    ) -> PyResult<()> {
        let k = envs.len();
        Python::attach(|py| {
            let o = PyArray1::from_slice(py, obs).reshape([k, self.obs_len])?;
            let m = PyArray1::from_slice(py, masks).reshape([k, self.tokens])?;
            let answer = self.f.bind(py).call1((o, m))?;
            let wrong = || -> PyErr {
                let given = describe(&answer);
                EnvError::PolicyAnswer { rows: k, given }.into()
            };
            let got: Vec<i64> = match answer.extract::<PyReadonlyArray1<'_, i64>>() {
                Ok(a) => a.as_array().to_vec(),
                Err(_) => {
                    let np = py.import("numpy")?;
                    let a = np
                        .call_method1("asarray", (&answer,))
                        .map_err(|_| wrong())?;
                    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
                    if !matches!(kind.as_str(), "i" | "u") {
                        return Err(wrong());
                    }
                    a.call_method1("astype", ("int64",))?
                        .extract::<PyReadonlyArray1<'_, i64>>()
                        .map_err(|_| wrong())?
                        .as_array()
                        .to_vec()
                }
            };
            if got.len() != k {
                return Err(wrong());
            }
            actions.copy_from_slice(&got);
            Ok(())
        })
    }
}

/// What a batch call returns: (obs, rewards, terminated, truncated, masks, final_obs,
/// ended, final_rewards, players): final_obs (same-step autoreset only) and ended are None
/// unless an episode ended in the call; final_rewards (every player's reward, by player,
/// when an episode ended) and players (whose observation each row is) are None unless
/// every seat learns.
type Arrays<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<i8>>,
    Option<Bound<'py, PyArray2<f32>>>,
    Option<Bound<'py, PyArray1<bool>>>,
    Option<Bound<'py, PyArray2<f32>>>,
    Option<Bound<'py, PyArray1<i64>>>,
);

impl PyVectorEnv {
    /// The opponents' policy of a batch call: required when some player has no bot,
    /// refused when every player has one.
    fn policy(&self, opponents: Option<Py<PyAny>>) -> PyResult<Option<PyPolicy>> {
        self.envs.check_policy(opponents.is_some())?;
        Ok(opponents.map(|f| PyPolicy {
            f,
            obs_len: self.obs_len,
            tokens: self.tokens,
        }))
    }

    /// Fresh arrays for one batch, filled by `work` with the interpreter released (on a
    /// worker thread that honours Ctrl-C when a bot searches).
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        policy: bool,
        work: impl FnOnce(&mut VectorEnv, usize, Option<&Stop>, env::Batch<'_>) -> PyResult<()> + Send,
    ) -> PyResult<Arrays<'py>> {
        let n = self.envs.envs().len();
        let dims = [n, self.obs_len];
        // Every observation is written each batch; final observations only where an
        // environment ended, zeros elsewhere.
        let obs = (self.spare_obs.take(py, dims, false))
            .unwrap_or_else(|| PyArray2::<f32>::zeros(py, dims, false));
        let rewards = PyArray1::<f32>::zeros(py, n, false);
        let terminated = PyArray1::<bool>::zeros(py, n, false);
        let truncated = PyArray1::<bool>::zeros(py, n, false);
        let masks = PyArray2::<i8>::zeros(py, [n, self.tokens], false);
        let final_obs = (self.spare_final.take(py, dims, true))
            .unwrap_or_else(|| PyArray2::<f32>::zeros(py, dims, false));
        // The engine writes every row of these (kept from call to call).
        let mut seats = std::mem::take(&mut self.scratch_seats);
        seats.resize(n, 0);
        // Final rewards are written only where an episode ended: zeros elsewhere.
        let mut final_buf = std::mem::take(&mut self.scratch_final);
        final_buf.clear();
        final_buf.resize(n * MAX_SEATS, 0.0);
        let ended = {
            let (mut o, mut r, mut te, mut tr, mut m, mut f) = (
                obs.readwrite(),
                rewards.readwrite(),
                terminated.readwrite(),
                truncated.readwrite(),
                masks.readwrite(),
                final_obs.readwrite(),
            );
            let slice_err =
                |e: numpy::AsSliceError| pyo3::exceptions::PyRuntimeError::new_err(e.to_string());
            let (te, tr) = (
                te.as_slice_mut().map_err(slice_err)?,
                tr.as_slice_mut().map_err(slice_err)?,
            );
            let batch = env::Batch {
                obs: o.as_slice_mut().map_err(slice_err)?,
                masks: m.as_slice_mut().map_err(slice_err)?,
                rewards: r.as_slice_mut().map_err(slice_err)?,
                terminated: te,
                truncated: tr,
                final_obs: f.as_slice_mut().map_err(slice_err)?,
                seats: &mut seats,
                final_rewards: &mut final_buf,
            };
            let (envs, threads) = (&mut self.envs, self.threads);
            // A Python policy is called from the worker thread (it takes the interpreter
            // for each call).
            if self.search || policy {
                interruptible_or_raise(py, |stop| work(envs, threads, Some(stop), batch))??;
            } else {
                py.detach(|| work(envs, threads, None, batch))?;
            }
            let ended: Vec<bool> = te.iter().zip(tr.iter()).map(|(&a, &b)| a | b).collect();
            ended.contains(&true).then(|| PyArray1::from_vec(py, ended))
        };
        self.spare_obs.keep(&obs);
        self.spare_final.keep(&final_obs);
        let final_obs = (ended.is_some() && self.envs.has_final_obs()).then_some(final_obs);
        let by_player =
            (ended.as_ref()).and_then(|_| self.envs.final_rewards_by_player(&final_buf));
        let rows = |r: Vec<f32>| {
            let players = r.len() / n;
            PyArray1::from_vec(py, r).reshape([n, players])
        };
        let final_rewards = by_player.map(rows).transpose()?;
        let players = (self.envs.players_of(&seats)).map(|p| PyArray1::from_vec(py, p));
        self.scratch_seats = seats;
        self.scratch_final = final_buf;
        Ok((
            obs,
            rewards,
            terminated,
            truncated,
            masks,
            final_obs,
            ended,
            final_rewards,
            players,
        ))
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, rules = None, players = None, seat = None, opponents = None,
                        seed = None, skip_forced = false, max_rolls = None, threads = None,
                        autoreset = None, **options))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: NumEnvs,
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        seat: Option<&Bound<'_, PyAny>>,
        opponents: Option<&Bound<'_, PyAny>>,
        seed: Option<Seed>,
        skip_forced: bool,
        max_rolls: Option<MaxRolls>,
        threads: Option<Threads>,
        autoreset: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        numpy_ready(py)?;
        let config = config(rules, players, None, skip_forced, max_rolls, options)?;
        // seat="all": every player learns (no opponents).
        let learner = match seat {
            Some(s) if s.extract::<String>().is_ok_and(|t| t == "all") => Some(Learner::All),
            Some(s) => Some(Learner::Player(s.extract::<PlayerNumber>()?.0)),
            None => None,
        };
        let opponents = match opponents {
            None => None,
            Some(o) if o.is_instance_of::<PyString>() => {
                let name = o.cast::<PyString>()?.to_string_lossy().into_owned();
                Some(Opponents::Everyone(name.parse::<Bot>()?))
            }
            Some(o) => Some(Opponents::Each(bot_roles(
                o,
                [
                    "a bot name or a list of them",
                    "a built-in bot name or None",
                ],
            )?)),
        };
        let autoreset = autoreset
            .map(|a| {
                // A gymnasium AutoresetMode (its value) or its name.
                let text = match a.getattr("value") {
                    Ok(v) if !a.is_instance_of::<PyString>() => v,
                    _ => a.clone(),
                };
                let name = (text.cast::<PyString>())
                    .map_err(|_| type_error("autoreset", "'next_step' or 'same_step'", a))?;
                Ok::<_, PyErr>(Autoreset::from_name(&name.to_string_lossy())?)
            })
            .transpose()?;
        let rules: Rules = config.rules;
        let (n, seed) = (num_envs.0, seed_or_random(seed));
        let envs = VectorEnv::with_learner(config, learner, opponents, n, seed, autoreset)?;
        let search = (envs.envs().iter()).any(|e| e.config().searches());
        Ok(PyVectorEnv {
            envs,
            threads: threads.map_or(DEFAULT_THREADS, |t| t.0),
            search,
            obs_len: env::observation_len(&rules),
            tokens: rules.tokens as usize,
            spare_obs: Spares::default(),
            spare_final: Spares::default(),
            scratch_seats: Vec::new(),
            scratch_final: Vec::new(),
        })
    }

    /// Reset every environment (environment `i` with `seeds[i]`, or each going on with its
    /// own episode generator). Returns (obs, rewards, terminated, truncated, masks,
    /// final_obs, ended) like `step` (final_obs and ended are None).
    #[pyo3(signature = (seeds = None, opponents = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seeds: Option<Vec<Seed>>,
        opponents: Option<Py<PyAny>>,
    ) -> PyResult<Arrays<'py>> {
        let seeds: Option<Vec<u64>> = seeds.map(|s| s.into_iter().map(|s| s.0).collect());
        let mut policy = self.policy(opponents)?;
        self.run(
            py,
            policy.is_some(),
            |envs, threads, stop, batch| match &mut policy {
                Some(p) => envs.reset_with(seeds.as_deref(), threads, stop, batch, p),
                None => Ok(envs.reset(seeds.as_deref(), threads, stop, batch)?),
            },
        )
    }

    /// Step every environment with its action (a 1-D int64 array, one per environment).
    /// Returns (obs, rewards, terminated, truncated, masks, final_obs, ended): unless None
    /// (when no episode ended), ended flags the environments whose episode ended (and which
    /// were reset), and final_obs holds their last observation (zeros in the other rows).
    #[pyo3(signature = (actions, opponents = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        opponents: Option<Py<PyAny>>,
    ) -> PyResult<Arrays<'py>> {
        let actions: PyReadonlyArray1<'py, i64> =
            (actions.extract()).map_err(|_| EnvError::NotActions(describe(actions)))?;
        // A strided array is copied into a contiguous one.
        let copy: Vec<i64>;
        let actions = match actions.as_slice() {
            Ok(slice) => slice,
            Err(_) => {
                copy = actions.as_array().iter().copied().collect();
                &copy
            }
        };
        let mut policy = self.policy(opponents)?;
        self.run(
            py,
            policy.is_some(),
            |envs, threads, stop, batch| match &mut policy {
                Some(p) => envs.step_with(actions, threads, stop, batch, p),
                None => Ok(envs.step(actions, threads, stop, batch)?),
            },
        )
    }

    /// Every environment's state as a line of text (see `LudoEnvCore.snapshot`).
    fn snapshots(&self) -> Vec<String> {
        self.envs.snapshot()
    }

    /// Put every environment in the state `snapshots()` wrote (for a vector environment
    /// made with the same arguments); texts that do not fit raise `ValueError` and change
    /// nothing.
    fn load_snapshots(&mut self, snapshots: Vec<String>) -> PyResult<()> {
        Ok(self.envs.restore(&snapshots)?)
    }

    /// Does some player need the opponents' policy (`opponents=` of `step` and `reset`)?
    #[getter]
    fn has_opponents(&self) -> bool {
        self.envs.has_opponents()
    }

    /// 'next_step' or 'same_step': when an environment whose episode ended starts the next.
    #[getter]
    fn autoreset(&self) -> &'static str {
        self.envs.autoreset().name()
    }

    /// Games played out and not handed out as episodes (they ended before the learner's
    /// first decision), over every environment since they were made.
    #[getter]
    fn skipped_games(&self) -> u64 {
        self.envs.skipped_games()
    }

    /// The learner's rewards in the skipped games, added up.
    #[getter]
    fn skipped_reward(&self) -> f64 {
        self.envs.skipped_reward()
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.envs.envs().len()
    }

    /// The length of an observation.
    #[getter]
    fn observation_len(&self) -> usize {
        self.obs_len
    }

    /// Tokens per player (the number of actions).
    #[getter]
    fn tokens(&self) -> usize {
        self.tokens
    }

    /// The threads a step uses.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }
}

crate::python::convert::int_arg!(/// A player number (the seats that play, in turn order).
    PlayerNumber, "player", usize, 0, crate::ludo::MAX_SEATS - 1);

crate::python::convert::int_arg!(/// A vector environment's size.
    NumEnvs, "num_envs", usize, 1, env::MAX_ENVS);
