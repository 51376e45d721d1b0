//! `Simulation` and `SimResult`: batch simulation with the interpreter released, and the
//! Python side of bots (names of built-in bots, or Python callables).

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::convert::{Count, Start, Threads};
use super::game::{AnyBot, PyGame, ask_python, parse_bots};
pub(crate) use super::sim_result::SimResult;
use crate::ludo::report::Report;
use crate::ludo::sim::{SimConfig, SimResult as CoreResult};
use crate::ludo::{Bot, LudoError as CoreError, Seat};
use crate::python::convert::Seed;
use crate::python::interrupt::{interruptible, with_partial};

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
    /// and raises `KeyboardInterrupt` (`Interrupted`) whose `partial` is the `SimResult`
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
            return Err(crate::python::errors::InvalidArgumentError::new_err(
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
                    let partial = Bound::new(py, self.result(r)?)?.into_any();
                    return Err(with_partial(py, e, partial));
                }
            }
            return self.result(r);
        }
        let config = &self.config;
        match interruptible(py, |stop| {
            config.run_until(start, count, threads, Some(stop))
        }) {
            (r, None) => self.result(r),
            (r, Some(e)) => {
                let partial = Bound::new(py, self.result(r)?)?.into_any();
                Err(with_partial(py, e, partial))
            }
        }
    }
}

impl Simulation {
    /// The Python result of `inner`, games of this simulation.
    fn result(&self, inner: CoreResult) -> PyResult<SimResult> {
        let report = Report::new(&self.config, self.bot_names.clone(), inner)?;
        Ok(SimResult { report })
    }

    /// Game `i` with Python bots in their seats (the engine's
    /// [`SimConfig::play_game_with`]: the same dice and built-in bot randomness as the run).
    fn play_with_python(&self, py: Python<'_>, i: u64, out: &mut CoreResult) -> PyResult<()> {
        let callers: Vec<usize> = self.python_bots.iter().map(|(k, _)| *k).collect();
        let seats = self.config.playing()?;
        self.config
            .play_game_with(
                i,
                &callers,
                |k, g| match self.python_bots.iter().find(|(j, _)| *j == k) {
                    Some((_, f)) => ask_python(py, f, g, seats[k]),
                    None => Err(CoreError::InvalidBot(format!("no bot for player {k}")).into()),
                },
                out,
            )
            .map_err(|e| with_game_number(py, e, i))
    }
}

fn with_game_number(py: Python<'_>, e: PyErr, i: u64) -> PyErr {
    if e.is_instance_of::<PyKeyboardInterrupt>(py) {
        return e;
    }
    let msg = e.value(py).to_string();
    crate::python::errors::InvalidBotError::new_err(format!("game {i}: {msg}"))
}

/// The playouts per decision of the bot named `name` as the engine reads it (`mcts` is
/// 1000, `mcts:200` 200), None for a bot that does not play out; `InvalidBotError` for a
/// name the engine does not know.
#[pyfunction]
pub fn bot_playouts(name: &str) -> PyResult<Option<u32>> {
    Ok(name.parse::<Bot>()?.playouts())
}
