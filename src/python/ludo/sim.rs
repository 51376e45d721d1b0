//! `Simulation` and `SimResult`: batch simulation with the interpreter released, and the
//! Python side of bots (names of built-in bots, or Python callables).

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::convert::{Count, Start, Threads};
use super::game::{Callables, PyCaller, PyGame, parse_bots};
pub(crate) use super::sim_result::SimResult;
use crate::common::rng::fresh_seed;
use crate::ludo::Bot;
use crate::ludo::report::Report;
use crate::ludo::sim::{
    DEFAULT_BOT, DEFAULT_SEED, SimConfig, SimResult as CoreResult, failed_in_game,
};
use crate::python::convert::Seed;
use crate::python::interrupt::{interruptible, with_partial};

/// A batch of whole games between bots, played in Rust.
///
/// `Simulation(rules="cs162", players=None, bots="random", seed=0, **options)`: players as
/// for `Game` (by default A and C, all four for "gt"), one bot for everyone or one per player;
/// the seed by default `SIM_SEED` (0), so that the same run repeats, and `seed=None` a fresh
/// one, as `Game`'s (kept in `seed`).
/// `run(start, count, threads=1)` plays games `start..start+count` and returns a
/// `SimResult`. Game i always gets the same dice and bot randomness, so results do not
/// depend on the thread count or on how the run is split into chunks.
#[pyclass(module = "LudoGame", frozen)]
pub struct Simulation {
    config: SimConfig,
    /// The Python bots, by player (`None` where a built-in bot plays).
    callables: Callables,
    labels: Vec<char>,
    bot_names: Vec<String>,
}

#[pymethods]
impl Simulation {
    #[new]
    // The text signature shows DEFAULT_SEED's value (checked by test_defaults).
    #[pyo3(
        signature = (rules = "cs162", players = None, bots = None, seed = Some(Seed(DEFAULT_SEED)), **options),
        text_signature = "(rules='cs162', players=None, bots=None, seed=0, **options)"
    )]
    fn new(
        py: Python<'_>,
        rules: &str,
        players: Option<&Bound<'_, PyAny>>,
        bots: Option<&Bound<'_, PyAny>>,
        seed: Option<Seed>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let name = PyString::new(py, rules).into_any();
        let probe = PyGame::new(Some(&name), players, None, options)?;
        let game = *probe.game();
        let default_bots = PyString::new(py, DEFAULT_BOT).into_any();
        let (choosers, callables) = parse_bots(bots.unwrap_or(&default_bots), &game)?;
        let name = |f: &Option<Py<PyAny>>| {
            let name = f.as_ref().and_then(|f| f.bind(py).getattr("__name__").ok());
            name.map(|n| n.to_string())
        };
        let bot_names = (choosers.iter().zip(&callables))
            .map(|(c, f)| c.name(name(f)))
            .collect();
        Ok(Simulation {
            config: SimConfig::of_game(&game, &choosers, seed.map_or_else(fresh_seed, |s| s.0)),
            callables,
            labels: game.seats().map(|s| game.rules().seat_label(s)).collect(),
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

    /// The run's seed (the one drawn for `seed=None`).
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
        let (start, count, threads) =
            (start.map(|v| v.0), count.map(|v| v.0), threads.map(|v| v.0));
        let (start, count, threads) = SimConfig::run_args(start, count, threads)?;
        let config = &self.config;
        let callers: Vec<usize> = (0..self.callables.len())
            .filter(|&k| self.callables[k].is_some())
            .collect();
        let (r, raised) = if callers.is_empty() {
            interruptible(py, |stop| {
                config.run_until(start, count, threads, Some(stop))
            })
        } else {
            let seats = config.playing()?;
            let mut caller = PyCaller::new(py, &self.callables, &seats);
            let (r, e) = config.run_with(start, count, threads, None, &callers, &mut caller);
            (r, e.map(|(i, e)| with_game_number(py, e, i)))
        };
        match raised {
            None => self.result(r),
            Some(e) => {
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
}

/// A Python bot's error in game `i`, with the game's number (Ctrl-C as it is).
fn with_game_number(py: Python<'_>, e: PyErr, i: u64) -> PyErr {
    if e.is_instance_of::<PyKeyboardInterrupt>(py) {
        return e;
    }
    failed_in_game(i, e.value(py)).into()
}

/// The playouts per decision of the bot named `name` as the engine reads it (`mcts` is
/// 1000, `mcts:200` 200), None for a bot that does not play out; `InvalidBotError` for a
/// name the engine does not know.
#[pyfunction]
pub fn bot_playouts(name: &str) -> PyResult<Option<u32>> {
    Ok(name.parse::<Bot>()?.playouts())
}
