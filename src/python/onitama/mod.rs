//! Onitama with a movable wall, as Python objects: `Onitama` (a game played action by
//! action, [`game`]), `Action` and `Card` (here), `BuiltinAI` and `PonderHit` ([`ai`]),
//! `EndgameTable` ([`endgame`]), `MatchRecord` and the refereed match `onitama_play_match`
//! ([`record`]). The module `LudoGame.onitama` exports them.
//!
//! Everything here converts Python values ([`convert`]), calls the engine in
//! [`crate::onitama`] and wraps its results; engine errors become Python exceptions through
//! [`errors`](super::errors). A rejected call changes nothing.

use pyo3::prelude::*;

use crate::onitama::notation::WrittenAction;
use crate::onitama::{Action, Answer, Card, CardSet, Player, Square, Variant};
use convert::{CardSpec, Viewer};

pub(crate) mod ai;
pub(crate) mod convert;
pub(crate) mod endgame;
pub(crate) mod game;
pub(crate) mod record;

pub(crate) use crate::python::enums::REASON;
pub use crate::python::interrupt::PySearchStop;
pub use ai::{PyAi, PyPonderHit};
pub use endgame::PyEndgameTable;
pub use game::PyOnitama;
pub use record::PyMatchRecord;
pub(crate) use record::onitama_play_match;

/// A player as Python sees it: 'A' or 'B'.
fn letter(p: Player) -> String {
    p.letter().to_string()
}

/// A movement card: a 5x5 pattern with one 'o' (the pawn) and 'x' marks (where it may
/// jump), in its holder's view (B applies it rotated 180 degrees).
///
/// `Card(spec)`: a standard card's name ('Tiger', any case), a pattern with rows separated
/// by '/', or 5 row strings. Two cards are equal when they have the same moves, whatever
/// the position of the 'o' or the filler characters.
#[pyclass(module = "LudoGame.onitama", name = "Card", frozen)]
pub struct PyCard {
    card: Card,
    rows: [String; 5],
}

impl PyCard {
    /// The card drawn in its canonical pattern.
    pub(crate) fn from_card(card: Card) -> PyCard {
        PyCard {
            card,
            rows: card.rows(),
        }
    }
}

#[pymethods]
impl PyCard {
    #[new]
    fn new(spec: CardSpec) -> PyCard {
        let (card, rows) = spec.0;
        PyCard { card, rows }
    }

    /// The standard card's name ('Tiger', 'Sea Snake', ...) if it has the same moves as one
    /// of the 16 base cards or the 16 Sensei's Path cards, else None.
    #[getter]
    fn name(&self) -> Option<&'static str> {
        self.card.name()
    }

    /// The 5 rows as given (drawn this way).
    #[getter]
    fn rows(&self) -> Vec<String> {
        self.rows.to_vec()
    }

    /// The canonical pattern, rows separated by '/' (the 'o' as central as possible).
    #[getter]
    fn pattern(&self) -> String {
        self.card.pattern()
    }

    /// The holder-view moves as (drow, dcol): drow -1 is one row up (toward row a).
    #[getter]
    fn offsets(&self) -> Vec<(i8, i8)> {
        self.card.offsets().collect()
    }

    /// The moves of `player` ('A' or 'B') on the board, as (drow, dcol): B's are negated.
    fn moves(&self, player: Viewer) -> Vec<(i8, i8)> {
        self.card.moves_for(player.0).collect()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyCard>()
            .is_ok_and(|o| o.get().card == self.card)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.card.hash(&mut h);
        h.finish()
    }

    fn __str__(&self) -> String {
        self.card.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", self.card.written(&self.rows))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Vec<String>,))> {
        Ok((slf.get_type().into_any(), (slf.get().rows.to_vec(),)))
    }
}

/// One ply: a card slot (1 or 2), a pawn move and a wall step. Written '1 e2 d3 u'; a
/// winning move has no wall step ('2 c3 a3 -'); a pass, only when no pawn can move, is
/// '1 XX XX s'. In standard Onitama (no wall) an action is '1 e2 d3' (a winning move
/// too), or '1 XX XX' when no pawn can move. `Action(text)` reads either form.
#[pyclass(module = "LudoGame.onitama", name = "Action", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyAction(pub(crate) WrittenAction);

impl PyAction {
    /// An action of a game of `variant`.
    pub(crate) fn of(action: Action, variant: Variant) -> PyAction {
        PyAction(WrittenAction { action, variant })
    }
}

#[pymethods]
impl PyAction {
    /// `Action(text)` reads the wall variant's form, `Action(text, standard=True)`
    /// standard Onitama's ('1 e2 d3', '1 XX XX').
    #[new]
    #[pyo3(signature = (text, standard = false))]
    fn new(text: &Bound<'_, PyAny>, standard: bool) -> PyResult<PyAction> {
        if let Ok(a) = text.cast::<PyAction>() {
            return Ok(*a.get());
        }
        let variant = [Variant::Wall, Variant::Standard][usize::from(standard)];
        let s = convert::str_arg(text, "action", "an Action or its text such as '1 e2 d3 u'")?;
        Ok(PyAction(WrittenAction::parse(&s, variant)?))
    }

    /// The card slot played: 1 or 2.
    #[getter]
    fn card(&self) -> u8 {
        self.0.action.slot().number()
    }

    /// The start square, e.g. 'e2' ('XX' for a pass).
    #[getter]
    fn move_from(&self) -> String {
        Square::answer_text(self.0.action.from())
    }

    /// The target square, e.g. 'd3' ('XX' for a pass).
    #[getter]
    fn move_to(&self) -> String {
        Square::answer_text(self.0.action.to())
    }

    /// The wall step: 'u', 'r', 'd', 'l' or 's'; None for a winning move (the game ends)
    /// and for every action of standard Onitama (no wall).
    #[getter]
    fn wall(&self) -> Option<String> {
        self.0.wall().map(|w| w.letter().to_string())
    }

    /// Is this an action of standard Onitama (written without a wall step)?
    #[getter]
    fn standard(&self) -> bool {
        self.0.variant == Variant::Standard
    }

    /// Is this a pass (no pawn could move)?
    #[getter]
    fn is_pass(&self) -> bool {
        self.0.action.is_pass()
    }

    /// Does this move win (and end the game)?
    #[getter]
    fn is_win(&self) -> bool {
        self.0.action.is_win()
    }

    /// The answer an AI returns for it: (card, move_from, move_to, wall_dir), with wall 's'
    /// for a winning move (the referee never reads it).
    #[getter]
    fn answer(&self) -> Option<(i64, String, String, String)> {
        Answer::from(self.0.action).as_tuple()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        let standard = if self.standard() {
            ", standard=True"
        } else {
            ""
        };
        format!("Action('{}'{standard})", self.0)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, bool))> {
        let a = slf.get();
        Ok((slf.get_type().into_any(), (a.__str__(), a.standard())))
    }
}

/// Actions of a game under `rules` as Python `Action`s.
fn actions_list(actions: impl IntoIterator<Item = Action>, rules: Variant) -> Vec<PyAction> {
    actions
        .into_iter()
        .map(|inner| PyAction::of(inner, rules))
        .collect()
}

/// The standard cards of `card_set` as `Card` objects: 'base' (the default), the 16 base
/// cards in the order of standard_cards.json; 'sensei', the 16 Sensei's Path cards; 'all',
/// both (base first).
#[pyfunction]
#[pyo3(signature = (card_set = None))]
pub fn onitama_standard_cards(card_set: Option<convert::CardSetArg>) -> Vec<PyCard> {
    card_set
        .map_or(CardSet::Base, |s| s.0)
        .cards()
        .iter()
        .map(|&card| PyCard::from_card(card))
        .collect()
}
