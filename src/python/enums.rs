//! Values of the Python package's own classes, made from Rust: the `str` enums (`Phase`,
//! reasons, ...) and the history's event classes.
//!
//! They are plain Python classes defined in the package (`enum.StrEnum` subclasses, `dict`
//! subclasses), so that they pickle, print and compare like any enum or dict and equal the
//! strings and dicts the API gave before. The binding imports each class once and calls it.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// A cached Python class `module.name`.
pub(crate) struct PackageClass {
    module: &'static str,
    name: &'static str,
    class: PyOnceLock<Py<PyType>>,
}

impl PackageClass {
    /// The class `name` of `module`, imported the first time it is used.
    pub(crate) const fn new(module: &'static str, name: &'static str) -> PackageClass {
        PackageClass {
            module,
            name,
            class: PyOnceLock::new(),
        }
    }

    /// The member whose value is `value`.
    pub(crate) fn of<'py>(&self, py: Python<'py>, value: &str) -> PyResult<Bound<'py, PyAny>> {
        self.call(py, value)
    }

    /// The class called with a tuple of arguments.
    pub(crate) fn call_with<'py, A>(&self, py: Python<'py>, args: A) -> PyResult<Bound<'py, PyAny>>
    where
        A: pyo3::call::PyCallArgs<'py>,
    {
        let class = self.class.import(py, self.module, self.name)?;
        class.call1(args)
    }

    /// The class called with one argument.
    pub(crate) fn call<'py, A>(&self, py: Python<'py>, arg: A) -> PyResult<Bound<'py, PyAny>>
    where
        A: IntoPyObject<'py>,
    {
        let class = self.class.import(py, self.module, self.name)?;
        class.call1((arg,))
    }
}

/// The `Reason` enum of `LudoGame.enums` (why a game ended).
pub(crate) static REASON: PackageClass = PackageClass::new("LudoGame.enums", "Reason");

/// The `Outcome` class of `LudoGame.outcome`.
static OUTCOME: PackageClass = PackageClass::new("LudoGame.outcome", "Outcome");

/// An `Outcome(termination, winner, ranking)` of either game.
pub(crate) fn outcome_object<'py>(
    py: Python<'py>,
    termination: &str,
    ranking: Vec<char>,
) -> PyResult<Bound<'py, PyAny>> {
    let reason = REASON.of(py, termination)?;
    let winner = ranking.first().map(char::to_string);
    let ranking: Vec<String> = ranking.iter().map(char::to_string).collect();
    let ranking = pyo3::types::PyTuple::new(py, ranking)?;
    OUTCOME.call_with(py, (reason, winner, ranking))
}
