//! The entries of a Ludo game's history as Python values: `RollEvent` and `MoveEvent`
//! (dicts with typed attributes, defined in `LudoGame.events`).

use pyo3::prelude::*;
use pyo3::types::PyDict;

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
    let r = before.rules();
    match *event {
        Event::Roll {
            seat,
            value,
            result,
            die,
        } => {
            d.set_item("kind", KIND.of(py, "roll")?)?;
            d.set_item("player", r.seat_label(seat))?;
            d.set_item("value", value)?;
            d.set_item("die", die)?;
            d.set_item("result", result.name())?;
        }
        Event::Move {
            mv,
            outcome,
            extra_roll,
            finished,
        } => {
            d.set_item("kind", KIND.of(py, "move")?)?;
            d.set_item("player", r.seat_label(mv.seat))?;
            d.set_item("move", before.move_name(&mv))?;
            d.set_item("roll", mv.roll)?;
            d.set_item("from", outcome.from)?;
            d.set_item("to", outcome.to)?;
            if let Some((from, to)) = event.squares(r) {
                d.set_item("from_square", from)?;
                d.set_item("to_square", to)?;
            }
            let (moved, captured) = event.token_names(before);
            d.set_item("tokens", moved)?;
            d.set_item("captured", captured)?;
            d.set_item("bumped", outcome.bumped)?;
            d.set_item("bounced", outcome.bounced)?;
            d.set_item("stayed", outcome.stayed)?;
            d.set_item("reached_home", outcome.reached_home)?;
            d.set_item("extra_roll", extra_roll)?;
            d.set_item("finished", finished)?;
        }
    }
    match event {
        Event::Roll { .. } => ROLL_EVENT.call(py, d),
        Event::Move { .. } => MOVE_EVENT.call(py, d),
    }
}
