//! Foundations both games share: the seeded random number generator, the SVG writer (and the
//! rasteriser that turns its pictures into pixels) and the JSON of the save formats.
//! Nothing here knows a game's rules.

pub mod excerpt;
pub mod json;
pub mod pieces;
pub mod ranges;
pub mod raster;
pub mod rng;
pub mod svg;
pub mod value;

/// The command that installs what the learning environments and `svg_to_rgb` need (NumPy,
/// Gymnasium, PettingZoo): every message that asks for them says it this way (exported to
/// Python as `_core.RL_INSTALL`, which `LudoGame._install` hands out).
pub const RL_INSTALL: &str = "pip install \".[rl]\" in the LudoGame source folder";

/// The command that installs the optional part `extra` of LudoGame (`web`, `postgres`,
/// `ray`, `rl`, `test`), in the one spelling every message and doc uses: the extra of the
/// source folder LudoGame is installed from ([`RL_INSTALL`] for `rl`; exported to Python
/// as `_core.install_hint`, which `LudoGame._install.install_hint` is).
pub fn install_hint(extra: &str) -> String {
    format!("pip install \".[{extra}]\" in the LudoGame source folder")
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_extra_has_one_install_command() {
        assert_eq!(super::install_hint("rl"), super::RL_INSTALL);
        assert_eq!(
            super::install_hint("web"),
            "pip install \".[web]\" in the LudoGame source folder"
        );
    }
}
