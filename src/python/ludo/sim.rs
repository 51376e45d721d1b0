//! `Simulation` and `SimResult`: batch simulation with the interpreter released, and the
//! Python side of bots (names of built-in bots, or Python callables).

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::convert::{Count, Start, Threads};
use super::game::PyGame;
pub(crate) use super::sim_result::SimResult;
use crate::ludo::sim::{MAX_ROLLS, SimConfig, SimResult as CoreResult};
use crate::ludo::{Bot, Game as CoreGame, LudoError as CoreError, Move as CoreMove, Rng, Seat};
use crate::python::convert::Seed;
use crate::python::describe;
use crate::python::interrupt::{interruptible, with_partial};

/// A bot as given from Python.
pub(crate) enum AnyBot {
    /// A built-in bot.
    Builtin(Bot),
    /// A Python callable `bot(game) -> Move | str`.
    Python(Py<PyAny>),
}

/// Read one bot per player from a list (in turn order), a dict keyed by position, or a
/// single bot (or a list of one) for everyone.
pub(crate) fn parse_bots(bots: &Bound<'_, PyAny>, labels: &[char]) -> PyResult<Vec<AnyBot>> {
    let one = |b: &Bound<'_, PyAny>| -> PyResult<AnyBot> {
        if let Ok(s) = b.cast::<PyString>() {
            Ok(AnyBot::Builtin(s.to_string_lossy().parse::<Bot>()?))
        } else if b.is_callable() {
            Ok(AnyBot::Python(b.clone().unbind()))
        } else {
            Err(CoreError::InvalidBot(format!(
                "a bot is a name such as 'cs162' or a callable bot(game) -> move, not {}",
                describe(b)
            ))
            .into())
        }
    };
    if bots.is_instance_of::<PyString>() || (bots.is_callable() && !bots.is_instance_of::<PyList>())
    {
        return labels.iter().map(|_| one(bots)).collect();
    }
    // A list of one bot plays every seat, as the bot alone does.
    if let Ok(list) = bots.cast::<PyList>()
        && list.len() == 1
    {
        let only = list.get_item(0)?;
        return labels.iter().map(|_| one(&only)).collect();
    }
    if let Ok(d) = bots.cast::<PyDict>() {
        return labels
            .iter()
            .map(|&l| match d.get_item(l.to_string())? {
                Some(b) => one(&b),
                None => Err(CoreError::InvalidBot(format!("no bot for player '{l}'")).into()),
            })
            .collect();
    }
    let list: Vec<Bound<'_, PyAny>> = match bots.try_iter() {
        Ok(it) => it.collect::<PyResult<_>>()?,
        Err(_) => {
            return Err(CoreError::InvalidBot(format!(
                "bots must be a list, a dict or one bot, not {}",
                describe(bots)
            ))
            .into());
        }
    };
    if list.len() != labels.len() {
        return Err(CoreError::InvalidBot(format!(
            "{} bots for {} players: give one bot per player",
            list.len(),
            labels.len()
        ))
        .into());
    }
    list.iter().map(one).collect()
}

/// The move `bot` plays in `game` (which waits for a move). A Python bot that raises,
/// returns something that is not a move, or an illegal move, is an `InvalidBotError`
/// naming the seat.
pub(crate) fn choose(
    py: Python<'_>,
    bot: &AnyBot,
    game: &CoreGame,
    rng: &mut Rng,
    label: char,
) -> PyResult<CoreMove> {
    match bot {
        AnyBot::Builtin(b) => b
            .choose(game, rng)
            .ok_or_else(|| CoreError::IllegalMove("no legal move to choose".into()).into()),
        AnyBot::Python(f) => {
            let view = Py::new(py, PyGame::snapshot(*game))?;
            let answer = f.bind(py).call1((view,)).map_err(|e| {
                if e.is_instance_of::<PyKeyboardInterrupt>(py) {
                    return e;
                }
                CoreError::InvalidBot(format!("the bot of player '{label}' raised {e}")).into()
            })?;
            let mv = PyGame::answer_to_move(game, &answer).map_err(|e| {
                CoreError::InvalidBot(format!("the bot of player '{label}' failed: {e}"))
            })?;
            if !game.legal_moves().contains(&mv) {
                return Err(CoreError::InvalidBot(format!(
                    "the bot of player '{label}' chose {}, which is not a legal move",
                    game.move_name(&mv)
                ))
                .into());
            }
            Ok(mv)
        }
    }
}

/// A batch of whole games between bots, played in Rust.
///
/// `Simulation(rules="cs162", players=None, bots="random", seed=0, **options)`: players as
/// for `Game` (by default A and C, all four for "gt"), one bot for everyone or one per player;
/// `run(start, count, threads=1)` plays games `start..start+count` and returns a
/// `SimResult`. Game i always gets the same dice and bot randomness, so results do not
/// depend on the thread count or on how the run is split into chunks.
#[pyclass(module = "LudoGame", frozen)]
pub struct Simulation {
    config: SimConfig,
    python_bots: Vec<(usize, Py<PyAny>)>,
    labels: Vec<char>,
    bot_names: Vec<String>,
}

#[pymethods]
impl Simulation {
    #[new]
    #[pyo3(signature = (rules = "cs162", players = None, bots = None, seed = None, **options))]
    fn new(
        py: Python<'_>,
        rules: &str,
        players: Option<&Bound<'_, PyAny>>,
        bots: Option<&Bound<'_, PyAny>>,
        seed: Option<Seed>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let seed = seed.map_or(0, |s| s.0);
        let name = PyString::new(py, rules).into_any();
        let probe = PyGame::new(Some(&name), players, None, options)?;
        let game = *probe.game();
        let seats: Vec<Seat> = game.seats().collect();
        let labels: Vec<char> = seats.iter().map(|&s| game.rules().seat_label(s)).collect();
        let default_bots = PyString::new(py, "random").into_any();
        let parsed = parse_bots(bots.unwrap_or(&default_bots), &labels)?;
        let mut builtin = Vec::new();
        let mut python_bots = Vec::new();
        let mut bot_names = Vec::new();
        for (k, b) in parsed.into_iter().enumerate() {
            match b {
                AnyBot::Builtin(bot) => {
                    bot_names.push(bot.to_string());
                    builtin.push(bot);
                }
                AnyBot::Python(f) => {
                    bot_names.push(
                        f.bind(py)
                            .getattr("__name__")
                            .map(|n| n.to_string())
                            .unwrap_or_else(|_| "python".to_owned()),
                    );
                    builtin.push(Bot::Random);
                    python_bots.push((k, f));
                }
            }
        }
        Ok(Simulation {
            config: SimConfig {
                rules: *game.rules(),
                seats: seats.iter().map(|s| s.index()).collect(),
                bots: builtin,
                seed,
            },
            python_bots,
            labels,
            bot_names,
        })
    }

    /// The positions that play, in turn order.
    #[getter]
    fn players(&self) -> Vec<char> {
        self.labels.clone()
    }

    /// The bots' names, one per player.
    #[getter]
    fn bots(&self) -> Vec<String> {
        self.bot_names.clone()
    }

    /// The rule set's preset name: 'cs162', 'standard' or 'gt' (as `Game.rules`).
    #[getter]
    fn rules(&self) -> &'static str {
        self.config.rules.name()
    }

    /// Every rule option and its value (as `Game.options`).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        super::convert::options_dict(py, &self.config.rules)
    }

    /// The rule set as notation (e.g. 'standard[six_limit=3]'), as `Game.rules_notation`.
    #[getter]
    fn rules_notation(&self) -> String {
        self.config.rules.to_string()
    }

    /// The run's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.config.seed
    }

    /// Play games `start..start+count` on `threads` threads, with the interpreter released
    /// (Python bots run on one thread, holding it). Ctrl-C stops the run within a moment
    /// and raises `Interrupted` (a `KeyboardInterrupt`) whose `partial` is the `SimResult`
    /// of the games from `start` that finished.
    #[pyo3(signature = (start = None, count = None, threads = None))]
    fn run(
        &self,
        py: Python<'_>,
        start: Option<Start>,
        count: Option<Count>,
        threads: Option<Threads>,
    ) -> PyResult<SimResult> {
        let start = start.map_or(0, |v| v.0);
        let count = count.map_or(1000, |v| v.0);
        let threads = threads.map_or(1, |v| v.0);
        if start.checked_add(count).is_none() {
            return Err(crate::python::convert::InvalidArgumentError::new_err(
                format!(
                    "start + count must not pass 2**64 - 1 (games are numbered by a 64-bit index): \
                 start {start}, count {count}"
                ),
            ));
        }
        if !self.python_bots.is_empty() {
            let mut r = CoreResult::default();
            for i in start..start + count {
                if let Err(e) = py
                    .check_signals()
                    .and_then(|()| self.play_with_python(py, i, &mut r))
                {
                    let partial = Bound::new(py, self.result(r))?.into_any();
                    return Err(with_partial(py, e, partial));
                }
            }
            return Ok(self.result(r));
        }
        let config = &self.config;
        match interruptible(py, |stop| {
            config.run_until(start, count, threads, Some(stop))
        }) {
            (r, None) => Ok(self.result(r)),
            (r, Some(e)) => {
                let partial = Bound::new(py, self.result(r))?.into_any();
                Err(with_partial(py, e, partial))
            }
        }
    }
}

/// The most games one `Simulation.run` call plays (their per-game results alone take about
/// 10 bytes a game); longer runs go in chunks, as `ludo simulate` and `simulate(...,
/// progress=...)` do.
pub(super) const MAX_RUN: u64 = 1 << 32;

impl Simulation {
    /// The Python result of `inner`, games of this simulation.
    fn result(&self, inner: CoreResult) -> SimResult {
        SimResult {
            inner,
            rules: self.config.rules.to_string(),
            labels: self.labels.clone(),
            seats: self.config.playing().unwrap_or_default(),
            bot_names: self.bot_names.clone(),
        }
    }

    /// Game `i` with Python bots in their seats (the same dice and built-in bot randomness
    /// as [`SimConfig::play_game`]).
    fn play_with_python(&self, py: Python<'_>, i: u64, out: &mut CoreResult) -> PyResult<()> {
        let cfg = &self.config;
        let (dice, bots_seed) = cfg.game_seeds(i);
        let mut rng = Rng::new(bots_seed);
        let mut g = CoreGame::new(cfg.rules, &cfg.playing()?, dice)?;
        // The roll limit is checked before every roll and move (as autoplay does).
        let limits = crate::ludo::play::Limits {
            max_rolls: u64::from(MAX_ROLLS),
            cut_off: crate::ludo::play::CutOff::BeforeEachStep,
            stop: None,
        };
        let played = crate::ludo::play::play(&mut g, limits, |g: &CoreGame| {
            let k = cfg
                .seats
                .iter()
                .position(|&s| s == g.current_player().index());
            let k = k.unwrap_or(0);
            let bot = match self.python_bots.iter().find(|(j, _)| *j == k) {
                Some((_, f)) => AnyBot::Python(f.clone_ref(py)),
                None => AnyBot::Builtin(cfg.bots[k]),
            };
            choose(py, &bot, g, &mut rng, self.labels[k])
                .map(Some)
                .map_err(|e| with_game_number(py, e, i))
        })?;
        let rolls = u32::try_from(played.rolls).unwrap_or(u32::MAX);
        let captures = u32::try_from(played.captures).unwrap_or(u32::MAX);
        let mut one = CoreResult::default();
        cfg.record(&g, rolls, captures, &mut one);
        out.extend(one);
        Ok(())
    }
}

fn with_game_number(py: Python<'_>, e: PyErr, i: u64) -> PyErr {
    if e.is_instance_of::<PyKeyboardInterrupt>(py) {
        return e;
    }
    let msg = e.value(py).to_string();
    crate::python::errors::InvalidBotError::new_err(format!("game {i}: {msg}"))
}
