//! Foundations both games share: the seeded random number generator, the SVG writer (and the
//! rasteriser that turns its pictures into pixels) and the JSON of the save formats.
//! Nothing here knows a game's rules.

pub mod excerpt;
pub mod json;
pub mod raster;
pub mod rng;
pub mod svg;
