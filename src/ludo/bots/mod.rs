//! Bots: who picks which move. Rules stay in [`Game`]; a bot only looks at the legal moves
//! and chooses. Every bot is deterministic for a given random-number state.
//!
//! - `random`: uniform among the legal moves;
//! - `cs162`: the assignment's four priority rules (D9), generalised to any rule set;
//! - `aggressive` / `safe`: hand-tuned one-move heuristics (captures first / safety first);
//! - `expectimax(depth)`: search over the next `depth` dice rolls, opponents assumed to play
//!   against the searching player;
//! - `mcts(playouts)`: Monte Carlo tree search with explicit dice nodes, a budget of tree
//!   iterations ("playouts"), and a race estimate fitted to exact CS162 values at the leaves.

use std::fmt;
use std::str::FromStr;

use super::board::{Board, MoveOutcome, Step, in_yard};
use super::error::LudoError;
use super::game::{Game, Move, MoveList, Phase};
use super::rng::Rng;
use super::rules::{MAX_SEATS, MAX_TOKENS, Rules, Seat, Token};
use super::tables::Geometry;
use crate::stop::Stop;

mod expectimax;
mod heuristics;
mod mcts;
pub mod race;

pub use expectimax::evaluate;
pub use heuristics::{priority_rule, priority_token};
pub use mcts::{MAX_PLAYOUTS, MAX_TREE_NODES};
use {expectimax::*, heuristics::*, mcts::*, race::*};

/// A built-in bot, by name (`random`, `cs162`, `safe`, `aggressive`, `expectimax:2`,
/// `mcts:200`, ...). Random choices come from the generator given, so a seed fixes a game.
///
/// ```
/// use ludogame::ludo::{Bot, Game, Rng, Rules, Seat};
///
/// let bot: Bot = "expectimax:1".parse().unwrap();
/// assert_eq!(bot.to_string(), "expectimax:1");
/// let seats: Vec<Seat> = [0, 2].into_iter().filter_map(Seat::new).collect();
/// let mut game = Game::new(Rules::STANDARD, &seats, 1).unwrap();
/// let mut rng = Rng::new(5);
/// while !game.is_over() {
///     game.roll_die().unwrap();
///     if let Some(mv) = bot.choose(&game, &mut rng) {
///         game.play(mv).unwrap();
///     }
/// }
/// assert!(game.winner().is_some());
/// assert!("mcts:0".parse::<Bot>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bot {
    /// Uniformly random legal move.
    Random,
    /// The CS162 priority rule (D9), for any rule set.
    Cs162,
    /// Captures first, then bringing tokens home, entering, and running ahead.
    Aggressive,
    /// Avoids squares opponents can hit; captures only when it stays safe.
    Safe,
    /// Expectimax over the next `depth` dice rolls.
    Expectimax {
        /// Rolls looked ahead (1–4 are practical).
        depth: u8,
    },
    /// Monte Carlo tree search with this many playouts (tree iterations) per move.
    Mcts {
        /// Playouts per decision: each one walks down the tree, expands one dice node and
        /// scores the new positions.
        playouts: u32,
    },
}

impl Bot {
    /// The playouts per decision of an MCTS bot (its search size), `None` for the others.
    pub fn playouts(&self) -> Option<u32> {
        match self {
            Bot::Mcts { playouts } => Some(*playouts),
            _ => None,
        }
    }
}

/// The name of the bot `Game.best_move` asks when none is named.
pub const BEST_MOVE_BOT: &str = "expectimax";

/// A bot by name: `random`, `cs162`, `aggressive`, `safe`, `expectimax` (depth 2),
/// `expectimax:3`, `mcts` (1000 playouts), `mcts:5000` (any case).
impl FromStr for Bot {
    type Err = LudoError;

    fn from_str(name: &str) -> Result<Bot, LudoError> {
        let (base, arg) = match name.split_once(':') {
            Some((b, a)) => (b, Some(a)),
            None => (name, None),
        };
        let number = |default: u32, max: u32| -> Result<u32, LudoError> {
            match arg {
                None => Ok(default),
                Some(a) => match a.parse::<u32>() {
                    Ok(v) if (1..=max).contains(&v) => Ok(v),
                    _ => Err(LudoError::InvalidBot(format!(
                        "'{name}': the parameter must be a number from 1 to {max}"
                    ))),
                },
            }
        };
        let bot = match base.to_ascii_lowercase().as_str() {
            "random" => Bot::Random,
            "cs162" => Bot::Cs162,
            "aggressive" => Bot::Aggressive,
            "safe" => Bot::Safe,
            "expectimax" => Bot::Expectimax {
                depth: number(2, 5)? as u8,
            },
            "mcts" => Bot::Mcts {
                playouts: number(1000, MAX_PLAYOUTS)?,
            },
            _ => {
                return Err(LudoError::InvalidBot(format!(
                    "unknown bot '{name}': expected random, cs162, aggressive, safe, expectimax[:depth] or mcts[:playouts]"
                )));
            }
        };
        if arg.is_some() && !matches!(bot, Bot::Expectimax { .. } | Bot::Mcts { .. }) {
            return Err(LudoError::InvalidBot(format!(
                "'{name}': this bot takes no parameter"
            )));
        }
        Ok(bot)
    }
}

/// The bot's name, as it is parsed: `random`, `expectimax:2`, `mcts:1000`, ...
impl fmt::Display for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bot::Random => f.write_str("random"),
            Bot::Cs162 => f.write_str("cs162"),
            Bot::Aggressive => f.write_str("aggressive"),
            Bot::Safe => f.write_str("safe"),
            Bot::Expectimax { depth } => write!(f, "expectimax:{depth}"),
            Bot::Mcts { playouts } => write!(f, "mcts:{playouts}"),
        }
    }
}

impl Bot {
    /// Does the bot search (and so may take long, and honour a stop)?
    pub fn searches(&self) -> bool {
        matches!(self, Bot::Expectimax { .. } | Bot::Mcts { .. })
    }

    /// The bot's move in `game`, which must wait for a move (`None` otherwise).
    pub fn choose(&self, game: &Game, rng: &mut Rng) -> Option<Move> {
        self.choose_until(game, rng, None)
    }

    /// The bot's move in `game` (a search honouring `stop`, as [`Bot::choose_until`]), or
    /// [`LudoError::IllegalMove`] saying what the game waits for instead of a move.
    pub fn best_move(
        &self,
        game: &Game,
        rng: &mut Rng,
        stop: Option<&Stop>,
    ) -> Result<Move, LudoError> {
        self.choose_until(game, rng, stop).ok_or_else(|| {
            LudoError::IllegalMove(format!(
                "no move to choose: the game waits for {}",
                if game.is_over() {
                    "nothing (it is over)"
                } else {
                    "a roll"
                }
            ))
        })
    }

    /// [`Bot::choose`] that honours `stop`: a search asked to stop returns at once with the
    /// best move it has found so far (the caller decides whether to use it).
    pub fn choose_until(&self, game: &Game, rng: &mut Rng, stop: Option<&Stop>) -> Option<Move> {
        if *self == Bot::Random {
            return game.random_move(rng);
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        if moves.len() == 1 {
            return moves.iter().next();
        }
        Some(match self {
            // Answered from the move mask above; kept for a complete match.
            Bot::Random => nth(&moves, rng.below(moves.len() as u32) as usize),
            Bot::Cs162 => cs162_move(game, &moves),
            Bot::Aggressive => best_by(game, &moves, aggressive_score),
            Bot::Safe => best_by(game, &moves, safe_score),
            Bot::Expectimax { depth } => expectimax_move(game, &moves, *depth, stop),
            Bot::Mcts { playouts } => mcts_search(game, *playouts, UCB_C, &WEIGHTS, stop),
        })
    }
}

#[cfg(test)]
mod tests;
