//! Python exceptions, and the one mapping from the engine's [`CoreError`] to them.

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::ludo::LudoError as CoreError;

create_exception!(
    LudoGame,
    LudoError,
    PyValueError,
    "Base class of every error LudoGame raises for bad input (a ValueError)."
);
create_exception!(
    LudoGame,
    InvalidPlayersError,
    LudoError,
    "The players list is empty, too long, or names a position twice."
);
create_exception!(
    LudoGame,
    InvalidPositionError,
    LudoError,
    "A position that is not 'A'-'D', or that does not play in this game."
);
create_exception!(
    LudoGame,
    InvalidRollError,
    LudoError,
    "A die roll outside 1-6."
);
create_exception!(
    LudoGame,
    InvalidTurnError,
    LudoError,
    "A turn that is not a (position, roll) pair."
);
create_exception!(
    LudoGame,
    InvalidTokenError,
    LudoError,
    "A token name other than 'p' or 'q'."
);
create_exception!(
    LudoGame,
    InvalidStepsError,
    LudoError,
    "A step count out of range: a move of 1-57 steps, a token's count of -1..57."
);
create_exception!(
    LudoGame,
    ForeignPlayerError,
    LudoError,
    "A Player object that does not belong to this game."
);
create_exception!(
    LudoGame,
    NoGameError,
    LudoError,
    "An operation that needs a game before play_game was called."
);

create_exception!(
    LudoGame,
    InvalidRulesError,
    LudoError,
    "An unknown rule set or option, or options that do not fit together."
);

create_exception!(
    LudoGame,
    IllegalMoveError,
    LudoError,
    "A roll or move the game's phase or rules do not allow now."
);
create_exception!(
    LudoGame,
    GameOverError,
    LudoError,
    "A roll or move after the game is over."
);

create_exception!(
    LudoGame,
    InvalidNotationError,
    LudoError,
    "Text that is not a valid position, rule set or game record notation."
);

create_exception!(
    LudoGame,
    InvalidBotError,
    LudoError,
    "An unknown bot name, a bad bot parameter, or a Python bot that failed."
);

impl From<CoreError> for PyErr {
    fn from(err: CoreError) -> PyErr {
        let msg = err.to_string();
        match err.kind() {
            CoreError::NoPlayers
            | CoreError::InvalidPlayers(_)
            | CoreError::TooManyPlayers(_)
            | CoreError::DuplicatePosition(_) => InvalidPlayersError::new_err(msg),
            CoreError::InvalidPosition(_) | CoreError::PositionNotPlaying(_) => {
                InvalidPositionError::new_err(msg)
            }
            CoreError::InvalidRoll(_) => InvalidRollError::new_err(msg),
            CoreError::MalformedTurn(_) => InvalidTurnError::new_err(msg),
            CoreError::InvalidToken(_) => InvalidTokenError::new_err(msg),
            CoreError::InvalidSteps(_) | CoreError::StepsOutOfRange(_) => {
                InvalidStepsError::new_err(msg)
            }
            CoreError::ForeignPlayer(_) => ForeignPlayerError::new_err(msg),
            CoreError::NoGame => NoGameError::new_err(msg),
            CoreError::InvalidBot(_) => InvalidBotError::new_err(msg),
            CoreError::InvalidNotation(_) => InvalidNotationError::new_err(msg),
            CoreError::IllegalMove(_) => IllegalMoveError::new_err(msg),
            CoreError::GameOver => GameOverError::new_err(msg),
            CoreError::InvalidRules(_) => InvalidRulesError::new_err(msg),
            CoreError::WrongType { .. } => PyTypeError::new_err(msg),
            // `kind()` never returns the InTurn wrapper itself.
            CoreError::InTurn { .. } => LudoError::new_err(msg),
        }
    }
}
