//! `Onitama`: a game played action by action, a thin wrapper of the engine's [`Game`].

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyDeprecationWarning;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};

use super::convert::{
    AiSeed, Board, CardNumber, CardSetArg, CardText, Cards, Depth, First, JsonText, Level,
    MaxPlies, MoveFrom, MoveTo, Nodes, NotationText, PerftDepth, SearchTime, SetupId, Threads,
    ToMove, Viewer, WallLetter,
};
use super::{PyAction, PyCard, actions_list, letter};
use crate::onitama::coursework;
use crate::onitama::game::game_over;
use crate::onitama::notation::WrittenAction;
use crate::onitama::{
    AiSettings, CardSlot, Game, InvalidAnswer, Position, SearchInfo, Variant, env, perft_until,
};
use crate::python::convert::Seed;
use crate::python::errors::IllegalActionError;
use crate::python::interrupt::{PySearchStop, interruptible_or_raise, stoppable};
use crate::python::type_error;

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
    pub(crate) game: Game,
}

/// Borrow a game, as an error (not a panic) if it is being changed elsewhere.
pub(crate) fn borrow_game<'py>(game: &Bound<'py, PyOnitama>) -> PyResult<PyRef<'py, PyOnitama>> {
    game.try_borrow()
        .map_err(|_| IllegalActionError::new_err("the game is being changed by another thread"))
}

/// The arguments an AI is called with in `pos`, its cards drawn as in `game`.
pub(crate) fn contract_args<'py>(
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

/// An action number argument as the engine reads it: any int (a Python `int` or a NumPy
/// integer, not a `bool`) from 0 to the number of actions; anything else is an engine error
/// naming what was given and the legal numbers of `pos`.
fn action_number(obj: &Bound<'_, PyAny>, pos: &Position) -> PyResult<usize> {
    let n = (!obj.is_instance_of::<PyBool>())
        .then(|| obj.call_method0("__index__").and_then(|i| i.extract()).ok())
        .flatten();
    Ok(env::index_arg(n, || crate::python::describe(obj), pos)?)
}

/// The Python error for an answer the referee refuses in `game`.
fn judge_error(game: &Game, reason: InvalidAnswer) -> PyErr {
    match reason {
        InvalidAnswer::GameOver => game.game_over_error().into(),
        reason => IllegalActionError::new_err(reason.to_string()),
    }
}

/// The settings of a built-in AI from its arguments.
pub(crate) fn ai_settings(
    level: Level,
    time: SearchTime,
    seed: AiSeed,
    nodes: Option<Nodes>,
    depth: Option<Depth>,
    threads: Threads,
) -> AiSettings {
    AiSettings {
        level: level.0,
        time: time.0,
        seed: seed.0,
        nodes: nodes.map(|n| n.0),
        depth: depth.map(|d| d.0),
        threads: threads.0,
    }
}

/// Run a built-in AI on a game's current position, a search also stopped (with its best
/// action so far) once `linked` is requested. The game is not borrowed during the search
/// (it runs on a copy of the position), so Python code running meanwhile (another
/// thread, a signal handler) may use and change the game.
fn run_ai(
    slf: &Bound<'_, PyOnitama>,
    settings: AiSettings,
    stop: Option<PyRef<'_, PySearchStop>>,
) -> PyResult<SearchInfo> {
    let pos = *borrow_game(slf)?.game.position();
    if pos.is_over() {
        return Err(game_over(&pos).into());
    }
    let mut ai = settings.ai()?;
    Ok(stoppable(slf.py(), stop, move |stop| {
        ai.analyse_in(&pos, stop, None)
    })??)
}

/// What a search found, as the dict of `Onitama.analyse` (and `BuiltinAI.analyse`).
pub(crate) fn info_dict(
    py: Python<'_>,
    info: SearchInfo,
    rules: Variant,
) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("action", PyAction::of(info.action, rules))?;
    d.set_item("score", info.score)?;
    d.set_item("depth", info.depth)?;
    d.set_item("nodes", info.nodes)?;
    d.set_item("exact", info.exact)?;
    d.set_item("pv", actions_list(info.pv, rules))?;
    Ok(d)
}

impl PyOnitama {
    /// The variant the game is played under.
    fn variant(&self) -> Variant {
        self.game.position().rules()
    }
}

#[pymethods]
impl PyOnitama {
    #[new]
    #[pyo3(
        signature = (board = None, cards = None, to_move = None, max_plies = None),
        text_signature = "(board=None, cards=None, to_move='A', max_plies=20)"
    )]
    fn new(
        board: Option<Board>,
        cards: Option<Cards>,
        to_move: Option<ToMove>,
        max_plies: Option<MaxPlies>,
    ) -> PyResult<PyOnitama> {
        let game = Game::from_parts(
            board.map(|b| b.0),
            cards.map(|c| c.0),
            to_move.map(|p| p.0),
            max_plies.map(|n| n.0),
        )?;
        Ok(PyOnitama { game })
    }

    /// A coursework setup by id: 11, 12, 13, 21, 22, 23, 1-5 (the Part 1 cases), or a
    /// name such as 'case21', 'aitest1_A', 'basic43_B', 'readme_start'. `max_plies`
    /// replaces the setup's own ply limit (20 where it gives none).
    #[staticmethod]
    #[pyo3(signature = (id, max_plies = None))]
    fn setup(id: SetupId, max_plies: Option<MaxPlies>) -> PyResult<PyOnitama> {
        let game = Game::from_setup(&id.0, max_plies.map(|n| n.0))?;
        Ok(PyOnitama { game })
    }

    /// The default start board (setup 22's) with five different standard cards dealt at
    /// random from `seed` (the same seed deals the same cards), A to move.
    #[staticmethod]
    #[pyo3(signature = (seed, max_plies = None))]
    fn dealt(seed: Seed, max_plies: Option<MaxPlies>) -> PyResult<PyOnitama> {
        let game = Game::dealt(seed.0, max_plies.map(|n| n.0))?;
        Ok(PyOnitama { game })
    }

    /// A game of standard Onitama (no wall; see docs/rules.md): either `cards`, the five
    /// cards A1, A2, B1, B2, side (a list, or a dict with those keys; names of base or
    /// Sensei's Path cards, or patterns, all different) with `first` ('A' or 'B', default
    /// 'A') to move, or `seed` for five cards dealt at random from `card_set` ('base', the
    /// 16 base cards, the default; 'sensei', the 16 Sensei's Path cards; or 'all' 32), the
    /// side card's stamp colour deciding who moves first (blue A, red B). A starts on row
    /// e, B on row a. `max_plies` (default 1000) ends the game in a tie.
    #[staticmethod]
    #[pyo3(signature = (cards = None, first = None, seed = None, max_plies = None, card_set = None))]
    fn standard(
        cards: Option<Cards>,
        first: Option<First>,
        seed: Option<Seed>,
        max_plies: Option<MaxPlies>,
        card_set: Option<CardSetArg>,
    ) -> PyResult<PyOnitama> {
        let game = Game::standard(
            cards.map(|c| c.0),
            first.map(|p| p.0),
            seed.map(|s| s.0),
            card_set.map(|s| s.0),
            max_plies.map(|n| n.0),
        )?;
        Ok(PyOnitama { game })
    }

    /// This game taken back to its start: a new `Onitama` at the start position, with no
    /// history, from the same setup (its cards drawn the same way).
    fn at_start(&self) -> PyOnitama {
        PyOnitama {
            game: self.game.at_start(),
        }
    }

    /// The player who moved first (to move at the start): 'A' or 'B'.
    #[getter]
    fn first_turn(&self) -> String {
        letter(self.game.first())
    }

    /// The rules: 'wall' (the coursework's variant) or 'standard' (no wall).
    #[getter]
    fn rules(&self) -> &'static str {
        self.variant().name()
    }

    /// Size of the learning environment's action numbering (7510): see `action_index`.
    #[classattr]
    const ACTION_COUNT: usize = env::ACTIONS;

    /// Shape of `observation()`: (11, 5, 5).
    #[classattr]
    const OBSERVATION_SHAPE: (usize, usize, usize) = (env::CHANNELS, 5, 5);

    /// The number of `action` for the player to move (0 to 7509): a pawn move is
    /// ((slot * 25 + from) * 25 + to) * 6 + wall, a pass 7500 + slot * 5 + wall, with slot
    /// 0 or 1, squares row * 5 + col and the wall step 0-4 (u r d l s) in the mover's view
    /// (turned 180 degrees for B), and wall 5 for a winning move. Legal or not.
    fn action_index(&self, action: super::convert::ActionArg) -> usize {
        env::action_index(&action.0.0.action, self.game.position())
    }

    /// The action numbered `index` for the player to move (the inverse of
    /// `action_index`); it may be illegal. InvalidActionError for a bad number.
    fn action_of(&self, index: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        let pos = self.game.position();
        let i = action_number(index, pos)?;
        Ok(PyAction::of(env::action_of(i, pos)?, pos.rules()))
    }

    /// The numbers of the legal actions, ascending (empty once the game is over).
    fn legal_action_indices(&self) -> Vec<usize> {
        env::legal_indices(self.game.position())
    }

    /// The legal-action mask: a NumPy int8 array of 7510 entries, 1 at the number of every
    /// legal action (all 0 once the game is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0u8; env::ACTIONS];
        env::write_mask(self.game.position(), &mut mask);
        PyArray1::from_vec(py, mask.into_iter().map(|m| m as i8).collect())
    }

    /// The position as `player` sees it (default: the player to move): a NumPy float32
    /// array of shape (11, 5, 5), the board turned 180 degrees for B. Planes: own general,
    /// own soldiers, opponent's general, opponent's soldiers, the wall; own cards 1 and 2,
    /// opponent's cards 1 and 2, the side card (1 on each target, -1 on the pawn's
    /// square, as its holder moves on this board); 1 / plies left.
    #[pyo3(signature = (player = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<Viewer>,
    ) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let pos = self.game.position();
        let viewer = player.map_or(pos.side(), |p| p.0);
        let mut obs = vec![0f32; env::OBSERVATION_LEN];
        env::write_observation(pos, viewer, &mut obs);
        PyArray1::from_vec(py, obs).reshape([env::CHANNELS, 5, 5])
    }

    /// Play the legal action numbered `index` (see `action_index`); returns it. A number
    /// that is not an int from 0 to 7509 is an InvalidActionError, one not legal now an
    /// IllegalActionError (both name the legal numbers); nothing changes then.
    fn play_index(&mut self, index: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        let pos = *self.game.position();
        if pos.is_over() {
            return Err(game_over(&pos).into());
        }
        let inner = env::legal_action_of(action_number(index, &pos)?, &pos)?;
        self.game.play(inner)?;
        Ok(PyAction::of(inner, pos.rules()))
    }

    /// The ids of every setup, as `setup` accepts them ('1', ..., '23', 'aitest1_A', ...).
    #[staticmethod]
    fn setup_ids() -> Vec<String> {
        crate::onitama::setups::setup_ids()
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

    /// The actions played so far, oldest first (as Ludo's `Game.history`).
    #[getter]
    fn history(&self) -> Vec<PyAction> {
        actions_list(self.game.actions(), self.variant())
    }

    /// Every legal action now (empty once the game is over), in generator order (as Ludo's
    /// `Game.legal_moves`).
    #[getter]
    fn legal_moves(&self) -> Vec<PyAction> {
        actions_list(self.game.legal_actions(), self.variant())
    }

    /// Deprecated: the old name of `history`.
    #[getter]
    fn actions<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        renamed(slf, "actions", "history")
    }

    /// Deprecated: the old name of `legal_moves`.
    #[getter]
    fn legal_actions<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        renamed(slf, "legal_actions", "legal_moves")
    }

    /// Play an action: an `Action`, its text ('1 e2 d3 u'), or an AI answer tuple
    /// (card, move_from, move_to, wall_dir) judged as the referee does. Returns the action
    /// played. Refused (nothing changes) when illegal or when the game is over.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<PyAction> {
        let variant = self.variant();
        let written = if action.is_instance_of::<PyTuple>() {
            type Four<'py> = [Bound<'py, PyAny>; 4];
            let Ok([card, from, to, wall]) = action.extract::<Four<'_>>() else {
                return Err(type_error(
                    "an answer tuple",
                    "(card, move_from, move_to, wall_dir)",
                    action,
                ));
            };
            let answer = (card.extract()?, from.extract()?, to.extract()?);
            self.judge(answer.0, answer.1, answer.2, wall.extract()?)?.0
        } else if let Ok(text) = action.cast::<pyo3::types::PyString>() {
            // Text is read for the game's rules (a wall step or none), with a clear error
            // for the other rule set's form.
            WrittenAction::parse(text.to_str()?, variant)?
        } else {
            action.extract::<super::convert::ActionArg>()?.0.0
        };
        Ok(PyAction::of(self.game.play_written(written)?, variant))
    }

    /// Judge an AI answer exactly as the tournament referee does: the legal action it
    /// stands for, or IllegalActionError whose message is the referee's reason ('You have
    /// no pawn at e3.', ...). Nothing is played.
    fn judge(
        &self,
        card: CardNumber,
        move_from: MoveFrom,
        move_to: MoveTo,
        wall_dir: WallLetter,
    ) -> PyResult<PyAction> {
        self.game
            .judge(card.0, &move_from.0, &move_to.0, &wall_dir.0)
            .map(|inner| PyAction::of(inner, self.variant()))
            .map_err(|reason| judge_error(&self.game, reason))
    }

    /// Judge a ply as a player types it at the Part 1 program's prompts, part by part: the
    /// card text ('1' or '2'), then with `move_from`, then with `move_to`. Raises
    /// IllegalActionError with the program's message for the first wrong part; returns None
    /// while the move is not complete, then its action with the wall staying (a winning
    /// move has none). A pass needs only the card. Nothing is played.
    #[pyo3(signature = (card, move_from = None, move_to = None))]
    fn judge_typed(
        &self,
        card: CardText,
        move_from: Option<MoveFrom>,
        move_to: Option<MoveTo>,
    ) -> PyResult<Option<PyAction>> {
        let from = move_from.as_ref().map(|m| m.0.as_str());
        let to = move_to.as_ref().map(|m| m.0.as_str());
        self.game
            .judge_typed(&card.0, from, to)
            .map(|a| a.map(|inner| PyAction::of(inner, self.variant())))
            .map_err(|reason| judge_error(&self.game, reason))
    }

    /// Take back the last action; returns it.
    fn undo(&mut self) -> PyResult<PyAction> {
        Ok(PyAction::of(self.game.undo()?, self.variant()))
    }

    /// Is the game over (won, or no plies left)?
    fn is_over(&self) -> bool {
        self.game.position().is_over()
    }

    /// The winner, 'A' or 'B', or None (still playing, or a tie).
    #[getter]
    fn winner(&self) -> Option<String> {
        self.game.outcome().and_then(|o| o.winner()).map(letter)
    }

    /// How the game ended: `Reason.BASE_REACHED`, `Reason.GENERAL_CAPTURED`,
    /// `Reason.PLY_LIMIT` (a tie), or None while it goes on.
    #[getter]
    fn result_reason<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.game
            .outcome()
            .map(|o| super::REASON.of(py, o.reason()))
            .transpose()
    }

    /// The coursework program's "0" listing of the moves now: `Card 1, e2->d3`, by card,
    /// then start and target square in MATLAB's column-major order.
    fn move_listing(&self) -> Vec<String> {
        coursework::listing(self.game.position())
    }

    /// The coursework program's words for `action` (not yet played) when its pawn move
    /// captures a soldier, else None.
    fn capture_message(&self, action: super::convert::ActionArg) -> Option<String> {
        coursework::capture_message(self.game.position(), action.0.0.action.to()?)
    }

    /// How the game ended (an `Outcome`: termination, winner, ranking), or None while it
    /// goes on.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(o) = self.game.outcome() else {
            return Ok(None);
        };
        let ranking = o.ranking().into_iter().map(|p| p.letter()).collect();
        crate::python::enums::outcome_object(py, o.reason(), ranking).map(Some)
    }

    /// The coursework program's words for the winner of a won game, else None.
    fn win_message(&self) -> Option<String> {
        self.game.outcome()?.win_message()
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

    /// The action a built-in AI plays now (see `BuiltinAI`): level 0 random, 1 the
    /// coursework baseline, 2 the search (with `time` seconds, or deterministic with a
    /// `nodes` budget on one thread; `threads` searches on that many). As Ludo's
    /// `Game.best_move`.
    #[pyo3(
        signature = (level = Level::DEFAULT, time = SearchTime::DEFAULT, seed = AiSeed::DEFAULT, nodes = None, depth = None, threads = Threads::DEFAULT),
        text_signature = "(self, level=2, time=1.0, seed=0, nodes=None, depth=None, threads=1)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn best_move(
        slf: &Bound<'_, Self>,
        level: Level,
        time: SearchTime,
        seed: AiSeed,
        nodes: Option<Nodes>,
        depth: Option<Depth>,
        threads: Threads,
    ) -> PyResult<PyAction> {
        let settings = ai_settings(level, time, seed, nodes, depth, threads);
        let info = run_ai(slf, settings, None)?;
        Ok(PyAction::of(info.action, borrow_game(slf)?.variant()))
    }

    /// Deprecated: the old name of `best_move`.
    #[pyo3(
        signature = (*args, **kwargs),
        text_signature = "(self, level=2, time=1.0, seed=0, nodes=None, depth=None, threads=1)"
    )]
    fn best_action<'py>(
        slf: &Bound<'py, Self>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        renamed(slf, "best_action", "best_move")?.call(args, kwargs)
    }

    /// What a built-in AI finds now, as a dict: action, score (for the side to move; above
    /// 29000 a forced win, below -29000 a forced loss), depth, nodes, exact, pv (the
    /// expected line). `stop`, a `SearchStop`, ends the search early from another thread
    /// (within about 20 ms of its `request()`): the answer is then the best action found so
    /// far. `time=None` with no `nodes` nor `depth` searches until stopped (or the ply
    /// horizon). `threads` searches on that many threads sharing one table (the nodes are
    /// every thread's).
    #[pyo3(
        signature = (level = Level::DEFAULT, time = SearchTime::DEFAULT, seed = AiSeed::DEFAULT, nodes = None, depth = None, stop = None, threads = Threads::DEFAULT),
        text_signature = "(self, level=2, time=1.0, seed=0, nodes=None, depth=None, stop=None, threads=1)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        slf: &Bound<'py, Self>,
        level: Level,
        time: SearchTime,
        seed: AiSeed,
        nodes: Option<Nodes>,
        depth: Option<Depth>,
        stop: Option<PyRef<'py, PySearchStop>>,
        threads: Threads,
    ) -> PyResult<Bound<'py, PyDict>> {
        let settings = ai_settings(level, time, seed, nodes, depth, threads);
        let info = run_ai(slf, settings, stop)?;
        info_dict(slf.py(), info, borrow_game(slf)?.variant())
    }

    /// The number of action sequences of `depth` plies (a winning action counts 1 and
    /// ends its sequence), as in the golden data's perft.json. The game is not borrowed
    /// meanwhile (the count runs on a copy of the position).
    fn perft(slf: &Bound<'_, Self>, depth: PerftDepth) -> PyResult<u64> {
        let pos = *borrow_game(slf)?.game.position();
        interruptible_or_raise(slf.py(), move |stop| perft_until(&pos, depth.0, stop))?
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
    fn from_notation(text: NotationText) -> PyResult<PyOnitama> {
        Ok(PyOnitama {
            game: Game::from_notation(&text.0)?,
        })
    }

    /// The whole game (start, setup, card drawings, every action) as a JSON string.
    fn to_json(&self) -> String {
        self.game.to_json()
    }

    /// A game read from `to_json`'s output: the actions are replayed and checked, and a
    /// `setup` id whose position is not the JSON's `start` (its ply limit aside) is refused.
    #[staticmethod]
    fn from_json(text: JsonText) -> PyResult<PyOnitama> {
        Ok(PyOnitama {
            game: Game::from_json(&text.0)?,
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let json = borrow_game(slf)?.game.to_json();
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
    fn draw(&self, player: Option<Viewer>) -> String {
        let viewer = player.map_or(self.game.position().side(), |p| p.0);
        self.game.draw(viewer)
    }

    /// The drawing of `draw()`.
    fn __str__(&self) -> String {
        self.game.draw(self.game.position().side())
    }

    /// The position as a small RGB picture: a NumPy uint8 array of shape (216, 320, 3),
    /// the board as `draw()` shows it (A red, B blue, the wall dark grey) and the cards.
    fn rgb_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let img = crate::onitama::render::rgb(self.game.position());
        PyArray1::from_vec(py, img.pixels).reshape([img.height, img.width, 3])
    }

    /// The position as an SVG image (shown by Jupyter notebooks).
    fn _repr_svg_(&self) -> String {
        self.game.svg()
    }
}

/// `new` of the game, warning that its old name `old` is used (a `DeprecationWarning`,
/// raised if warnings are errors).
fn renamed<'py>(slf: &Bound<'py, PyOnitama>, old: &str, new: &str) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let text = format!("Onitama.{old} is deprecated: use Onitama.{new}");
    let text = std::ffi::CString::new(text).expect("no NUL in a name");
    PyErr::warn(py, &py.get_type::<PyDeprecationWarning>(), &text, 1)?;
    slf.getattr(new)
}
