//! Compact text notations that round-trip exactly:
//! - rules: the preset's name and any changed options, `standard[tokens=2,safe_squares=true]`;
//! - a position ([`Game::to_notation`]): rules, every token's step count, whose turn and
//!   phase, the turn's counters, the last pass, the ranking and the die's state, e.g.
//!   `cs162 A28.28/B21.-1 A:r:0:0 - - 000000000000002a` (the fields are described at
//!   [`Game::from_notation`]); the die's state may be hidden, `-` (a position shown to
//!   players who must not know the coming rolls: [`Game::to_notation_hiding_die`]);
//! - a game's moves ([`GameRecord::moves_text`]): rolls and move names separated by
//!   spaces, a given (not rolled) value marked `=`: `6 Ap 4 Ap =3`.

use crate::common::excerpt::excerpt;
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use super::board::{Step, in_yard};
use super::error::LudoError;

use super::game::{Event, Game, GameRecord, Phase, Turn, TurnBuilder};
use super::rng::Rng;
use super::rules::{EndCondition, OPTION_NAMES, OptionValue, OwnTokens, Rules, Seat};

fn bad(what: &str, text: &str) -> LudoError {
    LudoError::InvalidNotation(format!("{what} in '{}'", excerpt(text)))
}

/// The rules as text: the preset's name, then the options that differ from it, e.g.
/// `standard[six_limit=3]` ([`Rules::from_str`] reads it back).
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = Rules::preset(self.name()).unwrap_or(Rules::CS162).options();
        let changed: Vec<String> = self
            .options()
            .into_iter()
            .zip(base)
            .filter(|(a, b)| a != b)
            .map(|((name, value), _)| format!("{name}={value}"))
            .collect();
        f.write_str(self.name())?;
        if !changed.is_empty() {
            write!(f, "[{}]", changed.join(","))?;
        }
        Ok(())
    }
}

/// Read rules written by their [`Display`](fmt::Display) (and validate them).
impl FromStr for Rules {
    type Err = LudoError;

    fn from_str(text: &str) -> Result<Rules, LudoError> {
        let (name, options) = match text.split_once('[') {
            Some((name, rest)) => (
                name,
                rest.strip_suffix(']')
                    .ok_or_else(|| bad("unclosed option list", text))?,
            ),
            None => (text, ""),
        };
        let mut rules = Rules::preset(name)?;
        for item in options.split(',').filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad("an option without '='", text))?;
            if !OPTION_NAMES.contains(&key) {
                return Err(bad(&format!("unknown option '{}'", excerpt(key)), text));
            }
            let Ok(value) = value.parse::<OptionValue>();
            rules.set_option(key, &value)?;
        }
        rules.validate()?;
        Ok(rules)
    }
}

/// The die field of a position whose die is hidden ([`Game::to_notation_hiding_die`]).
pub const HIDDEN_DIE: &str = "-";

/// Where the die of a position (or of a saved game) comes from when it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DieSeed {
    /// The state the notation writes; a hidden die (`-`) is refused.
    Written,
    /// A die seeded with this seed, in place of the state the notation writes.
    Seed(u64),
    /// The state the notation writes or, where it hides the die, a die seeded with this
    /// seed.
    IfHidden(u64),
}

impl DieSeed {
    /// The seed the die starts from when the notation writes the die state `written`
    /// (None: hidden); `Ok(None)` keeps the state written.
    fn seed_for(self, written: Option<u64>) -> Result<Option<u64>, &'static str> {
        match (self, written) {
            (DieSeed::Seed(s), _) | (DieSeed::IfHidden(s), None) => Ok(Some(s)),
            (_, Some(_)) => Ok(None),
            (DieSeed::Written, None) => {
                Err("the die's state is hidden ('-'): give a seed for the die")
            }
        }
    }
}

impl Game {
    /// The position as one line of text; [`Game::from_notation`] reads it back exactly.
    pub fn to_notation(&self) -> String {
        self.notation(true)
    }

    /// The position as [`Game::to_notation`] writes it, but with the die's state hidden
    /// (written [`HIDDEN_DIE`], `-`): what players who must not know the coming rolls
    /// may see. [`Game::from_notation_seeded`] reads it with a die of the caller's.
    pub fn to_notation_hiding_die(&self) -> String {
        self.notation(false)
    }

    fn notation(&self, die: bool) -> String {
        let r = &self.rules;
        let board: Vec<String> = self
            .seats()
            .map(|seat| {
                let steps: Vec<String> = self.board.seat_steps(seat)[..r.tokens as usize]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                format!("{}{}", r.seat_labels[seat], steps.join("."))
            })
            .collect();
        let phase = match self.turn.phase() {
            Phase::Roll => "r".to_owned(),
            Phase::Move(roll) => format!("m{roll}"),
            Phase::Over => "o".to_owned(),
        };
        let passed = match self.passed() {
            None => "-".to_owned(),
            Some((seat, forfeit)) => {
                format!("{}{}", r.seat_label(seat), if forfeit { "!" } else { "" })
            }
        };
        let ranking: String = self.ranking().map(|s| r.seat_label(s)).collect();
        let die = if die {
            format!("{:016x}", self.rng.state())
        } else {
            HIDDEN_DIE.to_owned()
        };
        format!(
            "{} {} {}:{}:{}:{} {} {} {}",
            r,
            board.join("/"),
            r.seat_label(self.turn.current()),
            phase,
            self.turn.sixes(),
            u8::from(self.turn.extra()),
            passed,
            if ranking.is_empty() {
                "-".to_owned()
            } else {
                ranking
            },
            die
        )
    }

    /// Read a position written by [`Game::to_notation`]. It has six fields, separated by
    /// spaces:
    ///
    /// 1. the rules (as [`Rules`] display);
    /// 2. every playing seat's step counts, `A3.-1/C-1.-1` (the seat's label, then one
    ///    step count per token);
    /// 3. the turn, `current:phase:sixes:extra`: whose turn it is (the last mover once the
    ///    game is over); the phase (`r` roll, `m1`-`m6` move with that pending roll, `o`
    ///    over); the 6s rolled in a row in this turn (a pending 6 counts); `1` when the next
    ///    (or pending) roll is an extra roll, else `0`;
    /// 4. whose turn passed without a move just before this roll: `-` nobody, `B` B could
    ///    not move, `B!` B forfeited the turn by reaching the six limit;
    /// 5. the ranking so far, best first (`-` when empty);
    /// 6. the die's state, in hexadecimal; or `-` where it is hidden
    ///    ([`Game::to_notation_hiding_die`]), which this refuses: read such a position with
    ///    [`Game::from_notation_seeded`], giving the die a seed.
    ///
    /// A position is read only if it passes every check below; otherwise the error (always
    /// [`LudoError::InvalidNotation`], even for unknown rules) names the first check that
    /// fails.
    /// - The board: every step count in range, no two players on one track square (unless
    ///   it is safe), no two tokens on one start slot, no two own tokens on one square
    ///   where the rules bump.
    /// - The end: every finished player ranked and only finished players ranked (but the
    ///   last of a full ranking); no more players finished than the end condition lets
    ///   finish; the phase is `o` exactly when the game is over; the current player has
    ///   not finished, or, once the game is over, is the last player who did.
    /// - The turn: the counters and the pass are a state that the engine's own turn rules
    ///   produce in these rules. They are run from the start of a turn over every die
    ///   value and every outcome a roll or a move may have, so that, e.g., a count of 6s
    ///   under a pending roll that is not a 6, a run of 6s past the six limit or longer
    ///   than the 6s' extra rolls allow, an extra roll that no 6, capture or finish bonus
    ///   gives, a forfeit without a six limit, or a pass by anyone but the player before
    ///   the current one (or the current player itself, after a 6 that gives another roll
    ///   but could not be used) are refused. A pass is only shown while waiting for a
    ///   roll, and nothing is pending once the game is over.
    /// - The turn against the board: a pending roll has a legal move, and a player whose
    ///   turn passed for want of a move has no move with some roll that passes the turn.
    ///
    /// These checks are about the position alone: the history that led to it is not
    /// checked (e.g. the order in which players finished, or whether a capture the board
    /// needs could have happened).
    pub fn from_notation(text: &str) -> Result<Game, LudoError> {
        Ok(Game::from_notation_seeded(text, DieSeed::Written)?.0)
    }

    /// A position read as [`Game::from_notation`] reads it, with its die from `die` (the
    /// state written, or a die seeded with a seed of the caller's); also the seed the die
    /// was seeded with (None: it has the state written).
    pub fn from_notation_seeded(
        text: &str,
        die: DieSeed,
    ) -> Result<(Game, Option<u64>), LudoError> {
        let (mut game, written) = Game::read_notation(text)?;
        let seed = die.seed_for(written).map_err(|what| bad(what, text))?;
        if let Some(seed) = seed {
            game.rng = Rng::new(seed);
        }
        Ok((game, seed))
    }

    /// The position `text` and the die state it writes (None: hidden; the game's die is
    /// then seeded with 0).
    fn read_notation(text: &str) -> Result<(Game, Option<u64>), LudoError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [rules, board, turn, passed, ranking, rng] = fields[..] else {
            return Err(bad(
                "expected 6 fields (rules board turn passed ranking die)",
                text,
            ));
        };
        // Every error is an invalid notation, rules that are not valid too.
        let rules = rules.parse::<Rules>().map_err(|e| match e {
            LudoError::InvalidNotation(_) => e,
            other => bad(&format!("the rules field: {other}"), text),
        })?;
        let seat_of = |c: char| {
            rules
                .seat_of(c)
                .ok_or_else(|| bad(&format!("unknown position '{c}'"), text))
        };

        let mut seats: Vec<Seat> = Vec::new();
        let mut steps: Vec<Vec<Step>> = Vec::new();
        for part in board.split('/') {
            let mut chars = part.chars();
            let seat = seat_of(
                chars
                    .next()
                    .ok_or_else(|| bad("an empty board part", text))?,
            )?;
            if seats.contains(&seat) {
                return Err(bad("a position listed twice", text));
            }
            let values: Result<Vec<Step>, _> = chars
                .as_str()
                .split('.')
                .map(|v| v.parse::<Step>())
                .collect();
            let values = values.map_err(|_| bad("a step count that is not a number", text))?;
            if values.len() != rules.tokens as usize {
                return Err(bad(
                    &format!(
                        "{} step counts for '{part}' (the rules have {} tokens)",
                        values.len(),
                        rules.tokens
                    ),
                    text,
                ));
            }
            seats.push(seat);
            steps.push(values);
        }
        let mut order = seats.clone();
        order.sort();
        let mut game = Game::new(rules, &order, 0)?;
        for (&seat, values) in seats.iter().zip(&steps) {
            for (t, &s) in rules.all_tokens().zip(values) {
                let lowest = if rules.yard_slots {
                    -(rules.tokens as Step)
                } else {
                    -1
                };
                if s < lowest || s > rules.finish_step {
                    return Err(bad(&format!("step count {s} out of range"), text));
                }
                game.board.set_step(seat, t, s);
            }
            if rules.yard_slots {
                let yard: Vec<Step> = values.iter().copied().filter(|&s| in_yard(s)).collect();
                if (1..yard.len()).any(|i| yard[..i].contains(&yard[i])) {
                    return Err(bad("two tokens on one start slot", text));
                }
            }
            if rules.own_tokens == OwnTokens::Bump {
                let out: Vec<Step> = values.iter().copied().filter(|&s| !in_yard(s)).collect();
                if (1..out.len()).any(|i| out[..i].contains(&out[i])) {
                    return Err(bad("two own tokens on one square (bumping rules)", text));
                }
            }
        }
        for (i, &a) in order.iter().enumerate() {
            for &c in &order[i + 1..] {
                for ta in rules.all_tokens() {
                    for tc in rules.all_tokens() {
                        let x = rules.track_square(a, game.board.step(a, ta));
                        if x.is_some()
                            && x == rules.track_square(c, game.board.step(c, tc))
                            && !rules.is_safe_square(x.unwrap_or(0))
                        {
                            return Err(bad("two players on one track square", text));
                        }
                    }
                }
            }
        }

        let tf: Vec<&str> = turn.split(':').collect();
        let [current, phase, sixes, extra] = tf[..] else {
            return Err(bad("the turn field is not current:phase:sixes:extra", text));
        };
        let mut turn = TurnBuilder::new(game.board.seat_mask());
        let fail = |what: &str| bad(what, text);
        let mut cc = current.chars();
        match (cc.next(), cc.next()) {
            (Some(c), None) => turn.current(seat_of(c)?).map_err(fail)?,
            _ => return Err(bad("the current player is not one position", text)),
        };
        turn.phase(match phase {
            "r" => Phase::Roll,
            "o" => Phase::Over,
            p if p.len() == 2 && p.starts_with('m') => match p[1..].parse::<u8>() {
                Ok(roll @ 1..=6) => Phase::Move(roll),
                _ => return Err(bad("a pending roll outside 1-6", text)),
            },
            _ => return Err(bad("the phase is not r, m1-m6 or o", text)),
        });
        let Ok(sixes) = sixes.parse::<u8>() else {
            return Err(bad(
                "the count of 6s in a row is not a number from 0 to 255",
                text,
            ));
        };
        let extra = match extra {
            "0" => false,
            "1" => true,
            _ => return Err(bad("the extra-roll flag is not 0 or 1", text)),
        };
        turn.counters(sixes, extra);
        match passed {
            "-" => turn.passed(None, false),
            p => {
                let (label, forfeit) = match p.strip_suffix('!') {
                    Some(l) => (l, true),
                    None => (p, false),
                };
                let mut lc = label.chars();
                match (lc.next(), lc.next()) {
                    (Some(c), None) => turn.passed(Some(seat_of(c)?), forfeit),
                    _ => Err("the passed player does not play"),
                }
            }
        }
        .map_err(fail)?;
        if ranking != "-" {
            for c in ranking.chars() {
                turn.rank(seat_of(c)?).map_err(fail)?;
            }
        }
        game.turn = turn.build();
        let written = if rng == HIDDEN_DIE {
            None
        } else {
            Some(
                u64::from_str_radix(rng, 16)
                    .map_err(|_| bad("the die state is not hexadecimal (nor '-')", text))?,
            )
        };
        game.rng = Rng::new(written.unwrap_or(0));
        // Only the state the engine itself could have reached: a rolled-back replay of
        // the checks the engine keeps while playing.
        game.refresh_pending();
        check_consistent(&game).map_err(|what| bad(&what, text))?;
        Ok((game, written))
    }
}

impl GameRecord {
    /// Every roll and move so far as text: `6 Ap 4 Ap =3` (`=` marks a value given by the
    /// caller instead of rolled with the die).
    pub fn moves_text(&self) -> String {
        self.words(true)
    }

    /// Every roll and move so far as [`GameRecord::moves_text`] writes them, but every
    /// roll as a given value (`=6`): the game's moves without its die.
    pub fn moves_text_hiding_die(&self) -> String {
        self.words(false)
    }

    fn words(&self, die: bool) -> String {
        let mut words = Vec::with_capacity(self.past.len());
        for (before, event) in &self.past {
            words.push(match *event {
                Event::Roll {
                    value, die: true, ..
                } if die => value.to_string(),
                Event::Roll { value, .. } => format!("={value}"),
                Event::Move { mv, .. } => before.move_name(&mv),
            });
        }
        words.join(" ")
    }

    /// Replay `text` (as written by [`GameRecord::moves_text`]) from `start`; every roll
    /// and move is checked as if played. Die rolls must match what the die gives.
    pub fn replay(start: Game, text: &str) -> Result<GameRecord, LudoError> {
        let mut record = GameRecord::new(start);
        for (i, word) in text.split_whitespace().enumerate() {
            let at = |e: LudoError| LudoError::InTurn {
                index: i,
                source: Box::new(e),
            };
            if let Some(v) = word.strip_prefix('=') {
                let value = v
                    .parse::<u8>()
                    .map_err(|_| at(LudoError::InvalidRoll(v.to_owned())))?;
                record.roll(Some(value)).map_err(at)?;
            } else if let Ok(value) = word.parse::<u8>() {
                let event = record.roll(None).map_err(at)?;
                if !matches!(event, Event::Roll { value: v, .. } if v == value) {
                    record.undo();
                    return Err(at(LudoError::InvalidNotation(format!(
                        "the die gives another value than {value} here"
                    ))));
                }
            } else {
                let mv = record.game().parse_move(word).map_err(at)?;
                record.play(mv).map_err(at)?;
            }
        }
        Ok(record)
    }

    /// The same game with a die seeded by `seed` from its start, every roll so far a given
    /// value: a game continued with another die than the one it was played with.
    pub fn with_die(&self, seed: u64) -> Result<GameRecord, LudoError> {
        let mut start = self.start;
        start.rng = Rng::new(seed);
        let mut record = GameRecord::new(start);
        for event in self.events() {
            match *event {
                Event::Roll { value, .. } => record.roll(Some(value))?,
                Event::Move { mv, .. } => record.play(mv)?,
            };
        }
        Ok(record)
    }
}

mod save;
mod validate;
pub use save::{JSON_FORMAT, SavedGame};
use validate::check_consistent;

#[cfg(test)]
mod tests;
