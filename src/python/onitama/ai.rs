//! `BuiltinAI`: the engine's built-in AIs ([`Ai`]) as callables in the coursework's AI
//! contract.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::PyAction;
use super::convert::{AiSeed, Depth, Level, Nodes, SearchTime, Threads, contract_position};
use super::endgame::PyEndgameTable;
use super::game::{PyOnitama, ai_settings, borrow_game, info_dict};
use crate::onitama::game::game_over;
use crate::onitama::{Ai, AiSettings, Answer, EndgameTable, PonderHit, Position};
use crate::python::errors::onitama_game_over;
use crate::python::interrupt::PySearchStop;
use crate::python::interrupt::{interruptible, interruptible_or_raise, stoppable};

/// A built-in AI, callable with the coursework's AI contract:
/// `ai(current_player, board, cardA1, cardA2, cardB1, cardB2, side_card, turn)` returns
/// `(card, move_from, move_to, wall_dir)` ('XX', 'XX' for a pass).
///
/// `BuiltinAI(level=2, time=1.0, seed=0, nodes=None, depth=None, threads=1)`: level 0 plays
/// a random legal action, level 1 the coursework baseline (win at once if possible, else
/// avoid allowing a win at once, else random), level 2 an alpha-beta search for `time`
/// seconds per move, or, when `nodes` is given, for that many nodes (deterministic on one
/// thread; `time` is then not used). `depth` caps the search depth. `threads` searches on
/// that many threads sharing one table (Lazy SMP; not deterministic with more than one).
/// The seed fixes every random choice.
#[pyclass(module = "LudoGame.onitama", name = "BuiltinAI", frozen)]
pub struct PyAi {
    ai: Mutex<Ai>,
    /// A copy of the settings, readable while a search holds the lock.
    settings: AiSettings,
    /// The endgame table set (see `set_endgame`), readable while a search holds the lock.
    endgame: Mutex<Option<Arc<EndgameTable>>>,
}

impl PyAi {
    /// The AI's answer in `pos`, its time capped at `cap`, with the error of a Ctrl-C that
    /// stopped it (its answer is then not to be played). The search runs on a worker
    /// thread with the interpreter released (see [`interruptible`]), so two threads
    /// sharing one AI cannot deadlock on its lock.
    pub(crate) fn answer(
        &self,
        py: Python<'_>,
        pos: &Position,
        cap: Option<Duration>,
    ) -> (Answer, Option<PyErr>) {
        let pos = *pos;
        interruptible(py, |stop| self.lock().answer_within(&pos, cap, stop))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ai> {
        self.ai.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl PyAi {
    #[new]
    #[pyo3(
        signature = (level = Level::DEFAULT, time = SearchTime::DEFAULT, seed = AiSeed::DEFAULT, nodes = None, depth = None, threads = Threads::DEFAULT),
        text_signature = "(level=2, time=1.0, seed=0, nodes=None, depth=None, threads=1)"
    )]
    fn new(
        level: Level,
        time: SearchTime,
        seed: AiSeed,
        nodes: Option<Nodes>,
        depth: Option<Depth>,
        threads: Threads,
    ) -> PyResult<PyAi> {
        let settings = ai_settings(level, time, seed, nodes, depth, threads);
        Ok(PyAi {
            ai: Mutex::new(settings.ai()?),
            settings,
            endgame: Mutex::new(None),
        })
    }

    /// 0 (random), 1 (baseline) or 2 (search).
    #[getter]
    fn level(&self) -> u8 {
        self.settings.level
    }

    /// The seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.settings.seed
    }

    /// Seconds per move of the search (None: no time limit, or not a search).
    #[getter]
    fn time(&self) -> Option<f64> {
        self.settings.time_used()
    }

    /// The node budget per move (None: none).
    #[getter]
    fn nodes(&self) -> Option<u64> {
        self.settings.nodes
    }

    /// The depth cap (None: none).
    #[getter]
    fn depth(&self) -> Option<u32> {
        self.settings.depth
    }

    /// The threads a search runs on.
    #[getter]
    fn threads(&self) -> usize {
        self.settings.threads
    }

    /// The endgame table the search scores its positions from (None: none).
    #[getter]
    fn endgame(&self) -> Option<PyEndgameTable> {
        let table = self.endgame.lock().unwrap_or_else(|e| e.into_inner());
        table.clone().map(PyEndgameTable::of)
    }

    /// Score the positions `table` (an `EndgameTable`, or None for none) covers from it:
    /// exactly, the wins won in the fewest plies and the losses lost in the most. Applies
    /// from the next search on (it waits for a running one).
    #[pyo3(signature = (table))]
    fn set_endgame(&self, py: Python<'_>, table: Option<PyRef<'_, PyEndgameTable>>) {
        let table = table.map(|t| t.table());
        *self.endgame.lock().unwrap_or_else(|e| e.into_inner()) = table.clone();
        py.detach(|| self.lock().set_endgame(table));
    }

    /// The AI's answer in the coursework contract. Raises (as an AI that fails would) on
    /// arguments that are not a valid position, or on a finished game.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (current_player, board, card_a1, card_a2, card_b1, card_b2, side_card, turn))]
    fn __call__(
        &self,
        py: Python<'_>,
        current_player: &Bound<'_, PyAny>,
        board: &Bound<'_, PyAny>,
        card_a1: &Bound<'_, PyAny>,
        card_a2: &Bound<'_, PyAny>,
        card_b1: &Bound<'_, PyAny>,
        card_b2: &Bound<'_, PyAny>,
        side_card: &Bound<'_, PyAny>,
        turn: &Bound<'_, PyAny>,
    ) -> PyResult<(i64, String, String, String)> {
        let pos = contract_position(&[
            current_player,
            board,
            card_a1,
            card_a2,
            card_b1,
            card_b2,
            side_card,
            turn,
        ])?;
        if pos.is_over() {
            return Err(game_over(&pos).into());
        }
        match self.answer(py, &pos, None) {
            (_, Some(interrupted)) => Err(interrupted),
            (Answer::Error(e), None) => Err(onitama_game_over(e)),
            (answer, None) => answer
                .as_tuple()
                .ok_or_else(|| onitama_game_over(answer.to_string())),
        }
    }

    /// The action this AI plays in `game` (an `Onitama`).
    fn choose(&self, py: Python<'_>, game: &Bound<'_, PyOnitama>) -> PyResult<PyAction> {
        let pos = *borrow_game(game)?.game.position();
        if pos.is_over() {
            return Err(game_over(&pos).into());
        }
        let info = interruptible_or_raise(py, |stop| self.lock().analyse_in(&pos, stop, None))??;
        Ok(PyAction::of(info.action, pos.rules()))
    }

    /// What this AI finds in `game` (an `Onitama`), as a dict like `Onitama.analyse`'s:
    /// action, score, depth, nodes, exact, pv. `stop`, a `SearchStop`, ends the search
    /// early from another thread. `ponder`, a `PonderHit`, makes it a pondering search: its
    /// time limit does not run until `ponder.request()` (the expected reply was played),
    /// then runs in full from that moment, the search going on with what it found (a node
    /// budget and a depth cap count from its start). Levels 0 and 1 answer with score 0 and
    /// depth 0. The AI's time-limited searches share its transposition table, so that a
    /// game's searches build on the earlier ones (searches under a node budget start afresh
    /// and stay deterministic on one thread).
    #[pyo3(signature = (game, stop = None, ponder = None))]
    fn analyse<'py>(
        &self,
        game: &Bound<'py, PyOnitama>,
        stop: Option<PyRef<'py, PySearchStop>>,
        ponder: Option<PyRef<'py, PyPonderHit>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = game.py();
        let pos = *borrow_game(game)?.game.position();
        if pos.is_over() {
            return Err(game_over(&pos).into());
        }
        let hit = ponder.map(|p| p.hit.clone());
        let analyse = |stop: &_| self.lock().analyse_in(&pos, stop, hit.as_ref());
        info_dict(py, stoppable(py, stop, analyse)??, pos.rules())
    }

    /// Pickle support (for multiprocessing and Ray): a new AI with the same settings
    /// (an AI keeps no state between answers that changes them; an endgame table is not
    /// carried over: set it again).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (u8, Option<f64>, u64, Option<u64>, Option<u32>, usize),
    )> {
        let s = slf.get().settings;
        let args = (s.level, s.time_used(), s.seed, s.nodes, s.depth, s.threads);
        Ok((slf.get_type().into_any(), args))
    }

    fn __repr__(&self) -> String {
        format!("BuiltinAI({})", self.settings)
    }
}

/// The *ponderhit* of a pondering search: pass it as `BuiltinAI.analyse(game,
/// ponder=flag)`, and call `flag.request()` when the expected reply was played (the
/// `onitama engine`'s `ponderhit` command does): the search's time limit starts running
/// then. A flag stays raised once requested; use a new one for each search.
#[pyclass(module = "LudoGame.onitama", name = "PonderHit", frozen)]
pub struct PyPonderHit {
    pub(crate) hit: PonderHit,
}

#[pymethods]
impl PyPonderHit {
    #[new]
    fn new() -> PyPonderHit {
        PyPonderHit {
            hit: PonderHit::new(),
        }
    }

    /// Start the clocks of the searches pondering with this flag.
    fn request(&self) {
        self.hit.request();
    }

    /// Has it been requested?
    #[getter]
    fn requested(&self) -> bool {
        self.hit.requested()
    }
}
