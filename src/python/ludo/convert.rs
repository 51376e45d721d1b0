//! Ludo's Python arguments: positions, rule options, moves; and the small helpers the
//! `Game` class shares (its "in use" error, phase names, the options dict).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use crate::ludo::rules::{OptionValue, Players};
use crate::ludo::{LudoError as CoreError, Rules, Seat};
use crate::python::convert::int_in;
use crate::python::{describe, type_error};

/// A `players` argument (positions as a str such as 'AC' or a list, or a number of
/// players; the rules' default when omitted) as the seats of `rules`.
pub(crate) fn parse_seats(
    rules: &Rules,
    players: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Seat>> {
    let read = |players: &Bound<'_, PyAny>| -> PyResult<Players> {
        if players.is_instance_of::<PyInt>() && !players.is_instance_of::<PyBool>() {
            return Ok(Players::Count(players.extract().ok(), describe(players)));
        }
        if let Ok(s) = players.cast::<PyString>() {
            return Ok(Players::Labels(
                s.to_string_lossy().chars().map(String::from).collect(),
            ));
        }
        let expected = "a str such as 'AC', a list or an int";
        let items = (players.try_iter()).map_err(|_| type_error("players", expected, players))?;
        let label = |item: PyResult<Bound<'_, PyAny>>| {
            let item = item?;
            let s = (item.cast::<PyString>())
                .map_err(|_| type_error("a player", "a position str", &item))?;
            Ok(s.to_string_lossy().into_owned())
        };
        Ok(Players::Labels(items.map(label).collect::<PyResult<_>>()?))
    };
    Ok(rules.seats_of(players.map(read).transpose()?)?)
}

/// A `rules` argument (a preset name or a rule set's notation such as
/// 'standard[six_limit=3]'; "cs162" when omitted) changed by the rule `options`, validated.
pub(crate) fn parse_rules(
    rules: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Rules> {
    let name = (rules.map(|r| text_arg(r, "rules", CoreError::InvalidRules))).transpose()?;
    let read = |(k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>)| -> PyResult<_> {
        Ok((
            text_arg(&k, "an option name", CoreError::InvalidRules)?,
            option_value(&v)?,
        ))
    };
    let options = options.into_iter().flat_map(|o| o.iter()).map(read);
    Rules::named(name.as_deref())?.with_options(options)
}

/// A str argument as a Rust `String`; a str that is not valid Unicode (a lone surrogate)
/// gives `invalid(...)`, anything else a `TypeError`.
pub(super) fn text_arg(
    obj: &Bound<'_, PyAny>,
    what: &str,
    invalid: fn(String) -> CoreError,
) -> PyResult<String> {
    let s = obj
        .cast::<PyString>()
        .map_err(|_| type_error(what, "a str", obj))?;
    match s.to_str() {
        Ok(t) => Ok(t.to_owned()),
        Err(_) => Err(invalid(format!(
            "{what} {} is not valid Unicode text",
            describe(obj)
        ))
        .into()),
    }
}

pub(super) fn option_value(value: &Bound<'_, PyAny>) -> PyResult<OptionValue> {
    if let Ok(b) = value.cast::<PyBool>() {
        Ok(OptionValue::Bool(b.is_true()))
    } else if value.is_instance_of::<PyInt>() {
        match value.extract::<i64>() {
            Ok(i) => Ok(OptionValue::Int(i)),
            Err(_) => Err(CoreError::InvalidRules(format!(
                "an option value {} is far out of range",
                describe(value)
            ))
            .into()),
        }
    } else if value.is_instance_of::<PyString>() {
        Ok(OptionValue::Str(text_arg(
            value,
            "an option value",
            CoreError::InvalidRules,
        )?))
    } else {
        Err(type_error("a rule option", "a bool, int or str", value))
    }
}

/// A `RuntimeError` for a game object that another call is using right now.
pub(super) fn in_use() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "the game is in use by another call (e.g. a bot of its own autoplay); try again after it",
    )
}

/// Every rule option of `rules` and its value, as a dict.
pub(crate) fn options_dict<'py>(py: Python<'py>, rules: &Rules) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, value) in rules.options() {
        match value {
            OptionValue::Bool(b) => d.set_item(name, b)?,
            OptionValue::Int(i) => d.set_item(name, i)?,
            OptionValue::Str(s) => d.set_item(name, s)?,
        }
    }
    Ok(d)
}

crate::python::convert::int_arg!(/// A first index: `Simulation.run`'s first game,
    /// `Game.history_since`'s first entry.
    Start, "start", u64, 0, u64::MAX);
crate::python::convert::int_arg!(/// `Simulation.run`'s game count (at most `MAX_RUN` a call).
    Count, "count", u64, 0, crate::ludo::sim::MAX_RUN);
crate::python::convert::int_arg!(/// A thread count.
    Threads, "threads", usize, 1, crate::ludo::sim::MAX_THREADS);
crate::python::convert::int_arg!(/// `autoplay`'s roll limit.
    MaxRolls, "max_rolls", u64, 0, u64::MAX);
crate::python::convert::arg!(/// A roll given to `Game.roll`: an int from 1 to 6.
RollValue(u8) = |o| match int_in(o, "roll value", 1, 6) {
    Ok(v) => Ok(v as u8),
    Err(e) if e.is_instance_of::<PyTypeError>(o.py()) => {
        Err(type_error("roll value", "an int from 1 to 6 or None", o))
    }
    Err(_) => Err(CoreError::InvalidRoll(describe(o)).into()),
});
