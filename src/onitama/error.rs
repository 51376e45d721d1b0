//! The Onitama engine's error type. Every fallible call of the engine returns
//! [`OnitamaError`]; a call that returns an error has changed nothing.
//!
//! An AI's answer that the referee rejects is not an error of the engine but a game event;
//! it is described by [`InvalidAnswer`](super::referee::InvalidAnswer).

use thiserror::Error;

/// Everything the engine can refuse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OnitamaError {
    /// Text that is not a square name `a1`..`e5`.
    #[error("invalid square '{0}': expected a row letter a-e and a column digit 1-5, like 'e3'")]
    BadSquare(String),
    /// A card pattern that is not 5 rows of 5 characters with exactly one `o`, an unknown
    /// card name, or offsets that do not fit on a card.
    #[error("invalid card: {0}")]
    BadCard(String),
    /// A board that is not 5 rows of 5 known characters, or that breaks a rule of the
    /// game (one wall, never on a base; one general and at most four soldiers a side; at
    /// most one side already won, and then not the side to move).
    #[error("invalid board: {0}")]
    BadBoard(String),
    /// Text that is not a valid position notation.
    #[error("invalid notation: {0}")]
    BadNotation(String),
    /// Text that is not a valid action (`1 e2 d3 u`, `2 c3 a3 -`, `1 XX XX s`).
    #[error("invalid action text '{0}'")]
    BadAction(String),
    /// Action text of the other rule set: a wall step given to standard Onitama, or none
    /// given to the wall variant.
    #[error("invalid action text '{action}': {reason}")]
    OtherRulesAction {
        /// The text given.
        action: String,
        /// Which form the rules take.
        reason: String,
    },
    /// An action number (of the learning environment's numbering) that is out of range or
    /// not a number at all.
    #[error(
        "invalid action number {index}: actions are numbered 0 to {last}; the legal action numbers are {legal}"
    )]
    BadActionIndex {
        /// The highest action number.
        last: usize,
        /// The number, or what was given instead, as text.
        index: String,
        /// The legal numbers now, as text.
        legal: String,
    },
    /// An action that is not legal in the position.
    #[error("illegal action {action}: {reason}")]
    IllegalAction {
        /// The action, as text.
        action: String,
        /// Why it is refused.
        reason: String,
    },
    /// Any move after the game has ended (a win, or no plies left).
    #[error("the game is over: {0}")]
    GameOver(String),
    /// A setup id that is not in the table of coursework setups.
    #[error("unknown setup {0}")]
    UnknownSetup(String),
    /// An AI level, time or node budget out of range.
    #[error("invalid AI settings: {0}")]
    BadAi(String),
    /// Taking back a ply when none was played.
    #[error("nothing to undo: no ply has been played")]
    NothingToUndo,
}
