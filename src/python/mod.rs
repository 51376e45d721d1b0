//! The PyO3 binding layer: the only code in the crate that knows about Python. It converts
//! and validates Python arguments, calls the engine in [`crate::ludo`], and converts back.
//! Engine errors become Python exceptions in one place ([`errors`]).

use pyo3::prelude::*;

use errors::BindingError;
use pyo3::types::{PyList, PyTuple};

use crate::common::value::Value;

pub(crate) mod convert;
pub(crate) mod enums;
pub(crate) mod errors;
pub(crate) mod interrupt;
mod ludo;
mod onitama;
mod pieces;
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
    use super::install_hint;
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
    use super::pieces::PyTextPieces;
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
        for (name, value) in crate::published::values() {
            m.add(name, super::value(m.py(), value)?)?;
        }
        Ok(())
    }
}

/// A value an engine hands out ([`Value`]) as a Python object.
fn value(py: Python<'_>, value: Value) -> PyResult<Bound<'_, PyAny>> {
    let all = |items: Vec<Value>| items.into_iter().map(|v| self::value(py, v));
    Ok(match value {
        Value::Bool(b) => pyo3::types::PyBool::new(py, b).to_owned().into_any(),
        Value::Int(n) => n.into_pyobject(py)?.into_any(),
        Value::Signed(n) => n.into_pyobject(py)?.into_any(),
        Value::Float(x) => x.into_pyobject(py)?.into_any(),
        Value::Text(s) => s.into_pyobject(py)?.into_any(),
        Value::None => py.None().into_bound(py),
        Value::List(items) => {
            PyList::new(py, all(items).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Tuple(items) => {
            PyTuple::new(py, all(items).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Dict(entries) => {
            let d = pyo3::types::PyDict::new(py);
            for (k, v) in entries {
                d.set_item(k, self::value(py, v)?)?;
            }
            d.into_any()
        }
    })
}

/// The command that installs the optional part `extra` of LudoGame ('web', 'postgres',
/// 'ray', 'rl', 'test'), in the one spelling every message uses.
#[pyfunction]
fn install_hint(extra: &str) -> String {
    crate::common::install_hint(extra)
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
