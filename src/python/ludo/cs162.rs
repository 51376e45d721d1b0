//! `LudoGame` and `Player`: the CS162 assignment's classes, as a thin adapter over
//! [`Cs162Game`]. A `LudoGame` owns the game of its last `play_game` call; a `Player` is a
//! live view of one seat of one game (D2, D11).

use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};

use crate::ludo::cs162::{Cs162Turn, Readings, parse_position, parse_token};
use crate::ludo::render;
use crate::ludo::{Cs162Game, LudoError as CoreError, MAX_SEATS, Seat, SpaceName, Token};
use crate::python::errors::BindingError;
use crate::python::{describe, wrong_type};

const RULES: crate::ludo::Rules = Cs162Game::RULES;
/// Step counts −1..=57: 59 names per seat.
const NAMES_PER_SEAT: usize = 59;
/// The CS162 tokens, `p` and `q`.
const TOKENS: [Token; 2] = [Token::FIRST, Token::new(1).unwrap()];

type Shared = Arc<Mutex<Cs162Game>>;

fn lock(game: &Shared) -> MutexGuard<'_, Cs162Game> {
    // No engine call panics while holding the lock, so a poisoned lock still holds a
    // consistent game.
    game.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Every space name of every seat, created once as interned Python strings.
fn space_names(py: Python<'_>) -> &'static [Py<PyString>] {
    static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    NAMES.get_or_init(py, || {
        Seat::ALL
            .into_iter()
            .flat_map(|seat| (-1..=RULES.finish_step as i64).map(move |s| (seat, s)))
            .map(|(seat, s)| {
                let name = SpaceName::of(seat, s)
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                PyString::intern(py, &name).unbind()
            })
            .collect()
    })
}

/// The name of `seat`'s space at a step count that is known to be in range.
fn space_name<'py>(py: Python<'py>, seat: Seat, steps: i8) -> Bound<'py, PyString> {
    space_names(py)[seat.index() * NAMES_PER_SEAT + (steps as i64 + 1) as usize]
        .bind(py)
        .clone()
}

/// A Python int (not a bool) as `i64`; an int too big for `i64` gives `out_of_range`.
fn int_arg(
    obj: &Bound<'_, PyAny>,
    what: &str,
    out_of_range: fn(String) -> CoreError,
) -> Result<i64, BindingError> {
    if obj.is_instance_of::<PyBool>() {
        return Err(wrong_type(what, "an int", obj));
    }
    match obj.extract::<i64>() {
        Ok(v) => Ok(v),
        Err(_) if obj.is_instance_of::<PyInt>() => Err(out_of_range(describe(obj)).into()),
        Err(_) => Err(wrong_type(what, "an int", obj)),
    }
}

/// A Python str as `&str`-backed `String` check, parsed by `parse`.
fn str_arg<T>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    parse: fn(&str) -> Result<T, CoreError>,
) -> Result<T, BindingError> {
    let s = obj
        .cast::<PyString>()
        .map_err(|_| wrong_type(what, "a str", obj))?;
    Ok(match s.to_str() {
        Ok(text) => parse(text),
        Err(_) => parse(&s.to_string_lossy()),
    }?)
}

fn parse_players(players: &Bound<'_, PyAny>) -> PyResult<Vec<Seat>> {
    let items: Vec<Bound<'_, PyAny>> = match players.try_iter() {
        Ok(iter) => iter.collect::<PyResult<_>>()?,
        Err(_) => {
            return Err(
                wrong_type("players", "a list of positions such as ['A', 'B']", players).into(),
            );
        }
    };
    if let Ok(s) = players.cast::<PyString>() {
        // A string such as "AB" names one position per character.
        return s
            .to_string_lossy()
            .chars()
            .map(|c| parse_position(&c.to_string()).map_err(PyErr::from))
            .collect();
    }
    items
        .iter()
        .map(|item| {
            str_arg(item, "a position in the players list", parse_position).map_err(PyErr::from)
        })
        .collect()
}

fn parse_turn(item: &Bound<'_, PyAny>) -> Result<(Seat, i64), BindingError> {
    let pair = if let Ok(t) = item.cast::<PyTuple>() {
        (t.len() == 2).then(|| (t.get_item(0), t.get_item(1)))
    } else if let Ok(l) = item.cast::<PyList>() {
        (l.len() == 2).then(|| (l.get_item(0), l.get_item(1)))
    } else {
        None
    };
    let Some((Ok(position), Ok(roll))) = pair else {
        return Err(CoreError::MalformedTurn(describe(item)).into());
    };
    let seat = str_arg(&position, "a turn's position", parse_position)?;
    let roll = int_arg(&roll, "a turn's roll", CoreError::InvalidRoll)?;
    Ok((seat, roll))
}

/// Play `turns` on `game` (a new game); with `each`, tell it what every turn did.
fn play_turns(
    mut game: Cs162Game,
    turns: &Bound<'_, PyAny>,
    each: Option<&mut dyn FnMut(Cs162Turn)>,
) -> PyResult<Cs162Game> {
    fn run<I: IntoIterator<Item = Result<(Seat, i64), BindingError>>>(
        game: &mut Cs162Game,
        items: I,
        each: Option<&mut dyn FnMut(Cs162Turn)>,
    ) -> Result<(), BindingError> {
        match each {
            None => game.play_turns(items),
            Some(each) => game.trace_turns(items, each),
        }
    }
    let played = if let Ok(list) = turns.cast::<PyList>() {
        run(&mut game, list.iter().map(|t| parse_turn(&t)), each)
    } else if let Ok(tuple) = turns.cast::<PyTuple>() {
        run(&mut game, tuple.iter().map(|t| parse_turn(&t)), each)
    } else if turns.is_instance_of::<PyString>() {
        return Err(wrong_type("turns", "a list of (position, roll) pairs", turns).into());
    } else {
        let items: Vec<Bound<'_, PyAny>> = match turns.try_iter() {
            Ok(iter) => iter.collect::<PyResult<_>>()?,
            Err(_) => {
                return Err(wrong_type("turns", "a list of (position, roll) pairs", turns).into());
            }
        };
        run(&mut game, items.iter().map(parse_turn), each)
    };
    played?;
    Ok(game)
}

/// A game of CS162 Ludo: two to four players at positions 'A'-'D', two tokens each.
///
/// `play_game(players, turns)` plays a whole list of rolls with the assignment's priority
/// rule and returns every token's space; `get_player_by_position` gives live `Player`
/// views of that game; `move_token` moves one named token.
///
/// `LudoGame()` reads every decision of docs/rules.md as the engine does. Keyword
/// arguments choose another reading of the decisions the assignment leaves open (their
/// names and values: `LudoGame.CS162_READINGS`), e.g. `LudoGame(kick="one")`.
#[pyclass(module = "LudoGame")]
pub struct LudoGame {
    game: Option<Shared>,
    players: [Option<Py<Player>>; MAX_SEATS],
    readings: Readings,
}

#[pymethods]
impl LudoGame {
    /// A LudoGame with no game played yet.
    #[new]
    #[pyo3(signature = (**readings))]
    fn new(readings: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut read = Readings::ENGINE;
        for (name, value) in readings.into_iter().flatten() {
            let name = name.cast::<PyString>()?.to_string_lossy();
            let value = value
                .cast::<PyString>()
                .map_err(|_| wrong_type(&format!("the reading {name}"), "a str", &value))?;
            read.set(&name, &value.to_string_lossy())
                .map_err(BindingError::from)?;
        }
        Ok(LudoGame {
            game: None,
            players: Default::default(),
            readings: read,
        })
    }

    /// Play a new game: `players` is a list of positions (e.g. `['A', 'C']`), `turns` a list
    /// of `(position, roll)` tuples applied in order with the priority rule. Returns the
    /// space of each player's `p` then `q` token, players in the order given (D3).
    ///
    /// Raises a `LudoError` (or `TypeError`) for bad input, leaving the previous game as it
    /// was (D13).
    fn play_game<'py>(
        &mut self,
        py: Python<'py>,
        players: &Bound<'py, PyAny>,
        turns: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        let game = self.new_game(players, turns, None)?;
        let names = spaces_of(py, &game);
        self.game = Some(Arc::new(Mutex::new(game)));
        self.players = Default::default();
        names
    }

    /// Play a new game as `play_game` does (not part of the assignment), and return the
    /// decisions of docs/rules.md each turn touched, e.g. `('D4', 'D9.1')`: D4 a token in
    /// the yard, D5 a bounce, a finish, a move from 'R' or a finished token (or any plain
    /// move), D6 'R' beside a kick or a stack, D7 a kick or an opponent passed over, D8 a
    /// stack, D9.1-D9.4 the priority rule that chose between two tokens, D10 a finished
    /// player's turn.
    fn trace_game(
        &mut self,
        players: &Bound<'_, PyAny>,
        turns: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Vec<String>>> {
        let mut tags = Vec::new();
        let mut note = |t: Cs162Turn| tags.push(t.tags.names());
        let game = self.new_game(players, turns, Some(&mut note))?;
        self.game = Some(Arc::new(Mutex::new(game)));
        self.players = Default::default();
        Ok(tags)
    }

    /// The reading of every open decision this game plays by: each option of
    /// `CS162_READINGS` and its value.
    #[getter]
    fn readings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (option, value) in self.readings.values() {
            out.set_item(option.name, value.name)?;
        }
        Ok(out)
    }

    /// The `Player` at `position` ('A'-'D') in the current game, the same object every
    /// time; the string "Player not found!" for any other value (D2).
    fn get_player_by_position(
        &mut self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        match self.seat_from(position) {
            Some(seat) => Ok(self.player(py, seat)?.into_any()),
            None => Ok(PyString::intern(py, Cs162Game::NOT_FOUND)
                .into_any()
                .unbind()),
        }
    }

    /// Move `player`'s token `token_name` ('p' or 'q') `steps` forward (D12): from the yard
    /// only a 6 moves it (to 'R'); a stacked pair moves together; a move past 'E' bounces
    /// back; opponents on the landing space are kicked home. `player` is a `Player` of this
    /// game (or its position); `steps` is 1-57. Returns None.
    fn move_token(
        &self,
        player: &Bound<'_, PyAny>,
        token_name: &Bound<'_, PyAny>,
        steps: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let game = self.game.as_ref().ok_or(CoreError::NoGame)?;
        let seat = if let Ok(p) = player.cast::<Player>() {
            let p = p.get();
            if !Arc::ptr_eq(&p.game, game) {
                return Err(CoreError::ForeignPlayer(p.label()).into());
            }
            p.seat
        } else if player.is_instance_of::<PyString>() {
            str_arg(player, "player", parse_position)?
        } else {
            return Err(wrong_type("player", "a Player", player).into());
        };
        let token = str_arg(token_name, "token_name", parse_token)?;
        let steps = int_arg(steps, "steps", CoreError::InvalidSteps)?;
        lock(game).move_token(seat, token, steps)?;
        Ok(())
    }

    /// Apply one more roll to the current game with the priority rule, as one turn of
    /// `play_game` would (not part of the assignment). Returns the names of the tokens that
    /// moved ('p', 'q', or 'pq' for a stacked pair), or None when nothing moved.
    fn play_turn(
        &self,
        position: &Bound<'_, PyAny>,
        roll: &Bound<'_, PyAny>,
    ) -> PyResult<Option<String>> {
        let game = self.game.as_ref().ok_or(CoreError::NoGame)?;
        let seat = str_arg(position, "position", parse_position)?;
        let roll = int_arg(roll, "roll", CoreError::InvalidRoll)?;
        let outcome = lock(game).play_turn(seat, roll)?;
        Ok(Cs162Game::moved_names(seat, outcome))
    }

    /// The players of the current game, in the order of the players list.
    #[getter]
    fn players(&mut self, py: Python<'_>) -> PyResult<Vec<Py<Player>>> {
        let Some(game) = &self.game else {
            return Ok(Vec::new());
        };
        let seats = lock(game).players().to_vec();
        seats.into_iter().map(|s| self.player(py, s)).collect()
    }

    /// The space of every token, as `play_game` returned it, for the current game.
    fn get_spaces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let game = self.game.as_ref().ok_or(CoreError::NoGame)?;
        let snapshot = *lock(game);
        spaces_of(py, &snapshot)
    }

    /// The board of the current game drawn in text (spaces 1-56 run clockwise from the
    /// top-left corner; home squares lead to 'E' in the centre).
    fn __str__(&self) -> String {
        match self.game.as_ref().map(|g| *lock(g)) {
            None => format!("LudoGame ({})", Cs162Game::NO_GAME_YET),
            Some(game) => render::text_of(&game.scene()),
        }
    }

    /// The board of the current game as an SVG image (shown by Jupyter notebooks).
    fn _repr_svg_(&self) -> PyResult<String> {
        let game = *lock(self.game.as_ref().ok_or(CoreError::NoGame)?);
        Ok(render::svg_of(&game.scene()))
    }

    fn __repr__(&self) -> String {
        match &self.game {
            None => format!("LudoGame({})", Cs162Game::NO_GAME_YET),
            Some(game) => format!("LudoGame({})", lock(game).summary()),
        }
    }
}

impl LudoGame {
    /// The game a `play_game(players, turns)` call plays (D11: a new one, or under the
    /// reading `games="continued"` one that keeps the tokens of the last game's positions).
    fn new_game(
        &self,
        players: &Bound<'_, PyAny>,
        turns: &Bound<'_, PyAny>,
        each: Option<&mut dyn FnMut(Cs162Turn)>,
    ) -> PyResult<Cs162Game> {
        let seats = parse_players(players)?;
        let previous = self.game.as_ref().map(|g| *lock(g));
        let start = Cs162Game::start(&seats, self.readings, previous.as_ref())?;
        play_turns(start, turns, each)
    }

    fn seat_from(&self, position: &Bound<'_, PyAny>) -> Option<Seat> {
        let game = self.game.as_ref()?;
        let seat = str_arg(position, "position", parse_position).ok()?;
        lock(game).has_seat(seat).then_some(seat)
    }

    fn player(&mut self, py: Python<'_>, seat: Seat) -> PyResult<Py<Player>> {
        if let Some(p) = &self.players[seat] {
            return Ok(p.clone_ref(py));
        }
        let game = self.game.clone().ok_or(CoreError::NoGame)?;
        let p = Py::new(py, Player { game, seat })?;
        self.players[seat] = Some(p.clone_ref(py));
        Ok(p)
    }
}

fn spaces_of<'py>(py: Python<'py>, game: &Cs162Game) -> PyResult<Bound<'py, PyList>> {
    let board = game.board();
    PyList::new(
        py,
        game.players().iter().flat_map(|&seat| {
            RULES
                .all_tokens()
                .map(move |t| space_name(py, seat, board.step(seat, t)))
        }),
    )
}

/// One player of a game: its position, start and end spaces, and its tokens `p` and `q`.
/// A Player is a live view: it always shows the game it belongs to as it is now.
#[pyclass(module = "LudoGame", frozen)]
pub struct Player {
    game: Shared,
    seat: Seat,
}

#[pymethods]
impl Player {
    /// A player at `position` ('A'-'D') seated alone in a game of its own; useful for
    /// `get_space_name`. Players of a `LudoGame` come from `get_player_by_position`.
    #[new]
    fn new(position: &Bound<'_, PyAny>) -> PyResult<Self> {
        let seat = str_arg(position, "position", parse_position)?;
        let game = Cs162Game::new(&[seat])?;
        Ok(Player {
            game: Arc::new(Mutex::new(game)),
            seat,
        })
    }

    /// True when both tokens have reached the finishing square 'E', else False.
    fn get_completed(&self) -> bool {
        lock(&self.game).completed(self.seat)
    }

    /// Total steps of token p: -1 in the home yard, 0 ready to go, up to 57 finished.
    fn get_token_p_step_count(&self) -> i64 {
        self.steps_of(TOKENS[0])
    }

    /// Total steps of token q: -1 in the home yard, 0 ready to go, up to 57 finished.
    fn get_token_q_step_count(&self) -> i64 {
        self.steps_of(TOKENS[1])
    }

    /// The name of the space this player's token stands on after `steps` total steps:
    /// 'H' (-1), 'R' (0), the track space '1'-'56', a home square such as 'A1'-'A6', or
    /// 'E' (57) (D1). Raises ValueError for steps outside -1..57.
    fn get_space_name<'py>(
        &self,
        py: Python<'py>,
        steps: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyString>> {
        let steps = int_arg(steps, "steps", CoreError::StepsOutOfRange)?;
        SpaceName::of(self.seat, steps)?;
        Ok(space_name(py, self.seat, steps as i8))
    }

    /// The position, 'A'-'D'.
    #[getter]
    fn position(&self) -> String {
        self.label()
    }

    /// The track space where this player's tokens enter the board (A 1, B 15, C 29, D 43).
    #[getter]
    fn start_space(&self) -> u8 {
        Cs162Game::start_space(self.seat)
    }

    /// The last track space before this player's home squares (A 50, B 8, C 22, D 36).
    #[getter]
    fn end_space(&self) -> u8 {
        Cs162Game::end_space(self.seat)
    }

    /// Same as `get_completed()`.
    #[getter(completed)]
    fn is_completed(&self) -> bool {
        self.get_completed()
    }

    /// Step counts of `(p, q)`.
    #[getter]
    fn steps(&self) -> (i64, i64) {
        let [p, q] = TOKENS;
        (self.steps_of(p), self.steps_of(q))
    }

    /// Space names of `(p, q)`.
    #[getter]
    fn spaces<'py>(&self, py: Python<'py>) -> (Bound<'py, PyString>, Bound<'py, PyString>) {
        let g = *lock(&self.game);
        (
            space_name(py, self.seat, g.steps(self.seat, TOKENS[0])),
            space_name(py, self.seat, g.steps(self.seat, TOKENS[1])),
        )
    }

    fn __repr__(&self) -> String {
        format!("Player({})", lock(&self.game).player_summary(self.seat))
    }
}

impl Player {
    fn steps_of(&self, token: Token) -> i64 {
        lock(&self.game).steps(self.seat, token) as i64
    }

    fn label(&self) -> String {
        RULES.seat_label(self.seat).to_string()
    }
}
