//! Onitama with a movable wall, as Python objects: `Onitama` (a game played action by
//! action), `OnitamaAction`, `OnitamaCard`, `OnitamaAI` (a built-in AI in the coursework's
//! AI contract), `OnitamaMatchRecord` and the refereed match `onitama_play_match`. The
//! module `LudoGame.onitama` re-exports them under short names (`Action`, `Card`, ...).
//!
//! Everything here converts and checks Python values, then calls the engine in
//! [`crate::onitama`]; engine errors become Python exceptions through
//! [`errors`](super::errors). A rejected call changes nothing.

use std::cell::RefCell;
use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use super::errors::{IllegalActionError, OnitamaGameOverError};
use super::interrupt::{interruptible, interruptible_or_raise, with_partial};
use super::{describe, type_error};
use crate::onitama::game::DEFAULT_PLIES;
use crate::onitama::{
    Action, Ai, AiFailure, Answer, Card, CardSlot, EndReason, Game, GameRecord, InvalidAnswer,
    Limits, MatchConfig, OnitamaError, Outcome, Player, Position, SETUPS, STANDARD_CARDS,
    SearchInfo, perft_until, play_refereed,
};

/// A `str` argument (a lone surrogate becomes U+FFFD and then fails the engine's checks).
fn str_arg(obj: &Bound<'_, PyAny>, what: &str, expected: &str) -> PyResult<String> {
    obj.cast::<PyString>()
        .map(|s| s.to_string_lossy().into_owned())
        .map_err(|_| type_error(what, expected, obj))
}

/// An `int` argument (not a bool), or `None` when it does not fit an `i64`.
fn int(obj: &Bound<'_, PyAny>, what: &str, expected: &str) -> PyResult<Option<i64>> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(type_error(what, expected, obj));
    }
    Ok(obj.extract::<i64>().ok())
}

fn player_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Player> {
    let s = str_arg(obj, what, "'A' or 'B'")?;
    let mut chars = s.chars();
    match (chars.next().and_then(Player::from_letter), chars.next()) {
        (Some(p), None) => Ok(p),
        _ => Err(OnitamaError::BadBoard(format!("{what} '{s}' is not 'A' or 'B'")).into()),
    }
}

fn plies_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u16> {
    match int(obj, what, "an int")? {
        Some(n) if (0..=u16::MAX as i64).contains(&n) => Ok(n as u16),
        _ => Err(OnitamaError::BadBoard(format!(
            "{what} {} is not an int from 0 to 65535",
            describe(obj)
        ))
        .into()),
    }
}

/// A board: 5 strings, or one string with the rows separated by '/'.
fn board_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    const EXPECTED: &str = "5 strings or one string with rows separated by '/'";
    if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_string_lossy();
        return Ok(s.split('/').map(str::to_owned).collect());
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut rows = Vec::new();
        for item in obj.try_iter()? {
            rows.push(str_arg(&item?, "a board row", "a str")?);
        }
        return Ok(rows);
    }
    Err(type_error("board", EXPECTED, obj))
}

/// A card: an `OnitamaCard`, a standard card's name, a pattern with rows separated by
/// '/', or 5 row strings. Returns the card and the rows to draw it with.
fn card_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(Card, [String; 5])> {
    const EXPECTED: &str = "a Card, a card name, a '/'-separated pattern or 5 row strings";
    if let Ok(c) = obj.cast::<PyCard>() {
        let c = c.get();
        return Ok((c.card, c.rows.clone()));
    }
    let rows: Vec<String> = if let Ok(s) = obj.cast::<PyString>() {
        let s = s.to_string_lossy();
        if !s.contains('/') {
            let card = Card::from_text(&s).map_err(|e| with_place(e, what))?;
            return Ok((card, card.rows()));
        }
        s.split('/').map(str::to_owned).collect()
    } else if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut rows = Vec::new();
        for item in obj.try_iter()? {
            rows.push(str_arg(&item?, "a card row", "a str")?);
        }
        rows
    } else {
        return Err(type_error(what, EXPECTED, obj));
    };
    let card = Card::parse(&rows).map_err(|e| with_place(e, what))?;
    let rows: [String; 5] = rows.try_into().expect("Card::parse checked 5 rows");
    Ok((card, rows))
}

fn with_place(e: OnitamaError, what: &str) -> OnitamaError {
    match e {
        OnitamaError::BadCard(m) => OnitamaError::BadCard(format!("{what}: {m}")),
        other => other,
    }
}

/// The five cards `A1 A2 B1 B2 side`: a dict with exactly those keys, or a sequence of 5.
fn cards_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(Card, [String; 5])>> {
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut out = Vec::new();
        for place in CardSlot::ALL {
            let Some(v) = d.get_item(place.name())? else {
                return Err(OnitamaError::BadCard(format!(
                    "the cards dict has no key '{}' (keys: A1, A2, B1, B2, side)",
                    place.name()
                ))
                .into());
            };
            out.push(card_arg(&v, &format!("card {}", place.name()))?);
        }
        if d.len() != 5 {
            return Err(OnitamaError::BadCard(
                "the cards dict has keys other than A1, A2, B1, B2, side".into(),
            )
            .into());
        }
        return Ok(out);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
        if items.len() != 5 {
            return Err(OnitamaError::BadCard(format!(
                "five cards are needed (A1, A2, B1, B2, side), not {}",
                items.len()
            ))
            .into());
        }
        return CardSlot::ALL
            .iter()
            .zip(&items)
            .map(|(place, v)| card_arg(v, &format!("card {}", place.name())))
            .collect();
    }
    Err(type_error(
        "cards",
        "a dict with keys A1, A2, B1, B2, side, or a list of 5 cards",
        obj,
    ))
}

fn setup_id_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>() {
        return Ok(obj.str()?.to_string_lossy().into_owned());
    }
    str_arg(obj, "setup", "an int or str setup id")
}

fn letter(p: Player) -> String {
    p.letter().to_string()
}

// ---------------------------------------------------------------------------------------
// Card

/// A movement card: a 5x5 pattern with one 'o' (the pawn) and 'x' marks (where it may
/// jump), in its holder's view (B applies it rotated 180 degrees).
///
/// `Card(spec)`: a standard card's name ('Tiger', any case), a pattern with rows separated
/// by '/', or 5 row strings. Two cards are equal when they have the same moves, whatever
/// the position of the 'o' or the filler characters.
#[pyclass(module = "LudoGame.onitama", name = "OnitamaCard", frozen)]
pub struct PyCard {
    card: Card,
    rows: [String; 5],
}

#[pymethods]
impl PyCard {
    #[new]
    fn new(spec: &Bound<'_, PyAny>) -> PyResult<PyCard> {
        let (card, rows) = card_arg(spec, "card")?;
        Ok(PyCard { card, rows })
    }

    /// The standard card's name ('Tiger', ...) if it has the same moves as one, else None.
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
    fn moves(&self, player: &Bound<'_, PyAny>) -> PyResult<Vec<(i8, i8)>> {
        Ok(self.card.moves_for(player_arg(player, "player")?).collect())
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
        match self.card.name() {
            Some(n) if self.rows == self.card.rows() => format!("Card('{n}')"),
            _ => format!("Card('{}')", self.rows.join("/")),
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Vec<String>,))> {
        Ok((slf.get_type().into_any(), (slf.get().rows.to_vec(),)))
    }
}

// ---------------------------------------------------------------------------------------
// Action

/// One ply: a card slot (1 or 2), a pawn move and a wall step. Written '1 e2 d3 u'; a
/// winning move has no wall step ('2 c3 a3 -'); a pass, only when no pawn can move, is
/// '1 XX XX s'. `Action(text)` reads that text.
#[pyclass(module = "LudoGame.onitama", name = "OnitamaAction", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyAction {
    inner: Action,
}

impl PyAction {
    fn parse(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
        if let Ok(a) = obj.cast::<PyAction>() {
            return Ok(a.get().inner);
        }
        let s = str_arg(obj, "action", "an Action or its text such as '1 e2 d3 u'")?;
        Ok(s.parse::<Action>()?)
    }
}

#[pymethods]
impl PyAction {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        Ok(PyAction {
            inner: PyAction::parse(text)?,
        })
    }

    /// The card slot played: 1 or 2.
    #[getter]
    fn card(&self) -> u8 {
        self.inner.slot().number()
    }

    /// The start square, e.g. 'e2' ('XX' for a pass).
    #[getter]
    fn move_from(&self) -> String {
        self.inner.from().map_or("XX".into(), |s| s.to_string())
    }

    /// The target square, e.g. 'd3' ('XX' for a pass).
    #[getter]
    fn move_to(&self) -> String {
        self.inner.to().map_or("XX".into(), |s| s.to_string())
    }

    /// The wall step: 'u', 'r', 'd', 'l' or 's'; None for a winning move (the game ends).
    #[getter]
    fn wall(&self) -> Option<String> {
        self.inner.wall().map(|w| w.letter().to_string())
    }

    /// Is this a pass (no pawn could move)?
    #[getter]
    fn is_pass(&self) -> bool {
        self.inner.is_pass()
    }

    /// Does this move win (and end the game)?
    #[getter]
    fn is_win(&self) -> bool {
        self.inner.is_win()
    }

    /// The answer an AI returns for it: (card, move_from, move_to, wall_dir), with wall 's'
    /// for a winning move (the referee never reads it).
    #[getter]
    fn answer(&self) -> (i64, String, String, String) {
        match Answer::from(self.inner) {
            Answer::Move {
                card,
                from,
                to,
                wall,
            } => (card, from, to, wall),
            Answer::Error(_) => unreachable!("an action's answer is a move"),
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Action('{}')", self.inner)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().inner.to_string(),)))
    }
}

fn actions_list(actions: &[Action]) -> Vec<PyAction> {
    actions.iter().map(|&inner| PyAction { inner }).collect()
}

// ---------------------------------------------------------------------------------------
// Onitama

/// A game of Onitama with a movable wall, played action by action.
///
/// `Onitama(board=None, cards=None, to_move='A', max_plies=20)`: the board as 5 strings
/// (row a, B's home row, first; 'A' 'a' 'B' 'b' 'W', space or '.' for empty) or one string
/// with the rows separated by '/'; the cards as a dict with keys A1, A2, B1, B2, side (or
/// a list in that order) of standard card names or 5-row patterns in the holder's view;
/// the side to move; and the number of plies left (both players' plies count). Board and
/// cards default to setup 22's (the README's start board). `Onitama.setup(21)` starts a
/// coursework setup.
#[pyclass(module = "LudoGame.onitama", name = "Onitama")]
#[derive(Clone)]
pub struct PyOnitama {
    game: Game,
}

impl PyOnitama {
    pub(crate) fn position(&self) -> &Position {
        self.game.position()
    }

    /// Run a built-in AI on the game's current position. The game is not borrowed during
    /// the search (it runs on a copy of the position), so Python code running meanwhile
    /// (another thread, a signal handler) may use and change the game.
    fn run_ai(
        slf: &Bound<'_, PyOnitama>,
        py: Python<'_>,
        level: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SearchInfo> {
        let level = level.map_or(Ok(2), level_arg)?;
        let seed = seed.map_or(Ok(0), seed_arg)?;
        let (limits, _) = search_limits(time, nodes, depth)?;
        let pos = *borrow_game(slf)?.position();
        if pos.is_over() {
            return Err(game_over(&pos));
        }
        let mut ai = Ai::new(level, seed, limits)?;
        interruptible_or_raise(py, move |stop| ai.analyse_until(&pos, stop))?
            .ok_or_else(|| game_over(&pos))
    }
}

/// The arguments an AI is called with in `pos`, its cards drawn as in `game`.
fn contract_args<'py>(
    py: Python<'py>,
    game: &Game,
    pos: &Position,
) -> PyResult<Bound<'py, PyTuple>> {
    let p = game.patterns_of(pos);
    let card = |i: usize| p[i].to_vec();
    (
        letter(pos.side()),
        pos.board_rows().to_vec(),
        card(0),
        card(1),
        card(2),
        card(3),
        card(4),
        pos.plies_left(),
    )
        .into_pyobject(py)
}

fn search_limits(
    time: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    depth: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Limits, Option<f64>)> {
    let nodes = match nodes {
        Some(n) if !n.is_none() => match int(n, "nodes", "an int or None")? {
            Some(v) if v >= 1 => Some(v as u64),
            _ => {
                return Err(OnitamaError::BadAi(format!(
                    "nodes {} is not a positive int",
                    describe(n)
                ))
                .into());
            }
        },
        _ => None,
    };
    let depth = match depth {
        Some(d) if !d.is_none() => match int(d, "depth", "an int or None")? {
            Some(v) if (1..=1000).contains(&v) => Some(v as u32),
            _ => {
                return Err(
                    OnitamaError::BadAi(format!("depth {} is not 1 to 1000", describe(d))).into(),
                );
            }
        },
        _ => None,
    };
    let seconds = match time {
        _ if nodes.is_some() => None,
        None => Some(1.0),
        Some(t) if t.is_none() => None,
        Some(t) => Some(seconds_arg(t, "time")?),
    };
    Ok((
        Limits {
            time: seconds.map(Duration::from_secs_f64),
            nodes,
            depth,
        },
        seconds,
    ))
}

/// A positive, finite number of seconds (at most a day).
fn seconds_arg(t: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if t.is_instance_of::<PyBool>()
        || !(t.is_instance_of::<PyFloat>() || t.is_instance_of::<PyInt>())
    {
        return Err(type_error(what, "a number of seconds or None", t));
    }
    match t.extract::<f64>() {
        Ok(v) if v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(OnitamaError::BadAi(format!(
            "{what} {} is not a number of seconds above 0 (at most 86400)",
            describe(t)
        ))
        .into()),
    }
}

fn level_arg(level: &Bound<'_, PyAny>) -> PyResult<u8> {
    match int(level, "level", "an int")? {
        Some(l) if (0..=crate::onitama::ai::MAX_LEVEL as i64).contains(&l) => Ok(l as u8),
        _ => Err(OnitamaError::BadAi(format!(
            "level {}: the levels are 0 (random), 1 (baseline) and 2 (search)",
            describe(level)
        ))
        .into()),
    }
}

fn seed_arg(seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    match int(seed, "seed", "an int")? {
        Some(s) if s >= 0 => Ok(s as u64),
        _ => seed.extract::<u64>().map_err(|_| {
            OnitamaError::BadAi(format!(
                "seed {} is not an int from 0 to 2**64-1",
                describe(seed)
            ))
            .into()
        }),
    }
}

/// Borrow a game, as an error (not a panic) if it is being changed elsewhere.
fn borrow_game<'py>(game: &Bound<'py, PyOnitama>) -> PyResult<PyRef<'py, PyOnitama>> {
    game.try_borrow()
        .map_err(|_| IllegalActionError::new_err("the game is being changed by another thread"))
}

fn game_over(pos: &Position) -> PyErr {
    crate::onitama::game::game_over(pos).into()
}

#[pymethods]
impl PyOnitama {
    #[new]
    #[pyo3(
        signature = (board = None, cards = None, to_move = None, max_plies = None),
        text_signature = "(board=None, cards=None, to_move='A', max_plies=20)"
    )]
    fn new(
        board: Option<&Bound<'_, PyAny>>,
        cards: Option<&Bound<'_, PyAny>>,
        to_move: Option<&Bound<'_, PyAny>>,
        max_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyOnitama> {
        let rows = board.filter(|b| !b.is_none()).map(board_arg).transpose()?;
        let cards = cards.filter(|c| !c.is_none()).map(cards_arg).transpose()?;
        let side = match to_move {
            Some(p) if !p.is_none() => player_arg(p, "to_move")?,
            _ => Player::A,
        };
        let plies = match max_plies {
            Some(n) if !n.is_none() => plies_arg(n, "max_plies")?,
            _ => DEFAULT_PLIES,
        };
        Ok(PyOnitama {
            game: Game::from_parts(rows, cards, side, plies)?,
        })
    }

    /// A coursework setup by id: 11, 12, 13, 21, 22, 23, 1-5 (the Part 1 cases), or a
    /// name such as 'case21', 'aitest1_A', 'basic43_B', 'readme_start'. `max_plies`
    /// replaces the setup's own ply limit (20 where it gives none).
    #[staticmethod]
    #[pyo3(signature = (id, max_plies = None))]
    fn setup(id: &Bound<'_, PyAny>, max_plies: Option<&Bound<'_, PyAny>>) -> PyResult<PyOnitama> {
        let id = setup_id_arg(id)?;
        let plies = match max_plies {
            Some(n) if !n.is_none() => Some(plies_arg(n, "max_plies")?),
            _ => None,
        };
        Ok(PyOnitama {
            game: Game::from_setup(&id, plies)?,
        })
    }

    /// The ids of every setup, as `setup` accepts them ('1', ..., '23', 'aitest1_A', ...).
    #[staticmethod]
    fn setup_ids() -> Vec<String> {
        SETUPS
            .iter()
            .map(|s| s.number().map_or(s.id.to_owned(), |n| n.to_string()))
            .collect()
    }

    /// The setup this game started from ('case21', ...), or None.
    #[getter]
    fn setup_id(&self) -> Option<&'static str> {
        self.game.setup()
    }

    /// The board: 5 strings, row a first ('A' 'a' 'B' 'b' 'W', space for empty).
    #[getter]
    fn board(&self) -> Vec<String> {
        self.game.position().board_rows().to_vec()
    }

    /// The five cards {'A1', 'A2', 'B1', 'B2', 'side'} in their holders' view.
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for slot in CardSlot::ALL {
            let card = self.game.position().card(slot);
            let rows = self.game.rows_of(card);
            d.set_item(slot.name(), PyCard { card, rows })?;
        }
        Ok(d)
    }

    /// The player to move: 'A' or 'B'.
    #[getter]
    fn turn(&self) -> String {
        letter(self.game.position().side())
    }

    /// Plies left, counting the coming one (the AI contract's `turn` argument); 0 once
    /// nobody may move any more.
    #[getter]
    fn plies_left(&self) -> u16 {
        self.game.position().plies_left()
    }

    /// The actions played so far, oldest first.
    #[getter]
    fn actions(&self) -> Vec<PyAction> {
        self.game
            .actions()
            .map(|inner| PyAction { inner })
            .collect()
    }

    /// Every legal action now (empty once the game is over), in generator order.
    #[getter]
    fn legal_actions(&self) -> Vec<PyAction> {
        actions_list(&self.game.legal_actions())
    }

    /// Play an action: an `Action`, its text ('1 e2 d3 u'), or an AI answer tuple
    /// (card, move_from, move_to, wall_dir) judged as the referee does. Returns the action
    /// played. Refused (nothing changes) when illegal or when the game is over.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        let a = if action.is_instance_of::<PyTuple>() {
            let items: Vec<Bound<'_, PyAny>> = action.try_iter()?.collect::<PyResult<_>>()?;
            let [card, from, to, wall] = &items[..] else {
                return Err(type_error(
                    "an answer tuple",
                    "(card, move_from, move_to, wall_dir)",
                    action,
                ));
            };
            self.judge(card, from, to, wall)?.inner
        } else {
            PyAction::parse(action)?
        };
        self.game.play(a)?;
        Ok(PyAction { inner: a })
    }

    /// Judge an AI answer exactly as the tournament referee does: the legal action it
    /// stands for, or IllegalActionError whose message is the referee's reason ('You have
    /// no pawn at e3.', ...). Nothing is played.
    fn judge(
        &self,
        card: &Bound<'_, PyAny>,
        move_from: &Bound<'_, PyAny>,
        move_to: &Bound<'_, PyAny>,
        wall_dir: &Bound<'_, PyAny>,
    ) -> PyResult<PyAction> {
        let card = int(card, "card", "an int")?.unwrap_or(i64::MAX);
        let from = str_arg(move_from, "move_from", "a str")?;
        let to = str_arg(move_to, "move_to", "a str")?;
        let wall = str_arg(wall_dir, "wall_dir", "a str")?;
        match self.game.judge(card, &from, &to, &wall) {
            Ok(inner) => Ok(PyAction { inner }),
            Err(InvalidAnswer::GameOver) => Err(self.game.game_over_error().into()),
            Err(reason) => Err(IllegalActionError::new_err(reason.to_string())),
        }
    }

    /// Take back the last action; returns it.
    fn undo(&mut self) -> PyResult<PyAction> {
        Ok(PyAction {
            inner: self.game.undo()?,
        })
    }

    /// Is the game over (won, or no plies left)?
    fn is_over(&self) -> bool {
        self.game.position().is_over()
    }

    /// The winner, 'A' or 'B', or None (still playing, or a tie).
    #[getter]
    fn winner(&self) -> Option<String> {
        self.game.outcome().and_then(Outcome::winner).map(letter)
    }

    /// How the game ended: 'base_reached', 'general_captured', 'ply_limit' (a tie), or
    /// None while it goes on.
    #[getter]
    fn result_reason(&self) -> Option<&'static str> {
        self.game.outcome().map(Outcome::reason)
    }

    /// A sentence on where the game stands, e.g. 'Player A to move, 20 plies left.'.
    #[getter]
    fn status(&self) -> String {
        self.game.status_text()
    }

    /// The arguments an AI is called with now: (current_player, board, cardA1, cardA2,
    /// cardB1, cardB2, side_card, turn).
    fn ai_arguments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        contract_args(py, &self.game, self.game.position())
    }

    /// The action a built-in AI plays now (see `OnitamaAI`): level 0 random, 1 the
    /// coursework baseline, 2 the search (with `time` seconds, or deterministic with a
    /// `nodes` budget).
    #[pyo3(
        signature = (level = None, time = None, seed = None, nodes = None, depth = None),
        text_signature = "(self, level=2, time=1.0, seed=0, nodes=None, depth=None)"
    )]
    fn best_action(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        level: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAction> {
        let info = PyOnitama::run_ai(slf, py, level, time, seed, nodes, depth)?;
        Ok(PyAction { inner: info.action })
    }

    /// What a built-in AI finds now, as a dict: action, score (for the side to move; above
    /// 29000 a forced win, below -29000 a forced loss), depth, nodes, exact, pv (the
    /// expected line).
    #[pyo3(
        signature = (level = None, time = None, seed = None, nodes = None, depth = None),
        text_signature = "(self, level=2, time=1.0, seed=0, nodes=None, depth=None)"
    )]
    fn analyse<'py>(
        slf: &Bound<'_, Self>,
        py: Python<'py>,
        level: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let info = PyOnitama::run_ai(slf, py, level, time, seed, nodes, depth)?;
        let d = PyDict::new(py);
        d.set_item("action", PyAction { inner: info.action })?;
        d.set_item("score", info.score)?;
        d.set_item("depth", info.depth)?;
        d.set_item("nodes", info.nodes)?;
        d.set_item("exact", info.exact)?;
        d.set_item("pv", actions_list(&info.pv))?;
        Ok(d)
    }

    /// The number of action sequences of `depth` plies (a winning action counts 1 and
    /// ends its sequence), as in the golden data's perft.json. The game is not borrowed
    /// meanwhile (the count runs on a copy of the position).
    fn perft(slf: &Bound<'_, Self>, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = match int(depth, "depth", "an int")? {
            Some(d) if (0..=64).contains(&d) => d as u32,
            _ => {
                return Err(OnitamaError::BadAi(format!(
                    "perft depth {} is not an int from 0 to 64",
                    describe(depth)
                ))
                .into());
            }
        };
        let pos = *borrow_game(slf)?.position();
        interruptible_or_raise(py, move |stop| perft_until(&pos, depth, stop))?
            .ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err("perft was interrupted"))
    }

    /// The position as one line of text, e.g.
    /// 'bbBbb/...../W..../...../aaAaa A n=20 A1:Monkey A2:Crane B1:Boar B2:Ox side:Tiger'.
    /// A card drawn otherwise than its name's (or canonical pattern's) rows is written as
    /// drawn (a space as '_', '_' '%' '/' quotes, backslash and non-ASCII as %XX), so that
    /// `from_notation` gives back the same cards, drawn the same way.
    fn to_notation(&self) -> String {
        self.game.to_notation()
    }

    /// A game starting at a position written by `to_notation` (no history), its cards
    /// drawn as written.
    #[staticmethod]
    fn from_notation(text: &Bound<'_, PyAny>) -> PyResult<PyOnitama> {
        let t = str_arg(text, "notation", "a str")?;
        Ok(PyOnitama {
            game: Game::from_notation(&t)?,
        })
    }

    /// The whole game (start, setup, card drawings, every action) as a JSON string.
    fn to_json(&self) -> String {
        self.game.to_json()
    }

    /// A game read from `to_json`'s output: the actions are replayed and checked, and a
    /// `setup` id whose position is not the JSON's `start` (its ply limit aside) is refused.
    #[staticmethod]
    fn from_json(text: &Bound<'_, PyAny>) -> PyResult<PyOnitama> {
        let t = str_arg(text, "JSON text", "a str")?;
        Ok(PyOnitama {
            game: Game::from_json(&t)?,
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let json = borrow_game(slf)?.to_json();
        Ok((slf.get_type().getattr("from_json")?, (json,)))
    }

    /// An independent copy, with its history.
    fn copy(&self) -> PyOnitama {
        self.clone()
    }

    fn __copy__(&self) -> PyOnitama {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyOnitama {
        self.clone()
    }

    /// Games are equal when their current positions are (history and drawings aside).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyOnitama>().is_ok_and(|o| {
            o.try_borrow()
                .is_ok_and(|o| o.game.position() == self.game.position())
        })
    }

    fn __repr__(&self) -> String {
        format!("Onitama.from_notation('{}')", self.to_notation())
    }

    /// The board and the five cards drawn as the coursework programs do, the side card as
    /// `player` sees it (default: the player to move).
    #[pyo3(signature = (player = None))]
    fn draw(&self, player: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let viewer = match player {
            Some(p) if !p.is_none() => player_arg(p, "player")?,
            _ => self.game.position().side(),
        };
        Ok(self.game.draw(viewer))
    }

    /// The drawing of `draw()`.
    fn __str__(&self) -> String {
        self.game.draw(self.game.position().side())
    }

    /// The position as an SVG image (shown by Jupyter notebooks).
    fn _repr_svg_(&self) -> String {
        self.game.svg()
    }
}

// ---------------------------------------------------------------------------------------
// Built-in AI

/// A built-in AI, callable with the coursework's AI contract:
/// `ai(current_player, board, cardA1, cardA2, cardB1, cardB2, side_card, turn)` returns
/// `(card, move_from, move_to, wall_dir)` ('XX', 'XX' for a pass).
///
/// `OnitamaAI(level=2, time=1.0, seed=0, nodes=None, depth=None)`: level 0 plays a random
/// legal action, level 1 the coursework baseline (win at once if possible, else avoid
/// allowing a win at once, else random), level 2 an alpha-beta search for `time` seconds
/// per move, or, when `nodes` is given, for that many nodes (deterministic; `time` is
/// then not used). `depth` caps the search depth. The seed fixes every random choice.
#[pyclass(module = "LudoGame.onitama", name = "OnitamaAI", frozen)]
pub struct PyAi {
    ai: Mutex<Ai>,
    level: u8,
    seed: u64,
    time: Option<f64>,
    limits: Limits,
}

impl PyAi {
    /// The AI's choice in `pos`, its time capped at `cap`, with the error of a Ctrl-C that
    /// stopped it (its answer is then not to be played). The search runs on a worker
    /// thread with the interpreter released (see [`interruptible`]), so two threads
    /// sharing one AI cannot deadlock on its lock.
    fn answer(
        &self,
        py: Python<'_>,
        pos: &Position,
        cap: Option<Duration>,
    ) -> (Answer, Option<PyErr>) {
        let mut limits = self.limits;
        if let Some(cap) = cap
            && limits.nodes.is_none()
        {
            limits.time = Some(limits.time.map_or(cap, |t| t.min(cap)));
        }
        let pos = *pos;
        interruptible(py, |stop| {
            let mut ai = self.ai.lock().unwrap_or_else(|e| e.into_inner());
            ai.set_limits(limits);
            let answer = ai.answer_until(&pos, stop);
            ai.set_limits(self.limits);
            answer
        })
    }
}

/// The position an AI is called in, from the contract's arguments.
fn contract_position(args: &[&Bound<'_, PyAny>; 8]) -> PyResult<Position> {
    let side = player_arg(args[0], "current_player")?;
    let board = board_arg(args[1])?;
    let names = ["cardA1", "cardA2", "cardB1", "cardB2", "side_card"];
    let mut cards = Vec::with_capacity(5);
    for (i, name) in names.iter().enumerate() {
        cards.push(card_arg(args[2 + i], name)?.0);
    }
    let turn = plies_arg(args[7], "turn")?;
    let cards: [Card; 5] = cards.try_into().expect("five cards");
    Ok(Position::from_rows(&board, cards, side, turn)?)
}

#[pymethods]
impl PyAi {
    #[new]
    #[pyo3(
        signature = (level = None, time = None, seed = None, nodes = None, depth = None),
        text_signature = "(level=2, time=1.0, seed=0, nodes=None, depth=None)"
    )]
    fn new(
        level: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAi> {
        let level = level.map_or(Ok(2), level_arg)?;
        let seed = seed.map_or(Ok(0), seed_arg)?;
        let (limits, time) = search_limits(time, nodes, depth)?;
        let ai = Ai::new(level, seed, limits)?;
        Ok(PyAi {
            ai: Mutex::new(ai),
            level,
            seed,
            time: if level >= 2 { time } else { None },
            limits,
        })
    }

    /// 0 (random), 1 (baseline) or 2 (search).
    #[getter]
    fn level(&self) -> u8 {
        self.level
    }

    /// The seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Seconds per move of the search (None: no time limit, or not a search).
    #[getter]
    fn time(&self) -> Option<f64> {
        self.time
    }

    /// The node budget per move (None: none).
    #[getter]
    fn nodes(&self) -> Option<u64> {
        self.limits.nodes
    }

    /// The depth cap (None: none).
    #[getter]
    fn depth(&self) -> Option<u32> {
        self.limits.depth
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
            return Err(game_over(&pos));
        }
        let (answer, interrupted) = self.answer(py, &pos, None);
        if let Some(e) = interrupted {
            return Err(e);
        }
        match answer {
            Answer::Move {
                card,
                from,
                to,
                wall,
            } => Ok((card, from, to, wall)),
            Answer::Error(e) => Err(OnitamaGameOverError::new_err(e)),
        }
    }

    /// The action this AI plays in `game` (an `Onitama`).
    fn choose(&self, py: Python<'_>, game: &Bound<'_, PyOnitama>) -> PyResult<PyAction> {
        let pos = *borrow_game(game)?.position();
        if pos.is_over() {
            return Err(game_over(&pos));
        }
        let inner = interruptible_or_raise(py, |stop| {
            let mut ai = self.ai.lock().unwrap_or_else(|e| e.into_inner());
            ai.choose_until(&pos, stop)
        })?
        .ok_or_else(|| game_over(&pos))?;
        Ok(PyAction { inner })
    }

    fn __repr__(&self) -> String {
        let mut s = format!("BuiltinAI(level={}", self.level);
        if self.level >= 2 {
            match (self.limits.nodes, self.time) {
                (Some(n), _) => s.push_str(&format!(", nodes={n}")),
                (None, Some(t)) => s.push_str(&format!(", time={t}")),
                (None, None) => s.push_str(", time=None"),
            }
            if let Some(d) = self.limits.depth {
                s.push_str(&format!(", depth={d}"));
            }
        }
        format!("{s}, seed={})", self.seed)
    }
}

// ---------------------------------------------------------------------------------------
// Refereed matches

/// The full record of a refereed game: the start, every accepted action, the result and
/// why the game ended.
#[pyclass(module = "LudoGame.onitama", name = "OnitamaMatchRecord", frozen)]
pub struct PyMatchRecord {
    start: Game,
    record: GameRecord,
}

#[pymethods]
impl PyMatchRecord {
    /// The setup played ('case21', ...), or None for a game that did not start from one
    /// or was given with actions already played.
    #[getter]
    fn setup(&self) -> Option<&'static str> {
        self.start.setup()
    }

    /// The start position's notation.
    #[getter]
    fn start(&self) -> String {
        self.start.to_notation()
    }

    /// The final position's notation.
    #[getter]
    fn end(&self) -> String {
        self.start.notation_of(&self.record.end)
    }

    /// Every accepted action, in order.
    #[getter]
    fn actions(&self) -> Vec<PyAction> {
        actions_list(&self.record.actions)
    }

    /// The winner, 'A' or 'B', or None for a tie.
    #[getter]
    fn winner(&self) -> Option<String> {
        self.record.winner().map(letter)
    }

    /// 'A won', 'B won' or 'tie' ('interrupted' for the partial record of an interrupted
    /// match).
    #[getter]
    fn result(&self) -> String {
        if self.record.reason == EndReason::Interrupted {
            return self.record.reason.name().to_owned();
        }
        self.record
            .winner()
            .map_or_else(|| "tie".to_owned(), |p| format!("{p} won"))
    }

    /// Why the game ended: 'general_captured', 'base_reached', 'ply_limit' (a tie),
    /// 'invalid_move' (the loser's AI gave an invalid answer, or one of a wrong type),
    /// 'programming_error' (it raised an exception) or 'timeout' (it took longer than the
    /// time budget); 'interrupted' in the partial record that an interrupted match's
    /// `Interrupted` exception carries (the game was not finished).
    #[getter]
    fn reason(&self) -> &'static str {
        self.record.reason.name()
    }

    /// What went wrong, for the last three reasons: the referee's message, the exception,
    /// or the time taken ('' otherwise).
    #[getter]
    fn detail(&self) -> String {
        self.record.reason.detail()
    }

    /// The player whose AI failed ('A' or 'B'), or None.
    #[getter]
    fn failed(&self) -> Option<String> {
        self.record.reason.failed_by().map(letter)
    }

    /// The rejected answer of an 'invalid_move' game, as given (None otherwise).
    #[getter]
    fn invalid_answer(&self) -> Option<(i64, String, String, String)> {
        match &self.record.reason {
            EndReason::InvalidAnswer {
                answer:
                    Answer::Move {
                        card,
                        from,
                        to,
                        wall,
                    },
                ..
            } => Some((*card, from.clone(), to.clone(), wall.clone())),
            _ => None,
        }
    }

    /// Plies started: the accepted ones, plus a final failing one.
    #[getter]
    fn plies(&self) -> u32 {
        self.record.plies
    }

    /// Points by player: 2 a win, 1 a tie, 0 a loss (0 each for an interrupted match).
    #[getter]
    fn points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for p in Player::BOTH {
            d.set_item(letter(p), self.record.points(p))?;
        }
        Ok(d)
    }

    /// The game replayed: an `Onitama` at the final position, with every action in its
    /// history.
    fn game(&self) -> PyResult<PyOnitama> {
        let mut game = self.start.clone();
        for &a in &self.record.actions {
            game.play(a)?;
        }
        Ok(PyOnitama { game })
    }

    fn __repr__(&self) -> String {
        format!(
            "MatchRecord(setup={}, winner={}, reason='{}', plies={})",
            self.start
                .setup()
                .map_or("None".into(), |s| format!("'{s}'")),
            self.record
                .winner()
                .map_or("None".into(), |p| format!("'{p}'")),
            self.record.reason.name(),
            self.record.plies
        )
    }
}

/// An AI as given to the referee.
enum Contestant<'py> {
    Builtin(Bound<'py, PyAi>),
    Python(Bound<'py, PyAny>),
}

impl<'py> Contestant<'py> {
    fn new(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Contestant<'py>> {
        if let Ok(ai) = obj.cast::<PyAi>() {
            Ok(Contestant::Builtin(ai.clone()))
        } else if obj.is_callable() {
            Ok(Contestant::Python(obj.clone()))
        } else {
            Err(type_error(what, "a callable AI", obj))
        }
    }
}

/// Read a Python AI's answer: a tuple or list (card, move_from, move_to, wall_dir) of an
/// int and three strs.
fn read_answer(v: &Bound<'_, PyAny>) -> Result<Answer, String> {
    let bad = || {
        format!(
            "the AI returned {}, not a tuple (card: int, move_from: str, move_to: str, wall_dir: str)",
            describe(v)
        )
    };
    if !(v.is_instance_of::<PyTuple>() || v.is_instance_of::<PyList>()) {
        return Err(bad());
    }
    let items: Vec<Bound<'_, PyAny>> = v
        .try_iter()
        .map_err(|_| bad())?
        .collect::<PyResult<_>>()
        .map_err(|_| bad())?;
    let [card, from, to, wall] = &items[..] else {
        return Err(bad());
    };
    if card.is_instance_of::<PyBool>() || !card.hasattr("__index__").unwrap_or(false) {
        return Err(bad());
    }
    let card = card.extract::<i64>().unwrap_or(i64::MAX);
    let s = |x: &Bound<'_, PyAny>| {
        x.cast::<PyString>()
            .map(|s| s.to_string_lossy().into_owned())
            .map_err(|_| bad())
    };
    Ok(Answer::new(card, s(from)?, s(to)?, s(wall)?))
}

/// Referee one game between two AIs (see `LudoGame.onitama.play_match`).
#[pyfunction]
#[pyo3(signature = (ai_a, ai_b, setup = None, max_plies = None, time_budget = None))]
pub fn onitama_play_match<'py>(
    py: Python<'py>,
    ai_a: &Bound<'py, PyAny>,
    ai_b: &Bound<'py, PyAny>,
    setup: Option<&Bound<'py, PyAny>>,
    max_plies: Option<&Bound<'py, PyAny>>,
    time_budget: Option<&Bound<'py, PyAny>>,
) -> PyResult<PyMatchRecord> {
    let players = [
        Contestant::new(ai_a, "ai_a")?,
        Contestant::new(ai_b, "ai_b")?,
    ];
    let plies = match max_plies {
        Some(n) if !n.is_none() => Some(plies_arg(n, "max_plies")?),
        _ => None,
    };
    let start = match setup {
        Some(g) if g.is_instance_of::<PyOnitama>() => {
            borrow_game(g.cast::<PyOnitama>()?)?.game.match_start(plies)
        }
        Some(id) if !id.is_none() => Game::from_setup(&setup_id_arg(id)?, plies)?,
        _ => Game::from_setup("21", plies)?,
    };
    let time_budget = match time_budget {
        Some(t) if !t.is_none() => Some(Duration::from_secs_f64(seconds_arg(t, "time_budget")?)),
        _ => None,
    };
    let config = MatchConfig {
        max_plies: plies,
        time_budget,
    };
    // A Ctrl-C (or any other BaseException that is not an Exception, raised by a Python
    // AI) is not the mover's failure: it ends the match and is raised again, with the
    // record of the plies played so far.
    let interrupt: RefCell<Option<PyErr>> = RefCell::new(None);
    let stop = |e: PyErr| {
        interrupt.borrow_mut().get_or_insert(e);
        AiFailure::Interrupted
    };
    let call = |who: Player, pos: &Position| -> Result<Answer, AiFailure> {
        py.check_signals().map_err(stop)?;
        match &players[who.index()] {
            Contestant::Builtin(ai) => match ai.get().answer(py, pos, config.search_cap()) {
                (_, Some(e)) => Err(stop(e)),
                (answer, None) => Ok(answer),
            },
            Contestant::Python(f) => {
                match contract_args(py, &start, pos).and_then(|a| f.call1(a)) {
                    Ok(v) => read_answer(&v).map_err(AiFailure::Malformed),
                    Err(e) if !e.is_instance_of::<PyException>(py) => Err(stop(e)),
                    Err(e) => Err(AiFailure::Raised(e.to_string())),
                }
            }
        }
    };
    let record = play_refereed(
        &config,
        start.position(),
        |p: &Position| call(Player::A, p),
        |p: &Position| call(Player::B, p),
    );
    let result = PyMatchRecord { start, record };
    match interrupt.into_inner() {
        Some(e) => Err(with_partial(py, e, Bound::new(py, result)?.into_any())),
        None => Ok(result),
    }
}

/// The 16 standard cards, as `Card` objects, in the order of standard_cards.json.
#[pyfunction]
pub fn onitama_standard_cards() -> Vec<PyCard> {
    STANDARD_CARDS
        .iter()
        .map(|&card| PyCard {
            card,
            rows: card.rows(),
        })
        .collect()
}
