//! `ludogame`: a fast, exact Ludo engine, and a second game (Onitama with a movable wall).
//!
//! The crate is layered:
//! - [`ludo`]: the pure-Rust Ludo engine (rules as data, the turn-by-turn game, bots,
//!   simulation), no Python anywhere in it;
//! - [`common`]: what both games share (the seeded generator, the SVG writer);
//! - [`onitama`]: the pure-Rust Onitama-with-wall engine (move generation, referee, AIs);
//! - `python` (behind the `python` feature): the PyO3 binding layer, the only code that
//!   knows about Python. maturin builds it into the `LudoGame._core` extension module.

#![warn(missing_docs)]

pub mod common;
pub mod ludo;
pub mod onitama;
pub mod published;
pub mod stop;

pub use stop::Stop;

#[cfg(feature = "python")]
mod python;
