//! Values of the Python package's `str` enums (`Phase`, reasons, ...), made from Rust.
//!
//! The enums are plain Python classes (`enum.StrEnum` subclasses) defined in the package, so
//! that they pickle, print and compare like any enum and equal their old string values. The
//! binding imports each class once and calls it with the value.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// A cached Python class `module.name`.
pub(crate) struct EnumClass {
    module: &'static str,
    name: &'static str,
    class: PyOnceLock<Py<PyType>>,
}

impl EnumClass {
    /// The class `name` of `module`, imported the first time it is used.
    pub(crate) const fn new(module: &'static str, name: &'static str) -> EnumClass {
        EnumClass {
            module,
            name,
            class: PyOnceLock::new(),
        }
    }

    /// The member whose value is `value`.
    pub(crate) fn of<'py>(&self, py: Python<'py>, value: &str) -> PyResult<Bound<'py, PyAny>> {
        let class = self.class.import(py, self.module, self.name)?;
        class.call1((value,))
    }
}
