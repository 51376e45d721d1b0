//! Python arguments to Rust values, the same strictness everywhere.
//!
//! Whole numbers are read strictly: an `int` (never a `bool`, a `float` or a string), inside
//! a stated range. Out of range is an [`InvalidArgumentError`] (a `LudoError`, so a
//! `ValueError`) naming the argument and its range, never Python's `OverflowError`.
//!
//! Methods take typed arguments: [`int_arg!`] declares a newtype for one named argument
//! (`Seed`, `Threads`, ...) whose `FromPyObject` applies the range, so a `#[pymethods]`
//! signature says what it accepts and PyO3 does the reading. Game-specific argument types
//! (card specs, bot lists, ...) live next to that game's binding and build on the functions
//! here.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

pub(crate) use super::errors::InvalidArgumentError;
use super::type_error;
use crate::common::ranges;

/// `value` as an int from `lo` to `hi`: a `TypeError` for anything but an `int`, an
/// [`InvalidArgumentError`] naming `what` and the range for a value outside it.
pub(crate) fn int_in(value: &Bound<'_, PyAny>, what: &str, lo: i128, hi: i128) -> PyResult<i128> {
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(type_error(what, "an int", value));
    }
    match value.extract::<i128>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(InvalidArgumentError::new_err(ranges::int_out_of_range(
            what,
            lo,
            hi,
            &repr(value),
        ))),
    }
}

/// `value` as a number of seconds: an `int` or a `float` (not a `bool`), finite, above 0
/// and at most `max`. A `TypeError` for anything else, an [`InvalidArgumentError`] naming
/// `what` for a value outside the range.
pub(crate) fn seconds_in(value: &Bound<'_, PyAny>, what: &str, max: f64) -> PyResult<f64> {
    if value.is_instance_of::<PyBool>()
        || !(value.is_instance_of::<PyFloat>() || value.is_instance_of::<PyInt>())
    {
        return Err(type_error(what, "a number of seconds", value));
    }
    match value.extract::<f64>() {
        Ok(v) if v > 0.0 && v <= max => Ok(v),
        _ => Err(InvalidArgumentError::new_err(ranges::seconds_out_of_range(
            what,
            max,
            &repr(value),
        ))),
    }
}

/// Declares a typed whole-number argument: `int_arg!(Doc, Name, "name", u64, lo, hi)` makes
/// `Name(pub u64)` whose `FromPyObject` is [`int_in`]`(value, "name", lo, hi)`; with a last
/// argument `class`, an engine error's constructor, a value out of range is that error.
macro_rules! int_arg {
    ($(#[$doc:meta])* $name:ident, $what:literal, $ty:ty, $lo:expr, $hi:expr $(, $class:expr)?) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) struct $name(pub $ty);

        impl<'a, 'py> pyo3::FromPyObject<'a, 'py> for $name {
            type Error = pyo3::PyErr;

            fn extract(obj: pyo3::Borrowed<'a, 'py, pyo3::PyAny>) -> pyo3::PyResult<Self> {
                let v = $crate::python::convert::int_in(&obj, $what, $lo as i128, $hi as i128);
                $(let v = v.map_err(|e| $crate::python::convert::as_engine(e, obj.py(), $class));)?
                Ok($name(v? as $ty))
            }
        }
    };
}

/// An [`int_in`] or [`seconds_in`] range error re-raised as the engine's error `class`.
pub(crate) fn as_engine<E: Into<PyErr>>(e: PyErr, py: Python<'_>, class: fn(String) -> E) -> PyErr {
    if e.is_instance_of::<InvalidArgumentError>(py) {
        class(e.value(py).to_string()).into()
    } else {
        e
    }
}
pub(crate) use int_arg;

/// Declares an argument type: `arg!(Doc, Name(Type) = |obj| reader)` makes `Name(pub
/// Type)` whose `FromPyObject` is the reader (from `&Bound<PyAny>` to `PyResult<Type>`).
macro_rules! arg {
    ($(#[$doc:meta])* $name:ident($ty:ty) = $read:expr) => {
        $(#[$doc])*
        pub(crate) struct $name(pub $ty);

        impl<'a, 'py> pyo3::FromPyObject<'a, 'py> for $name {
            type Error = pyo3::PyErr;

            fn extract(obj: pyo3::Borrowed<'a, 'py, pyo3::PyAny>) -> pyo3::PyResult<Self> {
                let read: fn(&pyo3::Bound<'py, pyo3::PyAny>) -> pyo3::PyResult<$ty> = $read;
                read(&obj).map($name)
            }
        }
    };
}
pub(crate) use arg;

int_arg!(/// A `seed` argument: any int from 0 to 2**64 - 1.
    Seed, "seed", u64, 0, u64::MAX);

/// `value`'s Python repr, or '?' when it has none.
pub(crate) fn repr(value: &Bound<'_, PyAny>) -> String {
    value.repr().map_or_else(|_| "?".into(), |r| r.to_string())
}
