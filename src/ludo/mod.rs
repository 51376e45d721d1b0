//! The Ludo rules engine.
//!
//! - [`rules`]: rule sets as data ([`Rules`]), with presets;
//! - [`seat`]: the seat and token indices ([`Seat`], [`Token`]) and steps ([`Step`]);
//! - [`board`]: the position ([`Board`]), small and `Copy`, and how moves change it;
//! - [`game`]: the turn-by-turn game over any rule set ([`Game`]), with history;
//! - [`rng`]: the seeded die (the crate's one generator, re-exported);
//! - [`bots`] (also under its former name `policy`): the built-in bots ([`Bot`]);
//! - [`play`]: the one bot loop (roll, choose, play) behind simulation and autoplay;
//! - [`autoplay`]: that loop with a player per seat, built-in bots or callers;
//! - [`sim`]: batch simulation (over rule sets compiled to move tables when it can);
//! - [`report`]: a simulation's results with what was simulated ([`report::Report`]);
//! - [`env`]: learning environments (decisions for agents, observations, masks, rewards);
//! - [`cs162`]: the CS162 assignment's game (space names, the priority rule, `play_game`);
//! - [`error`]: the one error type of the engine ([`LudoError`]).

pub mod autoplay;
pub mod board;
pub mod bots;
pub(crate) mod compiled;
pub mod cs162;
pub mod env;
pub mod error;
pub mod game;
pub mod notation;
pub mod play;
pub mod render;
pub mod report;
pub mod rules;
pub mod seat;
pub mod sim;
pub(crate) mod tables;

pub use crate::common::rng::{self, Rng};
pub use board::{Board, MoveOutcome, Step};
/// The bots under their former name.
pub use bots as policy;
pub use bots::Bot;
pub use cs162::{Cs162Game, SpaceName};
pub use error::LudoError;
pub use game::{Event, Game, GameRecord, Move, MoveList, Outcome, Phase, RollResult};
pub use rules::Rules;
pub use seat::{MAX_SEATS, MAX_TOKENS, Seat, Token};
