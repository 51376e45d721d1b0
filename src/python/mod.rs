//! The PyO3 binding layer: the only code in the crate that knows about Python. It converts
//! and validates Python arguments, calls the engine in [`crate::ludo`], and converts back.
//! Engine errors become Python exceptions in one place ([`errors`]).

use pyo3::prelude::*;

use errors::BindingError;

pub(crate) mod convert;
pub(crate) mod enums;
pub(crate) mod errors;
pub(crate) mod interrupt;
mod ludo;
mod onitama;
mod raster;

/// The compiled core of the `LudoGame` package.
#[pymodule(name = "_core")]
mod core_module {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::convert::InvalidArgumentError;
    #[pymodule_export]
    use super::errors::EnvActionError;
    #[pymodule_export]
    use super::errors::{
        ForeignPlayerError, GameOverError, IllegalMoveError, InvalidBotError, InvalidNotationError,
        InvalidPlayersError, InvalidPositionError, InvalidRollError, InvalidRulesError,
        InvalidStepsError, InvalidTokenError, InvalidTurnError, LudoError, NoGameError,
    };
    #[pymodule_export]
    use super::errors::{
        IllegalActionError, InvalidAIError, InvalidActionError, InvalidBoardError,
        InvalidCardError, InvalidSquareError, OnitamaError, OnitamaNotationError,
        UnknownSetupError,
    };
    #[pymodule_export]
    use super::ludo::cs162::{LudoGame, Player};
    #[pymodule_export]
    use super::ludo::env::{PyLudoEnv, PyVectorEnv};
    #[pymodule_export]
    use super::ludo::game::PyGame;
    #[pymodule_export]
    use super::ludo::moves::Move;
    #[pymodule_export]
    use super::ludo::sim::{SimResult, Simulation, bot_playouts};
    #[pymodule_export]
    use super::onitama::{
        PyAction, PyAi, PyCard, PyEndgameTable, PyMatchRecord, PyOnitama, PyPonderHit,
        PySearchStop, onitama_play_match, onitama_standard_cards,
    };
    #[pymodule_export]
    use super::raster::{InvalidSvgError, svg_to_rgb};

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add(
            "OnitamaGameOverError",
            super::errors::onitama_game_over_type(m.py())?,
        )?;
        // Ctrl-C in a long call raises a plain KeyboardInterrupt (so that an uncaught one
        // exits 130, as CPython does only for that exact type) carrying `partial`.
        m.add(
            "Interrupted",
            m.py().get_type::<pyo3::exceptions::PyKeyboardInterrupt>(),
        )?;
        m.add("MAX_ROLLS", crate::ludo::play::MAX_ROLLS)?;
        m.add("ENV_PLAYERS", crate::ludo::env::DEFAULT_PLAYERS)?;
        m.add("ENV_TABLE_PLAYERS", crate::ludo::env::DEFAULT_TABLE_PLAYERS)?;
        m.add("ENV_MAX_ROLLS", crate::ludo::env::DEFAULT_MAX_ROLLS)?;
        let decisions = crate::ludo::cs162::DECISIONS.map(|d| (d.id, d.summary, d.open));
        m.add(
            "CS162_DECISIONS",
            pyo3::types::PyTuple::new(m.py(), decisions)?,
        )?;
        m.add(
            "CS162_PRIORITY_RULES",
            pyo3::types::PyTuple::new(m.py(), crate::ludo::cs162::PRIORITY_RULES)?,
        )?;
        let readings = crate::ludo::cs162::READING_OPTIONS
            .iter()
            .flat_map(|o| {
                o.values
                    .iter()
                    .map(|v| (o.decision, o.name, v.name, v.text, v.ruled_out_by))
            })
            .collect::<Vec<_>>();
        m.add(
            "CS162_READINGS",
            pyo3::types::PyTuple::new(m.py(), readings)?,
        )?;
        m.add("SIM_COUNT", crate::ludo::sim::DEFAULT_COUNT)?;
        m.add("SIM_THREADS", crate::ludo::sim::DEFAULT_THREADS)?;
        m.add("SIM_BOT", crate::ludo::sim::DEFAULT_BOT)?;
        m.add("BEST_MOVE_BOT", crate::ludo::bots::BEST_MOVE_BOT)?;
        m.add(
            "ENV_OPPONENT",
            crate::ludo::env::DEFAULT_OPPONENT.to_string(),
        )?;
        m.add("ENV_THREADS", crate::ludo::env::DEFAULT_THREADS)?;
        m.add(
            "ENV_AUTORESET",
            crate::ludo::env::Autoreset::default().name(),
        )?;
        let ai = crate::onitama::AiSettings::DEFAULT;
        let settings = pyo3::types::PyDict::new(m.py());
        settings.set_item("level", ai.level)?;
        settings.set_item("time", ai.time)?;
        settings.set_item("seed", ai.seed)?;
        settings.set_item("nodes", ai.nodes)?;
        settings.set_item("depth", ai.depth)?;
        settings.set_item("threads", ai.threads)?;
        m.add("ONITAMA_AI_SETTINGS", settings)?;
        m.add("ONITAMA_MATCH_SETUP", crate::onitama::setups::MATCH_SETUP)?;
        m.add(
            "ONITAMA_DEFAULT_PLIES",
            crate::onitama::setups::DEFAULT_PLIES,
        )?;
        let texts = pyo3::types::PyDict::new(m.py());
        for (name, text) in crate::onitama::coursework::texts() {
            texts.set_item(name, text)?;
        }
        m.add("ONITAMA_TEXTS", texts)?;
        m.add(
            "ONITAMA_CARD_SETS",
            pyo3::types::PyTuple::new(m.py(), crate::onitama::CardSet::NAMES)?,
        )?;
        m.add("RL_INSTALL", crate::common::RL_INSTALL)?;
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}

/// Make sure NumPy can be imported, else an `ImportError` saying that `who` needs it and
/// how to install it ([`crate::common::RL_INSTALL`]).
pub(crate) fn need_numpy(py: Python<'_>, who: &str) -> PyResult<()> {
    py.import("numpy").map(drop).map_err(|e| {
        let install = crate::common::RL_INSTALL;
        pyo3::exceptions::PyImportError::new_err(format!("{who} NumPy ({install}): {e}"))
    })
}

/// The binding's error for an argument of the wrong type (a `TypeError` in Python).
pub(crate) fn wrong_type(what: &str, expected: &str, got: &Bound<'_, PyAny>) -> BindingError {
    BindingError::WrongType {
        what: what.to_owned(),
        expected: expected.to_owned(),
        got: describe(got),
    }
}

/// [`wrong_type`] as the Python exception.
pub(crate) fn type_error(what: &str, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    wrong_type(what, expected, got).into()
}

/// Type name and short repr of a Python value, for error messages.
pub(crate) fn describe(obj: &Bound<'_, PyAny>) -> String {
    let type_name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_owned());
    let repr = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".to_owned());
    let repr = if repr.chars().count() > 40 {
        format!("{}...", repr.chars().take(37).collect::<String>())
    } else {
        repr
    };
    format!("{type_name} ({repr})")
}
