//! `MatchRecord` and the refereed match `onitama_play_match`: the two contestants become
//! closures for the engine's referee ([`play_refereed`]), whose record is wrapped.

use std::cell::RefCell;

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{MaxPlies, SetupId, TimeBudget, read_answer};
use super::game::{PyOnitama, borrow_game, contract_args};
use super::{PyAction, PyAi, actions_list, letter};
use crate::onitama::{
    AiFailure, Answer, EndReason, Game, MatchConfig, MatchRecord, MatchStart, Player, Position,
    SavedMatch, play_refereed,
};
use crate::python::convert::arg;
use crate::python::interrupt::with_partial;
use crate::python::type_error;

/// The full record of a refereed game: the start, every accepted action, the result and
/// why the game ended.
#[pyclass(module = "LudoGame.onitama", name = "MatchRecord", frozen)]
pub struct PyMatchRecord {
    start: Game,
    record: MatchRecord,
}

#[pymethods]
impl PyMatchRecord {
    /// The setup played ('case21', ...), or None for a game that did not start from one
    /// or was given with actions already played.
    #[getter]
    fn setup(&self) -> Option<&'static str> {
        self.start.setup()
    }

    /// The start position's notation.
    #[getter]
    fn start(&self) -> String {
        self.start.to_notation()
    }

    /// The final position's notation.
    #[getter]
    fn end(&self) -> String {
        self.start.notation_of(&self.record.end)
    }

    /// Every accepted action, in order.
    #[getter]
    fn actions(&self) -> Vec<PyAction> {
        actions_list(
            self.record.actions.iter().copied(),
            self.start.position().rules(),
        )
    }

    /// The winner, 'A' or 'B', or None for a tie.
    #[getter]
    fn winner(&self) -> Option<String> {
        self.record.winner().map(letter)
    }

    /// 'A won', 'B won' or 'tie' ('interrupted' for the partial record of an interrupted
    /// match).
    #[getter]
    fn result(&self) -> String {
        self.record.result_text()
    }

    /// Why the game ended, a `Reason`: 'general_captured', 'base_reached', 'ply_limit' (a
    /// tie), 'invalid_move' (the loser's AI gave an invalid answer, or one of a wrong type),
    /// 'programming_error' (it raised an exception) or 'timeout' (it took longer than the
    /// time budget); 'interrupted' in the partial record that an interrupted match's
    /// `KeyboardInterrupt` carries (the game was not finished).
    #[getter]
    fn reason<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        super::REASON.of(py, self.record.reason.name())
    }

    /// What went wrong, for the last three reasons: the referee's message, the exception,
    /// or the time taken ('' otherwise).
    #[getter]
    fn detail(&self) -> String {
        self.record.reason.detail()
    }

    /// The player whose AI failed ('A' or 'B'), or None.
    #[getter]
    fn failed(&self) -> Option<String> {
        self.record.reason.failed_by().map(letter)
    }

    /// The rejected answer of an 'invalid_move' game, as given (None otherwise).
    #[getter]
    fn invalid_answer(&self) -> Option<(i64, String, String, String)> {
        match &self.record.reason {
            EndReason::InvalidAnswer { answer, .. } => answer.as_tuple(),
            _ => None,
        }
    }

    /// Plies started: the accepted ones, plus a final failing one.
    #[getter]
    fn plies(&self) -> u32 {
        self.record.plies
    }

    /// Points by player: 2 a win, 1 a tie, 0 a loss (0 each for an interrupted match).
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for p in Player::BOTH {
            d.set_item(letter(p), self.record.points(p))?;
        }
        Ok(d)
    }

    /// The game replayed: an `Onitama` at the final position, with every action in its
    /// history.
    fn game(&self) -> PyResult<PyOnitama> {
        let game = self.start.replayed(&self.record.actions)?;
        Ok(PyOnitama { game })
    }

    /// The game as saved text: the game's JSON (`Onitama.to_json`, which `Onitama.from_json`
    /// reads back) with the match's result added: who played A and B (`a`, `b`), `result`,
    /// `winner`, `reason`, `detail`, `failed`, `plies` and the rejected `answer`.
    #[pyo3(signature = (a = None, b = None))]
    fn to_json(&self, a: Option<String>, b: Option<String>) -> PyResult<String> {
        let saved = SavedMatch {
            start: self.start.clone(),
            record: self.record.clone(),
            names: [a, b],
        };
        Ok(saved.to_json()?)
    }

    /// A record read back from `to_json`'s text (the actions replayed and checked from the
    /// start, a rejected answer judged again). The names of the sides are not kept.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyMatchRecord> {
        let saved = SavedMatch::from_json(text)?;
        Ok(PyMatchRecord {
            start: saved.start,
            record: saved.record,
        })
    }

    /// Pickle support (for multiprocessing and Ray): the record rebuilt from its saved text.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let text = slf.get().to_json(None, None)?;
        Ok((slf.get_type().getattr("from_json")?, (text,)))
    }

    fn __repr__(&self) -> String {
        format!("MatchRecord({})", self.record.summary(self.start.setup()))
    }
}

/// An AI as given to the referee.
pub(crate) enum Contestant<'py> {
    Builtin(Bound<'py, PyAi>),
    Python(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Contestant<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(ai) = obj.cast::<PyAi>() {
            Ok(Contestant::Builtin(ai.to_owned()))
        } else if obj.is_callable() {
            Ok(Contestant::Python(obj.to_owned()))
        } else {
            Err(type_error(
                "the AI",
                "a callable (the coursework AI contract)",
                &obj,
            ))
        }
    }
}

arg!(/// Where a match starts: an `Onitama` game (its current position) or a setup id.
Start(MatchStart) = |o| match o.cast::<PyOnitama>() {
    Ok(g) => Ok(MatchStart::Game(borrow_game(g)?.game.clone())),
    Err(_) => Ok(MatchStart::Setup(o.extract::<SetupId>()?.0)),
});

/// Referee one game between two AIs (see `LudoGame.onitama.play_match`).
#[pyfunction]
#[pyo3(signature = (ai_a, ai_b, setup = None, max_plies = None, time_budget = None))]
pub(crate) fn onitama_play_match<'py>(
    py: Python<'py>,
    ai_a: Contestant<'py>,
    ai_b: Contestant<'py>,
    setup: Option<Start>,
    max_plies: Option<MaxPlies>,
    time_budget: Option<TimeBudget>,
) -> PyResult<PyMatchRecord> {
    let players = [ai_a, ai_b];
    let config = MatchConfig {
        max_plies: max_plies.map(|n| n.0),
        time_budget: time_budget.map(|t| t.0),
    };
    let start = Game::match_start_of(setup.map(|s| s.0), config.max_plies)?;
    // A Ctrl-C (or any other BaseException that is not an Exception, raised by a Python
    // AI) is not the mover's failure: it stops the match, and is raised again with the
    // record of the plies played so far.
    let interrupt: RefCell<Option<PyErr>> = RefCell::new(None);
    let stop = |e: PyErr| {
        interrupt.borrow_mut().get_or_insert(e);
        AiFailure::Interrupted
    };
    let call = |who: Player, pos: &Position| -> Result<Answer, AiFailure> {
        py.check_signals().map_err(stop)?;
        match &players[who.index()] {
            Contestant::Builtin(ai) => match ai.get().answer(py, pos, config.search_cap()) {
                (_, Some(e)) => Err(stop(e)),
                (answer, None) => Ok(answer),
            },
            Contestant::Python(f) => {
                match contract_args(py, &start, pos).and_then(|a| f.call1(a)) {
                    Ok(v) => read_answer(&v),
                    Err(e) if !e.is_instance_of::<PyException>(py) => Err(stop(e)),
                    Err(e) => Err(AiFailure::Raised(e.to_string())),
                }
            }
        }
    };
    let record = play_refereed(
        &config,
        start.position(),
        |p: &Position| call(Player::A, p),
        |p: &Position| call(Player::B, p),
    );
    let result = PyMatchRecord { start, record };
    match interrupt.into_inner() {
        Some(e) => Err(with_partial(py, e, Bound::new(py, result)?.into_any())),
        None => Ok(result),
    }
}
