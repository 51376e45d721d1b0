//! Foundations both games share: the seeded random number generator, the SVG writer (and the
//! rasteriser that turns its pictures into pixels) and the JSON of the save formats.
//! Nothing here knows a game's rules.

pub mod excerpt;
pub mod json;
pub mod raster;
pub mod rng;
pub mod svg;

/// The command that installs what the learning environments and `svg_to_rgb` need (NumPy,
/// Gymnasium, PettingZoo): every message that asks for them says it this way (exported to
/// Python as `_core.RL_INSTALL`, which `LudoGame._install` hands out).
pub const RL_INSTALL: &str = "pip install 'ludogame[rl]'";
