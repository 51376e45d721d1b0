//! `Simulation` and `SimResult`: batch simulation with the interpreter released, and the
//! Python side of bots (names of built-in bots, or Python callables).

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use super::convert::{Count, Start, Threads};
use super::game::PyGame;
use crate::ludo::sim::{MAX_ROLLS, SimConfig, SimResult as CoreResult};
use crate::ludo::{
    Bot, Game as CoreGame, LudoError as CoreError, MAX_SEATS, Move as CoreMove, Rng, Seat,
};
use crate::python::convert::Seed;
use crate::python::describe;
use crate::python::interrupt::{interruptible, with_partial};

/// A bot as given from Python.
pub(crate) enum AnyBot {
    /// A built-in bot.
    Builtin(Bot),
    /// A Python callable `bot(game) -> Move | str`.
    Python(Py<PyAny>),
}

/// Read one bot per player from a list (in turn order), a dict keyed by position, or a
/// single bot (or a list of one) for everyone.
pub(crate) fn parse_bots(bots: &Bound<'_, PyAny>, labels: &[char]) -> PyResult<Vec<AnyBot>> {
    let one = |b: &Bound<'_, PyAny>| -> PyResult<AnyBot> {
        if let Ok(s) = b.cast::<PyString>() {
            Ok(AnyBot::Builtin(s.to_string_lossy().parse::<Bot>()?))
        } else if b.is_callable() {
            Ok(AnyBot::Python(b.clone().unbind()))
        } else {
            Err(CoreError::InvalidBot(format!(
                "a bot is a name such as 'cs162' or a callable bot(game) -> move, not {}",
                describe(b)
            ))
            .into())
        }
    };
    if bots.is_instance_of::<PyString>() || (bots.is_callable() && !bots.is_instance_of::<PyList>())
    {
        return labels.iter().map(|_| one(bots)).collect();
    }
    // A list of one bot plays every seat, as the bot alone does.
    if let Ok(list) = bots.cast::<PyList>()
        && list.len() == 1
    {
        let only = list.get_item(0)?;
        return labels.iter().map(|_| one(&only)).collect();
    }
    if let Ok(d) = bots.cast::<PyDict>() {
        return labels
            .iter()
            .map(|&l| match d.get_item(l.to_string())? {
                Some(b) => one(&b),
                None => Err(CoreError::InvalidBot(format!("no bot for player '{l}'")).into()),
            })
            .collect();
    }
    let list: Vec<Bound<'_, PyAny>> = match bots.try_iter() {
        Ok(it) => it.collect::<PyResult<_>>()?,
        Err(_) => {
            return Err(CoreError::InvalidBot(format!(
                "bots must be a list, a dict or one bot, not {}",
                describe(bots)
            ))
            .into());
        }
    };
    if list.len() != labels.len() {
        return Err(CoreError::InvalidBot(format!(
            "{} bots for {} players: give one bot per player",
            list.len(),
            labels.len()
        ))
        .into());
    }
    list.iter().map(one).collect()
}

/// The move `bot` plays in `game` (which waits for a move). A Python bot that raises,
/// returns something that is not a move, or an illegal move, is an `InvalidBotError`
/// naming the seat.
pub(crate) fn choose(
    py: Python<'_>,
    bot: &AnyBot,
    game: &CoreGame,
    rng: &mut Rng,
    label: char,
) -> PyResult<CoreMove> {
    match bot {
        AnyBot::Builtin(b) => b
            .choose(game, rng)
            .ok_or_else(|| CoreError::IllegalMove("no legal move to choose".into()).into()),
        AnyBot::Python(f) => {
            let view = Py::new(py, PyGame::snapshot(*game))?;
            let answer = f.bind(py).call1((view,)).map_err(|e| {
                if e.is_instance_of::<PyKeyboardInterrupt>(py) {
                    return e;
                }
                CoreError::InvalidBot(format!("the bot of player '{label}' raised {e}")).into()
            })?;
            let mv = PyGame::answer_to_move(game, &answer).map_err(|e| {
                CoreError::InvalidBot(format!("the bot of player '{label}' failed: {e}"))
            })?;
            if !game.legal_moves().contains(&mv) {
                return Err(CoreError::InvalidBot(format!(
                    "the bot of player '{label}' chose {}, which is not a legal move",
                    game.move_name(&mv)
                ))
                .into());
            }
            Ok(mv)
        }
    }
}

/// A batch of whole games between bots, played in Rust.
///
/// `Simulation(rules="cs162", players=None, bots="random", seed=0, **options)`: players as
/// for `Game` (by default A and C, all four for "gt"), one bot for everyone or one per player;
/// `run(start, count, threads=1)` plays games `start..start+count` and returns a
/// `SimResult`. Game i always gets the same dice and bot randomness, so results do not
/// depend on the thread count or on how the run is split into chunks.
#[pyclass(module = "LudoGame", frozen)]
pub struct Simulation {
    config: SimConfig,
    python_bots: Vec<(usize, Py<PyAny>)>,
    labels: Vec<char>,
    bot_names: Vec<String>,
}

#[pymethods]
impl Simulation {
    #[new]
    #[pyo3(signature = (rules = "cs162", players = None, bots = None, seed = None, **options))]
    fn new(
        py: Python<'_>,
        rules: &str,
        players: Option<&Bound<'_, PyAny>>,
        bots: Option<&Bound<'_, PyAny>>,
        seed: Option<Seed>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let seed = seed.map_or(0, |s| s.0);
        let name = PyString::new(py, rules).into_any();
        let probe = PyGame::new(Some(&name), players, None, options)?;
        let game = *probe.game();
        let seats: Vec<Seat> = game.seats().collect();
        let labels: Vec<char> = seats.iter().map(|&s| game.rules().seat_label(s)).collect();
        let default_bots = PyString::new(py, "random").into_any();
        let parsed = parse_bots(bots.unwrap_or(&default_bots), &labels)?;
        let mut builtin = Vec::new();
        let mut python_bots = Vec::new();
        let mut bot_names = Vec::new();
        for (k, b) in parsed.into_iter().enumerate() {
            match b {
                AnyBot::Builtin(bot) => {
                    bot_names.push(bot.to_string());
                    builtin.push(bot);
                }
                AnyBot::Python(f) => {
                    bot_names.push(
                        f.bind(py)
                            .getattr("__name__")
                            .map(|n| n.to_string())
                            .unwrap_or_else(|_| "python".to_owned()),
                    );
                    builtin.push(Bot::Random);
                    python_bots.push((k, f));
                }
            }
        }
        Ok(Simulation {
            config: SimConfig {
                rules: *game.rules(),
                seats: seats.iter().map(|s| s.index()).collect(),
                bots: builtin,
                seed,
            },
            python_bots,
            labels,
            bot_names,
        })
    }

    /// The positions that play, in turn order.
    #[getter]
    fn players(&self) -> Vec<char> {
        self.labels.clone()
    }

    /// The bots' names, one per player.
    #[getter]
    fn bots(&self) -> Vec<String> {
        self.bot_names.clone()
    }

    /// The rule set's preset name: 'cs162', 'standard' or 'gt' (as `Game.rules`).
    #[getter]
    fn rules(&self) -> &'static str {
        self.config.rules.name()
    }

    /// Every rule option and its value (as `Game.options`).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        super::convert::options_dict(py, &self.config.rules)
    }

    /// The rule set as notation (e.g. 'standard[six_limit=3]'), as `Game.rules_notation`.
    #[getter]
    fn rules_notation(&self) -> String {
        self.config.rules.to_string()
    }

    /// The run's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.config.seed
    }

    /// Play games `start..start+count` on `threads` threads, with the interpreter released
    /// (Python bots run on one thread, holding it). Ctrl-C stops the run within a moment
    /// and raises `Interrupted` (a `KeyboardInterrupt`) whose `partial` is the `SimResult`
    /// of the games from `start` that finished.
    #[pyo3(signature = (start = None, count = None, threads = None))]
    fn run(
        &self,
        py: Python<'_>,
        start: Option<Start>,
        count: Option<Count>,
        threads: Option<Threads>,
    ) -> PyResult<SimResult> {
        let start = start.map_or(0, |v| v.0);
        let count = count.map_or(1000, |v| v.0);
        let threads = threads.map_or(1, |v| v.0);
        if start.checked_add(count).is_none() {
            return Err(crate::python::convert::InvalidArgumentError::new_err(
                format!(
                    "start + count must not pass 2**64 - 1 (games are numbered by a 64-bit index): \
                 start {start}, count {count}"
                ),
            ));
        }
        if !self.python_bots.is_empty() {
            let mut r = CoreResult::default();
            for i in start..start + count {
                if let Err(e) = py
                    .check_signals()
                    .and_then(|()| self.play_with_python(py, i, &mut r))
                {
                    let partial = Bound::new(py, self.result(r))?.into_any();
                    return Err(with_partial(py, e, partial));
                }
            }
            return Ok(self.result(r));
        }
        let config = &self.config;
        match interruptible(py, |stop| {
            config.run_until(start, count, threads, Some(stop))
        }) {
            (r, None) => Ok(self.result(r)),
            (r, Some(e)) => {
                let partial = Bound::new(py, self.result(r))?.into_any();
                Err(with_partial(py, e, partial))
            }
        }
    }
}

/// The most games one `Simulation.run` call plays (their per-game results alone take about
/// 10 bytes a game); longer runs go in chunks, as `ludo simulate` and `simulate(...,
/// progress=...)` do.
pub(super) const MAX_RUN: u64 = 1 << 32;

impl Simulation {
    /// The Python result of `inner`, games of this simulation.
    fn result(&self, inner: CoreResult) -> SimResult {
        SimResult {
            inner,
            rules: self.config.rules.to_string(),
            labels: self.labels.clone(),
            seats: self.config.playing().unwrap_or_default(),
            bot_names: self.bot_names.clone(),
        }
    }

    /// Game `i` with Python bots in their seats (the same dice and built-in bot randomness
    /// as [`SimConfig::play_game`]).
    fn play_with_python(&self, py: Python<'_>, i: u64, out: &mut CoreResult) -> PyResult<()> {
        let cfg = &self.config;
        let (dice, bots_seed) = cfg.game_seeds(i);
        let mut rng = Rng::new(bots_seed);
        let mut g = CoreGame::new(cfg.rules, &cfg.playing()?, dice)?;
        // The roll limit is checked before every roll and move (as autoplay does).
        let limits = crate::ludo::play::Limits {
            max_rolls: u64::from(MAX_ROLLS),
            cut_off: crate::ludo::play::CutOff::BeforeEachStep,
            stop: None,
        };
        let played = crate::ludo::play::play(&mut g, limits, |g: &CoreGame| {
            let k = cfg
                .seats
                .iter()
                .position(|&s| s == g.current_player().index());
            let k = k.unwrap_or(0);
            let bot = match self.python_bots.iter().find(|(j, _)| *j == k) {
                Some((_, f)) => AnyBot::Python(f.clone_ref(py)),
                None => AnyBot::Builtin(cfg.bots[k]),
            };
            choose(py, &bot, g, &mut rng, self.labels[k])
                .map(Some)
                .map_err(|e| with_game_number(py, e, i))
        })?;
        let rolls = u32::try_from(played.rolls).unwrap_or(u32::MAX);
        let captures = u32::try_from(played.captures).unwrap_or(u32::MAX);
        let mut one = CoreResult::default();
        cfg.record(&g, rolls, captures, &mut one);
        out.extend(one);
        Ok(())
    }
}

fn with_game_number(py: Python<'_>, e: PyErr, i: u64) -> PyErr {
    if e.is_instance_of::<PyKeyboardInterrupt>(py) {
        return e;
    }
    let msg = e.value(py).to_string();
    crate::python::errors::InvalidBotError::new_err(format!("game {i}: {msg}"))
}

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
    inner: CoreResult,
    rules: String,
    labels: Vec<char>,
    seats: Vec<Seat>,
    bot_names: Vec<String>,
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
