//! Onitama's Python arguments as typed values: each newtype's `FromPyObject` reads one kind
//! of argument, with the strictness of [`crate::python::convert`] (an `int` is never a
//! `bool`; a number out of range names the argument and its range) and the engine's error
//! classes (`InvalidAIError` for AI settings, `InvalidBoardError` for ply counts, ...).

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::PyCard;
use crate::onitama::notation::WrittenAction;
use crate::onitama::{
    AiFailure, AiSettings, CardSet, CardSlot, Drawing, EndgameTable, OnitamaError, Player,
    Position, Variant, args,
};
use crate::python::convert::{InvalidArgumentError, arg, as_engine, int_arg, int_in, seconds_in};
use crate::python::{describe, type_error};

/// A whole number from `lo` to `hi`, its range error as the engine's error `class`.
pub(crate) fn whole(
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: i128,
    hi: i128,
    class: fn(String) -> OnitamaError,
) -> PyResult<i128> {
    int_in(obj, what, lo, hi).map_err(|e| as_engine(e, obj.py(), class))
}

/// A `str` argument (a lone surrogate becomes U+FFFD and then fails the engine's checks).
pub(crate) fn str_arg(obj: &Bound<'_, PyAny>, what: &str, expected: &str) -> PyResult<String> {
    obj.cast::<PyString>()
        .map(|s| s.to_string_lossy().into_owned())
        .map_err(|_| type_error(what, expected, obj))
}

/// A player: the `str` 'A' or 'B'.
pub(crate) fn player_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Player> {
    Ok(args::player(&str_arg(obj, what, "'A' or 'B'")?, what)?)
}

/// A ply count from 0 to 65535.
pub(crate) fn plies_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u16> {
    Ok(whole(obj, what, 0, u16::MAX as i128, OnitamaError::BadBoard)? as u16)
}

/// Rows given as a list or tuple of `str`.
fn rows_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    obj.try_iter()?
        .map(|item| str_arg(&item?, what, "a str"))
        .collect()
}

/// A board: 5 strings, or one string with the rows separated by '/'.
pub(crate) fn board_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    const EXPECTED: &str = "5 strings or one string with rows separated by '/'";
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_string_lossy().split('/').map(str::to_owned).collect());
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return rows_arg(obj, "a board row");
    }
    Err(type_error("board", EXPECTED, obj))
}

/// A card: a `Card`, a standard card's name, a pattern with rows separated by '/', or 5
/// row strings. Returns the card and the rows to draw it with.
pub(crate) fn card_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Drawing> {
    const EXPECTED: &str = "a Card, a card name, a '/'-separated pattern or 5 row strings";
    if let Ok(c) = obj.cast::<PyCard>() {
        let c = c.get();
        return Ok((c.card, c.rows.clone()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(args::card_text(&s.to_string_lossy(), what)?);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        return Ok(args::card_rows(rows_arg(obj, "a card row")?, what)?);
    }
    Err(type_error(what, EXPECTED, obj))
}

arg!(/// The text of a position's notation.
    NotationText(String) = |o| str_arg(o, "notation", "a str"));
arg!(/// The text of a game's JSON.
    JsonText(String) = |o| str_arg(o, "JSON text", "a str"));
arg!(/// A card number as typed ('1' or '2').
    CardText(String) = |o| str_arg(o, "card", "a str"));
arg!(/// An answer's start square.
    MoveFrom(String) = |o| str_arg(o, "move_from", "a str"));
arg!(/// An answer's target square.
    MoveTo(String) = |o| str_arg(o, "move_to", "a str"));
arg!(/// An answer's wall letter.
    WallLetter(String) = |o| str_arg(o, "wall_dir", "a str"));
arg!(/// The side to move of a new game.
    ToMove(Player) = |o| player_arg(o, "to_move"));
arg!(/// Who moves first in a standard game with given cards.
    First(Player) = |o| player_arg(o, "first"));
arg!(/// A player whose view is asked for.
    Viewer(Player) = |o| player_arg(o, "player"));
arg!(/// A board argument (see [`board_arg`]).
    Board(Vec<String>) = board_arg);
arg!(/// A card argument (see [`card_arg`]).
    CardSpec(Drawing) = |o| card_arg(o, "card"));
arg!(/// A card set of a random standard deal: the str 'base', 'sensei' or 'all'.
CardSetArg(CardSet) = |o| {
    let name = str_arg(o, "card_set", "'base', 'sensei' or 'all'")?;
    Ok(CardSet::from_name(&name)?)
});
arg!(/// A refereed match's time budget an answer.
TimeBudget(Duration) = |o| {
    let s = seconds_in(o, "time_budget", AiSettings::MAX_SECONDS);
    let s = s.map_err(|e| as_engine(e, o.py(), OnitamaError::BadAi))?;
    Ok(Duration::from_secs_f64(s))
});
arg!(/// A setup id: an int or a str (`21`, `'case21'`, `'aitest1_A'`).
SetupId(String) = |o| {
    if o.is_instance_of::<pyo3::types::PyInt>() && !o.is_instance_of::<pyo3::types::PyBool>() {
        return Ok(o.str()?.to_string_lossy().into_owned());
    }
    str_arg(o, "setup", "an int or str setup id")
});
int_arg!(/// A game's ply limit (`max_plies`).
    MaxPlies, "max_plies", u16, 0, u16::MAX, OnitamaError::BadBoard);
int_arg!(/// A built-in AI's seed.
    AiSeed, "seed", u64, 0, u64::MAX, OnitamaError::BadAi);
int_arg!(/// A search's node budget.
    Nodes, "nodes", u64, 1, AiSettings::MAX_NODES, OnitamaError::BadAi);
int_arg!(/// A search's depth cap.
    Depth, "depth", u32, 1, AiSettings::MAX_DEPTH, OnitamaError::BadAi);
int_arg!(/// A search's threads.
    Threads, "threads", usize, 1, AiSettings::MAX_THREADS, OnitamaError::BadAi);
int_arg!(/// The most pieces of an endgame table's positions.
    Pieces, "pieces", u32, EndgameTable::MIN_PIECES, EndgameTable::MAX_PIECES, OnitamaError::BadAi);
int_arg!(/// A memory cap, in bytes.
    MaxBytes, "max_bytes", u64, 1, u64::MAX, OnitamaError::BadAi);
int_arg!(/// A perft depth.
    PerftDepth, "perft depth", u32, 0, crate::onitama::perft::MAX_PERFT_DEPTH, OnitamaError::BadAi);

arg!(/// A built-in AI's level: 0 (random), 1 (baseline) or 2 (search), by number or by name.
Level(u8) = |o| {
    if let Ok(name) = o.cast::<PyString>() {
        return Ok(AiSettings::level_of(&name.to_string_lossy())?);
    }
    let max = crate::onitama::ai::MAX_LEVEL as i128;
    Ok(whole(o, "level", 0, max, AiSettings::level_error)? as u8)
});
arg!(/// A search's time a move: a number of seconds, or `None` for no time limit.
SearchTime(Option<f64>) = |o| {
    if o.is_none() {
        return Ok(None);
    }
    let s = seconds_in(o, "time", AiSettings::MAX_SECONDS);
    Ok(Some(s.map_err(|e| as_engine(e, o.py(), OnitamaError::BadAi))?))
});

impl Level {
    /// The default level ([`AiSettings::DEFAULT`]).
    pub(crate) const DEFAULT: Level = Level(AiSettings::DEFAULT.level);
}

impl AiSeed {
    /// The default seed ([`AiSettings::DEFAULT`]).
    pub(crate) const DEFAULT: AiSeed = AiSeed(AiSettings::DEFAULT.seed);
}

impl SearchTime {
    /// The default time ([`AiSettings::DEFAULT`]).
    pub(crate) const DEFAULT: SearchTime = SearchTime(AiSettings::DEFAULT.time);
}

impl Threads {
    /// The default threads ([`AiSettings::DEFAULT`]).
    pub(crate) const DEFAULT: Threads = Threads(AiSettings::DEFAULT.threads);
}

/// The five cards `A1 A2 B1 B2 side`: a dict with exactly those keys, or a list or tuple
/// of 5 cards.
pub(crate) struct Cards(pub Vec<Drawing>);

impl<'a, 'py> FromPyObject<'a, 'py> for Cards {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let read = |slot: CardSlot, v: &Bound<'_, PyAny>| card_arg(v, &args::card_place(slot));
        if let Ok(d) = obj.cast::<PyDict>() {
            let get = |slot: CardSlot| d.get_item(slot.name())?.map(|v| read(slot, &v)).transpose();
            return args::cards_named(d.len(), get).map(Cards);
        }
        if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
            let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
            return args::cards_listed(&items, read).map(Cards);
        }
        Err(type_error(
            "cards",
            "a dict with keys A1, A2, B1, B2, side, or a list of 5 cards",
            &obj,
        ))
    }
}

arg!(/// An answer's card number: any `int` (not a `bool`); one too big for 64 bits is read as
/// an invalid number.
CardNumber(i64) = |o| match int_in(o, "card", i128::MIN, i128::MAX) {
    Ok(v) => Ok(i64::try_from(v).unwrap_or(i64::MAX)),
    Err(e) if e.is_instance_of::<InvalidArgumentError>(o.py()) => Ok(i64::MAX),
    Err(e) => Err(e),
});

/// A Python AI's answer: a tuple or list (card, move_from, move_to, wall_dir) of an int
/// and three strs, or the failure of an AI that returned something else.
pub(crate) fn read_answer(v: &Bound<'_, PyAny>) -> Result<crate::onitama::Answer, AiFailure> {
    let bad = || AiFailure::not_an_answer(&describe(v));
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
    if card.is_instance_of::<pyo3::types::PyBool>() || !card.hasattr("__index__").unwrap_or(false) {
        return Err(bad());
    }
    let card = card.extract::<i64>().unwrap_or(i64::MAX);
    let s = |x: &Bound<'_, PyAny>| {
        x.cast::<PyString>()
            .map(|s| s.to_string_lossy().into_owned())
            .map_err(|_| bad())
    };
    Ok(crate::onitama::Answer::new(
        card,
        s(from)?,
        s(to)?,
        s(wall)?,
    ))
}

/// The position an AI is called in, from the contract's eight arguments.
pub(crate) fn contract_position(args: &[&Bound<'_, PyAny>; 8]) -> PyResult<Position> {
    let side = player_arg(args[0], "current_player")?;
    let board = board_arg(args[1])?;
    let names = ["cardA1", "cardA2", "cardB1", "cardB2", "side_card"];
    let mut cards = [crate::onitama::STANDARD_CARDS[0]; 5];
    for (i, name) in names.iter().enumerate() {
        cards[i] = card_arg(args[2 + i], name)?.0;
    }
    let turn = plies_arg(args[7], "turn")?;
    Ok(Position::from_rows(&board, cards, side, turn)?)
}

arg!(/// An action argument: an `Action`, or its text ('1 e2 d3 u'; standard Onitama's
/// '1 e2 d3'), as a Python `Action` (which knows the rules its text is written for).
ActionArg(super::PyAction) = |o| match o.cast::<super::PyAction>() {
    Ok(a) => Ok(*a.get()),
    Err(_) => {
        let s = str_arg(o, "action", "an Action or its text such as '1 e2 d3 u'")?;
        Ok(super::PyAction(WrittenAction::parse(&s, Variant::Wall)?))
    }
});
