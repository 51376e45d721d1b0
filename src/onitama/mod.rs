//! The rules engine of the second game: Onitama with a movable wall (the wall variant of
//! the MATLAB coursework `tommykwok722/Onitama-Board-Game`). Pure Rust, no Python.
//!
//! - [`square`]: squares `a1`..`e5`, the players, wall directions, 25-bit masks;
//! - [`card`]: movement cards, any 5×5 pattern, and the 16 standard cards;
//! - [`coursework`]: the Part 1 program's prompts, messages and move listing;
//! - [`position`]: the position ([`Position`]), small and `Copy`, with make/unmake;
//! - [`action`]: one ply ([`Action`]) and the fixed-size [`ActionList`];
//! - [`movegen`]: the legal actions (on [`Position`]);
//! - [`notation`]: the one-line text notation of a position;
//! - [`game`]: a game played action by action ([`Game`]), with undo and its JSON;
//! - [`json`]: the small JSON reader and writer of the save format (shared, in `common`);
//! - [`perft`](mod@perft): counting action sequences, and timing it;
//! - [`referee`]: judging an AI's raw answer, and refereeing whole games;
//! - [`saved`]: a refereed game saved as text ([`SavedMatch`]);
//! - [`ai`]: the built-in AIs (random, the coursework baseline, alpha-beta search);
//! - [`setups`]: the coursework's positions (`setups.json`) as constants;
//! - [`env`]: the learning environment's action numbering, mask and observation planes;
//! - [`render`]: the reference programs' text drawing of a position, and an SVG image;
//! - [`error`]: the one error type of the engine ([`OnitamaError`]).
//!
//! Rules, in short: a ply picks card slot 1 or 2, moves an own pawn by one of its offsets
//! (B negates them), then, unless the move won, swaps the used card with the side card and
//! steps the wall (`u r d l` in board directions, or `s`). A general on the opponent's base
//! or a captured general wins at once; after `n` plies with no win the game is a tie.

pub mod action;
pub mod ai;
pub mod args;
pub mod card;
pub mod coursework;
pub mod env;
pub mod error;
pub mod game;
pub use crate::common::json;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod referee;
pub mod render;
pub mod saved;
pub mod setups;
pub mod square;

pub use action::{Action, ActionList, MAX_ACTIONS, Slot};
pub use ai::{
    Ai, AiSettings, EndgameTable, Limits, MATE, MATE_BOUND, PonderHit, SearchInfo, Searcher,
    TableValue, baseline_action, random_action,
};
pub use card::{
    ALL_CARDS, ALL_NAMES, Card, CardSet, SENSEI_CARDS, SENSEI_NAMES, STANDARD_CARDS, STANDARD_NAMES,
};
pub use error::OnitamaError;
pub use game::{Drawing, Game, MatchStart, Outcome};
pub use perft::{perft, perft_divide, perft_exact, perft_make_unmake, perft_until};
#[allow(deprecated)]
pub use position::Rules;
pub use position::{CardSlot, Piece, Position, Status, Undo, Variant, WinKind};
#[allow(deprecated)]
pub use referee::GameRecord;
pub use referee::{
    AiFailure, Answer, EndReason, GameResult, InvalidAnswer, MatchConfig, MatchRecord, PawnChoice,
    judge, judge_pawn, judge_typed, judge_wall, play_match, play_refereed,
};
pub use saved::SavedMatch;
pub use setups::{SETUPS, Setup, find_setup, setup_ids};
pub use square::{Player, Square, WallDir};
