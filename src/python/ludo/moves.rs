//! `Move`: one legal move of a Ludo game, as a Python value.

use pyo3::prelude::*;

use crate::ludo::{Game as CoreGame, Move as CoreMove, Rules};

/// A move: one token (or stack) of a player, moved by the pending roll.
#[pyclass(module = "LudoGame", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Move {
    pub(super) inner: CoreMove,
    /// The rules of the game the move was made for: a move belongs to its rule set.
    pub(super) rules: Rules,
    pub(super) name: String,
    player: char,
    token: char,
}

impl Move {
    pub(crate) fn new(game: &CoreGame, mv: CoreMove) -> Move {
        let r = game.rules();
        Move {
            inner: mv,
            rules: *r,
            name: game.move_name(&mv),
            player: r.seat_label(mv.seat),
            token: r.token_label(mv.seat, mv.token),
        }
    }
}

#[pymethods]
impl Move {
    /// The moving player's position, e.g. 'A'.
    #[getter]
    fn player(&self) -> char {
        self.player
    }

    /// The token's name, e.g. 'p' (CS162), '1' (standard), 'A' or 'a' (GT).
    #[getter]
    fn token(&self) -> char {
        self.token
    }

    /// The roll the move uses.
    #[getter]
    fn roll(&self) -> u8 {
        self.inner.roll
    }

    /// The move's name, as `Game.play` accepts it: e.g. 'Ap', 'C3', 'a'.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    fn __str__(&self) -> &str {
        &self.name
    }

    fn __repr__(&self) -> String {
        format!("Move('{}', roll={})", self.name, self.inner.roll)
    }
}
