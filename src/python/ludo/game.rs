//! `Game`: the turn-by-turn game over any rule set, as a Python object.

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use super::convert::*;
use super::history::event_object;
use super::moves::Move;
use crate::common::rng::fresh_seed;
use crate::ludo::autoplay::{
    CHANGED_MEANWHILE, Caller, Chooser, GivenBots, NoCaller, autoplay, bots_for, caller_failed,
    no_caller_for, not_a_bot, not_a_move, not_bots,
};
use crate::ludo::bots::BEST_MOVE_BOT;
use crate::ludo::notation::{DieSeed, SavedGame};
use crate::ludo::play::Limits;
use crate::ludo::render;
use crate::ludo::{
    Bot, Event, Game as CoreGame, GameRecord, LudoError as CoreError, Move as CoreMove, Phase, Rng,
    Seat,
};
use crate::python::convert::Seed;
use crate::python::enums::PackageClass;
use crate::python::interrupt::{PySearchStop, interruptible, stoppable, with_partial};
use crate::python::{describe, type_error};

/// A game of Ludo played move by move, over the "cs162", "standard" or "gt" rules.
///
/// `Game(rules="cs162", players="AB", seed=None, **options)`: players are positions
/// ('A'-'D', as a string such as "AC" or a list) or a number of players; the seed makes
/// the die reproducible (a random one is chosen and kept in `seed` when omitted); options
/// change the preset's rules (tokens, overshoot, own_tokens, forced_entry, six_bonus,
/// six_limit, capture_bonus, finish_bonus, safe_squares, end).
#[pyclass(module = "LudoGame", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    record: GameRecord,
    seed: Option<u64>,
}

impl PyGame {
    /// A Python `Game` showing `game` (no history): what a Python bot is handed.
    pub(crate) fn snapshot(game: CoreGame) -> PyGame {
        PyGame {
            record: GameRecord::new(game),
            seed: None,
        }
    }

    /// `obj` as a move of `game`: a `Move` (of its rule set) or a move name; `None` for
    /// anything else.
    pub(crate) fn read_move(
        game: &CoreGame,
        obj: &Bound<'_, PyAny>,
    ) -> Option<Result<CoreMove, CoreError>> {
        if let Ok(m) = obj.cast::<Move>() {
            let m = m.get();
            Some(game.own_move(m.inner, &m.rules, &m.name))
        } else {
            let name = obj.cast::<PyString>().ok()?;
            Some(game.parse_move(&name.to_string_lossy()))
        }
    }

    pub(crate) fn game(&self) -> &CoreGame {
        self.record.game()
    }

    fn label(&self, seat: Seat) -> char {
        self.game().rules().seat_label(seat)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(
        signature = (rules = None, players = None, seed = None, **options),
        text_signature = "(rules='cs162', players=None, seed=None, **options)"
    )]
    pub(crate) fn new(
        rules: Option<&Bound<'_, PyAny>>,
        players: Option<&Bound<'_, PyAny>>,
        seed: Option<Seed>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let r = parse_rules(rules, options)?;
        let seats = parse_seats(&r, players)?;
        let seed = seed.map_or_else(fresh_seed, |s| s.0);
        let game = CoreGame::new(r, &seats, seed)?;
        Ok(PyGame {
            record: GameRecord::new(game),
            seed: Some(seed),
        })
    }

    /// The rule set's preset name: 'cs162', 'standard' or 'gt'.
    #[getter]
    fn rules(&self) -> &'static str {
        self.game().rules().name()
    }

    /// Every rule option and its value.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_dict(py, self.game().rules())
    }

    /// The rule set as notation: the preset name, then the options that differ from it in
    /// brackets (e.g. 'standard[six_limit=3]'); `Game` and `Simulation` take it as `rules`.
    #[getter]
    fn rules_notation(&self) -> String {
        self.game().rules().to_string()
    }

    /// The positions that play, in turn order.
    #[getter]
    fn players(&self) -> Vec<char> {
        self.game().seats().map(|s| self.label(s)).collect()
    }

    /// The die's seed (None for a game read from a position notation that writes the die's
    /// state, without a seed).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The position as one line of text (rules, tokens, turn, ranking, die state), e.g.
    /// 'cs162 A28.28/B21.-1 A:r:0:0 - - 000000000000002a'. With `hide_die` the die's state
    /// is written '-': a position to show players who must not know the coming rolls.
    #[pyo3(signature = (hide_die = false))]
    fn to_notation(&self, hide_die: bool) -> String {
        if hide_die {
            self.game().to_notation_hiding_die()
        } else {
            self.game().to_notation()
        }
    }

    /// A game starting at a position written by `to_notation` (with no history). With
    /// `seed`, the die is seeded with it instead of taking the state written (and `seed`
    /// keeps it); a position whose die is hidden ('-') gets a random seed when none is
    /// given, as `Game()` does.
    #[staticmethod]
    #[pyo3(signature = (text, seed = None))]
    fn from_notation(text: &Bound<'_, PyAny>, seed: Option<Seed>) -> PyResult<PyGame> {
        let text = text_arg(text, "notation", CoreError::InvalidNotation)?;
        let (game, seed) = CoreGame::from_notation_seeded(&text, die_seed(seed))?;
        Ok(PyGame {
            record: GameRecord::new(game),
            seed,
        })
    }

    /// Every roll and move so far as text, e.g. '6 Ap 4 Ap =3' ('=' marks a value given
    /// to `roll` instead of rolled).
    #[getter]
    fn moves(&self) -> String {
        self.record.moves_text()
    }

    /// The whole game (start position, seed, every roll and move) as a JSON string. With
    /// `hide_die`, without the die: the seed null, the die's state '-' in both positions and
    /// every roll a given value ('=6'), for players who must not know the coming rolls.
    #[pyo3(signature = (hide_die = false))]
    fn to_json(&self, hide_die: bool) -> String {
        // Written without calling Python, so that the game is never borrowed while other
        // Python code (another thread) runs.
        let saved = SavedGame {
            record: self.record.clone(),
            seed: self.seed,
        };
        if hide_die {
            saved.to_json_hiding_die()
        } else {
            saved.to_json()
        }
    }

    /// A game read from `to_json`'s output: the moves are replayed and checked. `format`,
    /// `start` and `moves` are required strings; `position`, when present, must be the
    /// string of the position the moves reach; `seed`, when not null, must be the seed that
    /// gives the start position's die state. With `seed`, the game plays on with a die
    /// seeded with it (the saved rolls, checked against the saved die, become given
    /// values); a save whose die is hidden gets a random seed when none is given.
    #[staticmethod]
    #[pyo3(signature = (text, seed = None))]
    fn from_json(text: &Bound<'_, PyAny>, seed: Option<Seed>) -> PyResult<PyGame> {
        let text = text_arg(text, "JSON text", CoreError::InvalidNotation)?;
        let SavedGame { record, seed } = SavedGame::from_json_seeded(&text, die_seed(seed))?;
        Ok(PyGame { record, seed })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let json = slf.try_borrow().map_err(|_| in_use())?.to_json(false);
        Ok((slf.get_type().getattr("from_json")?, (json,)))
    }

    /// What the game waits for: a `Phase` ('roll', 'move' or 'over'; a `str` enum).
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        static PHASE: PackageClass = PackageClass::new("LudoGame.enums", "Phase");
        PHASE.of(py, self.game().phase().name())
    }

    /// The position whose turn it is.
    #[getter]
    fn current_player(&self) -> char {
        self.label(self.game().current_player())
    }

    /// The position whose turn it is (the same as `current_player`; `turn` is the name both
    /// games use).
    #[getter]
    fn turn(&self) -> char {
        self.label(self.game().current_player())
    }

    /// The roll waiting to be played, if any.
    #[getter]
    fn pending_roll(&self) -> Option<u8> {
        let Phase::Move(roll) = self.game().phase() else {
            return None;
        };
        Some(roll)
    }

    /// Roll the die: the seeded die, or `value` (1-6) for replays and tests. Returns the
    /// value. When no token can move the turn passes at once (see `status`).
    #[pyo3(signature = (value = None))]
    fn roll(&mut self, value: Option<&Bound<'_, PyAny>>) -> PyResult<u8> {
        // Read here, not as the argument's type: its TypeError keeps its own words.
        let value = value
            .filter(|v| !v.is_none())
            .map(|v| v.extract::<RollValue>());
        let value = value.transpose()?.map(|v| v.0);
        match self.record.roll(value)? {
            Event::Roll { value, .. } => Ok(value),
            Event::Move { .. } => Ok(0),
        }
    }

    /// The legal moves now (empty unless the phase is 'move'); a stack is one move.
    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        let g = self.game();
        g.legal_moves().iter().map(|m| Move::new(g, m)).collect()
    }

    /// The names of the tokens that may move now (every token of a stack).
    #[getter]
    fn tokens_to_move(&self) -> Vec<char> {
        self.game().token_labels_to_move()
    }

    /// Play a move: a `Move` from `legal_moves`, or its name ('p', 'Ap', 'a', ...).
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let read = Self::read_move(self.game(), mv);
        let core = read.ok_or_else(|| type_error("move", "a Move or a move name", mv))??;
        self.record.play(core)?;
        Ok(())
    }

    /// Is the game over?
    fn is_over(&self) -> bool {
        self.game().is_over()
    }

    /// The first player to bring every token home; None before anyone has (where the GT
    /// original shows 'No one').
    #[getter]
    fn winner(&self) -> Option<char> {
        self.game().winner().map(|s| self.label(s))
    }

    /// How the game ended (an `Outcome`: termination, winner, ranking), or None while it
    /// goes on.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(o) = self.game().outcome() else {
            return Ok(None);
        };
        let ranking = o.ranking.iter().map(|&s| self.label(s)).collect();
        crate::python::enums::outcome_object(py, o.termination.name(), ranking).map(Some)
    }

    /// The finishing order so far.
    #[getter]
    fn ranking(&self) -> Vec<char> {
        self.game().ranking().map(|s| self.label(s)).collect()
    }

    /// The status line: "Player A to roll the die.", "Player A to move.", "Player A cannot
    /// move. Player B to roll the die.", "Player A has won!".
    #[getter]
    fn status(&self) -> String {
        self.game().status()
    }

    /// Step counts of every player's tokens: {'A': [p, q], ...}; negative in the yard.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        PyDict::from_sequence(&self.game().steps_by_seat().into_pyobject(py)?)
    }

    /// Every player's tokens' squares, named in the rule set's own numbering:
    /// {'A': ['41', '42'], ...}. GT: play squares '1'-'40', start slots '41'-'48', goal
    /// squares '49'-'56'. CS162 and standard: 'H' the yard, 'R' CS162's ready space, the
    /// track '1'-'56' (CS162) or '1'-'52' (standard, counted from A's start), 'A1'... the
    /// home column, 'E' the end.
    #[getter]
    fn squares<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        PyDict::from_sequence(&self.game().squares_by_seat().into_pyobject(py)?)
    }

    /// Every roll and move so far, oldest first: `RollEvent`s and `MoveEvent`s (dicts with
    /// typed attributes) with their effects.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.history_since(py, Start(0))
    }

    /// The entries of `history` from index `start` on (`history[start:]` without making
    /// the ones before it; empty past the end): what a client that has the first `start`
    /// lacks. A negative `start` is an `InvalidArgumentError`.
    fn history_since<'py>(&self, py: Python<'py>, start: Start) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        let skip = usize::try_from(start.0).unwrap_or(usize::MAX);
        for (before, event) in self.record.entries().skip(skip) {
            list.append(event_object(py, before, event)?)?;
        }
        Ok(list)
    }

    /// The move a built-in bot would play now: `bot` is a name such as "cs162", "safe",
    /// "expectimax:3" or "mcts:2000"; `seed` makes random bots reproducible. `stop`, a
    /// `SearchStop`, ends a search early from another thread (within about 20 ms of its
    /// `request()`): the answer is then the best move found so far.
    #[pyo3(
        signature = (bot = BEST_MOVE_BOT, seed = None, stop = None),
        text_signature = "($self, bot='expectimax', seed=None, stop=None)"
    )]
    fn best_move(
        &self,
        py: Python<'_>,
        bot: &str,
        seed: Option<Seed>,
        stop: Option<PyRef<'_, PySearchStop>>,
    ) -> PyResult<Move> {
        let b = bot.parse::<Bot>()?;
        let g = *self.game();
        let mut rng = Rng::new(seed.map_or(0, |s| s.0));
        let mv = if b.searches() {
            // A search may run for long: Ctrl-C (or the caller's flag) stops it.
            stoppable(py, stop, |stop| b.best_move(&g, &mut rng, Some(stop)))??
        } else {
            b.best_move(&g, &mut rng, None)?
        };
        Ok(Move::new(&g, mv))
    }

    /// Play on with bots until the game is over (or `max_rolls` more rolls): `bots` maps
    /// each position to a bot name or a Python callable `bot(game) -> Move | str`
    /// (a dict, or a list in turn order). Rolls use the seeded die. Returns the winner.
    ///
    /// All or nothing: when it raises (a bot fails, Ctrl-C), the game is left as it was.
    /// After Ctrl-C the `KeyboardInterrupt`'s `partial` is a copy of the game as far as it
    /// got. The game object is not locked while bots think: a bot may read it (it still
    /// shows the position before autoplay), and if anything else changes it meanwhile,
    /// autoplay raises instead of overwriting that change.
    #[pyo3(signature = (bots, seed = None, max_rolls = None))]
    fn autoplay(
        slf: &Bound<'_, Self>,
        bots: &Bound<'_, PyAny>,
        seed: Option<Seed>,
        max_rolls: Option<MaxRolls>,
    ) -> PyResult<Option<char>> {
        let py = slf.py();
        let mut work = slf.try_borrow().map_err(|_| in_use())?.clone();
        let before = work.record.clone();
        let seats: Vec<Seat> = work.game().seats().collect();
        let (choosers, callables) = parse_bots(bots, work.game())?;
        let mut rng = Rng::new(seed.map_or(0, |s| s.0));
        let limits = Limits::autoplay(max_rolls.map(|m| m.0));
        let record = &mut work.record;
        let played = if callables.iter().all(Option::is_none) {
            // Built-in bots only: played with the interpreter released, Ctrl-C stops it.
            let (outcome, raised) = interruptible(py, |stop| {
                let limits = Limits {
                    stop: Some(stop),
                    ..limits
                };
                autoplay(record, &seats, &choosers, &mut rng, limits, &mut NoCaller)
            });
            raised.map_or_else(|| outcome.map(drop).map_err(PyErr::from), Err)
        } else {
            // Python bots: played holding the interpreter, Ctrl-C reaches them as usual.
            let mut caller = PyCaller::new(py, &callables, &seats);
            autoplay(record, &seats, &choosers, &mut rng, limits, &mut caller).map(drop)
        };
        if let Err(e) = played {
            let partial = Bound::new(py, work)?.into_any();
            return Err(with_partial(py, e, partial));
        }
        let mut me = slf.try_borrow_mut().map_err(|_| in_use())?;
        if me.record != before {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(CHANGED_MEANWHILE));
        }
        *me = work;
        Ok(me.game().winner().map(|s| me.label(s)))
    }

    /// Take back the last roll or move; returns it (the history entry it removes).
    fn undo<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some(event) = self.record.undo() else {
            return Err(CoreError::IllegalMove("nothing to undo".to_owned()).into());
        };
        event_object(py, self.record.game(), &event)
    }

    /// An independent copy of the game, with its history.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.cast::<PyGame>() {
            Ok(o) => Ok(o.try_borrow().map_err(|_| in_use())?.game() == self.game()),
            Err(_) => Ok(false),
        }
    }

    fn __repr__(&self) -> String {
        format!("Game.from_notation('{}')", self.game().to_notation())
    }

    /// The board drawn in text, with the status line.
    fn __str__(&self) -> String {
        render::text(self.game())
    }

    /// The board as an SVG image (shown by Jupyter notebooks).
    fn _repr_svg_(&self) -> String {
        render::svg(self.game())
    }
}

/// Where a game read from Python takes its die: the seed given, else the state written (a
/// hidden die gets a random seed, as `Game()` without a seed does).
fn die_seed(seed: Option<Seed>) -> DieSeed {
    match seed {
        Some(s) => DieSeed::Seed(s.0),
        None => DieSeed::IfHidden(fresh_seed()),
    }
}

/// The Python callables among the bots of a game, by player (turn order); `None` where a
/// built-in bot plays.
pub(crate) type Callables = Vec<Option<Py<PyAny>>>;

/// Read one bot per player of `game` from a list (in turn order), a dict keyed by
/// position, or a single bot (or a list of one) for everyone (see [`bots_for`]): each
/// player's chooser, and the Python callables of the [`Chooser::Caller`] players.
pub(crate) fn parse_bots(
    bots: &Bound<'_, PyAny>,
    game: &CoreGame,
) -> PyResult<(Vec<Chooser>, Callables)> {
    let one = |b: &Bound<'_, PyAny>| -> PyResult<(Chooser, Option<Py<PyAny>>)> {
        if let Ok(s) = b.cast::<PyString>() {
            Ok((Chooser::Bot(s.to_string_lossy().parse::<Bot>()?), None))
        } else if b.is_callable() {
            Ok((Chooser::Caller, Some(b.clone().unbind())))
        } else {
            Err(not_a_bot(&describe(b)).into())
        }
    };
    let given = if bots.is_instance_of::<PyString>()
        || (bots.is_callable() && !bots.is_instance_of::<PyList>())
    {
        GivenBots::One(bots.clone())
    } else if let Ok(d) = bots.cast::<PyDict>() {
        let labels = game.seats().map(|s| game.rules().seat_label(s));
        let by_label = labels.map(|l| Ok((l, d.get_item(l.to_string())?)));
        GivenBots::ByLabel(by_label.collect::<PyResult<_>>()?)
    } else {
        let it = bots.try_iter().map_err(|_| not_bots(&describe(bots)))?;
        let list = it.collect::<PyResult<_>>()?;
        match bots.is_instance_of::<PyList>() {
            true => GivenBots::List(list),
            false => GivenBots::Each(list),
        }
    };
    let list = bots_for(game, given)?;
    let read = list.iter().map(one).collect::<PyResult<Vec<_>>>();
    read.map(|v| v.into_iter().unzip())
}

/// The Python bots of a game as the engine's [`Caller`]: player `k`'s callable is asked
/// for its move.
pub(crate) struct PyCaller<'a, 'py> {
    py: Python<'py>,
    callables: &'a [Option<Py<PyAny>>],
    seats: &'a [Seat],
}

impl<'a, 'py> PyCaller<'a, 'py> {
    /// The caller of the players `seats` (turn order) whose bots are `callables`.
    pub(crate) fn new(
        py: Python<'py>,
        callables: &'a [Option<Py<PyAny>>],
        seats: &'a [Seat],
    ) -> Self {
        PyCaller {
            py,
            callables,
            seats,
        }
    }
}

impl Caller for PyCaller<'_, '_> {
    type Error = PyErr;

    fn choose(&mut self, k: usize, game: &CoreGame) -> PyResult<CoreMove> {
        match (self.callables.get(k), self.seats.get(k)) {
            (Some(Some(f)), Some(&seat)) => ask_python(self.py, f, game, seat),
            _ => Err(no_caller_for(k).into()),
        }
    }

    fn between_games(&mut self) -> PyResult<()> {
        self.py.check_signals()
    }
}

/// The move the Python bot `f` gives for `seat` in `game` (which waits for a move),
/// converted only: the engine checks it. A bot that raises, or answers something that is
/// not a move, is an `InvalidBotError` naming the seat.
pub(crate) fn ask_python(
    py: Python<'_>,
    f: &Py<PyAny>,
    game: &CoreGame,
    seat: Seat,
) -> PyResult<CoreMove> {
    py.check_signals()?;
    let view = Py::new(py, PyGame::snapshot(*game))?;
    let answer = f.bind(py).call1((view,)).map_err(|e| {
        if e.is_instance_of::<PyKeyboardInterrupt>(py) {
            return e;
        }
        caller_failed(game, seat, format_args!("raised {e}")).into()
    })?;
    match PyGame::read_move(game, &answer) {
        Some(read) => read.map_err(|e| caller_failed(game, seat, format!("failed: {e}")).into()),
        None => Err(not_a_move(game, seat, &describe(&answer)).into()),
    }
}
