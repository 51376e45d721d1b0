//! `EndgameTable`: the engine's endgame tables of standard Onitama ([`EndgameTable`]) as a
//! Python object, built with the interpreter released and stoppable.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::PyCard;
use super::convert::{MaxBytes, Pieces, Threads};
use super::game::{PyOnitama, borrow_game};
use crate::onitama::{EndgameTable, TableValue};
use crate::python::interrupt::PySearchStop;
use crate::python::interrupt::stoppable;

/// An endgame table of standard Onitama: every position of five cards with at most
/// `pieces` pieces on the board (masters included), won, lost or drawn for the side to
/// move, with the plies to the winning ply under best play (the winner fastest, the loser
/// slowest). Build one with `EndgameTable.build(game, pieces)`; give it to a search with
/// `BuiltinAI.set_endgame(table)`.
#[pyclass(module = "LudoGame.onitama", name = "EndgameTable", frozen)]
pub struct PyEndgameTable {
    table: Arc<EndgameTable>,
}

impl PyEndgameTable {
    pub(crate) fn of(table: Arc<EndgameTable>) -> PyEndgameTable {
        PyEndgameTable { table }
    }

    pub(crate) fn table(&self) -> Arc<EndgameTable> {
        Arc::clone(&self.table)
    }
}

#[pymethods]
impl PyEndgameTable {
    /// The table of the five cards of `game` (a standard `Onitama`; its position does not
    /// matter), covering positions of at most `pieces` pieces (2 to 10), if its build takes
    /// at most `max_bytes` of memory (`EndgameTable.build_bytes(pieces)`; more is an
    /// `InvalidAIError`), on `threads` threads (the table is the same on any number). The
    /// build runs with the interpreter released; `stop`, a `SearchStop`, ends it from
    /// another thread (the answer is then None), as does Ctrl-C (`KeyboardInterrupt`).
    #[staticmethod]
    #[pyo3(
        signature = (game, pieces, max_bytes, stop = None, threads = Threads(1)),
        text_signature = "(game, pieces, max_bytes, stop=None, threads=1)"
    )]
    fn build(
        game: &Bound<'_, PyOnitama>,
        pieces: Pieces,
        max_bytes: MaxBytes,
        stop: Option<PyRef<'_, PySearchStop>>,
        threads: Threads,
    ) -> PyResult<Option<PyEndgameTable>> {
        let pos = *borrow_game(game)?.game.position();
        let built = stoppable(game.py(), stop, |stop| {
            EndgameTable::build_for(&pos, pieces.0, max_bytes.0, threads.0, stop)
        })??;
        Ok(built.map(|t| PyEndgameTable::of(Arc::new(t))))
    }

    /// The most memory, in bytes, the build of a table of `pieces` pieces takes (the table
    /// itself is `EndgameTable.table_bytes(pieces)`).
    #[staticmethod]
    fn build_bytes(pieces: Pieces) -> u64 {
        EndgameTable::build_bytes_for(pieces.0)
    }

    /// The size in bytes of a table of `pieces` pieces (one byte a position).
    #[staticmethod]
    fn table_bytes(pieces: Pieces) -> u64 {
        EndgameTable::bytes_for(pieces.0)
    }

    /// The five cards.
    #[getter]
    fn cards(&self) -> Vec<PyCard> {
        self.table
            .cards()
            .into_iter()
            .map(PyCard::from_card)
            .collect()
    }

    /// The most pieces of a position it covers, masters included.
    #[getter]
    fn pieces(&self) -> u32 {
        self.table.pieces()
    }

    /// Its size in bytes.
    #[getter]
    fn bytes(&self) -> u64 {
        self.table.bytes()
    }

    /// The seconds its build took.
    #[getter]
    fn build_seconds(&self) -> f64 {
        self.table.build_seconds()
    }

    /// Is `game` (an `Onitama`) a standard game of this table's five cards (in any places)?
    /// Its position may have more pieces than the table covers.
    fn fits(&self, game: &Bound<'_, PyOnitama>) -> PyResult<bool> {
        Ok(self.table.fits(borrow_game(game)?.game.position()))
    }

    /// The table's value of `game`'s position for the side to move: ('win', d), ('loss',
    /// d) or ('draw', 0), d the plies to the winning ply under best play (the ply limit not
    /// counted); None when the table does not cover it (another rule set or other cards,
    /// more pieces, or a game that is over).
    fn probe(&self, game: &Bound<'_, PyOnitama>) -> PyResult<Option<(&'static str, u32)>> {
        let pos = *borrow_game(game)?.game.position();
        Ok(self.table.probe(&pos).map(TableValue::as_pair))
    }

    /// Its positions by class (the students of the side to move and of the opponent), as
    /// dicts: mover_students, opponent_students, positions, wins, losses, draws,
    /// longest_win, longest_loss (plies). Each position is the side to move's view, so
    /// it stands for a position of either colour to move.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.table
            .counts()
            .into_iter()
            .map(|c| PyDict::from_sequence(&c.named().into_pyobject(py)?))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!("<{}>", self.table)
    }
}
