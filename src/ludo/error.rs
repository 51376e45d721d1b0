//! The engine's error type. Every fallible call of the engine returns [`LudoError`]; the
//! Python layer maps each variant once to a Python exception. Only an argument of the wrong
//! Python type is the binding's own error.

use thiserror::Error;

/// Everything the engine can refuse. A call that returns an error has changed nothing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LudoError {
    /// A players list with no players in it.
    #[error("the players list is empty: name between 1 and 4 positions from 'A', 'B', 'C', 'D'")]
    NoPlayers,
    /// A players list with more seats than the board has.
    #[error("too many players ({0}): at most 4 positions from 'A', 'B', 'C', 'D' can play")]
    TooManyPlayers(usize),
    /// A players argument that names no valid set of players (a count out of range).
    #[error("invalid players: {0}")]
    InvalidPlayers(String),
    /// A turn of a CS162 turns list that is not a `(position, roll)` pair; the value is how
    /// it looks.
    #[error("{0} is not a (position, roll) pair")]
    MalformedTurn(String),
    /// A CS162 `Player` of another game than the one asked.
    #[error(
        "player '{0}' does not belong to this game (it comes from another LudoGame or an earlier play_game)"
    )]
    ForeignPlayer(String),
    /// A CS162 call that needs a game before any was played.
    #[error("no game yet: call play_game(players, turns) first")]
    NoGame,
    /// The same position named twice in a players list.
    #[error("position '{0}' appears more than once in the players list")]
    DuplicatePosition(String),
    /// A position that is not one of the board's.
    #[error("invalid position '{0}': expected one of 'A', 'B', 'C', 'D'")]
    InvalidPosition(String),
    /// A position that does not play in this game.
    #[error("position '{0}' is not playing in this game")]
    PositionNotPlaying(String),
    /// A die roll outside 1..=6.
    #[error("invalid roll {0}: a die roll must be an int from 1 to 6")]
    InvalidRoll(String),
    /// An error in one turn of a turns list.
    #[error("turn {index}: {source}")]
    InTurn {
        /// Index of the turn in the turns list.
        index: usize,
        /// What is wrong with it.
        source: Box<LudoError>,
    },
    /// A token name other than the rule set's names.
    #[error("invalid token name '{0}': expected 'p' or 'q'")]
    InvalidToken(String),
    /// A move of zero, negative or too many steps.
    #[error("invalid step count {0}: a move is from 1 to 57 steps")]
    InvalidSteps(String),
    /// A step count that names no space (outside -1..=57).
    #[error("invalid step count {0}: a token's step count is from -1 (home yard) to 57 (finished)")]
    StepsOutOfRange(String),
    /// A rule set whose options do not fit together, or an unknown option.
    #[error("invalid rules: {0}")]
    InvalidRules(String),
    /// Text that is not a valid notation of a position, rule set or game record.
    #[error("invalid notation: {0}")]
    InvalidNotation(String),
    /// An unknown bot name or a bad bot parameter.
    #[error("invalid bot: {0}")]
    InvalidBot(String),
    /// A bot (a caller's) that failed in game `game` of a run; `what` says how.
    #[error("game {game}: {what}")]
    FailedInGame {
        /// The game's index in the run.
        game: u64,
        /// The failure.
        what: String,
    },
    /// A call that the game's phase or rules do not allow now.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// Anything but reading after the game is over.
    #[error("the game is over")]
    GameOver,
    /// A value outside what it may be (a saved result that does not read back, an empty
    /// list of results to join...); the message says what.
    #[error("{0}")]
    InvalidArgument(String),
}

impl LudoError {
    /// The error itself, looking through [`LudoError::InTurn`] context.
    pub fn kind(&self) -> &LudoError {
        match self {
            LudoError::InTurn { source, .. } => source.kind(),
            other => other,
        }
    }
}

/// An error that can say in which turn of a turns list it happened.
pub trait TurnContext {
    /// The error `self`, found in the turn at `index`.
    fn in_turn(self, index: usize) -> Self;
}

impl TurnContext for LudoError {
    fn in_turn(self, index: usize) -> LudoError {
        LudoError::InTurn {
            index,
            source: Box::new(self),
        }
    }
}
