//! Python exceptions, and the one mapping from the engine's [`CoreError`] to them.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::ludo::LudoError as CoreError;
use crate::ludo::env::EnvError;
use crate::ludo::error::TurnContext;

/// Declares the package's exception classes, each `Name(Base): "docstring";`.
macro_rules! exceptions {
    ($($name:ident($base:ident): $doc:literal;)*) => {
        $(create_exception!(LudoGame, $name, $base, $doc);)*
    };
}

exceptions! {
    LudoError(PyValueError):
        "Base class of every error LudoGame raises for bad input (a ValueError).";
    InvalidArgumentError(LudoError):
        "A number argument outside its range (a game count, a seed, a thread count, ...); the message names the argument and the range.";
    InvalidPlayersError(LudoError):
        "The players list is empty, too long, or names a position twice.";
    InvalidPositionError(LudoError):
        "A position that is not 'A'-'D', or that does not play in this game.";
    InvalidRollError(LudoError): "A die roll outside 1-6.";
    InvalidTurnError(LudoError): "A turn that is not a (position, roll) pair.";
    InvalidTokenError(LudoError): "A token name other than 'p' or 'q'.";
    InvalidStepsError(LudoError):
        "A step count out of range: a move of 1-57 steps, a token's count of -1..57.";
    ForeignPlayerError(LudoError): "A Player object that does not belong to this game.";
    NoGameError(LudoError): "An operation that needs a game before play_game was called.";
    InvalidRulesError(LudoError):
        "An unknown rule set or option, or options that do not fit together.";
    IllegalMoveError(LudoError): "A roll or move the game's phase or rules do not allow now.";
    GameOverError(LudoError): "A roll or move after the game is over.";
    InvalidNotationError(LudoError):
        "Text that is not a valid position, rule set or game record notation.";
    InvalidBotError(LudoError):
        "An unknown bot name, a bad bot parameter, or a Python bot that failed.";
    EnvActionError(LudoError):
        "An action a learning environment refuses: not an int, out of range, or not in the action mask (the message names the action and the legal ones). Nothing changes.";
    OnitamaError(LudoError):
        "Base class of every error of the Onitama game (LudoGame.onitama): bad input or a move the rules refuse.";
    InvalidSquareError(OnitamaError): "A square name that is not a1..e5.";
    InvalidCardError(OnitamaError):
        "A card that is not a standard card's name or a 5x5 pattern with exactly one 'o', or a bad set of five cards.";
    InvalidBoardError(OnitamaError):
        "A board, side to move or ply count that does not make a valid Onitama position.";
    InvalidActionError(OnitamaError):
        "Text that is not an action such as '1 e2 d3 u', '2 c3 a3 -' or '1 XX XX s'.";
    IllegalActionError(OnitamaError):
        "An action the rules do not allow in the position (the message says why), or nothing to undo.";
    OnitamaNotationError(OnitamaError):
        "Text that is not a valid Onitama position notation or game JSON.";
    UnknownSetupError(OnitamaError): "A setup id that is not one of the coursework setups.";
    InvalidAIError(OnitamaError):
        "A bad AI level, time or node budget, or a time budget out of range.";
}

impl From<EnvError> for PyErr {
    fn from(err: EnvError) -> PyErr {
        let msg = err.to_string();
        match err {
            EnvError::IllegalAction { .. }
            | EnvError::OpponentAction(_)
            | EnvError::NotAnInt(_)
            | EnvError::OutOfRange(_)
            | EnvError::NotActions(_)
            | EnvError::PolicyAnswer { .. } => EnvActionError::new_err(msg),
            EnvError::EpisodeOver(_) => GameOverError::new_err(msg),
            EnvError::InvalidArgument(_) | EnvError::NoDecision { .. } => {
                InvalidArgumentError::new_err(msg)
            }
            EnvError::InvalidSnapshot(_) => pyo3::exceptions::PyValueError::new_err(msg),
            EnvError::Config(e) => e.into(),
        }
    }
}

impl From<CoreError> for PyErr {
    fn from(err: CoreError) -> PyErr {
        let msg = err.to_string();
        core_exception(err.kind(), msg)
    }
}

/// The Python exception for the engine error `kind` (not the `InTurn` wrapper), with the
/// message `msg`.
fn core_exception(kind: &CoreError, msg: String) -> PyErr {
    match kind {
        CoreError::NoPlayers
        | CoreError::TooManyPlayers(_)
        | CoreError::DuplicatePosition(_)
        | CoreError::InvalidPlayers(_) => InvalidPlayersError::new_err(msg),
        CoreError::MalformedTurn(_) => InvalidTurnError::new_err(msg),
        CoreError::ForeignPlayer(_) => ForeignPlayerError::new_err(msg),
        CoreError::NoGame => NoGameError::new_err(msg),
        CoreError::InvalidPosition(_) | CoreError::PositionNotPlaying(_) => {
            InvalidPositionError::new_err(msg)
        }
        CoreError::InvalidRoll(_) => InvalidRollError::new_err(msg),
        CoreError::InvalidToken(_) => InvalidTokenError::new_err(msg),
        CoreError::InvalidSteps(_) | CoreError::StepsOutOfRange(_) => {
            InvalidStepsError::new_err(msg)
        }
        CoreError::InvalidBot(_) | CoreError::FailedInGame { .. } => InvalidBotError::new_err(msg),
        CoreError::InvalidNotation(_) => InvalidNotationError::new_err(msg),
        CoreError::IllegalMove(_) => IllegalMoveError::new_err(msg),
        CoreError::GameOver => GameOverError::new_err(msg),
        CoreError::InvalidArgument(_) => InvalidArgumentError::new_err(msg),
        CoreError::InvalidRules(_) => InvalidRulesError::new_err(msg),
        // `kind()` never returns the InTurn wrapper itself.
        CoreError::InTurn { .. } => LudoError::new_err(msg),
    }
}

/// The binding's errors: Python values of the wrong type (a `TypeError`), and the engine's,
/// with the turn of a CS162 turns list they happened in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BindingError {
    /// An argument of the wrong type (a `TypeError` in Python).
    #[error("{what} must be {expected}, not {got}")]
    WrongType {
        /// Which argument.
        what: String,
        /// The type it must have.
        expected: String,
        /// What it was (type name and value).
        got: String,
    },
    /// An error in one turn of a turns list.
    #[error("turn {index}: {source}")]
    InTurn {
        /// Index of the turn in the turns list.
        index: usize,
        /// What is wrong with it.
        source: Box<BindingError>,
    },
    /// An error of the engine.
    #[error(transparent)]
    Core(#[from] CoreError),
}

impl TurnContext for BindingError {
    fn in_turn(self, index: usize) -> BindingError {
        BindingError::InTurn {
            index,
            source: Box::new(self),
        }
    }
}

impl From<BindingError> for PyErr {
    fn from(err: BindingError) -> PyErr {
        let msg = err.to_string();
        let mut kind = &err;
        while let BindingError::InTurn { source, .. } = kind {
            kind = source;
        }
        match kind {
            BindingError::WrongType { .. } => PyTypeError::new_err(msg),
            BindingError::Core(e) => core_exception(e.kind(), msg),
            BindingError::InTurn { .. } => LudoError::new_err(msg),
        }
    }
}

// ---- Onitama (the wall variant): one family under `OnitamaError`. ----

use crate::onitama::OnitamaError as OniError;

/// `OnitamaGameOverError`, made once: both an `OnitamaError` and a `GameOverError` (a move
/// after the end of either game is a `GameOverError`), which `create_exception!` cannot
/// express (it takes one base).
static ONITAMA_GAME_OVER: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The `OnitamaGameOverError` class.
pub(crate) fn onitama_game_over_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    let t = ONITAMA_GAME_OVER.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let bases = PyTuple::new(
            py,
            [
                py.get_type::<OnitamaError>(),
                py.get_type::<GameOverError>(),
            ],
        )?;
        let body = PyDict::new(py);
        body.set_item(
            "__doc__",
            "A move asked for after the Onitama game is over (won, or no plies left); \
             an OnitamaError and a GameOverError.",
        )?;
        body.set_item("__module__", "LudoGame")?;
        let made = py
            .get_type::<PyType>()
            .call1(("OnitamaGameOverError", bases, body))?;
        Ok(made.cast_into::<PyType>()?.unbind())
    })?;
    Ok(t.bind(py))
}

/// An `OnitamaGameOverError` with this message.
pub(crate) fn onitama_game_over(msg: impl Into<String>) -> PyErr {
    let msg = msg.into();
    Python::attach(|py| match onitama_game_over_type(py) {
        Ok(t) => PyErr::from_type(t.clone(), msg),
        Err(e) => e,
    })
}

impl From<OniError> for PyErr {
    fn from(err: OniError) -> PyErr {
        let msg = err.to_string();
        match err {
            OniError::BadSquare(_) => InvalidSquareError::new_err(msg),
            OniError::BadCard(_) => InvalidCardError::new_err(msg),
            OniError::BadBoard(_) => InvalidBoardError::new_err(msg),
            OniError::BadNotation(_) => OnitamaNotationError::new_err(msg),
            OniError::BadAction(_)
            | OniError::BadActionIndex { .. }
            | OniError::OtherRulesAction { .. } => InvalidActionError::new_err(msg),
            OniError::IllegalAction { .. } | OniError::NothingToUndo => {
                IllegalActionError::new_err(msg)
            }
            OniError::GameOver(_) => onitama_game_over(msg),
            OniError::UnknownSetup(_) => UnknownSetupError::new_err(msg),
            OniError::BadAi(_) => InvalidAIError::new_err(msg),
        }
    }
}
