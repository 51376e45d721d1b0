//! `MatchRecord` and the refereed match `onitama_play_match`: the two contestants become
//! closures for the engine's referee ([`play_refereed`]), whose record is wrapped.

use std::cell::RefCell;

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{MaxPlies, SetupId, TimeBudget, read_answer};
use super::game::{PyOnitama, borrow_game, contract_args};
use super::{PyAction, PyAi, actions_list, answer_tuple, letter};
use crate::onitama::referee::judge;
use crate::onitama::{
    Action, AiFailure, Answer, EndReason, Game, GameRecord, GameResult, MatchConfig, OnitamaError,
    Player, Position, play_refereed,
};
use crate::python::enums::PackageClass;
use crate::python::interrupt::with_partial;
use crate::python::type_error;

/// The `Reason` enum of `LudoGame.enums`.
pub(crate) static REASON: PackageClass = PackageClass::new("LudoGame.enums", "Reason");

/// The full record of a refereed game: the start, every accepted action, the result and
/// why the game ended.
#[pyclass(module = "LudoGame.onitama", name = "MatchRecord", frozen)]
pub struct PyMatchRecord {
    start: Game,
    record: GameRecord,
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
        actions_list(self.record.actions.iter().copied())
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
    /// `Interrupted` exception carries (the game was not finished).
    #[getter]
    fn reason<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        REASON.of(py, self.record.reason.name())
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
            EndReason::InvalidAnswer { answer, .. } => answer_tuple(answer),
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

    /// Pickle support (for multiprocessing and Ray): the record rebuilt from the start,
    /// the actions and how the game ended.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (RecordState,))> {
        let r = slf.get();
        let rec = &r.record;
        let (kind, by, message, answer) = match &rec.reason {
            EndReason::Base => ("base", None, String::new(), None),
            EndReason::Capture => ("capture", None, String::new(), None),
            EndReason::PlyLimit => ("ply_limit", None, String::new(), None),
            EndReason::Interrupted => ("interrupted", None, String::new(), None),
            EndReason::InvalidAnswer { by, answer, .. } => {
                ("invalid", Some(*by), String::new(), answer_tuple(answer))
            }
            EndReason::Error { by, message } => ("error", Some(*by), message.clone(), None),
            EndReason::Malformed { by, message } => ("malformed", Some(*by), message.clone(), None),
            EndReason::Timeout { by, message } => ("timeout", Some(*by), message.clone(), None),
        };
        let state = (
            r.start.to_json(),
            rec.actions.iter().map(ToString::to_string).collect(),
            rec.plies,
            rec.winner().map(letter),
            kind.to_owned(),
            by.map(letter),
            message,
            answer,
        );
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// The record `__reduce__` describes: the actions are replayed (and checked) from the
    /// start, and an invalid answer is judged again in the final position.
    #[staticmethod]
    fn _from_state(state: RecordState) -> PyResult<PyMatchRecord> {
        let (start_json, texts, plies, winner, kind, by, message, answer) = state;
        let bad =
            |what: &str| OnitamaError::BadNotation(format!("not a pickled MatchRecord: {what}"));
        let start = Game::from_json(&start_json)?;
        let actions = texts
            .iter()
            .map(|t| t.parse::<Action>())
            .collect::<Result<Vec<_>, _>>()?;
        let end = *start.replayed(&actions)?.position();
        let player = |p: Option<String>| -> Result<Option<Player>, OnitamaError> {
            match p.as_deref() {
                None => Ok(None),
                Some(text) => text
                    .parse::<char>()
                    .ok()
                    .and_then(Player::from_letter)
                    .map(Some)
                    .ok_or_else(|| bad("a player is 'A' or 'B'")),
            }
        };
        let failed = || player(by.clone())?.ok_or_else(|| bad("no player failed"));
        let reason = match kind.as_str() {
            "base" => EndReason::Base,
            "capture" => EndReason::Capture,
            "ply_limit" => EndReason::PlyLimit,
            "interrupted" => EndReason::Interrupted,
            "error" => EndReason::Error {
                by: failed()?,
                message,
            },
            "malformed" => EndReason::Malformed {
                by: failed()?,
                message,
            },
            "timeout" => EndReason::Timeout {
                by: failed()?,
                message,
            },
            "invalid" => {
                let (card, from, to, wall) = answer.ok_or_else(|| bad("no answer"))?;
                let reason = match judge(&end, card, &from, &to, &wall) {
                    Err(reason) => reason,
                    Ok(_) => return Err(bad("the answer is valid").into()),
                };
                let answer = Answer::new(card, from, to, wall);
                EndReason::InvalidAnswer {
                    by: failed()?,
                    answer,
                    reason,
                }
            }
            _ => return Err(bad("unknown end").into()),
        };
        let result = match player(winner)? {
            Some(p) => GameResult::Won(p),
            None => GameResult::Tie,
        };
        let record = GameRecord {
            start: *start.position(),
            actions,
            end,
            plies,
            result,
            reason,
        };
        Ok(PyMatchRecord { start, record })
    }

    fn __repr__(&self) -> String {
        format!(
            "MatchRecord(setup={}, winner={}, reason='{}', plies={})",
            self.start
                .setup()
                .map_or("None".into(), |s| format!("'{s}'")),
            self.record
                .winner()
                .map_or("None".into(), |p| format!("'{p}'")),
            self.record.reason.name(),
            self.record.plies
        )
    }
}

/// A pickled `MatchRecord`: the start game's JSON, the actions' text, the plies started,
/// the winner, how the game ended ('base', 'capture', 'ply_limit', 'interrupted',
/// 'invalid', 'error', 'malformed' or 'timeout'), whose AI failed, the failure's message
/// and an invalid answer.
type RecordState = (
    String,
    Vec<String>,
    u32,
    Option<String>,
    String,
    Option<String>,
    String,
    Option<(i64, String, String, String)>,
);

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

/// Where a match starts: an `Onitama` game (its current position) or a setup id.
pub(crate) enum MatchStart {
    Game(Game),
    Setup(SetupId),
}

impl<'a, 'py> FromPyObject<'a, 'py> for MatchStart {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.cast::<PyOnitama>() {
            Ok(g) => Ok(MatchStart::Game(borrow_game(&g.to_owned())?.game.clone())),
            Err(_) => Ok(MatchStart::Setup(obj.extract()?)),
        }
    }
}

/// Referee one game between two AIs (see `LudoGame.onitama.play_match`).
#[pyfunction]
#[pyo3(signature = (ai_a, ai_b, setup = None, max_plies = None, time_budget = None))]
pub(crate) fn onitama_play_match<'py>(
    py: Python<'py>,
    ai_a: Contestant<'py>,
    ai_b: Contestant<'py>,
    setup: Option<MatchStart>,
    max_plies: Option<MaxPlies>,
    time_budget: Option<TimeBudget>,
) -> PyResult<PyMatchRecord> {
    let players = [ai_a, ai_b];
    let config = MatchConfig {
        max_plies: max_plies.map(|n| n.0),
        time_budget: time_budget.map(|t| t.0),
    };
    let start = match setup {
        Some(MatchStart::Game(game)) => game.match_start(config.max_plies),
        Some(MatchStart::Setup(id)) => Game::from_setup(&id.0, config.max_plies)?,
        None => Game::from_setup("21", config.max_plies)?,
    };
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
                    Ok(v) => read_answer(&v).map_err(AiFailure::Malformed),
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
