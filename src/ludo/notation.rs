//! Compact text notations that round-trip exactly:
//! - rules: the preset's name and any changed options, `standard[tokens=2,safe_squares=true]`;
//! - a position ([`Game::to_notation`]): rules, every token's step count, whose turn and
//!   phase, the turn's counters, the last pass, the ranking and the die's state, e.g.
//!   `cs162 A28.28/B21.-1 A:r:0:0 - - 000000000000002a` (the fields are described at
//!   [`Game::from_notation`]);
//! - a game's moves ([`GameRecord::moves_text`]): rolls and move names separated by
//!   spaces, a given (not rolled) value marked `=`: `6 Ap 4 Ap =3`.

use super::board::{Step, in_yard};
use super::error::LudoError;
use std::collections::HashSet;

use super::game::{Event, Game, GameRecord, NONE, Phase, Turn};
use super::rng::Rng;
use super::rules::{EndCondition, OPTION_NAMES, OptionValue, OwnTokens, Rules, Seat};

fn bad(what: &str, text: &str) -> LudoError {
    LudoError::InvalidNotation(format!("{what} in '{text}'"))
}

impl Rules {
    /// The rules as text: the preset's name, then the options that differ from it.
    pub fn to_notation(&self) -> String {
        let base = Rules::preset(self.name()).unwrap_or(Rules::CS162).options();
        let changed: Vec<String> = self
            .options()
            .into_iter()
            .zip(base)
            .filter(|(a, b)| a != b)
            .map(|((name, value), _)| match value {
                OptionValue::Str(s) => format!("{name}={s}"),
                other => format!("{name}={other}"),
            })
            .collect();
        if changed.is_empty() {
            self.name().to_owned()
        } else {
            format!("{}[{}]", self.name(), changed.join(","))
        }
    }

    /// Read rules written by [`Rules::to_notation`] (and validate them).
    pub fn from_notation(text: &str) -> Result<Rules, LudoError> {
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
                return Err(bad(&format!("unknown option '{key}'"), text));
            }
            let value = match value {
                "true" => OptionValue::Bool(true),
                "false" => OptionValue::Bool(false),
                v => match v.parse::<i64>() {
                    Ok(i) => OptionValue::Int(i),
                    Err(_) => OptionValue::Str(v.to_owned()),
                },
            };
            rules.set_option(key, &value)?;
        }
        rules.validate()?;
        Ok(rules)
    }
}

impl Game {
    /// The position as one line of text; [`Game::from_notation`] reads it back exactly.
    pub fn to_notation(&self) -> String {
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
        let phase = match self.turn.phase {
            Phase::Roll => "r".to_owned(),
            Phase::Move(roll) => format!("m{roll}"),
            Phase::Over => "o".to_owned(),
        };
        let passed = match self.passed() {
            None => "-".to_owned(),
            Some((seat, forfeit)) => {
                format!("{}{}", r.seat_labels[seat], if forfeit { "!" } else { "" })
            }
        };
        let ranking: String = self.ranking().map(|s| r.seat_labels[s]).collect();
        format!(
            "{} {} {}:{}:{}:{} {} {} {:016x}",
            r.to_notation(),
            board.join("/"),
            r.seat_labels[self.turn.current as usize],
            phase,
            self.turn.sixes,
            u8::from(self.turn.extra),
            passed,
            if ranking.is_empty() {
                "-".to_owned()
            } else {
                ranking
            },
            self.rng.state()
        )
    }

    /// Read a position written by [`Game::to_notation`]. It has six fields, separated by
    /// spaces:
    ///
    /// 1. the rules ([`Rules::to_notation`]);
    /// 2. every playing seat's step counts, `A3.-1/C-1.-1` (the seat's label, then one
    ///    step count per token);
    /// 3. the turn, `current:phase:sixes:extra`: whose turn it is (the last mover once the
    ///    game is over); the phase (`r` roll, `m1`-`m6` move with that pending roll, `o`
    ///    over); the 6s rolled in a row in this turn (a pending 6 counts); `1` when the next
    ///    (or pending) roll is an extra roll, else `0`;
    /// 4. whose turn passed without a move just before this roll: `-` nobody, `B` B could
    ///    not move, `B!` B forfeited the turn by reaching the six limit;
    /// 5. the ranking so far, best first (`-` when empty);
    /// 6. the die's state, in hexadecimal.
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
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [rules, board, turn, passed, ranking, rng] = fields[..] else {
            return Err(bad(
                "expected 6 fields (rules board turn passed ranking die)",
                text,
            ));
        };
        // Every error is an invalid notation, rules that are not valid too.
        let rules = Rules::from_notation(rules).map_err(|e| match e {
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
            for (t, &s) in values.iter().enumerate() {
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
                for ta in 0..rules.tokens as usize {
                    for tc in 0..rules.tokens as usize {
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
        let mut cc = current.chars();
        let current = match (cc.next(), cc.next()) {
            (Some(c), None) => seat_of(c)?,
            _ => return Err(bad("the current player is not one position", text)),
        };
        if !order.contains(&current) {
            return Err(bad("the current player does not play", text));
        }
        game.turn.current = current as u8;
        game.turn.phase = match phase {
            "r" => Phase::Roll,
            "o" => Phase::Over,
            p if p.len() == 2 && p.starts_with('m') => match p[1..].parse::<u8>() {
                Ok(roll @ 1..=6) => Phase::Move(roll),
                _ => return Err(bad("a pending roll outside 1-6", text)),
            },
            _ => return Err(bad("the phase is not r, m1-m6 or o", text)),
        };
        game.turn.sixes = match sixes.parse::<u8>() {
            Ok(n) => n,
            _ => {
                return Err(bad(
                    "the count of 6s in a row is not a number from 0 to 255",
                    text,
                ));
            }
        };
        game.turn.extra = match extra {
            "0" => false,
            "1" => true,
            _ => return Err(bad("the extra-roll flag is not 0 or 1", text)),
        };
        (game.turn.passed, game.turn.passed_by_forfeit) = match passed {
            "-" => (NONE, false),
            p => {
                let (label, forfeit) = match p.strip_suffix('!') {
                    Some(l) => (l, true),
                    None => (p, false),
                };
                let mut lc = label.chars();
                match (lc.next(), lc.next()) {
                    (Some(c), None) if order.contains(&seat_of(c)?) => (seat_of(c)? as u8, forfeit),
                    _ => return Err(bad("the passed player does not play", text)),
                }
            }
        };
        if ranking != "-" {
            for c in ranking.chars() {
                let seat = seat_of(c)?;
                if !order.contains(&seat) || game.ranking().any(|s| s == seat) {
                    return Err(bad(
                        "the ranking names a player twice or one who does not play",
                        text,
                    ));
                }
                game.turn.push_ranked(seat as u8);
            }
        }
        game.rng = Rng::new(
            u64::from_str_radix(rng, 16)
                .map_err(|_| bad("the die state is not hexadecimal", text))?,
        );
        // Only the state the engine itself could have reached: a rolled-back replay of
        // the checks the engine keeps while playing.
        game.refresh_pending();
        check_consistent(&game).map_err(|what| bad(&what, text))?;
        Ok(game)
    }
}

/// The checks that tie the turn, the ranking and the board together (listed at
/// [`Game::from_notation`]).
fn check_consistent(g: &Game) -> Result<(), String> {
    let seats: Vec<Seat> = g.seats().collect();
    let finished: Vec<Seat> = seats
        .iter()
        .copied()
        .filter(|&s| g.is_finished(s))
        .collect();
    let ranked: Vec<Seat> = g.ranking().collect();
    let left = seats.len() - finished.len();
    let over = match g.rules.end {
        EndCondition::FirstWinner => !finished.is_empty(),
        EndCondition::FullRanking => left == 0 || (seats.len() > 1 && left <= 1),
    };
    let fail = |what: &str| Err(what.to_owned());
    if over != (g.turn.phase == Phase::Over) {
        return fail("the phase does not match whether the game is over");
    }
    for &s in &finished {
        if !ranked.contains(&s) {
            return fail("a finished player is missing from the ranking");
        }
    }
    let full = g.rules.end == EndCondition::FullRanking && over;
    for (i, &s) in ranked.iter().enumerate() {
        let last_of_full = full && i == ranked.len() - 1 && ranked.len() == seats.len();
        if !g.is_finished(s) && !last_of_full {
            return fail("the ranking names a player who has not finished");
        }
    }
    if full && ranked.len() != seats.len() {
        return fail("a finished game must rank every player");
    }
    // Play stops at the first finisher (first-winner) or when one player is left
    // (full ranking): no more players can have finished than that.
    let most = match g.rules.end {
        EndCondition::FirstWinner => 1,
        EndCondition::FullRanking => seats.len().saturating_sub(1).max(1),
    };
    if finished.len() > most {
        return fail("more players have finished than the game lets finish");
    }
    let current = g.turn.current as Seat;
    if over {
        // The move that ends the game leaves the turn with its mover, the last to finish.
        if ranked.get(finished.len().wrapping_sub(1)) != Some(&current) {
            return fail("the game is over but the current player is not the last to finish");
        }
    } else if g.is_finished(current) {
        return fail("the current player has already finished");
    }
    if let Phase::Move(roll) = g.turn.phase
        && g.moves_for(current, roll).is_empty()
    {
        return fail("a pending roll with no legal move");
    }
    if g.turn.passed != NONE {
        if g.turn.phase != Phase::Roll {
            return fail("a pass is only shown while waiting for a roll");
        }
        let passer = g.turn.passed as Seat;
        if g.is_finished(passer) {
            return fail("the player whose turn passed has finished");
        }
        if passer != current && next_active(g, passer) != current {
            return fail("the turn passed, but not to the current player");
        }
    }
    if over {
        if g.turn.sixes != 0 || g.turn.extra {
            return fail("6s in a row or an extra roll counted after the game is over");
        }
        return Ok(());
    }
    match turn_reach(g) {
        Reach::Yes => Ok(()),
        Reach::NotOnThisBoard => Err(format!(
            "player {} has a legal move with every roll that would have passed its turn",
            g.rules.seat_labels[g.turn.passed as Seat % g.rules.seat_labels.len()]
        )),
        Reach::No => Err(unreachable_turn(g)),
    }
}

/// The next seat after `seat`, going round, that has not finished.
fn next_active(g: &Game, seat: Seat) -> Seat {
    let seats: Vec<Seat> = g.seats().filter(|&s| !g.is_finished(s)).collect();
    seats
        .iter()
        .copied()
        .find(|&s| s > seat)
        .or_else(|| seats.first().copied())
        .unwrap_or(seat)
}

/// Whether play reaches a position's turn state.
#[derive(Debug, PartialEq, Eq)]
enum Reach {
    /// It does.
    Yes,
    /// The turn rules produce it, but the last step into it does not fit the board (a
    /// pass for want of a move by a player who can move).
    NotOnThisBoard,
    /// The turn rules never produce it.
    No,
}

/// Can play reach the turn state of `g` (which is not over)? The engine's own turn rules
/// ([`Turn::begin_roll`], [`Turn::cannot_move`], [`Turn::after_move`]) are run from the
/// start of a turn over every die value and every outcome the board may give: a roll with
/// or without a legal move, a move with or without a capture and with or without a token
/// brought home (when these give extra rolls, no more of them than the board shows: a
/// token captured this turn is still in its yard, a token brought home is still home). The
/// turn runs on two stand-in seats, 0 for the player whose turn it is (or whose turn just
/// passed) and 1 for the next one, or on one seat when one player is left. The last step
/// into the state must also fit the board: a turn that passed for want of a move needs a
/// roll with which the passer has no move now (a pass changes nothing on the board).
fn turn_reach(g: &Game) -> Reach {
    let r = &g.rules;
    let t = &g.turn;
    let active = g.seats().filter(|&s| !g.is_finished(s)).count();
    let playing: u8 = if active > 1 { 0b11 } else { 0b01 };
    let start = Turn::new(playing);
    let mut target = start;
    target.phase = t.phase;
    target.sixes = t.sixes;
    target.extra = t.extra;
    if t.passed != NONE {
        target.passed = 0;
        target.passed_by_forfeit = t.passed_by_forfeit;
        if t.passed != t.current {
            target.current = 1;
        }
    }
    // The stand-in seat 0: whoever passed, or else the current player.
    let mover = if t.passed != NONE {
        t.passed
    } else {
        t.current
    } as Seat;
    // Bonus rolls need board events that leave their mark: every capture of this turn sent
    // an opponent's token to its yard, every token brought home is still home.
    let tokens = |seat: Seat| (0..r.tokens as usize).map(move |t| g.board.step(seat, t));
    let captures = if r.capture_bonus {
        g.seats()
            .filter(|&s| s != mover)
            .map(|s| tokens(s).filter(|&x| in_yard(x)).count())
            .sum::<usize>()
    } else {
        0
    };
    let homes = if r.finish_bonus {
        tokens(mover).filter(|&x| x >= r.home_step).count()
    } else {
        0
    };
    // A run of 6s longer than the target's needs not be followed: a roll other than 6
    // leads to the same states from any run of 6s. A forfeit needs the run to reach the six
    // limit, though it resets the count: runs up to the limit are followed too.
    let cap = t.sixes.max(r.six_limit).saturating_add(2);
    if target == start {
        return Reach::Yes;
    }
    // A state of the search: the turn, and the captures and tokens brought home so far.
    let mut seen: HashSet<(Turn, usize, usize)> = HashSet::from([(start, 0, 0)]);
    let mut todo = vec![(start, 0, 0)];
    let mut found = false;
    while let Some((s, captured_so_far, home_so_far)) = todo.pop() {
        if s.current != 0 {
            continue; // the turn passed on: the next player's turn starts like this one's
        }
        let mut next: Vec<(Turn, usize, usize, bool)> = Vec::new();
        match s.phase {
            Phase::Roll => {
                for value in 1..=6 {
                    let mut rolled = s;
                    let (c, h) = (captured_so_far, home_so_far);
                    if !rolled.begin_roll(r, playing, value) {
                        next.push((rolled, c, h, true)); // forfeit
                        continue;
                    }
                    let mut stuck = rolled;
                    stuck.cannot_move(r, playing, value);
                    next.push((stuck, c, h, g.moves_for(mover, value).is_empty()));
                    rolled.phase = Phase::Move(value);
                    next.push((rolled, c, h, true));
                }
            }
            Phase::Move(roll) => {
                for captured in [false, captured_so_far < captures] {
                    for reached_home in [false, home_so_far < homes] {
                        let mut moved = s;
                        moved.after_move(r, playing, roll, false, captured, reached_home);
                        let c = captured_so_far + usize::from(captured);
                        let h = home_so_far + usize::from(reached_home);
                        next.push((moved, c, h, true));
                    }
                }
            }
            Phase::Over => {}
        }
        for (n, c, h, fits) in next {
            if n == target {
                if fits {
                    return Reach::Yes;
                }
                found = true;
            }
            if n.sixes <= cap && seen.insert((n, c, h)) {
                todo.push((n, c, h));
            }
        }
    }
    if found {
        Reach::NotOnThisBoard
    } else {
        Reach::No
    }
}

/// Why the turn state of `g` is one play never reaches (the first reason that applies).
fn unreachable_turn(g: &Game) -> String {
    let r = &g.rules;
    let t = &g.turn;
    let passed_on = t.passed != NONE && t.passed != t.current;
    let option = |name: &str| {
        r.options()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_string())
            .unwrap_or_default()
    };
    let reason = if t.passed != NONE && t.passed_by_forfeit && r.six_limit == 0 {
        "a turn passed by forfeit ('!'), but these rules have no six limit".to_owned()
    } else if r.six_limit > 0 && t.sixes >= r.six_limit {
        format!(
            "{} 6s in a row reach the six limit of {}, which forfeits the turn",
            t.sixes, r.six_limit
        )
    } else if matches!(t.phase, Phase::Move(roll) if roll != 6) && t.sixes != 0 {
        "6s in a row counted under a pending roll that is not a 6".to_owned()
    } else if t.phase == Phase::Move(6) && t.sixes == 0 {
        "a pending 6 not counted among the 6s in a row".to_owned()
    } else if t.phase == Phase::Roll && t.sixes > 0 && !t.extra {
        "6s in a row counted without an extra roll".to_owned()
    } else if passed_on && (t.sixes != 0 || t.extra) {
        "the turn just passed, but the current player's counters are not 0:0".to_owned()
    } else if t.passed == t.current && !t.extra && g.seats().count() > 1 {
        "the current player's own turn passed, but without another roll".to_owned()
    } else {
        format!(
            "the counters {}:{} {}cannot occur in these rules (six_bonus={}, six_limit={}, \
             capture_bonus={}, finish_bonus={})",
            t.sixes,
            u8::from(t.extra),
            match t.phase {
                Phase::Move(roll) => format!("with a pending {roll} "),
                _ if t.passed == t.current => "after the player's own pass ".to_owned(),
                _ => String::new(),
            },
            option("six_bonus"),
            option("six_limit"),
            option("capture_bonus"),
            option("finish_bonus")
        )
    };
    format!("an impossible turn: {reason}")
}

impl GameRecord {
    /// Every roll and move so far as text: `6 Ap 4 Ap =3` (`=` marks a value given by the
    /// caller instead of rolled with the die).
    pub fn moves_text(&self) -> String {
        let mut words = Vec::with_capacity(self.past.len());
        for (before, event) in &self.past {
            words.push(match *event {
                Event::Roll {
                    value, die: true, ..
                } => value.to_string(),
                Event::Roll {
                    value, die: false, ..
                } => format!("={value}"),
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::game::Move;

    #[test]
    fn rules_notation_round_trips() {
        let mut r = Rules::STANDARD;
        assert_eq!(r.to_notation(), "standard");
        r.tokens = 2;
        r.safe_squares = true;
        r.own_tokens = OwnTokens::Block;
        let text = r.to_notation();
        assert_eq!(
            text,
            "standard[tokens=2,own_tokens=block,safe_squares=true]"
        );
        assert_eq!(Rules::from_notation(&text), Ok(r));
        assert!(Rules::from_notation("standard[tokens=9]").is_err());
        assert!(Rules::from_notation("standard[colour=red]").is_err());
        assert!(Rules::from_notation("standard[tokens=2").is_err());
    }

    #[test]
    fn game_notation_round_trips() {
        let mut g = Game::new(Rules::CS162, &[0, 1], 42).unwrap();
        assert_eq!(
            g.to_notation(),
            "cs162 A-1.-1/B-1.-1 A:r:0:0 - - 000000000000002a"
        );
        g.roll(6).unwrap();
        assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
        g.play(Move {
            seat: 0,
            token: 0,
            roll: 6,
        })
        .unwrap();
        g.roll(3).unwrap();
        assert_eq!(
            g.to_notation(),
            "cs162 A0.-1/B-1.-1 A:m3:0:1 - - 000000000000002a"
        );
        assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
        g.play(Move {
            seat: 0,
            token: 0,
            roll: 3,
        })
        .unwrap();
        g.roll(2).unwrap(); // B cannot move
        let text = g.to_notation();
        assert_eq!(text, "cs162 A3.-1/B-1.-1 A:r:0:0 B - 000000000000002a");
        assert_eq!(Game::from_notation(&text), Ok(g));
    }

    #[test]
    fn long_runs_of_sixes_round_trip() {
        let mut g = Game::new(Rules::GT, &[0, 1, 2, 3], 1).unwrap();
        for _ in 0..300 {
            g.roll(6).unwrap();
            let mv = g.legal_moves().iter().next().unwrap();
            g.play(mv).unwrap();
            if g.is_over() {
                break;
            }
            assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
        }
    }

    #[test]
    fn impossible_positions_are_refused() {
        for text in [
            "cs162 A3.-1/B-1.-1 C:r:0:0 - - 0",             // C does not play
            "cs162 A58.-1/B-1.-1 A:r:0:0 - - 0",            // past the end
            "cs162 A3.-1/B45.-1 A:r:0:0 - - 0",             // B's 45 is space 3: shared
            "cs162 A57.57/B-1.-1 A:r:0:0 - - 0",            // A finished but not ranked, game over
            "cs162 A3.-1/B-1.-1 A:m3:0:0 - - 0",            // fine
            "cs162 A-1.-1/B-1.-1 A:m3:0:0 - - 0",           // pending 3 with nothing to move
            "gt A-1.-1/B-2.-1/C-1.-2/D-1.-2 A:r:0:0 - - 0", // A's tokens on one slot
            "cs162 A3.-1/B-1.-1 A:r:0:0 - - xyz",
            "cs162 A3.-1 A:r:0:0 - -",
            "gt A40.41/B40.41/C-1.-2/D-1.-2 A:o:0:0 - AB 0000000000000001",
            "cs162 A57.57/C57.57 A:o:0:0 - AC 0000000000000000",
            "cs162 A3.-1/B-1.-1 A:r:5:1 - - 0", // five 6s with one bonus per 6
            "cs162 A3.-1/B-1.-1 A:r:1:0 - - 0", // a run of 6s without an extra roll
            "cs162 A3.-1/B-1.-1 A:m6:0:0 - - 0", // a pending 6 not counted
            "cs162 A3.-1/B-1.-1 A:m3:1:1 - - 0", // a 3 does not continue a run
        ] {
            let ok = Game::from_notation(text);
            assert_eq!(
                ok.is_ok(),
                text == "cs162 A3.-1/B-1.-1 A:m3:0:0 - - 0",
                "{text}: {ok:?}"
            );
        }
    }

    #[test]
    fn impossible_turn_states_are_refused_with_the_reason() {
        for (text, reason) in [
            // cs162 has no six limit: nobody forfeits.
            (
                "cs162 A3.-1/C-1.-1 C:r:0:0 A! - 0000000000000001",
                "no six limit",
            ),
            // cs162 gives extra rolls only for a 6 (no capture or finish bonus).
            (
                "cs162 A3.-1/C-1.-1 A:r:0:1 - - 0000000000000001",
                "counters 0:1 cannot occur",
            ),
            // A second 6 in a row on a turn that never had an extra roll.
            (
                "cs162 A3.-1/C-1.-1 A:m6:2:0 - - 0000000000000001",
                "counters 2:0 with a pending 6",
            ),
            // A first 6 cannot be an extra roll without a bonus.
            (
                "cs162 A3.-1/C-1.-1 A:m6:1:1 - - 0000000000000001",
                "counters 1:1 with a pending 6",
            ),
            // Three 6s in a row: cs162's 6 on the extra roll gives no roll.
            (
                "cs162 A3.-1/C-1.-1 A:m6:3:1 - - 0000000000000001",
                "counters 3:1 with a pending 6",
            ),
            (
                "cs162 A3.-1/C-1.-1 A:r:2:1 - - 0000000000000001",
                "counters 2:1 cannot occur",
            ),
            // The six limit: the third 6 forfeits.
            (
                "standard[six_limit=3] A3.-1.-1.-1/C-1.-1.-1.-1 A:m6:3:1 - - 0000000000000001",
                "reach the six limit of 3",
            ),
            // A pass by a player who is not the one before the current player.
            (
                "standard A3.-1.-1.-1/B-1.-1.-1.-1/C-1.-1.-1.-1 C:r:0:0 A - 0000000000000001",
                "not to the current player",
            ),
            // The next player has not rolled yet.
            (
                "standard A3.-1.-1.-1/C-1.-1.-1.-1 C:r:1:1 A - 0000000000000001",
                "counters are not 0:0",
            ),
            // Its own turn passed (a 6 it could not use) but no extra roll: impossible.
            (
                "standard A55.55.55.55/C-1.-1.-1.-1 A:r:0:0 A - 0000000000000001",
                "own turn passed",
            ),
            // A's tokens on the track move with any roll (they bounce back from the end).
            (
                "cs162 A3.10/C-1.-1 C:r:0:0 A - 0000000000000001",
                "has a legal move with every roll",
            ),
            // An own pass after a 6 that could have moved.
            (
                "standard A3.-1.-1.-1/C-1.-1.-1.-1 A:r:1:1 A - 0000000000000001",
                "has a legal move with every roll",
            ),
            // cs162 never gives a roll for a 6 on an extra roll: no own pass with two 6s.
            (
                "cs162 A57.57/B-1.-1/C57.52 C:r:2:1 C A 0000000000000001",
                "after the player's own pass",
            ),
            // Game over: the turn stays with the last player to finish.
            (
                "gt A40.41/B3.-2/C-1.-2/D-1.-2 B:o:0:0 - A 0000000000000001",
                "not the last to finish",
            ),
            (
                "cs162 A57.57/C57.57 A:r:0:0 C AC 0000000000000001",
                "the phase does not match",
            ),
        ] {
            match Game::from_notation(text) {
                Err(LudoError::InvalidNotation(msg)) => {
                    assert!(msg.contains(reason), "{text}: {msg}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn bad_rules_in_a_position_are_invalid_notation() {
        for text in [
            "chess A3.-1/C-1.-1 A:r:0:0 - - 0",
            "cs162[colour=red] A3.-1/C-1.-1 A:r:0:0 - - 0",
            "standard[six_limit=1] A3.-1.-1.-1/C-1.-1.-1.-1 A:r:0:0 - - 0",
        ] {
            assert!(
                matches!(
                    Game::from_notation(text),
                    Err(LudoError::InvalidNotation(_))
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn possible_turn_states_are_read() {
        for text in [
            // Standard: every 6 rolls again, so a 6 that could not be used passes to itself.
            "standard A55.55.55.55/C-1.-1.-1.-1 A:r:3:1 A - 0000000000000001",
            "standard[six_limit=3] A3.-1.-1.-1/C-1.-1.-1.-1 C:r:0:0 A! - 0000000000000001",
            "standard[six_limit=3] A3.-1.-1.-1/C-1.-1.-1.-1 A:m6:2:1 - - 0000000000000001",
            // A capture bonus gives an extra roll without a 6, and a 6 on it counts on.
            "cs162[capture_bonus=true] A3.-1/C-1.-1 A:r:0:1 - - 0000000000000001",
            "cs162[capture_bonus=true] A3.-1/C-1.-1 A:m6:3:1 - - 0000000000000001",
            "cs162 A3.-1/C-1.-1 A:m6:2:1 - - 0000000000000001",
            "cs162 A3.-1/C-1.-1 A:m3:0:1 - - 0000000000000001",
            "cs162 A-1.-1/C-1.-1 C:r:0:0 A - 0000000000000001",
            "cs162 A57.-1/C-1.-1 C:r:0:0 A - 0000000000000001",
            // One player: its turn passes to itself.
            "cs162 A-1.-1 A:r:0:0 A - 0000000000000001",
            "gt A40.41/B3.-2/C-1.-2/D-1.-2 A:o:0:0 - A 0000000000000001",
            "cs162 A57.57/B-1.-1/C57.57 C:o:0:0 - ACB 0000000000000001",
        ] {
            let g = Game::from_notation(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(g.to_notation(), text);
        }
    }

    /// The turn part of a position, apart from the board and the die: what the turn checks
    /// of [`Game::from_notation`] judge.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    struct TurnKey {
        /// 'r' roll, 'm' a pending roll other than 6, '6' a pending 6, 'o' over.
        phase: char,
        sixes: u8,
        extra: bool,
        /// '-' nobody, 'p' the player before the current one, 's' the current player.
        passed: char,
        forfeit: bool,
    }

    fn key_of(g: &Game) -> TurnKey {
        let (sixes, extra) = g.turn_counters();
        let phase = match g.phase() {
            Phase::Roll => 'r',
            Phase::Move(6) => '6',
            Phase::Move(_) => 'm',
            Phase::Over => 'o',
        };
        let (passed, forfeit) = match g.passed() {
            None => ('-', false),
            Some((p, f)) if p == g.current_player() => ('s', f),
            Some((_, f)) => ('p', f),
        };
        TurnKey {
            phase,
            sixes,
            extra,
            passed,
            forfeit,
        }
    }

    /// The seat before `seat`, going round, among those that have not finished.
    fn previous_active(g: &Game, seat: Seat) -> Seat {
        let active: Vec<Seat> = g.seats().filter(|&s| !g.is_finished(s)).collect();
        active
            .iter()
            .rev()
            .copied()
            .find(|&s| s < seat)
            .or_else(|| active.last().copied())
            .unwrap_or(seat)
    }

    /// Brute force: for rule variants of every preset (the 6s' extra rolls, the six limit,
    /// capture and finish bonuses), one and several players, collect the turn states that
    /// random play (with a die loaded towards 6s, for long runs) reaches; then put every
    /// small turn state on sampled positions of those games. Every reached position is read
    /// back exactly, and every turn state `from_notation` accepts is one that play reached.
    #[test]
    fn accepted_turn_states_are_the_reached_ones() {
        use crate::ludo::rules::SixBonus;
        let mut meta = Rng::new(2024);
        let mut checked = 0usize;
        for base in [Rules::CS162, Rules::STANDARD, Rules::GT] {
            for (bonus, limit) in [
                (SixBonus::Never, 0),
                (SixBonus::Once, 0),
                (SixBonus::Once, 2),
                (SixBonus::Always, 0),
                (SixBonus::Always, 2),
                (SixBonus::Always, 3),
            ] {
                for (capture, finish) in [(false, false), (true, false), (false, true)] {
                    for players in [1, 2, 4] {
                        let mut rules = base;
                        rules.six_bonus = bonus;
                        rules.six_limit = limit;
                        rules.capture_bonus = capture;
                        rules.finish_bonus = finish;
                        rules.validate().unwrap();
                        checked += check_variant(rules, players, &mut meta);
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// A random position of `rules` with `seats`, waiting for a player's first roll: tokens
    /// anywhere, many of them where a 6 captures or brings a token home (so that runs of
    /// 6s with bonus rolls come up often). One that [`Game::from_notation`] reads.
    fn random_board(rules: Rules, seats: &[Seat], meta: &mut Rng) -> Game {
        let n = rules.tokens as usize;
        loop {
            let mut g = Game::new(rules, seats, meta.next_u64()).unwrap();
            let mover = seats[meta.below(seats.len() as u32) as usize];
            g.turn.current = mover as u8;
            let random_step = |meta: &mut Rng, t: usize| match meta.below(3) {
                0 => -1 - t as Step * Step::from(rules.yard_slots),
                _ => meta.below(rules.finish_step as u32 + 1) as Step,
            };
            for t in 0..n {
                let step = match meta.below(3) {
                    0 => rules.home_step - 6 * (1 + meta.below(2) as Step),
                    _ => random_step(meta, t),
                };
                g.board.set_step(mover, t, step);
            }
            for &seat in seats.iter().filter(|&&s| s != mover) {
                for t in 0..n {
                    let own = g.board.step(mover, meta.below(n as u32) as usize);
                    let ahead = rules
                        .track_square(mover, own)
                        .map(|sq| (sq as u32 + 6 * (1 + meta.below(3))) % rules.track_len as u32)
                        .and_then(|sq| rules.step_on_square(seat, sq as u8));
                    let step = match ahead {
                        Some(step) if meta.below(3) != 0 => step,
                        _ => random_step(meta, t),
                    };
                    g.board.set_step(seat, t, step);
                }
            }
            g.refresh_pending();
            if let Ok(read) = Game::from_notation(&g.to_notation()) {
                return read;
            }
        }
    }

    /// [`accepted_turn_states_are_the_reached_ones`] for one rule set and number of
    /// players; returns the number of notations tried.
    fn check_variant(rules: Rules, players: usize, meta: &mut Rng) -> usize {
        let seats = rules.default_seats(players).unwrap();
        let mut reached: HashSet<TurnKey> = HashSet::new();
        let mut samples: Vec<Game> = Vec::new();
        // Whole games from the start, and stretches of play from random boards.
        for game_no in 0..300 {
            let (mut g, length) = if game_no % 2 == 0 {
                (Game::new(rules, &seats, meta.next_u64()).unwrap(), 5_000)
            } else {
                (random_board(rules, &seats, meta), 60)
            };
            reached.insert(key_of(&g));
            let mut steps = 0;
            while !g.is_over() && steps < length {
                steps += 1;
                match g.phase() {
                    Phase::Roll => {
                        let value = if meta.below(2) == 0 {
                            6
                        } else {
                            1 + meta.below(5) as u8
                        };
                        g.roll(value).unwrap();
                    }
                    _ => {
                        // Mostly a move that earns a bonus roll, if there is one.
                        let moves = g.legal_moves();
                        let earns = |mv: &Move| {
                            let mut h = g;
                            matches!(h.play(*mv), Ok(Event::Move { outcome, .. })
                                if outcome.captured_any() || outcome.reached_home)
                        };
                        let mv = match moves.iter().find(earns) {
                            Some(mv) if meta.below(4) != 0 => mv,
                            _ => g.random_move(meta).unwrap(),
                        };
                        g.play(mv).unwrap();
                    }
                }
                reached.insert(key_of(&g));
                let keep = if g.passed().is_some() || g.is_over() {
                    8
                } else {
                    200
                };
                if samples.len() < 100 && meta.below(keep) == 0 {
                    assert_eq!(Game::from_notation(&g.to_notation()), Ok(g));
                    samples.push(g);
                }
            }
        }
        let mut tried = 0;
        for g in &samples {
            let text = g.to_notation();
            let f: Vec<&str> = text.split(' ').collect();
            let labels = g.rules().seat_labels;
            let current = g.current_player();
            let before = previous_active(g, current);
            for phase in ["r", "m3", "m6", "o"] {
                for sixes in 0..=3 {
                    for extra in 0..=1 {
                        for passed in ['-', 'p', 's'] {
                            for forfeit in ["", "!"] {
                                let passed_field = match passed {
                                    '-' if forfeit.is_empty() => "-".to_owned(),
                                    '-' => continue,
                                    'p' if before == current => continue,
                                    'p' => format!("{}{forfeit}", labels[before]),
                                    _ => format!("{}{forfeit}", labels[current]),
                                };
                                let turn = format!("{}:{phase}:{sixes}:{extra}", labels[current]);
                                let candidate =
                                    [f[0], f[1], &turn, &passed_field, f[4], f[5]].join(" ");
                                tried += 1;
                                if let Ok(read) = Game::from_notation(&candidate) {
                                    assert_eq!(read.to_notation(), candidate);
                                    let key = key_of(&read);
                                    if !reached.contains(&key) {
                                        eprintln!(
                                            "{candidate} is accepted, but play never reached {key:?} ({players} players)"
                                        );
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        tried
    }

    #[test]
    fn moves_text_replays_exactly() {
        let start = Game::new(Rules::GT, &[0, 1, 2, 3], 5).unwrap();
        let mut rec = GameRecord::new(start);
        let mut rng = Rng::new(9);
        rec.roll(Some(6)).unwrap();
        for _ in 0..400 {
            if rec.game().is_over() {
                break;
            }
            match rec.game().phase() {
                Phase::Roll => {
                    rec.roll(None).unwrap();
                }
                _ => {
                    let moves = rec.game().legal_moves();
                    let mv = moves
                        .iter()
                        .nth(rng.below(moves.len() as u32) as usize)
                        .unwrap();
                    rec.play(mv).unwrap();
                }
            }
        }
        let text = rec.moves_text();
        assert!(text.starts_with("=6 "));
        let again = GameRecord::replay(start, &text).unwrap();
        assert_eq!(again, rec);
        assert!(GameRecord::replay(start, "=6 B").is_err());
        assert!(GameRecord::replay(start, "=7").is_err());
    }
}
