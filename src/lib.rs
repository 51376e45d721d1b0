//! `ludogame`: a fast, exact Ludo engine.
//!
//! The crate is layered:
//! - [`ludo`]: the pure-Rust rules engine (no Python anywhere in it);
//! - `python` (behind the `python` feature): the PyO3 binding layer, the only code that
//!   knows about Python. maturin builds it into the `LudoGame._core` extension module.

pub mod ludo;
pub mod onitama;

#[cfg(feature = "python")]
mod python;
