//! Foundations both games share: the seeded random number generator and the SVG writer.
//! Nothing here knows a game's rules.

pub mod rng;
pub mod svg;
