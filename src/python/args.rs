//! Whole-number arguments read strictly: an `int` (never a `bool`, a `float` or a string),
//! inside a stated range. Out of range is an [`InvalidArgumentError`] (a `LudoError`, so a
//! `ValueError`) naming the argument and its range, never Python's `OverflowError`.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

use super::errors::LudoError;
use super::type_error;

pyo3::create_exception!(
    LudoGame,
    InvalidArgumentError,
    LudoError,
    "A number argument outside its range (a game count, a seed, a thread count, ...); the message names the argument and the range."
);

/// `value` as an int from `lo` to `hi`: a `TypeError` for anything but an `int`, an
/// [`InvalidArgumentError`] naming `what` and the range for a value outside it.
pub(crate) fn int_in(value: &Bound<'_, PyAny>, what: &str, lo: i128, hi: i128) -> PyResult<i128> {
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(type_error(what, "an int", value));
    }
    match value.extract::<i128>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(InvalidArgumentError::new_err(format!(
            "{what} must be an int from {} to {}, not {}",
            show(lo),
            show(hi),
            value
                .repr()
                .map(|r| r.to_string())
                .unwrap_or_else(|_| "?".into())
        ))),
    }
}

/// A seed: any int from 0 to 2**64 - 1.
pub(crate) fn seed(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    Ok(int_in(value, what, 0, u64::MAX as i128)? as u64)
}

/// A range bound as people write it: powers of two near the 64-bit limits by name.
fn show(v: i128) -> String {
    if v == u64::MAX as i128 {
        "2**64 - 1".into()
    } else if v >= 1 << 20 && (v & (v - 1)) == 0 {
        format!("2**{}", v.trailing_zeros())
    } else {
        let digits = v.unsigned_abs().to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        if v < 0 { format!("-{out}") } else { out }
    }
}
