//! The one bot loop: roll, let a chooser pick a move, play it, until the game ends, a roll
//! limit cuts it off, a [`Stop`] is requested or the chooser has no move to give.
//!
//! The loop is generic over what it plays on ([`Table`]: the checked [`Game`], a
//! [`GameRecord`] that keeps the history, or the simulation's unchecked game over a
//! compile-time geometry) and over the chooser (a closure; built-in bots, Python bots and
//! the simulation's random moves all come in that way). It counts rolls and captures.

use std::convert::Infallible;

use super::error::LudoError;
use super::game::{Event, Game, GameRecord, Move, Phase, RollResult};
use super::tables::Geometry;
use crate::stop::Stop;

/// A game that has not ended after this many rolls is cut off (a simulation counts it as
/// unfinished; autoplay stops there unless given another limit).
pub const MAX_ROLLS: u32 = 100_000;

/// Something the bot loop can play on: it shows its game, rolls the seeded die in the roll
/// phase and plays a move in the move phase.
pub trait Table {
    /// What a refused roll or move raises ([`Infallible`] when nothing is checked).
    type Error;

    /// The game as it is now.
    fn game(&self) -> &Game;

    /// Roll the seeded die (the game waits for a roll).
    fn roll_die(&mut self) -> Result<RollResult, Self::Error>;

    /// Play `mv` with the pending roll `roll` (the game waits for a move).
    fn play_move(&mut self, mv: Move, roll: u8) -> Result<Event, Self::Error>;
}

/// What a roll event allowed (a roll always gives a roll event).
fn roll_result(event: Event) -> RollResult {
    match event {
        Event::Roll { result, .. } => result,
        _ => RollResult::ToMove,
    }
}

impl Table for Game {
    type Error = LudoError;

    #[inline]
    fn game(&self) -> &Game {
        self
    }

    fn roll_die(&mut self) -> Result<RollResult, LudoError> {
        Game::roll_die(self).map(roll_result)
    }

    fn play_move(&mut self, mv: Move, _roll: u8) -> Result<Event, LudoError> {
        self.play(mv)
    }
}

impl Table for GameRecord {
    type Error = LudoError;

    #[inline]
    fn game(&self) -> &Game {
        GameRecord::game(self)
    }

    fn roll_die(&mut self) -> Result<RollResult, LudoError> {
        self.roll(None).map(roll_result)
    }

    fn play_move(&mut self, mv: Move, _roll: u8) -> Result<Event, LudoError> {
        self.play(mv)
    }
}

/// The simulation's game: rolls and moves applied over the geometry `geo` without the
/// checks of the public API (the loop only rolls in the roll phase, and the chooser only
/// gives pending moves).
pub(crate) struct Unchecked<'a, G: Geometry> {
    /// The game in play.
    pub(crate) game: &'a mut Game,
    /// Its rules' geometry (compile-time constants for the presets).
    pub(crate) geo: &'a G,
}

impl<G: Geometry> Table for Unchecked<'_, G> {
    type Error = Infallible;

    #[inline(always)]
    fn game(&self) -> &Game {
        self.game
    }

    #[inline(always)]
    fn roll_die(&mut self) -> Result<RollResult, Infallible> {
        Ok(self.game.apply_die_in(self.geo))
    }

    #[inline(always)]
    fn play_move(&mut self, mv: Move, roll: u8) -> Result<Event, Infallible> {
        Ok(self.game.apply_move_in(self.geo, mv, roll))
    }
}

/// When the roll limit of [`Limits`] is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutOff {
    /// Before every roll and every move: the loop stops right after the last allowed roll,
    /// leaving its move (if any) to be played (autoplay, Python simulations).
    BeforeEachStep,
    /// Before rolls only: the last allowed roll still gets its move (the batch simulation).
    BeforeRoll,
}

/// How long the bot loop may run.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'s> {
    /// The most rolls to make.
    pub max_rolls: u64,
    /// When `max_rolls` is checked.
    pub cut_off: CutOff,
    /// Polled before every roll and move, and after every choice (a search cut short by it
    /// gives a move that is not played).
    pub stop: Option<&'s Stop>,
}

impl Limits<'static> {
    /// The limits of a caller's autoplay: `max_rolls` more rolls at most ([`MAX_ROLLS`]
    /// when not said), checked before each step, with no stop flag yet.
    pub fn autoplay(max_rolls: Option<u64>) -> Self {
        Limits {
            max_rolls: max_rolls.unwrap_or(u64::from(MAX_ROLLS)),
            cut_off: CutOff::BeforeEachStep,
            stop: None,
        }
    }
}

/// Why the bot loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game is over.
    Over,
    /// The roll limit was reached.
    CutOff,
    /// The chooser gave no move.
    NoMove,
    /// The stop was requested.
    Stopped,
}

/// What the bot loop did: why it ended, and the rolls made and tokens captured on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Why the loop ended.
    pub ending: Ending,
    /// Die rolls made.
    pub rolls: u64,
    /// Tokens captured.
    pub captures: u64,
}

/// Play on `table` with the moves of `choose` (called with the game whenever it waits for
/// a move; `Ok(None)` ends the loop) until the game is over or `limits` end it. An error of
/// the chooser or of the table ends the loop and is returned.
#[inline(always)]
pub fn play<T, E>(
    table: &mut T,
    limits: Limits<'_>,
    mut choose: impl FnMut(&Game) -> Result<Option<Move>, E>,
) -> Result<Played, E>
where
    T: Table,
    E: From<T::Error>,
{
    let (mut rolls, mut captures) = (0u64, 0u64);
    let stopped = || limits.stop.is_some_and(Stop::requested);
    let ending = loop {
        let roll = match table.game().phase() {
            Phase::Over => break Ending::Over,
            Phase::Move(roll) => roll,
            Phase::Roll => {
                if rolls >= limits.max_rolls {
                    break Ending::CutOff;
                }
                if stopped() {
                    break Ending::Stopped;
                }
                rolls += 1;
                if table.roll_die()? != RollResult::ToMove {
                    continue;
                }
                match table.game().phase() {
                    Phase::Move(roll) => roll,
                    _ => continue,
                }
            }
        };
        if limits.cut_off == CutOff::BeforeEachStep && rolls >= limits.max_rolls {
            break Ending::CutOff;
        }
        if stopped() {
            break Ending::Stopped;
        }
        let Some(mv) = choose(table.game())? else {
            break Ending::NoMove;
        };
        if stopped() {
            break Ending::Stopped; // a search cut short: its move is not played
        }
        if let Event::Move { outcome, .. } = table.play_move(mv, roll)?
            && outcome.captured_any()
        {
            captures += u64::from(u32::from_le_bytes(outcome.captured).count_ones());
        }
    };
    Ok(Played {
        ending,
        rolls,
        captures,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::rng::Rng;
    use crate::ludo::rules::Rules;
    use crate::ludo::seat::seat_list;

    fn random(rng: &mut Rng) -> impl FnMut(&Game) -> Result<Option<Move>, LudoError> + '_ {
        |g| Ok(g.random_move(rng))
    }

    /// The checked game and its record play the same game, and the record keeps every
    /// roll and move.
    #[test]
    fn game_and_record_play_alike() {
        let limits = Limits {
            max_rolls: u64::MAX,
            cut_off: CutOff::BeforeEachStep,
            stop: None,
        };
        let mut g = Game::new(Rules::STANDARD, &seat_list(&[0, 1, 2, 3]), 5).unwrap();
        let mut rec = GameRecord::new(g);
        let a = play(&mut g, limits, random(&mut Rng::new(1))).unwrap();
        let b = play(&mut rec, limits, random(&mut Rng::new(1))).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.ending, Ending::Over);
        assert_eq!(rec.game(), &g);
        let rolls = rec
            .events()
            .filter(|e| matches!(e, Event::Roll { .. }))
            .count();
        assert_eq!(rolls as u64, a.rolls);
    }

    /// The two cut-offs differ only in the move of the last roll.
    #[test]
    fn cut_offs() {
        for cut_off in [CutOff::BeforeEachStep, CutOff::BeforeRoll] {
            let limits = Limits {
                max_rolls: 7,
                cut_off,
                stop: None,
            };
            let mut g = Game::new(Rules::CS162, &seat_list(&[0, 2]), 3).unwrap();
            let p = play(&mut g, limits, random(&mut Rng::new(2))).unwrap();
            assert_eq!((p.ending, p.rolls), (Ending::CutOff, 7));
            let waits = matches!(g.phase(), Phase::Move(_));
            assert!(cut_off == CutOff::BeforeEachStep || !waits);
        }
        let stop = Stop::new();
        stop.request();
        let limits = Limits {
            max_rolls: 7,
            cut_off: CutOff::BeforeRoll,
            stop: Some(&stop),
        };
        let mut g = Game::new(Rules::CS162, &seat_list(&[0, 2]), 3).unwrap();
        let p = play(&mut g, limits, random(&mut Rng::new(2))).unwrap();
        assert_eq!((p.ending, p.rolls), (Ending::Stopped, 0));
        let unlimited = Limits {
            max_rolls: u64::MAX,
            stop: None,
            ..limits
        };
        let p = play(&mut g, unlimited, |_| Ok::<_, LudoError>(None)).unwrap();
        assert_eq!(p.ending, Ending::NoMove);
    }
}
