//! [`crate::common::pieces`] for Python: `TextPieces(text, separator)`, with which the web
//! server finds the edits between two versions of a board's SVG without keeping the text.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use super::convert::InvalidArgumentError;
use crate::common::pieces::Pieces;

/// A text remembered by the hashes and lengths of its pieces (cut at `separator`), not by
/// the text itself.
#[pyclass(module = "LudoGame._core", name = "TextPieces", frozen)]
pub struct PyTextPieces(Pieces);

crate::python::convert::int_arg!(/// `TextPieces.edits_from`'s cost of an edit beside its text.
    Overhead, "overhead", usize, 0, u32::MAX);

#[pymethods]
impl PyTextPieces {
    /// The pieces of `text` cut at each `separator` (not empty: else InvalidArgumentError).
    #[new]
    fn new(text: &str, separator: &str) -> PyResult<Self> {
        if separator.is_empty() {
            return Err(InvalidArgumentError::new_err(
                "separator must not be empty".to_owned(),
            ));
        }
        Ok(PyTextPieces(Pieces::new(text, separator)))
    }

    /// Do both texts have the same pieces (and separators)?
    fn same(&self, other: &PyTextPieces) -> bool {
        self.0.same(&other.0)
    }

    /// The edits (``[start, end, text]`` lists, ascending, in `old`'s text's offsets) that
    /// make `text` (the text these pieces are of) of `old`'s text; None when a text is not
    /// ASCII or the edits, each counted `overhead` characters beside its text, are not
    /// shorter than `text`. Raises InvalidArgumentError for pieces cut at another separator.
    fn edits_from(
        &self,
        py: Python<'_>,
        old: &PyTextPieces,
        text: &str,
        overhead: Overhead,
    ) -> PyResult<Option<Vec<Py<PyAny>>>> {
        if self.0.separator() != old.0.separator() {
            return Err(InvalidArgumentError::new_err(
                "the pieces were cut at different separators".to_owned(),
            ));
        }
        let Some(found) = self.0.edits_from(&old.0, text, overhead.0) else {
            return Ok(None);
        };
        found
            .into_iter()
            .map(|e| {
                let item = [
                    e.start.into_pyobject(py)?.into_any(),
                    e.end.into_pyobject(py)?.into_any(),
                    PyString::new(py, e.text).into_any(),
                ];
                Ok(PyList::new(py, item)?.into_any().unbind())
            })
            .collect::<PyResult<Vec<_>>>()
            .map(Some)
    }

    /// How many pieces the text has.
    fn __len__(&self) -> usize {
        self.0.len()
    }
}
