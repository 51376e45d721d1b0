//! `SimResult`: the results of a simulation, their statistics, `+` and pickling.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::ludo::report::Report;

/// The results of a simulation: wins per player, game lengths, finishing orders and
/// captures, the per-game data in compact arrays (`array.array`).
#[pyclass(module = "LudoGame", frozen)]
pub struct SimResult {
    pub(super) report: Report,
}

/// `values` as an `array.array` of type `code`, each value in the native byte order the
/// array stores (`bytes` is the type's `to_ne_bytes`).
fn numbers_array<'py, T: Copy, const N: usize>(
    py: Python<'py>,
    code: &str,
    values: &[T],
    bytes: fn(T) -> [u8; N],
) -> PyResult<Bound<'py, PyAny>> {
    let raw: Vec<u8> = values.iter().flat_map(|&v| bytes(v)).collect();
    to_array(py, code, &raw)
}

fn to_array<'py>(py: Python<'py>, code: &str, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let array = py.import("array")?.getattr("array")?.call1((code,))?;
    array.call_method1("frombytes", (PyBytes::new(py, bytes),))?;
    Ok(array)
}

#[pymethods]
impl SimResult {
    /// Number of games.
    #[getter]
    fn games(&self) -> u64 {
        self.report.result.games
    }

    /// The positions that played, in turn order.
    #[getter]
    fn players(&self) -> Vec<char> {
        self.report.labels()
    }

    /// The bots' names, one per player.
    #[getter]
    fn bots(&self) -> Vec<String> {
        self.report.bot_names.clone()
    }

    /// The preset name of the rules the games were played by (as `Game.rules`).
    #[getter]
    fn rules(&self) -> &'static str {
        self.report.rules.name()
    }

    /// Every rule option the games were played with (as `Game.options`).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        super::convert::options_dict(py, &self.report.rules)
    }

    /// The rules the games were played by, as notation (as `Game.rules_notation`).
    #[getter]
    fn rules_notation(&self) -> String {
        self.report.rules.to_string()
    }

    /// Games won by each player: {'A': 250, ...}.
    #[getter]
    fn wins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (l, &s) in self.report.labels().into_iter().zip(&self.report.seats) {
            d.set_item(l, self.report.result.wins[s])?;
        }
        Ok(d)
    }

    /// Games cut off after `MAX_ROLLS` rolls without a result.
    #[getter]
    fn unfinished(&self) -> u64 {
        self.report.result.unfinished
    }

    /// Die rolls per game (array of unsigned ints).
    #[getter]
    fn lengths<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        numbers_array(py, "I", &self.report.result.rolls, u32::to_ne_bytes)
    }

    /// Captures per game (array of unsigned shorts).
    #[getter]
    fn captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        numbers_array(py, "H", &self.report.result.captures, u16::to_ne_bytes)
    }

    /// The finishing order of every game: `len(players)` seat numbers (0 = 'A' ... 3 = 'D')
    /// per game, best first (255: unranked in a cut-off game), as one flat byte array.
    #[getter]
    fn finishing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_array(py, "B", &self.report.result.finishing)
    }

    /// Die rolls in all games together.
    #[getter]
    fn total_rolls(&self) -> u64 {
        self.report.result.total_rolls
    }

    /// Captures in all games together.
    #[getter]
    fn total_captures(&self) -> u64 {
        self.report.result.total_captures
    }

    /// Mean game length in die rolls.
    #[getter]
    fn mean_length(&self) -> f64 {
        self.report.mean_length()
    }

    /// How many games took each number of rolls: {rolls: games}.
    #[getter]
    fn length_histogram(&self) -> std::collections::BTreeMap<u32, u64> {
        self.report.length_histogram()
    }

    /// Mean captures per game.
    #[getter]
    fn mean_captures(&self) -> f64 {
        self.report.mean_captures()
    }

    /// This result followed by `other` (the next games of the same run). Results of
    /// different rules, players or bots cannot be added.
    fn __add__(&self, other: &SimResult) -> PyResult<SimResult> {
        let report = Report::join(&[&self.report, &other.report])?;
        Ok(SimResult { report })
    }

    /// `parts[0] + parts[1] + ...` in one pass (adding one by one copies the growing result
    /// again at each step). At least one part is needed.
    #[staticmethod]
    fn _join(parts: Vec<PyRef<'_, SimResult>>) -> PyResult<SimResult> {
        let reports: Vec<&Report> = parts.iter().map(|p| &p.report).collect();
        let report = Report::join(&reports)?;
        Ok(SimResult { report })
    }

    /// Pickle support (for multiprocessing and Ray): the result rebuilt from its bytes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let bytes = PyBytes::new(slf.py(), &slf.get().report.to_bytes());
        Ok((slf.get_type().getattr("_from_bytes")?, (bytes,)))
    }

    /// The result `__reduce__` saved; malformed data raises `InvalidArgumentError`.
    #[staticmethod]
    fn _from_bytes(data: &[u8]) -> PyResult<SimResult> {
        Ok(SimResult {
            report: Report::from_bytes(data)?,
        })
    }

    fn __repr__(&self) -> String {
        format!("SimResult({})", self.report.summary())
    }
}
