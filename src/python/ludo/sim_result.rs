//! `SimResult`: the results of a simulation, their statistics, `+` and pickling.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::ludo::sim::SimResult as CoreResult;
use crate::ludo::{LudoError as CoreError, MAX_SEATS, Seat};

/// A pickled `SimResult`: rules notation, player labels, seats, bot names, the counts
/// (games, wins per seat, unfinished, total rolls, total captures), then the per-game
/// rolls (u32), captures (u16) and finishing orders (u8), little-endian bytes.
type SimState = ((
    String,
    String,
    Vec<usize>,
    Vec<String>,
    (u64, Vec<u64>, u64, u64, u64),
    Py<PyBytes>,
    Py<PyBytes>,
    Py<PyBytes>,
),);

/// [`SimState`] as read back.
type SimStateOwned = (
    String,
    String,
    Vec<usize>,
    Vec<String>,
    (u64, Vec<u64>, u64, u64, u64),
    Vec<u8>,
    Vec<u8>,
    Vec<u8>,
);

/// The results of a simulation: wins per player, game lengths, finishing orders and
/// captures, the per-game data in compact arrays (`array.array`).
#[pyclass(module = "LudoGame", frozen)]
pub struct SimResult {
    pub(super) inner: CoreResult,
    pub(super) rules: String,
    pub(super) labels: Vec<char>,
    pub(super) seats: Vec<Seat>,
    pub(super) bot_names: Vec<String>,
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
        self.inner.games
    }

    /// The positions that played, in turn order.
    #[getter]
    fn players(&self) -> Vec<char> {
        self.labels.clone()
    }

    /// The bots' names, one per player.
    #[getter]
    fn bots(&self) -> Vec<String> {
        self.bot_names.clone()
    }

    /// The preset name of the rules the games were played by (as `Game.rules`).
    #[getter]
    fn rules(&self) -> PyResult<&'static str> {
        Ok(self.rules.parse::<crate::ludo::Rules>()?.name())
    }

    /// Every rule option the games were played with (as `Game.options`).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        super::convert::options_dict(py, &self.rules.parse::<crate::ludo::Rules>()?)
    }

    /// The rules the games were played by, as notation (as `Game.rules_notation`).
    #[getter]
    fn rules_notation(&self) -> &str {
        &self.rules
    }

    /// Games won by each player: {'A': 250, ...}.
    #[getter]
    fn wins<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (&l, &s) in self.labels.iter().zip(&self.seats) {
            d.set_item(l, self.inner.wins[s])?;
        }
        Ok(d)
    }

    /// Games cut off after 100,000 rolls without a result.
    #[getter]
    fn unfinished(&self) -> u64 {
        self.inner.unfinished
    }

    /// Die rolls per game (array of unsigned ints).
    #[getter]
    fn lengths<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        numbers_array(py, "I", &self.inner.rolls, u32::to_ne_bytes)
    }

    /// Captures per game (array of unsigned shorts).
    #[getter]
    fn captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        numbers_array(py, "H", &self.inner.captures, u16::to_ne_bytes)
    }

    /// The finishing order of every game: `len(players)` seat numbers (0 = 'A' ... 3 = 'D')
    /// per game, best first (255: unranked in a cut-off game), as one flat byte array.
    #[getter]
    fn finishing<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_array(py, "B", &self.inner.finishing)
    }

    /// Die rolls in all games together.
    #[getter]
    fn total_rolls(&self) -> u64 {
        self.inner.total_rolls
    }

    /// Captures in all games together.
    #[getter]
    fn total_captures(&self) -> u64 {
        self.inner.total_captures
    }

    /// Mean game length in die rolls.
    #[getter]
    fn mean_length(&self) -> f64 {
        self.inner.total_rolls as f64 / self.inner.games.max(1) as f64
    }

    /// How many games took each number of rolls: {rolls: games}.
    #[getter]
    fn length_histogram(&self) -> std::collections::BTreeMap<u32, u64> {
        let mut h = std::collections::BTreeMap::new();
        for &r in &self.inner.rolls {
            *h.entry(r).or_insert(0) += 1;
        }
        h
    }

    /// Mean captures per game.
    #[getter]
    fn mean_captures(&self) -> f64 {
        self.inner.total_captures as f64 / self.inner.games.max(1) as f64
    }

    /// This result followed by `other` (the next games of the same run). Results of
    /// different rules, players or bots cannot be added.
    fn __add__(&self, other: &SimResult) -> PyResult<SimResult> {
        self.check_addable(other)?;
        let mut inner = self.inner.clone();
        inner.extend(other.inner.clone());
        Ok(SimResult {
            inner,
            rules: self.rules.clone(),
            labels: self.labels.clone(),
            seats: self.seats.clone(),
            bot_names: self.bot_names.clone(),
        })
    }

    /// `parts[0] + parts[1] + ...` in one pass (adding one by one copies the growing result
    /// again at each step). At least one part is needed.
    #[staticmethod]
    fn _join(parts: Vec<PyRef<'_, SimResult>>) -> PyResult<SimResult> {
        let Some(first) = parts.first() else {
            return Err(crate::python::convert::InvalidArgumentError::new_err(
                "there are no results to join",
            ));
        };
        let mut inner = CoreResult::default();
        let games: u64 = parts.iter().map(|p| p.inner.games).sum();
        let n = usize::try_from(games).unwrap_or(0);
        inner.rolls.reserve(n);
        inner.captures.reserve(n);
        inner.finishing.reserve(n.saturating_mul(first.seats.len()));
        for p in &parts {
            first.check_addable(p)?;
            inner.extend(p.inner.clone());
        }
        Ok(SimResult {
            inner,
            rules: first.rules.clone(),
            labels: first.labels.clone(),
            seats: first.seats.clone(),
            bot_names: first.bot_names.clone(),
        })
    }
    /// Pickle support (for multiprocessing and Ray): the result rebuilt from its data.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, SimState)> {
        let r = slf.get();
        let i = &r.inner;
        let bytes = |v: Vec<u8>| PyBytes::new(slf.py(), &v).unbind();
        let state = (
            r.rules.clone(),
            r.labels.iter().collect(),
            r.seats.iter().map(|s| s.index()).collect(),
            r.bot_names.clone(),
            (
                i.games,
                i.wins.to_vec(),
                i.unfinished,
                i.total_rolls,
                i.total_captures,
            ),
            bytes(i.rolls.iter().flat_map(|x| x.to_le_bytes()).collect()),
            bytes(i.captures.iter().flat_map(|x| x.to_le_bytes()).collect()),
            bytes(i.finishing.clone()),
        );
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// The result `__reduce__` describes; malformed data raises `InvalidArgumentError`.
    #[staticmethod]
    fn _from_state(state: SimStateOwned) -> PyResult<SimResult> {
        let (rules, labels, seats, bot_names, counts, rolls, captures, finishing) = state;
        let (games, wins, unfinished, total_rolls, total_captures) = counts;
        let bad = |what: &str| {
            crate::python::convert::InvalidArgumentError::new_err(format!(
                "not a pickled SimResult: {what}"
            ))
        };
        let parsed: crate::ludo::Rules = rules.parse()?;
        let labels: Vec<char> = labels.chars().collect();
        if labels.len() != seats.len()
            || seats.is_empty()
            || seats.iter().any(|&s| s >= MAX_SEATS)
            || seats
                .iter()
                .zip(&labels)
                .any(|(&s, &l)| parsed.seat_labels[s] != l)
        {
            return Err(bad("the players and seats do not match"));
        }
        if bot_names.len() != seats.len() {
            return Err(bad("one bot name per player is needed"));
        }
        let seats: Vec<Seat> = seats.into_iter().filter_map(Seat::new).collect();
        let wins: [u64; MAX_SEATS] = wins
            .try_into()
            .map_err(|_| bad("the wins are not one count per seat"))?;
        let n = usize::try_from(games).map_err(|_| bad("too many games"))?;
        let sized = |len: usize, per: usize| n.checked_mul(per) == Some(len);
        if !sized(rolls.len(), 4)
            || !sized(captures.len(), 2)
            || !sized(finishing.len(), seats.len())
        {
            return Err(bad("the per-game data do not match the number of games"));
        }
        let inner = CoreResult {
            games,
            wins,
            rolls: rolls
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            captures: captures
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect(),
            finishing,
            unfinished,
            total_rolls,
            total_captures,
        };
        Ok(SimResult {
            inner,
            rules,
            labels,
            seats,
            bot_names,
        })
    }

    fn __repr__(&self) -> String {
        let wins: Vec<String> = self
            .labels
            .iter()
            .zip(&self.seats)
            .zip(&self.bot_names)
            .map(|((l, &s), b)| format!("{l}({b})={}", self.inner.wins[s]))
            .collect();
        format!(
            "SimResult(games={}, wins: {}, mean_length={:.1})",
            self.inner.games,
            wins.join(" "),
            self.mean_length()
        )
    }
}

impl SimResult {
    /// Refuse to add results of other rules, players or bots.
    fn check_addable(&self, other: &SimResult) -> PyResult<()> {
        if other.rules != self.rules {
            return Err(CoreError::InvalidRules(format!(
                "results of different rules cannot be added: '{}' and '{}'",
                self.rules, other.rules
            ))
            .into());
        }
        if other.labels != self.labels {
            let names = |l: &[char]| l.iter().collect::<String>();
            // InvalidBotError, as it has always been for different players.
            return Err(CoreError::InvalidBot(format!(
                "results of different players cannot be added: {} and {}",
                names(&self.labels),
                names(&other.labels)
            ))
            .into());
        }
        if other.bot_names != self.bot_names {
            return Err(CoreError::InvalidBot(format!(
                "results of different bots cannot be added: {} and {}",
                self.bot_names.join(","),
                other.bot_names.join(",")
            ))
            .into());
        }
        Ok(())
    }
}
