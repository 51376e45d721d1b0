//! The Ludo binding: the CS162 classes (`LudoGame`, `Player`), the move-by-move `Game` and
//! its `Move`, and the simulation (`Simulation`, `SimResult`). Each file converts and wraps;
//! the rules, the state and the loops are the engine's (`crate::ludo`).

pub(crate) mod convert;
pub(crate) mod cs162;
pub(crate) mod env;
pub(crate) mod game;
mod history;
pub(crate) mod moves;
pub(crate) mod sim;
pub(crate) mod sim_result;
