//! The Part 2 tournament referee: judge an AI's raw answer exactly as the reference
//! referee does ([`judge`]), and run a whole game between two AI functions
//! ([`play_match`], [`play_refereed`] with a [`MatchConfig`]: ply limit and time budget).
//!
//! An answer is `(cardPicked, moveFrom, moveTo, wDir)`: a card number, two 2-character
//! squares (`"e2"`, or `"XX"` for a pass) and a wall letter. It is checked in this order,
//! and the first failure is the reason it is invalid:
//! 1. the card number is 1 or 2;
//! 2. the start square is on the board and holds an own pawn;
//! 3. the target square is on the board;
//! 4. the offset is on the chosen card (as the mover applies it);
//! 5. the target holds no own pawn, 6. and not the wall;
//! 7. (a winning move ends here: its wall letter is never read)
//! 8. the wall letter is one of `u l d r s`;
//! 9. the wall step, on the board after the pawn move, stays on the board, 10. avoids the
//!    bases, 11. the mover's own general 12. and every opponent piece.
//!
//! In a position with no pawn move (a pass position) only steps 8–12 are checked, on the
//! unchanged board; the card number and the squares are not read (see [`judge_pawn`] for
//! which card is then swapped).
//!
//! In a tournament any invalid answer, and any error raised by the AI, loses the game at
//! once. [`InvalidAnswer`]'s messages are the reference programs' wording where it is
//! known (the Part 1 game and the tournament logs).

use std::fmt;

use thiserror::Error;

use super::action::{Action, Slot};
use super::error::OnitamaError;
use super::position::{Position, Status, Undo, WinKind};
use super::square::{Square, WallDir};

mod play;

#[allow(deprecated)]
pub use play::GameRecord;
pub use play::{
    AiFailure, EndReason, GameResult, MatchConfig, MatchRecord, play_match, play_refereed,
};

/// What an AI function returned for one ply.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// `(cardPicked, moveFrom, moveTo, wDir)`, unchecked.
    Move {
        /// The card number (valid: 1 or 2).
        card: i64,
        /// The start square (`"e2"`; `"XX"` for a pass).
        from: String,
        /// The target square (`"d3"`; `"XX"` for a pass).
        to: String,
        /// The wall letter (`"u"`, `"l"`, `"d"`, `"r"` or `"s"`).
        wall: String,
    },
    /// The AI raised an error instead of answering (its message).
    Error(String),
}

impl Answer {
    /// The answer as the contract's tuple `(card, from, to, wall)`; `None` for an error.
    pub fn as_tuple(&self) -> Option<(i64, String, String, String)> {
        match self {
            Answer::Move {
                card,
                from,
                to,
                wall,
            } => Some((*card, from.clone(), to.clone(), wall.clone())),
            Answer::Error(_) => None,
        }
    }

    /// An answer `(card, from, to, wall)`.
    pub fn new(
        card: i64,
        from: impl Into<String>,
        to: impl Into<String>,
        wall: impl Into<String>,
    ) -> Answer {
        Answer::Move {
            card,
            from: from.into(),
            to: to.into(),
            wall: wall.into(),
        }
    }

    /// An error raised by the AI.
    pub fn error(message: impl Into<String>) -> Answer {
        Answer::Error(message.into())
    }
}

impl From<Action> for Answer {
    /// The answer an AI gives for a chosen action: `XX`/`XX` for a pass, and wall `s` for a
    /// winning move (whose wall letter is never read).
    fn from(a: Action) -> Answer {
        let square = Square::answer_text;
        Answer::new(
            a.slot().number() as i64,
            square(a.from()),
            square(a.to()),
            a.wall().unwrap_or(WallDir::Stay).letter().to_string(),
        )
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Move {
                card,
                from,
                to,
                wall,
            } => write!(f, "{card} {from:?} {to:?} {wall:?}"),
            Answer::Error(m) => write!(f, "error: {m}"),
        }
    }
}

/// Why the referee rejects an answer. The message is the reference programs' wording
/// where it is known.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Error)]
pub enum InvalidAnswer {
    /// The game is already over: no answer is asked for.
    #[error("The game is already over.")]
    GameOver,
    /// A card number other than 1 or 2 (in a position with a pawn move).
    #[error("Invalid input, card {0} does not exist: the card number is 1 or 2.")]
    BadCardNumber(i64),
    /// Typed card text other than `1` or `2` (see [`judge_typed`]).
    #[error("Invalid input, card {0} does not exist: the card number is 1 or 2.")]
    BadCardText(String),
    /// A start square that is not a square of the board (e.g. `XX` when a pawn move
    /// exists).
    #[error("Invalid input, the start position is invalid.")]
    StartNotOnBoard(String),
    /// A start square with no own pawn on it.
    #[error("You have no pawn at {0}.")]
    NoOwnPawn(Square),
    /// A target that is not a square of the board.
    #[error("Invalid input, the end position is invalid.")]
    TargetNotOnBoard(String),
    /// The offset from start to target is not on the chosen card (as the mover sees it).
    #[error("Not a valid move by card {}.", .slot.number())]
    NotOnCard {
        /// The chosen slot.
        slot: Slot,
        /// Start square.
        from: Square,
        /// Target square.
        to: Square,
    },
    /// The target holds an own pawn.
    #[error("Your pawn cannot move there. The position is occupied by your own pawn.")]
    TargetOwnPawn(Square),
    /// The target holds the wall.
    #[error("Your pawn cannot move there. The position is occupied by the wall.")]
    TargetWall(Square),
    /// A card played without moving (`XX`) in standard Onitama while a piece can move
    /// (the wall variant answers [`InvalidAnswer::StartNotOnBoard`], as the coursework does).
    #[error(
        "A card can be played without moving only when no piece can move; here a piece can: give the start square."
    )]
    PassWithPieceToMove,
    /// A wall step other than `s` in standard Onitama, which has no wall.
    #[error("Standard Onitama has no wall: the wall part must be 's' or left out, not '{0}'.")]
    NoWallInStandard(String),
    /// A wall letter other than `u l d r s`.
    #[error("Invalid input, the wall direction '{0}' is not one of u, l, d, r, s.")]
    BadWallLetter(String),
    /// The wall step leaves the board.
    #[error("You cannot move the wall out of bound.")]
    WallOffBoard(WallDir),
    /// The wall step lands on a base (`a3` or `e3`).
    #[error("You cannot move the wall to a military base.")]
    WallOnBase(Square),
    /// The wall step lands on the mover's own general (after the pawn move).
    #[error("You cannot move the wall there. It is occupied by your general.")]
    WallOnOwnGeneral(Square),
    /// The wall step lands on an opponent piece (after any capture).
    #[error("You cannot move the wall there. It is occupied by your opponent.")]
    WallOnOpponent(Square),
}

/// An accepted pawn part of an answer: a pass, a pawn move, or a winning pawn move. Only
/// [`judge_pawn`] makes one; [`judge_wall`] completes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PawnChoice {
    slot: Slot,
    step: Option<(Square, Square)>,
    win: Option<WinKind>,
}

impl PawnChoice {
    /// The card slot played.
    pub fn slot(&self) -> Slot {
        self.slot
    }

    /// `(from, to)` of the pawn move (`None` for a pass).
    pub fn step(&self) -> Option<(Square, Square)> {
        self.step
    }

    /// How the move wins, if it does (the game then ends: no wall step).
    pub fn win(&self) -> Option<WinKind> {
        self.win
    }

    /// Is this a pass?
    pub fn is_pass(&self) -> bool {
        self.step.is_none()
    }
}

/// Judge the pawn part of an answer (steps 1–6 of the [module docs](self)).
///
/// In a pass position nothing is checked and the card is not read strictly: the answer's
/// card `1` swaps slot 1 and any other number slot 2 (the README leaves the swap for a
/// number other than 1 or 2 unstated; the reference programs only ever saw 1 or 2 there).
pub fn judge_pawn(
    pos: &Position,
    card: i64,
    from: &str,
    to: &str,
) -> Result<PawnChoice, InvalidAnswer> {
    if pos.status() != Status::Ongoing {
        return Err(InvalidAnswer::GameOver);
    }
    if !pos.has_pawn_move() {
        let slot = if card == 1 { Slot::One } else { Slot::Two };
        return Ok(PawnChoice {
            slot,
            step: None,
            win: None,
        });
    }
    let me = pos.side();
    let slot = Slot::from_number(card).ok_or(InvalidAnswer::BadCardNumber(card))?;
    if pos.is_standard() && from.eq_ignore_ascii_case("xx") {
        return Err(InvalidAnswer::PassWithPieceToMove);
    }
    let f = judge_start(pos, from)?;
    let t = Square::parse(to).ok_or_else(|| InvalidAnswer::TargetNotOnBoard(to.to_owned()))?;
    let dr = t.row() as i8 - f.row() as i8;
    let dc = t.col() as i8 - f.col() as i8;
    if !pos.hand_card(me, slot).allows(me, dr, dc) {
        return Err(InvalidAnswer::NotOnCard {
            slot,
            from: f,
            to: t,
        });
    }
    if pos.pawns(me) & t.bit() != 0 {
        return Err(InvalidAnswer::TargetOwnPawn(t));
    }
    if pos.wall() == Some(t) {
        return Err(InvalidAnswer::TargetWall(t));
    }
    Ok(PawnChoice {
        slot,
        step: Some((f, t)),
        win: pos.win_kind(f, t),
    })
}

/// The start square of a pawn move: on the board and holding one of the mover's pawns.
fn judge_start(pos: &Position, from: &str) -> Result<Square, InvalidAnswer> {
    let f = Square::parse(from).ok_or_else(|| InvalidAnswer::StartNotOnBoard(from.to_owned()))?;
    if pos.pawns(pos.side()) & f.bit() == 0 {
        return Err(InvalidAnswer::NoOwnPawn(f));
    }
    Ok(f)
}

/// Judge the wall letter after an accepted pawn part (steps 7–12 of the
/// [module docs](self)) and return the complete action. `pos` must be the position
/// `choice` was judged in.
pub fn judge_wall(pos: &Position, choice: PawnChoice, wall: &str) -> Result<Action, InvalidAnswer> {
    let slot = choice.slot;
    if let (Some((f, t)), Some(_)) = (choice.step, choice.win) {
        return Ok(Action::winning(slot, f, t));
    }
    let mut letters = wall.chars();
    let dir = match (letters.next(), letters.next()) {
        (Some(c), None) => WallDir::from_letter(c),
        _ => None,
    };
    if pos.is_standard() {
        // Standard Onitama has no wall: the answer's wall part must be 's' (stay).
        return match (dir, choice.step) {
            (Some(WallDir::Stay), Some((f, t))) => Ok(pos.normalize(Action::standard(slot, f, t))),
            (Some(WallDir::Stay), None) => Ok(Action::pass(slot, WallDir::Stay)),
            _ => Err(InvalidAnswer::NoWallInStandard(wall.to_owned())),
        };
    }
    let dir = dir.ok_or_else(|| InvalidAnswer::BadWallLetter(wall.to_owned()))?;
    let me = pos.side();
    let (mut general, mut opponent) = (pos.pawns(me) & !pos.soldiers(me), pos.pawns(me.other()));
    if let Some((f, t)) = choice.step {
        if general == f.bit() {
            general = t.bit();
        }
        opponent &= !t.bit();
    }
    if dir != WallDir::Stay {
        let target = pos
            .wall_square()
            .step(dir)
            .ok_or(InvalidAnswer::WallOffBoard(dir))?;
        if target.is_base() {
            return Err(InvalidAnswer::WallOnBase(target));
        }
        if general & target.bit() != 0 {
            return Err(InvalidAnswer::WallOnOwnGeneral(target));
        }
        if opponent & target.bit() != 0 {
            return Err(InvalidAnswer::WallOnOpponent(target));
        }
    }
    Ok(match choice.step {
        Some((f, t)) => Action::step(slot, f, t, dir),
        None => Action::pass(slot, dir),
    })
}

/// Judge a whole answer `(card, from, to, wall)` in `pos`: the legal action it stands
/// for, or the first reason it is invalid (order in the [module docs](self)).
pub fn judge(
    pos: &Position,
    card: i64,
    from: &str,
    to: &str,
    wall: &str,
) -> Result<Action, InvalidAnswer> {
    let choice = judge_pawn(pos, card, from, to)?;
    judge_wall(pos, choice, wall)
}

/// Judge an answer as a player types it at the Part 1 program's prompts, part by part:
/// the card text alone, then with the start square, then with the target. `Ok(None)`
/// while the parts given are right but the pawn move is not complete; `Ok(Some(choice))`
/// once it is (a pass needs only the card). The card text must be exactly `1` or `2`,
/// even in a pass position (the program asks for it there too); the other checks are
/// [`judge_pawn`]'s, in its order.
pub fn judge_typed(
    pos: &Position,
    card: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<Option<PawnChoice>, InvalidAnswer> {
    if pos.status() != Status::Ongoing {
        return Err(InvalidAnswer::GameOver);
    }
    let number = match card {
        "1" => 1,
        "2" => 2,
        _ => return Err(InvalidAnswer::BadCardText(card.to_owned())),
    };
    if !pos.has_pawn_move() {
        return judge_pawn(pos, number, "XX", "XX").map(Some);
    }
    let Some(from) = from else {
        return Ok(None);
    };
    judge_start(pos, from)?;
    match to {
        Some(to) => judge_pawn(pos, number, from, to).map(Some),
        None => Ok(None),
    }
}

/// The checked way to play: [`Position::play`] lives with the referee, whose checks explain
/// why an action is refused (the position itself only knows how to make a legal one).
impl Position {
    /// Play a legal action. An illegal action, or any action once the game is over, is
    /// refused with an error and the position is unchanged.
    pub fn play(&mut self, action: Action) -> Result<Undo, OnitamaError> {
        let action = self.normalize(action);
        match self.status() {
            Status::Ongoing => {}
            Status::Tie => return Err(OnitamaError::GameOver("no plies are left (a tie)".into())),
            Status::Won { winner, by } => {
                let how = match by {
                    WinKind::Base => "reaching the base",
                    WinKind::Capture => "capturing the general",
                };
                return Err(OnitamaError::GameOver(format!(
                    "player {winner} won by {how}"
                )));
            }
        }
        if !self.is_legal(action) {
            return Err(OnitamaError::IllegalAction {
                action: self.action_text(action),
                reason: why_illegal(self, action),
            });
        }
        Ok(self.make_unchecked(action))
    }
}

/// Why `action` is not legal in `pos` (for [`OnitamaError::IllegalAction`]).
///
/// [`OnitamaError::IllegalAction`]: super::error::OnitamaError::IllegalAction
pub(crate) fn why_illegal(pos: &Position, action: Action) -> String {
    let square = Square::answer_text;
    let card = action.slot().number() as i64;
    if pos.is_standard() && action.wall().is_some_and(|w| w != WallDir::Stay) {
        return "standard Onitama has no wall, so an action has no wall step".into();
    }
    let choice = match judge_pawn(pos, card, &square(action.from()), &square(action.to())) {
        Ok(c) => c,
        Err(reason) => return reason.to_string(),
    };
    if choice.is_pass() && !action.is_pass() {
        return "no pawn move exists, so the player must pass".into();
    }
    match (choice.win.is_some(), action.wall()) {
        (true, Some(_)) => "this move wins and ends the game: it has no wall step".into(),
        (false, None) => "this move does not win, so it needs a wall step".into(),
        (_, Some(w)) => match judge_wall(pos, choice, &w.letter().to_string()) {
            Err(reason) => reason.to_string(),
            Ok(_) => "not a legal action".into(),
        },
        (true, None) => "not a legal action".into(),
    }
}
