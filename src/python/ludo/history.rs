//! The entries of a Ludo game's history as Python values: `RollEvent` and `MoveEvent`
//! (dicts with typed attributes, defined in `LudoGame.events`) of the engine's
//! [`Event::fields`].

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::common::value::Value;
use crate::ludo::{Event, Game as CoreGame};
use crate::python::enums::PackageClass;

/// `event` as a `RollEvent` or `MoveEvent`, with `before` the game just before it.
pub(super) fn event_object<'py>(
    py: Python<'py>,
    before: &CoreGame,
    event: &Event,
) -> PyResult<Bound<'py, PyAny>> {
    static ROLL_EVENT: PackageClass = PackageClass::new("LudoGame.events", "RollEvent");
    static MOVE_EVENT: PackageClass = PackageClass::new("LudoGame.events", "MoveEvent");
    static KIND: PackageClass = PackageClass::new("LudoGame.enums", "EventKind");
    let d = PyDict::new(py);
    for (name, value) in event.fields(before) {
        match (name, value) {
            ("kind", Value::Text(kind)) => d.set_item(name, KIND.of(py, &kind)?)?,
            (name, value) => d.set_item(name, crate::python::value(py, value)?)?,
        }
    }
    match event {
        Event::Roll { .. } => ROLL_EVENT.call(py, d),
        Event::Move { .. } => MOVE_EVENT.call(py, d),
    }
}
